// Matmul 64x65536 . 65536x64 f32: one row of A and one column of B are
// 256 KiB each, so under npu-256k the reduction dim must be tiled.
func.func @matmul_long_k(%a: tensor<64x65536xf32>, %b: tensor<65536x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x65536xf32>, tensor<65536x64xf32>)
                      outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %mm : tensor<64x64xf32>
}
