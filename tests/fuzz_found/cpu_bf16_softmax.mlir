// Found by benchmarks/fuzz.py --target cpu-host: a vectorized bf16 softmax made bf16 vector reductions, exp and arithmetic, which LLVM's x86 backend aborts on ("Do not know how to soft promote this operator's operand"). The lowering now computes bf16 reductions and math in f32 and emulates bf16 vector arithmetic (run/lower.py).
// schedgen: --target cpu-host --fuse-mode max-size
func.func @fuzz(%a: tensor<33xbf16>) -> tensor<33xbf16> {
  %e = tensor.empty() : tensor<33xbf16>
  %v = linalg.softmax dimension(0) ins(%a : tensor<33xbf16>) outs(%e : tensor<33xbf16>) -> tensor<33xbf16>
  return %v : tensor<33xbf16>
}
