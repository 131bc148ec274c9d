// Found by benchmarks/fuzz.py (cpu-host, seed 65): normalization's CSE merged two equal fills, one read by an elementwise op as its input, the other the init of the reduction (a unit reduced dim) that roots the nest; fused, the fill was computed twice per tile (once for the input's slice, once through the loop's shared output). A producer the nest reads both as an input and as an init, in one op or two, is no longer fused.
// schedgen: --target cpu-host --fuse-mode max-producers
func.func @fuzz(%a5: tensor<1x1x32xi8>) -> (tensor<1x1x32xi8>, tensor<1x1x32xi8>) {
  %c47 = arith.constant 0 : i8
  %e48 = tensor.empty() : tensor<1x1x32xi8>
  %v16 = linalg.fill ins(%c47 : i8) outs(%e48 : tensor<1x1x32xi8>) -> tensor<1x1x32xi8>
  %e50 = tensor.empty() : tensor<1x1x32xi8>
  %v18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v16, %a5 : tensor<1x1x32xi8>, tensor<1x1x32xi8>) outs(%e50 : tensor<1x1x32xi8>) {
  ^bb0(%in0: i8, %in1: i8, %out: i8):
    %r = arith.muli %in0, %in1 : i8
    linalg.yield %r : i8
  } -> tensor<1x1x32xi8>
  %c68 = arith.constant 0 : i8
  %e69 = tensor.empty() : tensor<1x1x32xi8>
  %v22 = linalg.fill ins(%c68 : i8) outs(%e69 : tensor<1x1x32xi8>) -> tensor<1x1x32xi8>
  %v23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%v18 : tensor<1x1x32xi8>) outs(%v22 : tensor<1x1x32xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.addi %in0, %out : i8
    linalg.yield %r : i8
  } -> tensor<1x1x32xi8>
  return %v22, %v23 : tensor<1x1x32xi8>, tensor<1x1x32xi8>
}
