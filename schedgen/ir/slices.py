"""The `slice_producers` normalize step: compute only the part of a result
that is read.

A front end often computes a whole tensor and keeps a slice of it: timm's
ViT normalizes all 197 tokens and its classifier reads the class token
alone (`x[:, 0]`). Where a structured op's result is read by one
`tensor.extract_slice` and nothing else, the op is computed for that slice
alone (`fuse_into_containing_op` into the function at the slice: upstream's
tile-and-fuse of a producer into one of its slices). Its own operands are
then read through slices, so the next round moves them up one op more;
reshapes in between are passed by moving the slices above them, and equal
slices are merged so that a producer read through several of them has one
use again. A producer read whole anywhere, or through two different
slices, stays whole: that chain stops there. In a one-block ViT the chain
reaches the attention of the class token's query, and its keys and values
stay whole.

Each round is the template's `@schedgen_slice_round` (fusions, then the
same clean-up as before the first); schedgen runs rounds on a copy until
one moves nothing, and the schedule repeats them as many times. The step
is only taken while every slice the round's matcher takes is one whose
producer it may move whole (the matcher cannot check this): the
producer's only use, with unit strides; otherwise no round runs from
there on.
"""

from __future__ import annotations

from mlir import ir

from schedgen.ir.normalize import run_steps
from schedgen.ir.queries import clone_module, find_func, indexing_maps
from schedgen.model.payload import NON_STRUCTURED_TILEABLE, is_tileable

STEP = "slice_producers"
# A chain longer than this stops there (each round moves it up one op).
MAX_ROUNDS = 256


def _structured(op: ir.Operation) -> bool:
    return is_tileable(op.name) and op.name not in NON_STRUCTURED_TILEABLE


def _projected_init(op: ir.Operation) -> bool:
    """The first init's map is a projected permutation (named ops' always are)."""
    if "indexing_maps" not in op.attributes:
        return True
    inputs = len(op.operands) - len(op.results)
    return indexing_maps(op)[inputs].is_projected_permutation


def _matched(slice_op: ir.Operation) -> ir.Operation | None:
    """The producer the round's matcher takes for this op, if it takes it:
    a slice of a structured op whose first result has one use and whose
    first init map is a projected permutation."""
    if slice_op.name != "tensor.extract_slice":
        return None
    source = slice_op.operands[0]
    if not isinstance(source, ir.OpResult):
        return None
    producer = source.owner
    if not _structured(producer) or len(list(producer.results[0].uses)) != 1 or not _projected_init(producer):
        return None
    return producer


def _movable(slice_op: ir.Operation, producer: ir.Operation) -> bool:
    """The slice is the producer's only use, reads its first result and has
    unit strides: computing the producer there moves it, never copies it."""
    uses = [u for r in producer.results for u in r.uses]
    strides = ir.DenseI64ArrayAttr(slice_op.attributes["static_strides"])
    return len(uses) == 1 and uses[0].owner == slice_op and slice_op.operands[0] == producer.results[0] \
        and len(slice_op.operands) == 1 and all(s == 1 for s in strides)


def _round_applies(func: ir.Operation) -> bool | None:
    """True when the round's matcher takes some slice and may take them all;
    False when it takes none; None when it would take one it may not move."""
    found = False
    for op in func.regions[0].blocks[0].operations:
        producer = _matched(op.operation)
        if producer is None:
            continue
        if not _movable(op.operation, producer):
            return None
        found = True
    return found


def _shapes(func: ir.Operation) -> list[tuple[str, ...]]:
    """Each op of the function by name and result types: a round that moves
    a slice up changes its producer's (a tile's type is the slice's)."""
    return [(op.operation.name, *(str(r.type) for r in op.operation.results))
            for op in func.regions[0].blocks[0].operations]


_RESHAPES = ("tensor.expand_shape", "tensor.collapse_shape")


def _sliced_result(func: ir.Operation) -> bool:
    """A slice of a structured op's result (through reshapes, which the
    clean-up moves slices above) anywhere in the function: without one no
    round can apply, and the step needs no copy of the module."""
    for op in func.regions[0].blocks[0].operations:
        if op.operation.name != "tensor.extract_slice":
            continue
        source = op.operation.operands[0]
        while isinstance(source, ir.OpResult) and source.owner.name in _RESHAPES:
            source = source.owner.operands[0]
        if isinstance(source, ir.OpResult) and _structured(source.owner):
            return True
    return False


def slice_rounds(module: ir.Module, func_name: str) -> tuple[ir.Module, int]:
    """The step on @`func_name` of `module` (inside its context): the module
    after its rounds (a copy: `module` itself is left as it was when none
    applies) and their number (0: the step is not taken). The rounds run
    while they apply and move something."""
    func = find_func(module, func_name)
    if func is None or not _sliced_result(func.operation):
        return module, 0
    work = clone_module(module)
    run_steps(work.operation, ("slice_cleanup",), func_name)  # as the schedule does before its first round
    rounds = 0
    while rounds < MAX_ROUNDS:
        func = find_func(work, func_name)
        if func is None or not _round_applies(func.operation):
            break
        before = _shapes(func.operation)
        run_steps(work.operation, ("slice_round",), func_name)
        if _shapes(find_func(work, func_name).operation) == before:
            break  # nothing moved: a rerun would not either
        rounds += 1
    return (work, rounds) if rounds else (module, 0)
