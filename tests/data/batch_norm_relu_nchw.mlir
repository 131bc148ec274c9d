// A batch norm in eval mode and a ReLU as torch-mlir exports them (NCHW, one shared tensor.empty init):
// four elementwise ops, each read element for element by the next one alone.
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @bn(%x: tensor<1x8x6x40xf32>, %mean: tensor<8x1x1xf32>, %scale: tensor<8x1x1xf32>, %shift: tensor<8x1x1xf32>) -> tensor<1x8x6x40xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<1x8x6x40xf32>
  %1 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<1x8x6x40xf32>, tensor<8x1x1xf32>) outs(%0 : tensor<1x8x6x40xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %r = arith.subf %in, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x6x40xf32>
  %2 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1, %scale : tensor<1x8x6x40xf32>, tensor<8x1x1xf32>) outs(%0 : tensor<1x8x6x40xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %r = arith.mulf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<1x8x6x40xf32>
  %3 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %shift : tensor<1x8x6x40xf32>, tensor<8x1x1xf32>) outs(%0 : tensor<1x8x6x40xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %r = arith.addf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<1x8x6x40xf32>
  %4 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<1x8x6x40xf32>) outs(%0 : tensor<1x8x6x40xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.cmpf ugt, %in, %zero : f32
    %r = arith.select %c, %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x8x6x40xf32>
  return %4 : tensor<1x8x6x40xf32>
}
