"""Main-memory traffic of a plan, and a lower bound on it.

Traffic is the bytes that move between main memory and the local memory
while the nests run: in every iteration of a nest's outer loops, each tile it
reads from outside the nest (function inputs, other nests' results) comes in
and each result tile that leaves the nest goes out; a tile read inside an
op's own sequential reduction loop comes in on every trip of that loop when
it moves with it (the output tile stays in local memory across it), and so
does a tile of a producer fused into that loop. An
untiled op reads its inputs and writes its results once. A fused producer's
result never moves.

The lower bound per contraction is Hong and Kung's 2*M*N*K / sqrt(S)
elements (S: the local memory in elements), and for the payload at least
every argument read once and every result written once.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod, sqrt

from schedgen.analysis.axis_groups import AxisMap, NestAxes
from schedgen.analysis.flops import is_multiply_accumulate
from schedgen.analysis.footprint import (
    DimTile,
    NestShape,
    TiledNest,
    operand_tile,
    tiled_nest,
    two_level_tiles,
)
from schedgen.analysis.tile_search import tile_count
from schedgen.model.payload import Operand, Payload, TileableOp, ValueRef
from schedgen.model.plan import LoopNest, Plan


@dataclass(frozen=True)
class Traffic:
    read: int = 0
    written: int = 0
    tiles: int = 0  # iterations of the nests' outer loops (an untiled op: 1)

    @property
    def total(self) -> int:
        return self.read + self.written

    def __add__(self, other: Traffic) -> Traffic:
        return Traffic(self.read + other.read, self.written + other.written, self.tiles + other.tiles)


def plan_traffic(payload: Payload, plan: Plan) -> Traffic:
    total = Traffic()
    for n in plan.nests:
        total += nest_traffic(payload, n)
    for u in plan.untiled:
        total += untiled_traffic(payload, payload.ops[u.op.index])
    return total


def untiled_traffic(payload: Payload, op: TileableOp) -> Traffic:
    read = sum(prod(o.shape) * o.element_bytes for o in op.operands if not o.is_init or _reads_init(payload, o))
    return Traffic(read=read, written=sum(prod(r.shape) * r.element_bytes for r in op.results), tiles=1)


def _reads_init(payload: Payload, init: Operand) -> bool:
    """Whether an op reads its init from memory: its body uses the value (an
    accumulator), and that value has contents (not a tensor.empty)."""
    if not init.reads:
        return False
    v = init.value
    return not (v.kind == "other" and payload.others[v.index].name in ("tensor.empty", "bufferization.alloc_tensor"))


def nest_traffic(payload: Payload, nest: LoopNest) -> Traffic:
    if nest.levels == 2:
        return _two_level_traffic(payload, nest)
    root = payload.ops[nest.root.index]
    sizes = tuple(t or n for t, n in zip(nest.tile_sizes, root.domain))
    shape = NestShape(root.index, frozenset(o.index for o in nest.ops), sizes,
                      tuple((r.op, r.dim, r.size) for r in nest.reduction_tiling), tuple(c.index for c in nest.consumers),
                      frozenset(o.index for o in nest.loop_producers))
    traffic = shape_traffic(payload, shape, bool(nest.reuse_dest))
    assert traffic is not None, "a planned nest's members share it"
    return traffic


def shape_traffic(payload: Payload, shape: NestShape, reuse_dest: bool = False,
                  tiled: TiledNest | None = None) -> Traffic | None:
    """The traffic of a nest at given tiles (None when its members cannot
    share it); `reuse_dest`: the root's result tiles are a consumer's;
    `tiled`: the nest already built at these tiles."""
    tiled = tiled or tiled_nest(payload, shape)
    if tiled is None:
        return None
    root, members, consumers = payload.ops[shape.root], shape.members, shape.consumers
    tiles = prod(tile_count(n, s) for n, s in zip(root.domain, shape.root_tiles))
    # Every loop as (extent, step): the forall's, and every sequential one (an
    # op's own, or the one a producer was fused into).
    forall = {("d", d): (n, s) for d, (n, s) in enumerate(zip(root.domain, shape.root_tiles))}
    loops = {("r", i, d): (payload.ops[i].domain[d], s) for i, d, s in shape.reduction_tiles}
    read = written = 0
    for idx in tiled.members:
        op = payload.ops[idx]
        inner = tiled.inner(idx)
        for operand in op.operands:
            t = operand_tile(operand, inner)
            from_outside = not (operand.value.kind == "op" and operand.value.index in members)
            if operand.is_init:
                if (idx == root.index and not reuse_dest) or idx in consumers:
                    written += _moved_bytes(operand, t, forall, {})
                if from_outside and _reads_init(payload, operand):  # an accumulator's start: once, kept across K
                    read += _moved_bytes(operand, t, forall, {})
                continue
            if not from_outside:
                continue  # computed in the nest: never leaves the local memory
            read += _moved_bytes(operand, t, forall, loops)
    return Traffic(read=read, written=written, tiles=tiles)


def _moved_bytes(operand: Operand, t: list[DimTile] | None, forall: dict[tuple, tuple[int, int]],
                 loops: dict[tuple, tuple[int, int]]) -> int:
    """Bytes of `operand` that move over a whole nest: its tile once per
    forall iteration and per trip of each sequential loop that moves it. A
    tile dim that walks one loop's range in that loop's steps moves that
    range exactly (the last, partial tile moves only what it holds)."""
    if t is None:  # pad/pack/unpack: the whole operand per iteration
        return prod(operand.shape) * operand.element_bytes * prod(tile_count(n, s) for n, s in forall.values())
    moving = {lp for x in t for lp, _ in x.offset[0]}
    counted = {**forall, **{lp: v for lp, v in loops.items() if lp in moving}}
    factor, used = 1, set()
    for x in t:
        parts = x.offset[0]
        lp = parts[0][0] if len(parts) == 1 and parts[0][1] == 1 else None
        if lp in counted and lp not in used and counted[lp][1] == x.size:
            factor *= counted[lp][0]  # the range the loop walks, remainder included
            used.add(lp)
        else:
            factor *= x.size
    return factor * operand.element_bytes * prod(tile_count(n, s) for lp, (n, s) in counted.items() if lp not in used)


def _two_level_traffic(payload: Payload, nest: LoopNest) -> Traffic:
    """Each op with an inner loop reads its input tiles and writes its result
    tile on every trip (block-sized values between the ops' loops live in
    main memory; an accumulator stays local until its loop ends); ops run
    once per block read what comes from outside once per block."""
    root = payload.ops[nest.root.index]
    members = frozenset(o.index for o in nest.ops)
    axes = NestAxes(payload, root.index, AxisMap(payload))
    for m in sorted(members - {root.index}, reverse=True):
        axes.add(m)
    outer = {f"z{d}": t for d, t in enumerate(nest.tile_sizes) if t}
    blocks = prod(tile_count(n, t) for n, t in zip(root.domain, nest.tile_sizes) if t)
    inner = {axes.names(r.op)[r.dim]: r.size for r in nest.reduction_tiling}
    read = written = 0
    for m in members:
        op = payload.ops[m]
        tiles, looped = two_level_tiles(op, axes.names(m), outer, inner)
        own = [r for r in nest.reduction_tiling if r.op == m]
        trips = prod(tile_count(r.extent, r.size) for r in own)
        reduces = any(op.iterators[r.dim] == "reduction" for r in own)
        for operand in op.operands:
            t = operand_tile(operand, tiles)
            nbytes = prod(x.size for x in t) * operand.element_bytes if t is not None else 0
            if operand.is_init:
                if looped or m == root.index:
                    written += nbytes * (1 if reduces else trips) * blocks
            elif not (operand.value.kind == "op" and operand.value.index in members and not looped):
                read += nbytes * trips * blocks
    return Traffic(read=read, written=written, tiles=blocks)


def contraction_bound(op: TileableOp, memory_bytes: int) -> int:
    """Hong and Kung's bound for a multiply-accumulate op: 2 * (output points
    x reduction size) / sqrt(S) elements, S the local memory in elements."""
    eb = max(o.element_bytes for o in op.operands)
    return int(2 * prod(op.domain) / sqrt(memory_bytes / eb) * eb)


def compulsory(payload: Payload) -> int:
    """Every function argument and constant tensor a tileable op reads (also
    through reshapes), read once, and every returned tensor written once."""
    read: dict[tuple, int] = {}
    for op in payload.ops:
        for o in op.operands:
            source = None if o.is_init else _stored(payload, o.value)
            if source is not None:
                read[source] = prod(o.shape) * o.element_bytes
    written = 0
    for v in payload.returns:
        if v.kind == "op":
            r = payload.ops[v.index].results[v.result]
            written += prod(r.shape) * r.element_bytes
    return sum(read.values()) + written


def _stored(payload: Payload, v: ValueRef) -> tuple | None:
    """The argument or constant that `v` is a view of (main memory that must
    be read at least once), or None when it is computed in the function."""
    for _ in range(len(payload.others) + 1):
        if v.kind == "arg":
            return ("arg", v.index)
        if v.kind == "op":
            return None
        other = payload.others[v.index]
        if other.name == "arith.constant" and not other.operands:
            return ("other", v.index)
        if other.computes or len(other.operands) != 1:
            return None
        v = other.operands[0]
    return None


def lower_bound(payload: Payload, memory_bytes: int) -> int:
    """At least the compulsory traffic, and at least the bounds of the ops
    that multiply and accumulate, together."""
    return max(compulsory(payload), sum(contraction_bound(op, memory_bytes) for op in payload.ops
                                        if is_multiply_accumulate(op)))
