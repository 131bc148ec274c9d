// Found by benchmarks/fuzz.py (cpu-host, seed 42): one tensor feeds a matmul's A (as a producer's init) and, transposed, its B; the payload-wide axis map joined M and N, so N was tiled around a fused producer that has no N and the producer was computed once per N tile. Axes are now named along the nest's own edges.
// schedgen: --target cpu-host --fuse-mode max-producers
func.func @fuzz(%x: tensor<96x64xf32>, %y: tensor<96x64xf32>) -> tensor<96x96xf32> {
  %e0 = tensor.empty() : tensor<96x64xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<96x64xf32>) outs(%e0 : tensor<96x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<96x64xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<96x64xf32>) outs(%g : tensor<96x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<96x64xf32>
  %e1 = tensor.empty() : tensor<64x96xf32>
  %b = linalg.transpose ins(%g : tensor<96x64xf32>) outs(%e1 : tensor<64x96xf32>) permutation = [1, 0]
  %c0 = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<96x96xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<96x96xf32>) -> tensor<96x96xf32>
  %m = linalg.matmul ins(%a, %b : tensor<96x64xf32>, tensor<64x96xf32>) outs(%f : tensor<96x96xf32>) -> tensor<96x96xf32>
  return %m : tensor<96x96xf32>
}
