// torch-mlir's LayerNorm over 96 channels (timm's Swin block, its first norm, cut from
// corpus/swin_block.mlir at 1x4x8x96): a mean in f32, the variance in f64, rsqrt, gamma, beta.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @layer_norm(%arg0: tensor<1x4x8x96xf32>) -> tensor<1x4x8x96xf32> {
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_17 = arith.constant dense<0.25> : tensor<96xf32>
    %cst_18 = arith.constant dense<1.5> : tensor<96xf32>
    %cst_19 = arith.constant 1.000000e-05 : f64
    %cst_20 = arith.constant 9.600000e+01 : f64
    %cst_21 = arith.constant 9.600000e+01 : f32
    %0 = tensor.empty() : tensor<1x4x8x96xf64>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x4x8x96xf32>) outs(%0 : tensor<1x4x8x96xf64>) {
    ^bb0(%in: f32, %out: f64):
      %97 = arith.extf %in : f32 to f64
      linalg.yield %97 : f64
    } -> tensor<1x4x8x96xf64>
    %2 = tensor.empty() : tensor<1x4x8x1xf64>
    %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<1x4x8x1xf64>) -> tensor<1x4x8x1xf64>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%1 : tensor<1x4x8x96xf64>) outs(%3 : tensor<1x4x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %97 = arith.addf %in, %out : f64
      linalg.yield %97 : f64
    } -> tensor<1x4x8x1xf64>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<1x4x8x1xf64>) outs(%2 : tensor<1x4x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %97 = arith.divf %in, %cst_20 : f64
      linalg.yield %97 : f64
    } -> tensor<1x4x8x1xf64>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1, %5 : tensor<1x4x8x96xf64>, tensor<1x4x8x1xf64>) outs(%0 : tensor<1x4x8x96xf64>) {
    ^bb0(%in: f64, %in_78: f64, %out: f64):
      %97 = arith.subf %in, %in_78 : f64
      linalg.yield %97 : f64
    } -> tensor<1x4x8x96xf64>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %6 : tensor<1x4x8x96xf64>, tensor<1x4x8x96xf64>) outs(%0 : tensor<1x4x8x96xf64>) {
    ^bb0(%in: f64, %in_78: f64, %out: f64):
      %97 = arith.mulf %in, %in_78 : f64
      linalg.yield %97 : f64
    } -> tensor<1x4x8x96xf64>
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%7 : tensor<1x4x8x96xf64>) outs(%3 : tensor<1x4x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %97 = arith.addf %in, %out : f64
      linalg.yield %97 : f64
    } -> tensor<1x4x8x1xf64>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<1x4x8x1xf64>) outs(%2 : tensor<1x4x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %97 = arith.divf %in, %cst_20 : f64
      linalg.yield %97 : f64
    } -> tensor<1x4x8x1xf64>
    %10 = tensor.empty() : tensor<1x4x8x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9 : tensor<1x4x8x1xf64>) outs(%10 : tensor<1x4x8x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %97 = arith.truncf %in : f64 to f32
      linalg.yield %97 : f32
    } -> tensor<1x4x8x1xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<1x4x8x1xf32>) -> tensor<1x4x8x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0 : tensor<1x4x8x96xf32>) outs(%12 : tensor<1x4x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %97 = arith.addf %in, %out : f32
      linalg.yield %97 : f32
    } -> tensor<1x4x8x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<1x4x8x1xf32>) outs(%10 : tensor<1x4x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %97 = arith.divf %in, %cst_21 : f32
      linalg.yield %97 : f32
    } -> tensor<1x4x8x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11 : tensor<1x4x8x1xf32>) outs(%10 : tensor<1x4x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %97 = arith.truncf %cst_19 : f64 to f32
      %98 = arith.addf %in, %97 : f32
      linalg.yield %98 : f32
    } -> tensor<1x4x8x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<1x4x8x1xf32>) outs(%10 : tensor<1x4x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %97 = math.rsqrt %in : f32
      linalg.yield %97 : f32
    } -> tensor<1x4x8x1xf32>
    %17 = tensor.empty() : tensor<1x4x8x96xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %14 : tensor<1x4x8x96xf32>, tensor<1x4x8x1xf32>) outs(%17 : tensor<1x4x8x96xf32>) {
    ^bb0(%in: f32, %in_78: f32, %out: f32):
      %97 = arith.subf %in, %in_78 : f32
      linalg.yield %97 : f32
    } -> tensor<1x4x8x96xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %16 : tensor<1x4x8x96xf32>, tensor<1x4x8x1xf32>) outs(%17 : tensor<1x4x8x96xf32>) {
    ^bb0(%in: f32, %in_78: f32, %out: f32):
      %97 = arith.mulf %in, %in_78 : f32
      linalg.yield %97 : f32
    } -> tensor<1x4x8x96xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19, %cst_18 : tensor<1x4x8x96xf32>, tensor<96xf32>) outs(%17 : tensor<1x4x8x96xf32>) {
    ^bb0(%in: f32, %in_78: f32, %out: f32):
      %97 = arith.mulf %in, %in_78 : f32
      linalg.yield %97 : f32
    } -> tensor<1x4x8x96xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %cst_17 : tensor<1x4x8x96xf32>, tensor<96xf32>) outs(%17 : tensor<1x4x8x96xf32>) {
    ^bb0(%in: f32, %in_78: f32, %out: f32):
      %97 = arith.addf %in, %in_78 : f32
      linalg.yield %97 : f32
    } -> tensor<1x4x8x96xf32>
    return %21 : tensor<1x4x8x96xf32>
}
