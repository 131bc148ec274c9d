"""The f32 exp, erf and tanh polynomials the CPU lowering uses instead of
per-element libm calls: accurate to a few ulps, on scalars and vectors,
applied to every f32 math.exp, math.erf and math.tanh and to nothing else."""

from __future__ import annotations

import math

import numpy as np
import pytest

from schedgen.run.execute import run_function
from schedgen.run.math_approx import approximate_math

_UNARY_1D = """
#id = affine_map<(d0) -> (d0)>
func.func @e(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{
  %e = tensor.empty() : tensor<{n}xf32>
  %r = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel"]}}
      ins(%x : tensor<{n}xf32>) outs(%e : tensor<{n}xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %y = math.{op} %a : f32
    linalg.yield %y : f32
  }} -> tensor<{n}xf32>
  return %r : tensor<{n}xf32>
}}
"""
_EXP_1D = _UNARY_1D.format(n=4096, op="exp")


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
        assert approximate_math(module) == 2
        module.operation.verify()
        printed = str(module)
    assert printed.count("math.exp") == 1 and "math.exp %arg2 : f64" in printed
    assert "math.sqrt" in printed and "math.floor" in printed and "vector<4x16xi32>" in printed
    # The polynomial and the range reduction are fused multiply-adds (LLVM contracts no mulf + addf
    # without a fastmath flag): per rewritten exp, 5 Horner steps, 3 in the range reduction, 1 to finish.
    assert printed.count("math.fma") == 2 * 9, printed.count("math.fma")


def _sweep() -> np.ndarray:
    """Both signs, from the tiny to past the clamps, and the special points."""
    mags = np.concatenate([np.logspace(-9, 1.2, 3000), np.linspace(0, 12, 3000), [0.0004, 3.999, 4.0, 7.905, 7.906]])
    return np.concatenate([mags, -mags, [0.0]]).astype(np.float32)


@pytest.mark.parametrize("op, exact", [("erf", np.vectorize(math.erf)), ("tanh", np.tanh)])
def test_erf_and_tanh_rationals_are_accurate_on_both_signs(op: str, exact: object) -> None:
    x = _sweep()
    (got,) = run_function(_UNARY_1D.format(n=x.size, op=op), "e", [x])
    want = exact(x.astype(np.float64))
    nonzero = want != 0
    rel = np.abs(got.astype(np.float64) - want)[nonzero] / np.abs(want[nonzero])
    assert rel.max() < 6e-7, (op, rel.max(), x[nonzero][rel.argmax()])
    assert got[-1] == 0.0 and np.all(np.abs(got) <= 1.0)
    assert np.all(np.sign(got) == np.sign(x))  # odd, no sign flip near 0 or at the clamp


def test_erf_and_tanh_vectors_leave_no_libm_call() -> None:
    from mlir import ir

    text = """
func.func @f(%v: vector<8x16xf32>, %d: f64) -> (vector<8x16xf32>, vector<8x16xf32>, f64) {
  %0 = math.erf %v : vector<8x16xf32>
  %1 = math.tanh %v : vector<8x16xf32>
  %2 = math.erf %d : f64
  return %0, %1, %2 : vector<8x16xf32>, vector<8x16xf32>, f64
}
"""
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        assert approximate_math(module) == 2
        module.operation.verify()
        printed = str(module)
    assert "math.tanh" not in printed and printed.count("math.erf") == 1 and "math.erf %arg1 : f64" in printed
    assert "arith.divf" in printed and "vector<8x16xi1>" in printed
    # Horner steps in fused multiply-adds: erf's 7 and 5 coefficients (6 + 4), tanh's 7 and 4 (6 + 3).
    assert printed.count("math.fma") == 19, printed.count("math.fma")
