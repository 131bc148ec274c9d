// An im2col copy (what upstream's convert_conv2d_to_img2col makes of a 3x3
// stride-2 NCHW convolution) and its matmul. The copy reads the input through
// mod and floordiv indices: TilingInterface sizes such a slice as
// map(tile - 1) + 1, right only for tiles in multiples of the index's
// divisors (tests/test_constructs.py).
#map = affine_map<(d0, d1, d2) -> (d0, d1 floordiv 9, (d2 floordiv 16) * 2 + (d1 mod 9) floordiv 3, (d2 mod 16) * 2 + d1 mod 3)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
    func.func @conv_s2(%arg0: tensor<1x8x34x34xf32>, %arg1: tensor<16x8x3x3xf32>) -> tensor<1x16x16x16xf32> {
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<1x16x16x16xf32>
      %collapsed = tensor.collapse_shape %arg1 [[0], [1, 2, 3]] : tensor<16x8x3x3xf32> into tensor<16x72xf32>
      %collapsed_0 = tensor.collapse_shape %0 [[0], [1], [2, 3]] : tensor<1x16x16x16xf32> into tensor<1x16x256xf32>
      %1 = linalg.fill ins(%cst : f32) outs(%collapsed_0 : tensor<1x16x256xf32>) -> tensor<1x16x256xf32>
      %2 = tensor.empty() : tensor<1x72x256xf32>
      %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x8x34x34xf32>) outs(%2 : tensor<1x72x256xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<1x72x256xf32>
      %4 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%collapsed, %3 : tensor<16x72xf32>, tensor<1x72x256xf32>) outs(%1 : tensor<1x16x256xf32>) {
      ^bb0(%in: f32, %in_1: f32, %out: f32):
        %5 = arith.mulf %in, %in_1 : f32
        %6 = arith.addf %5, %out : f32
        linalg.yield %6 : f32
      } -> tensor<1x16x256xf32>
      %expanded = tensor.expand_shape %4 [[0], [1], [2, 3]] output_shape [1, 16, 16, 16] : tensor<1x16x256xf32> into tensor<1x16x16x16xf32>
      return %expanded : tensor<1x16x16x16xf32>
    }
}
