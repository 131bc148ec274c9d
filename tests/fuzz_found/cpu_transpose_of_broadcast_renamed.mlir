// Found by benchmarks/fuzz.py --target cpu-host (seed 52, example 898, 30 ops reduced to these two): the schedule's canonicalization after consumer fusion swapped the tiled transpose of a broadcast into a broadcast of a new, unnamed transpose of the whole input; it missed its register tiles, was vectorized whole (vector<31872xi8> shuffles) and LLVM compiled it for over 10 minutes. The tiling stage no longer canonicalizes (templates/schedule.mlir.j2).
// schedgen: --target cpu-host --fuse-mode max-producers
func.func @f(%a: tensor<249x128xi8>) -> tensor<128x1x249xi8> {
  %e0 = tensor.empty() : tensor<1x249x128xi8>
  %b = linalg.broadcast ins(%a : tensor<249x128xi8>) outs(%e0 : tensor<1x249x128xi8>) dimensions = [0]
  %e1 = tensor.empty() : tensor<128x1x249xi8>
  %t = linalg.transpose ins(%b : tensor<1x249x128xi8>) outs(%e1 : tensor<128x1x249xi8>) permutation = [2, 0, 1]
  return %t : tensor<128x1x249xi8>
}
