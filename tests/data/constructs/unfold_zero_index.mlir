// ConvBERT's unfold (nn.Unfold as torch-mlir lowers it): a position index
// 0 made by a generic into tensor<1xi64>, added to itself (one op reading it
// twice) and read by the gather, and by an op of another nest. A sum kept as
// size 1 and read back as a broadcast (a layer norm's) makes the schedule
// fold unit dims function-wide; the index is then rank 0: read whole, with
// no slice, so fusion took a clone of it per read (three in the gather's
// nest, where it may be computed once).
#z3 = affine_map<(d0, d1, d2) -> (0, 0, 0)>
#z2 = affine_map<(d0, d1, d2) -> (0, 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#b1 = affine_map<(d0) -> (0)>
func.func @unfold_zero_index(%x: tensor<64x40xf32>, %s: tensor<32xf32>) -> (tensor<64x9x32xf32>, tensor<32xf32>) {
  %c0 = arith.constant 0 : i64
  %e1 = tensor.empty() : tensor<1xi64>
  %zero = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e1 : tensor<1xi64>) {
  ^bb0(%o: i64):
    linalg.yield %c0 : i64
  } -> tensor<1xi64>
  %z2 = tensor.expand_shape %zero [[0, 1]] output_shape [1, 1] : tensor<1xi64> into tensor<1x1xi64>
  %e2 = tensor.empty() : tensor<1x1xi64>
  %sum = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z2, %z2 : tensor<1x1xi64>, tensor<1x1xi64>) outs(%e2 : tensor<1x1xi64>) {
  ^bb0(%a: i64, %b: i64, %o: i64):
    %t = arith.addi %a, %b : i64
    linalg.yield %t : i64
  } -> tensor<1x1xi64>
  %z3 = tensor.expand_shape %zero [[0, 1, 2]] output_shape [1, 1, 1] : tensor<1xi64> into tensor<1x1x1xi64>
  %e3 = tensor.empty() : tensor<64x9x32xf32>
  %g = linalg.generic {indexing_maps = [#z3, #z2, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%z3, %sum : tensor<1x1x1xi64>, tensor<1x1xi64>) outs(%e3 : tensor<64x9x32xf32>) {
  ^bb0(%a: i64, %b: i64, %o: f32):
    %c = linalg.index 0 : index
    %k = linalg.index 1 : index
    %w = linalg.index 2 : index
    %ab = arith.addi %a, %b : i64
    %off = arith.index_cast %ab : i64 to index
    %kw = arith.addi %k, %w : index
    %pos = arith.addi %kw, %off : index
    %v = tensor.extract %x[%c, %pos] : tensor<64x40xf32>
    linalg.yield %v : f32
  } -> tensor<64x9x32xf32>
  %cf = arith.constant 0.0 : f32
  %e5 = tensor.empty() : tensor<1xf32>
  %acc = linalg.fill ins(%cf : f32) outs(%e5 : tensor<1xf32>) -> tensor<1xf32>
  %total = linalg.generic {indexing_maps = [#id1, #b1], iterator_types = ["reduction"]}
      ins(%s : tensor<32xf32>) outs(%acc : tensor<1xf32>) {
  ^bb0(%b: f32, %o: f32):
    %y = arith.addf %o, %b : f32
    linalg.yield %y : f32
  } -> tensor<1xf32>
  %e4 = tensor.empty() : tensor<32xf32>
  %t = linalg.generic {indexing_maps = [#b1, #id1, #b1, #id1], iterator_types = ["parallel"]}
      ins(%zero, %s, %total : tensor<1xi64>, tensor<32xf32>, tensor<1xf32>) outs(%e4 : tensor<32xf32>) {
  ^bb0(%a: i64, %b: f32, %m: f32, %o: f32):
    %f = arith.sitofp %a : i64 to f32
    %y = arith.addf %b, %f : f32
    %z = arith.subf %y, %m : f32
    linalg.yield %z : f32
  } -> tensor<32xf32>
  return %g, %t : tensor<64x9x32xf32>, tensor<32xf32>
}
