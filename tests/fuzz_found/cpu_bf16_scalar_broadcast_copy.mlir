// Found by benchmarks/fuzz.py --target cpu-host (seed 122): a bf16 scalar broadcast, lowered to a 1-D copy generic from a rank-0 buffer, made the CPU lowering's strided-copy rewrite index an empty row (IndexError in run/strided_copies.py). Copies with no stride to read along are left alone now.
// schedgen: --target cpu-host --fuse-mode no-fuse
func.func @fuzz(%a0: tensor<2048xbf16>, %a1: tensor<13x1240xbf16>, %a2: tensor<670x23xbf16>) -> (tensor<13xbf16>, tensor<13xbf16>, tensor<1241x16xbf16>, tensor<13xbf16>, tensor<13x23xbf16>, tensor<9xbf16>, tensor<8x2048xbf16>, tensor<13x1240xbf16>, tensor<23xbf16>, tensor<23xbf16>, tensor<23xbf16>, tensor<23xbf16>, tensor<23xbf16>) {
  %e0 = tensor.empty() : tensor<1240x13xbf16>
  %v2 = linalg.transpose ins(%a1 : tensor<13x1240xbf16>) outs(%e0 : tensor<1240x13xbf16>) permutation = [1, 0]
  %c2 = arith.constant 0.0 : bf16
  %e3 = tensor.empty() : tensor<13xbf16>
  %v3 = linalg.fill ins(%c2 : bf16) outs(%e3 : tensor<13xbf16>) -> tensor<13xbf16>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a1 : tensor<13x1240xbf16>) outs(%v3 : tensor<13xbf16>) {
  ^bb0(%in0: bf16, %out: bf16):
    %r = arith.addf %in0, %out : bf16
    linalg.yield %r : bf16
  } -> tensor<13xbf16>
  %c10 = arith.constant 0.0 : bf16
  %v5 = tensor.pad %v2 low[0, 2] high[1, 1] {
  ^bb0(%i0: index, %i1: index):
    tensor.yield %c10 : bf16
  } : tensor<1240x13xbf16> to tensor<1241x16xbf16>
  %c15 = arith.constant 0.0 : bf16
  %e16 = tensor.empty() : tensor<13xbf16>
  %v6 = linalg.fill ins(%c15 : bf16) outs(%e16 : tensor<13xbf16>) -> tensor<13xbf16>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%v2 : tensor<1240x13xbf16>) outs(%v6 : tensor<13xbf16>) {
  ^bb0(%in0: bf16, %out: bf16):
    %r = arith.maximumf %in0, %out : bf16
    linalg.yield %r : bf16
  } -> tensor<13xbf16>
  %e23 = tensor.empty() : tensor<13x670xbf16>
  %v8 = linalg.broadcast ins(%v6 : tensor<13xbf16>) outs(%e23 : tensor<13x670xbf16>) dimensions = [1]
  %c25 = arith.constant 0.0 : bf16
  %e26 = tensor.empty() : tensor<13x23xbf16>
  %v10 = linalg.fill ins(%c25 : bf16) outs(%e26 : tensor<13x23xbf16>) -> tensor<13x23xbf16>
  %v11 = linalg.matmul ins(%v8, %a2 : tensor<13x670xbf16>, tensor<670x23xbf16>) outs(%v10 : tensor<13x23xbf16>) -> tensor<13x23xbf16>
  %c29 = arith.constant 2.0 : bf16
  %e30 = tensor.empty() : tensor<9xbf16>
  %v12 = linalg.fill ins(%c29 : bf16) outs(%e30 : tensor<9xbf16>) -> tensor<9xbf16>
  %e32 = tensor.empty() : tensor<8x2048xbf16>
  %v13 = linalg.broadcast ins(%a0 : tensor<2048xbf16>) outs(%e32 : tensor<8x2048xbf16>) dimensions = [0]
  %e34 = tensor.empty() : tensor<13x1240xbf16>
  %v14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a1 : tensor<13x1240xbf16>) outs(%e34 : tensor<13x1240xbf16>) {
  ^bb0(%in0: bf16, %out: bf16):
    %r = arith.maximumf %in0, %in0 : bf16
    linalg.yield %r : bf16
  } -> tensor<13x1240xbf16>
  %c40 = arith.constant 0.0 : bf16
  %e41 = tensor.empty() : tensor<23xbf16>
  %v15 = linalg.fill ins(%c40 : bf16) outs(%e41 : tensor<23xbf16>) -> tensor<23xbf16>
  %c43 = arith.constant 1.0 : bf16
  %e44 = tensor.empty() : tensor<23xbf16>
  %v16 = linalg.fill ins(%c43 : bf16) outs(%e44 : tensor<23xbf16>) -> tensor<23xbf16>
  %v17:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%v11 : tensor<13x23xbf16>) outs(%v15, %v16 : tensor<23xbf16>, tensor<23xbf16>) {
  ^bb0(%in0: bf16, %out: bf16, %out1: bf16):
    %r = arith.addf %in0, %out : bf16
    %q = arith.maximumf %in0, %out1 : bf16
    linalg.yield %r, %q : bf16, bf16
  } -> (tensor<23xbf16>, tensor<23xbf16>)
  %e52 = tensor.empty() : tensor<23xbf16>
  %e53 = tensor.empty() : tensor<23xbf16>
  %v19:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v17#1 : tensor<23xbf16>) outs(%e52, %e53 : tensor<23xbf16>, tensor<23xbf16>) {
  ^bb0(%in0: bf16, %out: bf16, %out1: bf16):
    %r = arith.mulf %in0, %in0 : bf16
    %q = arith.maximumf %in0, %in0 : bf16
    linalg.yield %r, %q : bf16, bf16
  } -> (tensor<23xbf16>, tensor<23xbf16>)
  return %v3, %v4, %v5, %v7, %v10, %v12, %v13, %v14, %v15, %v16, %v17#0, %v19#0, %v19#1 : tensor<13xbf16>, tensor<13xbf16>, tensor<1241x16xbf16>, tensor<13xbf16>, tensor<13x23xbf16>, tensor<9xbf16>, tensor<8x2048xbf16>, tensor<13x1240xbf16>, tensor<23xbf16>, tensor<23xbf16>, tensor<23xbf16>, tensor<23xbf16>, tensor<23xbf16>
}
