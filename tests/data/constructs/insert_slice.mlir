// An elementwise result written into a slice of a bigger tensor, which the next op reads whole.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @insert_slice(%x: tensor<256x512xf32>, %big: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %e = tensor.empty() : tensor<256x512xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x512xf32>) outs(%e : tensor<256x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %t = arith.mulf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<256x512xf32>
  %i = tensor.insert_slice %g into %big[128, 0] [256, 512] [1, 1] : tensor<256x512xf32> into tensor<512x512xf32>
  %e2 = tensor.empty() : tensor<512x512xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%i : tensor<512x512xf32>) outs(%e2 : tensor<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<512x512xf32>
  return %a : tensor<512x512xf32>
}
