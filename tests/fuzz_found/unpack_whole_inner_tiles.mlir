// Found by benchmarks/fuzz.py: a tiled linalg.unpack whose tile is not a multiple of its inner tile unpacks whole inner tiles into a dynamic tensor.empty: check could not measure it, and the plan did not count the inner tiles it reads nor that buffer (footprint._unpacked_shape).
// schedgen: --memory 256 --fuse-mode max-producers
func.func @fuzz(%a0: tensor<1x3xf32>) -> (tensor<9x3xf32>, tensor<9x3xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<9x1xf32>
  %v0 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<9x1xf32>) -> tensor<9x1xf32>
  %c3 = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<9x3xf32>
  %v2 = linalg.fill ins(%c3 : f32) outs(%e4 : tensor<9x3xf32>) -> tensor<9x3xf32>
  %v3 = linalg.matmul ins(%v0, %a0 : tensor<9x1xf32>, tensor<1x3xf32>) outs(%v2 : tensor<9x3xf32>) -> tensor<9x3xf32>
  %e7 = tensor.empty() : tensor<5x2x2x2xf32>
  %c8 = arith.constant 0.0 : f32
  %v4 = linalg.pack %v3 padding_value(%c8 : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %e7 : tensor<9x3xf32> -> tensor<5x2x2x2xf32>
  %e10 = tensor.empty() : tensor<9x3xf32>
  %v5 = linalg.unpack %v4 inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %e10 : tensor<5x2x2x2xf32> -> tensor<9x3xf32>
  return %v2, %v5 : tensor<9x3xf32>, tensor<9x3xf32>
}
