"""Questions asked of MLIR ops through the typed bindings: symbol names, a
top-level op by name, a structured op's iterator kinds and maps."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from mlir import ir


def symbol(op: ir.OpView | ir.Operation) -> str:
    """The op's `sym_name`."""
    return ir.StringAttr(op.attributes["sym_name"]).value


def find_symbol(module: ir.Module, op_name: str, name: str) -> ir.OpView | None:
    """The top-level `op_name` op of `module` named @`name` (a func.func, a
    transform.named_sequence), or None."""
    for op in module.body.operations:
        if op.operation.name == op_name and "sym_name" in op.attributes and symbol(op) == name:
            return op
    return None


def find_func(module: ir.Module, name: str) -> ir.OpView | None:
    return find_symbol(module, "func.func", name)


def iterator_kinds(op: ir.Operation) -> tuple[str, ...]:
    """"parallel" or "reduction" per loop of a linalg.generic, from its
    iterator_types attribute (compared as attributes, not as text)."""
    parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    return tuple("parallel" if a == parallel else "reduction" for a in ir.ArrayAttr(op.attributes["iterator_types"]))


def indexing_maps(op: ir.Operation) -> list[ir.AffineMap]:
    return [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]


def clone_module(module: ir.Module) -> ir.Module:
    """A copy of `module` (attributes, ops, locations and op attributes) in
    its context, to transform without touching the original."""
    copy = ir.Module.create()
    for named in module.operation.attributes:
        copy.operation.attributes[named.name] = named.attr
    for op in module.body.operations:
        op.operation.clone(ip=ir.InsertionPoint(copy.body))
    return copy


def nested_ops(op: ir.Operation, descend: Callable[[ir.Operation], bool] = lambda _: True) -> Iterator[ir.Operation]:
    """The ops nested in `op`'s regions, pre-order; into an op's own regions
    only where `descend(op)`."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield inner.operation
                if descend(inner.operation):
                    yield from nested_ops(inner.operation, descend)
