"""`schedgen mark`: the payload with its fuse groups written onto its ops."""

from __future__ import annotations

from mlir import ir

from schedgen.analysis.fuse_groups import find_groups
from schedgen.ir.load import load
from schedgen.ir.queries import find_func
from schedgen.ir.tags import TAG, tagged_ops


def mark(path: str, func: str | None = None) -> str:
    """The payload (normalized as its schedule would be) with its fuse groups
    marked, as text: array attribute `schedgen.fuse_groups` (group ids) on
    every member, `schedgen.fuse_group_id` on each principal (an array when
    it starts several groups)."""
    loaded = load(path, func)
    groups = find_groups(loaded.model)
    with loaded.ctx:
        i64 = ir.IntegerType.get_signless(64)

        def ints(values: list[int]) -> ir.Attribute:
            return ir.ArrayAttr.get([ir.IntegerAttr.get(i64, v) for v in values])

        fn = find_func(loaded.module, loaded.model.func_name)
        for index, op in tagged_ops(fn).items():
            del op.attributes[TAG]  # schedgen's own join key, not for the reader
            ids = [g.id for g in groups if index in g.members]
            if ids:
                op.attributes["schedgen.fuse_groups"] = ints(ids)
            led = [g.id for g in groups if g.principal == index]
            if len(led) == 1:
                op.attributes["schedgen.fuse_group_id"] = ir.IntegerAttr.get(i64, led[0])
            elif led:
                op.attributes["schedgen.fuse_group_id"] = ints(led)
        return str(loaded.module)
