"""f32 `math.exp` as a polynomial, for executing payloads on the CPU.

LLVM turns `math.exp` on a vector into one `expf` call per element (the JIT
has no vector math library), which made softmax 4x slower than without the
exponential. MLIR's own polynomial approximations are only reachable from a
test pass, and the transform dialect has no pattern set for them, so the
lowering (`schedgen.run.execute`) rewrites each f32 `math.exp` -- scalar or any
vector shape -- with the classic range reduction (Cody-Waite):

    n = floor(x * log2(e) + 1/2)        x clamped to [-87.3, 88.4]
    r = x - n * ln2                     ln2 split in two constants, exact first part
    exp(x) = 2^n * (1 + r + r^2 * P(r)) P: degree-5 minimax polynomial on [-ln2/2, ln2/2]

2^n is built in the exponent bits. Measured against numpy's float64 exp on
[-87, 88]: at most 7.7e-8 relative, under one ulp (tests/test_math_approx.py);
below the clamp the result is about 1e-38 rather than a denormal or 0, which
is within any tolerance `verify` uses.
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


def approximate_exp(module: Any) -> int:
    """Rewrite every f32 math.exp in `module` in place; returns how many."""
    from mlir import ir
    from mlir.dialects import arith

    targets: list[ir.Operation] = []

    def collect(op: ir.Operation) -> ir.WalkResult:
        if op.name == "math.exp" and isinstance(_element_type(op.results[0].type), ir.F32Type):
            targets.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(collect)
    for op in targets:
        with ir.InsertionPoint(op), op.location:
            op.results[0].replace_all_uses_with(_exp(op.operands[0], arith))
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
    n = math.floor(arith.addf(arith.mulf(x, _const(t, _LOG2E)), _const(t, 0.5)))  # vrndscale, not libm
    r = arith.subf(arith.subf(x, arith.mulf(n, _const(t, _LN2_HI))), arith.mulf(n, _const(t, _LN2_LO)))
    p = _const(t, _POLY[0])
    for c in _POLY[1:]:
        p = arith.addf(arith.mulf(p, r), _const(t, c))
    e = arith.addf(arith.addf(arith.mulf(arith.mulf(r, r), p), r), _const(t, 1.0))
    bits = arith.shli(arith.addi(arith.fptosi(it, n), _const(it, 127)), _const(it, 23))
    return arith.mulf(e, arith.bitcast(t, bits))
