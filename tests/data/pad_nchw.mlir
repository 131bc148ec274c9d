// torch's zero pad of an NCHW map before a 3x3 convolution, alone
// (tests/test_traffic.py: its traffic; tests/test_cpu.py: planes in place).
func.func @pad(%x: tensor<1x8x30x30xf32>) -> tensor<1x8x32x32xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32
  } : tensor<1x8x30x30xf32> to tensor<1x8x32x32xf32>
  return %p : tensor<1x8x32x32xf32>
}
