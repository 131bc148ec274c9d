// arith.addf on whole tensors between two linalg ops: no TilingInterface.
func.func @f(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %e = tensor.empty() : tensor<256x256xf32>
  %x = linalg.add ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %y = arith.addf %x, %b : tensor<256x256xf32>
  %z = linalg.mul ins(%y, %a : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %z : tensor<256x256xf32>
}
