// Found by benchmarks/fuzz.py: consumers that read the loop's destination (a fill), or come after another reader of the loop, cannot be fused into it.
// schedgen: --memory 37902 --fuse-mode max-producers
func.func @fuzz(%a0: tensor<3x64x127xf16>, %a1: tensor<4x7x4x11xf16>, %a2: tensor<3x3x11x52xf16>, %a3: tensor<3x1x52x21xf16>, %a4: tensor<3x64xf16>, %a5: tensor<64x3xf16>, %a6: tensor<127x83xf16>, %a7: tensor<3x3x52x25xf16>, %a8: tensor<3x127xf16>) -> (tensor<4x5x2x52xf16>, tensor<64x3x127xf16>, tensor<64x127x2xf16>, tensor<4x3x2x21xf16>, tensor<4x3x2x21xf16>, tensor<3x64x127xf16>, tensor<3x64x127xf16>, tensor<3x3xf16>, tensor<3x3xf16>, tensor<16x2x32x25xf16>, tensor<64x83xf16>, tensor<64x83xf16>, tensor<3x1x9x25xf16>, tensor<3x1x9x25xf16>, tensor<64x127xf16>, tensor<127x64x3xf16>, tensor<64x3x127xf16>) {
  %c0 = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<64x127xf16>
  %v1 = linalg.fill ins(%c0 : f16) outs(%e1 : tensor<64x127xf16>) -> tensor<64x127xf16>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%a0 : tensor<3x64x127xf16>) outs(%v1 : tensor<64x127xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.maximumf %in0, %out : f16
    linalg.yield %r : f16
  } -> tensor<64x127xf16>
  %e8 = tensor.empty() : tensor<3x64x127xf16>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a0 : tensor<3x64x127xf16>) outs(%e8 : tensor<3x64x127xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.addf %in0, %in0 : f16
    linalg.yield %r : f16
  } -> tensor<3x64x127xf16>
  %c14 = arith.constant 0.0 : f16
  %e15 = tensor.empty() : tensor<4x5x2x52xf16>
  %v6 = linalg.fill ins(%c14 : f16) outs(%e15 : tensor<4x5x2x52xf16>) -> tensor<4x5x2x52xf16>
  %v7 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a1, %a2 : tensor<4x7x4x11xf16>, tensor<3x3x11x52xf16>) outs(%v6 : tensor<4x5x2x52xf16>) -> tensor<4x5x2x52xf16>
  %e18 = tensor.empty() : tensor<1x3x64x127xf16>
  %v8 = linalg.broadcast ins(%v3 : tensor<3x64x127xf16>) outs(%e18 : tensor<1x3x64x127xf16>) dimensions = [0]
  %e20 = tensor.empty() : tensor<64x3x127xf16>
  %v9 = linalg.transpose ins(%v3 : tensor<3x64x127xf16>) outs(%e20 : tensor<64x3x127xf16>) permutation = [1, 0, 2]
  %e22 = tensor.empty() : tensor<64x127x2xf16>
  %v10 = linalg.broadcast ins(%v1 : tensor<64x127xf16>) outs(%e22 : tensor<64x127x2xf16>) dimensions = [2]
  %c24 = arith.constant 0.0 : f16
  %e25 = tensor.empty() : tensor<4x3x2x21xf16>
  %v12 = linalg.fill ins(%c24 : f16) outs(%e25 : tensor<4x3x2x21xf16>) -> tensor<4x3x2x21xf16>
  %v13 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%v6, %a3 : tensor<4x5x2x52xf16>, tensor<3x1x52x21xf16>) outs(%v12 : tensor<4x3x2x21xf16>) -> tensor<4x3x2x21xf16>
  %c28 = arith.constant 0.0 : f16
  %e29 = tensor.empty() : tensor<3x64x127xf16>
  %v14 = linalg.fill ins(%c28 : f16) outs(%e29 : tensor<3x64x127xf16>) -> tensor<3x64x127xf16>
  %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>], iterator_types = ["reduction", "parallel", "parallel", "parallel"]} ins(%v8 : tensor<1x3x64x127xf16>) outs(%v14 : tensor<3x64x127xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.addf %in0, %out : f16
    linalg.yield %r : f16
  } -> tensor<3x64x127xf16>
  %e36 = tensor.empty() : tensor<64x3x127xf16>
  %v16 = linalg.transpose ins(%v14 : tensor<3x64x127xf16>) outs(%e36 : tensor<64x3x127xf16>) permutation = [1, 0, 2]
  %e38 = tensor.empty() : tensor<3x64x127xf16>
  %v18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v3, %a4 : tensor<3x64x127xf16>, tensor<3x64xf16>) outs(%e38 : tensor<3x64x127xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.addf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<3x64x127xf16>
  %e44 = tensor.empty() : tensor<64x3x127xf16>
  %v20 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v16, %a5 : tensor<64x3x127xf16>, tensor<64x3xf16>) outs(%e44 : tensor<64x3x127xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.minimumf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<64x3x127xf16>
  %c50 = arith.constant 0.0 : f16
  %e51 = tensor.empty() : tensor<3x3xf16>
  %v21 = linalg.fill ins(%c50 : f16) outs(%e51 : tensor<3x3xf16>) -> tensor<3x3xf16>
  %v22 = linalg.matmul ins(%a4, %a5 : tensor<3x64xf16>, tensor<64x3xf16>) outs(%v21 : tensor<3x3xf16>) -> tensor<3x3xf16>
  %c54 = arith.constant 2.0 : f16
  %e55 = tensor.empty() : tensor<16x2x32x25xf16>
  %v23 = linalg.fill ins(%c54 : f16) outs(%e55 : tensor<16x2x32x25xf16>) -> tensor<16x2x32x25xf16>
  %c57 = arith.constant 0.0 : f16
  %e58 = tensor.empty() : tensor<64x83xf16>
  %v25 = linalg.fill ins(%c57 : f16) outs(%e58 : tensor<64x83xf16>) -> tensor<64x83xf16>
  %v26 = linalg.matmul ins(%v2, %a6 : tensor<64x127xf16>, tensor<127x83xf16>) outs(%v25 : tensor<64x83xf16>) -> tensor<64x83xf16>
  %c61 = arith.constant 0.0 : f16
  %e62 = tensor.empty() : tensor<3x1x9x25xf16>
  %v28 = linalg.fill ins(%c61 : f16) outs(%e62 : tensor<3x1x9x25xf16>) -> tensor<3x1x9x25xf16>
  %v29 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a2, %a7 : tensor<3x3x11x52xf16>, tensor<3x3x52x25xf16>) outs(%v28 : tensor<3x1x9x25xf16>) -> tensor<3x1x9x25xf16>
  %e65 = tensor.empty() : tensor<64x127xf16>
  %v30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v1, %v2 : tensor<64x127xf16>, tensor<64x127xf16>) outs(%e65 : tensor<64x127xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.maximumf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<64x127xf16>
  %e71 = tensor.empty() : tensor<127x64x3xf16>
  %v31 = linalg.transpose ins(%v20 : tensor<64x3x127xf16>) outs(%e71 : tensor<127x64x3xf16>) permutation = [2, 0, 1]
  %e73 = tensor.empty() : tensor<64x3x127xf16>
  %v33 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v20, %a8 : tensor<64x3x127xf16>, tensor<3x127xf16>) outs(%e73 : tensor<64x3x127xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.addf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<64x3x127xf16>
  return %v7, %v9, %v10, %v12, %v13, %v15, %v18, %v21, %v22, %v23, %v25, %v26, %v28, %v29, %v30, %v31, %v33 : tensor<4x5x2x52xf16>, tensor<64x3x127xf16>, tensor<64x127x2xf16>, tensor<4x3x2x21xf16>, tensor<4x3x2x21xf16>, tensor<3x64x127xf16>, tensor<3x64x127xf16>, tensor<3x3xf16>, tensor<3x3xf16>, tensor<16x2x32x25xf16>, tensor<64x83xf16>, tensor<64x83xf16>, tensor<3x1x9x25xf16>, tensor<3x1x9x25xf16>, tensor<64x127xf16>, tensor<127x64x3xf16>, tensor<64x3x127xf16>
}
