// Found by benchmarks/fuzz.py: a tile of an unpack with unit outer dims and inner_dims_pos = [0, 1] of three dims; upstream lower_unpack's shortcut for unit outer dims sliced the packed source as if the inner tiles were its last dims ("slice along dimension 3 runs out-of-bounds: 7 >= 2") and execution failed. Such tiles are now decomposed first (decompose_pack_unpack in normalize.mlir.j2's lower_packs).
// schedgen: --memory 258 --fuse-mode max-size
func.func @fuzz(%a0: tensor<1x128x1xi32>) -> (tensor<1x128x1xi32>) {
  %e24 = tensor.empty() : tensor<1x16x1x2x8xi32>
  %c25 = arith.constant 0 : i32
  %v11 = linalg.pack %a0 padding_value(%c25 : i32) inner_dims_pos = [0, 1] inner_tiles = [2, 8] into %e24 : tensor<1x128x1xi32> -> tensor<1x16x1x2x8xi32>
  %e27 = tensor.empty() : tensor<1x128x1xi32>
  %v12 = linalg.unpack %v11 inner_dims_pos = [0, 1] inner_tiles = [2, 8] into %e27 : tensor<1x16x1x2x8xi32> -> tensor<1x128x1xi32>
  return %v12 : tensor<1x128x1xi32>
}
