// Matmul 1024x1024x1024 f32 (fill init), then bias add + relu in one generic.
#map_bias = affine_map<(d0, d1) -> (d1)>
#map_id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_bias_relu(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>,
                            %bias: tensor<1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1024x1024xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                      outs(%init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %out = linalg.generic {