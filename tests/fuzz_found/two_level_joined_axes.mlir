// Found by benchmarks/fuzz.py: a square tensor read both ways joined a group's two axes; the two-level nest then sized both dims by one loop (640 bytes measured, 384 planned). Now no two-level nest: the group is split over several nests (it was refused before splitting existed).
// schedgen: --memory 402 --fuse-mode max-producers
func.func @fuzz(%a0: tensor<128xf32>, %a1: tensor<638x7xf32>, %a2: tensor<638xf32>, %a3: tensor<7xf32>, %a4: tensor<638xf32>, %a5: tensor<8x8x10x10xf32>, %a6: tensor<1x2x10x39xf32>, %a7: tensor<3x3x39x3xf32>, %a8: tensor<7xf32>) -> (tensor<638xf32>, tensor<7x7xf32>, tensor<638xf32>, tensor<638x49xf32>, tensor<7x638xf32>, tensor<638xf32>, tensor<7x1x638xf32>, tensor<638xf32>, tensor<7x638xf32>, tensor<8x8x9x39xf32>, tensor<8x6x7x3xf32>, tensor<8x6x7x3xf32>, tensor<7x7xf32>, tensor<8x8x9xf32>, tensor<8x8x9xf32>) {
  %e0 = tensor.empty() : tensor<7x638xf32>
  %v2 = linalg.transpose ins(%a1 : tensor<638x7xf32>) outs(%e0 : tensor<7x638xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<7x638xf32>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v2 : tensor<7x638xf32>) outs(%e2 : tensor<7x638xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.mulf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<7x638xf32>
  %c8 = arith.constant 0.0 : f32
  %e9 = tensor.empty() : tensor<638xf32>
  %v4 = linalg.fill ins(%c8 : f32) outs(%e9 : tensor<638xf32>) -> tensor<638xf32>
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%v2 : tensor<7x638xf32>) outs(%v4 : tensor<638xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %out : f32
    linalg.yield %r : f32
  } -> tensor<638xf32>
  %e16 = tensor.empty() : tensor<638xf32>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v4, %a2 : tensor<638xf32>, tensor<638xf32>) outs(%e16 : tensor<638xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.addf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<638xf32>
  %e22 = tensor.empty() : tensor<7x638xf32>
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v2, %a3 : tensor<7x638xf32>, tensor<7xf32>) outs(%e22 : tensor<7x638xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.maximumf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<7x638xf32>
  %c28 = arith.constant 0.0 : f32
  %e29 = tensor.empty() : tensor<7x7xf32>
  %v10 = linalg.fill ins(%c28 : f32) outs(%e29 : tensor<7x7xf32>) -> tensor<7x7xf32>
  %v11 = linalg.matmul ins(%v2, %a1 : tensor<7x638xf32>, tensor<638x7xf32>) outs(%v10 : tensor<7x7xf32>) -> tensor<7x7xf32>
  %c32 = arith.constant 0.0 : f32
  %e33 = tensor.empty() : tensor<638xf32>
  %v12 = linalg.fill ins(%c32 : f32) outs(%e33 : tensor<638xf32>) -> tensor<638xf32>
  %v13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%v3 : tensor<7x638xf32>) outs(%v12 : tensor<638xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %out : f32
    linalg.yield %r : f32
  } -> tensor<638xf32>
  %e40 = tensor.empty() : tensor<638x49xf32>
  %v14 = linalg.broadcast ins(%v13 : tensor<638xf32>) outs(%e40 : tensor<638x49xf32>) dimensions = [1]
  %e42 = tensor.empty() : tensor<7x638xf32>
  %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v9 : tensor<7x638xf32>) outs(%e42 : tensor<7x638xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<7x638xf32>
  %e48 = tensor.empty() : tensor<638xf32>
  %v17 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v4, %a4 : tensor<638xf32>, tensor<638xf32>) outs(%e48 : tensor<638xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.maximumf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<638xf32>
  %e54 = tensor.empty() : tensor<7x1x638xf32>
  %v18 = linalg.broadcast ins(%v2 : tensor<7x638xf32>) outs(%e54 : tensor<7x1x638xf32>) dimensions = [1]
  %e56 = tensor.empty() : tensor<638xf32>
  %v19 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v7 : tensor<638xf32>) outs(%e56 : tensor<638xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.mulf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<638xf32>
  %e62 = tensor.empty() : tensor<7x638xf32>
  %v20 = linalg.transpose ins(%a1 : tensor<638x7xf32>) outs(%e62 : tensor<7x638xf32>) permutation = [1, 0]
  %c64 = arith.constant 0.0 : f32
  %e65 = tensor.empty() : tensor<8x8x9x39xf32>
  %v23 = linalg.fill ins(%c64 : f32) outs(%e65 : tensor<8x8x9x39xf32>) -> tensor<8x8x9x39xf32>
  %v24 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a5, %a6 : tensor<8x8x10x10xf32>, tensor<1x2x10x39xf32>) outs(%v23 : tensor<8x8x9x39xf32>) -> tensor<8x8x9x39xf32>
  %e68 = tensor.empty() : tensor<8x8x9x39xf32>
  %v25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v23 : tensor<8x8x9x39xf32>) outs(%e68 : tensor<8x8x9x39xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.minimumf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<8x8x9x39xf32>
  %c74 = arith.constant 0.0 : f32
  %e75 = tensor.empty() : tensor<8x6x7x3xf32>
  %v27 = linalg.fill ins(%c74 : f32) outs(%e75 : tensor<8x6x7x3xf32>) -> tensor<8x6x7x3xf32>
  %v28 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%v23, %a7 : tensor<8x8x9x39xf32>, tensor<3x3x39x3xf32>) outs(%v27 : tensor<8x6x7x3xf32>) -> tensor<8x6x7x3xf32>
  %e78 = tensor.empty() : tensor<7x7xf32>
  %v30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v11, %a8 : tensor<7x7xf32>, tensor<7xf32>) outs(%e78 : tensor<7x7xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.addf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<7x7xf32>
  %c84 = arith.constant 0.0 : f32
  %e85 = tensor.empty() : tensor<8x8x9xf32>
  %v31 = linalg.fill ins(%c84 : f32) outs(%e85 : tensor<8x8x9xf32>) -> tensor<8x8x9xf32>
  %v32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v24 : tensor<8x8x9x39xf32>) outs(%v31 : tensor<8x8x9xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %out : f32
    linalg.yield %r : f32
  } -> tensor<8x8x9xf32>
  return %v5, %v10, %v12, %v14, %v15, %v17, %v18, %v19, %v20, %v25, %v27, %v28, %v30, %v31, %v32 : tensor<638xf32>, tensor<7x7xf32>, tensor<638xf32>, tensor<638x49xf32>, tensor<7x638xf32>, tensor<638xf32>, tensor<7x1x638xf32>, tensor<638xf32>, tensor<7x638xf32>, tensor<8x8x9x39xf32>, tensor<8x6x7x3xf32>, tensor<8x6x7x3xf32>, tensor<7x7xf32>, tensor<8x8x9xf32>, tensor<8x8x9xf32>
}
