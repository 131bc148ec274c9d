"""The levels of a CPU schedule below the outer forall: cache-level tiles of
the reduction dims (L1) and register tiles, per op of every nest.

The outer `scf.forall` is the memory-fit plan against the per-core L2 (with
at least one tile per core, see planner). Inside it, every op whose handle
the schedule holds is tiled again with `scf.for`:

- a contraction (mul + add body, reduction dims) is tiled into a block of
  `mr x nr` accumulators (nr along the output's contiguous dim, a multiple
  of the vector lanes; mr along the next output dim) that stays in vector
  registers while its reduction dims step by 1: the register-resident
  outer-product kernel of Low et al. / Halide's `vectorize(c).unroll(x)`.
  Around it, its innermost reduction dim is tiled by `kc` so that the
  `kc x nr` panel of the second operand and the `mr x kc` rows of the first
  stay in half of L1 while the block of accumulators is reused;
- every other op (fill, elementwise epilogues, row reductions) gets a
  vector-sized tile along the output's contiguous dim and a few rows, with
  reduction dims left whole (vectorized as `vector.multi_reduction`).

Sizes divide the op's extent inside the forall, so every vector shape is
static and vectorization applies.
"""

from __future__ import annotations

from schedgen.cpu import CpuInfo
from schedgen.footprint import nest_tiles
from schedgen.payload import Payload, TileableOp
from schedgen.plan import InnerTiling, LoopNest, Plan
from schedgen.tile_search import divisors

# Elements of one vectorized tile of a non-contraction op (64 AVX-512
# registers of f32): longer row reductions are walked by an scf.for.
MAX_VECTOR_ELEMENTS = 1024


def _largest_divisor(n: int, limit: int, multiple: int = 1) -> int:
    """Largest divisor of n that is <= limit, preferring multiples of `multiple`."""
    ds = [d for d in divisors(n) if d <= max(1, limit)]
    good = [d for d in ds if d % multiple == 0]
    return max(good or ds)


def is_contraction(op: TileableOp) -> bool:
    """A reduction whose body multiplies and accumulates two inputs (matmul,
    conv, batch matmul): the kind register tiling pays off for."""
    inputs = [o for o in op.operands if not o.is_init]
    body = set(op.body_ops)
    return bool(op.reduction_dims()) and len(inputs) >= 2 and bool(body & {"arith.mulf", "arith.muli"}) \
        and bool(body & {"arith.addf", "arith.addi"})


def _output_dims(op: TileableOp) -> list[int]:
    """The op dims behind the dims of its first init, outermost first (only
    plain dim expressions)."""
    inits = [o for o in op.operands if o.is_init]
    if not inits or inits[0].exprs is None:
        return []
    return [d for e in inits[0].exprs if e is not None and (d := e.as_dim()) is not None]


def _element_bytes(op: TileableOp) -> int:
    inits = [o for o in op.operands if o.is_init]
    return inits[0].element_bytes if inits else 4


