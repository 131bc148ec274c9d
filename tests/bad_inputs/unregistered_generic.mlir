func.func @f(%a: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %b = "mydialect.gelu"(%a) : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %b : tensor<16x16xf32>
}
