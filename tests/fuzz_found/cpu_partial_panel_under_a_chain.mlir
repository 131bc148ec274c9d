// Found by benchmarks/fuzz.py (cpu-host, seed 69; reduced): a convolution with 33 output channels in the register tiles of the second of two elementwise ops, its filter panel copied and a last panel of 1 column peeled. The padded convolution's result reached the rows through a slice of a dynamic slice made when the first elementwise op fused into them, after the slices were merged: 'could not find next producer to fuse into container'. The slices are now merged right before the padded op fuses.
// schedgen: --target cpu-host --fuse-mode max-producers
func.func @fuzz(%x: tensor<28x3x31x1xf32>, %w: tensor<3x1x1x33xf32>) -> tensor<28x1x31x33xf32> {
  %c = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<28x1x31x33xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<28x1x31x33xf32>) -> tensor<28x1x31x33xf32>
  %v = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<28x3x31x1xf32>, tensor<3x1x1x33xf32>) outs(%f : tensor<28x1x31x33xf32>) -> tensor<28x1x31x33xf32>
  %e2 = tensor.empty() : tensor<28x1x31x33xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<28x1x31x33xf32>) outs(%e2 : tensor<28x1x31x33xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.addf %in0, %in0 : f32
    linalg.yield %s : f32
  } -> tensor<28x1x31x33xf32>
  %e3 = tensor.empty() : tensor<28x1x31x33xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r : tensor<28x1x31x33xf32>) outs(%e3 : tensor<28x1x31x33xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.addf %in0, %in0 : f32
    linalg.yield %s : f32
  } -> tensor<28x1x31x33xf32>
  return %r2 : tensor<28x1x31x33xf32>
}