def inner_tiling(op: TileableOp, extents: list[int], cpu: CpuInfo) -> InnerTiling:
    lanes = cpu.lanes(_element_bytes(op))
    out = [d for d in _output_dims(op) if op.iterators[d] == "parallel"]
    v = out[-1] if out else None
    m = next((d for d in reversed(out[:-1]) if extents[d] > 1), None)
    reg = [1 if k == "parallel" else 0 for k in op.iterators]
    if is_contraction(op):
        # Accumulators: 3/4 of the registers, the rest for the broadcast
        # operand and the vectors of the second operand.
        budget = max(4, cpu.vector_registers * 3 // 4)
        # Two vectors wide: with four (a whole 64-wide f32 output), LLVM 22's JIT
        # code for a 3x3 convolution crashed (SIGSEGV, conv_pool payload).
        nr = _largest_divisor(extents[v], 2 * lanes, lanes) if v is not None else 1
        vecs = max(1, -(-nr // lanes))
        mr = _largest_divisor(extents[m], max(1, budget // vecs)) if m is not None else 1
        if v is not None:
            reg[v] = nr
        if m is not None:
            reg[m] = mr
        # L1 level: the innermost reduction dim by kc, the others by 1, so that
        # kc x nr of one operand and mr x kc of the other fit L1 (kc = 256 measured
        # 5-10% faster than 128 on the 1024 matmul; 512 was a third slower).
        cache = [0] * len(extents)
        red = op.reduction_dims()
        inner = red[-1]
        for d in red[:-1]:
            cache[d] = 1
        eb = _element_bytes(op)
        kc_limit = cpu.l1_bytes // max(1, (mr + nr) * eb)
        cache[inner] = _largest_divisor(extents[inner], kc_limit)
        # Register level: the innermost reduction steps by 4 (unrolled outer
        # products). With a step of 1 the unit dim is folded away before
        # vectorization, the op stops being a contraction and lowers to
        # separate multiplies and adds instead of FMAs (34 vs 57 GFLOP/s).
        for d in red[:-1]:
            reg[d] = 1
        reg[inner] = _largest_divisor(cache[inner], 4)
        if all(c in (0, e) for c, e in zip(cache, extents)):
            cache = []
        return InnerTiling(op=op.index, rank=len(extents), extents=extents, cache_sizes=cache,
                           register_sizes=reg, kind="contraction", accumulators=mr * vecs)
    red = op.reduction_dims()
    if red and _row_reduction(op):
        # A row reduction: vectorized along its reduction dims (one row at a
        # time), whole when short enough, else in vector-sized steps.
        per_row = 1
        for d in red:
            step = _largest_divisor(extents[d], max(1, MAX_VECTOR_ELEMENTS // per_row), lanes)
            reg[d] = 0 if step == extents[d] else step
            per_row *= step
        return InnerTiling(op=op.index, rank=len(extents), extents=extents,
                           register_sizes=_drop_unit(reg, extents, op), kind="reduction")
    # Elementwise, and reductions whose inputs are contiguous along a parallel
    # dim (pooling windows): vectors along the output's contiguous dim, window
    # dims stepped by 1.
    if v is not None:
        reg[v] = _largest_divisor(extents[v], 4 * lanes, lanes)
    if m is not None:
        reg[m] = _largest_divisor(extents[m], 4)
    for d in red:
        reg[d] = 1
    return InnerTiling(op=op.index, rank=len(extents), extents=extents, register_sizes=_drop_unit(reg, extents, op),
                       kind="reduction" if red else "elementwise")


def _row_reduction(op: TileableOp) -> bool:
    """The first input is contiguous along a reduction dim (softmax's row max)."""
    inputs = [o for o in op.operands if not o.is_init and o.exprs]
    if not inputs:
        return False
    last = inputs[0].exprs[-1]
    d = last.as_dim() if last is not None else None
    return d is not None and op.iterators[d] != "parallel"


def _drop_unit(reg: list[int], extents: list[int], op: TileableOp) -> list[int]:
    """A parallel dim of extent 1 needs no loop."""
    return [0 if s == e == 1 and k == "parallel" else s for s, e, k in zip(reg, extents, op.iterators)]


def _nest_extents(payload: Payload, nest: LoopNest) -> dict[int, list[int]]:
    members = frozenset(o.index for o in nest.ops)
    root = payload.ops[nest.root.index]
    sizes = tuple(s if s else n for s, n in zip(nest.tile_sizes, root.domain))
    tiles = nest_tiles(payload, root.index, members, sizes, tuple(c.index for c in nest.consumers)) or {}
    extents = {i: [t.size for t in ts] for i, ts in tiles.items()}
    for r in nest.reduction_tiling:  # ops already tiled along a reduction (or a two-level inner) dim
        if r.op in extents:
            extents[r.op][r.dim] = r.size
    return extents


def handled_ops(nest: LoopNest) -> list[int]:
    """Ops the schedule holds a handle to after the nest's tile-and-fuse
    steps: a producer-driven scf.for nest fuses its producers with
    transform.structured.fuse, which returns no handle for them."""
    fuse_all = nest.driven == "producer" and nest.loop_kind == "scf.for" and bool(nest.producers)
    ops = [nest.root.index, *[c.index for c in nest.consumers]]
    if not fuse_all:
        ops += [p.index for p in nest.producers]
    return ops


def cpu_inner(payload: Payload, plan: Plan, cpu: CpuInfo) -> dict[int, InnerTiling]:
    """Inner tiling of every op the schedule holds a handle to: nest members
    at their forall tile, untiled ops at their full domain."""
    out: dict[int, InnerTiling] = {}
    for nest in plan.nests:
        extents = _nest_extents(payload, nest)
        for idx in handled_ops(nest):
            if idx in extents:
                out[idx] = inner_tiling(payload.ops[idx], extents[idx], cpu)
    for u in plan.untiled:
        op = payload.ops[u.op.index]
        out[op.index] = inner_tiling(op, list(op.domain), cpu)
    return out
