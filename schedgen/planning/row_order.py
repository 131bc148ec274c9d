"""CPU targets: the row blocks of a register kernel that copies a panel,
walked in order inside a forall over column blocks.

A register kernel copies the panel of its row-free operand (a matmul's B)
once per forall tile, reading it in short strided rows. With the forall
tiling rows and columns both, the tiles that follow one another read
different column blocks, so each copy finds its source in L3 or memory:
1024³ on AVX2 (a [128, 64] forall, whole K) spent a quarter of its samples
in the copies. Here the forall tiles the columns only, and an scf.for
inside it walks the row blocks of the searched tile. Every loop body holds
the same tiles as before (the footprint is unchanged), but the row blocks
of one column block copy their panels from a source the block before left
in cache, and B leaves main memory once per column block. Where its panels
are full, the schedule also hoists the kernel's panel copies out of the
panel and row loops (emit.schedule._panel_hoist): each forall tile packs
its column block once, panel after panel, for all its row blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from schedgen.analysis.footprint import DimTile, forall_dims, innermost_tiles, operand_tile
from schedgen.analysis.tile_search import even_shares, tile_count
from schedgen.model.cpu import CpuInfo
from schedgen.model.payload import Payload
from schedgen.model.plan import LoopNest, Note, NoteKind
from schedgen.planning.cpu_levels import copied_panel, panel_operand, short_row_block


def rows_in_order(payload: Payload, nest: LoopNest, cpu: CpuInfo, untiled: frozenset[int] = frozenset()) -> LoopNest:
    """`nest` with its row dims tiled by an scf.for inside the forall
    (LoopNest.row_tiles) where that pays and computes nothing twice
    (row_order); otherwise `nest` unchanged.

    Only a one-level forall nest whose reductions are whole (a K loop
    reloads the kernel's output block per chunk: 2048³ by rows of 256
    inside, chunks of 256, was slower), with no consumers, loop producers
    or recomputed ops (fused by other steps). `untiled`: the ops still
    untiled when the schedule tiles this nest (row_order). The planner's
    search prices such nests by their row-loop traffic (planner._Nest.traffic)."""
    if nest.loop_kind != "scf.forall" or nest.levels != 1 or nest.consumers or nest.loop_producers \
            or nest.reduction_tiling or nest.recomputed or nest.local_buffers or nest.row_tiles:
        return nest
    order = row_order(payload, nest.root.index, innermost_tiles(payload, nest), nest.tile_sizes, cpu, untiled)
    if order is None:
        return nest
    rows, op, k = order.rows, order.op, order.operand
    root = payload.ops[nest.root.index]
    kept = tuple(s or n for s, n in zip(order.forall_sizes(root.domain, nest.tile_sizes), root.domain))
    forall = forall_dims(root, kept)
    columns = prod(tile_count(n, s) for d, (n, s) in enumerate(zip(root.domain, kept)) if d not in rows)
    row_sizes = ", ".join(f"d{d} by {nest.tile_sizes[d]}{_last_block(nest.tile_sizes[d], root.domain[d])}"
                          for d in rows)
    split = "" if order.parts == 1 else \
        f", and d{rows[0]} in {order.parts} parts (the columns alone would give the cores unequal shares)"
    note = Note(kind=NoteKind.ROWS_IN_ORDER, text=(
        f"rows in order: the forall tiles the columns ({columns} tiles{split}), and an scf.for inside it walks the "
        f"rows ({row_sizes}), every op fused into it: op{op}'s kernel copies operand {k}'s panels once per column "
        "block for all its row blocks (where they are full, or the kernel peels its last panel before the copy; "
        "else per row block, from the block the one before left in cache), not once per tile (1024³ on AVX2, 1 thread: 39.3 -> 34.3 ms, numpy 32.0). The tiles "
        "were searched by this nest's traffic, the row operand read once per column block: wide column blocks "
        "(2048³, by the whole K: 329 -> 269 ms, numpy 232)"))
    return nest.model_copy(update={
        "tile_sizes": [kept[d] if d in forall else 0 for d in range(len(kept))],
        "row_tiles": [nest.tile_sizes[d] if d in rows else 0 for d in range(len(kept))],
        "dims_order": [d for d in nest.dims_order if d in forall],
        "notes": [*nest.notes, note]})


@dataclass(frozen=True)
class RowOrder:
    """The row dims of the root a row loop walks, and the member `op` whose
    kernel copies the panel of its `operand`."""
    rows: list[int]
    op: int
    operand: int
    parts: int = 1  # forall tiles along the first row dim, where the column blocks alone give the cores unequal shares

    def forall_sizes(self, domain: Sequence[int], tile_sizes: Sequence[int]) -> list[int]:
        """The forall's tiles (0: whole) of a nest searched at `tile_sizes`: its row dims whole, or the first
        one in `parts`."""
        return [(n // self.parts if d == self.rows[0] and self.parts > 1 else 0) if d in self.rows else s
                for d, (s, n) in enumerate(zip(tile_sizes, domain))]


def row_order(payload: Payload, root_index: int, tiles: dict[int, list[DimTile]], tile_sizes: Sequence[int],
              cpu: CpuInfo, untiled: frozenset[int] = frozenset()) -> RowOrder | None:
    """The row loop of a one-level forall nest tiled by `tile_sizes` (the
    members' innermost tiles: `tiles`), or None where the rule does not
    apply. No member may read an op in `untiled` (still untiled when the
    schedule tiles this nest): the row loop's transform.structured.fuse
    fuses every producer it reaches (its cleanup merges the forall's slice
    of an operand into its own, whose source is then that producer), and
    would compute that one per column block (a ReLU left out of a matmul's
    nest: its own nest then tiled nothing). The kernels' fuse steps have no
    cleanup and stop at the forall's slices. It needs one member whose
    kernel copies a panel, counting every row of the column block as a
    reuse (the block is packed once); the row dims are the root's tiled
    dims that panel does not move with. Every other member's tile must move with a row dim, or the row
    loop would compute it again per row block (a weight transpose computed
    per panel). The columns left to the forall must still give the cores
    equal shares."""
    if any(v.value.kind == "op" and v.value.index in untiled - tiles.keys() for i in tiles
           for v in payload.ops[i].operands):
        return None
    root = payload.ops[root_index]
    tiled = [d for d, s in enumerate(tile_sizes) if 0 < s < root.domain[d]]
    copied = []
    for i, t in tiles.items():
        k = panel_operand(payload.ops[i], [x.size for x in t], cpu)
        panel = None if k is None else operand_tile(payload.ops[i].operands[k], t)
        if panel is None:
            continue
        rows = [d for d in tiled if ("d", d) not in _loops(panel)]
        # the column block is packed once for all row blocks: they all reuse its panels
        whole = [payload.ops[i].domain[j] if _loops([x]) & {("d", d) for d in rows} else x.size
                 for j, x in enumerate(t)]
        # the nest's root computes nothing in its kernel's tiles (it is the last op of the nest)
        if copied_panel(payload.ops[i], [x.size for x in t], cpu, whole, own_root=i == root_index,
                        nest_ops=frozenset(tiles)) == k:
            copied.append((i, k, rows))
    if len(copied) != 1:
        return None
    op, k, rows = copied[0]
    if not rows or any(not _loops(t) & {("d", d) for d in rows} for i, t in tiles.items() if i != root_index):
        return None
    columns = prod(tile_count(root.domain[d], tile_sizes[d]) for d in tiled if d not in rows)
    blocks = tile_count(root.domain[rows[0]], tile_sizes[rows[0]])
    # the fewest equal parts of whole row blocks, two at least (a row loop), that with the column blocks give
    # the cores equal shares (1000³ in 200 columns: 5 column blocks, split in 2 by rows: 0.85 -> 0.97 of
    # numpy's speed on 2 threads). Not to make a core's share where the column blocks are fewer than the
    # cores: not measured
    parts = next((p for p in range(1, blocks // 2 + 1) if blocks % p == 0 and _equal_shares(columns * p, cpu.cores)),
                 None) if columns >= cpu.cores else None
    return None if parts is None else RowOrder(rows, op, k, parts)


def register_row_step(payload: Payload, root_index: int, order: RowOrder, tiles: dict[int, list[DimTile]],
                      cpu: CpuInfo) -> int | None:
    """The rows a row block should be a multiple of, where the kernel's row
    tiles along the row loop's one dim take fewer accumulators than it has
    (cpu_levels.short_row_block: 32-row blocks in 4s): its full rows, so
    that every block but the last is whole register tiles (the planner then
    tries larger blocks, the last one partial). None elsewhere: only a
    contraction that is the nest's root (its kernel's rows are the row
    loop's), one row dim, and no forall tiles along it."""
    if order.op != root_index or len(order.rows) != 1 or order.parts != 1:
        return None
    tile = tiles[order.op]
    short = short_row_block(payload.ops[order.op], [t.size for t in tile], cpu)
    if short is None or _loops([tile[short[0]]]) != {("d", order.rows[0])}:
        return None
    return short[1]


def _last_block(size: int, n: int) -> str:
    """What the note says of a partial last row block (planner._whole_register_rows)."""
    if n % size == 0:
        return ""
    return (f", the last block {n % size} rows: blocks of whole register row tiles (2048³ on AVX2: 1.08x faster "
            "than divisor blocks of 32 in 4-row tiles)")


def _equal_shares(tiles: int, cores: int) -> bool:
    """Whether `tiles` forall tiles give every core as much work, or nearly (at least 4 each)."""
    return tiles >= cores and even_shares(tiles, cores)


def _loops(tile: list[DimTile]) -> set[tuple]:
    """The loops a tile moves with."""
    return {loop for t in tile for loop, _ in t.offset[0]}
