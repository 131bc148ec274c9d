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

import copy
import heapq
from collections.abc import Callable, Hashable
from dataclasses import replace
from math import lcm, prod

from schedgen.analysis.axis_groups import (
    INNER,
    AxisGroups,
    AxisMap,
    MergeError,
    NestAxes,
)
from schedgen.analysis.flops import is_multiply_accumulate, op_flops
from schedgen.analysis.footprint import (
    DimTile,
    Footprint,
    NestShape,
    TiledNest,
    forall_dims,
    nest_tiles,
    tiled_nest,
    two_level_footprint,
    untiled_footprint,
)
from schedgen.analysis.fuse_groups import FuseGroup, find_groups
from schedgen.analysis.graph import describe_use, outside_users, producers, users
from schedgen.analysis.tile_search import (
    SearchDim,
    Sizes,
    divisors,
    even_shares,
    fit_tiles,
    frontier_starts,
    keeps_order,
    least_cost,
    tile_count,
)
from schedgen.analysis.traffic import (
    Traffic,
    lower_bound,
    nest_traffic,
    operand_traffic,
    per_contraction_bound,
    plan_traffic,
    row_loop_traffic,
    shape_traffic,
    untiled_traffic,
)
from schedgen.errors import SchedgenError
from schedgen.ir.load import LoadedPayload
from schedgen.model.payload import (
    NON_STRUCTURED_TILEABLE,
    Linear,
    Operand,
    Payload,
    TileableOp,
    ValueRef,
)
from schedgen.model.plan import (
    FootprintItem,
    FuseMode,
    GroupInfo,
    LocalBuffer,
    LoopNest,
    Note,
    NoteKind,
    OpRef,
    Plan,
    Recompute,
    ReductionTiling,
    UntiledOp,
)
from schedgen.model.target import Target
from schedgen.planning.cpu_levels import (
    MIN_FULL_ROW_TILES,
    bound_by_flops,
    contraction_gflops,
    copy_chunk,
    cpu_levels,
    k_chunk_floor,
    outer_grain,
    outer_least,
    panel_bytes,
    panel_operand,
    panel_waste,
    parallel_nests,
    reduction_grain,
    streaming_ms,
    transposes_panel,
    vector_dim,
    worth_cores,
)
from schedgen.planning.precise import PreciseChecker
from schedgen.planning.row_order import RowOrder, register_row_step, row_order, rows_in_order


def op_ref(op: TileableOp) -> OpRef:
    return OpRef(index=op.index, name=op.name, line=op.line, result_type=op.results[0].type_str,
                 results=len(op.results))


# Charged per innermost loop iteration in the traffic search: a DMA transfer's
# setup, a loop's bookkeeping. Small against a tile, large against a 1x1 one.
TILE_OVERHEAD_BYTES = 512

# On CPU targets, the share of the bytes of operands read panel by panel
# charged again (_Nest._panel_bytes): a tie-break between tiles that move
# the same bytes.
PANEL_CHARGE = 1 / 16


