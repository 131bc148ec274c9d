// The Halide-schedule tutorial's convolution: NHWC input 5x82x102x128,
// HWCF filter 3x3x128x128, bias broadcast as the init, then relu.
#map_bias = affine_map<(n, h, w, f) -> (f)>
#map_id = affine_map<(n, h, w, f) -> (n, h, w, f)>
func.func @conv_bias_relu(%input: tensor<5x82x102x128xf32>, %filter: tensor<3x3x128x128xf32>,
                          %bias: tensor<128xf32>) -> tensor<5x80x100x128xf32> {
  %empty = tensor.empty() : tensor<5x80x100x128xf32>
  %init = linalg.generic {indexing_maps = [#map_bias, #map_id],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<128xf32>) outs(%empty : tensor<5x80x100x128xf32>) {
  ^bb0(%b: f32, %o: f32):
    linalg.yield %b : f32
  } -> tensor<5x80x100x128xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<5x82x102x128xf32>, tensor<3x3x128x128xf32>)
      outs(%init : tensor<5x80x100x128xf32>) -> tensor<5x80x100x128xf32>
  %zero = arith.constant 0.0 : f32
  %relu = linalg.generic {indexing_maps = [#map_id, #map_id],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<5x80x100x128xf32>) outs(%empty : tensor<5x80x100x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<5x80x100x128xf32>
  return %relu : tensor<5x80x100x128xf32>
}
