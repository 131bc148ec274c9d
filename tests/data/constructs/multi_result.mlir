// torch's max over a row: one generic with two results (the value and its i64 index), then x - max.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @multi_result(%x: tensor<128x1024xf32>) -> (tensor<128x1024xf32>, tensor<128xi64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<128xf32>
  %ei = tensor.empty() : tensor<128xi64>
  %fm = linalg.fill ins(%ninf : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<128xi64>) -> tensor<128xi64>
  %m:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x1024xf32>) outs(%fm, %fi : tensor<128xf32>, tensor<128xi64>) {
  ^bb0(%in: f32, %best: f32, %arg: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %in, %best : f32
    %v = arith.select %gt, %in, %best : f32
    %k = arith.select %gt, %ji, %arg : i64
    linalg.yield %v, %k : f32, i64
  } -> (tensor<128xf32>, tensor<128xi64>)
  %e2 = tensor.empty() : tensor<128x1024xf32>
  %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m#0 : tensor<128x1024xf32>, tensor<128xf32>) outs(%e2 : tensor<128x1024xf32>) {
  ^bb0(%in: f32, %mx: f32, %o: f32):
    %s = arith.subf %in, %mx : f32
    linalg.yield %s : f32
  } -> tensor<128x1024xf32>
  return %d, %m#1 : tensor<128x1024xf32>, tensor<128xi64>
}
