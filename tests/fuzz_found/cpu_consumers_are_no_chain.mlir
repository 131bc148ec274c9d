// Found by benchmarks/fuzz.py (cpu-host, seed 79): a producer-driven nest whose two consumers (fused by fuse_consumer) form an elementwise chain; fusing one into the other's register loop made xtc-opt abort (a cast to scf.forall) applying the schedule. Nest consumers now stay out of register-level chains.
// schedgen: --target cpu-host --fuse-mode max-producers
func.func @fuzz(%a0: tensor<997xi8>, %a1: tensor<1x32xi8>, %a2: tensor<32x2xi8>, %a3: tensor<1x2xi8>, %a4: tensor<1xi8>, %a5: tensor<2x1xi8>, %a6: tensor<1x1xi8>, %a7: tensor<1x2x1xi8>) -> (tensor<1x2xi8>, tensor<4096xi8>, tensor<1xi8>, tensor<1xi8>, tensor<128xi8>, tensor<2x2xi8>, tensor<1x32x1x32xi8>, tensor<2x1xi8>, tensor<2x1xi8>, tensor<1x2x1xi8>, tensor<1xi8>, tensor<1x1xi8>, tensor<1x1x2xi8>, tensor<4xi8>) {
  %c0 = arith.constant 0 : i8
  %e1 = tensor.empty() : tensor<1x2xi8>
  %v3 = linalg.fill ins(%c0 : i8) outs(%e1 : tensor<1x2xi8>) -> tensor<1x2xi8>
  %v4 = linalg.matmul ins(%a1, %a2 : tensor<1x32xi8>, tensor<32x2xi8>) outs(%v3 : tensor<1x2xi8>) -> tensor<1x2xi8>
  %c4 = arith.constant 0 : i8
  %e5 = tensor.empty() : tensor<4096xi8>
  %v5 = linalg.fill ins(%c4 : i8) outs(%e5 : tensor<4096xi8>) -> tensor<4096xi8>
  %v7 = tensor.concat dim(0) %v4, %a3 : (tensor<1x2xi8>, tensor<1x2xi8>) -> tensor<2x2xi8>
  %c8 = arith.constant 0 : i8
  %e9 = tensor.empty() : tensor<1xi8>
  %v8 = linalg.fill ins(%c8 : i8) outs(%e9 : tensor<1xi8>) -> tensor<1xi8>
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v4 : tensor<1x2xi8>) outs(%v8 : tensor<1xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.addi %in0, %out : i8
    linalg.yield %r : i8
  } -> tensor<1xi8>
  %c16 = arith.constant 0 : i8
  %e17 = tensor.empty() : tensor<128xi8>
  %v10 = linalg.fill ins(%c16 : i8) outs(%e17 : tensor<128xi8>) -> tensor<128xi8>
  %e19 = tensor.empty() : tensor<1x2xi8>
  %v12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a3, %a4 : tensor<1x2xi8>, tensor<1xi8>) outs(%e19 : tensor<1x2xi8>) {
  ^bb0(%in0: i8, %in1: i8, %out: i8):
    %r = arith.maxsi %in0, %in1 : i8
    linalg.yield %r : i8
  } -> tensor<1x2xi8>
  %e25 = tensor.empty() : tensor<2x1xi8>
  %v13 = linalg.transpose ins(%v12 : tensor<1x2xi8>) outs(%e25 : tensor<2x1xi8>) permutation = [1, 0]
  %e27 = tensor.empty() : tensor<2x1xi8>
  %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v13, %a5 : tensor<2x1xi8>, tensor<2x1xi8>) outs(%e27 : tensor<2x1xi8>) {
  ^bb0(%in0: i8, %in1: i8, %out: i8):
    %r = arith.maxsi %in0, %in1 : i8
    linalg.yield %r : i8
  } -> tensor<2x1xi8>
  %e33 = tensor.empty() : tensor<2x1xi8>
  %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v15 : tensor<2x1xi8>) outs(%e33 : tensor<2x1xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.muli %in0, %in0 : i8
    linalg.yield %r : i8
  } -> tensor<2x1xi8>
  %e39 = tensor.empty() : tensor<2x2xi8>
  %v17 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v7 : tensor<2x2xi8>) outs(%e39 : tensor<2x2xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.addi %in0, %in0 : i8
    linalg.yield %r : i8
  } -> tensor<2x2xi8>
  %c45 = arith.constant 0 : i8
  %e46 = tensor.empty() : tensor<1x32x1x32xi8>
  %v18 = linalg.fill ins(%c45 : i8) outs(%e46 : tensor<1x32x1x32xi8>) -> tensor<1x32x1x32xi8>
  %e48 = tensor.empty() : tensor<1x2x1xi8>
  %v19 = linalg.broadcast ins(%v16 : tensor<2x1xi8>) outs(%e48 : tensor<1x2x1xi8>) dimensions = [0]
  %c50 = arith.constant 0 : i8
  %e51 = tensor.empty() : tensor<2x1xi8>
  %v21 = linalg.fill ins(%c50 : i8) outs(%e51 : tensor<2x1xi8>) -> tensor<2x1xi8>
  %v22 = linalg.matmul ins(%v15, %a6 : tensor<2x1xi8>, tensor<1x1xi8>) outs(%v21 : tensor<2x1xi8>) -> tensor<2x1xi8>
  %e54 = tensor.empty() : tensor<1x2x1xi8>
  %v24 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v19, %a7 : tensor<1x2x1xi8>, tensor<1x2x1xi8>) outs(%e54 : tensor<1x2x1xi8>) {
  ^bb0(%in0: i8, %in1: i8, %out: i8):
    %r = arith.addi %in0, %in1 : i8
    linalg.yield %r : i8
  } -> tensor<1x2x1xi8>
  %c60 = arith.constant 0 : i8
  %e61 = tensor.empty() : tensor<2xi8>
  %v25 = linalg.fill ins(%c60 : i8) outs(%e61 : tensor<2xi8>) -> tensor<2xi8>
  %c63 = arith.constant 0 : i8
  %e64 = tensor.empty() : tensor<1xi8>
  %v26 = linalg.fill ins(%c63 : i8) outs(%e64 : tensor<1xi8>) -> tensor<1xi8>
  %e66 = tensor.empty() : tensor<1x1xi8>
  %v27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a6 : tensor<1x1xi8>) outs(%e66 : tensor<1x1xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.addi %in0, %in0 : i8
    linalg.yield %r : i8
  } -> tensor<1x1xi8>
  %e72 = tensor.empty() : tensor<1x2xi8>
  %v28 = linalg.broadcast ins(%v25 : tensor<2xi8>) outs(%e72 : tensor<1x2xi8>) dimensions = [0]
  %e74 = tensor.empty() : tensor<1x1x2xi8>
  %v29 = linalg.broadcast ins(%v28 : tensor<1x2xi8>) outs(%e74 : tensor<1x1x2xi8>) dimensions = [0]
  %c76 = arith.constant 2 : i8
  %e77 = tensor.empty() : tensor<4xi8>
  %v30 = linalg.fill ins(%c76 : i8) outs(%e77 : tensor<4xi8>) -> tensor<4xi8>
  return %v3, %v5, %v8, %v9, %v10, %v17, %v18, %v21, %v22, %v24, %v26, %v27, %v29, %v30 : tensor<1x2xi8>, tensor<4096xi8>, tensor<1xi8>, tensor<1xi8>, tensor<128xi8>, tensor<2x2xi8>, tensor<1x32x1x32xi8>, tensor<2x1xi8>, tensor<2x1xi8>, tensor<1x2x1xi8>, tensor<1xi8>, tensor<1x1xi8>, tensor<1x1x2xi8>, tensor<4xi8>
}
