// BoTNet's relative-position logits (timm botnet26t_256, as torch-mlir exports it, at 2x8x8x8x8): logits along
// one image axis broadcast over the other, transposed into place and added to the other axis's, all three
// written into one tensor.empty (torch-mlir shares one per shape). fuse_into_containing_op makes a fused producer
// whose init is the loop's own write its tile into the loop's output: the broadcast's tiles are the transposed
// ones, which other iterations overwrite. The broadcast is not fused (the transpose, at the add's tiles, is).
#in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#id = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @shared_dest_transpose(%h: tensor<2x8x8x8xf32>, %w: tensor<2x8x8x8x8xf32>) -> tensor<2x8x8x8x8xf32> {
  %e = tensor.empty() : tensor<2x8x8x8x8xf32>
  %b = linalg.generic {indexing_maps = [#in, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%h : tensor<2x8x8x8xf32>) outs(%e : tensor<2x8x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x8x8x8x8xf32>
  %t = linalg.transpose ins(%b : tensor<2x8x8x8x8xf32>) outs(%e : tensor<2x8x8x8x8xf32>) permutation = [0, 3, 1, 4, 2]
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%t, %w : tensor<2x8x8x8x8xf32>, tensor<2x8x8x8x8xf32>) outs(%e : tensor<2x8x8x8x8xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %0 = arith.addf %a, %c : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8x8x8xf32>
  return %sum : tensor<2x8x8x8x8xf32>
}
