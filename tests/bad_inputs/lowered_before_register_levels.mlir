func.func @fuzz(%a0: tensor<10x11x12x16xi8>, %a1: tensor<12x10xi8>, %a2: tensor<1xi8>, %a3: tensor<1xi8>, %a4: tensor<1xi8>) -> (tensor<604xi8>, tensor<12x11x10xi8>, tensor<12x1x1xi8>, tensor<12x1x1x1xi8>, tensor<127xi8>, tensor<2xi8>, tensor<1xi8>, tensor<12x1x1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1x1xi8>, tensor<1xi8>, tensor<10xi8>) {
  %e0 = tensor.empty() : tensor<16x12x11x10xi8>
  %v1 = linalg.transpose ins(%a0 : tensor<10x11x12x16xi8>) outs(%e0 : tensor<16x12x11x10xi8>) permutation = [3, 2, 1, 0]
  %c2 = arith.constant 0 : i8
  %e3 = tensor.empty() : tensor<604xi8>
  %v2 = linalg.fill ins(%c2 : i8) outs(%e3 : tensor<604xi8>) -> tensor<604xi8>
  %e5 = tensor.empty() : tensor<16x12x11x10xi8>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v1, %a1 : tensor<16x12x11x10xi8>, tensor<12x10xi8>) outs(%e5 : tensor<16x12x11x10xi8>) {
  ^bb0(%in0: i8, %in1: i8, %out: i8):
    %r = arith.maxsi %in0, %in1 : i8
    linalg.yield %r : i8
  } -> tensor<16x12x11x10xi8>
  %c11 = arith.constant 0 : i8
  %e12 = tensor.empty() : tensor<12x11x10xi8>
  %v5 = linalg.fill ins(%c11 : i8) outs(%e12 : tensor<12x11x10xi8>) -> tensor<12x11x10xi8>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>], iterator_types = ["reduction", "parallel", "parallel", "parallel"]} ins(%v4 : tensor<16x12x11x10xi8>) outs(%v5 : tensor<12x11x10xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.addi %in0, %out : i8
    linalg.yield %r : i8
  } -> tensor<12x11x10xi8>
  %c19 = arith.constant 0 : i8
  %e20 = tensor.empty() : tensor<12x1x1xi8>
  %v7 = linalg.fill ins(%c19 : i8) outs(%e20 : tensor<12x1x1xi8>) -> tensor<12x1x1xi8>
  %v8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, 0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%v6 : tensor<12x11x10xi8>) outs(%v7 : tensor<12x1x1xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.addi %in0, %out : i8
    linalg.yield %r : i8
  } -> tensor<12x1x1xi8>
  %e27 = tensor.empty() : tensor<12x1x1xi8>
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v7 : tensor<12x1x1xi8>) outs(%e27 : tensor<12x1x1xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.addi %in0, %in0 : i8
    linalg.yield %r : i8
  } -> tensor<12x1x1xi8>
  %e33 = tensor.empty() : tensor<12x1x1x1xi8>
  %v10 = linalg.broadcast ins(%v7 : tensor<12x1x1xi8>) outs(%e33 : tensor<12x1x1x1xi8>) dimensions = [3]
  %c35 = arith.constant 0 : i8
  %e36 = tensor.empty() : tensor<127xi8>
  %v11 = linalg.fill ins(%c35 : i8) outs(%e36 : tensor<127xi8>) -> tensor<127xi8>
  %c38 = arith.constant 1 : i8
  %e39 = tensor.empty() : tensor<2xi8>
  %v12 = linalg.fill ins(%c38 : i8) outs(%e39 : tensor<2xi8>) -> tensor<2xi8>
  %c41 = arith.constant 2 : i8
  %e42 = tensor.empty() : tensor<1xi8>
  %v13 = linalg.fill ins(%c41 : i8) outs(%e42 : tensor<1xi8>) -> tensor<1xi8>
  %e44 = tensor.empty() : tensor<12x1x1xi8>
  %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v8, %a2 : tensor<12x1x1xi8>, tensor<1xi8>) outs(%e44 : tensor<12x1x1xi8>) {
  ^bb0(%in0: i8, %in1: i8, %out: i8):
    %r = arith.muli %in0, %in1 : i8
    linalg.yield %r : i8
  } -> tensor<12x1x1xi8>
  %c50 = arith.constant 0 : i8
  %e51 = tensor.empty() : tensor<1xi8>
  %v16 = linalg.fill ins(%c50 : i8) outs(%e51 : tensor<1xi8>) -> tensor<1xi8>
  %v17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]} ins(%v8 : tensor<12x1x1xi8>) outs(%v16 : tensor<1xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.addi %in0, %out : i8
    linalg.yield %r : i8
  } -> tensor<1xi8>
  %e58 = tensor.empty() : tensor<1xi8>
  %v18 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v16 : tensor<1xi8>) outs(%e58 : tensor<1xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.addi %in0, %in0 : i8
    linalg.yield %r : i8
  } -> tensor<1xi8>
  %e64 = tensor.empty() : tensor<1xi8>
  %v20 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v16, %a3 : tensor<1xi8>, tensor<1xi8>) outs(%e64 : tensor<1xi8>) {
  ^bb0(%in0: i8, %in1: i8, %out: i8):
    %r = arith.addi %in0, %in1 : i8
    linalg.yield %r : i8
  } -> tensor<1xi8>
  %e70 = tensor.empty() : tensor<1x1xi8>
  %v21 = linalg.broadcast ins(%a3 : tensor<1xi8>) outs(%e70 : tensor<1x1xi8>) dimensions = [0]
  %e72 = tensor.empty() : tensor<1x1xi8>
  %v23 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v21, %a4 : tensor<1x1xi8>, tensor<1xi8>) outs(%e72 : tensor<1x1xi8>) {
  ^bb0(%in0: i8, %in1: i8, %out: i8):
    %r = arith.subi %in0, %in1 : i8
    linalg.yield %r : i8
  } -> tensor<1x1xi8>
  %e78 = tensor.empty() : tensor<1xi8>
  %v24 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a4 : tensor<1xi8>) outs(%e78 : tensor<1xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.addi %in0, %in0 : i8
    linalg.yield %r : i8
  } -> tensor<1xi8>
  %c84 = arith.constant 0 : i8
  %e85 = tensor.empty() : tensor<10xi8>
  %v25 = linalg.fill ins(%c84 : i8) outs(%e85 : tensor<10xi8>) -> tensor<10xi8>
  return %v2, %v5, %v9, %v10, %v11, %v12, %v13, %v15, %v17, %v18, %v20, %v23, %v24, %v25 : tensor<604xi8>, tensor<12x11x10xi8>, tensor<12x1x1xi8>, tensor<12x1x1x1xi8>, tensor<127xi8>, tensor<2xi8>, tensor<1xi8>, tensor<12x1x1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1x1xi8>, tensor<1xi8>, tensor<10xi8>
}
