// Row softmax of 512x1024 f32: max-reduce, sub + exp, sum-reduce, div.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<512xf32>
  %e2 = tensor.empty() : tensor<512x1024xf32>
  %max_init = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<512xf32>) -> tensor<512xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<512x1024xf32>) outs(%max_init : tensor<512xf32>) {
  ^bb0(%a: f32, %m: f32):
    %r = arith.maximumf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<512xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<512x1024xf32>, tensor<512xf32>) outs(%e2 : tensor<512x1024xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<512x1024xf32>
  %sum_init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<512xf32>) -> tensor<512xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<512x1024xf32>) outs(%sum_init : tensor<512xf32>) {
  ^bb0(%a: f32, %s: f32):
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<512xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<512x1024xf32>, tensor<512xf32>) outs(%e2 : tensor<512x1024xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<512x1024xf32>
  return %out : tensor<512x1024xf32>
}
