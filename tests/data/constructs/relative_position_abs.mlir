// T5's relative-position buckets: |j - i| of two token positions (i64), the
// log-spaced bucket it falls in, and a bias added to attention scores.
// Vectorized, |x| is a math.absi of a register tile of rows, which MathToLLVM
// does not lower (schedgen.run.int_abs).
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relative_position_abs(%scores: tensor<16x32xf32>, %bias: tensor<8xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xi64>
  %dist = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<16x32xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %x = arith.subi %jj, %ii : i64
    %a = math.absi %x : i64
    linalg.yield %a : i64
  } -> tensor<16x32xi64>
  %ef = tensor.empty() : tensor<16x32xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%scores, %dist : tensor<16x32xf32>, tensor<16x32xi64>) outs(%ef : tensor<16x32xf32>) {
  ^bb0(%s: f32, %d: i64, %o: f32):
    %c7 = arith.constant 7 : i64
    %b = arith.minsi %d, %c7 : i64
    %k = arith.index_cast %b : i64 to index
    %v = tensor.extract %bias[%k] : tensor<8xf32>
    %y = arith.addf %s, %v : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  return %out : tensor<16x32xf32>
}
