// Found by benchmarks/fuzz.py: an unpack tiled by 1 along a dim packed by 3 unpacked each inner tile 3 times; its tiles are now multiples of the inner tile (tile_search, SearchDim.multiple).
// schedgen: --memory 378 --fuse-mode max-size
func.func @fuzz(%a0: tensor<64xf16>, %a1: tensor<8x13x3x15xf16>, %a2: tensor<1x1x15x18xf16>, %a3: tensor<128x221xf16>, %a4: tensor<221x28xf16>, %a5: tensor<8x5x3x18x3xf16>, %a6: tensor<1x1x18xf16>, %a7: tensor<3x2x15x62xf16>, %a8: tensor<8x13x3x18xf16>) -> (tensor<13xf16>, tensor<13xf16>, tensor<13xf16>, tensor<8x13x3x18xf16>, tensor<128x28xf16>, tensor<13xf16>, tensor<28x128xf16>, tensor<1x1x15x18xf16>, tensor<26xf16>, tensor<3x8x18x5x3xf16>, tensor<8x11x2x62xf16>, tensor<8x11x2x62xf16>, tensor<8x13x3x18xf16>, tensor<8x3x18xf16>, tensor<8x3x18xf16>, tensor<8x3x18xf16>, tensor<8x3x18xf16>) {
  %c0 = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<8x13x3x18xf16>
  %v3 = linalg.fill ins(%c0 : f16) outs(%e1 : tensor<8x13x3x18xf16>) -> tensor<8x13x3x18xf16>
  %v4 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a1, %a2 : tensor<8x13x3x15xf16>, tensor<1x1x15x18xf16>) outs(%v3 : tensor<8x13x3x18xf16>) -> tensor<8x13x3x18xf16>
  %e4 = tensor.empty() : tensor<8x5x3x18x3xf16>
  %c5 = arith.constant 0.0 : f16
  %v5 = linalg.pack %v3 padding_value(%c5 : f16) inner_dims_pos = [1] inner_tiles = [3] into %e4 : tensor<8x13x3x18xf16> -> tensor<8x5x3x18x3xf16>
  %e7 = tensor.empty() : tensor<8x13x3x18xf16>
  %v6 = linalg.unpack %v5 inner_dims_pos = [1] inner_tiles = [3] into %e7 : tensor<8x5x3x18x3xf16> -> tensor<8x13x3x18xf16>
  %c9 = arith.constant 0.0 : f16
  %e10 = tensor.empty() : tensor<13xf16>
  %v7 = linalg.fill ins(%c9 : f16) outs(%e10 : tensor<13xf16>) -> tensor<13xf16>
  %c12 = arith.constant 1.0 : f16
  %e13 = tensor.empty() : tensor<13xf16>
  %v8 = linalg.fill ins(%c12 : f16) outs(%e13 : tensor<13xf16>) -> tensor<13xf16>
  %v9:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%v4 : tensor<8x13x3x18xf16>) outs(%v7, %v8 : tensor<13xf16>, tensor<13xf16>) {
  ^bb0(%in0: f16, %out: f16, %out1: f16):
    %r = arith.addf %in0, %out : f16
    %q = arith.maximumf %in0, %out1 : f16
    linalg.yield %r, %q : f16, f16
  } -> (tensor<13xf16>, tensor<13xf16>)
  %e21 = tensor.empty() : tensor<8x13x3x18xf16>
  %v11 = linalg.softmax dimension(1) ins(%v4 : tensor<8x13x3x18xf16>) outs(%e21 : tensor<8x13x3x18xf16>) -> tensor<8x13x3x18xf16>
  %c23 = arith.constant 0.0 : f16
  %e24 = tensor.empty() : tensor<128x28xf16>
  %v14 = linalg.fill ins(%c23 : f16) outs(%e24 : tensor<128x28xf16>) -> tensor<128x28xf16>
  %v15 = linalg.matmul ins(%a3, %a4 : tensor<128x221xf16>, tensor<221x28xf16>) outs(%v14 : tensor<128x28xf16>) -> tensor<128x28xf16>
  %e27 = tensor.empty() : tensor<8x5x3x18x3xf16>
  %v17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v5, %a5 : tensor<8x5x3x18x3xf16>, tensor<8x5x3x18x3xf16>) outs(%e27 : tensor<8x5x3x18x3xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.addf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<8x5x3x18x3xf16>
  %e33 = tensor.empty() : tensor<13xf16>
  %e34 = tensor.empty() : tensor<13xf16>
  %v18:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v9#1 : tensor<13xf16>) outs(%e33, %e34 : tensor<13xf16>, tensor<13xf16>) {
  ^bb0(%in0: f16, %out: f16, %out1: f16):
    %r = arith.mulf %in0, %in0 : f16
    %q = arith.maximumf %in0, %in0 : f16
    linalg.yield %r, %q : f16, f16
  } -> (tensor<13xf16>, tensor<13xf16>)
  %e41 = tensor.empty() : tensor<28x128xf16>
  %v20 = linalg.transpose ins(%v15 : tensor<128x28xf16>) outs(%e41 : tensor<28x128xf16>) permutation = [1, 0]
  %e43 = tensor.empty() : tensor<1x1x15x18xf16>
  %v22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a2, %a6 : tensor<1x1x15x18xf16>, tensor<1x1x18xf16>) outs(%e43 : tensor<1x1x15x18xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.mulf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<1x1x15x18xf16>
  %v23 = tensor.concat dim(0) %v9#1, %v18#1 : (tensor<13xf16>, tensor<13xf16>) -> tensor<26xf16>
  %e50 = tensor.empty() : tensor<3x8x18x5x3xf16>
  %v24 = linalg.transpose ins(%v17 : tensor<8x5x3x18x3xf16>) outs(%e50 : tensor<3x8x18x5x3xf16>) permutation = [2, 0, 3, 1, 4]
  %c52 = arith.constant 0.0 : f16
  %e53 = tensor.empty() : tensor<8x11x2x62xf16>
  %v26 = linalg.fill ins(%c52 : f16) outs(%e53 : tensor<8x11x2x62xf16>) -> tensor<8x11x2x62xf16>
  %v27 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a1, %a7 : tensor<8x13x3x15xf16>, tensor<3x2x15x62xf16>) outs(%v26 : tensor<8x11x2x62xf16>) -> tensor<8x11x2x62xf16>
  %e56 = tensor.empty() : tensor<8x13x3x18xf16>
  %v29 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v6, %a8 : tensor<8x13x3x18xf16>, tensor<8x13x3x18xf16>) outs(%e56 : tensor<8x13x3x18xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.subf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<8x13x3x18xf16>
  %c62 = arith.constant 0.0 : f16
  %e63 = tensor.empty() : tensor<8x3x18xf16>
  %v30 = linalg.fill ins(%c62 : f16) outs(%e63 : tensor<8x3x18xf16>) -> tensor<8x3x18xf16>
  %c65 = arith.constant 1.0 : f16
  %e66 = tensor.empty() : tensor<8x3x18xf16>
  %v31 = linalg.fill ins(%c65 : f16) outs(%e66 : tensor<8x3x18xf16>) -> tensor<8x3x18xf16>
  %v32:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%v3 : tensor<8x13x3x18xf16>) outs(%v30, %v31 : tensor<8x3x18xf16>, tensor<8x3x18xf16>) {
  ^bb0(%in0: f16, %out: f16, %out1: f16):
    %r = arith.addf %in0, %out : f16
    %q = arith.maximumf %in0, %out1 : f16
    linalg.yield %r, %q : f16, f16
  } -> (tensor<8x3x18xf16>, tensor<8x3x18xf16>)
  return %v7, %v8, %v9#0, %v11, %v14, %v18#0, %v20, %v22, %v23, %v24, %v26, %v27, %v29, %v30, %v31, %v32#0, %v32#1 : tensor<13xf16>, tensor<13xf16>, tensor<13xf16>, tensor<8x13x3x18xf16>, tensor<128x28xf16>, tensor<13xf16>, tensor<28x128xf16>, tensor<1x1x15x18xf16>, tensor<26xf16>, tensor<3x8x18x5x3xf16>, tensor<8x11x2x62xf16>, tensor<8x11x2x62xf16>, tensor<8x13x3x18xf16>, tensor<8x3x18xf16>, tensor<8x3x18xf16>, tensor<8x3x18xf16>, tensor<8x3x18xf16>
}
