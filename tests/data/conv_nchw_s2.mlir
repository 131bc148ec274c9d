// A 3x3 stride-2 NCHW convolution as torch-mlir emits resnet's downsampling
// (tests/test_cpu.py: img2col on CPU targets; tests/test_constructs.py).
module {
  func.func @conv_s2(%x: tensor<1x8x18x18xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x8x8xf32> {
    %zero = arith.constant 0.000000e+00 : f32
    %e = tensor.empty() : tensor<1x16x8x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x8x18x18xf32>, tensor<16x8x3x3xf32>) outs(%f : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
    return %c : tensor<1x16x8x8xf32>
  }
}
