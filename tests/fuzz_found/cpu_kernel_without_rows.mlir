// Found by benchmarks/fuzz.py --target cpu-host: a convolution with one output row (1x1x1x7) got a register kernel without a row loop, and emitting its schedule failed (internal error: list index out of range).
// schedgen: --target cpu-host --fuse-mode max-producers --footprint analytic
func.func @fuzz(%a0: tensor<31x49x15xf32>, %a1: tensor<196x10xf32>, %a2: tensor<10x128xf32>, %a3: tensor<1x1x4x7xf32>) -> (tensor<8x49x15x4xf32>, tensor<8x49x15x4xf32>, tensor<1x1x1x4xf32>, tensor<4x1x1x1xf32>, tensor<196x128xf32>, tensor<196x128xf32>, tensor<196x13x10xf32>, tensor<1x1x1x7xf32>, tensor<1x1x1x7xf32>, tensor<128xf32>, tensor<128xf32>) {
  %e0 = tensor.empty() : tensor<8x49x15x4xf32>
  %c1 = arith.constant 0.0 : f32
  %v1 = linalg.pack %a0 padding_value(%c1 : f32) inner_dims_pos = [0] inner_tiles = [4] into %e0 : tensor<31x49x15xf32> -> tensor<8x49x15x4xf32>
  %e3 = tensor.empty() : tensor<8x49x15x4xf32>
  %v2 = linalg.softmax dimension(1) ins(%v1 : tensor<8x49x15x4xf32>) outs(%e3 : tensor<8x49x15x4xf32>) -> tensor<8x49x15x4xf32>
  %c5 = arith.constant 0.0 : f32
  %e6 = tensor.empty() : tensor<1x1x1x4xf32>
  %v3 = linalg.fill ins(%c5 : f32) outs(%e6 : tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>], iterator_types = ["reduction", "reduction", "reduction", "parallel"]} ins(%v1 : tensor<8x49x15x4xf32>) outs(%v3 : tensor<1x1x1x4xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x1x1x4xf32>
  %e13 = tensor.empty() : tensor<4x1x1x1xf32>
  %v5 = linalg.transpose ins(%v4 : tensor<1x1x1x4xf32>) outs(%e13 : tensor<4x1x1x1xf32>) permutation = [3, 2, 1, 0]
  %c15 = arith.constant 0.0 : f32
  %e16 = tensor.empty() : tensor<196x128xf32>
  %v8 = linalg.fill ins(%c15 : f32) outs(%e16 : tensor<196x128xf32>) -> tensor<196x128xf32>
  %v9 = linalg.matmul ins(%a1, %a2 : tensor<196x10xf32>, tensor<10x128xf32>) outs(%v8 : tensor<196x128xf32>) -> tensor<196x128xf32>
  %e19 = tensor.empty() : tensor<196x13x10xf32>
  %v10 = linalg.broadcast ins(%a1 : tensor<196x10xf32>) outs(%e19 : tensor<196x13x10xf32>) dimensions = [1]
  %c21 = arith.constant 0.0 : f32
  %e22 = tensor.empty() : tensor<1x1x1x7xf32>
  %v12 = linalg.fill ins(%c21 : f32) outs(%e22 : tensor<1x1x1x7xf32>) -> tensor<1x1x1x7xf32>
  %v13 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%v4, %a3 : tensor<1x1x1x4xf32>, tensor<1x1x4x7xf32>) outs(%v12 : tensor<1x1x1x7xf32>) -> tensor<1x1x1x7xf32>
  %c25 = arith.constant 0.0 : f32
  %e26 = tensor.empty() : tensor<128xf32>
  %v14 = linalg.fill ins(%c25 : f32) outs(%e26 : tensor<128xf32>) -> tensor<128xf32>
  %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%a2 : tensor<10x128xf32>) outs(%v14 : tensor<128xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %out : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  return %v1, %v2, %v3, %v5, %v8, %v9, %v10, %v12, %v13, %v14, %v15 : tensor<8x49x15x4xf32>, tensor<8x49x15x4xf32>, tensor<1x1x1x4xf32>, tensor<4x1x1x1xf32>, tensor<196x128xf32>, tensor<196x128xf32>, tensor<196x13x10xf32>, tensor<1x1x1x7xf32>, tensor<1x1x1x7xf32>, tensor<128xf32>, tensor<128xf32>
}
