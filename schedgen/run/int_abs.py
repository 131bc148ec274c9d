"""Integer absolute values of n-D vectors as arith ops. MathToLLVM lowers
`math.absi` of a scalar or a 1-D vector only: on a vector<4x32xi64> (T5's
relative-position buckets, |j - i| over a register tile of rows) the LLVM
conversion left it and the lowering stopped. arith ops unroll n-D vectors
themselves, so |x| becomes max(x, 0 - x), which is what the LLVM intrinsic
computes (the minimum integer maps to itself)."""

from __future__ import annotations

from typing import Any


def expand_int_abs(module: Any) -> None:
    """Rewrite, in place, every `math.absi` of a vector of rank 2 or more."""
    from mlir import ir
    from mlir.dialects import arith

    found: list[Any] = []

    def visit(op: Any) -> Any:
        t = op.results[0].type if op.name == "math.absi" else None
        if isinstance(t, ir.VectorType) and t.rank >= 2:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    for op in found:
        x, t = op.operands[0], op.results[0].type
        with ir.InsertionPoint(op), op.location:
            zero = arith.constant(t, ir.DenseElementsAttr.get_splat(t, ir.IntegerAttr.get(t.element_type, 0)))
            op.results[0].replace_all_uses_with(arith.maxsi(x, arith.subi(zero, x)))
        op.erase()
