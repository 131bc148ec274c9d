"""The tile-and-fuse planner (seed "The Tile and Fuse Pass").

Tileable ops are visited in reverse program order, so every consumer of an op
has been decided before the op itself. An op that is not fused yet and whose
untiled footprint exceeds the budget becomes the root of a loop nest: its
parallel dims are tiled by scf.forall (outermost first), producers are fused
into it per the fuse mode, and reduction dims are tiled by scf.for only when
nothing else fits. A producer is fused only when every user of its result is
in the nest and they all read the same slice of it, so nothing is computed
twice; otherwise it stays unfused (and is planned on its own later).
"""

from __future__ import annotations

import heapq
from schedgen.errors import SchedgenError
from schedgen.footprint import Footprint, NestShape, footprint, nest_tiles, untiled_footprint
from schedgen.graph import describe_use, outside_users, producers
from schedgen.payload import NON_STRUCTURED_TILEABLE, Payload, TileableOp
from schedgen.plan import FootprintItem, FuseMode, LoopNest, OpRef, Plan, ReductionTiling, UntiledOp
from schedgen.target import Target
from schedgen.tile_search import SearchDim, Sizes, fit_tiles


def op_ref(op: TileableOp) -> OpRef:
    return OpRef(index=op.index, name=op.name, line=op.line, result_type=op.results[0].type_str)


class _Nest:
    """A nest under construction: root, members, and a memoised fit test."""

    def __init__(self, payload: Payload, root: TileableOp, budget: int) -> None:
        self.payload = payload
        self.root = root
        self.budget = budget
        self.members: frozenset[int] = frozenset({root.index})
        self._cache: dict[tuple, Footprint | None] = {}

    def tileable_dims(self, members: frozenset[int]) -> list[int]:
        """Root parallel dims that can be tiled without the members' slices
        disagreeing (e.g. a row reduction fused into a row-wise op keeps the
        row whole)."""
        full = self.root.domain
        dims = []
        for d in self.root.parallel_dims():
            sizes = tuple(1 if i == d else full[i] for i in range(len(full)))
            if nest_tiles(self.payload, self.root.index, members, sizes) is not None:
                dims.append(d)
        return dims

    def search_dims(self, members: frozenset[int]) -> list[SearchDim]:
        dims = [SearchDim(("d", d), self.root.domain[d]) for d in self.tileable_dims(members)]
        if not self.root.parallel_dims():  # no forall to fuse into: reductions of the root only
            members = frozenset({self.root.index})
        for idx in sorted(members, reverse=True):
            op = self.payload.ops[idx]
            dims += [SearchDim(("r", idx, d), op.domain[d]) for d in op.reduction_dims()]
        return dims

    def shape(self, members: frozenset[int], sizes: Sizes) -> NestShape:
        root_sizes = tuple(sizes.get(("d", d), n) for d, n in enumerate(self.root.domain))
        red = tuple((k[1], k[2], s) for k, s in sizes.items()
                    if k[0] == "r" and k[1] in members and s < self.payload.ops[k[1]].domain[k[2]])
        return NestShape(self.root.index, members, root_sizes, tuple(sorted(red)))

    def footprint(self, members: frozenset[int], sizes: Sizes) -> Footprint | None:
        nest = self.shape(members, sizes)
        key = (nest.members, nest.root_tiles, nest.reduction_tiles)
        if key not in self._cache:
            self._cache[key] = footprint(self.payload, nest)
        return self._cache[key]

    def fits(self, members: frozenset[int], sizes: Sizes) -> bool:
        fp = self.footprint(members, sizes)
        return fp is not None and fp.total <= self.budget

    def minimal(self, members: frozenset[int]) -> Sizes:
        return {d.key: 1 for d in self.search_dims(members)}

    def search(self, members: frozenset[int]) -> Sizes | None:
        return fit_tiles(self.search_dims(members), lambda s: self.fits(members, s))


def plan(payload: Payload, target: Target, mode: FuseMode = FuseMode.MAX_PRODUCERS) -> Plan:
    budget = target.memory_bytes
    fused_into: dict[int, int] = {}
    nests: list[LoopNest] = []
    untiled: list[UntiledOp] = []
    for op in reversed(payload.ops):
        if op.index in fused_into:
            continue
        alone = untiled_footprint(payload, op)
        if alone.total <= budget:
            untiled.append(UntiledOp(op=op_ref(op), footprint_bytes=alone.total, reason="fits untiled"))
            continue
        nest = _plan_nest(payload, op, budget, mode, len(nests) + 1, fused_into)
        for member in nest.ops:
            fused_into[member.index] = nest.id
        nests.append(nest)
    untiled.sort(key=lambda u: u.op.index)
    return Plan(payload=payload.path, func=payload.func_name, target=target, fuse_mode=mode,
                ops=[op_ref(o) for o in payload.ops], nests=nests, untiled=untiled)


def _candidates(payload: Payload, op: TileableOp, taken: dict[int, int]) -> list[TileableOp]:
    return [p for p in producers(payload, op) if p.index not in taken]


