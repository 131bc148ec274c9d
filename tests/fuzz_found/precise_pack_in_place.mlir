// Found by benchmarks/fuzz.py --footprint precise: a pack along its last dim is a copy into place once lowered (the simulation's view: 160 bytes), while check counted its source and result tiles apart (352 measured). check now counts such a pack's (or pad's) result over its source.
// schedgen: --memory 257 --fuse-mode only-patterns --footprint precise
func.func @fuzz(%a0: tensor<4x57x127xi32>) -> (tensor<4x57x26x5xi32>) {
  %e65 = tensor.empty() : tensor<4x57x26x5xi32>
  %c66 = arith.constant 0 : i32
  %v17 = linalg.pack %a0 padding_value(%c66 : i32) inner_dims_pos = [2] inner_tiles = [5] into %e65 : tensor<4x57x127xi32> -> tensor<4x57x26x5xi32>
  return %v17 : tensor<4x57x26x5xi32>
}
