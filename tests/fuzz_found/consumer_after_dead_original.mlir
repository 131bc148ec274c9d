// Found by benchmarks/fuzz.py: the second of two consumers fused into a matmul's loop failed (tileAndFuseConsumer) while the first one's dead original read the loop.
// schedgen: --memory 30153 --fuse-mode max-producers
func.func @fuzz(%a0: tensor<256xf16>, %a1: tensor<9x64xf16>, %a2: tensor<64x478xf16>, %a3: tensor<9x478xf16>, %a4: tensor<64xf16>) -> (tensor<9xf16>, tensor<9xf16>, tensor<9x478xf16>, tensor<9x478xf16>, tensor<64x9xf16>, tensor<9x478xf16>, tensor<9x478xf16>, tensor<64x9xf16>, tensor<9x478xf16>, tensor<9x478xf16>, tensor<64x478xf16>) {
  %c0 = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<9xf16>
  %v2 = linalg.fill ins(%c0 : f16) outs(%e1 : tensor<9xf16>) -> tensor<9xf16>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a1 : tensor<9x64xf16>) outs(%v2 : tensor<9xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.maximumf %in0, %out : f16
    linalg.yield %r : f16
  } -> tensor<9xf16>
  %c8 = arith.constant 0.0 : f16
  %e9 = tensor.empty() : tensor<9x478xf16>
  %v5 = linalg.fill ins(%c8 : f16) outs(%e9 : tensor<9x478xf16>) -> tensor<9x478xf16>
  %v6 = linalg.matmul ins(%a1, %a2 : tensor<9x64xf16>, tensor<64x478xf16>) outs(%v5 : tensor<9x478xf16>) -> tensor<9x478xf16>
  %e12 = tensor.empty() : tensor<9x64xf16>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a1 : tensor<9x64xf16>) outs(%e12 : tensor<9x64xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.subf %in0, %in0 : f16
    linalg.yield %r : f16
  } -> tensor<9x64xf16>
  %e18 = tensor.empty() : tensor<64x9xf16>
  %v8 = linalg.transpose ins(%v7 : tensor<9x64xf16>) outs(%e18 : tensor<64x9xf16>) permutation = [1, 0]
  %c20 = arith.constant 0.0 : f16
  %e21 = tensor.empty() : tensor<9x478xf16>
  %v9 = linalg.fill ins(%c20 : f16) outs(%e21 : tensor<9x478xf16>) -> tensor<9x478xf16>
  %v10 = linalg.matmul ins(%a1, %a2 : tensor<9x64xf16>, tensor<64x478xf16>) outs(%v9 : tensor<9x478xf16>) -> tensor<9x478xf16>
  %e24 = tensor.empty() : tensor<64x9xf16>
  %v11 = linalg.transpose ins(%v7 : tensor<9x64xf16>) outs(%e24 : tensor<64x9xf16>) permutation = [1, 0]
  %e26 = tensor.empty() : tensor<9x478xf16>
  %v13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v10, %a3 : tensor<9x478xf16>, tensor<9x478xf16>) outs(%e26 : tensor<9x478xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.minimumf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<9x478xf16>
  %e32 = tensor.empty() : tensor<9x478xf16>
  %v14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v13 : tensor<9x478xf16>) outs(%e32 : tensor<9x478xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.subf %in0, %in0 : f16
    linalg.yield %r : f16
  } -> tensor<9x478xf16>
  %e38 = tensor.empty() : tensor<64x478xf16>
  %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a2, %a4 : tensor<64x478xf16>, tensor<64xf16>) outs(%e38 : tensor<64x478xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.maximumf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<64x478xf16>
  return %v2, %v3, %v5, %v6, %v8, %v9, %v10, %v11, %v13, %v14, %v16 : tensor<9xf16>, tensor<9xf16>, tensor<9x478xf16>, tensor<9x478xf16>, tensor<64x9xf16>, tensor<9x478xf16>, tensor<9x478xf16>, tensor<64x9xf16>, tensor<9x478xf16>, tensor<9x478xf16>, tensor<64x478xf16>
}
