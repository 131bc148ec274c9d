// NCHW as torch-mlir emits it: a 3x3 convolution, relu, a 3x3 depthwise
// convolution (tests/test_cpu.py: register kernels for torch's layouts).
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @conv_nchw(%x: tensor<1x16x12x12xf32>, %w: tensor<16x16x3x3xf32>, %dw: tensor<16x3x3xf32>) -> tensor<1x16x8x8xf32> {
    %zero = arith.constant 0.000000e+00 : f32
    %e = tensor.empty() : tensor<1x16x10x10xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x10x10xf32>) -> tensor<1x16x10x10xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x16x12x12xf32>, tensor<16x16x3x3xf32>) outs(%f : tensor<1x16x10x10xf32>) -> tensor<1x16x10x10xf32>
    %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x16x10x10xf32>) outs(%e : tensor<1x16x10x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1x16x10x10xf32>
    %e2 = tensor.empty() : tensor<1x16x8x8xf32>
    %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
    %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r, %dw : tensor<1x16x10x10xf32>, tensor<16x3x3xf32>) outs(%f2 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
    return %d : tensor<1x16x8x8xf32>
  }
}
