// Found by benchmarks/fuzz.py (seed 7, example 46): generate never ended. The transpose's nest banned its direct producer (both write one tensor.empty at other tiles); in no fuse group, the ban broke a group that did not exist, and with nothing to split the planner retried the transpose forever (cut down: tests/data/constructs/shared_dest_direct_producer.mlir).
// schedgen: --memory 256 --fuse-mode max-producers --footprint analytic
func.func @fuzz(%a0: tensor<32x31x32xf32>, %a1: tensor<1x31x32xf32>, %a2: tensor<13x6x7x8xf32>, %a3: tensor<2x3x8x3xf32>, %a4: tensor<2xf32>, %a5: tensor<1xf32>, %a6: tensor<32x306xf32>) -> (tensor<33x31x32xf32>, tensor<31x32xf32>, tensor<13x5x5x3xf32>, tensor<13x5x5x3xf32>, tensor<32x31x32xf32>, tensor<16x2x8x2x2xf32>, tensor<7x31x9xf32>, tensor<31x32x20xf32>, tensor<2x3x8x3xf32>, tensor<1x1x2xf32>, tensor<2x3x8x3xf32>, tensor<32xf32>, tensor<1x2xf32>, tensor<31xf32>, tensor<31xf32>, tensor<197xf32>, tensor<31x306xf32>, tensor<31x306xf32>, tensor<31x4x8xf32>, tensor<14x31x32xf32>) {
  %v2 = tensor.concat dim(0) %a0, %a1 : (tensor<32x31x32xf32>, tensor<1x31x32xf32>) -> tensor<33x31x32xf32>
  %c1 = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<31x32xf32>
  %v3 = linalg.fill ins(%c1 : f32) outs(%e2 : tensor<31x32xf32>) -> tensor<31x32xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%a1 : tensor<1x31x32xf32>) outs(%v3 : tensor<31x32xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.maximumf %in0, %out : f32
    linalg.yield %r : f32
  } -> tensor<31x32xf32>
  %e9 = tensor.empty() : tensor<31x20x32xf32>
  %v5 = linalg.broadcast ins(%v4 : tensor<31x32xf32>) outs(%e9 : tensor<31x20x32xf32>) dimensions = [1]
  %e11 = tensor.empty() : tensor<32x31x32xf32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a0 : tensor<32x31x32xf32>) outs(%e11 : tensor<32x31x32xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.maximumf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<32x31x32xf32>
  %e17 = tensor.empty() : tensor<14x31x32xf32>
  %v7 = linalg.broadcast ins(%v4 : tensor<31x32xf32>) outs(%e17 : tensor<14x31x32xf32>) dimensions = [0]
  %e19 = tensor.empty() : tensor<31x4x8xf32>
  %v8 = linalg.pack %v3 inner_dims_pos = [1] inner_tiles = [8] into %e19 : tensor<31x32xf32> -> tensor<31x4x8xf32>
  %v9 = linalg.unpack %v8 inner_dims_pos = [1] inner_tiles = [8] into %e2 : tensor<31x4x8xf32> -> tensor<31x32xf32>
  %c22 = arith.constant 0.0 : f32
  %e23 = tensor.empty() : tensor<13x5x5x3xf32>
  %v12 = linalg.fill ins(%c22 : f32) outs(%e23 : tensor<13x5x5x3xf32>) -> tensor<13x5x5x3xf32>
  %v13 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a2, %a3 : tensor<13x6x7x8xf32>, tensor<2x3x8x3xf32>) outs(%v12 : tensor<13x5x5x3xf32>) -> tensor<13x5x5x3xf32>
  %e26 = tensor.empty() : tensor<4x31x8xf32>
  %v14 = linalg.transpose ins(%v8 : tensor<31x4x8xf32>) outs(%e26 : tensor<4x31x8xf32>) permutation = [1, 0, 2]
  %v15 = linalg.transpose ins(%v6 : tensor<32x31x32xf32>) outs(%e11 : tensor<32x31x32xf32>) permutation = [2, 1, 0]
  %e29 = tensor.empty() : tensor<2x3x8x3xf32>
  %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a3 : tensor<2x3x8x3xf32>) outs(%e29 : tensor<2x3x8x3xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<2x3x8x3xf32>
  %e35 = tensor.empty() : tensor<16x2x8x2x2xf32>
  %c36 = arith.constant 0.0 : f32
  %v17 = linalg.pack %v8 padding_value(%c36 : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %e35 : tensor<31x4x8xf32> -> tensor<16x2x8x2x2xf32>
  %c38 = arith.constant 0.0 : f32
  %e39 = tensor.empty() : tensor<197xf32>
  %v18 = linalg.fill ins(%c38 : f32) outs(%e39 : tensor<197xf32>) -> tensor<197xf32>
  %c41 = arith.constant 0.0 : f32
  %v19 = tensor.pad %v14 low[1, 0, 1] high[2, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index):
    tensor.yield %c41 : f32
  } : tensor<4x31x8xf32> to tensor<7x31x9xf32>
  %e46 = tensor.empty() : tensor<31x32x20xf32>
  %v20 = linalg.transpose ins(%v5 : tensor<31x20x32xf32>) outs(%e46 : tensor<31x32x20xf32>) permutation = [0, 2, 1]
  %v22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v16, %a4 : tensor<2x3x8x3xf32>, tensor<2xf32>) outs(%e29 : tensor<2x3x8x3xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.addf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<2x3x8x3xf32>
  %e53 = tensor.empty() : tensor<1x2xf32>
  %v23 = linalg.broadcast ins(%a4 : tensor<2xf32>) outs(%e53 : tensor<1x2xf32>) dimensions = [0]
  %e55 = tensor.empty() : tensor<1x1x2xf32>
  %v24 = linalg.broadcast ins(%v23 : tensor<1x2xf32>) outs(%e55 : tensor<1x1x2xf32>) dimensions = [0]
  %v25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a3 : tensor<2x3x8x3xf32>) outs(%e29 : tensor<2x3x8x3xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<2x3x8x3xf32>
  %c62 = arith.constant 0.0 : f32
  %e63 = tensor.empty() : tensor<32xf32>
  %v26 = linalg.fill ins(%c62 : f32) outs(%e63 : tensor<32xf32>) -> tensor<32xf32>
  %v28 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v23, %a5 : tensor<1x2xf32>, tensor<1xf32>) outs(%e53 : tensor<1x2xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.addf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2xf32>
  %c70 = arith.constant 0.0 : f32
  %e71 = tensor.empty() : tensor<31xf32>
  %v29 = linalg.fill ins(%c70 : f32) outs(%e71 : tensor<31xf32>) -> tensor<31xf32>
  %v30 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]} ins(%a0 : tensor<32x31x32xf32>) outs(%v29 : tensor<31xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.addf %in0, %out : f32
    linalg.yield %r : f32
  } -> tensor<31xf32>
  %v31 = linalg.softmax dimension(0) ins(%v18 : tensor<197xf32>) outs(%e39 : tensor<197xf32>) -> tensor<197xf32>
  %c79 = arith.constant 0.0 : f32
  %e80 = tensor.empty() : tensor<31x306xf32>
  %v33 = linalg.fill ins(%c79 : f32) outs(%e80 : tensor<31x306xf32>) -> tensor<31x306xf32>
  %v34 = linalg.matmul ins(%v4, %a6 : tensor<31x32xf32>, tensor<32x306xf32>) outs(%v33 : tensor<31x306xf32>) -> tensor<31x306xf32>
  %v35 = linalg.softmax dimension(0) ins(%v8 : tensor<31x4x8xf32>) outs(%e19 : tensor<31x4x8xf32>) -> tensor<31x4x8xf32>
  %v36 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v7, %v7 : tensor<14x31x32xf32>, tensor<14x31x32xf32>) outs(%e17 : tensor<14x31x32xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.maximumf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<14x31x32xf32>
  return %v2, %v9, %v12, %v13, %v15, %v17, %v19, %v20, %v22, %v24, %v25, %v26, %v28, %v29, %v30, %v31, %v33, %v34, %v35, %v36 : tensor<33x31x32xf32>, tensor<31x32xf32>, tensor<13x5x5x3xf32>, tensor<13x5x5x3xf32>, tensor<32x31x32xf32>, tensor<16x2x8x2x2xf32>, tensor<7x31x9xf32>, tensor<31x32x20xf32>, tensor<2x3x8x3xf32>, tensor<1x1x2xf32>, tensor<2x3x8x3xf32>, tensor<32xf32>, tensor<1x2xf32>, tensor<31xf32>, tensor<31xf32>, tensor<197xf32>, tensor<31x306xf32>, tensor<31x306xf32>, tensor<31x4x8xf32>, tensor<14x31x32xf32>
}
