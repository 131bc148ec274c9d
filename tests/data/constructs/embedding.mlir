// An embedding lookup on i64 token ids with torch's bounds checks (cf.assert), then a scale.
#ids = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @embedding(%tokens: tensor<64xi64>, %table: tensor<100x128xf32>) -> tensor<64x128xf32> {
  %c100 = arith.constant 100 : index
  %c0 = arith.constant 0 : i64
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id], iterator_types = ["parallel", "parallel"]}
      ins(%tokens : tensor<64xi64>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%t: i64, %o: f32):
    %i = arith.index_cast %t : i64 to index
    %j = linalg.index 1 : index
    %lt = arith.cmpi slt, %i, %c100 : index
    cf.assert %lt, "index must be smaller than dim size"
    %ge = arith.cmpi sge, %t, %c0 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %v = tensor.extract %table[%i, %j] : tensor<100x128xf32>
    linalg.yield %v : f32
  } -> tensor<64x128xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %two : f32
    linalg.yield %y : f32
  } -> tensor<64x128xf32>
  return %s : tensor<64x128xf32>
}
