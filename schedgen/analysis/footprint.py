"""Analytic footprint of one loop nest: the bytes of every tile that is live
in one iteration of the nest's innermost loop body.

A nest is a root op tiled by `scf.forall` over its parallel dims, the
producers fused into it, the consumers fused into it (consumer fusion), and
(only when nothing else fits) some reduction dims tiled by sequential
`scf.for` loops. Tiles propagate from the root to each fused producer
through the indexing maps (a consumer's tile is read off the tiles of the
nest values it reads, through its own operand maps): an operand dimension indexed
by sum(c_i * d_i) + k spans sum(|c_i| * (t_i - 1)) + 1 elements (so a
convolution's input tile includes its halo), and a producer's iteration tile
is read off its result map.

    footprint = sum over ops X in the nest of
                  bytes(result tile of X)          unless X's init is the
                                                   result of a nest op (the
                                                   tile is updated in place:
                                                   fill -> matmul accumulator)
              + sum over tensor inputs v of X of
                  bytes(tile of v read by X)       unless v is the result of
                                                   a nest op and X reads that
                                                   whole tile (shared buffer)

An elementwise generic's result tile is not counted either when it can be
written in place over an input tile computed in the nest, of the same
bytes, that no other nest op reads (bias + relu over the matmul
accumulator): the measurement (analysis/measure.py) and the precise placement
reuse that buffer the same way.

bytes(tile) = product of tile extents * element size, rounded up to the
target's alignment (so the estimate bounds any aligned placement). A tile of
a tensor from outside the nest that several ops read at the same offsets
and sizes (a layernorm's input, read by its mean and by its centering) is
one tile, counted once: the measurement in `measure.py` takes equal slices
as one buffer, and on memory targets the schedule merges them with
`apply_cse` (one transfer). For tensor.pad / linalg.pack / linalg.unpack
(no affine operand maps) the input tile is taken as the result tile's
element count at the input's element size.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from math import prod

from schedgen.model.payload import Operand, Payload, TileableOp, index_span
from schedgen.model.plan import LoopNest

# A loop that moves a tile: ("d", root dim) for the forall loops, or
# ("r", op index, dim) for a sequential reduction loop of one op.
LoopId = tuple
Offset = tuple[tuple[tuple[LoopId, int], ...], int]  # sum(coeff * iv(loop)) + const


@dataclass(frozen=True)
class DimTile:
    size: int
    offset: Offset  # symbolic offset: equal offsets and sizes mean the same slice


@dataclass(frozen=True)
class NestShape:
    """Enough to compute a nest's footprint: root, members, tile sizes."""

    root: int
    members: frozenset[int]  # op indices, root included
    root_tiles: tuple[int, ...]  # per root dim; the full size means untiled
    reduction_tiles: tuple[tuple[int, int, int], ...] = ()  # (op, dim, size)
    consumers: tuple[int, ...] = ()  # fused by consumer fusion, in fusion order
    # Producers fused into a member's sequential reduction loop: their tiles are
    # read off their users' innermost tiles (a K chunk), not the forall tiles.
    in_loop: frozenset[int] = frozenset()


# An outside tensor's tile as the nest reads it: the value and its symbolic
# slice (equal keys: the same slice, one buffer).
TileKey = tuple
Item = tuple[str, tuple[int, ...], int, "TileKey | None"]  # what, shape, bytes, the outside tile it is


