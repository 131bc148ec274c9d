"""The f32 exp polynomial the CPU lowering uses instead of per-element expf
calls: accurate to a few ulps, on scalars and vectors, applied to every f32
math.exp and to nothing else."""

from __future__ import annotations

import numpy as np

from schedgen.run.execute import run_function
from schedgen.run.math_approx import approximate_exp

_EXP_1D = """
#id = affine_map<(d0) -> (d0)>
func.func @e(%x: tensor<4096xf32>) -> tensor<4096xf32> {
  %e = tensor.empty() : tensor<4096xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4096xf32>) outs(%e : tensor<4096xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.exp %a : f32
    linalg.yield %y : f32
  } -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}
"""


def test_exp_polynomial_is_accurate_over_the_f32_range() -> None:
    x = np.concatenate([np.linspace(-87.0, 88.0, 4000), [0.0, 1.0, -1.0, 1e-8, -1e-8] + [0.5] * 91])
    x = x.astype(np.float32)
    (got,) = run_function(_EXP_1D, "e", [x])
    want = np.exp(x.astype(np.float64))
    rel = np.abs(got.astype(np.float64) - want) / want
    assert rel.max() < 4e-7, (rel.max(), x[rel.argmax()])
    assert got[4000] == 1.0  # exp(0) exactly


def test_exp_below_the_range_is_tiny_and_finite() -> None:
    x = np.full(4096, -1000.0, dtype=np.float32)
    (got,) = run_function(_EXP_1D, "e", [x])
    assert np.all(np.isfinite(got)) and np.all(got >= 0) and got.max() < 1e-37


def test_only_f32_exp_is_rewritten_on_scalars_and_vectors() -> None:
    from mlir import ir

    text = """
func.func @f(%a: f32, %v: vector<4x16xf32>, %d: f64) -> (f32, vector<4x16xf32>, f64, f32) {
  %0 = math.exp %a : f32
  %1 = math.exp %v : vector<4x16xf32>
  %2 = math.exp %d : f64
  %3 = math.sqrt %a : f32
  return %0, %1, %2, %3 : f32, vector<4x16xf32>, f64, f32
}
"""
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        assert approximate_exp(module) == 2
        module.operation.verify()
        printed = str(module)
    assert printed.count("math.exp") == 1 and "math.exp %arg2 : f64" in printed
    assert "math.sqrt" in printed and "math.floor" in printed and "vector<4x16xi32>" in printed
