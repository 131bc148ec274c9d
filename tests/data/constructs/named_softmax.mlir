// linalg.softmax (named, an aggregate op): decomposed by the schedule, then tiled by rows.
func.func @named_softmax(%x: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
  %e = tensor.empty() : tensor<256x1024xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<256x1024xf32>) outs(%e : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  return %s : tensor<256x1024xf32>
}
