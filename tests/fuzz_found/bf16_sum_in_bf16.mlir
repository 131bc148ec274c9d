// Found by benchmarks/fuzz.py: a bf16 sum of 256 terms accumulated in bf16. The CPU kernel's order lands elsewhere in the sequential order's own rounding range (off by 0.67 of the floored scale); verify now judges such results against the payload evaluated in f32 (schedgen/run/widen.py).
// schedgen: --target cpu-host --fuse-mode max-producers
func.func @fuzz(%a1: tensor<64x256xbf16>) -> (tensor<64x1xbf16>, tensor<64xbf16>) {
  %c6 = arith.constant 0.0 : bf16
  %e7 = tensor.empty() : tensor<64x1xbf16>
  %v3 = linalg.fill ins(%c6 : bf16) outs(%e7 : tensor<64x1xbf16>) -> tensor<64x1xbf16>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%a1 : tensor<64x256xbf16>) outs(%v3 : tensor<64x1xbf16>) {
  ^bb0(%in0: bf16, %out: bf16):
    %r = arith.addf %in0, %out : bf16
    linalg.yield %r : bf16
  } -> tensor<64x1xbf16>
  %c23 = arith.constant 0.0 : bf16
  %e24 = tensor.empty() : tensor<64xbf16>
  %v9 = linalg.fill ins(%c23 : bf16) outs(%e24 : tensor<64xbf16>) -> tensor<64xbf16>
  %v10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v4 : tensor<64x1xbf16>) outs(%v9 : tensor<64xbf16>) {
  ^bb0(%in0: bf16, %out: bf16):
    %r = arith.maximumf %in0, %out : bf16
    linalg.yield %r : bf16
  } -> tensor<64xbf16>
  return %v4, %v10 : tensor<64x1xbf16>, tensor<64xbf16>
}
