// Benchmarks/fuzz.py seed 7 (example 46), cut down: an elementwise op and the transpose that reads it both write
// into one tensor.empty, so the transpose's nest bans it (it would write its tiles into the loop's output at
// other tiles). The elementwise op is in no fuse group; the ban once made it a group member that breaks, and
// with no group to split the planner retried the transpose forever.
func.func @shared_dest_direct_producer(%a0: tensor<32x31x32xf32>) -> tensor<32x31x32xf32> {
  %e = tensor.empty() : tensor<32x31x32xf32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a0 : tensor<32x31x32xf32>) outs(%e : tensor<32x31x32xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.maximumf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<32x31x32xf32>
  %v15 = linalg.transpose ins(%v6 : tensor<32x31x32xf32>) outs(%e : tensor<32x31x32xf32>) permutation = [2, 1, 0]
  return %v15 : tensor<32x31x32xf32>
}
