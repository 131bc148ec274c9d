func.func @f(%a: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%n) : tensor<?x128xf32>
  %r = linalg.add ins(%a, %a : tensor<?x128xf32>, tensor<?x128xf32>) outs(%e : tensor<?x128xf32>) -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}
