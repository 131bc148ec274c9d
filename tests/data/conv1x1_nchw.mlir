// A 1x1 NCHW convolution (a MobileNet projection's shape, smaller): a matmul of the
// filter with each output row of the input. Onto 32x32, a plane the img2col step
// leaves as it is.
func.func @conv1x1_nchw(%x: tensor<1x32x32x32xf32>, %w: tensor<24x32x1x1xf32>) -> tensor<1x24x32x32xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x24x32x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x32x32xf32>) -> tensor<1x24x32x32xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x32x32x32xf32>, tensor<24x32x1x1xf32>) outs(%init : tensor<1x24x32x32xf32>) -> tensor<1x24x32x32xf32>
  return %y : tensor<1x24x32x32xf32>
}
