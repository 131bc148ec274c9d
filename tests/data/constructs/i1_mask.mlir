// An i1 mask (attention's causal mask) built from indices, then used in a select.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @i1_mask(%x: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %ninf = arith.constant -1.0e+30 : f32
  %em = tensor.empty() : tensor<128x128xi1>
  %mask = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%em : tensor<128x128xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %le = arith.cmpi ule, %j, %i : index
    linalg.yield %le : i1
  } -> tensor<128x128xi1>
  %e = tensor.empty() : tensor<128x128xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mask : tensor<128x128xf32>, tensor<128x128xi1>) outs(%e : tensor<128x128xf32>) {
  ^bb0(%in: f32, %m: i1, %o: f32):
    %s = arith.select %m, %in, %ninf : f32
    linalg.yield %s : f32
  } -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
