// Found by benchmarks/fuzz.py (cpu-host, seed 78): an unpack, the root of its nest, read element for element by its fused consumer alone; the elementwise-chain rule took it for a chain member and fused it into the consumer's register loop, which fuse_into_containing_op refused. Chains now take linalg ops with a plain tiling only.
// schedgen: --target cpu-host --fuse-mode max-producers
func.func @fuzz(%a0: tensor<5xf16>, %a1: tensor<512x14xf16>, %a2: tensor<7x7x7x12xf16>, %a3: tensor<52x7x2x3xf16>, %a4: tensor<2x3x10x2xf16>, %a5: tensor<5xf16>, %a6: tensor<5xf16>, %a7: tensor<512xf16>, %a8: tensor<52xf16>) -> (tensor<64xf16>, tensor<14xf16>, tensor<14xf16>, tensor<1xf16>, tensor<7x52x6x10xf16>, tensor<7x51x4x2xf16>, tensor<7x51x4x2xf16>, tensor<32x2xf16>, tensor<5xf16>, tensor<32xf16>, tensor<5xf16>, tensor<512xf16>, tensor<52x7x2x3xf16>, tensor<512xf16>, tensor<512xf16>, tensor<1x128xf16>, tensor<1xf16>, tensor<127xf16>) {
  %c0 = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<64xf16>
  %v0 = linalg.fill ins(%c0 : f16) outs(%e1 : tensor<64xf16>) -> tensor<64xf16>
  %c3 = arith.constant 2.0 : f16
  %e4 = tensor.empty() : tensor<5xf16>
  %v1 = linalg.fill ins(%c3 : f16) outs(%e4 : tensor<5xf16>) -> tensor<5xf16>
  %e6 = tensor.empty() : tensor<5xf16>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v1, %a0 : tensor<5xf16>, tensor<5xf16>) outs(%e6 : tensor<5xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.addf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<5xf16>
  %c12 = arith.constant 0.0 : f16
  %e13 = tensor.empty() : tensor<14xf16>
  %v5 = linalg.fill ins(%c12 : f16) outs(%e13 : tensor<14xf16>) -> tensor<14xf16>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%a1 : tensor<512x14xf16>) outs(%v5 : tensor<14xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.addf %in0, %out : f16
    linalg.yield %r : f16
  } -> tensor<14xf16>
  %c20 = arith.constant 0.0 : f16
  %e21 = tensor.empty() : tensor<1xf16>
  %v7 = linalg.fill ins(%c20 : f16) outs(%e21 : tensor<1xf16>) -> tensor<1xf16>
  %c23 = arith.constant 0.0 : f16
  %e24 = tensor.empty() : tensor<7x52x6x10xf16>
  %v10 = linalg.fill ins(%c23 : f16) outs(%e24 : tensor<7x52x6x10xf16>) -> tensor<7x52x6x10xf16>
  %v11 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%a2, %a3 : tensor<7x7x7x12xf16>, tensor<52x7x2x3xf16>) outs(%v10 : tensor<7x52x6x10xf16>) -> tensor<7x52x6x10xf16>
  %e27 = tensor.empty() : tensor<52x2x1x3x4x16xf16>
  %c28 = arith.constant 0.0 : f16
  %v12 = linalg.pack %a3 padding_value(%c28 : f16) inner_dims_pos = [1, 2] inner_tiles = [4, 16] into %e27 : tensor<52x7x2x3xf16> -> tensor<52x2x1x3x4x16xf16>
  %e30 = tensor.empty() : tensor<52x7x2x3xf16>
  %v13 = linalg.unpack %v12 inner_dims_pos = [1, 2] inner_tiles = [4, 16] into %e30 : tensor<52x2x1x3x4x16xf16> -> tensor<52x7x2x3xf16>
  %c32 = arith.constant 0.0 : f16
  %e33 = tensor.empty() : tensor<7x51x4x2xf16>
  %v15 = linalg.fill ins(%c32 : f16) outs(%e33 : tensor<7x51x4x2xf16>) -> tensor<7x51x4x2xf16>
  %v16 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%v10, %a4 : tensor<7x52x6x10xf16>, tensor<2x3x10x2xf16>) outs(%v15 : tensor<7x51x4x2xf16>) -> tensor<7x51x4x2xf16>
  %e36 = tensor.empty() : tensor<5xf16>
  %v18 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v3, %a5 : tensor<5xf16>, tensor<5xf16>) outs(%e36 : tensor<5xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.maximumf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<5xf16>
  %c42 = arith.constant 0.0 : f16
  %e43 = tensor.empty() : tensor<32x2xf16>
  %v19 = linalg.fill ins(%c42 : f16) outs(%e43 : tensor<32x2xf16>) -> tensor<32x2xf16>
  %e45 = tensor.empty() : tensor<5xf16>
  %v21 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a5, %a6 : tensor<5xf16>, tensor<5xf16>) outs(%e45 : tensor<5xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.addf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<5xf16>
  %e51 = tensor.empty() : tensor<5xf16>
  %v22 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v21 : tensor<5xf16>) outs(%e51 : tensor<5xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.addf %in0, %in0 : f16
    linalg.yield %r : f16
  } -> tensor<5xf16>
  %e57 = tensor.empty() : tensor<5xf16>
  %v23 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v18 : tensor<5xf16>) outs(%e57 : tensor<5xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.addf %in0, %in0 : f16
    linalg.yield %r : f16
  } -> tensor<5xf16>
  %c63 = arith.constant 1.0 : f16
  %e64 = tensor.empty() : tensor<32xf16>
  %v24 = linalg.fill ins(%c63 : f16) outs(%e64 : tensor<32xf16>) -> tensor<32xf16>
  %c66 = arith.constant 1.0 : f16
  %e67 = tensor.empty() : tensor<128xf16>
  %v25 = linalg.fill ins(%c66 : f16) outs(%e67 : tensor<128xf16>) -> tensor<128xf16>
  %e69 = tensor.empty() : tensor<5xf16>
  %v26 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v22 : tensor<5xf16>) outs(%e69 : tensor<5xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.addf %in0, %in0 : f16
    linalg.yield %r : f16
  } -> tensor<5xf16>
  %c75 = arith.constant 0.0 : f16
  %e76 = tensor.empty() : tensor<512xf16>
  %v27 = linalg.fill ins(%c75 : f16) outs(%e76 : tensor<512xf16>) -> tensor<512xf16>
  %e78 = tensor.empty() : tensor<512xf16>
  %v29 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v27, %a7 : tensor<512xf16>, tensor<512xf16>) outs(%e78 : tensor<512xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.addf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<512xf16>
  %e84 = tensor.empty() : tensor<52x7x2x3xf16>
  %v31 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v13, %a8 : tensor<52x7x2x3xf16>, tensor<52xf16>) outs(%e84 : tensor<52x7x2x3xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.addf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<52x7x2x3xf16>
  %e90 = tensor.empty() : tensor<512xf16>
  %v32 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a7 : tensor<512xf16>) outs(%e90 : tensor<512xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.addf %in0, %in0 : f16
    linalg.yield %r : f16
  } -> tensor<512xf16>
  %c96 = arith.constant 1.0 : f16
  %e97 = tensor.empty() : tensor<512xf16>
  %v33 = linalg.fill ins(%c96 : f16) outs(%e97 : tensor<512xf16>) -> tensor<512xf16>
  %e99 = tensor.empty() : tensor<1x128xf16>
  %v34 = linalg.broadcast ins(%v25 : tensor<128xf16>) outs(%e99 : tensor<1x128xf16>) dimensions = [0]
  %c101 = arith.constant 1.0 : f16
  %e102 = tensor.empty() : tensor<1xf16>
  %v35 = linalg.fill ins(%c101 : f16) outs(%e102 : tensor<1xf16>) -> tensor<1xf16>
  %c104 = arith.constant 0.0 : f16
  %e105 = tensor.empty() : tensor<127xf16>
  %v36 = linalg.fill ins(%c104 : f16) outs(%e105 : tensor<127xf16>) -> tensor<127xf16>
  return %v0, %v5, %v6, %v7, %v11, %v15, %v16, %v19, %v23, %v24, %v26, %v29, %v31, %v32, %v33, %v34, %v35, %v36 : tensor<64xf16>, tensor<14xf16>, tensor<14xf16>, tensor<1xf16>, tensor<7x52x6x10xf16>, tensor<7x51x4x2xf16>, tensor<7x51x4x2xf16>, tensor<32x2xf16>, tensor<5xf16>, tensor<32xf16>, tensor<5xf16>, tensor<512xf16>, tensor<52x7x2x3xf16>, tensor<512xf16>, tensor<512xf16>, tensor<1x128xf16>, tensor<1xf16>, tensor<127xf16>
}
