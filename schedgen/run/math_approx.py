"""f32 `math.exp`, `math.erf` and `math.tanh` as polynomials, for executing
payloads on the CPU.

LLVM turns these ops on a vector into one libm call per element (the JIT has
no vector math library), which made softmax 4x slower than without the
exponential, and exact GELU's erf took 60% of a ViT MLP. MLIR's own polynomial approximations are only reachable from a
test pass, and the transform dialect has no pattern set for them, so the
lowering (`schedgen.run.execute`) rewrites each f32 `math.exp` -- scalar or any
vector shape -- with the classic range reduction (Cody-Waite):

    n = floor(x * log2(e) + 1/2)        x clamped to [-87.3, 88.4]
    r = x - n * ln2                     ln2 split in two constants, exact first part
    exp(x) = 2^n * (1 + r + r^2 * P(r)) P: degree-5 minimax polynomial on [-ln2/2, ln2/2]

2^n is built in the exponent bits. Measured against numpy's float64 exp on
[-87, 88]: at most 7.8e-8 relative, under one ulp (tests/test_math_approx.py);
below the clamp the result is about 1e-38 rather than a denormal or 0, which
is within any tolerance `verify` uses.
erf and tanh are odd rational functions x * P(x^2) / Q(x^2) on a clamped
range, with the coefficients Eigen and XLA use (erf on [-4, 4], where f32 erf
reaches +-1; tanh on [-7.9, 7.9], and tanh(x) = x below 4e-4). Against
float64: at most 2.2e-7 relative for erf, 2.6e-7 for tanh (about 4 ulps).
Every polynomial step is a fused multiply-add (math.fma): ViT's softmax
took 8% longer with a multiply and an add apart.
Applied the same way to the untransformed payload, so both sides of a
comparison compute the same function.
"""

from __future__ import annotations

from typing import Any

# exp(r) ~ 1 + r + r^2 * P(r), P's coefficients highest degree first.
_POLY = (1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1)
_LOG2E = 1.44269504088896341
_LN2_HI = 0.693359375  # few mantissa bits: n * _LN2_HI is exact
_LN2_LO = -2.12194440e-4
_X_MAX = 88.3762626647949
_X_MIN = -87.3365478515625  # 2^n stays a normal number

# Numerator (odd) and denominator (even) coefficients in x^2, highest first.
_ERF_P = (-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06, -5.69250639462346e-05,
          -7.34990630326855e-04, -2.95459980854025e-03, -1.60960333262415e-02)
_ERF_Q = (-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03, -7.37332916720468e-03,
          -1.42647390514189e-02)
_ERF_CLAMP = 4.0
_TANH_P = (-2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11, 5.12229709037114e-08,
           1.48572235717979e-05, 6.37261928875436e-04, 4.89352455891786e-03)
_TANH_Q = (1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03, 4.89352518554385e-03)
_TANH_CLAMP = 7.90531110763549805  # tanh is 1 in f32 beyond it
_TANH_TINY = 0.0004  # tanh(x) rounds to x below it


def approximate_math(module: Any) -> int:
    """Rewrite every f32 math.exp, math.erf and math.tanh in `module` in place;
    returns how many."""
    from mlir import ir
    from mlir.dialects import arith

    rewrites = {"math.exp": _exp, "math.erf": _erf, "math.tanh": _tanh}
    targets: list[ir.Operation] = []

    def collect(op: ir.Operation) -> ir.WalkResult:
        if op.name in rewrites and isinstance(_element_type(op.results[0].type), ir.F32Type):
            targets.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(collect)
    for op in targets:
        with ir.InsertionPoint(op), op.location:
            op.results[0].replace_all_uses_with(rewrites[op.name](op.operands[0], arith))
        op.erase()
    return len(targets)


def _element_type(t: Any) -> Any:
    from mlir import ir

    return t.element_type if isinstance(t, ir.ShapedType) else t


def _like(t: Any, element: Any) -> Any:
    """The type `t` with its element type replaced (scalar or vector)."""
    from mlir import ir

    if isinstance(t, ir.VectorType):
        return ir.VectorType.get(t.shape, element)
    return element


def _const(t: Any, value: float | int) -> Any:
    from mlir import ir
    from mlir.dialects import arith

    element = _element_type(t)
    scalar = ir.FloatAttr.get(element, float(value)) if isinstance(element, ir.F32Type) \
        else ir.IntegerAttr.get(element, int(value))
    if isinstance(t, ir.VectorType):
        return arith.constant(t, ir.DenseElementsAttr.get_splat(t, scalar))
    return arith.constant(t, scalar)


def _exp(x: Any, arith: Any) -> Any:
    from mlir import ir
    from mlir.dialects import math

    t = x.type
    it = _like(t, ir.IntegerType.get_signless(32))
    x = arith.maximumf(arith.minimumf(x, _const(t, _X_MAX)), _const(t, _X_MIN))
    n = math.floor(math.fma(x, _const(t, _LOG2E), _const(t, 0.5)))  # vrndscale, not libm
    r = math.fma(n, _const(t, -_LN2_LO), math.fma(n, _const(t, -_LN2_HI), x))
    e = arith.addf(math.fma(arith.mulf(r, r), _horner(r, _POLY), r), _const(t, 1.0))
    bits = arith.shli(arith.addi(arith.fptosi(it, n), _const(it, 127)), _const(it, 23))
    return arith.mulf(e, arith.bitcast(t, bits))


def _horner(x: Any, coeffs: tuple[float, ...]) -> Any:
    """P(x), highest coefficient first, by Horner's rule in fused multiply-adds:
    LLVM does not contract a multiply and an add without a fastmath flag, and
    apart they are twice the instructions on the exponential's critical path."""
    from mlir.dialects import math

    acc = _const(x.type, coeffs[0])
    for c in coeffs[1:]:
        acc = math.fma(acc, x, _const(x.type, c))
    return acc


def _odd_rational(x: Any, p_coeffs: tuple[float, ...], q_coeffs: tuple[float, ...], arith: Any) -> Any:
    """x * P(x^2) / Q(x^2), both by Horner's rule."""
    t = x.type
    x2 = arith.mulf(x, x)
    r = arith.divf(arith.mulf(x, _horner(x2, p_coeffs)), _horner(x2, q_coeffs))
    # Near the clamp the quotient overshoots 1 by an ulp: keep the bound.
    return arith.maximumf(arith.minimumf(r, _const(t, 1.0)), _const(t, -1.0))


def _erf(x: Any, arith: Any) -> Any:
    t = x.type
    x = arith.maximumf(arith.minimumf(x, _const(t, _ERF_CLAMP)), _const(t, -_ERF_CLAMP))
    return _odd_rational(x, _ERF_P, _ERF_Q, arith)


def _tanh(x: Any, arith: Any) -> Any:
    from mlir.dialects import math

    t = x.type
    clamped = arith.maximumf(arith.minimumf(x, _const(t, _TANH_CLAMP)), _const(t, -_TANH_CLAMP))
    tiny = arith.cmpf(arith.CmpFPredicate.OLT, math.absf(x), _const(t, _TANH_TINY))
    return arith.select(tiny, x, _odd_rational(clamped, _TANH_P, _TANH_Q, arith))
