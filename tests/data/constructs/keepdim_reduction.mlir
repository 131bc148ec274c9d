// A row sum that keeps its reduced dim as size 1 (torch's keepdim: result map (d0, d1, 0)), then x - mean.
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @keepdim_reduction(%x: tensor<4x256x512xf32>) -> tensor<4x256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 512.0 : f32
  %e1 = tensor.empty() : tensor<4x256x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x256x1xf32>) -> tensor<4x256x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<4x256x512xf32>) outs(%f : tensor<4x256x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4x256x1xf32>
  %e2 = tensor.empty() : tensor<4x256x512xf32>
  %c = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sum : tensor<4x256x512xf32>, tensor<4x256x1xf32>) outs(%e2 : tensor<4x256x512xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<4x256x512xf32>
  return %c : tensor<4x256x512xf32>
}
