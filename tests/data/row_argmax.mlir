// torch.max(x, dim=-1): the row max and its index, one two-result reduction
// whose index is combined by a select (no reduction MLIR's vectorizer knows).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_argmax(%x: tensor<37x53xf32>) -> (tensor<37xf32>, tensor<37xi64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<37xf32>
  %ei = tensor.empty() : tensor<37xi64>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<37xf32>) -> tensor<37xf32>
  %i0 = linalg.fill ins(%c0 : i64) outs(%ei : tensor<37xi64>) -> tensor<37xi64>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<37x53xf32>) outs(%m0, %i0 : tensor<37xf32>, tensor<37xi64>) {
  ^bb0(%in: f32, %m: f32, %i: i64):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i64
    %max = arith.maximumf %in, %m : f32
    %gt = arith.cmpf ogt, %in, %m : f32
    %idx = arith.select %gt, %ki, %i : i64
    linalg.yield %max, %idx : f32, i64
  } -> (tensor<37xf32>, tensor<37xi64>)
  return %r#0, %r#1 : tensor<37xf32>, tensor<37xi64>
}
