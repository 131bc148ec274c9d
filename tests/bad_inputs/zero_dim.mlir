func.func @f(%a: tensor<0x16xf32>) -> tensor<0x16xf32> {
  %e = tensor.empty() : tensor<0x16xf32>
  %r = linalg.add ins(%a, %a : tensor<0x16xf32>, tensor<0x16xf32>) outs(%e : tensor<0x16xf32>) -> tensor<0x16xf32>
  return %r : tensor<0x16xf32>
}