def _plan_nest(payload: Payload, root: TileableOp, budget: int, mode: FuseMode, nest_id: int,
               taken: dict[int, int]) -> LoopNest:
    nest = _Nest(payload, root, budget)
    alone = frozenset({root.index})
    if not nest.fits(alone, nest.minimal(alone)):
        need = nest.footprint(alone, nest.minimal(alone))
        raise SchedgenError(payload.where(root), f"budget of {budget} bytes is too small: its smallest tile "
                            f"(1 element along every dim) needs {need.total if need else '?'} bytes", op=root.name)
    notes: list[str] = []
    members = alone
    sizes: Sizes | None = None
    if mode == FuseMode.MAX_SIZE:
        sizes = nest.search(alone)
    can_fuse = mode != FuseMode.NO_FUSE and bool(root.parallel_dims())
    # Max-heap on op index: a producer is considered after all its consumers.
    heap = [(-p.index, p.index) for p in _candidates(payload, root, taken)] if can_fuse else []
    heapq.heapify(heap)
    seen = {i for _, i in heap}
    while heap:
        _, idx = heapq.heappop(heap)
        cand = payload.ops[idx]
        trial = members | {idx}
        reason = _why_not_fusible(payload, cand, trial)
        if reason is None:
            if mode == FuseMode.MAX_SIZE:
                assert sizes is not None
                if not nest.fits(trial, sizes):  # new members keep their reduction dims whole
                    reason = f"does not fit in the root's largest tile ({_fmt_sizes(root, sizes)})"
            elif not nest.fits(trial, nest.minimal(trial)):
                reason = "does not fit in the budget even with 1-element tiles"
        if reason is not None:
            notes.append(f"op{idx} {cand.name} not fused: {reason}")
            continue
        members = trial
        for p in _candidates(payload, cand, taken):
            if p.index not in seen:
                seen.add(p.index)
                heapq.heappush(heap, (-p.index, p.index))
    if mode != FuseMode.MAX_SIZE:
        sizes = nest.search(members)
    assert sizes is not None  # the root alone fits at its minimal tile
    sizes = _restrict(nest, members, sizes)
    return _loop_nest(payload, nest, members, sizes, nest_id, notes)


def _restrict(nest: _Nest, members: frozenset[int], sizes: Sizes) -> Sizes:
    """Keep only the search dims valid for `members` (a fused reduction may
    forbid tiling a root dim)."""
    valid = {d.key: d.extent for d in nest.search_dims(members)}
    return {k: (sizes.get(k, ext)) for k, ext in valid.items()}


def _why_not_fusible(payload: Payload, cand: TileableOp, trial: frozenset[int]) -> str | None:
    if cand.name in NON_STRUCTURED_TILEABLE:
        return "pad/pack/unpack producers are tiled on their own"
    others = outside_users(cand, trial)
    if others:
        names = ", ".join(sorted({describe_use(payload, u) for u in others}))
        return f"its result is also used by {names}; fusing it would compute it twice"
    if len(cand.results) != 1:
        return "multi-result ops are not fused"
    return None


def _fmt_sizes(root: TileableOp, sizes: Sizes) -> str:
    return ", ".join(f"d{d}={sizes.get(('d', d), n)}" for d, n in enumerate(root.domain))


def _loop_nest(payload: Payload, nest: _Nest, members: frozenset[int], sizes: Sizes, nest_id: int,
               notes: list[str]) -> LoopNest:
    root = nest.root
    shape = nest.shape(members, sizes)
    fp = footprint(payload, shape)
    assert fp is not None
    par = root.parallel_dims()
    tile_sizes = [s if d in par and s < root.domain[d] else 0 for d, s in enumerate(shape.root_tiles)]
    reductions = [ReductionTiling(op=o, op_rank=len(payload.ops[o].domain), dim=d, size=s,
                                  extent=payload.ops[o].domain[d])
                  for o, d, s in shape.reduction_tiles]
    if par and not any(tile_sizes):
        # Only reductions are tiled: a one-trip forall still gives the fused
        # producers a loop to live in.
        tile_sizes[par[0]] = root.domain[par[0]]
    if reductions:
        notes.append("reduction dims tiled by sequential scf.for: the nest does not fit with its "
                     "parallel dims tiled alone")
    producer_refs = [op_ref(payload.ops[i]) for i in sorted(members - {root.index}, reverse=True)]
    cse_before = [p.index for p in producer_refs
                  if len({u.index for u in payload.ops[p.index].results[0].users if u.kind == "op"}) > 1]
    dims_order = [d for d in par if tile_sizes[d]] + [r.dim for r in reductions if r.op == root.index]
    return LoopNest(id=nest_id, root=op_ref(root), loop_kind="scf.forall" if par else "scf.for",
                    dims_order=dims_order, tile_sizes=tile_sizes, producers=producer_refs, cse_before=cse_before,
                    reduction_tiling=reductions, footprint_bytes=fp.total, budget_bytes=nest.budget,
                    footprint_items=[FootprintItem(what=w, shape=list(s), bytes=b) for w, s, b in fp.items],
                    notes=notes)

