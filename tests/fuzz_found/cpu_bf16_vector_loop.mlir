// Found by benchmarks/fuzz.py --target cpu-host: bf16 tiles vectorized into vector<49xbf16> loop-carried values, which LLVM's x86 backend could not lower ("Do not know how to soft promote this operator's operand") even with bf16 arithmetic emulated. CPU schedules now leave bf16 payloads as scalar loops (templates/cpu_lowering.mlir.j2).
// schedgen: --target cpu-host --fuse-mode only-patterns
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2)>
#map2 = affine_map<(d0) -> (d0)>
func.func @fuzz(%arg0: tensor<64x64xbf16>, %arg1: tensor<64xbf16>, %arg2: tensor<57xbf16>) -> tensor<98xbf16> {
  %cst = arith.constant 0.000000e+00 : bf16
  %0 = tensor.empty() : tensor<64x3x98xbf16>
  %1 = linalg.fill ins(%cst : bf16) outs(%0 : tensor<64x3x98xbf16>) -> tensor<64x3x98xbf16>
  %cst_0 = arith.constant 0.000000e+00 : bf16
  %2 = tensor.empty() : tensor<98xbf16>
  %3 = linalg.fill ins(%cst_0 : bf16) outs(%2 : tensor<98xbf16>) -> tensor<98xbf16>
  %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction", "parallel"]} ins(%1 : tensor<64x3x98xbf16>) outs(%3 : tensor<98xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %9 = arith.maximumf %in, %out : bf16
    linalg.yield %9 : bf16
  } -> tensor<98xbf16>
  %5 = tensor.empty() : tensor<98xbf16>
  %6 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel"]} ins(%4, %4 : tensor<98xbf16>, tensor<98xbf16>) outs(%5 : tensor<98xbf16>) {
  ^bb0(%in: bf16, %in_1: bf16, %out: bf16):
    %9 = arith.addf %in, %in_1 : bf16
    linalg.yield %9 : bf16
  } -> tensor<98xbf16>
  %7 = tensor.empty() : tensor<98xbf16>
  %8 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel"]} ins(%6, %6 : tensor<98xbf16>, tensor<98xbf16>) outs(%7 : tensor<98xbf16>) {
  ^bb0(%in: bf16, %in_1: bf16, %out: bf16):
    %9 = arith.maximumf %in, %in_1 : bf16
    linalg.yield %9 : bf16
  } -> tensor<98xbf16>
  return %8 : tensor<98xbf16>
}
