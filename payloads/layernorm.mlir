// Layernorm over the last dim of 128x768 f32, with gamma and beta:
// mean -> sub -> square -> mean -> rsqrt(var + eps) -> mul -> affine.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @layernorm(%x: tensor<128x768xf32>, %gamma: tensor<768xf32>, %beta: tensor<768xf32>) -> tensor<128x768xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 768.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<128xf32>
  %e2 = tensor.empty() : tensor<128x768xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<128xf32>) -> tensor<128xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x768xf32>) outs(%acc0 : tensor<128xf32>) {
  ^bb0(%a: f32, %s: f32):
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %centered = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<128x768xf32>, tensor<128xf32>) outs(%e2 : tensor<128x768xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<128x768xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<128xf32>) -> tensor<128xf32>
  %sumsq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%centered : tensor<128x768xf32>) outs(%acc1 : tensor<128xf32>) {
  ^bb0(%a: f32, %s: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %sq, %s : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%centered, %sumsq, %gamma, %beta : tensor<128x768xf32>, tensor<128xf32>, tensor<768xf32>, tensor<768xf32>)
      outs(%e2 : tensor<128x768xf32>) {
  ^bb0(%c: f32, %ss: f32, %g: f32, %b: f32, %o: f32):
    %var = arith.divf %ss, %n : f32
    %ve = arith.addf %var, %eps : f32
    %inv = math.rsqrt %ve : f32
    %nrm = arith.mulf %c, %inv : f32
    %sc = arith.mulf %nrm, %g : f32
    %r = arith.addf %sc, %b : f32
    linalg.yield %r : f32
  } -> tensor<128x768xf32>
  return %out : tensor<128x768xf32>
}
