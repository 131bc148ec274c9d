// Found by benchmarks/fuzz.py --footprint precise: the simulation copies a pad's source into its padded tile (one buffer), while check counted source and result apart (248 planned, 504 measured). check now counts a pad's result over a source of the same size, as the placement does.
// schedgen: --memory 281 --fuse-mode only-patterns --footprint precise
func.func @fuzz(%a0: tensor<124x166xi32>) -> (tensor<124x167xi32>, tensor<124x167xi32>) {
  %c0 = arith.constant 0 : i32
  %v1 = tensor.pad %a0 low[0, 0] high[0, 1] {
  ^bb0(%i0: index, %i1: index):
    tensor.yield %c0 : i32
  } : tensor<124x166xi32> to tensor<124x167xi32>
  %e5 = tensor.empty() : tensor<124x167xi32>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v1 : tensor<124x167xi32>) outs(%e5 : tensor<124x167xi32>) {
  ^bb0(%in0: i32, %out: i32):
    %r = arith.minsi %in0, %in0 : i32
    linalg.yield %r : i32
  } -> tensor<124x167xi32>
  return %v1, %v2 : tensor<124x167xi32>, tensor<124x167xi32>
}
