"""The attributes schedgen stamps on payload ops: a tileable op's model
index (stamped once on load, kept by the copies tiling makes), the nest id a
generated schedule puts on each nest's root, and the origin mark `check`'s
instrumented schedule leaves on what each transform op created."""

from __future__ import annotations

from mlir import ir

from schedgen.errors import SchedgenError
from schedgen.ir.queries import find_func
from schedgen.model.payload import Payload, is_tileable

ORIGIN = "schedgen.origin"


NEST = "schedgen.nest"  # the plan's nest id, stamped by generated schedules on each nest's root


TAG = "schedgen.id"  # the model's index of a payload op, stamped on load (copies keep it)


def stamp_tags(module: ir.Module, model: Payload) -> None:
    """Tag each tileable op of `model`'s function (in `module`, normalized as
    the model was) with its model index, `schedgen.id`."""
    func = find_func(module, model.func_name)
    i64 = ir.IntegerType.get_signless(64)
    ops = [op.operation for op in func.regions[0].blocks[0].operations if is_tileable(op.operation.name)]
    if len(ops) != len(model.ops):  # the model was built from this very IR: a mismatch is a bug
        raise SchedgenError(model.path, f"internal: {len(ops)} tileable ops after loading, the model has "
                            f"{len(model.ops)}")
    for k, op in enumerate(ops):
        op.attributes[TAG] = ir.IntegerAttr.get(i64, k)



def tagged_ops(func: ir.OpView) -> dict[int, ir.Operation]:
    """The tagged ops of a function's body by their model index."""
    return {ir.IntegerAttr(op.attributes[TAG]).value: op.operation
            for op in func.regions[0].blocks[0].operations if TAG in op.attributes}
