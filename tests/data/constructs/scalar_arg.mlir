// Scalar arguments (a quantized conv's zero points, a scale): f32 and i32 beside the tensors.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scalar_arg(%x: tensor<256x512xf32>, %scale: f32, %zp: i32) -> tensor<256x512xf32> {
  %e = tensor.empty() : tensor<256x512xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x512xf32>) outs(%e : tensor<256x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %z = arith.sitofp %zp : i32 to f32
    %d = arith.subf %in, %z : f32
    %y = arith.mulf %d, %scale : f32
    linalg.yield %y : f32
  } -> tensor<256x512xf32>
  return %g : tensor<256x512xf32>
}
