// Found by benchmarks/fuzz.py --target cpu-host --footprint precise (seed 59, examples 40 and 120-123, 23-24 ops reduced to these two): the consumer anchoring a register kernel computes min(x, x), a copy once folded; the panel loop's canonicalization erased it, the kernel's handles then named the convolution twice, and the planned schedule did not apply ("uses a handle invalidated"). The panel loop now only folds (templates/schedule.mlir.j2).
// schedgen: --target cpu-host --fuse-mode no-fuse
func.func @f(%x: tensor<7x8x12x8xi32>, %w: tensor<2x1x8x56xi32>) -> tensor<7x4x6x56xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<7x4x6x56xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<7x4x6x56xi32>) -> tensor<7x4x6x56xi32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<7x8x12x8xi32>, tensor<2x1x8x56xi32>) outs(%z : tensor<7x4x6x56xi32>) -> tensor<7x4x6x56xi32>
  %e2 = tensor.empty() : tensor<7x4x6x56xi32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<7x4x6x56xi32>) outs(%e2 : tensor<7x4x6x56xi32>) {
  ^bb0(%in: i32, %out: i32):
    %r = arith.minsi %in, %in : i32
    linalg.yield %r : i32
  } -> tensor<7x4x6x56xi32>
  return %m : tensor<7x4x6x56xi32>
}
