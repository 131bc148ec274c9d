// Found by benchmarks/fuzz.py --target cpu-host (seed 123): the CPU lowering's strided-copy rewrite made a bf16 stride-2 convolution's im2col row a shuffle of 9 bf16 lanes, which x86's backend cannot legalize (LLVM ERROR: Do not know how to soft promote this operator's operand). Only f32 and f64 copies are rewritten now.
// schedgen: --target cpu-host --fuse-mode max-size
func.func @fuzz(%a0: tensor<1112x28xbf16>, %a1: tensor<18x28xbf16>, %a2: tensor<2x16x16x11xbf16>, %a3: tensor<9x16x2x3xbf16>) -> (tensor<1112x28xbf16>, tensor<1112x28xbf16>, tensor<28x18xbf16>, tensor<1130x28xbf16>, tensor<1112x1xbf16>, tensor<1112x1xbf16>, tensor<2x9x8x5xbf16>, tensor<2x9x8x5xbf16>, tensor<2x9x8x5xbf16>, tensor<8x16x12x15xbf16>, tensor<1112x28xbf16>) {
  %e0 = tensor.empty() : tensor<1112x28xbf16>
  %v1 = linalg.softmax dimension(0) ins(%a0 : tensor<1112x28xbf16>) outs(%e0 : tensor<1112x28xbf16>) -> tensor<1112x28xbf16>
  %e2 = tensor.empty() : tensor<1112x28x1xbf16>
  %v2 = linalg.broadcast ins(%v1 : tensor<1112x28xbf16>) outs(%e2 : tensor<1112x28x1xbf16>) dimensions = [2]
  %e4 = tensor.empty() : tensor<1112x28xbf16>
  %v3 = linalg.softmax dimension(1) ins(%v1 : tensor<1112x28xbf16>) outs(%e4 : tensor<1112x28xbf16>) -> tensor<1112x28xbf16>
  %v5 = tensor.concat dim(0) %v3, %a1 : (tensor<1112x28xbf16>, tensor<18x28xbf16>) -> tensor<1130x28xbf16>
  %c7 = arith.constant 0.0 : bf16
  %e8 = tensor.empty() : tensor<1112x28xbf16>
  %v6 = linalg.fill ins(%c7 : bf16) outs(%e8 : tensor<1112x28xbf16>) -> tensor<1112x28xbf16>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v2 : tensor<1112x28x1xbf16>) outs(%v6 : tensor<1112x28xbf16>) {
  ^bb0(%in0: bf16, %out: bf16):
    %r = arith.maximumf %in0, %out : bf16
    linalg.yield %r : bf16
  } -> tensor<1112x28xbf16>
  %e15 = tensor.empty() : tensor<28x18xbf16>
  %v8 = linalg.transpose ins(%a1 : tensor<18x28xbf16>) outs(%e15 : tensor<28x18xbf16>) permutation = [1, 0]
  %e17 = tensor.empty() : tensor<1130x28xbf16>
  %v9 = linalg.softmax dimension(1) ins(%v5 : tensor<1130x28xbf16>) outs(%e17 : tensor<1130x28xbf16>) -> tensor<1130x28xbf16>
  %c19 = arith.constant 0.0 : bf16
  %e20 = tensor.empty() : tensor<1112x1xbf16>
  %v10 = linalg.fill ins(%c19 : bf16) outs(%e20 : tensor<1112x1xbf16>) -> tensor<1112x1xbf16>
  %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%a0 : tensor<1112x28xbf16>) outs(%v10 : tensor<1112x1xbf16>) {
  ^bb0(%in0: bf16, %out: bf16):
    %r = arith.addf %in0, %out : bf16
    linalg.yield %r : bf16
  } -> tensor<1112x1xbf16>
  %c27 = arith.constant 0.0 : bf16
  %e28 = tensor.empty() : tensor<2x9x8x5xbf16>
  %v14 = linalg.fill ins(%c27 : bf16) outs(%e28 : tensor<2x9x8x5xbf16>) -> tensor<2x9x8x5xbf16>
  %v15 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%a2, %a3 : tensor<2x16x16x11xbf16>, tensor<9x16x2x3xbf16>) outs(%v14 : tensor<2x9x8x5xbf16>) -> tensor<2x9x8x5xbf16>
  %e31 = tensor.empty() : tensor<2x9x8x5xbf16>
  %e32 = tensor.empty() : tensor<2x9x8x5xbf16>
  %v16:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v15 : tensor<2x9x8x5xbf16>) outs(%e31, %e32 : tensor<2x9x8x5xbf16>, tensor<2x9x8x5xbf16>) {
  ^bb0(%in0: bf16, %out: bf16, %out1: bf16):
    %r = arith.addf %in0, %in0 : bf16
    %q = arith.maximumf %in0, %in0 : bf16
    linalg.yield %r, %q : bf16, bf16
  } -> (tensor<2x9x8x5xbf16>, tensor<2x9x8x5xbf16>)
  %c39 = arith.constant 2.0 : bf16
  %e40 = tensor.empty() : tensor<8x16x12x15xbf16>
  %v18 = linalg.fill ins(%c39 : bf16) outs(%e40 : tensor<8x16x12x15xbf16>) -> tensor<8x16x12x15xbf16>
  %e42 = tensor.empty() : tensor<1112x28xbf16>
  %v19 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v7 : tensor<1112x28xbf16>) outs(%e42 : tensor<1112x28xbf16>) {
  ^bb0(%in0: bf16, %out: bf16):
    %r = arith.subf %in0, %in0 : bf16
    linalg.yield %r : bf16
  } -> tensor<1112x28xbf16>
  return %v6, %v7, %v8, %v9, %v10, %v11, %v14, %v16#0, %v16#1, %v18, %v19 : tensor<1112x28xbf16>, tensor<1112x28xbf16>, tensor<28x18xbf16>, tensor<1130x28xbf16>, tensor<1112x1xbf16>, tensor<1112x1xbf16>, tensor<2x9x8x5xbf16>, tensor<2x9x8x5xbf16>, tensor<2x9x8x5xbf16>, tensor<8x16x12x15xbf16>, tensor<1112x28xbf16>
}
