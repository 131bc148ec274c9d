func.func @f(%a: tensor<1099511627776xf32>) -> tensor<1099511627776xf32> {
  %e = tensor.empty() : tensor<1099511627776xf32>
  %r = linalg.add ins(%a, %a : tensor<1099511627776xf32>, tensor<1099511627776xf32>) outs(%e : tensor<1099511627776xf32>) -> tensor<1099511627776xf32>
  return %r : tensor<1099511627776xf32>
}
