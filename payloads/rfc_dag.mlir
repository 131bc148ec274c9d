// The consumer-fusion RFC DAG: matmul 16x10 . 10x10 -> abs -> add(abs, matmul).
// abs and add are both returned, so abs (and the matmul feeding add) has
// users outside any loop built around add.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rfc_dag(%a: tensor<16x10xf32>, %b: tensor<10x10xf32>) -> (tensor<16x10xf32>, tensor<16x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x10xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x10xf32>) -> tensor<16x10xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x10xf32>, tensor<10x10xf32>)
                      outs(%init : tensor<16x10xf32>) -> tensor<16x10xf32>
  %abs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<16x10xf32>) outs(%empty : tensor<16x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.absf %x : f32
    linalg.yield %r : f32
  } -> tensor<16x10xf32>
  %add = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%abs, %mm : tensor<16x10xf32>, tensor<16x10xf32>) outs(%empty : tensor<16x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<16x10xf32>
  return %abs, %add : tensor<16x10xf32>, tensor<16x10xf32>
}
