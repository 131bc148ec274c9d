// Found by benchmarks/fuzz.py (cpu-host, seed 67, example 2000): an f16 sum reduced to 1x1x1 whose CPU order landed 1.24 from the payload evaluated in f32, the original's 0.52, over the factor 2 allowed; evaluated in f32 too, the transformed payload matches the payload in f32 (verify's second look, as for cpu_bf16_sum_rounds_worse).
// schedgen: --target cpu-host --fuse-mode only-patterns
func.func @fuzz(%a0: tensor<128x256xf16>, %a1: tensor<128x256xf16>) -> (tensor<256xf16>, tensor<256xf16>, tensor<1x1x1xf16>, tensor<128x1x256xf16>) {
  %c0 = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<256xf16>
  %v1 = linalg.fill ins(%c0 : f16) outs(%e1 : tensor<256xf16>) -> tensor<256xf16>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%a0 : tensor<128x256xf16>) outs(%v1 : tensor<256xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.maximumf %in0, %out : f16
    linalg.yield %r : f16
  } -> tensor<256xf16>
  %e8 = tensor.empty() : tensor<128x1x256xf16>
  %v3 = linalg.broadcast ins(%a0 : tensor<128x256xf16>) outs(%e8 : tensor<128x1x256xf16>) dimensions = [1]
  %c10 = arith.constant 0.0 : f16
  %e11 = tensor.empty() : tensor<1x1x1xf16>
  %v4 = linalg.fill ins(%c10 : f16) outs(%e11 : tensor<1x1x1xf16>) -> tensor<1x1x1xf16>
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, d1, 0)>], iterator_types = ["reduction", "parallel", "reduction"]} ins(%v3 : tensor<128x1x256xf16>) outs(%v4 : tensor<1x1x1xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.addf %in0, %out : f16
    linalg.yield %r : f16
  } -> tensor<1x1x1xf16>
  %e18 = tensor.empty() : tensor<1x1x1xf16>
  %v6 = linalg.transpose ins(%v5 : tensor<1x1x1xf16>) outs(%e18 : tensor<1x1x1xf16>) permutation = [2, 1, 0]
  %e20 = tensor.empty() : tensor<1x1x1xf16>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v6, %v4 : tensor<1x1x1xf16>, tensor<1x1x1xf16>) outs(%e20 : tensor<1x1x1xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.addf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<1x1x1xf16>
  %e26 = tensor.empty() : tensor<128x1x256xf16>
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v3, %a1 : tensor<128x1x256xf16>, tensor<128x256xf16>) outs(%e26 : tensor<128x1x256xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.minimumf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<128x1x256xf16>
  return %v1, %v2, %v7, %v9 : tensor<256xf16>, tensor<256xf16>, tensor<1x1x1xf16>, tensor<128x1x256xf16>
}
