// Exact GELU (BERT, ViT): x * 0.5 * (1 + erf(x / sqrt(2))), after a matmul.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @erf_gelu(%a: tensor<128x256xf32>, %b: tensor<256x512xf32>) -> tensor<128x512xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rs2 = arith.constant 0.707106769 : f32
  %e = tensor.empty() : tensor<128x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x512xf32>) -> tensor<128x512xf32>
  %m = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x512xf32>) outs(%f : tensor<128x512xf32>) -> tensor<128x512xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<128x512xf32>) outs(%e : tensor<128x512xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %rs2 : f32
    %r = math.erf %s : f32
    %p = arith.addf %r, %one : f32
    %h = arith.mulf %x, %half : f32
    %y = arith.mulf %h, %p : f32
    linalg.yield %y : f32
  } -> tensor<128x512xf32>
  return %g : tensor<128x512xf32>
}
