// Found by benchmarks/fuzz.py: two equal fills merged by the normalization's CSE feed one reduction as its input and as its init; fused, the fill was computed twice per tile (once for the input's slice, once through the loop's shared output), 512 bytes in a 256-byte budget. A producer that an op reads both as an input and as its init is no longer fused.
// schedgen: --memory 256 --fuse-mode max-producers
func.func @fuzz(%a: tensor<16x1x16x32xi32>) -> tensor<16x1x16x4xi32> {
  %c0 = arith.constant 0 : i32
  %e0 = tensor.empty() : tensor<16x1x16x4xi32>
  %v0 = linalg.fill ins(%c0 : i32) outs(%e0 : tensor<16x1x16x4xi32>) -> tensor<16x1x16x4xi32>
  %c1 = arith.constant 0 : i32
  %e1 = tensor.empty() : tensor<16x1x16x4xi32>
  %v1 = linalg.fill ins(%c1 : i32) outs(%e1 : tensor<16x1x16x4xi32>) -> tensor<16x1x16x4xi32>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%v0 : tensor<16x1x16x4xi32>) outs(%v1 : tensor<16x1x16x4xi32>) {
  ^bb0(%in0: i32, %out: i32):
    %r = arith.addi %in0, %out : i32
    linalg.yield %r : i32
  } -> tensor<16x1x16x4xi32>
  return %v2 : tensor<16x1x16x4xi32>
}