class _Nest:
    """A nest under construction: root, members, and a memoised fit test."""

    def __init__(self, payload: Payload, root: TileableOp, target: Target, axis_map: AxisMap | None = None,
                 order: list[int] | None = None) -> None:
        self.payload = payload
        self.root = root
        # Root dims parallel loops may tile, in tiling order: the fuse group
        # principal's parallel dims when the nest holds one, else the root's.
        self.order = order if order is not None else root.parallel_dims()
        self.axis_map = axis_map or AxisMap(payload)
        self.budget = target.memory_bytes
        self.alignment = target.alignment_bytes
        self.cores = target.cores
        self._cache: dict[tuple, TiledNest | None] = {}
        self._dims: dict[frozenset[int], list[SearchDim]] = {}
        self._grains: dict[tuple[frozenset[int], int], int | None] = {}
        self._loop_grains: dict[int, int] = {}  # loop_grain, per reduction dim of the loop op
        self._one_trip: dict[int, bool] = {}  # _one_trip_loop, per op
        self._all_moves: dict[tuple[frozenset[int], int], bool] = {}  # _all_move, per members and root dim
        # Producer-driven nests: consumers fused after the producers, in order.
        self.consumers: tuple[int, ...] = ()
        self.loop_kind = "scf.forall"
        # Producers fused into the reduction loop of member `loop_op` (_k_loop_fusion).
        self.in_loop: frozenset[int] = frozenset()
        self.loop_op: int | None = None
        self.redo_gathers = False  # in-loop gathers may be redone once per core (_redoes)
        # Ops no nest planned before this one tiles: still untiled when the schedule reaches it (row_order).
        self.untiled: frozenset[int] = frozenset()
        # CPU targets: forall tiles divide (every register tile static), are
        # register-sized where they can be, and K chunks keep the kernel's step.
        self.cpu = target.cpu

    def tileable_dims(self, members: frozenset[int]) -> list[int]:
        """Root parallel dims that can be tiled without the members' slices
        disagreeing (e.g. a row reduction fused into a row-wise op keeps the
        row whole)."""
        parallel_axes = self.parallel_axes(members)
        return [d for d in self.order if f"z{d}" in parallel_axes and self.dim_grain(members, d) is not None]

    def dim_grain(self, members: frozenset[int], d: int) -> int | None:
        """The smallest tile along root dim `d` (the others whole) at which
        every member still gets the slice it reads, or None when only the
        whole dim does. Above 1 where a fused producer reads through a
        non-linear index (an im2col copy's output pixels: whole output rows,
        TileableOp.index_grains); tiles along `d` are its multiples."""
        key = (members, d)
        if key not in self._grains:
            n = self.root.domain[d]
            # only members with a non-linear index need more than the smallest size the root allows
            grained = any(self.payload.ops[i].index_grains for i in members - {self.root.index})
            sizes = [s for s in divisors(n) if s < n] if grained else [self.root.index_grain(d) or 1]
            self._grains[key] = next((s for s in sizes if self._tiles_along(members, d, s)), None)
        return self._grains[key]

    def _tiles_along(self, members: frozenset[int], d: int, size: int) -> bool:
        if not self.root.tile_ok(d, size):
            return False
        full = self.root.domain
        sizes = tuple(size if i == d else full[i] for i in range(len(full)))
        tiles = nest_tiles(self.payload, self.root.index, members | set(self.consumers), sizes,
                           self.consumers, self._loop_chunks(), self.in_loop)
        # A producer in the reduction loop moves with every forall dim, or it would be computed again per
        # tile; but a gather on a CPU of several cores, which `allowed` lets be redone once per core. A pad
        # there keeps its padded dims whole (pads_whole).
        return tiles is not None and all(_moves_with(tiles[i], d) or self._redoes(i) for i in self.in_loop) \
            and all(_pad_whole(self.payload.ops[i], tiles[i]) for i in self.in_loop)

    def _redoes(self, op: int) -> bool:
        """Whether in-loop op `op` may be redone in the forall tiles along dims
        it does not have: a gather (TileableOp.gather, an im2col copy) on a
        CPU of several cores. Apart, one core writes half of its result and
        the other reads it back (both read all of it), across the cores:
        ResNet-18's 14x14 copy took 0.037 ms on 2 threads, 0.019 on one. In
        each core's reduction loop, each core gathers what it reads into its
        own L2 (the 14x14 convolution on 2 threads: 0.568 -> 0.542 ms; on
        one, where both tiles gather, 1.038 -> 1.048). Only a gather whose
        result is bigger than what it reads (overlapping windows: 9 times for
        3x3): ViT's patches, as big as the image, gained nothing."""
        o = self.payload.ops[op]
        if not (self.redo_gathers and self.cpu is not None and self.cores > 1 and o.redoable):
            return False
        read = sum(prod(x.shape) for x in o.operands if not x.is_init)
        return prod(o.results[0].shape) > read

    def redone(self, members: frozenset[int], sizes: Sizes) -> int:
        """How many times over the in-loop ops are done at these sizes: the
        forall tiles along the root dims that one of them does not have (1:
        each is done once)."""
        if not self.in_loop:
            return 1
        return prod(tile_count(n, sizes.get(("d", d), n)) for d, n in enumerate(self.root.domain)
                    if sizes.get(("d", d), n) < n and not self._all_move(members, d))

    def _all_move(self, members: frozenset[int], d: int) -> bool:
        """Whether every in-loop op's tile moves with root dim `d` (tiled by its grain)."""
        key = (members, d)
        if key not in self._all_moves:
            full = list(self.root.domain)
            full[d] = self.dim_grain(members, d) or full[d]
            tiles = nest_tiles(self.payload, self.root.index, members | set(self.consumers), tuple(full),
                               self.consumers, self._loop_chunks(), self.in_loop)
            self._all_moves[key] = tiles is not None and all(_moves_with(tiles[i], d) for i in self.in_loop)
        return self._all_moves[key]

    def _loop_chunks(self) -> dict[tuple[int, int], int]:
        """The loop op's reduction dims at their smallest chunk: where the in-loop producers' tiles move."""
        if self.loop_op is None:
            return {}
        return {(self.loop_op, d): self.loop_grain(d) for d in _loop_dims(self.payload.ops[self.loop_op])}

    def loop_grain(self, d: int) -> int:
        """The smallest chunk of the loop op's reduction dim `d` (the others
        at 1) whose slices every in-loop producer can compute: 1, or a
        multiple its non-linear indices need (an im2col copy's 3x3 taps: 9)."""
        if not any(self.payload.ops[i].index_grains for i in self.in_loop):
            return 1
        if d not in self._loop_grains:
            op = self.payload.ops[self.loop_op]  # type: ignore[index]
            ones = {(op.index, r): 1 for r in op.reduction_dims() if r != d}
            members = frozenset({self.root.index, op.index}) | self.in_loop
            self._loop_grains[d] = next((s for s in divisors(op.domain[d]) if nest_tiles(
                self.payload, self.root.index, members, tuple(self.root.domain), (), {**ones, (op.index, d): s},
                self.in_loop) is not None), op.domain[d])
        return self._loop_grains[d]

    def axes(self) -> NestAxes:
        """The root's axis groups, merged as this target merges them (on CPUs, transposes into contractions)."""
        return NestAxes(self.payload, self.root.index, self.axis_map, self.cpu is not None)

    def parallel_axes(self, members: frozenset[int]) -> set[str]:
        """Root axes a parallel loop may tile: x and y of the merged groups
        (not r), and only those every member iterates over -- a producer
        without the axis would be recomputed for every tile along it."""
        axes = self.axes()
        common = set(axes.names(self.root.index))
        try:
            for idx in [*sorted(members - {self.root.index} - self.in_loop, reverse=True), *self.consumers]:
                axes.add(idx)
                common &= set(axes.names(idx))
        except MergeError:
            return set()
        return (set(axes.groups.x) | set(axes.groups.y)) & common

    def search_dims(self, members: frozenset[int]) -> list[SearchDim]:
        if members not in self._dims:
            self._dims[members] = self._search_dims(members)
        return self._dims[members]

    def _search_dims(self, members: frozenset[int]) -> list[SearchDim]:
        inner = dict(self.root.unpacked_tiles)
        least = outer_least(self.root, self.cpu) if self.cpu is not None else {}
        grain = outer_grain(self.root, self.cpu) if self.cpu is not None else {}
        kernel = self.cpu is not None and is_multiply_accumulate(self.root)
        dims = [_register_preference(SearchDim(("d", d), self.root.domain[d],
                                               multiple=lcm(inner.get(d, 1), self.dim_grain(members, d) or 1),
                                               least=least.get(d, 1), grain=grain.get(d, 1)), kernel,
                                     indexed=d not in inner and (self.dim_grain(members, d) or 1) > 1,
                                     cores=self.cores if self.pays_for_cores(members) else 1)
                for d in self.tileable_dims(members)]
        # A gather redone along a dim it does not have (_redoes): one tile per core there, no more.
        dims = [replace(s, multiple=lcm(s.multiple, n // self.cores if n % self.cores == 0 else n))
                if self.in_loop and not self._all_move(members, s.key[1]) else s
                for s in dims for n in [s.extent]]
        if self.consumers:  # consumers are fused into the forall level: no reduction loops
            return dims[:1] if self.loop_kind == "scf.for" else dims
        # Only the root's reduction dims are ever tiled: producers are fused
        # with whole reduction dims (the probe below makes sure they fit so),
        # and the loop that in-loop producers are fused into.
        tiled = [self.root.index] + ([self.loop_op] if self.loop_op not in (None, self.root.index) else [])
        return dims + [self._reduction_dim(i, d) for i in tiled for d in self.payload.ops[i].reduction_dims()
                       if self.payload.ops[i].index_grain(d) != 0]

    def _reduction_dim(self, op: int, d: int) -> SearchDim:
        grain = reduction_grain(self.payload.ops[op]).get(d, 1) if self.cpu is not None else 1
        loop = self.loop_grain(d) if op == self.loop_op and self.in_loop else 1
        dim = SearchDim(("r", op, d), self.payload.ops[op].domain[d], grain=grain,
                        multiple=lcm(self.payload.ops[op].index_grain(d) or 1, loop))
        if self._one_trip_loop(op) or (op == self.loop_op and d not in _loop_dims(self.payload.ops[op])
                                       and self._in_loop_pads()):
            dim = replace(dim, least=dim.extent)  # (a window's taps: an in-loop pad keeps its padded dims whole)
        return dim

    def _one_trip_loop(self, op: int) -> bool:
        """CPU targets: whether op `op` is the contraction whose reduction
        loop holds in-loop producers (an im2col copy) and its reduction is
        no longer than k_chunk_floor: then it is not chunked, but kept as a
        loop of one trip to hold them. Each chunk reloads the register
        kernel's output block, and a short reduction's chunks are few FMAs
        each: squeezenet's 3->64 stem (K = 27) in chunks of 9 over tiles of
        3108 pixels took 0.92-1.36 ms on one core, whole over tiles of 333
        0.56-0.59 (interleaved, the convolution alone 1.76x on 1 thread,
        2.41x on 2). Also 1.12 / 1.07x for a 40->240 1x1 convolution onto
        28x28, 1.04 / 1.03x for a 16->64 3x3 one onto 55x55; the rest even."""
        if self.cpu is None or op != self.loop_op or not self.in_loop:
            return False
        if op not in self._one_trip:  # shape() asks for every size the search tries
            o = self.payload.ops[op]
            self._one_trip[op] = len(o.reduction_dims()) == 1 and \
                o.domain[o.reduction_dims()[0]] <= k_chunk_floor(o, self.cpu)
        return self._one_trip[op]

    def shape(self, members: frozenset[int], sizes: Sizes) -> NestShape:
        root_sizes = tuple(sizes.get(("d", d), n) for d, n in enumerate(self.root.domain))
        red = tuple((k[1], k[2], s) for k, s in sizes.items()
                    if k[0] == "r" and k[1] in members and (s < self.payload.ops[k[1]].domain[k[2]]
                                                            or self._one_trip_loop(k[1])))
        return NestShape(self.root.index, members | set(self.consumers), root_sizes, tuple(sorted(red)),
                         self.consumers, self.in_loop)

    def tiled(self, members: frozenset[int], sizes: Sizes) -> TiledNest | None:
        """The members at these tiles, built once for footprint and traffic."""
        nest = self.shape(members, sizes)
        key = (nest.members, nest.root_tiles, nest.reduction_tiles)
        if key not in self._cache:
            self._cache[key] = tiled_nest(self.payload, nest, self.alignment)
        return self._cache[key]

    def footprint(self, members: frozenset[int], sizes: Sizes) -> Footprint | None:
        tiled = self.tiled(members, sizes)
        return tiled.footprint() if tiled is not None else None

    def fits(self, members: frozenset[int], sizes: Sizes) -> bool:
        if not self.allowed(members, sizes):
            return False
        fp = self.footprint(members, sizes)
        return fp is not None and fp.total <= self.budget

    def allowed(self, members: frozenset[int], sizes: Sizes) -> bool:
        """The rules besides the footprint (the precise check measures that one)."""
        if not self.keeps_order(sizes):
            return False
        if self.loop_op is not None and not self._one_trip_loop(self.loop_op) and all(
                sizes.get(("r", self.loop_op, d), n) == n for d, n in enumerate(self.payload.ops[self.loop_op].domain)):
            return False  # in-loop producers need the loop
        if self.redone(members, sizes) > max(1, self.cores):
            return False  # a gather redone at most once per core (_redoes)
        if not self.pads_whole(members, sizes):
            return False
        return self.enough_tiles(members, sizes) and self.panels_in_l1(members, sizes)

    def pads_whole(self, members: frozenset[int], sizes: Sizes) -> bool:
        """Whether each in-loop pad's tile holds its padded dims whole: its
        padding is then static, the zero-slice guard that fusing a pad puts
        around its tile folds away, and the tile is written in place (a fill
        and its source's chunk). Cut along a padded dim, its padding is
        dynamic (see cpu_levels' pad tiling)."""
        pads = self._in_loop_pads()
        if not pads:
            return True
        tiled = self.tiled(members, sizes)
        return tiled is not None and all(_pad_whole(self.payload.ops[i], tiled.inner(i)) for i in pads)

    def _in_loop_pads(self) -> list[int]:
        return [i for i in self.in_loop if self.payload.ops[i].name == "tensor.pad"]

    def panels_in_l1(self, members: frozenset[int], sizes: Sizes) -> bool:
        """CPU targets: where the search chunks a register kernel's reduction,
        the panel that kernel copies and reads again for every row tile
        (cpu_levels.panel_bytes) takes at most half of L1, so the row operand
        streams past it without evicting it. ResNet-18's layer-4 convolution
        read 768x16 panels, all of a 48 KiB L1: 1.24-1.38 ms on one core,
        1.17 ms with chunks of 384. A whole reduction is left whole: a chunk
        costs nothing more once the output tile stays in L2 across a chunk
        loop, but a loop where there was none does (ViT's attention over
        197 keys would no longer hold its softmax)."""
        if self.cpu is None:
            return True
        chunked = {k[1] for k, n in ((d.key, d.extent) for d in self.search_dims(members))
                   if k[0] == "r" and sizes.get(k, n) < n}
        tiled = self.tiled(members, sizes) if chunked else None
        return tiled is None or all(
            panel_bytes(self.payload.ops[i], [t.size for t in tiled.inner(i)], self.cpu, members)
            <= self.cpu.l1_bytes // 2
            for i in chunked & members)

    def keeps_order(self, sizes: Sizes) -> bool:
        """Reduction tiles that keep the untiled summation order (tile_search.keeps_order)."""
        ops = {k[1] for k in sizes if k[0] == "r"}
        return all(keeps_order([(sizes.get(("r", i, d), self.payload.ops[i].domain[d]), self.payload.ops[i].domain[d])
                                for d in self.payload.ops[i].reduction_dims()]) for i in ops)

    def forall_tiles(self, members: frozenset[int], sizes: Sizes) -> int:
        """Tiles of the nest's forall at these sizes."""
        return prod(tile_count(d.extent, sizes.get(d.key, d.extent)) for d in self.search_dims(members)
                    if d.key[0] == "d")

    def short_of_cores(self, members: frozenset[int], sizes: Sizes) -> bool:
        """A CPU nest whose work would pay for every core (ten times
        the parallel threshold at 60% of peak) but whose forall has fewer
        tiles than cores."""
        if self.cpu is None or self.cores <= 1 or self.forall_tiles(members, sizes) >= self.cores:
            return False
        return self.pays_for_cores(members)

    def pays_for_cores(self, members: frozenset[int]) -> bool:
        """A CPU nest whose work (its ops', a contraction under an epilogue
        root included) pays for every core: ten times the parallel threshold
        at 60% of peak, or in streaming the tensors it reads and writes (a
        classifier head's 4 MB weight for 2 MFLOP)."""
        if self.cpu is None:
            return False
        flops = sum(op_flops(self.payload.ops[i]) for i in members | {self.root.index} | set(self.consumers))
        ms = flops / 1e9 / contraction_gflops(self.cpu) * 1e3
        if ms < 10 * self.cpu.parallel_min_ms and is_multiply_accumulate(self.root):
            ms = max(ms, streaming_ms(self._tensor_bytes(members) or 0))
        return ms >= 10 * self.cpu.parallel_min_ms

    def enough_tiles(self, members: frozenset[int], sizes: Sizes) -> bool:
        """CPU targets: the forall has at least one tile per core (as many as
        the tileable dims allow), so that every core has work. Tile counts
        fall as sizes grow, so the search stays monotone."""
        if self.cores <= 1:
            return True
        par = [d for d in self.search_dims(members) if d.key[0] == "d"]
        most = prod(tile_count(d.extent, d.options()[0]) for d in par)  # the most tiles the options give
        tiles = self.forall_tiles(members, sizes)
        return tiles >= min(self.cores, most) and self.balanced(members, tiles, most)

    def balanced(self, members: frozenset[int], tiles: int, most: int) -> bool:
        """CPU nests whose work pays for every core: a few tiles are a
        multiple of the cores, so that no core waits for another's last one
        (a 1000x1000 matmul in 5 tiles ran at 66% of peak on 2 cores, 78%
        on one). Smaller nests keep their tiles (ViT's attention by its 3
        heads: by rows instead, it got slower), and so do pads (cut along a
        padded dim instead, their tiles' padding is dynamic). An im2col copy
        does not: it has no FLOPs, but its tiles are what the cores share
        (ViT's patch copy by 256 of 768 taps: three tiles for two cores)."""
        exempt = self.root.name == "tensor.pad" or (not self.pays_for_cores(members) and not self.root.index_grains)
        return exempt or even_shares(tiles, self.cores) or tiles == most

    def minimal(self, members: frozenset[int]) -> Sizes:
        # 1, or an unpack's inner tile (not a CPU's register-sized least or K grain: those are preferences)
        return {d.key: replace(d, least=1, grain=1).options()[0] for d in self.search_dims(members)}

    def traffic_searched(self, members: frozenset[int]) -> bool:
        """Whether the nest's tiles are chosen for least traffic: a
        contraction among the members (memory and CPU targets alike; on CPU
        targets within the divisor, register and K-step rules)."""
        return any(is_multiply_accumulate(self.payload.ops[i]) for i in members)

    def structure(self, members: frozenset[int]) -> tuple:
        """The nest's ops, shapes, maps and loop kinds relative to the root,
        and the target's figures: what makes two nests plan alike."""
        root = self.root.index
        shapes = _op_shapes(self.payload, members | set(self.consumers), root)
        return (shapes, tuple(c - root for c in self.consumers), tuple(self.order), self.loop_kind,
                self.budget, self.alignment, self.cores, self.cpu is None,
                tuple(sorted(i - root for i in self.in_loop)), None if self.loop_op is None else self.loop_op - root,
                self.redo_gathers)

    def signature(self, members: frozenset[int]) -> tuple:
        """Everything the tile search reads, relative to the root: nests of
        the same ops, shapes and maps (a model's repeated layers, a chain's
        steps) get the same tiles, searched once."""
        # The dims it may tile come from the payload's axis groups too (a transpose's dims are x or y by
        # what reads its result).
        dims = tuple((_shift(d.key, -self.root.index), d.extent, d.least, d.grain, d.multiple)
                     for d in self.search_dims(members))
        return (self.structure(members), dims)

    def search(self, members: frozenset[int]) -> Sizes | None:
        key = self.signature(members)
        root = self.root.index
        if key not in _SEARCHED:
            found = self._search(members)
            found = None if found is None else self._whole_register_rows(members, found)
            _SEARCHED[key] = None if found is None else {_shift(k, -root): v for k, v in found.items()}
        found = _SEARCHED[key]
        return None if found is None else {_shift(k, root): v for k, v in found.items()}

    def _search(self, members: frozenset[int]) -> Sizes | None:
        start = fit_tiles(self.search_dims(members), lambda s: self.fits(members, s))
        # CPU: when nothing fits with whole panels, register-sized tiles and K chunks, first tiles
        # that are not whole panels, then smaller ones
        for relax in ({"grain"}, {"grain", "least"}):
            if start is not None or not any(d.least > 1 or d.grain > 1 for d in self.search_dims(members)):
                break
            self._dims[members] = [replace(d, grain=1 if d.key[0] == "d" or "least" in relax else d.grain,
                                           least=1 if d.key[0] == "d" and "least" in relax else d.least)
                                   for d in self.search_dims(members)]
            start = fit_tiles(self.search_dims(members), lambda s: self.fits(members, s))
        if start is None:
            return None
        if not self.traffic_searched(members):
            return self._fewer_tiles(members, start)
        # Also a K loop around a fused contraction's tile (the output tile stays local across it), unless
        # consumers are fused: they join at the forall level. Not on CPU targets: the register kernel
        # computes the contraction in its epilogue's (the root's) register tiles, which need the whole K.
        macs = [] if self.consumers or self.cpu is not None else \
            [i for i in members if is_multiply_accumulate(self.payload.ops[i])]
        dims = self.search_dims(members) + [
            self._reduction_dim(i, d) for i in sorted(macs)
            if i not in (self.root.index, self.loop_op) and i not in self.in_loop
            for d in self.payload.ops[i].reduction_dims()]
        start = {d.key: start.get(d.key, d.extent) for d in dims}
        if (whole := self._whole_reduction(members, dims)) is not None:
            dims, start = whole
        elif (long := self._long_chunks(members, dims)) is not None:
            found = self._least_traffic(members, *long)
            if self._flop_bound(members, found):
                return found
        return self._least_traffic(members, dims, start)

    def _least_traffic(self, members: frozenset[int], dims: list[SearchDim], start: Sizes) -> Sizes:
        """The sizes of least traffic cost, searched from `start` (which fits)."""
        # Never more bytes than the largest tiles move: fewer iterations alone do not pay for traffic.
        ceiling = self.traffic(members, start)

        # A chunk of an op's innermost reduction dim (the contiguous one: a
        # matmul's K, an NHWC convolution's channels) moves whole bursts: at
        # least the alignment (16 f32 at 64 bytes), or what the largest tiles had.
        dims = [replace(d, least=max(d.least, min(start[d.key], self.alignment // self._element_bytes(d.key[1]))))
                if d.key[0] == "r" and d.key[2] == self.payload.ops[d.key[1]].reduction_dims()[-1] else d
                for d in dims]

        limit = ceiling.total if ceiling else None

        def cost(s: Sizes) -> float | None:
            return self.cost(members, s, limit)

        def bound(s: Sizes) -> float | None:
            return self.traffic_cost(members, s, limit)

        best = self._descend(members, dims, start, cost, bound)
        # Then partial tiles from there (a remainder tile, bounded by the full
        # one): divisors first, so that a move to a non-divisor must pay for
        # itself. Only where every member reads plain dims: a window (a
        # convolution's input) of a partial tile is sized by affine.apply
        # chains that check cannot bound. Not on CPU targets: a forall's partial
        # tile would make every register tile below it dynamic (scalar).
        if self.cpu is None and all(_plain(self.payload.ops[i]) for i in members):
            best = self._descend(members, [replace(d, partial=True) for d in dims], best, cost, bound)
        extents = {d.key: d.extent for d in dims}
        # a whole K needs no loop, but the one that in-loop producers are fused into
        return {k: v for k, v in best.items() if k[0] == "d" or v < extents[k] or self._one_trip_loop(k[1])}

    def _whole_reduction(self, members: frozenset[int], dims: list[SearchDim]) -> tuple[list[SearchDim], Sizes] | None:
        """CPU targets: the search dims without the root contraction's
        reduction, and the largest tiles that fit so, when the nest's tensors
        fit in half of L3. Every tiling then moves the same bytes from memory
        (re-reads hit L3), so the register kernel decides, and it runs fastest
        over a whole reduction: each chunk reloads its output block, and the
        output tile of a chunk loop outgrows L2 (AVX2, 512 KiB L2, 1 thread:
        1024³ in [128, 64] tiles by the whole K, 28 ms against 32.5 in
        [512, 256] by chunks of 128; 512³ 3.6 against 4.1 ms). Larger
        tensors keep their chunks (2048³ by the whole K: 319 ms against 259),
        unless their row blocks are walked in order and what those read again
        fits in half of L3 (_rereads_in_l3)."""
        if self.cpu is None or not is_multiply_accumulate(self.root) or self.in_loop:
            return None  # a loop holding a copy: its chunks are searched (_reduction_dim)
        reduction = [d for d in dims if d.key[0] == "r" and d.key[1] == self.root.index]
        moved = self._tensor_bytes(members)
        if not reduction or moved is None:
            return None
        kept = [d for d in dims if d not in reduction]
        start = fit_tiles(kept, lambda s: self.fits(members, s))
        if start is None or (2 * moved > self.cpu.l3_bytes and not self._rereads_in_l3(members, start)):
            return None
        return kept, start

    def _whole_register_rows(self, members: frozenset[int], sizes: Sizes) -> Sizes:
        """CPU targets: `sizes` with the row loop's blocks (rows_in_order) the
        largest multiple of its kernel's full register rows that fits
        (register_row_step), over half the searched block, with at least
        MIN_FULL_ROW_TILES blocks whole, the last block partial; where the
        searched block gives that kernel fewer rows. The row operand is read
        once per column block whatever the blocks, so the traffic is the
        same. AVX2, interleaved against 4-row tiles (8 accumulators; 32 =
        5 x 6 + 2 and 128 = 21 x 6 + 2 keep too few rows for 6): 2048³ in
        60-row blocks (was 32) 1.08x at 1 thread and 1.06x at 2; 512³ in
        126-row blocks (was 128) 1.05x and 1.10x. The kernel peels its rows
        in every block (RegisterKernel.last_block_rows)."""
        order = self.row_order(members, sizes)
        tiled = self.tiled(members, sizes)
        if order is None or tiled is None:
            return sizes
        step = register_row_step(self.payload, self.root.index, order,
                                 {i: tiled.inner(i) for i in tiled.members}, self.cpu)
        if step is None:
            return sizes
        key, n = ("d", order.rows[0]), self.root.domain[order.rows[0]]
        now = sizes.get(key, n)
        for rows in range(n // (MIN_FULL_ROW_TILES * step) * step, now // 2, -step):
            trial = {**sizes, key: rows}
            if self.fits(members, trial) and (o := self.row_order(members, trial)) is not None \
                    and o.rows == order.rows and o.parts == 1:
                return trial
        return sizes

    def _rereads_in_l3(self, members: frozenset[int], sizes: Sizes) -> bool:
        """Whether rows_in_order takes the nest at these sizes, and what its
        row loops read again for every column block (every input but the
        packed panel's operand) fits in half of L3: those re-reads then hit
        L3 however large the rest is, as the panel leaves memory once per
        column block (2048³ on AVX2, 1 thread: by the whole K, 64 columns by
        32 rows, 239 ms; in [256, 256] tiles by chunks of 256, 285; numpy 232)."""
        order = self.row_order(members, sizes)
        untiled = self.traffic(members, {})
        if order is None or untiled is None or self.cpu is None:
            return False
        panel = self.payload.ops[order.op].operands[order.operand]
        return 2 * (untiled.read - prod(panel.shape) * panel.element_bytes) <= self.cpu.l3_bytes

    def _long_chunks(self, members: frozenset[int], dims: list[SearchDim]) -> tuple[list[SearchDim], Sizes] | None:
        """CPU targets: the search dims with the root contraction's
        contiguous reduction in chunks of at least its k_chunk_floor, and
        the largest tiles that fit so; None when none fit, or the chunks
        are that long anyway. Each chunk reloads the register kernel's
        output block, and the tiles of least traffic are large enough for
        that block to come from L3."""
        if self.cpu is None or not is_multiply_accumulate(self.root) or not self.root.reduction_dims() \
                or self.in_loop:  # an im2col copy in the K loop: its chunk is the copy's (see _reduction_dim)
            return None
        key = ("r", self.root.index, self.root.reduction_dims()[-1])
        dim = next((d for d in dims if d.key == key), None)
        if dim is None:
            return None
        floor = max((o for o in dim.options() if o <= k_chunk_floor(self.root, self.cpu)), default=dim.least)
        if floor <= dim.least:
            return None
        longer = [replace(d, least=floor) if d is dim else d for d in dims]
        start = fit_tiles(longer, lambda s: self.fits(members, s))
        return None if start is None else (longer, start)

    def _flop_bound(self, members: frozenset[int], sizes: Sizes) -> bool:
        """Whether the nest at these sizes moves its bytes in less time than
        its contraction computes (cpu_levels.bound_by_flops)."""
        traffic = self.traffic(members, sizes)
        return traffic is not None and self.cpu is not None and \
            bound_by_flops(op_flops(self.root), traffic.total, self.cpu)

    def traffic(self, members: frozenset[int], sizes: Sizes) -> Traffic | None:
        """The nest's main-memory traffic at these sizes (shape_traffic); on
        CPU targets, where rows_in_order will walk its row blocks in an
        scf.for, that nest's (row_loop_traffic): the search then prefers wide
        column blocks, which read the row operand fewer times (1024³ on AVX2,
        1 thread: 128 columns by 64 rows against 64 by 128, 32.9 against 35.2
        ms in one run, 32.0 against 32.6 in another; numpy 31.7 and 29.9)."""
        order = self.row_order(members, sizes)
        shape = self.shape(members, sizes)
        if order is None:
            return shape_traffic(self.payload, shape, tiled=self.tiled(members, sizes))
        rows = order.rows
        return row_loop_traffic(self.payload, self.root.index, members,
                                order.forall_sizes(self.root.domain, shape.root_tiles),
                                [s if d in rows else 0 for d, s in enumerate(shape.root_tiles)])

    def row_order(self, members: frozenset[int], sizes: Sizes) -> RowOrder | None:
        """The row loop rows_in_order would give the nest at these sizes: a
        one-level forall nest on a CPU target, its reductions whole, with no
        consumers or producers fused into a loop."""
        if self.cpu is None or self.consumers or self.in_loop or self.loop_op is not None \
                or self.loop_kind != "scf.forall" or self.shape(members, sizes).reduction_tiles:
            return None
        tiled = self.tiled(members, sizes)
        if tiled is None:
            return None
        return row_order(self.payload, self.root.index, {i: tiled.inner(i) for i in tiled.members},
                         self.shape(members, sizes).root_tiles, self.cpu, self.untiled)

    def _tensor_bytes(self, members: frozenset[int]) -> int | None:
        """The bytes the nest moves untiled: each tensor it reads or writes, once."""
        traffic = self.traffic(members, {})
        return None if traffic is None else traffic.total

    def _fewer_tiles(self, members: frozenset[int], start: Sizes) -> Sizes:
        """Memory targets, where the largest divisor tiles fill less than half
        the budget: the largest tiles that fit among partial ones too, if
        they take fewer tiles (a 197-row nest in 2 tiles of 99, not 197 of 1).
        Divisors that fill the budget stay. Only where every member reads
        plain dims (see _search), and the forall dims only (sums keep their order).
        CPU targets split such a nest only to give every core a tile (_tile_per_core)."""
        if self.cpu is not None:
            return self._tile_per_core(members, start)
        fp = self.footprint(members, start)
        if not all(_plain(self.payload.ops[i]) for i in members) or fp is None or 2 * fp.total >= self.budget:
            return start
        dims = [replace(d, partial=True) if d.key[0] == "d" else d for d in self.search_dims(members)]
        wide = fit_tiles(dims, lambda s: self.fits(members, s))
        if wide is None:
            return start
        before, after = (prod(tile_count(d.extent, s.get(d.key, d.extent)) for d in dims) for s in (start, wide))
        return wide if after < before else start

    def _tile_per_core(self, members: frozenset[int], start: Sizes) -> Sizes:
        """CPU targets: a nest without a register kernel whose forall has
        fewer tiles than cores, though it takes one core long enough to be
        worth them, gets one tile per core along the whole parallel dim
        (not its vector dim) that splits most evenly, the last tile short:
        ViT's layer norms over 197 tokens (a prime: no divisor of 8 rows or
        more but 197) ran on one core in one tile. Register tiles take 1
        along such a dim (cpu_levels._one_along: a short tile's rows are
        dynamic), so only where no member has a register kernel, and only
        where every member reads plain dims (see _search)."""
        ops = [self.payload.ops[i] for i in members]
        traffic = self.traffic(members, start)
        if self.cores <= 1 or self.forall_tiles(members, start) >= self.cores or traffic is None \
                or any(is_multiply_accumulate(o) or not _plain(o) for o in ops) \
                or not worth_cores(self.payload, sorted(members), traffic.total, self.cpu):
            return start
        v = vector_dim(self.root)
        whole = [d for d in self.search_dims(members) if d.key[0] == "d" and d.key[1] != v
                 and d.extent >= self.cores and start.get(d.key, d.extent) == d.extent]
        if not whole:
            return start
        # the most even split: 197 tokens in 99 and 98 rather than 3 heads in 2 and 1
        d = min(whole, key=lambda d: -(-d.extent // self.cores) / d.extent)
        split = {**start, d.key: -(-d.extent // self.cores)}
        return split if self.fits(members, split) else start

    def _element_bytes(self, op: int) -> int:
        return max(o.element_bytes for o in self.payload.ops[op].operands)

    def _descend(self, members: frozenset[int], dims: list[SearchDim], start: Sizes,
                 cost: Callable[[Sizes], float | None], bound: Callable[[Sizes], float | None]) -> Sizes:
        """Least-cost sizes: a local search from the cheapest of `start` and
        the frontier's spread points, with the reduction chunks giving room."""
        room = [d.key for d in dims if d.key[0] == "r"]
        seeds = [start] + frontier_starts(dims, lambda s: self.fits(members, s), room)
        priced = [(c, i) for i, s in enumerate(seeds) if (c := cost(s)) is not None]
        return least_cost(dims, cost, seeds[min(priced)[1]], make_room=room, bound=bound)

    def cost(self, members: frozenset[int], sizes: Sizes, ceiling: int | None = None) -> float | None:
        """Traffic in bytes plus a small charge per innermost iteration (so
        that many tiny tiles do not tie with a few large ones); None when the
        sizes do not fit, or move more than `ceiling` bytes."""
        if not self.fits(members, sizes):
            return None
        return self.traffic_cost(members, sizes, ceiling)

    def traffic_cost(self, members: frozenset[int], sizes: Sizes, ceiling: int | None = None) -> float | None:
        """`cost` without the fit test: what the search prunes by."""
        shape = self.shape(members, sizes)
        traffic = self.traffic(members, sizes)
        if traffic is None or (ceiling is not None and traffic.total > ceiling):
            return None
        trips = prod(tile_count(self.payload.ops[i].domain[d], s) for i, d, s in shape.reduction_tiles)
        return traffic.total + PANEL_CHARGE * self._panel_bytes(members, sizes) \
            + TILE_OVERHEAD_BYTES * traffic.tiles * trips

    def panel_waste(self, members: frozenset[int], sizes: Sizes) -> float:
        """On CPU targets, the largest share of empty columns in the panels of
        the members' register kernels at their forall tiles (cpu_levels.panel_waste)."""
        if self.cpu is None:
            return 0.0
        tiled = self.tiled(members, sizes)
        return max(panel_waste(self.payload.ops[i], [t.size for t in tiled.inner(i)], self.cpu) for i in members)

    def panel_transposed(self, members: frozenset[int], sizes: Sizes, producer: int) -> bool:
        """On CPU targets, whether a member's register kernel computes
        `producer` per panel (cpu_levels.transposes_panel): its tile at the
        forall level is never written then, and it costs the nest no more
        than reading its input."""
        if self.cpu is None or self.loop_kind != "scf.forall":
            return False
        tiled = self.tiled(members, sizes)
        return any(transposes_panel(self.payload, self.payload.ops[u.index], producer,
                                    [t.size for t in tiled.inner(u.index)], self.cpu)
                   for u in users(self.payload.ops[producer]) if u.kind == "op" and u.index in members)

    def _panel_bytes(self, members: frozenset[int], sizes: Sizes) -> int:
        """On CPU targets, the bytes of the operands that the register kernels
        read panel by panel (a matmul's B). Of tiles that move as many bytes,
        those that read fewer of them run faster: a panel comes in short
        strided rows, copied before its kernels start or by the first row
        tile, not streamed under the arithmetic like the other operand
        (2048³: [256, 512] and [512, 256] tiles both move 192 MiB, and read B
        8 and 4 times; 75% of peak against 82%)."""
        if self.cpu is None:
            return 0
        tiled, shape = self.tiled(members, sizes), self.shape(members, sizes)
        extra = 0
        for i in members:
            k = panel_operand(self.payload.ops[i], [t.size for t in tiled.inner(i)], self.cpu)
            if k is None:
                continue
            value = self.payload.ops[i].operands[k].value
            if not (value.kind == "op" and value.index in shape.members):  # a member's result never moves
                extra += operand_traffic(self.payload, shape, tiled, i, k)
        return extra


def _register_preference(dim: SearchDim, kernel: bool = False, indexed: bool = False, cores: int = 1) -> SearchDim:
    """`dim` without a CPU's register-sized least and grain where no size but
    the whole extent honours them together with the multiple a non-linear
    index needs: an im2col copy's 196 output pixels (multiples of 14, grain
    32) were one tile, one core of two (0.115 ms of a ResNet block). Its
    tiles stay divisors, so that the cores get equal shares. The dim of a
    register kernel's root (`kernel`: a matmul that computes its im2col
    copy in its tiles) keeps whole vectors where a multiple of one divides:
    784 pixels in rows of 28 as tiles of 112, in full panels, not 196 (a
    last panel of 4 columns); unless those tiles leave the `cores` unequal
    shares (7 tiles of 112 for 2 cores: 4 and 3), where any multiple of
    the rows may be tried (392, its copy then in the reduction loop:
    _k_loop_fusion). Where the multiple comes from a non-linear
    index (`indexed`, not an unpack's inner tile), tiles are divisors too,
    not multiples with a remainder: an im2col copy's 4608 rows of 9 taps
    were tiles of 4518 and 90 for two cores. Whole panels that divide the
    extent are held to the same shares: AVX2's panels of 16 divide 784
    pixels in rows of 28 as 7 tiles of 112, and ResNet-18's 128 > 128
    convolution onto 28x28 took 1.44 ms on 2 threads, 1.15 at 392 pixels
    a core (the Zen 3 plan on a Zen 4)."""
    both = lcm(dim.multiple, dim.grain)
    if 1 < dim.multiple < dim.extent and (both >= dim.extent or dim.extent % both
                                          or (kernel and not even_shares(dim.extent // both, cores))):
        vector = lcm(dim.multiple, dim.grain // 2)
        if kernel and dim.grain > 1 and vector < dim.extent and dim.extent % vector == 0 and \
                even_shares(dim.extent // vector, cores):
            return replace(dim, least=1, grain=vector)
        return replace(dim, least=1, grain=dim.multiple)
    if indexed and dim.grain == 1 and 1 < dim.multiple < dim.extent:
        return replace(dim, grain=dim.multiple)
    return dim


def _op_shapes(payload: Payload, ops: frozenset[int] | set[int], root: int) -> tuple:
    """Ops with their shapes and maps, numbered relative to `root`, their
    operands' sources inside `ops` likewise: equal for a model's repeated layers."""
    def source(v: ValueRef) -> tuple:
        if v.kind == "op" and v.index in ops:
            return ("member", v.index - root, v.result)
        return ("other", payload.others[v.index].name) if v.kind == "other" else (v.kind,)

    return tuple((i - root, op.name, op.domain, op.iterators,
                  tuple((source(o.value), o.shape, o.element_bytes, o.is_init, o.indexing_map, o.reads)
                        for o in op.operands),
                  tuple((r.shape, r.element_bytes) for r in op.results))
                 for i in sorted(ops) for op in [payload.ops[i]])


# Tile searches of the plan being made, by nest signature (_Nest.signature),
# sizes keyed relative to the root.
_SEARCHED: dict[tuple, Sizes | None] = {}


def _shift(key: Hashable, by: int) -> Hashable:
    """A search key ("d", dim) as it is; ("r", op, dim) with op moved by `by`."""
    return (key[0], key[1] + by, key[2]) if isinstance(key, tuple) and key[0] == "r" else key


def plan(payload: Payload, target: Target, mode: FuseMode = FuseMode.MAX_PRODUCERS,
         footprint_mode: str = "analytic", strict_groups: bool = False,
         tiling: Callable[[Plan], str] | None = None, source: LoadedPayload | None = None) -> Plan:
    """`footprint_mode` "precise" checks tile sizes by simulating the loop
    body (schedgen.planning.precise) after the analytic search found a start;
    `tiling` gives it a nest's tiling script (schedgen.emit.schedule.tiling_script:
    planning never renders output itself). `strict_groups`: refuse a fuse
    group that cannot share one nest (for back ends that need whole groups)
    instead of splitting it with a note. `source`: the loaded payload the
    simulation extracts nests from (loaded again without it)."""
    if footprint_mode == "precise" and tiling is None:
        raise ValueError("precise footprints need tiling=, the tiling script of a nest")
    checker = PreciseChecker(payload, target, tiling, source) if tiling is not None and footprint_mode == "precise" else None
    _SEARCHED.clear()  # searches are shared by the nests of one plan, never across plans
    try:
        return _plan(payload, target, mode, footprint_mode, checker, strict_groups)
    finally:
        _SEARCHED.clear()
        if checker is not None:
            checker.close()  # its progress bar


def _plan(payload: Payload, target: Target, mode: FuseMode, footprint_mode: str,
          checker: PreciseChecker | None, strict_groups: bool) -> Plan:
    kept_whole: frozenset[int] = frozenset()
    while True:
        state = _Planning(payload, target, mode, checker, strict_groups, kept_whole)
        # A fill some reader does not recompute (an untiled reader, or one whose nest left it out) is
        # computed once, by itself, and fused nowhere: planned again with it kept whole.
        uncovered = state.run()
        if not uncovered:
            break
        kept_whole |= uncovered
    nests, untiled = state.nests, state.untiled
    if mode in (FuseMode.MAX_PRODUCERS, FuseMode.MAX_SIZE):
        nests, untiled = _consumer_fusion(payload, target, nests, untiled, state.groups, checker, state.axis_map,
                                          mode)
    if mode == FuseMode.MAX_PRODUCERS:
        nests = _k_loop_fusion(payload, target, nests, state.groups, checker, state.axis_map)
    untiled.sort(key=lambda u: u.op.index)
    nest_of = {o.index: n.id for n in nests for o in n.ops}
    infos = [GroupInfo(id=g.id, pattern=g.pattern, principal=g.principal, members=list(g.members),
                       nests=sorted({nest_of[m] for m in g.members if m in nest_of}),
                       split=state.split_why.get(g.id))
             for g in state.all_groups]
    result = Plan(payload=payload.path, func=payload.func_name, target=target, fuse_mode=mode,
                  ops=[op_ref(o) for o in payload.ops], nests=nests, untiled=untiled, footprint_mode=footprint_mode,
                  precise_checks=checker.checks if checker else 0, groups=infos, normalize=list(payload.normalize),
                  img2col_convs=list(payload.img2col_convs), transpose_b_matmuls=list(payload.transpose_b_matmuls),
                  placed_pads=list(payload.placed_pads), slice_rounds=payload.slice_rounds,
                  sliced_gemvs=list(payload.sliced_gemvs))
    if target.cpu is not None:
        result.nests = [rows_in_order(payload, n, target.cpu, _untiled_at(result, i))
                        for i, n in enumerate(result.nests)]
    result.nests = [n.model_copy(update={"traffic_bytes": nest_traffic(payload, n).total}) for n in result.nests]
    result.traffic_bytes = plan_traffic(payload, result).total
    result.traffic_lower_bound = lower_bound(payload, target.memory_bytes)
    result.traffic_per_contraction_bound = per_contraction_bound(payload, target.memory_bytes)
    if target.cpu is not None:
        result.kernels, result.inner = cpu_levels(payload, result, target.cpu)
        result.parallel_nests = parallel_nests(payload, result, target.cpu)
        result.copy_chunk = copy_chunk(target.cpu)
    return result


class _Placed(dict[int, int]):
    """Op -> its nest id (0: left untiled), and `recompute`: the producers
    each nest that reads them may compute again, apart from this map (those
    reading no tensor, TileableOp.reads_no_tensor, with several readers)."""

    def __init__(self, recompute: frozenset[int]) -> None:
        super().__init__()
        self.recompute = recompute


def _recomputable(payload: Payload, kept_whole: frozenset[int]) -> frozenset[int]:
    """Producers reading no tensor, read by several tileable ops and by nothing else."""
    return frozenset(o.index for o in payload.ops
                     if o.reads_no_tensor and o.index not in kept_whole and (us := users(o))
                     and all(u.kind == "op" for u in us) and len({u.index for u in us}) > 1)


class _Planning:
    """The producer-driven pass over a payload, consumers first: each op not
    yet in a nest roots a nest of its own (with its fuse groups), is left
    untiled, or has its groups split."""

    def __init__(self, payload: Payload, target: Target, mode: FuseMode, checker: PreciseChecker | None,
                 strict_groups: bool, kept_whole: frozenset[int] = frozenset()) -> None:
        self.payload, self.target, self.mode = payload, target, mode
        self.checker, self.strict_groups = checker, strict_groups
        self.budget = target.memory_bytes
        self.axis_map = AxisMap(payload)
        self.all_groups = find_groups(payload)
        self.groups = list(self.all_groups)  # the groups still kept whole (a split one leaves)
        self.split_why: dict[int, str] = {}  # group id -> why it was split
        self.fused_into = _Placed(_recomputable(payload, kept_whole))
        self.copies: dict[int, list[int]] = {}  # a recomputed op -> the nests computing it
        self.nests: list[LoopNest] = []
        self.untiled: list[UntiledOp] = []
        self._regroup()

    def run(self) -> frozenset[int]:
        """Plan every op, consumers first; the recomputable ops some reader
        did not recompute (planned here on their own as well)."""
        uncovered = set()
        pending = list(reversed(self.payload.ops))
        while pending:
            op = pending.pop(0)
            if op.index in self.copies and op.index not in self.fused_into:
                if self._covered(op):
                    self.fused_into[op.index] = self.copies[op.index][0]
                    continue
                uncovered.add(op.index)
            if op.index not in self.fused_into and not self.place(op):
                pending.insert(0, op)  # its groups were split: planned again on its own
        return frozenset(uncovered)

    def _covered(self, op: TileableOp) -> bool:
        """Whether each reader of a recomputed op sits in a nest that computes it."""
        return all(u.kind == "op" and self.fused_into.get(u.index, 0) in self.copies[op.index] for u in users(op))

    def _regroup(self) -> None:
        self.grouped = {o.index: [g for g in self.groups if o.index in g.members] for o in self.payload.ops}

    def alone(self, i: int) -> int:
        return untiled_footprint(self.payload, self.payload.ops[i], self.target.alignment_bytes).total

    def place(self, op: TileableOp) -> bool:
        """Plan `op`; False when its groups were split instead (plan it again)."""
        payload = self.payload
        # Group atomicity: the op's fuse groups (and groups sharing members
        # with them) are tiled together in one nest, or not at all.
        mine = _closure(self.groups, op.index)
        required = frozenset({op.index} | {m for g in mine for m in g.members
                                           if m not in self.fused_into and m <= op.index})
        # On a multi-core CPU target, ops with parallel dims are tiled even when
        # they fit: the forall is what spreads them across the cores.
        split = self.target.cores > 1 and any(payload.ops[m].parallel_dims() for m in required)
        if all(self.alone(m) <= self.budget for m in required) and not split:
            self.untiled.append(UntiledOp(op=op_ref(op), footprint_bytes=self.alone(op.index),
                                          reason="fits untiled"))
            self.fused_into[op.index] = 0
            return True
        try:
            nest = _plan_nest(payload, op, self.target, self.mode, len(self.nests) + 1, self.fused_into,
                              self.checker, self.axis_map, required,
                              _principal_order(payload, op.index, mine, required, self.axis_map), self.grouped)
        except GroupBroken as exc:
            return self._broken(op, mine, required, exc)
        self._add(nest)
        return True

    def _add(self, nest: LoopNest) -> None:
        for member in nest.ops:
            if member.index in self.fused_into.recompute and member.index != nest.root.index:
                self.copies.setdefault(member.index, []).append(nest.id)
            else:
                self.fused_into[member.index] = nest.id
        self.nests.append(nest)

    def _broken(self, op: TileableOp, mine: list[FuseGroup], required: frozenset[int], exc: GroupBroken) -> bool:
        """A group that cannot share one nest: two levels, a split, a refusal,
        or its ops left untiled."""
        over = [m for m in sorted(required) if self.alone(m) > self.budget]
        can_split = bool(over) and bool(mine) and not self.strict_groups  # no group to split: replanning loops
        two = _two_level_nest(self.payload, op, self.target, required, len(self.nests) + 1, self.axis_map, str(exc))
        costly = _two_level_costly(self.payload, two, required, self.budget) if two is not None and can_split else ""
        if two is not None and not costly:
            self._add(two)
            return True
        if exc.fatal is not None and not costly:
            raise exc.fatal from None
        label = ", ".join(f"#{g.id} {g.pattern}" for g in mine)
        if can_split:
            # Left whole, the group would not fit either: its ops are planned
            # on their own (several nests), and the plan says why.
            why = f"cannot share one loop nest within {self.budget} bytes ({exc}); op{over[0]} alone needs " \
                  f"{self.alone(over[0])} bytes untiled{costly}"
            for g in mine:
                self.split_why[g.id] = why
            self.groups = [g for g in self.groups if g not in mine]
            self._regroup()
            return False
        if over:  # left whole, the group would not fit either: no schedule keeps it in budget
            culprit = self.payload.ops[exc.op]
            ops = ", ".join(f"op{m}" for m in sorted(required))
            raise SchedgenError(self.payload.where(culprit), f"fuse group {label} ({ops}) cannot share one loop "
                                f"nest within the budget of {self.budget} bytes ({exc}), and op{over[0]} alone "
                                f"needs {self.alone(over[0])} bytes untiled", op=culprit.name)
        for m in sorted(required):
            self.untiled.append(UntiledOp(op=op_ref(self.payload.ops[m]), footprint_bytes=self.alone(m),
                                          reason=f"fuse group {label} cannot share one loop nest ({exc}); "
                                                 "none of its ops is tiled"))
            self.fused_into[m] = 0
        return True


# A two-level nest that moves this many times the bytes its ops need apart is
# refused: blocks small enough to hold a dilated convolution's window re-read
# the whole filter per block (ASPP: 914 MB against 16 MB apart, 10x slower).
_TWO_LEVEL_EXCESS = 4


def _two_level_costly(payload: Payload, two: LoopNest, members: frozenset[int], memory_bytes: int) -> str:
    """Why the group is split rather than tiled on two levels ('' to keep
    them): each op as its own nest needs at least its per-contraction bound."""
    moved = nest_traffic(payload, two).total
    apart = sum(per_contraction_bound(payload, memory_bytes, [m]) for m in members)
    if moved <= _TWO_LEVEL_EXCESS * apart:
        return ""
    return f"; two levels would move {moved / 1e6:.2f} MB, against at least {apart / 1e6:.2f} MB with its ops apart"


def _untiled_at(plan: Plan, i: int) -> frozenset[int]:
    """The ops still untiled when the schedule reaches plan.nests[i]: those of
    the nests after it (it emits them in order, consumers first) and those
    left untiled."""
    return frozenset({o.index for n in plan.nests[i + 1:] for o in n.ops} | {u.op.index for u in plan.untiled})


def _closure(groups: list[FuseGroup], op: int) -> list[FuseGroup]:
    """The groups holding `op`, and those sharing members with them."""
    mine = [g for g in groups if op in g.members]
    ops = {m for g in mine for m in g.members}
    changed = True
    while changed:
        changed = False
        for g in groups:
            if g not in mine and ops & set(g.members):
                mine.append(g)
                ops |= set(g.members)
                changed = True
    return mine


def _principal_order(payload: Payload, root: int, groups: list[FuseGroup], required: frozenset[int],
                     axis_map: AxisMap) -> list[int] | None:
    """The root dims the (first) group principal tiles, in the principal's
    dim order (seed: getTilingIterDomainsOrder)."""
    principal = next((g.principal for g in groups if g.principal in required), None)
    if principal is None:
        return None
    names = NestAxes(payload, root, axis_map).names(principal)
    p = payload.ops[principal]
    order = [int(names[d][1:]) for d in p.parallel_dims()
             if names[d].startswith("z") and not names[d].endswith(INNER)]
    root_par = set(payload.ops[root].parallel_dims())
    return [d for d in order if d in root_par]


def _candidates(payload: Payload, op: TileableOp, taken: _Placed) -> list[TileableOp]:
    return [p for p in producers(payload, op) if p.index not in taken or p.index in taken.recompute]


class _MinimalProbe:
    """Max-producers asks, per candidate producer, whether the nest with it
    still fits at its smallest tiles: every tileable root dim at 1, the
    root's reduction dims at 1 only if the root needs that to fit, producers'
    reduction dims whole. Kept incremental so a chain of n ops costs O(n)."""

    def __init__(self, nest: _Nest) -> None:
        self.nest = nest
        root = nest.root
        self.allowed = list(nest.order)
        # The smallest tile per root dim: 1, or coarser where a producer reads through a non-linear index.
        self.least = {d: 1 for d in self.allowed}
        # One state per root dim with only that dim tiled: tells whether a
        # producer still lets the dim be tiled (its slices must agree).
        self.by_dim = {d: TiledNest(nest.payload, root.index, self._sizes([d])) for d in self.allowed}
        self.alignment = nest.alignment
        # The root's reductions are tiled to 1 only if it cannot fit otherwise.
        whole = {("d", d): 1 for d in self.allowed}
        self.reduced = {} if nest.fits(frozenset({root.index}), whole) else \
            {(root.index, d): 1 for d in root.reduction_dims()}
        self.state = TiledNest(nest.payload, root.index, self._sizes(self.allowed), self.reduced, self.alignment)

    def _sizes(self, tiled: list[int], least: dict[int, int] | None = None) -> tuple[int, ...]:
        least = least or self.least
        return tuple(least.get(d, 1) if d in tiled else n for d, n in enumerate(self.nest.root.domain))

    def copy(self) -> _MinimalProbe:
        """A probe to try producers on without changing this one."""
        other = copy.copy(self)
        other.allowed, other.state, other.least = list(self.allowed), self.state.copy(), dict(self.least)
        other.by_dim = {d: t.copy() for d, t in self.by_dim.items()}
        return other

    def _coarser(self, d: int, idx: int, members: frozenset[int]) -> TiledNest | None:
        """The state of root dim `d` alone tiled at the smallest multiple of
        its least tile at which producer `idx` gets its slice too (an im2col
        copy's whole output rows), with `idx` in; None when only whole."""
        if not self.nest.payload.ops[idx].index_grains:
            return None
        size = self.nest.dim_grain(members | {idx}, d)
        if size is None or size % self.least[d]:
            return None
        state = TiledNest(self.nest.payload, self.nest.root.index, self._sizes([d], {d: size}))
        return state if all(state.add(i) for i in sorted((members | {idx}) - {self.nest.root.index},
                                                        reverse=True)) else None

    def try_add(self, idx: int, members: frozenset[int], groups: AxisGroups, axes: list[str]) -> str | None:
        """`groups`: the merged groups with `idx`; `axes`: its loop dims' axes."""
        parallel_axes = (set(groups.x) | set(groups.y)) & set(axes)
        still, coarser = [], {}
        for d in self.allowed:
            if f"z{d}" not in parallel_axes:
                continue
            if self.by_dim[d].producer_tiles(idx) is None:
                if (state := self._coarser(d, idx, members)) is None:
                    continue
                coarser[d] = state
            still.append(d)
        least = {**self.least, **{d: state.tiles[self.nest.root.index][d].size for d, state in coarser.items()}}
        rebuilt: TiledNest | None = None
        if still != self.allowed or coarser:  # the producer pins some root dims whole or coarser: start over
            rebuilt = TiledNest(self.nest.payload, self.nest.root.index, self._sizes(still, least), self.reduced,
                                self.alignment)
            ok = all(rebuilt.add(i) for i in sorted((members | {idx}) - {self.nest.root.index}, reverse=True))
            total = rebuilt.total if ok else None
        else:
            delta = self.state.delta(idx)
            total = None if delta is None else self.state.total + delta
        if total is None:
            return "the nest ops that read it need different slices of it"
        if total > self.nest.budget:
            return f"does not fit in the budget even with 1-element tiles ({total} bytes)"
        if rebuilt is not None:
            self.state, self.allowed, self.least = rebuilt, still, least
            self.by_dim = {d: self.by_dim[d] for d in still}
        else:
            self.state.add(idx)
        self.by_dim.update(coarser)  # idx is in those already
        for d, state in self.by_dim.items():
            if d not in coarser:
                state.add(idx)
        return None


class GroupBroken(Exception):
    """A fuse group cannot share one loop nest (the plan leaves it untiled,
    or refuses when it does not fit untiled either). `op`: the member that
    breaks it; `fatal`: the error to raise if no two-level nest holds it
    either (the root alone does not fit at its smallest tile)."""

    def __init__(self, message: str, op: int, fatal: SchedgenError | None = None) -> None:
        super().__init__(message)
        self.op = op
        self.fatal = fatal


def _plan_nest(payload: Payload, root: TileableOp, target: Target, mode: FuseMode, nest_id: int,
               taken: _Placed, checker: PreciseChecker | None, axis_map: AxisMap,
               required: frozenset[int] = frozenset(), order: list[int] | None = None,
               grouped: dict[int, list[FuseGroup]] | None = None) -> LoopNest:
    """`required`: fuse-group members that must join the nest (GroupBroken
    otherwise); `order`: root dims the group's principal tiles, in its order.
    Planned again without the producers that would write the root's
    destination at other tiles than the root (_writes_root_dest_elsewhere)."""
    args = (payload, root, target, mode, nest_id, taken, checker, axis_map, required, order, grouped)
    banned: dict[int, str] = {}
    while True:  # other tiles without a producer may make another one write elsewhere: until none does
        made, axes = _plan_nest_once(*args, banned)
        tiled = frozenset(f"z{d}" for d, (t, n) in enumerate(zip(made.tile_sizes, root.domain)) if 0 < t < n)
        more = {m.index: why for m in made.ops if m.index != root.index
                and (why := _writes_root_dest_elsewhere(payload, root, payload.ops[m.index], axes, tiled))}
        if not more:
            return made
        banned |= more


def _plan_nest_once(payload: Payload, root: TileableOp, target: Target, mode: FuseMode, nest_id: int,
                    taken: _Placed, checker: PreciseChecker | None, axis_map: AxisMap, required: frozenset[int],
                    order: list[int] | None, grouped: dict[int, list[FuseGroup]] | None,
                    banned: dict[int, str]) -> tuple[LoopNest, NestAxes]:
    """`banned`: ops that may not join, with the reason. The nest and its axes."""
    grouped = grouped or {}
    nest = _Nest(payload, root, target, axis_map, order)
    nest.untiled = frozenset(o.index for o in payload.ops if not taken.get(o.index))
    axes = nest.axes()
    alone = frozenset({root.index})
    _root_fits(payload, nest, root, target, required)
    notes: list[Note] = []
    has_loop = bool(root.parallel_dims())
    if required - alone and not has_loop:
        raise GroupBroken(f"op{root.index} has no parallel dim to build a loop around", root.index)
    probe = _MinimalProbe(nest) if has_loop else None
    # Group members first: they must all join, whatever the fuse mode.
    members = _grow(payload, root, alone, taken, axes, probe, notes,
                    lambda i: banned.get(i) if i in required else "", must=True)
    if not required <= members:
        missing = sorted(required - members)
        raise GroupBroken(f"op{missing[0]} {payload.ops[missing[0]].name} is not a producer of op{root.index} "
                          "(consumer fusion is not planned yet)", missing[0])

    joined: list[frozenset[int]] = []  # other fuse groups that joined whole

    def optional(i: int) -> str | None:  # a member of another fuse group joins only with its group
        if i in banned:
            return banned[i]
        gids = [g.id for g in grouped.get(i, []) if not set(g.members) <= required.union(*joined)]
        return f"it belongs to fuse group #{gids[0]}, which is tiled as a unit" if gids else None

    def whole_group(i: int) -> frozenset[int]:  # what must join with op i: its groups and those they touch
        ops = {i}
        while True:
            more = {m for o in ops for g in grouped.get(o, []) for m in g.members} - ops
            if not more:
                return frozenset() if ops & banned.keys() else frozenset(ops)  # empty: no group joins
            ops |= more

    # Max-producers may fuse another fuse group whole (a residual add takes the batch-normed
    # convolution it adds to); the other modes fuse what their rules name, one op at a time.
    members, sizes = _grow_by_mode(payload, nest, root, mode, members, taken, axes, probe, notes, optional,
                                   (whole_group, joined) if mode == FuseMode.MAX_PRODUCERS else None)
    if sizes is None:
        sizes = nest.search(members)
    assert sizes is not None  # the root alone fits at its minimal tile
    sizes = _restrict(nest, members, sizes)
    if mode == FuseMode.MAX_PRODUCERS and nest.traffic_searched(members):
        members, sizes = _unfuse_costly(payload, nest, members, sizes, required.union(*joined), notes,
                                        taken.recompute)
    if joined and nest.traffic_searched(members):
        members, sizes = _unjoin_costly(payload, nest, members, sizes, required, joined, target, axis_map, notes,
                                        taken.recompute)
    if checker is None:
        return _loop_nest(payload, nest, members, sizes, nest_id, notes), axes
    return _precise_nest(payload, nest, members, sizes, nest_id, notes, checker), axes



def _unfuse_costly(payload: Payload, nest: _Nest, members: frozenset[int], sizes: Sizes, required: frozenset[int],
                   notes: list[Note], recompute: frozenset[int]) -> tuple[frozenset[int], Sizes]:
    """Max-producers: a fused producer (outside the fuse groups) stays fused
    only if the nest with it moves no more bytes than the nest without it
    plus the producer on its own (reading its inputs and writing its result
    once). Its tiles take room that the root's tiles could use: a larger
    tile of the root may re-read the weights less. On a CPU, it is not fused
    either where it keeps the forall to fewer tiles than cores and the nest
    without it has one per core (a ResNet stem's im2col copy kept its
    convolution on one core: 0.085 ms on 1 and on 2 threads), nor where its
    tiles leave the register kernel more empty panel columns than the nest
    without it (an im2col copy's whole output rows: 98 pixels in panels of
    32, 23% empty, against 196 pixels, 12%; resnet_down_block 0.45 -> 0.50 ms
    fused). A few (PANEL_WASTE) do not outweigh a transpose the kernel
    computes per panel: the nest of its own that it saves (GPT-2's
    1000-token head in 500-column tiles with its weight's transpose, 2%
    against 1%: 0.52 -> 0.48 ms for the layer on one thread)."""
    def moved(ms: frozenset[int], s: Sizes) -> int:
        t = nest.traffic(ms, s)
        assert t is not None
        return t.total

    for p in sorted(members - required - {nest.root.index}, reverse=True):
        if p not in members or not _reads_from_outside(payload.ops[p], members):
            continue  # a fill, or an op on nest values only: it takes no room a larger tile could use
        keep = _reachable(payload, nest.root.index, members - {p})
        dropped = members - keep
        # A kept producer that a dropped op also reads (a fill that is one op's init and another's
        # input) would be computed in the nest and again outside: then nothing is dropped. Unless
        # it is recomputed anyway (a fill read by several nests: the dropped op's nest has its own).
        shared = any(outside_users(payload.ops[i], keep) for i in keep - {nest.root.index} - recompute)
        found = None if dropped & required or shared else nest.search(keep)
        if found is None:
            continue
        found = _restrict(nest, keep, found)
        alone = sum(untiled_traffic(payload, payload.ops[i]).total for i in dropped)
        before, after = moved(members, sizes), moved(keep, found)
        labels = ", ".join(f"op{i} {payload.ops[i].name}" for i in sorted(dropped, reverse=True))
        it, its = ("it", "its") if len(dropped) == 1 else ("them", "their")
        moves = f"{after / 1e6:.2f} MB moved, plus {alone / 1e6:.2f} MB on {its} own, against {before / 1e6:.2f} MB"
        # a transpose the kernel computes per panel costs the nest its input alone, as the tile it
        # replaces would (cpu_levels._with_panel_transpose): only its room weighs, not enough to drop it
        if after + alone < before and not nest.panel_transposed(members, sizes, p):
            notes.append(Note(kind=NoteKind.NOT_FUSED, text=f"{labels} not fused: the nest would move "
                              f"{before / 1e6:.2f} MB with {'it' if len(dropped) == 1 else 'them'}, "
                              f"{after / 1e6:.2f} MB without, plus {alone / 1e6:.2f} MB on {'its' if len(dropped) == 1 else 'their'} own"))
            members, sizes = keep, found
        elif nest.short_of_cores(members, sizes) and not nest.short_of_cores(keep, found):
            notes.append(Note(kind=NoteKind.NOT_FUSED, text=f"{labels} not fused: with {it} the forall has "
                              f"{nest.forall_tiles(members, sizes)} tile(s) for {nest.cores} cores, without "
                              f"{nest.forall_tiles(keep, found)} ({moves})"))
            members, sizes = keep, found
        elif (waste := nest.panel_waste(members, sizes)) > (apart := nest.panel_waste(keep, found)) and \
                not (waste <= PANEL_WASTE and nest.panel_transposed(members, sizes, p)):
            notes.append(Note(kind=NoteKind.NOT_FUSED, text=f"{labels} not fused: with {it}, {waste:.0%} of the "
                              "register kernel's panel columns are empty (a narrower last panel takes as long as a "
                              f"full one), without {apart:.0%} ({moves})"))
            members, sizes = keep, found
    return members, sizes


def _unjoin_costly(payload: Payload, nest: _Nest, members: frozenset[int], sizes: Sizes, required: frozenset[int],
                   joined: list[frozenset[int]], target: Target, axis_map: AxisMap,
                   notes: list[Note], recompute: frozenset[int]) -> tuple[frozenset[int], Sizes]:
    """A fuse group fused whole into the nest stays only if the nest moves
    no more bytes with it than without it plus the group in a nest of its
    own (two convolutions' groups under one residual add would share the
    add's small tiles and re-read their filters on every one)."""
    def moved(ms: frozenset[int], s: Sizes, n: _Nest = nest) -> int:
        t = n.traffic(ms, s)
        assert t is not None
        return t.total

    for group in reversed(joined):
        if not group <= members:
            continue
        last = max(group)
        keep = _reachable(payload, nest.root.index, members - group)
        if keep & required != required - group or any(outside_users(payload.ops[i], keep)
                                                      for i in keep - {nest.root.index} - recompute):
            continue
        found = nest.search(keep)
        own = _Nest(payload, payload.ops[last], target, axis_map)
        alone_sizes = own.search(group) if own.fits(group, own.minimal(group)) else None
        if found is None or alone_sizes is None:
            continue
        found, alone_sizes = _restrict(nest, keep, found), _restrict(own, group, alone_sizes)
        before, after, alone = moved(members, sizes), moved(keep, found), moved(group, alone_sizes, own)
        if after + alone < before:
            labels = ", ".join(f"op{i}" for i in sorted(group))
            notes.append(Note(kind=NoteKind.NOT_FUSED, text=f"fuse group of {labels} not fused: the nest would move "
                              f"{before / 1e6:.2f} MB with it, {after / 1e6:.2f} MB without, plus {alone / 1e6:.2f} "
                              "MB in a nest of its own"))
            members, sizes = keep, found
    return members, sizes


def _reads_from_outside(op: TileableOp, members: frozenset[int]) -> bool:
    return any(not o.is_init and not (o.value.kind == "op" and o.value.index in members) for o in op.operands)


def _reachable(payload: Payload, root: int, ops: frozenset[int]) -> frozenset[int]:
    """The ops of `ops` whose results reach `root` through ops of `ops`."""
    seen, todo = {root}, [root]
    while todo:
        for p in producers(payload, payload.ops[todo.pop()]):
            if p.index in ops and p.index not in seen:
                seen.add(p.index)
                todo.append(p.index)
    return frozenset(seen)


def _root_fits(payload: Payload, nest: _Nest, root: TileableOp, target: Target, required: frozenset[int]) -> None:
    """The root alone must fit at its smallest tile: SchedgenError, or
    GroupBroken (two levels may still do) when a group's order is the cause."""
    alone = frozenset({root.index})
    if nest.fits(alone, nest.minimal(alone)):
        return
    need = nest.footprint(alone, nest.minimal(alone))
    error = SchedgenError(payload.where(root), f"budget of {target.memory_bytes} bytes is too small: its smallest "
                          f"tile (1 element along every dim{', whole inner tiles where it unpacks' if root.unpacked_tiles else ''}) "
                          f"needs {need.total if need else '?'} bytes", op=root.name)
    if required - alone:  # the group's tiling order leaves too much whole: try two levels
        # Tiled along all its own dims the root fits: the group, not the budget, is the cause, and it may be
        # split (HRNet's nearest upsampling reads its input by tensor.extract, so the group's conv channels
        # map to none of its dims: tiled along the batch alone it needed 50176 bytes of cpu-l1's 49152).
        own = _Nest(payload, root, target, nest.axis_map)
        fatal = None if own.fits(alone, own.minimal(alone)) else error
        raise GroupBroken(f"op{root.index} needs {need.total if need else '?'} bytes with 1-element tiles "
                          "along the group's parallel dims", root.index, fatal=fatal)
    raise error


def _grow_by_mode(payload: Payload, nest: _Nest, root: TileableOp, mode: FuseMode, members: frozenset[int],
                  taken: _Placed, axes: NestAxes, probe: _MinimalProbe | None, notes: list[Note],
                  optional, groups=None) -> tuple[frozenset[int], Sizes | None]:
    """The producers the fuse mode adds to the group's members, and the tile
    sizes when the mode fixed them (max-size: the root's largest tile).
    `groups`: (the ops that must join with a fuse group member, the set that
    collects those that did), for fusing other groups whole."""
    if mode == FuseMode.MAX_PRODUCERS and probe is not None:
        return _grow(payload, root, members, taken, axes, probe, notes, optional, groups=groups), None
    if mode == FuseMode.MAX_SIZE and probe is not None:
        largest = nest.search(members)
        assert largest is not None

        def at_largest(idx: int, trial: frozenset[int]) -> str | None:
            restricted = _restrict(nest, trial, largest)
            if nest.fits(trial, restricted):
                return None
            if restricted != _restrict(nest, trial - {idx}, largest):  # it lacks an axis the tile splits
                return f"the root's largest tile ({_fmt_sizes(root, largest)}) splits an axis it does not have"
            return f"does not fit in the root's largest tile ({_fmt_sizes(root, largest)})"

        return _grow(payload, root, members, taken, axes, at_largest, notes, optional, groups=groups), largest
    if mode == FuseMode.ONLY_PATTERNS:
        outside = [p.index for p in _candidates(payload, root, taken) if p.index not in members]
        if outside:
            notes.append(Note(kind=NoteKind.ONLY_PATTERNS,
                              text="only-patterns: producers outside the nest's fuse groups are not fused ("
                              + ", ".join(f"op{i}" for i in sorted(outside)) + ")"))
    return members, None

def _grow(payload: Payload, root: TileableOp, members: frozenset[int], taken: _Placed, axes: NestAxes,
          fit: "_MinimalProbe | Callable[[int, frozenset[int]], str | None] | None", notes: list[Note], wanted,
          must: bool = False, groups=None) -> frozenset[int]:
    """Fuse producers of the nest, nearest first (a max-heap on op index: a
    producer is considered after all its consumers), when they can join.
    `wanted(i)` is None to consider op i, "" to skip it silently, or the
    reason it is refused; `fit` says whether the nest still fits with it (a
    probe at the smallest tiles, or a test at fixed tile sizes). With
    `must`, a refusal raises GroupBroken. With `groups` (see _grow_by_mode),
    a member of another fuse group joins only with the whole group, all
    its members fused before anything else, or none."""
    heap = [(-i, i) for i in {p.index for m in members for p in _candidates(payload, payload.ops[m], taken)}
            if i not in members]
    heapq.heapify(heap)
    seen = {i for _, i in heap} | set(members)
    while heap:
        _, idx = heapq.heappop(heap)
        cand = payload.ops[idx]
        reason = wanted(idx)
        if reason and groups is not None and (whole := _join_group(payload, root, members, idx, taken, axes, fit,
                                                                   groups)) is not None:
            members = whole
            for m in whole:
                for p in _candidates(payload, payload.ops[m], taken):
                    if p.index not in seen:
                        seen.add(p.index)
                        heapq.heappush(heap, (-p.index, p.index))
            continue
        if reason == "":
            continue
        kind = NoteKind.NOT_FUSED
        if reason is None:
            why = _why_not_fusible(payload, cand, members | {idx}, idx in taken.recompute)
            if why is not None:
                kind, reason = why
        merged = None
        if reason is None:
            try:
                merged = axes.merged_with(idx)
            except MergeError as exc:
                reason = f"axis groups do not merge: {exc}"
            else:
                reason = _inner_refusal(payload, root, cand, axes.names(idx), fit) if merged.n else None
        if reason is None and isinstance(fit, _MinimalProbe):
            assert merged is not None
            reason = fit.try_add(idx, members, merged, axes.names(idx))
        elif reason is None and fit is not None:
            reason = fit(idx, members | {idx})
        if reason is not None:
            if must:
                raise GroupBroken(f"op{idx} {cand.name} cannot join: {reason}", idx)
            notes.append(Note(kind=kind, text=f"op{idx} {cand.name} not fused: {reason}"))
            continue
        members = members | {idx}
        axes.groups = merged
        for p in _candidates(payload, cand, taken):
            if p.index not in seen:
                seen.add(p.index)
                heapq.heappush(heap, (-p.index, p.index))
    return members


# A producer read through an im2col copy's row split (AxisGroups.n) joins a contraction's nest only where the
# contraction's weights take at most 1 / INNER_WEIGHTS_SHARE of the budget: the nest is then tiled along the
# plane alone (the producer has no output-channel axis), and each tile reads the weights again. densenet121's
# 1x1 convolutions (128 x 224 weights) gain 1% so; regnet_x_400mf's 400 x 400 ones on 7x7 planes went from
# 1.2 to 4.7 MB moved.
INNER_WEIGHTS_SHARE = 4


def _inner_refusal(payload: Payload, root: TileableOp, producer: TileableOp, names: list[str], fit) -> str | None:
    """Why `producer`, whose rows the nest reads whole (through a gather's
    `p floordiv w`, `p mod w`; `names`: its axes), may not join the nest of
    `root` (`fit` as in _grow), or None. Its tiles of the plane are then
    whole rows, which on a CPU must also be whole vectors with a tile for
    every core: mobilenet_v2's 14x14 planes went in halves of 98 pixels,
    panels of 32 a quarter empty."""
    nest = fit.nest if isinstance(fit, _MinimalProbe) else None
    if not is_multiply_accumulate(root):
        return "read through an im2col copy's rows: only the nest of the contraction that reads the copy takes it"
    if nest is None:
        return "read through an im2col copy's rows: taken under max-producers only (it pins the nest's tiles)"
    weights = sum(prod(o.shape) * o.element_bytes for o in root.operands
                  if not o.is_init and o.value.kind != "op")
    if weights * INNER_WEIGHTS_SHARE > nest.budget:
        return (f"read through an im2col copy's rows, it would keep the nest to tiles of the plane, each "
                f"reading op{root.index}'s {weights} bytes of weights again")
    if nest.cpu is None:
        return None
    for d, name in enumerate(names):
        if not name.endswith(INNER):
            continue
        plane = root.domain[int(name[1:-len(INNER)])]
        grain = lcm(producer.domain[d], nest.cpu.lanes(producer.results[0].element_bytes))
        if not any(t % grain == 0 and even_shares(plane // t, nest.cpu.cores) for t in divisors(plane)):
            return (f"read through an im2col copy's rows, it would keep the nest to tiles of whole rows of "
                    f"{producer.domain[d]} pixels, which no tile of whole vectors for every core is")
    return None


def _writes_root_dest_elsewhere(payload: Payload, root: TileableOp, producer: TileableOp, axes: NestAxes,
                                tiled: frozenset[str]) -> str | None:
    """Why `producer` may not join `root`'s nest when both write into one tensor (torch-mlir shares a
    tensor.empty among ops of one shape) at tiles that differ, or None. fuse_into_containing_op makes a
    producer whose init is the loop's own init write its tile into the loop's shared output (LLVM PR
    135066); a transpose or broadcast then writes where other iterations write their results (botnet26t's
    relative-position logits: wrong numbers). At the root's own tile (an elementwise chain) that is the
    in-place update it is meant to be; so it is along the axes `tiled` leaves whole."""
    names = axes.names(producer.index)

    def same(a: Linear | None, b: Linear | None) -> bool:  # one position of the shared tensor, in one tile
        pa, pb = a.as_dim() if a else None, b.as_dim() if b else None
        if pa is None or pb is None:
            return False
        return names[pa] == f"z{pb}" or (names[pa].removesuffix(INNER) not in tiled and f"z{pb}" not in tiled)

    for o in (o for o in producer.operands if o.is_init):
        for r in (r for r in root.operands if r.is_init and r.value == o.value):
            if o.exprs is None or r.exprs is None or len(o.exprs) != len(r.exprs) or \
                    not all(same(a, b) for a, b in zip(o.exprs, r.exprs)):
                dest = (f"the {payload.others[o.value.index].name} at line {payload.others[o.value.index].line}"
                        if o.value.kind == "other" else o.value.label())
                return (f"it writes into {dest}, as op{root.index} does, at other tiles "
                        f"(fuse_into_containing_op would write them into the loop's output)")
    return None


def _join_group(payload: Payload, root: TileableOp, members: frozenset[int], idx: int, taken: _Placed,
                axes: NestAxes, fit, groups) -> frozenset[int] | None:
    """The members with op `idx`'s fuse groups fused whole (every member a
    producer that fits), or None, the nest as it was: a group is tiled as a
    unit, inside a larger nest or as its own (the resnet block's residual
    add and relu take the batch-normed convolution's group in)."""
    whole_group, joined = groups
    group = whole_group(idx)
    if group & set(taken) or not group - {idx} or any(not payload.ops[g].parallel_dims() for g in group):
        return None
    # One contraction per nest this way: two (two convolutions' groups under one residual add) would
    # each take a K loop of its own, and the loop bodies' footprints, as check measures them, hold
    # more than the formula counts for such nests.
    if joined or any(is_multiply_accumulate(payload.ops[m]) for m in members):
        return None
    saved_axes = axes.groups
    saved_fit = fit.copy() if isinstance(fit, _MinimalProbe) else fit
    try:
        grown = _grow(payload, root, members, taken, axes, saved_fit, [],
                      lambda i: None if i in group else "", must=True)
    except GroupBroken:
        grown = None
    if grown is None or not group <= grown:
        axes.groups = saved_axes
        return None
    if isinstance(fit, _MinimalProbe):
        fit.__dict__.update(saved_fit.__dict__)
    joined.append(group)
    return grown


def _pad_whole(op: TileableOp, tiles: list[DimTile]) -> bool:
    """Whether `tiles` hold op's padded dims whole (true of any op but a tensor.pad)."""
    return op.name != "tensor.pad" or all(t.size == n for t, n, src in zip(tiles, op.domain, op.operands[0].shape)
                                          if src != n)


def _moves_with(tiles: list[DimTile], d: int) -> bool:
    """Whether an op's tiles (nest_tiles) move with root dim `d`: their offsets depend on it."""
    return any(("d", d) in dict(t.offset[0]) for t in tiles)


def _plain(op: TileableOp) -> bool:
    """Every operand indexed by plain dims (or constants): no windows."""
    return all(o.exprs is not None and all(e is None or e.as_dim() is not None for e in o.exprs)
               for o in op.operands)


def _precise_nest(payload: Payload, nest: _Nest, members: frozenset[int], sizes: Sizes, nest_id: int,
                  notes: list[Note], checker: PreciseChecker) -> LoopNest:
    """Grow the analytic tile sizes back with the precise check. The analytic
    figure bounds the simulated peak (every simulated buffer is one of its
    aligned terms), so sizes the estimate accepts are not simulated, and the
    result is at least the analytic tile along every dim. Tiles chosen for
    least traffic are kept: larger ones would move more bytes."""

    def fits(s: Sizes) -> bool:
        if nest.fits(members, s):
            return True
        if not nest.allowed(members, s) or nest.footprint(members, s) is None:
            return False  # the rules besides the footprint, or sizes the nest cannot take at all
        sim = checker.check(_loop_nest(payload, nest, members, s, nest_id, []))
        return not sim.folded and sim.peak <= nest.budget

    if not nest.traffic_searched(members):
        sizes = fit_tiles(nest.search_dims(members), fits, start=sizes) or sizes
    final = _loop_nest(payload, nest, members, sizes, nest_id, notes)
    sim = checker.check(final)
    if sim.folded:
        return final.model_copy(update={"notes": [*final.notes, Note(
            kind=NoteKind.PRECISE_FOLDED, text="precise: the simulation's canonicalization erases an op of this "
            "nest that the schedule keeps: the analytic footprint stands")]})
    return final.model_copy(update={
        "footprint_mode": "precise", "analytic_footprint_bytes": final.footprint_bytes,
        "footprint_bytes": sim.peak,
        "local_buffers": [LocalBuffer(what=b.what, bytes=b.bytes, live=[b.start, b.end], offset=b.offset,
                                      in_place_of=b.in_place_of) for b in sim.buffers]})


def _restrict(nest: _Nest, members: frozenset[int], sizes: Sizes) -> Sizes:
    """Keep only the search dims valid for `members` (a fused reduction may
    forbid tiling a root dim)."""
    valid = {d.key: d.extent for d in nest.search_dims(members)}
    # and K loops the traffic search put around a fused contraction that is still a member
    valid.update({k: s for k, s in sizes.items() if k[0] == "r" and k[1] in members and k[1] != nest.root.index})
    return {k: (sizes.get(k, ext)) for k, ext in valid.items()}


def _why_not_fusible(payload: Payload, cand: TileableOp, trial: frozenset[int],
                     recompute: bool = False) -> tuple[NoteKind, str] | None:
    """Why `cand` may not join the nest of ops `trial` (with it); `recompute`:
    its copy in the nest may leave its other readers theirs."""
    if cand.name in NON_STRUCTURED_TILEABLE:
        return NoteKind.NOT_FUSED, "pad/pack/unpack producers are tiled on their own"
    if cand.side_effects:
        # DCE cannot drop the untiled original a fusion leaves behind: it would run twice
        return NoteKind.NOT_FUSED, f"its body has side effects ({', '.join(cand.side_effects)}: torch's bounds checks)"
    others = [] if recompute else outside_users(cand, trial)
    if others:
        names = ", ".join(sorted({describe_use(payload, u) for u in others}))
        return NoteKind.SHARED_RESULT, f"its result is also used by {names}; fusing it would compute it twice"
    if len(cand.results) != 1:
        return NoteKind.NOT_FUSED, "multi-result ops are not fused"
    if _read_as_input_and_init(payload, trial - {cand.index}, cand.index):
        # one fusion per use: the input's tile and the loop's shared output each get their own copy
        return NoteKind.SHARED_RESULT, ("the nest reads it both as an input and as an init; fusing it would compute "
                                        "it twice")
    return None


def _read_as_input_and_init(payload: Payload, ops: frozenset[int], producer: int) -> bool:
    """Whether the ops read `producer` both as an input and as an init, in one
    op or in two (normalization's CSE merges equal fills: one feeds an op,
    the other the root's init)."""
    reads = {o.is_init for i in ops for o in payload.ops[i].operands
             if o.value.kind == "op" and o.value.index == producer}
    return reads == {True, False}


def _fmt_sizes(root: TileableOp, sizes: Sizes) -> str:
    return ", ".join(f"d{d}={sizes.get(('d', d), n)}" for d, n in enumerate(root.domain))


def _loop_nest(payload: Payload, nest: _Nest, members: frozenset[int], sizes: Sizes, nest_id: int,
               notes: list[Note]) -> LoopNest:
    root = nest.root
    shape = nest.shape(members, sizes)
    tiled = tiled_nest(payload, shape, nest.alignment)
    assert tiled is not None
    fp = tiled.footprint()
    par = root.parallel_dims()
    tile_sizes = _forall_sizes(root, shape.root_tiles)
    reductions = [ReductionTiling(op=o, op_rank=len(payload.ops[o].domain), dim=d, size=s,
                                  extent=payload.ops[o].domain[d])
                  for o, d, s in shape.reduction_tiles]
    if any(r.size < r.extent for r in reductions):
        notes.append(Note(kind=NoteKind.REDUCTION_TILED, text="reduction dims tiled by sequential scf.for (output "
                          "tiles stay in local memory across them): with them whole, the nest does not fit or "
                          "moves more bytes"))
    elif reductions:
        notes.append(Note(kind=NoteKind.REDUCTION_TILED, text="the reduction is whole, in an scf.for of one trip "
                          "that holds the ops computed in it: chunks of a reduction this short would each reload "
                          "the register kernel's output block for a few FMAs"))
    partial = [f"{s} of {n} (op{root.index} d{d})" for d, (s, n) in enumerate(zip(shape.root_tiles, root.domain))
               if s and n % s]
    partial += [f"{r.size} of {r.extent} (op{r.op} d{r.dim})" for r in reductions if r.extent % r.size]
    if partial:
        notes.append(Note(kind=NoteKind.PARTIAL_TILES, text=f"partial tiles: {', '.join(partial)}; the last tile "
                          "holds the remainder, within the full tile's footprint (divisors would move more bytes, "
                          "or leave the tiles small)"))
    producer_refs, cse_before, cse_after = _producer_refs(payload, root.index, members - nest.in_loop)
    recomputed = _recomputed(payload, members - nest.in_loop, root.index, nest.consumers)
    for r in recomputed:
        others = ", ".join(describe_use(payload, u) for u in sorted(outside_users(payload.ops[r.op], members),
                                                                     key=lambda u: u.index))
        notes.append(Note(kind=NoteKind.RECOMPUTED, text=f"op{r.op} {payload.ops[r.op].name} computed again here: it "
                          f"reads no tensor, so its tiles cost no traffic; its other readers ({others}) compute "
                          "theirs in their own nests instead of reading one written out whole"))
    consumer_refs = [op_ref(payload.ops[i]) for i in nest.consumers]
    reuse_dest = _reuse_dest(payload, root.index, members | set(nest.consumers), nest.consumers)
    dims_order = [d for d in nest.order if tile_sizes[d]] + [r.dim for r in reductions if r.op == root.index]
    try:
        # in-loop ops run inside a reduction loop: the groups are those of the forall's ops
        groups = str(nest.axes().add_all((members - nest.in_loop) | set(nest.consumers)))
    except MergeError:
        groups = "?"
    return LoopNest(id=nest_id, root=op_ref(root), loop_kind=nest.loop_kind if par else "scf.for",
                    driven="producer" if nest.consumers else "consumer", axis_groups=groups,
                    dims_order=dims_order, tile_sizes=tile_sizes, producers=producer_refs, cse_before=cse_before,
                    cse_after=cse_after,
                    forall_tiles=prod(tile_count(n, s or n) for s, n in zip(tile_sizes, root.domain)),
                    consumers=consumer_refs, reuse_dest=reuse_dest, recomputed=recomputed,
                    loop_producers=[op_ref(payload.ops[i]) for i in sorted(nest.in_loop, reverse=True)],
                    loop_into=nest.loop_op, reduction_tiling=reductions, footprint_bytes=fp.total, budget_bytes=nest.budget,
                    footprint_items=[FootprintItem(what=w, shape=list(s), bytes=b) for w, s, b in fp.items],
                    shared_tiles=tiled.shared_tiles(), notes=notes)


def _forall_sizes(root: TileableOp, root_tiles: tuple[int, ...]) -> list[int]:
    """tile_using_forall sizes: the dims footprint.forall_dims names, 0 elsewhere."""
    tiled = forall_dims(root, root_tiles)
    return [s if d in tiled else 0 for d, s in enumerate(root_tiles)]


def _producer_refs(payload: Payload, root: int, members: frozenset[int]) -> tuple[list[OpRef], list[int], list[int]]:
    """Fused producers in fusion order (consumers first), those to merge by
    CSE first, and those to merge by CSE after: several reads of one producer
    are separate slices until CSE merges them; fused before that, it would be
    fused for the first read only and stay whole for the others. A rank-0
    result is read whole, with no slice: fusion clones it once per read
    (ConvBERT's zero position index, read three times by its unfold)."""
    refs = [op_ref(payload.ops[i]) for i in sorted(members - {root}, reverse=True)]
    shared = [p.index for p in refs if len(_reads(payload, p.index, members)) > 1]
    return refs, shared, [i for i in shared if not payload.ops[i].results[0].shape]


def _reads(payload: Payload, producer: int, members: frozenset[int]) -> list[Operand]:
    """The operands of ops `members` that read the producer's results (one
    op may read it twice, as an input and as its init)."""
    return [o for i in sorted(members) for o in payload.ops[i].operands
            if o.value.kind == "op" and o.value.index == producer]


def _recomputed(payload: Payload, members: frozenset[int], root: int, consumers: tuple[int, ...]) -> list[Recompute]:
    """Producers in the nest that ops outside it read too: only those reading no
    tensor are fused so (_Placed.recompute). Their fresh handle comes from the
    first member reading them."""
    found = []
    for i in sorted(members - {root}):
        op = payload.ops[i]
        if op.reads_no_tensor and outside_users(op, members | set(consumers)):
            reader = next(j for j in sorted(members) if _reads(payload, i, frozenset({j})))
            found.append(Recompute(op=i, reader=reader, operand=_reads(payload, i, frozenset({reader}))[0].position))
    return found


def _nest_reads(op: TileableOp, ops: frozenset[int] | set[int]) -> set[int]:
    """The nest ops (`ops`) whose results `op` reads as inputs."""
    return {o.value.index for o in op.operands if not o.is_init and o.value.kind == "op" and o.value.index in ops}


def _two_level_nest(payload: Payload, root: TileableOp, target: Target, members: frozenset[int], nest_id: int,
                    axis_map: AxisMap, why: str) -> LoopNest | None:
    """A fuse group that does not fit in one loop body with only its y axes
    tiled (a softmax row of 1M elements, attention's K and V): seed 004's
    two-level tiling. The group shares one scf.forall over blocks of its
    common y axes (all members fused into it, as usual), and inside the
    block every member with a dim on an r axis gets its own sequential
    scf.for over that axis (a reduction accumulates across iterations, an
    elementwise op just walks the row). Nothing is computed twice."""
    shape = _two_level_axes(payload, root, target, members, axis_map)
    if shape is None:
        return None
    axes, names, outer_dims, extent, inner_axes = shape
    dims = [SearchDim(("d", d), root.domain[d]) for d in outer_dims] + \
        [SearchDim(("a", a), extent[a]) for a in inner_axes]

    def fp(sizes: Sizes) -> Footprint | None:
        outer = {f"z{d}": sizes.get(("d", d), root.domain[d]) for d in outer_dims}
        inner = {a: sizes.get(("a", a), extent[a]) for a in inner_axes}
        return two_level_footprint(payload, members, names, outer, inner, target.alignment_bytes)

    def in_order(sizes: Sizes) -> bool:  # every op's reductions summed in the untiled order
        return all(keeps_order([(sizes.get(("a", a), payload.ops[m].domain[k]) if a in inner_axes
                                 else payload.ops[m].domain[k], payload.ops[m].domain[k])
                                for k, a in enumerate(names[m]) if payload.ops[m].iterators[k] != "parallel"])
                   for m in members)

    def fits(sizes: Sizes) -> bool:
        if not in_order(sizes):
            return False
        f = fp(sizes)
        return f is not None and f.total <= target.memory_bytes

    sizes = fit_tiles(dims, fits)
    if sizes is None:
        return None
    final = fp(sizes)
    assert final is not None
    return _two_level_result(payload, root, target, members, nest_id, why, axes, names, outer_dims, extent,
                             inner_axes, sizes, final)


def _two_level_axes(payload: Payload, root: TileableOp, target: Target, members: frozenset[int],
                    axis_map: AxisMap) -> tuple[NestAxes, dict, list[int], dict, list[str]] | None:
    """The group's merged axes, each member's axis names, the root dims the
    forall tiles, each axis's extent and the r axes the inner loops walk;
    None when two levels cannot describe the group."""
    if len(members) < 2 or not root.parallel_dims():
        return None
    for m in members - {root.index}:
        if outside_users(payload.ops[m], members):
            return None
    axes = NestAxes(payload, root.index, axis_map)
    try:
        for m in sorted(members - {root.index}, reverse=True):
            axes.add(m)
    except MergeError:
        return None
    names = {m: axes.names(m) for m in members}
    if any(len(set(n)) < len(n) for n in names.values()):
        # Two dims of one op on one axis (a square tensor read both ways somewhere in
        # the payload joins its axes): per-axis loop sizes cannot describe the tiles.
        return None
    outer_dims = _Nest(payload, root, target, axis_map).tileable_dims(members)
    extent = {a: payload.ops[m].domain[k] for m in members for k, a in enumerate(names[m])}
    inner_axes = [a for a in axes.groups.r if extent[a] > 1]
    return (axes, names, outer_dims, extent, inner_axes) if inner_axes else None


def _two_level_result(payload: Payload, root: TileableOp, target: Target, members: frozenset[int], nest_id: int,
                      why: str, axes: NestAxes, names: dict, outer_dims: list[int], extent: dict,
                      inner_axes: list[str], sizes: Sizes, final: Footprint) -> LoopNest:
    tile_sizes = _forall_sizes(root, tuple(sizes.get(("d", d), n) for d, n in enumerate(root.domain)))
    inner_tiles = []
    for m in sorted(members):
        op = payload.ops[m]
        for k, a in enumerate(names[m]):
            size = sizes.get(("a", a), extent.get(a, 0))
            if a in inner_axes and size < op.domain[k]:
                inner_tiles.append(ReductionTiling(op=m, op_rank=len(op.domain), dim=k, size=size,
                                                   extent=op.domain[k]))
    producer_refs, cse_before, cse_after = _producer_refs(payload, root.index, members)
    notes = [Note(kind=NoteKind.TWO_LEVEL, text="two-level nest (seed 004): the group does not fit one loop body with "
                  f"only its y axes tiled ({why}); blocks of " + ", ".join(f"z{d}" for d in outer_dims)
                  + " in parallel, then each op's " + ", ".join(inner_axes) + " dims by its own sequential scf.for; "
                  "values passed between those loops are block-sized tensors in main memory")]
    return LoopNest(id=nest_id, root=op_ref(root), loop_kind="scf.forall", levels=2, axis_groups=str(axes.groups),
                    dims_order=[d for d in outer_dims if tile_sizes[d]], tile_sizes=tile_sizes,
                    producers=producer_refs, cse_before=cse_before, cse_after=cse_after, reduction_tiling=inner_tiles,
                    footprint_bytes=final.total, budget_bytes=target.memory_bytes,
                    footprint_items=[FootprintItem(what=w, shape=list(s), bytes=b) for w, s, b in final.items],
                    notes=notes)


def _reuse_dest(payload: Payload, root: int, ops: frozenset[int], consumers: tuple[int, ...]) -> list[int]:
    """Consumers fused with reuse_producer_dest: the last one, when it reads
    only the root's result and nothing outside the nest reads that result.
    Its tiles then go to the root's destination, and the loop does not write
    a full-size root result that nobody reads (field notes, hazard 6)."""
    if not consumers:
        return []
    last = payload.ops[consumers[-1]]
    if _nest_reads(last, ops) != {root} or outside_users(payload.ops[root], ops):
        return []
    return [last.index]


def _transitive_producers(payload: Payload, idx: int) -> set[int]:
    """Every tileable op whose result reaches op `idx` through tileable ops:
    what transform.structured.fuse fuses into its loop."""
    seen: set[int] = set()
    todo = [idx]
    while todo:
        for p in producers(payload, payload.ops[todo.pop()]):
            if p.index not in seen:
                seen.add(p.index)
                todo.append(p.index)
    return seen


def _consumer_fusion(payload: Payload, target: Target, nests: list[LoopNest], untiled: list[UntiledOp],
                     groups: list[FuseGroup], checker: PreciseChecker | None, axis_map: AxisMap,
                     mode: FuseMode) -> tuple[list[LoopNest], list[UntiledOp]]:
    """Producer-driven nests (seed "consumer fusion"): a nest whose root has
    consumers that were left alone -- a lone-root nest or untiled, because
    the root has several users and fusing it as a producer would compute it
    twice -- takes them in with transform.xtc.fuse_consumer, in program
    order, so every fused consumer's nest operands are already in the loop
    (dominance). Kept only when the grown nest still fits."""
    grouped = {m for g in groups for m in g.members}
    # A K loop the traffic search chose is dropped when consumers join (they fuse at the forall level):
    # the grown nest is searched anew and kept only if it fits.
    free = {n.root.index for n in nests if not n.producers and not n.consumers}
    free |= {u.op.index for u in untiled}
    place = {o.index: n.root.index for n in nests for o in n.ops}  # a nest's loop sits at its root
    absorbed: set[int] = set()
    rebuilt: dict[int, LoopNest] = {}
    for n in sorted(nests, key=lambda n: n.root.index):
        root = payload.ops[n.root.index]
        if n.root.index in absorbed or not root.parallel_dims() or len(root.results) != 1:
            continue
        ops = {o.index for o in n.ops}
        chosen: list[int] = []
        # Feasibility at 1-element tiles; each accepted consumer stays in.
        trial = TiledNest(payload, root.index, tuple(1 if d in root.parallel_dims() else x
                                                     for d, x in enumerate(root.domain)))
        if not all(trial.add(i) for i in sorted(ops - {root.index}, reverse=True)):
            continue
        for u in payload.ops[root.index + 1:]:
            if u.index in free and u.index not in absorbed and u.index not in grouped \
                    and _may_take_consumer(payload, root.index, ops, chosen, u, place) \
                    and trial.add_consumer(u.index):
                chosen.append(u.index)
        if not chosen:
            continue
        grown = _producer_nest(payload, target, n, tuple(chosen), groups, checker, axis_map, mode)
        if grown is None or (target.cpu is None and _costs_traffic(payload, n, grown, chosen, nests)):
            continue
        rebuilt[n.id] = grown
        absorbed |= set(chosen)
    if not rebuilt:
        return nests, untiled
    kept = [rebuilt.get(n.id, n) for n in nests if n.root.index not in absorbed]
    # Producer-driven nests go first, in program order: fuse_consumer fails
    # once a result of its loop is also read inside another nest's loop.
    kept = sorted((n for n in kept if n.consumers), key=lambda n: n.root.index) + \
        [n for n in kept if not n.consumers]
    renumber = {n.id: k + 1 for k, n in enumerate(kept)}
    kept = [n.model_copy(update={"id": renumber[n.id]}) for n in kept]
    return kept, [u for u in untiled if u.op.index not in absorbed]



def _costs_traffic(payload: Payload, old: LoopNest, grown: LoopNest, chosen: list[int], nests: list[LoopNest]) -> bool:
    """Memory targets: whether the nest with its consumers moves more bytes
    than the nest and the consumers apart (each in its own nest, or untiled):
    a consumer that needs whole rows can shrink a contraction's tiles to one row."""
    apart = {n.root.index: n for n in nests}
    alone = sum(nest_traffic(payload, apart[c]).total if c in apart else untiled_traffic(payload, payload.ops[c]).total
                for c in chosen)
    return nest_traffic(payload, grown).total > nest_traffic(payload, old).total + alone


def _may_take_consumer(payload: Payload, root: int, ops: set[int], chosen: list[int], u: TileableOp,
                       place: dict[int, int]) -> bool:
    """Whether the nest of `root` (with the consumers `chosen` so far) can
    take `u` in by consumer fusion, before the footprint is asked."""
    if u.side_effects:
        return False  # DCE would keep its original, which would run twice
    reads = {o.value.index for o in u.operands if o.value.kind == "op"}
    if not reads & ({root} | set(chosen)) or reads & (ops - {root}):
        return False
    # Dominance: what it reads from outside the nest is computed before the loop.
    if any(place.get(r, r) >= root for r in reads - {root} - set(chosen)):
        return False
    # A loop's destination (a nest op's init from outside, other than a
    # contentless tensor.empty) is not readable by a consumer fused into it:
    # tileAndFuseConsumer fails.
    dests = {o.value for i in [*ops, *chosen] for o in payload.ops[i].operands
             if o.is_init and not (o.value.kind == "other" and payload.others[o.value.index].name == "tensor.empty")}
    if any(o.value in dests for o in u.operands):
        return False
    return not _read_before(payload, [root, *chosen], u)

def _read_before(payload: Payload, values: list[int], consumer: TileableOp) -> bool:
    """Whether an op that stays outside the loop reads one of the loop's
    values (results of ops `values`) before `consumer`. tileAndFuseConsumer
    moves the loop down to the consumer when the consumer's init is defined
    after the loop (it usually is), and cannot move it past such a reader."""
    for i in values:
        for use in users(payload.ops[i]):
            if use.kind == "op" and use.index not in values and use.index < consumer.index:
                return True
            if use.kind == "other" and payload.others[use.index].line < consumer.line:
                return True
    return False


def _producer_nest(payload: Payload, target: Target, old: LoopNest, consumers: tuple[int, ...],
                   groups: list[FuseGroup], checker: PreciseChecker | None, axis_map: AxisMap,
                   mode: FuseMode) -> LoopNest | None:
    root = payload.ops[old.root.index]
    members = frozenset(o.index for o in old.ops)
    mine = _closure(groups, root.index)
    required = frozenset({m for g in mine for m in g.members})
    nest = _Nest(payload, root, target, axis_map,
                 _principal_order(payload, root.index, mine, required | members, axis_map))
    nest.consumers = consumers
    ops = members | set(consumers)
    # Field notes, hazard 3: a consumer reading two values of the loop fuses
    # into scf.for only; scf.forall keeps the loop parallel otherwise.
    two_reads = [c for c in consumers if len(_nest_reads(payload.ops[c], ops)) > 1]
    notes = [n for n in old.notes if n.kind not in (NoteKind.SHARED_RESULT, NoteKind.REDUCTION_TILED,
                                                    NoteKind.PARTIAL_TILES, NoteKind.RECOMPUTED)]  # searched anew
    if two_reads:
        nest.loop_kind = "scf.for"
        # Hazard 4: fuse_into_containing_op cannot fuse a destination producer
        # into scf.for; transform.structured.fuse can, but fuses every producer.
        if old.producers and _transitive_producers(payload, root.index) != members - {root.index}:
            return None
        # Loop results nobody reads stay (hazard 6); with two or more of
        # them, one-shot bufferization (LLVM 22) gives their iter_args one
        # shared buffer although the body reads them: wrong numbers.
        if sum(1 for i in [root.index, *consumers] if not outside_users(payload.ops[i], ops)) > 1:
            return None
        notes.append(Note(kind=NoteKind.PRODUCER_DRIVEN, text=f"producer-driven, scf.for: op{two_reads[0]} reads two "
                          "values computed in the loop, which consumer fusion supports only into scf.for (one loop)"))
    else:
        notes.append(Note(kind=NoteKind.PRODUCER_DRIVEN,
                          text="producer-driven, scf.forall: the consumers each read one value computed in the loop"))
    # max-size: the root keeps its largest tile; consumers join only if they fit in it.
    found = {("d", d): t for d, t in enumerate(old.tile_sizes) if t} if mode == FuseMode.MAX_SIZE \
        else nest.search(members)
    if found is None:
        return None
    sizes = _restrict(nest, members, found)
    if not nest.fits(members, sizes):
        return None
    made = _loop_nest(payload, nest, members, sizes, old.id, notes)
    if checker is None:
        return made
    return _precise_nest(payload, nest, members, sizes, old.id, notes, checker)


def candidate_nest(payload: Payload, target: Target, root: int, members: set[int], root_sizes: tuple[int, ...],
                   reductions: tuple[tuple[int, int, int], ...] = ()) -> LoopNest:
    """A nest with given members and tile sizes (root dims; reduction tiles
    as (op, dim, size)), for tests, benchmarks and hand experiments."""
    nest = _Nest(payload, payload.ops[root], target)
    sizes: Sizes = {("d", d): s for d, s in enumerate(root_sizes)}
    sizes.update({("r", o, d): s for o, d, s in reductions})
    return _loop_nest(payload, nest, frozenset(members), sizes, 1, [])


def _k_loop_fusion(payload: Payload, target: Target, nests: list[LoopNest], groups: list[FuseGroup],
                   checker: PreciseChecker | None, axis_map: AxisMap) -> list[LoopNest]:
    """Max-producers: nests whose result only a contraction's reduction loop
    reads (an MLP's hidden activation, a weight's transpose, read along the
    second matmul's K; on CPU targets only im2col copies and a convolution's
    pads, along its channels: see _fill_k_loop and _Nest.pads_whole)
    are computed inside that loop, one chunk per trip, while the merged nest
    fits and moves fewer bytes than the nests apart: their results never go
    to main memory. Each op is still computed once: its tiles move with
    every loop around it (but a gather on CPU targets, redone once per core:
    _Nest._redoes)."""
    by_root = {n.root.index: n for n in nests}
    out = {n.id: n for n in nests}
    gone: set[int] = set()
    for c in sorted(nests, key=lambda n: -n.root.index):
        if c.id in gone or not _single_level(c):
            continue
        for m in _k_loops(payload, c):
            merged, taken = _fill_k_loop(payload, target, c, m, by_root, gone, groups, checker, axis_map)
            if taken:
                out[c.id] = merged
                gone |= taken
                break
    kept = [out[n.id] for n in nests if n.id not in gone]
    return [n.model_copy(update={"id": k + 1}) for k, n in enumerate(kept)]


def _single_level(n: LoopNest) -> bool:
    return n.levels == 1 and n.loop_kind == "scf.forall" and n.driven == "consumer" and not n.consumers \
        and not n.loop_producers


def _k_loops(payload: Payload, c: LoopNest) -> list[int]:
    """Contractions of nest `c` with one reduction dim, over plain dims, or
    reading a pad (a convolution, whose channel loop can pad its chunks):
    their K loop can hold other nests."""
    return [ref.index for ref in [c.root, *c.producers] for m in [payload.ops[ref.index]]
            if is_multiply_accumulate(m) and (len(m.reduction_dims()) == 1 and _plain(m) or _pads_read(payload, m))]


def _pads_read(payload: Payload, m: TileableOp) -> list[int]:
    """The tensor.pads whose result contraction `m` reads as an input (torch's
    padding before a convolution): its reduction loop over channels can pad
    each chunk it reads (_fill_k_loop)."""
    return [o.value.index for o in m.operands if not o.is_init and o.value.kind == "op"
            and payload.ops[o.value.index].name == "tensor.pad"]


def _fill_k_loop(payload: Payload, target: Target, c: LoopNest, m: int, by_root: dict[int, LoopNest],
                 gone: set[int], groups: list[FuseGroup], checker: PreciseChecker | None,
                 axis_map: AxisMap) -> tuple[LoopNest, set[int]]:
    """Nest `c` with as many nests as pay for it in op m's K loop, nearest
    first; and the ids of those nests."""
    current, inside, taken = c, frozenset[int](), []
    op = payload.ops[m]
    plain, pads = len(op.reduction_dims()) == 1 and _plain(op), set(_pads_read(payload, op))
    grew = True
    while grew:
        grew = False
        readers = {m} | inside
        sources = {o.value.index for r in readers for o in payload.ops[r].operands
                   if not o.is_init and o.value.kind == "op" and o.value.index in by_root}
        for p in [by_root[i] for i in sorted(sources, reverse=True)]:
            if p.id in gone or p.id == c.id or p in taken or not _single_level(p) \
                    or not _only_read_by(payload, p, readers) \
                    or (target.cpu is not None and not all(payload.ops[o.index].gather or o.index in pads
                                                           for o in p.ops)) \
                    or (not plain and not all(o.index in pads for o in p.ops)):
                # CPU targets: a register kernel reads whatever its K loop computes; only the im2col
                # copy and the pad the contraction reads are measured there (other producers, the MLP's
                # hidden matmul, were not tried; a pad behind an im2col copy made xtc-opt abort). A
                # convolution's loop (windows, several reduction dims) takes only its pads.
                continue
            refused = _merge_key(payload, current, p, m, inside)  # a chain's repeated steps are refused once
            if refused in _SEARCHED:
                continue
            trial = _merged_nest(payload, target, c, m, inside | {o.index for o in p.ops}, [*taken, p],
                                 nest_traffic(payload, current).total + nest_traffic(payload, p).total,
                                 groups, checker, axis_map)
            if trial is None:
                _SEARCHED[refused] = None
            else:
                current, inside, grew = trial, inside | {o.index for o in p.ops}, True
                taken.append(p)
                break
    return current, {p.id for p in taken}


def _merge_key(payload: Payload, c: LoopNest, p: LoopNest, m: int, inside: frozenset[int]) -> tuple:
    """What decides a K-loop merge, relative to c's root: the ops and both nests' tiles."""
    root = c.root.index
    ops = {o.index for o in c.ops} | {o.index for o in p.ops}
    return ("k-loop", _op_shapes(payload, ops, root), m - root, tuple(sorted(i - root for i in inside)),
            *[(n.root.index - root, tuple(n.tile_sizes), tuple((r.op - root, r.dim, r.size) for r in n.reduction_tiling))
              for n in (c, p)])


def _only_read_by(payload: Payload, p: LoopNest, readers: set[int] | frozenset[int]) -> bool:
    """Every result of nest `p` is read once, inside `p` or by one of
    `readers` (the loop producers are fused one after the other, without CSE)."""
    ops = {o.index for o in p.ops}
    for i in ops:
        uses = [u for r in payload.ops[i].results for u in r.users]
        if len(uses) != 1 or uses[0].kind != "op" or uses[0].index not in ops | set(readers):
            return False
    return True


def _merged_nest(payload: Payload, target: Target, c: LoopNest, m: int, inside: frozenset[int],
                 absorbed: list[LoopNest], before: int, groups: list[FuseGroup], checker: PreciseChecker | None,
                 axis_map: AxisMap) -> LoopNest | None:
    """Nest `c` with ops `inside` (nests `absorbed`) in op m's reduction loop,
    searched anew; None when it does not fit, would compute an op twice, or
    moves `before` bytes or more. Tried first with every op done once, then
    (on a CPU of several cores) with gathers redone once per core
    (_Nest._redoes): a 28x28 convolution whose copy merges with the pixels
    split between the cores ran 0.99 ms on one thread, 1.08 with the
    channels split and the copy redone."""
    for redo in (False, True) if target.cpu is not None and target.cores > 1 else (False,):
        made = _merged_nest_once(payload, target, c, m, inside, absorbed, before, groups, checker, axis_map, redo)
        if made is not None:
            return made
    return None


def _merged_nest_once(payload: Payload, target: Target, c: LoopNest, m: int, inside: frozenset[int],
                      absorbed: list[LoopNest], before: int, groups: list[FuseGroup], checker: PreciseChecker | None,
                      axis_map: AxisMap, redo: bool) -> LoopNest | None:
    """_merged_nest, with gathers redone once per core or not."""
    root = payload.ops[c.root.index]
    members = frozenset(o.index for o in c.ops) | inside
    mine = _closure(groups, root.index)
    required = frozenset({i for g in mine for i in g.members}) | members - inside
    nest = _Nest(payload, root, target, axis_map, _principal_order(payload, root.index, mine, required, axis_map))
    nest.in_loop, nest.loop_op, nest.redo_gathers = inside, m, redo
    found = nest.search(members) if _moves_with_loop(payload, nest, members) else None
    sizes = _restrict(nest, members, found) if found is not None else None
    after = None if sizes is None or not nest.fits(members, sizes) else \
        nest.traffic(members, sizes)
    if sizes is None or after is None or after.total >= before:
        return None
    # CPU targets: as for producers fused at the forall level (_unfuse_costly), not where the merged
    # tiles leave the register kernel many more empty panel columns than apart (resnet_down_block's
    # im2col copy: 98-pixel tiles in panels of 32, 23% against 12%, 0.417 -> 0.458 ms on one core). A
    # few (PANEL_WASTE) do not outweigh the copy's traffic and a tile per core (ResNet-18's 28x28
    # convolutions: 392 pixels, 2% against none with the channels split, 1.027 -> 0.999 ms, 2 threads
    # 0.611 -> 0.560).
    if (waste := nest.panel_waste(members, sizes)) > PANEL_WASTE and waste > _Nest(payload, root, target).panel_waste(
            frozenset(o.index for o in c.ops), _nest_sizes(c, root)):
        return None
    # Nor where the merged forall has fewer tiles than cores and the nest apart had more (a convolution
    # onto one output row: its copy in the loop would leave the channels whole, one tile for two cores).
    if nest.short_of_cores(members, sizes) and nest.forall_tiles(members, sizes) < \
            prod(tile_count(n, s or n) for n, s in zip(root.domain, c.tile_sizes)):
        return None
    stale = (NoteKind.REDUCTION_TILED, NoteKind.PARTIAL_TILES, NoteKind.LOOP_FUSED, NoteKind.RECOMPUTED)
    notes = [n for x in [c, *absorbed] for n in x.notes
             if n.kind not in stale and not any(n.text.startswith(f"op{i} ") for i in inside)]
    notes = list({n.text: n for n in notes}.values())  # a note both nests had (a pad not fused into either), once
    apart = "; ".join(", ".join(f"op{o.index}" for o in p.ops) for p in absorbed)
    redone = nest.redone(members, sizes)
    verb = "padded" if all(payload.ops[i].name == "tensor.pad" for i in inside) else "gathered"
    again = f"; {verb} again in each of the {redone} forall tiles (one per core) that read all of it, each " \
        "core into its own cache, instead of one core writing what the other reads back" if redone > 1 else ""
    notes.append(Note(kind=NoteKind.LOOP_FUSED, text=f"{apart} (first planned apart): computed "
                      f"inside op{m}'s reduction loop, one chunk per trip, so their results never go to main memory "
                      f"({after.total / 1e6:.2f} MB, against {before / 1e6:.2f} MB with them apart){again}"))
    made = _loop_nest(payload, nest, members, sizes, c.id, notes)
    if checker is None:
        return made
    made = _precise_nest(payload, nest, members, sizes, c.id, notes, checker)
    return made if made.footprint_bytes <= target.memory_bytes else None


# The share of empty panel columns that fused tiles may leave on CPU targets where the fusion saves a
# nest's traffic (_merged_nest, _unfuse_costly).
PANEL_WASTE = 0.1


def _nest_sizes(n: LoopNest, root: TileableOp) -> Sizes:
    """A planned nest's root tiles and reduction chunks, as the search writes them."""
    sizes: Sizes = {("d", d): s or root.domain[d] for d, s in enumerate(n.tile_sizes)}
    return sizes | {("r", r.op, r.dim): r.size for r in n.reduction_tiling}


def _moves_with_loop(payload: Payload, nest: _Nest, members: frozenset[int]) -> bool:
    """Every in-loop op's tile moves with the K loop (or it would be computed
    again on every trip), at 1-element chunks of it."""
    sizes = tuple(nest.root.domain)
    tiles = nest_tiles(payload, nest.root.index, members, sizes, (), nest._loop_chunks(), nest.in_loop)
    if tiles is None:
        return False
    loops = {("r", nest.loop_op, d) for d in _loop_dims(payload.ops[nest.loop_op])}
    return all(any(loops & set(dict(t.offset[0])) for t in tiles[i]) for i in nest.in_loop)


def _loop_dims(op: TileableOp) -> list[int]:
    """The reduction dims of a loop op (_k_loop_fusion) whose loops hold its
    in-loop producers: a convolution's channels, not its window's taps (a
    pad's tile stepped along a tap would cut its padded dims)."""
    windows = {d for o in op.operands if not o.is_init for e in (o.exprs or ()) if e is not None
               and len(e.coeffs) > 1 for d, _ in e.coeffs}
    return [d for d in op.reduction_dims() if d not in windows]
