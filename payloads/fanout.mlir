// A -> B and A -> C, both returned: A (exp of a 512x512 input) has two
// consumers, so it cannot be fused into either without computing it twice.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @fanout(%x: tensor<512x512xf32>) -> (tensor<512x512xf32>, tensor<512x512xf32>) {
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<512x512xf32>) outs(%e : tensor<512x512xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<512x512xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<512x512xf32>) outs(%e : tensor<512x512xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %two : f32
    linalg.yield %r : f32
  } -> tensor<512x512xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<512x512xf32>) outs(%e : tensor<512x512xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %two : f32
    linalg.yield %r : f32
  } -> tensor<512x512xf32>
  return %b, %c : tensor<512x512xf32>, tensor<512x512xf32>
}
