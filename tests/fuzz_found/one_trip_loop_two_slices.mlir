// Found by benchmarks/fuzz.py: a fill read twice by one matmul (as A and as B) was fused twice into a one-trip loop.
// schedgen: --memory 256 --fuse-mode max-producers
func.func @fuzz() -> (tensor<8x8xf16>, tensor<8x8xf16>, tensor<8x8xf16>, tensor<8x8xf16>, tensor<8xf16>, tensor<8xf16>) {
  %c0 = arith.constant 2.0 : f16
  %e1 = tensor.empty() : tensor<8x8xf16>
  %v0 = linalg.fill ins(%c0 : f16) outs(%e1 : tensor<8x8xf16>) -> tensor<8x8xf16>
  %c3 = arith.constant 0.0 : f16
  %e4 = tensor.empty() : tensor<8x8xf16>
  %v1 = linalg.fill ins(%c3 : f16) outs(%e4 : tensor<8x8xf16>) -> tensor<8x8xf16>
  %v2 = linalg.matmul ins(%v0, %v0 : tensor<8x8xf16>, tensor<8x8xf16>) outs(%v1 : tensor<8x8xf16>) -> tensor<8x8xf16>
  %c7 = arith.constant 0.0 : f16
  %e8 = tensor.empty() : tensor<8x8xf16>
  %v3 = linalg.fill ins(%c7 : f16) outs(%e8 : tensor<8x8xf16>) -> tensor<8x8xf16>
  %v4 = linalg.matmul ins(%v2, %v2 : tensor<8x8xf16>, tensor<8x8xf16>) outs(%v3 : tensor<8x8xf16>) -> tensor<8x8xf16>
  %c11 = arith.constant 0.0 : f16
  %e12 = tensor.empty() : tensor<8xf16>
  %v5 = linalg.fill ins(%c11 : f16) outs(%e12 : tensor<8xf16>) -> tensor<8xf16>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v3 : tensor<8x8xf16>) outs(%v5 : tensor<8xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.maximumf %in0, %out : f16
    linalg.yield %r : f16
  } -> tensor<8xf16>
  return %v1, %v2, %v3, %v4, %v5, %v6 : tensor<8x8xf16>, tensor<8x8xf16>, tensor<8x8xf16>, tensor<8x8xf16>, tensor<8xf16>, tensor<8xf16>
}