@dataclass
class Footprint:
    total: int = 0
    items: list[tuple[str, tuple[int, ...], int]] = field(default_factory=list)  # (what, tile shape, bytes)
    alignment: int = 1  # every tile starts at a multiple of this: its size is rounded up to it

    def add(self, what: str, shape: tuple[int, ...], element_bytes: int) -> None:
        b = -(-prod(shape) * element_bytes // self.alignment) * self.alignment
        self.items.append((what, shape, b))
        self.total += b


_FULL: Offset = ((), 0)


def _moved_by(loop: LoopId) -> Offset:
    return (((loop, 1),), 0)


def _combine(terms: list[tuple[int, Offset]], const: int) -> Offset:
    acc: dict[LoopId, int] = {}
    total = const
    for c, (parts, k) in terms:
        total += c * k
        for loop, cc in parts:
            acc[loop] = acc.get(loop, 0) + c * cc
    return (tuple(sorted((lp, c) for lp, c in acc.items() if c)), total)


def operand_tile(operand: Operand, tiles: list[DimTile]) -> list[DimTile] | None:
    """The slice of `operand` read by one iteration with op dim tiles `tiles`."""
    if operand.exprs is None:
        return None
    out = []
    for k, e in enumerate(operand.exprs):
        if e is None:  # non-linear index: the range it spans over the tile (else the whole dimension)
            out.append(_nonlinear_tile(operand, k, tiles))
            continue
        size = sum(abs(c) * (tiles[d].size - 1) for d, c in e.coeffs) + 1
        offset = _combine([(c, tiles[d].offset) for d, c in e.coeffs], e.const)
        out.append(DimTile(min(size, operand.shape[k]), offset))
    return out


def _nonlinear_tile(operand: Operand, k: int, tiles: list[DimTile]) -> DimTile:
    """Dim `k` of an operand read through a non-linear index (an im2col
    copy's input): the range the index spans over the tile, as the tiled IR
    slices it (tiles are multiples of the index's grains, see
    TileableOp.index_grains), bounded by the dim. Its offset names the index
    and the loops that move the dims it reads: two reads are one slice only
    if both agree."""
    tree = operand.trees[k] if k < len(operand.trees) else None
    span = index_span(tree, {d: t.size for d, t in enumerate(tiles)}) if tree is not None else None
    if span is None:
        return DimTile(operand.shape[k], _FULL)
    loops = tuple(sorted({lp for d in _tree_dims(tree) for lp, _ in tiles[d].offset[0]}))
    # coefficient 0: the dim never walks a loop's range in its steps (traffic counts each tile whole)
    return DimTile(min(span[1] - span[0] + 1, operand.shape[k]),
                   (tuple((lp, 0) for lp in loops), hash((tree, tuple(tiles[d].offset for d in _tree_dims(tree))))))


def _tree_dims(tree: tuple) -> list[int]:
    if tree[0] == "d":
        return [tree[1]]
    if tree[0] == "c":
        return []
    return _tree_dims(tree[1]) + (_tree_dims(tree[2]) if tree[0] == "+" else [])


def _result_map_dims(op: TileableOp) -> list[int] | None:
    """The op dim behind each dim of its (first) result, or None when the
    result map is not a projected permutation (such producers are not fused)."""
    if op.name == "tensor.pad":  # no init: its result dims are its own (a pad tile is the padded chunk)
        return list(range(len(op.domain)))
    inits = [o for o in op.operands if o.is_init]
    if not inits or inits[0].exprs is None:
        return None
    dims = [e.as_dim() if e is not None else None for e in inits[0].exprs]
    return None if any(d is None for d in dims) else dims  # type: ignore[return-value]


def forall_dims(op: TileableOp, sizes: tuple[int, ...] | list[int]) -> list[int]:
    """The root dims the nest's scf.forall tiles: its parallel dims tiled
    smaller than their extent; with none, the first parallel dim at its whole
    extent (a one-trip loop still gives fused producers a loop to live in)."""
    par = op.parallel_dims()
    tiled = [d for d in par if sizes[d] < op.domain[d]]
    return tiled or par[:1]


def aligned_to_grains(op: TileableOp, tiles: list[DimTile]) -> bool:
    """Every dim a non-linear index reads is tiled in multiples of its grain (TileableOp.index_grains)."""
    return all(op.tile_ok(d, tiles[d].size) for d, _ in op.index_grains)


def root_tiles(op: TileableOp, sizes: tuple[int, ...]) -> list[DimTile]:
    # A dim the forall tiles moves with its loop, even in a one-trip loop: the
    # IR's slices are offset by its induction variable, so two reads of one
    # producer along different dims are different slices. Other dims, and
    # reduction dims at the forall level, are whole.
    moving = forall_dims(op, sizes)
    return [DimTile(sizes[d], _moved_by(("d", d)) if d in moving else _FULL)
            if kind == "parallel" else DimTile(op.domain[d], _FULL)
            for d, kind in enumerate(op.iterators)]


Reduced = dict[tuple[int, int], int]  # (op, dim) -> size of its sequential reduction loop


class TiledNest:
    """Tiles and footprint items of a nest at fixed tile sizes, grown one
    producer at a time (consumers first): adding a producer never changes
    the tiles of the ops already in, only its users' shared reads."""

    def __init__(self, payload: Payload, root: int, sizes: tuple[int, ...],
                 reduced: Reduced | None = None, alignment: int = 1, in_loop: frozenset[int] = frozenset()) -> None:
        self.payload = payload
        self.reduced = reduced or {}
        self.in_loop = in_loop
        self.alignment = alignment
        self.tiles: dict[int, list[DimTile]] = {root: root_tiles(payload.ops[root], sizes)}
        self.members: set[int] = {root}
        self.items: dict[int, list[Item]] = {}
        self.readers: dict[TileKey, int] = {}  # outside tile -> how many member items read it
        self.total = 0  # the items' bytes, each outside tile once
        self._replace(root)

    def copy(self) -> TiledNest:
        """An independent copy (the payload shared)."""
        other = copy.copy(self)
        other.tiles, other.members, other.items, other.readers = \
            dict(self.tiles), set(self.members), dict(self.items), dict(self.readers)
        return other

    def producer_tiles(self, idx: int) -> list[DimTile] | None:
        """The forall-level tile of producer `idx` if fused now, or None when
        it cannot be fused once: its users in the nest read different slices
        of it, or its result map is not a permutation."""
        op = self.payload.ops[idx]
        dims = _result_map_dims(op)
        if dims is None or len(op.results) != 1:
            return None
        wanted: list[DimTile] | None = None
        for u in {u.index for u in op.results[0].users if u.kind == "op" and u.index in self.members}:
            tiles = self._inner(u) if idx in self.in_loop else self.tiles[u]
            for operand in self.payload.ops[u].operands:
                if operand.value.kind == "op" and operand.value.index == idx:
                    t = operand_tile(operand, tiles)
                    if t is None or (wanted is not None and t != wanted):
                        return None
                    wanted = t
        if wanted is None:
            return None
        own = [DimTile(op.domain[d], _FULL) for d in range(len(op.domain))]
        for k, d in enumerate(dims):
            own[d] = wanted[k]
        return own if aligned_to_grains(op, own) else None

    def consumer_tiles(self, idx: int) -> list[DimTile] | None:
        """The iteration tile of consumer `idx` if fused now (consumer
        fusion: its tile is read off the tiles of the nest values it reads),
        or None when it cannot be fused: it reads no nest value, reads one
        through a non-permutation map or a different slice than the nest
        holds, would tile a reduction dim, or writes into a nest value."""
        op = self.payload.ops[idx]
        if len(op.results) != 1 or idx in self.members:
            return None
        found: list[DimTile | None] = [None] * len(op.domain)
        sources = []
        for operand in op.operands:
            if operand.value.kind != "op" or operand.value.index not in self.members:
                continue
            held = self._result_tile(operand.value.index)
            if operand.is_init or operand.exprs is None or held is None:
                return None
            for k, e in enumerate(operand.exprs):
                d = e.as_dim() if e is not None else None
                if d is None or (found[d] is not None and found[d] != held[k]):
                    return None
                found[d] = held[k]
            sources.append((operand, held))
        if not sources:
            return None
        tiles = [t if t is not None else DimTile(op.domain[d], _FULL) for d, t in enumerate(found)]
        if any(t.offset != _FULL and op.iterators[d] != "parallel" for d, t in enumerate(tiles)):
            return None
        if any(operand_tile(operand, tiles) != held for operand, held in sources):
            return None
        return tiles if aligned_to_grains(op, tiles) else None

    def add_consumer(self, idx: int) -> bool:
        return self._join(idx, self.consumer_tiles(idx))

    def _users_in(self, idx: int) -> set[int]:
        return {u.index for u in self.payload.ops[idx].results[0].users if u.kind == "op" and u.index in self.members}

    def delta(self, idx: int) -> int | None:
        """Footprint change if `idx` were added (None: it cannot be)."""
        tiles = self.producer_tiles(idx)
        if tiles is None:
            return None
        self.tiles[idx] = tiles
        self.members.add(idx)
        before, saved = self.total, {u: self.items[u] for u in self._affected(idx) if u in self.items}
        try:
            for u in self._affected(idx):
                self._replace(u)
            return self.total - before
        finally:
            for u in self._affected(idx):
                self._replace(u, saved.get(u, []))
            self.items.pop(idx, None)
            self.members.discard(idx)
            del self.tiles[idx]

    def add(self, idx: int) -> bool:
        return self._join(idx, self.producer_tiles(idx))

    def _join(self, idx: int, tiles: list[DimTile] | None) -> bool:
        """Add op `idx` at `tiles` (None: it cannot join); its users in the
        nest now share its result tile, so their items are recomputed."""
        if tiles is None:
            return False
        self.tiles[idx] = tiles
        self.members.add(idx)
        for op in self._affected(idx):
            self._replace(op)
        return True

    def _replace(self, idx: int, items: list[Item] | None = None) -> None:
        """Op `idx`'s items anew (or `items`), keeping the total: an outside
        tile counts for its first reader only."""
        for _, _, b, key in self.items.get(idx, []):
            if key is not None:
                self.readers[key] -= 1
                if self.readers[key]:
                    continue
                del self.readers[key]
            self.total -= b
        self.items[idx] = self._items(idx) if items is None else items
        for _, _, b, key in self.items[idx]:
            if key is not None:
                self.readers[key] = self.readers.get(key, 0) + 1
                if self.readers[key] > 1:
                    continue
            self.total += b

    def _affected(self, idx: int) -> set[int]:
        """The members whose items change when `idx` joins: itself, its users
        (they now share its result tile), and the other readers of the nest
        values it reads (they may no longer be the only reader: the in-place
        rule)."""
        read = {o.value.index for o in self.payload.ops[idx].operands
                if o.value.kind == "op" and o.value.index in self.members and o.value.index != idx}
        return {idx, *(u for u in self._users_in(idx) if u in self.items),
                *(u for v in read for u in self._users_in(v) if u in self.items)}

    def _in_place_over(self, idx: int, inner: list[DimTile]) -> int | None:
        """The member whose result tile op `idx` (elementwise, its init from
        outside the nest) overwrites with its own result: read only by `idx`,
        whole, and of the same bytes. None when there is none."""
        op = self.payload.ops[idx]
        if not _elementwise(op):
            return None
        init = next(o for o in op.operands if o.is_init)
        if init.value.kind == "op" and init.value.index in self.members:
            return None
        t = operand_tile(init, inner)
        want = prod(x.size for x in t) * init.element_bytes if t is not None else None
        for operand in op.operands:
            v = operand.value
            if operand.is_init or v.kind != "op" or v.index not in self.members or v.index == idx:
                continue
            held = self._result_tile(v.index)
            if held is None or operand_tile(operand, inner) != held or self._users_in(v.index) != {idx}:
                continue
            if prod(x.size for x in held) * operand.element_bytes == want:
                return v.index
        return None

    def inner(self, idx: int) -> list[DimTile]:
        """Op `idx`'s tile in the innermost loop body (its own reduction loops applied)."""
        return self._inner(idx)

    def _inner(self, idx: int) -> list[DimTile]:
        op = self.payload.ops[idx]
        out = []
        for d, t in enumerate(self.tiles[idx]):
            size = self.reduced.get((idx, d))
            out.append(DimTile(size, _moved_by(("r", idx, d))) if size is not None and size < op.domain[d] else t)
        return out

    def _items(self, idx: int) -> list[Item]:
        """What op `idx` adds to the footprint (formula in the module doc);
        a tile of an outside tensor carries its key (counted once)."""
        op = self.payload.ops[idx]
        inner = self._inner(idx)
        fp = Footprint(alignment=self.alignment)
        keys: dict[int, TileKey] = {}  # item position -> the outside tile it is
        for operand in op.operands:
            in_nest = operand.value.kind == "op" and operand.value.index in self.members
            if operand.is_init:
                if not in_nest:
                    t = operand_tile(operand, inner)
                    shape = tuple(x.size for x in t) if t is not None else operand.shape
                    over = self._in_place_over(idx, inner)
                    if over is None:
                        fp.add(f"op{idx} result", shape, operand.element_bytes)
                    else:
                        fp.items.append((f"op{idx} result, in place over op{over}'s tile", shape, 0))
                continue
            t = operand_tile(operand, inner)
            shape = _result_shape(op, inner) if t is None else tuple(x.size for x in t)  # pad/pack/unpack
            if op.name == "tensor.pad":  # the source rows a padded tile covers: its padding is not read
                shape = tuple(min(n, s) for n, s in zip(shape, operand.shape))
            if in_nest and t is not None and t == self._result_tile(operand.value.index):
                continue
            if not in_nest and t is not None:
                keys[len(fp.items)] = (operand.value, tuple(t))
            fp.add(f"op{idx} reads {operand.value.label()}", shape, operand.element_bytes)
        if not any(o.is_init for o in op.operands):  # tensor.pad: result without init
            fp.add(f"op{idx} result", _result_shape(op, inner), op.results[0].element_bytes)
        if op.unpacked_tiles and not _aligned(op, inner):  # the whole inner tiles, unpacked, then sliced
            fp.add(f"op{idx} unpacked whole inner tiles", _unpacked_shape(op, inner), op.results[0].element_bytes)
        return [(what, shape, b, keys.get(k)) for k, (what, shape, b) in enumerate(fp.items)]

    def _result_tile(self, idx: int) -> list[DimTile] | None:
        op = self.payload.ops[idx]
        if op.name == "tensor.pad":
            return self.tiles[idx]
        init = next((o for o in op.operands if o.is_init), None)
        return operand_tile(init, self.tiles[idx]) if init is not None else None

    def footprint(self) -> Footprint:
        fp = Footprint(alignment=self.alignment)
        first: dict[TileKey, str] = {}
        for idx in sorted(self.members, reverse=True):
            for what, shape, b, key in self.items[idx]:
                if key is not None and key in first:
                    fp.items.append((f"{what}, the tile {first[key]} reads too (one buffer)", shape, 0))
                    continue
                if key is not None:
                    first[key] = f"op{idx}"
                fp.items.append((what, shape, b))
                fp.total += b
        return fp

    def shared_tiles(self) -> list[str]:
        """The outside tensors of which several member items read one tile."""
        return sorted({key[0].label() for key, n in self.readers.items() if n > 1})


def nest_tiles(payload: Payload, root: int, members: frozenset[int], sizes: tuple[int, ...],
               consumers: tuple[int, ...] = (), reduced: Reduced | None = None,
               in_loop: frozenset[int] = frozenset()) -> dict[int, list[DimTile]] | None:
    """Forall-level iteration tile of every member (a producer in a reduction
    loop: its tile there), or None when some member cannot be fused once
    (see TiledNest.producer_tiles / consumer_tiles)."""
    nest = _grow(payload, root, members, sizes, reduced or {}, consumers=consumers, in_loop=in_loop)
    return nest.tiles if nest is not None else None


def _grow(payload: Payload, root: int, members: frozenset[int], sizes: tuple[int, ...],
          reduced: Reduced, alignment: int = 1, consumers: tuple[int, ...] = (),
          in_loop: frozenset[int] = frozenset()) -> TiledNest | None:
    nest = TiledNest(payload, root, sizes, reduced, alignment, in_loop)
    if not aligned_to_grains(payload.ops[root], nest.tiles[root]) or \
            any(not payload.ops[o].tile_ok(d, size) for (o, d), size in reduced.items()):
        return None
    for idx in sorted(members - {root} - set(consumers), reverse=True):  # users before producers
        if not nest.add(idx):
            return None
    for idx in consumers:  # consumer fusion: after the producers, in fusion order
        if not nest.add_consumer(idx):
            return None
    return nest


def footprint(payload: Payload, nest: NestShape, alignment: int = 1) -> Footprint | None:
    """Bytes live in one innermost iteration (formula in the module doc), or
    None when the members cannot share the nest."""
    tiled = tiled_nest(payload, nest, alignment)
    return tiled.footprint() if tiled is not None else None


def _elementwise(op: TileableOp) -> bool:
    """A parallel generic whose full-rank operands all use its result's
    permutation map (placement.elementwise, on the payload model)."""
    if op.name != "linalg.generic" or any(k != "parallel" for k in op.iterators) or len(op.results) != 1:
        return False
    init = next((o for o in op.operands if o.is_init), None)
    if init is None or init.exprs is None:
        return False
    dims = [e.as_dim() if e is not None else None for e in init.exprs]
    if None in dims or sorted(dims) != list(range(len(op.domain))):  # type: ignore[type-var]
        return False
    return all(o.exprs == init.exprs for o in op.operands
               if o.exprs is not None and len(o.exprs) == len(init.exprs))


def _result_shape(op: TileableOp, inner: list[DimTile]) -> tuple[int, ...]:
    if op.name == "linalg.pack":  # outer dims tiled, inner tile dims whole
        r = op.results[0].shape
        return tuple(t.size for t in inner) + tuple(r[len(inner):])
    if op.unpacked_tiles:  # what an unpack reads: the whole inner tiles its result tile overlaps
        return _unpacked_shape(op, inner)
    return tuple(t.size for t in inner)


def _aligned(op: TileableOp, inner: list[DimTile]) -> bool:
    """Every tile of an unpack starts and ends on inner tile boundaries (or is the whole dim)."""
    return all(inner[d].size == op.domain[d] and op.domain[d] % t == 0 or inner[d].size % t == 0
               for d, t in op.unpacked_tiles)


def _unpacked_shape(op: TileableOp, inner: list[DimTile]) -> tuple[int, ...]:
    """The result tile grown to the inner tiles it overlaps: ceil(s / t) of
    them where tiles start on a boundary (tile sizes that are multiples of t,
    or the whole dim), else ceil((s - 1) / t) + 1 (a tile straddling one)."""
    shape = [t.size for t in inner]
    for d, t in op.unpacked_tiles:
        s = inner[d].size
        starts_aligned = s % t == 0 or s == op.domain[d]
        shape[d] = t * (-(-s // t) if starts_aligned else -(-(s - 1) // t) + 1)
    return tuple(shape)


def untiled_footprint(payload: Payload, op: TileableOp, alignment: int = 1) -> Footprint:
    """An op left whole holds its whole operands and results -- more than
    its iteration space reads when a strided window skips the last rows."""
    fp = Footprint(alignment=alignment)
    for operand in op.operands:
        what = f"op{op.index} result" if operand.is_init else f"op{op.index} reads {operand.value.label()}"
        fp.add(what, operand.shape, operand.element_bytes)
    if not any(o.is_init for o in op.operands):  # tensor.pad: result without init
        fp.add(f"op{op.index} result", op.results[0].shape, op.results[0].element_bytes)
    return fp


def two_level_footprint(payload: Payload, members: frozenset[int], names: dict[int, list[str]],
                        outer: dict[str, int], inner: dict[str, int], alignment: int = 1) -> Footprint | None:
    """Footprint of a two-level nest (seed 004: blocks of the y axes in
    parallel, then a sequential loop over the r axes inside the block): every
    member whose dims include an inner-tiled axis runs in a loop of its own
    inside the block; the others run once per block. A loop body holds the
    tiles of its op plus those of the ops run once per block; values passed
    between the ops' loops are block-sized tensors kept in main memory.

        footprint = sum of items(X) for X run once per block
                  + max of items(X) for X with an inner loop
    items(X) = each input tile + the result tile (the init's tile)."""
    once = Footprint(alignment=alignment)
    worst = Footprint(alignment=alignment)
    for idx in sorted(members):
        op = payload.ops[idx]
        tiles, looped = two_level_tiles(op, names[idx], outer, inner)
        fp = Footprint(alignment=alignment)
        for operand in op.operands:
            t = operand_tile(operand, tiles)
            if t is None:
                return None
            what = f"op{idx} result" if operand.is_init else f"op{idx} reads {operand.value.label()}"
            fp.add(what, tuple(x.size for x in t), operand.element_bytes)
        if not looped:
            once.items += fp.items
            once.total += fp.total
        elif fp.total > worst.total:
            worst = fp
    return Footprint(total=once.total + worst.total, items=once.items + worst.items, alignment=alignment)


def two_level_tiles(op: TileableOp, names: list[str], outer: dict[str, int],
                    inner: dict[str, int]) -> tuple[list[DimTile], bool]:
    """One member's tile in a two-level nest (its dims named by axis), and
    whether it runs in a loop of its own inside the block."""
    tiles, looped = [], False
    for d, axis in enumerate(names):
        if axis in inner and inner[axis] < op.domain[d]:
            tiles.append(DimTile(inner[axis], _moved_by(("a", axis))))
            looped = True
        elif axis in outer and outer[axis] < op.domain[d]:
            tiles.append(DimTile(outer[axis], _moved_by(("y", axis))))
        else:
            tiles.append(DimTile(op.domain[d], _FULL))
    return tiles, looped


def tiled_nest(payload: Payload, nest: NestShape, alignment: int = 1) -> TiledNest | None:
    """The nest's members at their tiles (None when they cannot share it)."""
    reduced = {(op, d): s for op, d, s in nest.reduction_tiles}
    return _grow(payload, nest.root, nest.members, nest.root_tiles, reduced, alignment, nest.consumers,
                 nest.in_loop)


def innermost_tiles(payload: Payload, nest: LoopNest) -> dict[int, list[DimTile]]:
    """The tile each op of a planned nest iterates over in its innermost loop
    body: the forall-level tiles, with the plan's sequential (reduction or
    two-level inner) loop sizes on the dims they tile, and the row loop's
    (LoopNest.row_tiles) on the root's."""
    root = payload.ops[nest.root.index]
    rows = nest.row_tiles or [0] * len(root.domain)
    sizes = tuple(r or s or root.domain[d] for d, (s, r) in enumerate(zip(nest.tile_sizes, rows)))
    reduced = {(r.op, r.dim): r.size for r in nest.reduction_tiling}
    tiles = nest_tiles(payload, nest.root.index, frozenset(o.index for o in nest.ops), sizes,
                       tuple(c.index for c in nest.consumers), reduced,
                       frozenset(o.index for o in nest.loop_producers)) or {}
    out = {}
    for idx, t in tiles.items():
        inner = list(t)
        for r in nest.reduction_tiling:
            if r.op == idx:
                inner[r.dim] = DimTile(r.size, t[r.dim].offset)
        out[idx] = inner
    return out
