"""Transfers of one element (0-d vectors) as the memref load or store they
are. The lowering takes a 0-d `vector.transfer_read`/`_write` only where
the memref's last dim has unit stride (`lower_transfer` makes it a
`vector.load`), and VectorToSCF only from rank 1: one on a strided view (a
column of a larger buffer: ViT-Ti/16's last block, sliced to its class
token, reads its softmax rows' all-masked flags from a fill shared with the
other blocks, 197 apart) reached the LLVM conversion and stopped it."""

from __future__ import annotations

from typing import Any


def _zero_d(t: Any) -> bool:
    from mlir import ir

    return isinstance(t, ir.VectorType) and t.rank == 0


def scalar_transfers(module: Any) -> None:
    """Rewrite, in place, every unmasked 0-d transfer on a memref into
    memref.load + vector.broadcast (a read) or vector.extract +
    memref.store (a write)."""
    from mlir import ir
    from mlir.dialects import memref, vector

    found: list[Any] = []

    def visit(op: Any) -> Any:
        if op.name == "vector.transfer_read" and _zero_d(op.results[0].type) \
                or op.name == "vector.transfer_write" and _zero_d(op.operands[0].type):
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    for op in found:
        view = op.opview
        if view.mask is not None or not isinstance(view.base.type, ir.MemRefType):
            continue
        with ir.InsertionPoint(op), op.location:
            if op.name == "vector.transfer_read":
                scalar = memref.load(view.base, list(view.indices))
                op.results[0].replace_all_uses_with(vector.broadcast(op.results[0].type, scalar))
            else:
                memref.store(vector.extract(view.valueToStore, [], []), view.base, list(view.indices))
        op.erase()
