// Found by benchmarks/fuzz.py (memory, seed 46, examples 735-737): normalization was not idempotent. CSE merged the two transposes of the broadcast after canonicalization had run, so a second run (check and verify apply the schedule to the normalized copy) swapped the transpose and the broadcast, and the schedule's match found no broadcast. Canonicalization and CSE now run interleaved until neither changes anything.
// schedgen: --memory 256 --fuse-mode max-producers
func.func @fuzz(%a0: tensor<7x64x32xi32>) -> (tensor<1x64x32xi32>, tensor<1x64x32xi32>, tensor<32x1x7x64xi32>, tensor<32x1x7x64xi32>) {
  %c0 = arith.constant 0 : i32
  %e1 = tensor.empty() : tensor<1x64x32xi32>
  %v1 = linalg.fill ins(%c0 : i32) outs(%e1 : tensor<1x64x32xi32>) -> tensor<1x64x32xi32>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%a0 : tensor<7x64x32xi32>) outs(%v1 : tensor<1x64x32xi32>) {
  ^bb0(%in0: i32, %out: i32):
    %r = arith.addi %in0, %out : i32
    linalg.yield %r : i32
  } -> tensor<1x64x32xi32>
  %e8 = tensor.empty() : tensor<7x64x32x1xi32>
  %v3 = linalg.broadcast ins(%a0 : tensor<7x64x32xi32>) outs(%e8 : tensor<7x64x32x1xi32>) dimensions = [3]
  %e10 = tensor.empty() : tensor<32x1x7x64xi32>
  %v4 = linalg.transpose ins(%v3 : tensor<7x64x32x1xi32>) outs(%e10 : tensor<32x1x7x64xi32>) permutation = [2, 3, 0, 1]
  %e12 = tensor.empty() : tensor<32x1x7x64xi32>
  %v5 = linalg.transpose ins(%v3 : tensor<7x64x32x1xi32>) outs(%e12 : tensor<32x1x7x64xi32>) permutation = [2, 3, 0, 1]
  return %v1, %v2, %v4, %v5 : tensor<1x64x32xi32>, tensor<1x64x32xi32>, tensor<32x1x7x64xi32>, tensor<32x1x7x64xi32>
}
