"""Loop orders for executing linalg ops that keep their sums in order.

`convert-linalg-to-loops` nests an op's loops in iterator order, so a
matmul's reduction runs innermost: each step loads and stores its output
element through memory (the buffers may alias) and reads B down a column,
one page per step. The untiled 1024 matmul took 15 s so. With the last
parallel dim innermost instead (i, k, j), the inner loop walks rows of B and
C and LLVM vectorizes it. Each output element still receives its terms in
the same order, so the numbers are the same to the bit: this is for the
executions `verify` compares, not for timing what a standard lowering gives.
"""

from __future__ import annotations

from typing import Any

from schedgen.ir.queries import indexing_maps, iterator_kinds, nested_ops

_MARK = "schedgen.loop_order"


def inner_parallel_order(op: Any) -> list[int] | None:
    """The iterator permutation that moves `op`'s (a linalg.generic's) last
    output dim innermost, past the reductions after it; None where that is
    not a gain: the dims after it are not all reductions, or no input walks
    along it with unit stride (a transposed B would be read down columns)."""
    from mlir import ir

    kinds = iterator_kinds(op)
    maps = indexing_maps(op)
    n_inputs = len(maps) - len(op.results)
    if not op.results or not maps[-1].results:
        return None
    last = maps[-1].results[-1]
    if not isinstance(last, ir.AffineDimExpr):
        return None
    p = ir.AffineDimExpr(last).position
    after = range(p + 1, len(kinds))
    if not after or any(kinds[d] != "reduction" for d in after) or kinds[p] != "parallel":
        return None
    if not any(m.results and _walks(m.results[-1], p) for m in maps[:n_inputs]):
        return None
    return [d for d in range(len(kinds)) if d != p] + [p]


def _walks(expr: Any, p: int) -> bool:
    """Whether `expr` is dim p, or dim p plus another term (a window: ow + kw)."""
    from mlir import ir

    if isinstance(expr, ir.AffineDimExpr):
        return ir.AffineDimExpr(expr).position == p
    if isinstance(expr, ir.AffineAddExpr):
        add = ir.AffineAddExpr(expr)
        return any(isinstance(e, ir.AffineDimExpr) and ir.AffineDimExpr(e).position == p for e in (add.lhs, add.rhs))
    return False


def reorder_loops(module: Any) -> None:
    """Every linalg op of `module` (on tensors, in its context) as a
    linalg.generic, with the loops of those inner_parallel_order takes
    interchanged so. A failed interchange leaves its ops as they were (the
    same numbers, only slower)."""
    from mlir import ir
    from mlir.dialects import transform
    from mlir.dialects.transform import interpreter, structured

    from schedgen.ir.normalize import generalize

    generalize(module.operation)
    orders: dict[tuple[int, ...], int] = {}
    for op in nested_ops(module.operation):
        if op.name == "linalg.generic" and (order := inner_parallel_order(op)) is not None:
            group = orders.setdefault(tuple(order), len(orders))
            op.attributes[_MARK] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), group)
    if not orders:
        return
    schedule = ir.Module.create()
    schedule.operation.attributes["transform.with_named_sequence"] = ir.UnitAttr.get()
    any_op = transform.AnyOpType.get()
    with ir.InsertionPoint(schedule.body):
        entry = transform.NamedSequenceOp("__transform_main", [any_op], [],
                                          arg_attrs=[{"transform.readonly": ir.UnitAttr.get()}])
    with ir.InsertionPoint(entry.body):
        for order, group in orders.items():
            mark = ir.DictAttr.get({_MARK: ir.IntegerAttr.get(ir.IntegerType.get_signless(64), group)})
            ops = structured.MatchOp(any_op, entry.bodyTarget, op_attrs=mark)
            structured.InterchangeOp(ops.result, iterator_interchange=list(order))
        transform.YieldOp([])
    try:
        interpreter.apply_named_sequence(module.operation, entry.operation, schedule)
    except ir.MLIRError:
        pass
    for op in nested_ops(module.operation):
        if _MARK in op.attributes:
            del op.attributes[_MARK]
