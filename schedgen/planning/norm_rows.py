"""CPU targets: a nest of row reductions and what reads them (a layer
norm, a softmax) computed one row at a time, every op of the nest in the
root's register loop.

Tiled op by op inside the forall, each op of such a nest wrote its whole
tile (torch-mlir's layer norm: 18 ops, a mean and a variance in f64), and
the next one read it back: swin's 8x56x96 tile kept a 344 KB f64 copy of
its input in L2, and each reduction reduced one row per horizontal step.
One row at a time, the row's values, its sums and everything computed
from them stay in vector registers: swin's two norms took 0.44 ms each of
its 12.3 on one thread, 0.15 and 0.12 so.

The root is tiled by 1 along every dim but its output's contiguous one
(the row), and the other ops are fused into that loop, users first. Each
is then a whole-row vector op, and the vectorizer's store-to-load
forwarding leaves no buffer between them.
"""

from __future__ import annotations

from math import prod

from schedgen.analysis.footprint import nest_tiles
from schedgen.model.cpu import CpuInfo
from schedgen.model.payload import NON_STRUCTURED_TILEABLE, Payload, TileableOp
from schedgen.model.plan import InnerTiling, LoopNest


def row_chain(payload: Payload, nest: LoopNest, inner: dict[int, InnerTiling], v: int | None,
              cpu: CpuInfo) -> InnerTiling | None:
    """The root's tiling that computes the whole nest one row at a time (its
    other ops fused into it, users first), or None where the rule does not
    apply: `inner` (the per-op tilings the nest would get otherwise) must
    hold every op of the nest, each vectorized and in one forall level, at
    least one a row reduction read by another op of the nest; `v` is the
    root's dim behind its output's contiguous one (the row). Each op's row
    may take 1.5 times the vector register file: a layer norm's rows of
    768 f32 (48 AVX-512 registers) were 1.36x faster so, a softmax's of
    1024 (64) 0.95x, against rows reduced in chunks of four vectors
    (tile_reduction_using_for) that stream through L1."""
    root = payload.ops[nest.root.index]
    members = [o.index for o in nest.ops]
    if v is None or nest.loop_kind != "scf.forall" or nest.levels != 1 or nest.consumers or nest.loop_producers \
            or nest.reduction_tiling or nest.row_tiles or nest.local_buffers or nest.recomputed \
            or set(inner) != set(members) or len(members) < 2 \
            or any(not _vectorized_linalg(payload.ops[i], inner[i]) for i in members):
        return None
    extents = inner[root.index].extents
    # one row of the forall tile, as root tile sizes
    sizes = tuple(extents[d] if d == v else 1 for d in range(len(extents)))
    tiles = nest_tiles(payload, root.index, frozenset(members), sizes)
    if tiles is None or not any(_reduction_read_here(payload, payload.ops[i], set(members)) for i in members):
        return None
    row_bytes = 3 * cpu.vector_registers * cpu.vector_bits // 16
    moving = {("d", d) for d, e in enumerate(extents) if d != v and e > 1}
    for i, t in tiles.items():
        op = payload.ops[i]
        whole = all(t[d].size == op.domain[d] for d in op.reduction_dims())
        loops = {loop for x in t for loop, _ in x.offset[0]}
        # every op moves with every row loop, or it would be computed again per row
        if not whole or not moving <= loops or prod(x.size for x in t) * _widest_element_bytes(op) > row_bytes:
            return None
    reg = [0 if d == v or e == 1 else 1 for d, e in enumerate(extents)]
    if not any(reg):
        return None
    return InnerTiling(op=root.index, rank=len(extents), extents=extents, register_sizes=reg, kind="rows",
                       fused=sorted(set(members) - {root.index}, reverse=True))


def _vectorized_linalg(op: TileableOp, t: InnerTiling) -> bool:
    """A structured linalg op of one result the vectorizer takes, not a kernel of its own."""
    return op.name.startswith("linalg.") and op.name not in NON_STRUCTURED_TILEABLE and len(op.results) == 1 \
        and t.scalar is None and t.kind in ("elementwise", "reduction") and not t.channel_block \
        and not t.decompose and not t.in_place


def _reduction_read_here(payload: Payload, op: TileableOp, members: set[int]) -> bool:
    """A reduction whose result another op of the nest reads (a mean, a row max)."""
    return bool(op.reduction_dims()) and any(
        u.kind == "op" and u.index in members for r in op.results for u in r.users)


def _widest_element_bytes(op: TileableOp) -> int:
    """The widest element any operand of `op` holds in registers (a truncf's f64 input, not its f32 init)."""
    return max((o.element_bytes for o in op.operands), default=4)
