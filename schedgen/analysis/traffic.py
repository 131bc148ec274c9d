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

Two yardsticks. The strict lower bound holds for any plan: the compulsory
traffic (every argument and constant read once, every result written
once), or Hong and Kung's 2*M*N*K / sqrt(S) elements summed over the
contractions (S: the local memory in elements), whichever is larger. The
per-contraction bound is issue 15's: for each contraction the larger of its
own compulsory traffic (every operand read once, its result written once)
and its Hong-Kung figure, plus the compulsory traffic that no contraction
accounts for. It is the larger of the two; a plan that keeps a contraction's
operand or result in local memory (an MLP's hidden activation computed in
the next matmul's K loop) can beat it, but never the strict bound.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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
from schedgen.model.payload import Operand, Payload, Result, TileableOp, ValueRef
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
    if nest.row_tiles:
        return row_loop_traffic(payload, nest.root.index, frozenset(o.index for o in nest.ops), nest.tile_sizes,
                                nest.row_tiles)
    root = payload.ops[nest.root.index]
    sizes = tuple(t or n for t, n in zip(nest.tile_sizes, root.domain))
    shape = NestShape(root.index, frozenset(o.index for o in nest.ops), sizes,
                      tuple((r.op, r.dim, r.size) for r in nest.reduction_tiling), tuple(c.index for c in nest.consumers),
                      frozenset(o.index for o in nest.loop_producers))
    traffic = shape_traffic(payload, shape, bool(nest.reuse_dest))
    assert traffic is not None, "a planned nest's members share it"
    return traffic


def row_loop_traffic(payload: Payload, root_index: int, members: frozenset[int], tile_sizes: Sequence[int],
                     row_tiles: Sequence[int]) -> Traffic:
    """The traffic of a nest whose forall tiles the root by `tile_sizes`
    (0: whole) and whose scf.for inside walks the row blocks `row_tiles`
    (0: not a row dim): its traffic with the row blocks as forall tiles,
    less the re-reads of the outside tiles that do not move with the rows.
    Those (a column block of a matmul's B) stay in local memory across the
    row loop: read once per forall tile, not once per row block."""
    root = payload.ops[root_index]
    shape = NestShape(root.index, members, tuple(r or s or n for s, r, n in zip(tile_sizes, row_tiles, root.domain)))
    tiled = tiled_nest(payload, shape)
    blocks = shape_traffic(payload, shape, tiled=tiled)
    assert tiled is not None and blocks is not None, "a planned nest's members share it"
    rows = {("d", d) for d, r in enumerate(row_tiles) if r}
    trips = prod(tile_count(s or n, r) for s, n, r in zip(tile_sizes, root.domain, row_tiles) if r)  # per forall tile
    seen: set[tuple] = set()
    saved = 0
    for idx in sorted(tiled.members):
        for k, operand in enumerate(payload.ops[idx].operands):
            t = operand_tile(operand, tiled.inner(idx))
            if operand.is_init or (operand.value.kind == "op" and operand.value.index in members) or t is None \
                    or any(lp in rows for x in t for lp, _ in x.offset[0]) or (operand.value, tuple(t)) in seen:
                continue
            seen.add((operand.value, tuple(t)))
            saved += operand_traffic(payload, shape, tiled, idx, k) * (trips - 1) // trips
    return Traffic(read=blocks.read - saved, written=blocks.written, tiles=blocks.tiles)  # loop bodies: row blocks


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
    forall, loops = _nest_loops(payload, shape)
    read = written = 0
    seen: set[tuple] = set()  # outside tiles already counted: ops reading one slice share its transfer
    for idx in tiled.members:
        op = payload.ops[idx]
        inner = tiled.inner(idx)
        for operand in op.operands:
            t = operand_tile(operand, inner)
            from_outside = not (operand.value.kind == "op" and operand.value.index in members)
            if operand.is_init:
                if (idx == root.index and not reuse_dest) or idx in consumers:
                    written += _moved_bytes(operand, t, forall, {})
                if from_outside and _reads_init(payload, operand) and (t is None or (operand.value, tuple(t)) not in seen):
                    read += _moved_bytes(operand, t, forall, {})  # an accumulator's start: once, kept across K
                    if t is not None:
                        seen.add((operand.value, tuple(t)))
                continue
            if not from_outside:
                continue  # computed in the nest: never leaves the local memory
            if op.name == "tensor.pad" and op.pad_low:
                t = _pad_source_tile(op, operand, inner)
            if t is not None:
                if (operand.value, tuple(t)) in seen:
                    continue
                seen.add((operand.value, tuple(t)))
            read += _moved_bytes(operand, t, forall, loops)
        if op.name == "tensor.pad" and (idx == root.index and not reuse_dest or idx in consumers):
            written += _moved_bytes(op.results[0], inner, forall, {})  # no init: its result tile leaves
    return Traffic(read=read, written=written, tiles=tiles)


def _nest_loops(payload: Payload, shape: NestShape) -> tuple[dict, dict]:
    """Every loop of a nest as (extent, step): the forall's, and every
    sequential one (an op's own, or the one a producer was fused into)."""
    root = payload.ops[shape.root]
    forall = {("d", d): (n, s) for d, (n, s) in enumerate(zip(root.domain, shape.root_tiles))}
    loops = {("r", i, d): (payload.ops[i].domain[d], s) for i, d, s in shape.reduction_tiles}
    return forall, loops


def operand_traffic(payload: Payload, shape: NestShape, tiled: TiledNest, idx: int, k: int) -> int:
    """Bytes that operand k of member `idx` moves over the nest at these tiles."""
    forall, loops = _nest_loops(payload, shape)
    operand = payload.ops[idx].operands[k]
    return _moved_bytes(operand, operand_tile(operand, tiled.inner(idx)), forall, loops)


@dataclass(frozen=True)
class _Clipped:
    """A pad's source tile along one dim: the result tile's window shifted by
    the low padding and clipped to the source (what the tile reads)."""

    size: int
    offset: tuple
    low: int
    extent: int  # the source's
    result: int  # the pad result's extent (a last partial tile ends there)


def _pad_source_tile(op: TileableOp, operand: Operand, inner: list[DimTile]) -> list:
    return [_Clipped(x.size, x.offset, low, n, r) for x, low, n, r in
            zip(inner, op.pad_low, operand.shape, op.results[0].shape)]


def _moved_bytes(operand: Operand | Result, t: list | None, forall: dict[tuple, tuple[int, int]],
                 loops: dict[tuple, tuple[int, int]]) -> int:
    """Bytes of `operand` that move over a whole nest: its tile once per
    forall iteration and per trip of each sequential loop that moves it. A
    tile dim that walks one loop's range in that loop's steps moves that
    range exactly (the last, partial tile moves only what it holds), and a
    pad's source dim what its clipped windows hold."""
    if t is None:  # pack/unpack: the whole operand per iteration
        return prod(operand.shape) * operand.element_bytes * prod(tile_count(n, s) for n, s in forall.values())
    moving = {lp for x in t for lp, _ in x.offset[0]}
    counted = {**forall, **{lp: v for lp, v in loops.items() if lp in moving}}
    factor, used = 1, set()
    for x in t:
        parts = x.offset[0]
        lp = parts[0][0] if len(parts) == 1 else None
        if isinstance(x, _Clipped) and (not parts or (lp in counted and lp not in used)):
            coeff, (n, step) = (parts[0][1], counted[lp]) if parts else (0, (1, 1))
            factor *= sum(_clip(coeff * v + x.offset[1], x) for v in range(0, n, step))
            used.add(lp)
        elif lp in counted and lp not in used and parts[0][1] == 1 and counted[lp][1] == x.size:
            factor *= counted[lp][0]  # the range the loop walks, remainder included
            used.add(lp)
        else:
            factor *= x.size
    return factor * operand.element_bytes * prod(tile_count(n, s) for lp, (n, s) in counted.items() if lp not in used)


def _clip(offset: int, x: _Clipped) -> int:
    """Source elements a pad's result window [offset, offset + size) reads."""
    end = min(offset + x.size, x.result)
    return max(0, min(end - x.low, x.extent) - max(offset - x.low, 0))


def _two_level_traffic(payload: Payload, nest: LoopNest) -> Traffic:
    """An op with an inner loop moves a tile that walks with that loop on
    every trip, and the others once per block (they stay in local memory
    across it). Values an inner loop makes tile by tile are block-sized
    tensors in main memory: written there, read back from there; an
    accumulator carried by an inner loop, and everything an op run once per
    block makes, stays local. The root's result leaves once per block
    unless its own loop wrote it tile by tile."""
    root = payload.ops[nest.root.index]
    members = frozenset(o.index for o in nest.ops)
    axes = NestAxes(payload, root.index, AxisMap(payload))
    for m in sorted(members - {root.index}, reverse=True):
        axes.add(m)
    outer = {f"z{d}": t for d, t in enumerate(nest.tile_sizes) if t}
    blocks = prod(tile_count(n, t) for n, t in zip(root.domain, nest.tile_sizes) if t)
    inner = {axes.names(r.op)[r.dim]: r.size for r in nest.reduction_tiling}
    tiled = {m: two_level_tiles(payload.ops[m], axes.names(m), outer, inner) for m in members}

    def walks(t: list[DimTile] | None) -> bool:  # the tile moves with its op's inner loop
        return t is not None and any(lp[0] == "a" for x in t for lp, _ in x.offset[0])

    def in_memory(v: ValueRef) -> bool:  # a member's result made tile by tile: a block in main memory
        if v.kind != "op" or v.index not in members:
            return True
        init = next((o for o in payload.ops[v.index].operands if o.is_init), None)
        return init is not None and walks(operand_tile(init, tiled[v.index][0]))

    read = written = 0
    for m in members:
        op = payload.ops[m]
        tiles, looped = tiled[m]
        trips = prod(tile_count(r.extent, r.size) for r in nest.reduction_tiling if r.op == m)
        for operand in op.operands:
            t = operand_tile(operand, tiles)
            if t is None:
                continue
            nbytes = prod(x.size for x in t) * operand.element_bytes * blocks * (trips if walks(t) else 1)
            v = operand.value
            if operand.is_init:
                if walks(t) or (m == root.index and not walks(t)):
                    written += nbytes  # tile by tile into a block in memory, or the root's result per block
                if _reads_init(payload, operand) and in_memory(v) and (v.kind == "op" and v.index in members
                                                                        or payload_has_data(payload, v)):
                    read += nbytes
            elif in_memory(v):
                read += nbytes
    return Traffic(read=read, written=written, tiles=blocks)


def payload_has_data(payload: Payload, v: ValueRef) -> bool:
    """Whether a value from outside a nest holds data (not a tensor.empty)."""
    return not (v.kind == "other" and payload.others[v.index].name in ("tensor.empty", "bufferization.alloc_tensor"))


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


# Ops that only move data: a stored tensor reaching a contraction through them (a Linear's
# transposed weight) is that contraction's operand, counted with it.
_MOVES_ONLY = ("linalg.transpose", "linalg.broadcast", "linalg.copy")


def per_contraction_bound(payload: Payload, memory_bytes: int, ops: Iterable[int] | None = None) -> int:
    """Issue 15's yardstick: sum over contractions of max(operands read once
    and result written once, Hong-Kung), plus every tensor read from outside
    and every result used outside that no contraction accounts for, once.
    `ops`: of these ops alone (one nest), what they read from the other ops
    counting as stored and what the others read as returned."""
    members = set(range(len(payload.ops))) if ops is None else set(ops)
    stored: dict[tuple, int] = {}  # compulsory reads, by the tensor read
    for i in members:
        for o in payload.ops[i].operands:
            source = None if o.is_init else _outside(payload, o.value, members)
            if source is not None:
                stored[source] = prod(o.shape) * o.element_bytes
    returned = {(i, k): prod(r.shape) * r.element_bytes for i in members
                for k, r in enumerate(payload.ops[i].results)
                if any(u.kind != "op" or u.index not in members for u in r.users)
                and (ops is not None or ValueRef("op", i, k) in payload.returns)}
    total = 0
    for i in sorted(members):
        op = payload.ops[i]
        if not is_multiply_accumulate(op):
            continue
        io = sum(prod(o.shape) * o.element_bytes for o in op.operands if not o.is_init)
        io += sum(prod(r.shape) * r.element_bytes for r in op.results)
        total += max(io, contraction_bound(op, memory_bytes))
        for o in op.operands:
            if not o.is_init:
                for source in _sources_moved(payload, o.value, members):
                    stored.pop(source, None)
        for k in range(len(op.results)):
            returned.pop((i, k), None)
    return total + sum(stored.values()) + sum(returned.values())


def _outside(payload: Payload, v: ValueRef, members: set[int]) -> tuple | None:
    """What main memory a read of `v` by a member comes from: the argument or
    constant it views, or the op outside `members` that computed it; None
    when a member computes it (or it is computed from nothing stored, a fill's
    tensor.empty)."""
    source = _stored(payload, v)
    if source is not None:
        return source
    if v.kind == "op":
        return None if v.index in members else ("op", v.index, v.result)
    other = payload.others[v.index]
    return ("other", v.index) if other.computes else None


def _sources_moved(payload: Payload, v: ValueRef, members: set[int]) -> list[tuple]:
    """What `v` is read from (_outside), through member ops that only move data."""
    source = _outside(payload, v, members)
    if source is not None:
        return [source]
    if v.kind != "op":
        return []
    op = payload.ops[v.index]
    if op.name not in _MOVES_ONLY and not (op.name == "linalg.generic" and op.body_ops == ("linalg.yield",)):
        return []
    return [s for o in op.operands if not o.is_init for s in _sources_moved(payload, o.value, members)]


def nests_bound(payload: Payload, plan: Plan, memory_bytes: int) -> int:
    """A lower bound for any plan with `plan`'s nests, tiled however: each
    nest (and untiled op) reads every tensor it takes from outside at least
    once and writes every result used outside once, or moves its
    contractions' Hong-Kung figure, whichever is larger. The fuse mode
    decides the nests; this says what is left to the tiles."""
    groups = [{o.index for o in n.ops} for n in plan.nests] + [{u.op.index} for u in plan.untiled]
    total = 0
    for g in groups:
        read = {src: prod(o.shape) * o.element_bytes for i in g for o in payload.ops[i].operands
                if not o.is_init and (src := _outside(payload, o.value, g)) is not None}
        written = sum(prod(r.shape) * r.element_bytes for i in g for r in payload.ops[i].results
                      if any(u.kind != "op" or u.index not in g for u in r.users))
        hk = sum(contraction_bound(payload.ops[i], memory_bytes) for i in g if is_multiply_accumulate(payload.ops[i]))
        total += max(sum(read.values()) + written, hk)
    return total
