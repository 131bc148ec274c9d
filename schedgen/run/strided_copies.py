"""One-dimensional strided copies as contiguous vector loads and shuffles,
for executing payloads on the CPU.

A stride-2 convolution's im2col copy, tiled to one output row, is a
`linalg.generic` on buffers that reads every second element of an input
row: `out[i] = in[c0, ..., s * i + c]`. MLIR's vectorizer does not take
that input map (not a projected permutation), so the lowering makes it a
scalar loop and leaves it to LLVM. LLVM vectorized it in a function of its
own, but not inside an OpenMP region's outlined body, where its alias
analysis cannot tell the input row from the buffer written: on 2 threads
the copy took three times as long, and a 64>128 stride-2 convolution onto
28x28 ran at 78% of peak (0.63 ms; 0.58, 87%, with the copy as below).
`vectorize_strided_copies` rewrites each such copy in pieces of one
vector of outputs: a `vector.transfer_read` of the contiguous input span
they cover, a `vector.shuffle` of every s-th lane, a `vector.transfer_write`.
"""

from __future__ import annotations

from typing import Any

# Outputs per piece: one AVX-512 vector of f32 (its read spans s times that).
_PIECE = 16
# The longest copy rewritten: an output row (the stem's is 112), not a whole untiled copy unrolled.
_MOST = 256


def _value(expr: Any, d: int) -> int | None:
    """An affine expression of one dim (after tiling, a copy's map keeps the untiled op's floordiv and mod)
    evaluated at d0 = d; None for a symbol."""
    from mlir import ir

    if isinstance(expr, ir.AffineConstantExpr):
        return expr.value
    if isinstance(expr, ir.AffineDimExpr):
        return d
    for kind, fn in ((ir.AffineAddExpr, lambda a, b: a + b), (ir.AffineMulExpr, lambda a, b: a * b),
                     (ir.AffineFloorDivExpr, lambda a, b: a // b), (ir.AffineModExpr, lambda a, b: a % b),
                     (ir.AffineCeilDivExpr, lambda a, b: -(-a // b))):
        if isinstance(expr, kind):
            lhs, rhs = _value(expr.lhs, d), _value(expr.rhs, d)
            return None if lhs is None or rhs is None else fn(lhs, rhs)
    return None


def _strided_copy(op: Any) -> tuple[list[int], int, int, int] | None:
    """(leading indices, first index, stride, outputs) of a 1-D copy generic
    on buffers that reads its input's last dim with a constant stride above
    1 and every other dim at a constant; None for any other op."""
    from mlir import ir

    if op.name != "linalg.generic" or len(op.operands) != 2 or len(op.regions[0].blocks) != 1:
        return None
    src, dst = (v.type for v in op.operands)
    # f32 and f64 only: x86's backend cannot legalize a shuffle of bf16 lanes (a 9-lane one aborted LLVM with "Do
    # not know how to soft promote this operator's operand": fuzz seed 123); those copies stay LLVM's to vectorize
    if not (isinstance(src, ir.MemRefType) and isinstance(dst, ir.MemRefType)) or dst.rank != 1 \
            or not dst.has_static_shape or not src.has_static_shape or src.element_type != dst.element_type \
            or not isinstance(src.element_type, (ir.F32Type, ir.F64Type)):
        return None
    body = list(op.regions[0].blocks[0].operations)
    if len(body) != 1 or body[0].name != "linalg.yield" or body[0].operands[0] != op.regions[0].blocks[0].arguments[0]:
        return None
    maps = [ir.AffineMapAttr(m).value for m in op.attributes["indexing_maps"]]
    # a source of rank 0 (a scalar broadcast) has no index to stride along
    if maps[1] != ir.AffineMap.get_identity(1) or maps[0].n_dims != 1 or maps[0].n_symbols or src.rank == 0:
        return None
    n = dst.shape[0]
    if not 2 <= n <= _MOST:
        return None
    at = [[_value(e, d) for e in maps[0].results] for d in range(n)]
    if any(v is None for row in at for v in row) or any(row[:-1] != at[0][:-1] for row in at):
        return None
    first, stride = at[0][-1], (at[1][-1] - at[0][-1] if n > 1 else 0)
    strides, _ = src.get_strides_and_offset()
    if stride < 2 or strides[-1] != 1 or any(row[-1] != first + stride * i for i, row in enumerate(at)) \
            or first < 0 or first + stride * (n - 1) >= src.shape[-1]:
        return None
    return at[0][:-1], first, stride, n


def vectorize_strided_copies(module: Any) -> int:
    """Rewrite, in place, every strided 1-D copy (_strided_copy); how many."""
    with module.context:
        return _rewrite(module)


def _rewrite(module: Any) -> int:
    from mlir import ir
    from mlir.dialects import arith, vector

    found: list[tuple[Any, tuple[list[int], int, int, int]]] = []

    def visit(op: Any) -> Any:
        if (copy := _strided_copy(op)) is not None:
            found.append((op, copy))
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    for op, (lead, first, stride, n) in found:
        src, dst = op.operands
        elt = ir.MemRefType(dst.type).element_type
        with ir.InsertionPoint(op), op.location:
            index = ir.IndexType.get()
            const: dict[int, Any] = {}

            def c(v: int) -> Any:
                if v not in const:
                    const[v] = arith.ConstantOp(index, v).result
                return const[v]

            pad = arith.ConstantOp(elt, 0.0).result
            rank = ir.MemRefType(src.type).rank
            in_bounds = ir.ArrayAttr.get([ir.BoolAttr.get(True)])
            read_map = ir.AffineMapAttr.get(ir.AffineMap.get_minor_identity(rank, 1))
            for start in range(0, n, _PIECE):
                m = min(_PIECE, n - start)
                span = stride * (m - 1) + 1
                v = vector.TransferReadOp(ir.VectorType.get([span], elt), src,
                                          [c(i) for i in lead] + [c(first + stride * start)], read_map, pad,
                                          in_bounds).result
                picked = vector.ShuffleOp(v, v, [stride * i for i in range(m)]).result
                vector.TransferWriteOp(None, picked, dst, [c(start)],
                                       ir.AffineMapAttr.get(ir.AffineMap.get_identity(1)), in_bounds)
        op.erase()
    return len(found)
