// ViT's cls token: a learned row concatenated before the patch tokens, between two tileable ops.
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @concat(%cls: tensor<1x1x192xf32>, %x: tensor<1x196x192xf32>, %pos: tensor<1x197x192xf32>) -> tensor<1x197x192xf32> {
  %e = tensor.empty() : tensor<1x196x192xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x196x192xf32>) outs(%e : tensor<1x196x192xf32>) {
  ^bb0(%in: f32, %o: f32):
    %t = arith.mulf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<1x196x192xf32>
  %c = tensor.concat dim(1) %cls, %g : (tensor<1x1x192xf32>, tensor<1x196x192xf32>) -> tensor<1x197x192xf32>
  %e2 = tensor.empty() : tensor<1x197x192xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %pos : tensor<1x197x192xf32>, tensor<1x197x192xf32>) outs(%e2 : tensor<1x197x192xf32>) {
  ^bb0(%in: f32, %p: f32, %o: f32):
    %s = arith.addf %in, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x197x192xf32>
  return %a : tensor<1x197x192xf32>
}
