// Attention, one head: Q, K, V 256x128 f32. S = Q K^T * 1/sqrt(128),
// P = softmax(S) by rows, O = P V.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @attention(%q: tensor<256x128xf32>, %k: tensor<256x128xf32>, %v: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.0883883461 : f32
  %es = tensor.empty() : tensor<256x256xf32>
  %er = tensor.empty() : tensor<256xf32>
  %eo = tensor.empty() : tensor<256x128xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%es : tensor<256x256xf32>) -> tensor<256x256xf32>
  %qk = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                                       affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<256x128xf32>, tensor<256x128xf32>) outs(%s0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%qk : tensor<256x256xf32>) outs(%es : tensor<256x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %scale : f32
    linalg.yield %m : f32
  } -> tensor<256x256xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<256xf32>) -> tensor<256xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<256x256xf32>) outs(%m0 : tensor<256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<256xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %mx : tensor<256x256xf32>, tensor<256xf32>) outs(%es : tensor<256x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<256x256xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%er : tensor<256xf32>) -> tensor<256xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<256x256xf32>) outs(%z0 : tensor<256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.addf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<256xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<256x256xf32>, tensor<256xf32>) outs(%es : tensor<256x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<256x256xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<256x128xf32>) -> tensor<256x128xf32>
  %o = linalg.matmul ins(%p, %v : tensor<256x256xf32>, tensor<256x128xf32>) outs(%o0 : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %o : tensor<256x128xf32>
}
