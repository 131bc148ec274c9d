// Conv + bias + relu + 2x2 max pool (stride 2), NHWC / HWCF f32:
// input 2x66x66x32, filter 3x3x32x64 -> 2x64x64x64 -> pooled 2x32x32x64.
#map_bias = affine_map<(n, h, w, f) -> (f)>
#map_id = affine_map<(n, h, w, f) -> (n, h, w, f)>
func.func @conv_pool(%input: tensor<2x66x66x32xf32>, %filter: tensor<3x3x32x64xf32>,
                     %bias: tensor<64xf32>) -> tensor<2x32x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x64x64x64xf32>
  %init = linalg.generic {indexing_maps = [#map_bias, #map_id],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<64xf32>) outs(%e : tensor<2x64x64x64xf32>) {
  ^bb0(%b: f32, %o: f32):
    linalg.yield %b : f32
  } -> tensor<2x64x64x64xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<2x66x66x32xf32>, tensor<3x3x32x64xf32>)
      outs(%init : tensor<2x64x64x64xf32>) -> tensor<2x64x64x64xf32>
  %relu = linalg.generic {indexing_maps = [#map_id, #map_id],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<2x64x64x64xf32>) outs(%e : tensor<2x64x64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x64x64x64xf32>
  %pe = tensor.empty() : tensor<2x32x32x64xf32>
  %pinit = linalg.fill ins(%ninf : f32) outs(%pe : tensor<2x32x32x64xf32>) -> tensor<2x32x32x64xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%relu, %window : tensor<2x64x64x64xf32>, tensor<2x2xf32>)
      outs(%pinit : tensor<2x32x32x64xf32>) -> tensor<2x32x32x64xf32>
  return %pool : tensor<2x32x32x64xf32>
}
