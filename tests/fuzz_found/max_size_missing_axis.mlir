// Found by benchmarks/fuzz.py: max-size fused a producer that lacks an axis of the root's largest tile; the nest then kept that axis whole, at 681% of the budget.
// schedgen: --memory 14303 --fuse-mode max-size
func.func @fuzz(%a0: tensor<213x128xf32>, %a1: tensor<128x5xf32>, %a2: tensor<5x102xf32>, %a3: tensor<213xf32>, %a4: tensor<102x184xf32>, %a5: tensor<43x24x6x1xf32>, %a6: tensor<2x3x1x1xf32>) -> (tensor<213x5xf32>, tensor<213xf32>, tensor<213xf32>, tensor<12xf32>, tensor<128x102xf32>, tensor<102xf32>, tensor<102xf32>, tensor<213xf32>, tensor<213xf32>, tensor<64x3x16xf32>, tensor<5x184xf32>, tensor<5x184xf32>, tensor<102x128xf32>, tensor<43x12x2x1xf32>, tensor<43x12x2x1xf32>, tensor<64x3x16xf32>, tensor<5x128xf32>, tensor<64x3x128xf32>, tensor<213x102xf32>, tensor<213x102xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<213x5xf32>
  %v2 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<213x5xf32>) -> tensor<213x5xf32>
  %v3 = linalg.matmul ins(%a0, %a1 : tensor<213x128xf32>, tensor<128x5xf32>) outs(%v2 : tensor<213x5xf32>) -> tensor<213x5xf32>
  %e4 = tensor.empty() : tensor<213x5xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v3, %v3 : tensor<213x5xf32>, tensor<213x5xf32>) outs(%e4 : tensor<213x5xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.addf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<213x5xf32>
  %c10 = arith.constant 0.0 : f32
  %e11 = tensor.empty() : tensor<213xf32>
  %v5 = linalg.fill ins(%c10 : f32) outs(%e11 : tensor<213xf32>) -> tensor<213xf32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a0 : tensor<213x128xf32>) outs(%v5 : tensor<213xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %out : f32
    linalg.yield %r : f32
  } -> tensor<213xf32>
  %c18 = arith.constant 1.0 : f32
  %e19 = tensor.empty() : tensor<12xf32>
  %v7 = linalg.fill ins(%c18 : f32) outs(%e19 : tensor<12xf32>) -> tensor<12xf32>
  %c21 = arith.constant 0.0 : f32
  %e22 = tensor.empty() : tensor<128x102xf32>
  %v9 = linalg.fill ins(%c21 : f32) outs(%e22 : tensor<128x102xf32>) -> tensor<128x102xf32>
  %v10 = linalg.matmul ins(%a1, %a2 : tensor<128x5xf32>, tensor<5x102xf32>) outs(%v9 : tensor<128x102xf32>) -> tensor<128x102xf32>
  %c25 = arith.constant 0.0 : f32
  %e26 = tensor.empty() : tensor<64x3x16xf32>
  %v11 = linalg.fill ins(%c25 : f32) outs(%e26 : tensor<64x3x16xf32>) -> tensor<64x3x16xf32>
  %c28 = arith.constant 0.0 : f32
  %e29 = tensor.empty() : tensor<102xf32>
  %v12 = linalg.fill ins(%c28 : f32) outs(%e29 : tensor<102xf32>) -> tensor<102xf32>
  %v13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%a2 : tensor<5x102xf32>) outs(%v12 : tensor<102xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %out : f32
    linalg.yield %r : f32
  } -> tensor<102xf32>
  %e36 = tensor.empty() : tensor<213x5xf32>
  %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v3, %a3 : tensor<213x5xf32>, tensor<213xf32>) outs(%e36 : tensor<213x5xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.subf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<213x5xf32>
  %e42 = tensor.empty() : tensor<5x102xf32>
  %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a2, %a2 : tensor<5x102xf32>, tensor<5x102xf32>) outs(%e42 : tensor<5x102xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.subf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<5x102xf32>
  %c48 = arith.constant 0.0 : f32
  %e49 = tensor.empty() : tensor<213xf32>
  %v17 = linalg.fill ins(%c48 : f32) outs(%e49 : tensor<213xf32>) -> tensor<213xf32>
  %v18 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v15 : tensor<213x5xf32>) outs(%v17 : tensor<213xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.maximumf %in0, %out : f32
    linalg.yield %r : f32
  } -> tensor<213xf32>
  %e56 = tensor.empty() : tensor<64x3x16xf32>
  %v19 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v11 : tensor<64x3x16xf32>) outs(%e56 : tensor<64x3x16xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.subf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<64x3x16xf32>
  %c62 = arith.constant 0.0 : f32
  %e63 = tensor.empty() : tensor<5x184xf32>
  %v21 = linalg.fill ins(%c62 : f32) outs(%e63 : tensor<5x184xf32>) -> tensor<5x184xf32>
  %v22 = linalg.matmul ins(%a2, %a4 : tensor<5x102xf32>, tensor<102x184xf32>) outs(%v21 : tensor<5x184xf32>) -> tensor<5x184xf32>
  %e66 = tensor.empty() : tensor<102x128xf32>
  %v23 = linalg.transpose ins(%v9 : tensor<128x102xf32>) outs(%e66 : tensor<102x128xf32>) permutation = [1, 0]
  %c68 = arith.constant 0.0 : f32
  %e69 = tensor.empty() : tensor<43x12x2x1xf32>
  %v26 = linalg.fill ins(%c68 : f32) outs(%e69 : tensor<43x12x2x1xf32>) -> tensor<43x12x2x1xf32>
  %v27 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%a5, %a6 : tensor<43x24x6x1xf32>, tensor<2x3x1x1xf32>) outs(%v26 : tensor<43x12x2x1xf32>) -> tensor<43x12x2x1xf32>
  %e72 = tensor.empty() : tensor<64x3x16xf32>
  %v28 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v11 : tensor<64x3x16xf32>) outs(%e72 : tensor<64x3x16xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.maximumf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<64x3x16xf32>
  %e78 = tensor.empty() : tensor<5x128xf32>
  %v29 = linalg.transpose ins(%a1 : tensor<128x5xf32>) outs(%e78 : tensor<5x128xf32>) permutation = [1, 0]
  %c80 = arith.constant 1.0 : f32
  %e81 = tensor.empty() : tensor<64x3x128xf32>
  %v30 = linalg.fill ins(%c80 : f32) outs(%e81 : tensor<64x3x128xf32>) -> tensor<64x3x128xf32>
  %c83 = arith.constant 0.0 : f32
  %e84 = tensor.empty() : tensor<213x102xf32>
  %v31 = linalg.fill ins(%c83 : f32) outs(%e84 : tensor<213x102xf32>) -> tensor<213x102xf32>
  %v32 = linalg.matmul ins(%v2, %v16 : tensor<213x5xf32>, tensor<5x102xf32>) outs(%v31 : tensor<213x102xf32>) -> tensor<213x102xf32>
  return %v4, %v5, %v6, %v7, %v10, %v12, %v13, %v17, %v18, %v19, %v21, %v22, %v23, %v26, %v27, %v28, %v29, %v30, %v31, %v32 : tensor<213x5xf32>, tensor<213xf32>, tensor<213xf32>, tensor<12xf32>, tensor<128x102xf32>, tensor<102xf32>, tensor<102xf32>, tensor<213xf32>, tensor<213xf32>, tensor<64x3x16xf32>, tensor<5x184xf32>, tensor<5x184xf32>, tensor<102x128xf32>, tensor<43x12x2x1xf32>, tensor<43x12x2x1xf32>, tensor<64x3x16xf32>, tensor<5x128xf32>, tensor<64x3x128xf32>, tensor<213x102xf32>, tensor<213x102xf32>
}
