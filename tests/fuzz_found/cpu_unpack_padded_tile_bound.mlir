// Found by benchmarks/fuzz.py --target cpu-host: an unpack of inner tiles [16, 4] over a 2x2 tensor; its tile's buffer is sized by arith.muli of an affine.apply that counts the inner tiles a tile overlaps ((d0 + 1) floordiv 16 - d0 floordiv 16 + 1), which check could not bound ("footprint cannot be measured"). check now bounds arith.muli/addi, loop induction variables, and affine maps that do not grow with their dims (counted out over the dims' ranges).
// schedgen: --target cpu-host --fuse-mode only-patterns
func.func @fuzz(%a0: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %e61 = tensor.empty() : tensor<1x1x16x4xf32>
  %c62 = arith.constant 0.0 : f32
  %v22 = linalg.pack %a0 padding_value(%c62 : f32) inner_dims_pos = [0, 1] inner_tiles = [16, 4] into %e61 : tensor<2x2xf32> -> tensor<1x1x16x4xf32>
  %e64 = tensor.empty() : tensor<2x2xf32>
  %v23 = linalg.unpack %v22 inner_dims_pos = [0, 1] inner_tiles = [16, 4] into %e64 : tensor<1x1x16x4xf32> -> tensor<2x2xf32>
  return %v23 : tensor<2x2xf32>
}
