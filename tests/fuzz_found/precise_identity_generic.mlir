// Found by benchmarks/fuzz.py --footprint precise: min(x, x) is x, so the simulation's canonicalization erased the generic and simulated no buffer at all (0 planned, 3302 measured); the applied schedule keeps it. Such a nest now keeps its analytic footprint.
// schedgen: --memory 256 --fuse-mode max-size --footprint precise
func.func @fuzz(%a0: tensor<127x13xf16>) -> (tensor<127x13xf16>) {
  %e81 = tensor.empty() : tensor<127x13xf16>
  %v40 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<127x13xf16>) outs(%e81 : tensor<127x13xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.minimumf %in0, %in0 : f16
    linalg.yield %r : f16
  } -> tensor<127x13xf16>
  return %v40 : tensor<127x13xf16>
}
