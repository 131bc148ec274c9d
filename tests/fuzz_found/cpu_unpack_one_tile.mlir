// Found by benchmarks/fuzz.py --target cpu-host: an unpack whose inner tile leaves one tile along its dims could not give each core a tile, and planning failed an assertion; the tile count asked for is now what the tile options allow.
// schedgen: --target cpu-host --fuse-mode only-patterns --footprint analytic
func.func @fuzz(%a0: tensor<13x3xf32>, %a1: tensor<13x3xf32>, %a2: tensor<13xf32>, %a3: tensor<3x1xf32>, %a4: tensor<3x1xf32>) -> (tensor<13x3xf32>, tensor<13x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<13x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<13x1xf32>, tensor<13x1xf32>, tensor<32x4xf32>, tensor<997xf32>, tensor<1x2xf32>, tensor<1x2xf32>) {
  %e0 = tensor.empty() : tensor<13x3xf32>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<13x3xf32>, tensor<13x3xf32>) outs(%e0 : tensor<13x3xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.mulf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<13x3xf32>
  %e6 = tensor.empty() : tensor<13x3xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a2 : tensor<13x3xf32>, tensor<13xf32>) outs(%e6 : tensor<13x3xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.addf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<13x3xf32>
  %e12 = tensor.empty() : tensor<13x3xf32>
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<13x3xf32>) outs(%e12 : tensor<13x3xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.subf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<13x3xf32>
  %c18 = arith.constant 0.0 : f32
  %e19 = tensor.empty() : tensor<2xf32>
  %v6 = linalg.fill ins(%c18 : f32) outs(%e19 : tensor<2xf32>) -> tensor<2xf32>
  %c21 = arith.constant 0.0 : f32
  %e22 = tensor.empty() : tensor<1xf32>
  %v7 = linalg.fill ins(%c21 : f32) outs(%e22 : tensor<1xf32>) -> tensor<1xf32>
  %c24 = arith.constant 2.0 : f32
  %e25 = tensor.empty() : tensor<1xf32>
  %v8 = linalg.fill ins(%c24 : f32) outs(%e25 : tensor<1xf32>) -> tensor<1xf32>
  %c27 = arith.constant 0.0 : f32
  %e28 = tensor.empty() : tensor<32x4xf32>
  %v9 = linalg.fill ins(%c27 : f32) outs(%e28 : tensor<32x4xf32>) -> tensor<32x4xf32>
  %e30 = tensor.empty() : tensor<2xf32>
  %v10 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v6 : tensor<2xf32>) outs(%e30 : tensor<2xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  %e36 = tensor.empty() : tensor<1x2xf32>
  %v11 = linalg.broadcast ins(%v10 : tensor<2xf32>) outs(%e36 : tensor<1x2xf32>) dimensions = [0]
  %c38 = arith.constant 0.0 : f32
  %e39 = tensor.empty() : tensor<13x1xf32>
  %v13 = linalg.fill ins(%c38 : f32) outs(%e39 : tensor<13x1xf32>) -> tensor<13x1xf32>
  %v14 = linalg.matmul ins(%v2, %a3 : tensor<13x3xf32>, tensor<3x1xf32>) outs(%v13 : tensor<13x1xf32>) -> tensor<13x1xf32>
  %e42 = tensor.empty() : tensor<3x1xf32>
  %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a3 : tensor<3x1xf32>) outs(%e42 : tensor<3x1xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<3x1xf32>
  %e48 = tensor.empty() : tensor<3x1xf32>
  %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a3 : tensor<3x1xf32>) outs(%e48 : tensor<3x1xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.subf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<3x1xf32>
  %e54 = tensor.empty() : tensor<3x1xf32>
  %v18 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v15, %a4 : tensor<3x1xf32>, tensor<3x1xf32>) outs(%e54 : tensor<3x1xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.subf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<3x1xf32>
  %e60 = tensor.empty() : tensor<4x32xf32>
  %v19 = linalg.transpose ins(%v9 : tensor<32x4xf32>) outs(%e60 : tensor<4x32xf32>) permutation = [1, 0]
  %c62 = arith.constant 0.0 : f32
  %e63 = tensor.empty() : tensor<1x2xf32>
  %v20 = linalg.fill ins(%c62 : f32) outs(%e63 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %v21 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>], iterator_types = ["reduction", "parallel"]} ins(%v11 : tensor<1x2xf32>) outs(%v20 : tensor<1x2xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2xf32>
  %e70 = tensor.empty() : tensor<1x2xf32>
  %v22 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v11 : tensor<1x2xf32>) outs(%e70 : tensor<1x2xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.minimumf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<1x2xf32>
  %c76 = arith.constant 0.0 : f32
  %e77 = tensor.empty() : tensor<13x1xf32>
  %v23 = linalg.fill ins(%c76 : f32) outs(%e77 : tensor<13x1xf32>) -> tensor<13x1xf32>
  %v24 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%v13 : tensor<13x1xf32>) outs(%v23 : tensor<13x1xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %out : f32
    linalg.yield %r : f32
  } -> tensor<13x1xf32>
  %e84 = tensor.empty() : tensor<32x4xf32>
  %v25 = linalg.transpose ins(%v19 : tensor<4x32xf32>) outs(%e84 : tensor<32x4xf32>) permutation = [1, 0]
  %c86 = arith.constant 2.0 : f32
  %e87 = tensor.empty() : tensor<997xf32>
  %v26 = linalg.fill ins(%c86 : f32) outs(%e87 : tensor<997xf32>) -> tensor<997xf32>
  %e89 = tensor.empty() : tensor<1x1x4xf32>
  %c90 = arith.constant 0.0 : f32
  %v27 = linalg.pack %v11 padding_value(%c90 : f32) inner_dims_pos = [1] inner_tiles = [4] into %e89 : tensor<1x2xf32> -> tensor<1x1x4xf32>
  %e92 = tensor.empty() : tensor<1x2xf32>
  %v28 = linalg.unpack %v27 inner_dims_pos = [1] inner_tiles = [4] into %e92 : tensor<1x1x4xf32> -> tensor<1x2xf32>
  %e94 = tensor.empty() : tensor<1x2xf32>
  %v29 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v11 : tensor<1x2xf32>) outs(%e94 : tensor<1x2xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.subf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<1x2xf32>
  return %v4, %v5, %v7, %v8, %v14, %v16, %v18, %v20, %v21, %v22, %v23, %v24, %v25, %v26, %v28, %v29 : tensor<13x3xf32>, tensor<13x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<13x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<13x1xf32>, tensor<13x1xf32>, tensor<32x4xf32>, tensor<997xf32>, tensor<1x2xf32>, tensor<1x2xf32>
}
