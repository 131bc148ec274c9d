// Found by benchmarks/fuzz.py: a canonicalization rewrote a transpose of a unit dim into a smaller transpose and a broadcast at its location; check counted them as two copies of it.
// schedgen: --memory 257 --fuse-mode max-size
func.func @fuzz(%a0: tensor<16x11x6x22xf16>, %a1: tensor<733x32xf16>, %a2: tensor<3x2x22x11xf16>, %a3: tensor<10x11xf16>, %a4: tensor<11x2978xf16>, %a5: tensor<2978x5xf16>, %a6: tensor<11xf16>, %a7: tensor<3x3x11x24xf16>, %a8: tensor<11xf16>) -> (tensor<16x11x6x22xf16>, tensor<16x9x5x11xf16>, tensor<10x103x11xf16>, tensor<10x11xf16>, tensor<2x64x7xf16>, tensor<10x2978xf16>, tensor<11x5xf16>, tensor<11x5xf16>, tensor<11x2978xf16>, tensor<11x5xf16>, tensor<907xf16>, tensor<16x7x3x24xf16>, tensor<16x7x3x24xf16>, tensor<9xf16>, tensor<1x9xf16>, tensor<32xf16>, tensor<32xf16>, tensor<5xf16>, tensor<5xf16>, tensor<10x2978xf16>, tensor<32x1x733xf16>, tensor<11x5xf16>) {
  %e0 = tensor.empty() : tensor<16x11x6x22xf16>
  %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a0, %a0 : tensor<16x11x6x22xf16>, tensor<16x11x6x22xf16>) outs(%e0 : tensor<16x11x6x22xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.mulf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<16x11x6x22xf16>
  %e6 = tensor.empty() : tensor<16x11x6x22xf16>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v1 : tensor<16x11x6x22xf16>) outs(%e6 : tensor<16x11x6x22xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.maximumf %in0, %in0 : f16
    linalg.yield %r : f16
  } -> tensor<16x11x6x22xf16>
  %e12 = tensor.empty() : tensor<733x1x32xf16>
  %v4 = linalg.broadcast ins(%a1 : tensor<733x32xf16>) outs(%e12 : tensor<733x1x32xf16>) dimensions = [1]
  %c14 = arith.constant 2.0 : f16
  %e15 = tensor.empty() : tensor<10x11xf16>
  %v5 = linalg.fill ins(%c14 : f16) outs(%e15 : tensor<10x11xf16>) -> tensor<10x11xf16>
  %c17 = arith.constant 0.0 : f16
  %e18 = tensor.empty() : tensor<16x9x5x11xf16>
  %v7 = linalg.fill ins(%c17 : f16) outs(%e18 : tensor<16x9x5x11xf16>) -> tensor<16x9x5x11xf16>
  %v8 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a0, %a2 : tensor<16x11x6x22xf16>, tensor<3x2x22x11xf16>) outs(%v7 : tensor<16x9x5x11xf16>) -> tensor<16x9x5x11xf16>
  %e21 = tensor.empty() : tensor<10x103x11xf16>
  %v9 = linalg.broadcast ins(%v5 : tensor<10x11xf16>) outs(%e21 : tensor<10x103x11xf16>) dimensions = [1]
  %e23 = tensor.empty() : tensor<10x11xf16>
  %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v5, %a3 : tensor<10x11xf16>, tensor<10x11xf16>) outs(%e23 : tensor<10x11xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.maximumf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<10x11xf16>
  %c29 = arith.constant 1.0 : f16
  %e30 = tensor.empty() : tensor<2x64x7xf16>
  %v12 = linalg.fill ins(%c29 : f16) outs(%e30 : tensor<2x64x7xf16>) -> tensor<2x64x7xf16>
  %c32 = arith.constant 0.0 : f16
  %e33 = tensor.empty() : tensor<10x2978xf16>
  %v14 = linalg.fill ins(%c32 : f16) outs(%e33 : tensor<10x2978xf16>) -> tensor<10x2978xf16>
  %v15 = linalg.matmul ins(%v5, %a4 : tensor<10x11xf16>, tensor<11x2978xf16>) outs(%v14 : tensor<10x2978xf16>) -> tensor<10x2978xf16>
  %e36 = tensor.empty() : tensor<11x2978xf16>
  %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a4, %a4 : tensor<11x2978xf16>, tensor<11x2978xf16>) outs(%e36 : tensor<11x2978xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.mulf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<11x2978xf16>
  %c42 = arith.constant 0.0 : f16
  %e43 = tensor.empty() : tensor<11x5xf16>
  %v18 = linalg.fill ins(%c42 : f16) outs(%e43 : tensor<11x5xf16>) -> tensor<11x5xf16>
  %v19 = linalg.matmul ins(%a4, %a5 : tensor<11x2978xf16>, tensor<2978x5xf16>) outs(%v18 : tensor<11x5xf16>) -> tensor<11x5xf16>
  %e46 = tensor.empty() : tensor<11x2978xf16>
  %v21 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v16, %a6 : tensor<11x2978xf16>, tensor<11xf16>) outs(%e46 : tensor<11x2978xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.mulf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<11x2978xf16>
  %c52 = arith.constant 0.0 : f16
  %e53 = tensor.empty() : tensor<11x5xf16>
  %v22 = linalg.fill ins(%c52 : f16) outs(%e53 : tensor<11x5xf16>) -> tensor<11x5xf16>
  %v23 = linalg.matmul ins(%a4, %a5 : tensor<11x2978xf16>, tensor<2978x5xf16>) outs(%v22 : tensor<11x5xf16>) -> tensor<11x5xf16>
  %c56 = arith.constant 2.0 : f16
  %e57 = tensor.empty() : tensor<907xf16>
  %v24 = linalg.fill ins(%c56 : f16) outs(%e57 : tensor<907xf16>) -> tensor<907xf16>
  %c59 = arith.constant 0.0 : f16
  %e60 = tensor.empty() : tensor<16x7x3x24xf16>
  %v26 = linalg.fill ins(%c59 : f16) outs(%e60 : tensor<16x7x3x24xf16>) -> tensor<16x7x3x24xf16>
  %v27 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%v7, %a7 : tensor<16x9x5x11xf16>, tensor<3x3x11x24xf16>) outs(%v26 : tensor<16x7x3x24xf16>) -> tensor<16x7x3x24xf16>
  %c63 = arith.constant 0.0 : f16
  %e64 = tensor.empty() : tensor<9xf16>
  %v28 = linalg.fill ins(%c63 : f16) outs(%e64 : tensor<9xf16>) -> tensor<9xf16>
  %v29 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%v7 : tensor<16x9x5x11xf16>) outs(%v28 : tensor<9xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.addf %in0, %out : f16
    linalg.yield %r : f16
  } -> tensor<9xf16>
  %e71 = tensor.empty() : tensor<1x9xf16>
  %v30 = linalg.broadcast ins(%v29 : tensor<9xf16>) outs(%e71 : tensor<1x9xf16>) dimensions = [0]
  %c73 = arith.constant 0.0 : f16
  %e74 = tensor.empty() : tensor<32xf16>
  %v31 = linalg.fill ins(%c73 : f16) outs(%e74 : tensor<32xf16>) -> tensor<32xf16>
  %v32 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%a1 : tensor<733x32xf16>) outs(%v31 : tensor<32xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.maximumf %in0, %out : f16
    linalg.yield %r : f16
  } -> tensor<32xf16>
  %c81 = arith.constant 0.0 : f16
  %e82 = tensor.empty() : tensor<5xf16>
  %v33 = linalg.fill ins(%c81 : f16) outs(%e82 : tensor<5xf16>) -> tensor<5xf16>
  %v34 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%v23 : tensor<11x5xf16>) outs(%v33 : tensor<5xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.addf %in0, %out : f16
    linalg.yield %r : f16
  } -> tensor<5xf16>
  %e89 = tensor.empty() : tensor<10x2978xf16>
  %v35 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v15 : tensor<10x2978xf16>) outs(%e89 : tensor<10x2978xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %r = arith.mulf %in0, %in0 : f16
    linalg.yield %r : f16
  } -> tensor<10x2978xf16>
  %e95 = tensor.empty() : tensor<32x1x733xf16>
  %v36 = linalg.transpose ins(%v4 : tensor<733x1x32xf16>) outs(%e95 : tensor<32x1x733xf16>) permutation = [2, 1, 0]
  %e97 = tensor.empty() : tensor<11x5xf16>
  %v38 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v23, %a8 : tensor<11x5xf16>, tensor<11xf16>) outs(%e97 : tensor<11x5xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %r = arith.mulf %in0, %in1 : f16
    linalg.yield %r : f16
  } -> tensor<11x5xf16>
  return %v2, %v8, %v9, %v11, %v12, %v14, %v18, %v19, %v21, %v22, %v24, %v26, %v27, %v28, %v30, %v31, %v32, %v33, %v34, %v35, %v36, %v38 : tensor<16x11x6x22xf16>, tensor<16x9x5x11xf16>, tensor<10x103x11xf16>, tensor<10x11xf16>, tensor<2x64x7xf16>, tensor<10x2978xf16>, tensor<11x5xf16>, tensor<11x5xf16>, tensor<11x2978xf16>, tensor<11x5xf16>, tensor<907xf16>, tensor<16x7x3x24xf16>, tensor<16x7x3x24xf16>, tensor<9xf16>, tensor<1x9xf16>, tensor<32xf16>, tensor<32xf16>, tensor<5xf16>, tensor<5xf16>, tensor<10x2978xf16>, tensor<32x1x733xf16>, tensor<11x5xf16>
}
