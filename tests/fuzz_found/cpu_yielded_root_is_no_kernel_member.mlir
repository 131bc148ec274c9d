// Found by benchmarks/fuzz.py (cpu-host, seed 82): a producer-driven nest whose root (a convolution writing into a fill the function also returns) stays yielded by the forall; fusing it, or its first consumer, into the other consumer's register loop (an scf.for) made fuse_into_containing_op abort xtc-opt (cast to scf.forall).
// schedgen: --target cpu-host --fuse-mode max-producers
func.func @fuzz(%a2: tensor<62x49x10xf32>, %a5: tensor<2x1x49x1xf32>, %a6: tensor<1x61x10x1xf32>) -> (tensor<1x61x10x1xf32>, tensor<1x61x10x1xf32>) {
  %e1 = tensor.empty() : tensor<62x10x49xf32>
  %v4 = linalg.transpose ins(%a2 : tensor<62x49x10xf32>) outs(%e1 : tensor<62x10x49xf32>) permutation = [0, 2, 1]
  %e3 = tensor.empty() : tensor<1x62x10x49xf32>
  %v5 = linalg.broadcast ins(%v4 : tensor<62x10x49xf32>) outs(%e3 : tensor<1x62x10x49xf32>) dimensions = [0]
  %c9 = arith.constant 1.5 : f32
  %e10 = tensor.empty() : tensor<1x61x10x1xf32>
  %v11 = linalg.fill ins(%c9 : f32) outs(%e10 : tensor<1x61x10x1xf32>) -> tensor<1x61x10x1xf32>
  %v12 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%v5, %a5 : tensor<1x62x10x49xf32>, tensor<2x1x49x1xf32>) outs(%v11 : tensor<1x61x10x1xf32>) -> tensor<1x61x10x1xf32>
  %e22 = tensor.empty() : tensor<1x61x10x1xf32>
  %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v12, %a6 : tensor<1x61x10x1xf32>, tensor<1x61x10x1xf32>) outs(%e22 : tensor<1x61x10x1xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.subf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<1x61x10x1xf32>
  %e28 = tensor.empty() : tensor<1x61x10x1xf32>
  %v17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v16 : tensor<1x61x10x1xf32>) outs(%e28 : tensor<1x61x10x1xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = arith.mulf %in0, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<1x61x10x1xf32>
  return %v11, %v17 : tensor<1x61x10x1xf32>, tensor<1x61x10x1xf32>
}
