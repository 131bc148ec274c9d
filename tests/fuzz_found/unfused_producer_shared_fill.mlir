// Found by benchmarks/fuzz.py: max-producers left out a costly producer (a convolution) but kept the fill that is its init and another op's input: the fill ran in the nest and again outside, over the budget.
// schedgen: --memory 745 --fuse-mode max-producers
func.func @fuzz(%a0: tensor<37x22x23xi32>, %a1: tensor<16x3x9x10xi32>, %a2: tensor<2x3x10x1xi32>, %a3: tensor<3x9x10xi32>, %a4: tensor<3xi32>, %a5: tensor<2x3x10x5xi32>, %a6: tensor<2x1x5x30xi32>) -> (tensor<23xi32>, tensor<23xi32>, tensor<37xi32>, tensor<57x64x6x1xi32>, tensor<2x3x10x1xi32>, tensor<37x253xi32>, tensor<2x3x1xi32>, tensor<2x1562x3x1xi32>, tensor<37x1x22x23xi32>, tensor<16x2x7x1xi32>, tensor<2x3x631x1xi32>, tensor<37xi32>, tensor<5x3555xi32>, tensor<16x2x7x5xi32>, tensor<11x2048xi32>, tensor<16x1x7x30xi32>, tensor<16x1x7x30xi32>) {
  %c0 = arith.constant 0 : i32
  %e1 = tensor.empty() : tensor<23xi32>
  %v1 = linalg.fill ins(%c0 : i32) outs(%e1 : tensor<23xi32>) -> tensor<23xi32>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%a0 : tensor<37x22x23xi32>) outs(%v1 : tensor<23xi32>) {
  ^bb0(%in0: i32, %out: i32):
    %r = arith.addi %in0, %out : i32
    linalg.yield %r : i32
  } -> tensor<23xi32>
  %c8 = arith.constant 0 : i32
  %e9 = tensor.empty() : tensor<37xi32>
  %v3 = linalg.fill ins(%c8 : i32) outs(%e9 : tensor<37xi32>) -> tensor<37xi32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%a0 : tensor<37x22x23xi32>) outs(%v3 : tensor<37xi32>) {
  ^bb0(%in0: i32, %out: i32):
    %r = arith.addi %in0, %out : i32
    linalg.yield %r : i32
  } -> tensor<37xi32>
  %c16 = arith.constant 0 : i32
  %e17 = tensor.empty() : tensor<16x2x7x1xi32>
  %v7 = linalg.fill ins(%c16 : i32) outs(%e17 : tensor<16x2x7x1xi32>) -> tensor<16x2x7x1xi32>
  %v8 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a1, %a2 : tensor<16x3x9x10xi32>, tensor<2x3x10x1xi32>) outs(%v7 : tensor<16x2x7x1xi32>) -> tensor<16x2x7x1xi32>
  %e20 = tensor.empty() : tensor<16x3x9x10xi32>
  %v10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a1, %a3 : tensor<16x3x9x10xi32>, tensor<3x9x10xi32>) outs(%e20 : tensor<16x3x9x10xi32>) {
  ^bb0(%in0: i32, %in1: i32, %out: i32):
    %r = arith.addi %in0, %in1 : i32
    linalg.yield %r : i32
  } -> tensor<16x3x9x10xi32>
  %c26 = arith.constant 1 : i32
  %e27 = tensor.empty() : tensor<57x64x6x1xi32>
  %v11 = linalg.fill ins(%c26 : i32) outs(%e27 : tensor<57x64x6x1xi32>) -> tensor<57x64x6x1xi32>
  %e29 = tensor.empty() : tensor<2x3x10x1xi32>
  %v13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a2, %a4 : tensor<2x3x10x1xi32>, tensor<3xi32>) outs(%e29 : tensor<2x3x10x1xi32>) {
  ^bb0(%in0: i32, %in1: i32, %out: i32):
    %r = arith.subi %in0, %in1 : i32
    linalg.yield %r : i32
  } -> tensor<2x3x10x1xi32>
  %c35 = arith.constant 0 : i32
  %e36 = tensor.empty() : tensor<5xi32>
  %v14 = linalg.fill ins(%c35 : i32) outs(%e36 : tensor<5xi32>) -> tensor<5xi32>
  %e38 = tensor.empty() : tensor<37x253xi32>
  %v15 = linalg.broadcast ins(%v3 : tensor<37xi32>) outs(%e38 : tensor<37x253xi32>) dimensions = [1]
  %c40 = arith.constant 0 : i32
  %e41 = tensor.empty() : tensor<2x3x1xi32>
  %v16 = linalg.fill ins(%c40 : i32) outs(%e41 : tensor<2x3x1xi32>) -> tensor<2x3x1xi32>
  %v17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%a2 : tensor<2x3x10x1xi32>) outs(%v16 : tensor<2x3x1xi32>) {
  ^bb0(%in0: i32, %out: i32):
    %r = arith.addi %in0, %out : i32
    linalg.yield %r : i32
  } -> tensor<2x3x1xi32>
  %e48 = tensor.empty() : tensor<2x1562x3x1xi32>
  %v18 = linalg.broadcast ins(%v17 : tensor<2x3x1xi32>) outs(%e48 : tensor<2x1562x3x1xi32>) dimensions = [1]
  %e50 = tensor.empty() : tensor<37x1x22x23xi32>
  %v19 = linalg.broadcast ins(%a0 : tensor<37x22x23xi32>) outs(%e50 : tensor<37x1x22x23xi32>) dimensions = [1]
  %e52 = tensor.empty() : tensor<16x2x7x1xi32>
  %v20 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v7, %v8 : tensor<16x2x7x1xi32>, tensor<16x2x7x1xi32>) outs(%e52 : tensor<16x2x7x1xi32>) {
  ^bb0(%in0: i32, %in1: i32, %out: i32):
    %r = arith.addi %in0, %in1 : i32
    linalg.yield %r : i32
  } -> tensor<16x2x7x1xi32>
  %e58 = tensor.empty() : tensor<2x3x631x1xi32>
  %v21 = linalg.broadcast ins(%v17 : tensor<2x3x1xi32>) outs(%e58 : tensor<2x3x631x1xi32>) dimensions = [2]
  %e60 = tensor.empty() : tensor<37xi32>
  %v22 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v3 : tensor<37xi32>) outs(%e60 : tensor<37xi32>) {
  ^bb0(%in0: i32, %out: i32):
    %r = arith.maxsi %in0, %in0 : i32
    linalg.yield %r : i32
  } -> tensor<37xi32>
  %e66 = tensor.empty() : tensor<5x3555xi32>
  %v23 = linalg.broadcast ins(%v14 : tensor<5xi32>) outs(%e66 : tensor<5x3555xi32>) dimensions = [1]
  %c68 = arith.constant 0 : i32
  %e69 = tensor.empty() : tensor<16x2x7x5xi32>
  %v25 = linalg.fill ins(%c68 : i32) outs(%e69 : tensor<16x2x7x5xi32>) -> tensor<16x2x7x5xi32>
  %v26 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%v10, %a5 : tensor<16x3x9x10xi32>, tensor<2x3x10x5xi32>) outs(%v25 : tensor<16x2x7x5xi32>) -> tensor<16x2x7x5xi32>
  %c72 = arith.constant 1 : i32
  %e73 = tensor.empty() : tensor<11x2048xi32>
  %v27 = linalg.fill ins(%c72 : i32) outs(%e73 : tensor<11x2048xi32>) -> tensor<11x2048xi32>
  %c75 = arith.constant 0 : i32
  %e76 = tensor.empty() : tensor<16x1x7x30xi32>
  %v29 = linalg.fill ins(%c75 : i32) outs(%e76 : tensor<16x1x7x30xi32>) -> tensor<16x1x7x30xi32>
  %v30 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%v25, %a6 : tensor<16x2x7x5xi32>, tensor<2x1x5x30xi32>) outs(%v29 : tensor<16x1x7x30xi32>) -> tensor<16x1x7x30xi32>
  return %v1, %v2, %v4, %v11, %v13, %v15, %v16, %v18, %v19, %v20, %v21, %v22, %v23, %v26, %v27, %v29, %v30 : tensor<23xi32>, tensor<23xi32>, tensor<37xi32>, tensor<57x64x6x1xi32>, tensor<2x3x10x1xi32>, tensor<37x253xi32>, tensor<2x3x1xi32>, tensor<2x1562x3x1xi32>, tensor<37x1x22x23xi32>, tensor<16x2x7x1xi32>, tensor<2x3x631x1xi32>, tensor<37xi32>, tensor<5x3555xi32>, tensor<16x2x7x5xi32>, tensor<11x2048xi32>, tensor<16x1x7x30xi32>, tensor<16x1x7x30xi32>
}
