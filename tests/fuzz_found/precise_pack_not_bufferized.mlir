// Found by benchmarks/fuzz.py --footprint precise: the precise simulation bufferized a nest holding a linalg.pack, which has no bufferization (now lowered first, as the JIT does): an internal error.
// schedgen: --memory 257 --fuse-mode only-patterns --footprint precise
func.func @fuzz(%a0: tensor<997x6xbf16>, %a1: tensor<997x6xbf16>, %a2: tensor<8x15x15x3xbf16>, %a3: tensor<3x2x3x9xbf16>, %a4: tensor<997x6xbf16>) -> (tensor<8x7x7x9xbf16>, tensor<8xbf16>, tensor<997xbf16>, tensor<997xbf16>, tensor<997x6xbf16>, tensor<997x6xbf16>, tensor<8x15x15x3xbf16>, tensor<8x7x2x9x5xbf16>, tensor<997x6xbf16>, tensor<8xbf16>, tensor<997xbf16>, tensor<997xbf16>) {
  %e0 = tensor.empty() : tensor<997x6xbf16>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<997x6xbf16>, tensor<997x6xbf16>) outs(%e0 : tensor<997x6xbf16>) {
  ^bb0(%in0: bf16, %in1: bf16, %out: bf16):
    %r = arith.maximumf %in0, %in1 : bf16
    linalg.yield %r : bf16
  } -> tensor<997x6xbf16>
  %c6 = arith.constant 0.0 : bf16
  %e7 = tensor.empty() : tensor<8x7x7x9xbf16>
  %v5 = linalg.fill ins(%c6 : bf16) outs(%e7 : tensor<8x7x7x9xbf16>) -> tensor<8x7x7x9xbf16>
  %v6 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%a2, %a3 : tensor<8x15x15x3xbf16>, tensor<3x2x3x9xbf16>) outs(%v5 : tensor<8x7x7x9xbf16>) -> tensor<8x7x7x9xbf16>
  %c10 = arith.constant 0.0 : bf16
  %e11 = tensor.empty() : tensor<8xbf16>
  %v7 = linalg.fill ins(%c10 : bf16) outs(%e11 : tensor<8xbf16>) -> tensor<8xbf16>
  %v8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction", "reduction"]} ins(%v5 : tensor<8x7x7x9xbf16>) outs(%v7 : tensor<8xbf16>) {
  ^bb0(%in0: bf16, %out: bf16):
    %r = arith.addf %in0, %out : bf16
    linalg.yield %r : bf16
  } -> tensor<8xbf16>
  %e18 = tensor.empty() : tensor<997x6xbf16>
  %v9 = linalg.softmax dimension(0) ins(%v2 : tensor<997x6xbf16>) outs(%e18 : tensor<997x6xbf16>) -> tensor<997x6xbf16>
  %c20 = arith.constant 0.0 : bf16
  %e21 = tensor.empty() : tensor<997xbf16>
  %v10 = linalg.fill ins(%c20 : bf16) outs(%e21 : tensor<997xbf16>) -> tensor<997xbf16>
  %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v9 : tensor<997x6xbf16>) outs(%v10 : tensor<997xbf16>) {
  ^bb0(%in0: bf16, %out: bf16):
    %r = arith.addf %in0, %out : bf16
    linalg.yield %r : bf16
  } -> tensor<997xbf16>
  %e28 = tensor.empty() : tensor<997x6xbf16>
  %v12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v9, %v2 : tensor<997x6xbf16>, tensor<997x6xbf16>) outs(%e28 : tensor<997x6xbf16>) {
  ^bb0(%in0: bf16, %in1: bf16, %out: bf16):
    %r = arith.mulf %in0, %in1 : bf16
    linalg.yield %r : bf16
  } -> tensor<997x6xbf16>
  %e34 = tensor.empty() : tensor<200x3x5x2xbf16>
  %c35 = arith.constant 0.0 : bf16
  %v13 = linalg.pack %v12 padding_value(%c35 : bf16) inner_dims_pos = [0, 1] inner_tiles = [5, 2] into %e34 : tensor<997x6xbf16> -> tensor<200x3x5x2xbf16>
  %e37 = tensor.empty() : tensor<997x6xbf16>
  %v14 = linalg.unpack %v13 inner_dims_pos = [0, 1] inner_tiles = [5, 2] into %e37 : tensor<200x3x5x2xbf16> -> tensor<997x6xbf16>
  %e39 = tensor.empty() : tensor<997x6xbf16>
  %v15 = linalg.softmax dimension(1) ins(%a1 : tensor<997x6xbf16>) outs(%e39 : tensor<997x6xbf16>) -> tensor<997x6xbf16>
  %e41 = tensor.empty() : tensor<997x6xbf16>
  %v17 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v12, %a4 : tensor<997x6xbf16>, tensor<997x6xbf16>) outs(%e41 : tensor<997x6xbf16>) {
  ^bb0(%in0: bf16, %in1: bf16, %out: bf16):
    %r = arith.minimumf %in0, %in1 : bf16
    linalg.yield %r : bf16
  } -> tensor<997x6xbf16>
  %e47 = tensor.empty() : tensor<8x15x15x3xbf16>
  %v18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a2 : tensor<8x15x15x3xbf16>) outs(%e47 : tensor<8x15x15x3xbf16>) {
  ^bb0(%in0: bf16, %out: bf16):
    %r = arith.addf %in0, %in0 : bf16
    linalg.yield %r : bf16
  } -> tensor<8x15x15x3xbf16>
  %e53 = tensor.empty() : tensor<8x7x2x9x5xbf16>
  %c54 = arith.constant 0.0 : bf16
  %v19 = linalg.pack %v6 padding_value(%c54 : bf16) inner_dims_pos = [2] inner_tiles = [5] into %e53 : tensor<8x7x7x9xbf16> -> tensor<8x7x2x9x5xbf16>
  %e56 = tensor.empty() : tensor<997x6xbf16>
  %v20 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v14, %a1 : tensor<997x6xbf16>, tensor<997x6xbf16>) outs(%e56 : tensor<997x6xbf16>) {
  ^bb0(%in0: bf16, %in1: bf16, %out: bf16):
    %r = arith.minimumf %in0, %in1 : bf16
    linalg.yield %r : bf16
  } -> tensor<997x6xbf16>
  %e62 = tensor.empty() : tensor<8xbf16>
  %v21 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v8 : tensor<8xbf16>) outs(%e62 : tensor<8xbf16>) {
  ^bb0(%in0: bf16, %out: bf16):
    %r = arith.mulf %in0, %in0 : bf16
    linalg.yield %r : bf16
  } -> tensor<8xbf16>
  %c68 = arith.constant 0.0 : bf16
  %e69 = tensor.empty() : tensor<997xbf16>
  %v22 = linalg.fill ins(%c68 : bf16) outs(%e69 : tensor<997xbf16>) -> tensor<997xbf16>
  %v23 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v12 : tensor<997x6xbf16>) outs(%v22 : tensor<997xbf16>) {
  ^bb0(%in0: bf16, %out: bf16):
    %r = arith.maximumf %in0, %out : bf16
    linalg.yield %r : bf16
  } -> tensor<997xbf16>
  return %v6, %v7, %v10, %v11, %v15, %v17, %v18, %v19, %v20, %v21, %v22, %v23 : tensor<8x7x7x9xbf16>, tensor<8xbf16>, tensor<997xbf16>, tensor<997xbf16>, tensor<997x6xbf16>, tensor<997x6xbf16>, tensor<8x15x15x3xbf16>, tensor<8x7x2x9x5xbf16>, tensor<997x6xbf16>, tensor<8xbf16>, tensor<997xbf16>, tensor<997xbf16>
}
