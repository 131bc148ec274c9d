"""The levels of a CPU schedule below the outer forall: register kernels
for contractions, register tiles for every other op, and which nests run on
several cores.

The outer `scf.forall` is the memory-fit plan against the per-core L2 (with
at least one tile per core, see planner). Inside it:

- every contraction (mul + add body, reduction dims) becomes a register
  kernel (`RegisterKernel`): computed in the register tiles of the last
  elementwise op it feeds, column panels of nr (a multiple of the vector
  lanes along the output's contiguous dim) with the panel of its row-free
  operand copied once into a contiguous buffer, then rows of mr, then its
  reductions (one that indexes every operand plainly by 4 -- a matmul's K,
  an NCHW convolution's input channels -- the filter taps by 1). The mr x nr accumulators stay in vector
  registers over the whole reduction: the register-resident outer-product
  kernel of Low et al. / Halide's `vectorize(c).unroll(x)` with
  `compute_at` for the epilogue;
- every other op whose handle the schedule holds gets `scf.for` tiles of a
  few rows by up to four vectors (transposes: lanes x lanes blocks), with
  row reductions split along the row into vector-wide partial results
  (`tile_reduction_using_for`). A contraction that cannot be a kernel keeps
  the older per-op tiling: an L1 level of its innermost reduction (kc) and
  an mr x nr register block.

Sizes divide the op's extent inside the forall, so every vector shape is
static and vectorization applies.
"""

from __future__ import annotations

from math import gcd, prod

from schedgen.analysis.flops import is_multiply_accumulate
from schedgen.analysis.footprint import innermost_tiles
from schedgen.analysis.graph import users
from schedgen.analysis.tile_search import divisors
from schedgen.model.cpu import CpuInfo
from schedgen.model.payload import (
    NON_STRUCTURED_TILEABLE,
    Operand,
    Payload,
    TileableOp,
    ValueRef,
)
from schedgen.model.plan import DotColumn, InnerTiling, LoopNest, Plan, RegisterKernel
from schedgen.planning.norm_rows import row_chain

# Row tiles that must reuse a register kernel's packed panel for its copy to
# pay off. Not 8: with 8 row tiles the copy did not pay where its source is
# not in L2 (ResNet-18's stem and 56x56 convolutions, 64 output channels:
# 1.67 -> 1.46 and 1.42 -> 1.24 ms without it, the whole model 24.3 -> 23.1
# ms), nor in the MLP (0.19 -> 0.175 ms); an L2-resident one lost 5% (the
# 32x32 stem block). 4 row tiles did not pay either (MLP, 32-row tiles:
# 0.35-0.41 ms without the copy against 0.40-0.42 ms with it). Fewer do where
# the panel's rows evict each other from L2 (_panel_to_copy).
MIN_PANEL_REUSE = 16

# Elements of one vectorized tile of a non-contraction op (64 AVX-512
# registers of f32): longer row reductions are walked by an scf.for.
MAX_VECTOR_ELEMENTS = 1024


def _largest_divisor(n: int, limit: int, multiple: int = 1) -> int:
    """Largest divisor of n that is <= limit, preferring multiples of `multiple`."""
    ds = [d for d in divisors(n) if d <= max(1, limit)]
    good = [d for d in ds if d % multiple == 0]
    return max(good or ds)


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


def _vector_dims(op: TileableOp, extents: list[int]) -> tuple[int | None, int | None]:
    """(v, m): the op dims behind the output's contiguous dim and the rows of
    a register block: the next output dim with more than one element, or for
    a contraction the innermost one that the inputs read along v do not
    index, so that every row shares their loaded vectors. An NCHW 1x1
    convolution's rows are output channels, not output rows: each output
    row read a vector of its own per FMA from L2 (a MobileNet projection at
    15% of peak, 0.144 ms; 0.046 ms so)."""
    out = [d for d in _output_dims(op) if op.iterators[d] == "parallel"]
    while len(out) > 1 and op.domain[out[-1]] == 1 and op.domain[out[-2]] > 1 and _sums_channels(op, out[-2]):
        out.pop()  # a 1-D convolution as 2-D (W by 1: wav2vec2's grouped one): lanes along its H
    v = out[-1] if out else None
    rows = [d for d in reversed(out[:-1]) if extents[d] > 1]
    if v is not None and is_multiply_accumulate(op):
        read = set().union(*[dims for dims in _operand_dims(op) if v in dims])
        rows = [d for d in rows if d not in read] or rows
    return v, (rows[0] if rows else None)


def _sums_channels(op: TileableOp, d: int) -> bool:
    """Whether an input is contiguous along op dim `d` (read plainly or in a
    window, oh + kh, with only unit dims after it) and indexed by a
    reduction of more than one element by itself (its channels): rows of
    output channels then share its loaded vectors. Not a depthwise
    convolution's input: along its H each row read vectors of its own
    (ConvBERT's 9-tap one onto 32 tokens: 7% slower); nor a squeeze-excite
    matrix-vector product's weight, read along its rows."""
    def along(o) -> bool:
        at = [i for i, e in enumerate(o.exprs) if e is None or d in dict(e.coeffs)]
        return bool(at) and all(n == 1 for n in o.shape[at[-1] + 1:])
    return any(along(o) and any(e is not None and (r := e.as_dim()) is not None and op.iterators[r] == "reduction"
                                and op.domain[r] > 1 for e in o.exprs)
               for o in op.operands if not o.is_init and o.exprs)


def _operand_dims(op: TileableOp) -> list[set[int]]:
    """The op dims each input's indices involve, in operand order."""
    return [o.dims() for o in op.operands if not o.is_init and o.exprs]


def _lanes_interchange(op: TileableOp, v: int, m: int | None) -> list[int]:
    """The iterator interchange that puts v before m when the first input
    reads along v but not along the rows: MLIR's outer-product lowering
    takes the first input as the one holding the first parallel dim, so
    with m first it put the lanes along the rows (a 24-wide FMA per output
    column of a 1x1 convolution). [] when none is needed."""
    inputs = _operand_dims(op)
    first = inputs[0] if inputs else set()
    if m is None or m > v or v not in first or m in first:
        return []
    perm = list(range(len(op.domain)))
    perm[m], perm[v] = v, m
    return perm


def _register_block(op: TileableOp, extents: list[int], cpu: CpuInfo, peel: bool = False,
                    own_root: bool = False, many_rows: bool = True) -> tuple[int, int, int]:
    """(nr, mr, vectors per row) of a contraction's block of accumulators:
    nr two vectors along v, mr rows along m, 3/4 of the vector registers in
    all (the rest hold the broadcast and the loaded vectors). Divisors of
    the extents, unless `peel` (a register kernel, whose schedule peels the
    remainders). `own_root`: the kernel computes nothing in its tiles, so a
    last panel of one column can be dot products (_with_dot_column).
    `many_rows`: MANY_ROW_TILES full row tiles take all the accumulators and
    a remainder tile (short_row_block asks without: it resizes the rows)."""
    size = _block_size if peel else _largest_divisor
    lanes = cpu.lanes(_element_bytes(op))
    v, m = _vector_dims(op, extents)
    budget = _accumulator_budget(cpu)
    # Two vectors wide: with four (a whole 64-wide f32 output), LLVM 22's JIT
    # code for a 3x3 convolution crashed (SIGSEGV, conv_pool payload).
    nr = size(extents[v], 2 * lanes, lanes) if v is not None else 1
    if peel and v is not None and cpu.vector_registers <= 16 and nr == lanes and extents[v] > nr \
            and extents[v] % (2 * lanes) <= lanes:
        # 16 registers (AVX2): one vector wide, each row's broadcast feeds one FMA and the kernel is
        # bound by loads; two vectors and a peeled one-vector remainder (1000 columns: 62 panels of 16
        # and one of 8, 35 ms, against 56-66 ms in panels of 8). AVX-512 keeps its one-vector panels:
        # measured there (112-pixel tiles, 91% of peak), not here.
        nr = 2 * lanes
    # 16 registers (AVX2), two-vector panels that leave one vector and a column: the last panel is one
    # vector and the column dot products (_with_dot_column), so the others keep two vectors (1000x169x512:
    # 0.72 -> 1.0 of numpy's speed). Measured on AVX2 only.
    dot_tail = peel and v is not None and cpu.vector_registers <= 16 and \
        _dot_tail(op, extents, v, m, nr, lanes, own_root)
    if peel and v is not None and extents[v] % nr > lanes and not dot_tail:
        # One vector wide where two leave a peeled panel wider than one (49 columns: 32 and 17, a
        # 17-lane panel LLVM splits badly; 3.3 ms for resnet18's 7x7 layer-4 im2col matmuls, 1.3 ms
        # as 16, 16, 16 and 1).
        nr = lanes
    vecs = max(1, -(-nr // lanes))
    # One vector wide, a kernel's rows are also at most what L1 keeps of the operand they broadcast from.
    # Measured there only: inception_v3's two-vector kernels (12 and 10 rows) ran 2% slower in rows of 8.
    full = max(1, budget // vecs if vecs > 1 else min(budget, _rows_l1_keeps(op, m, v, cpu)))
    mr = size(extents[m], full) if m is not None else 1
    if peel and m is not None and cpu.vector_registers <= 16 and vecs == 2 and mr < full \
            and extents[m] >= MIN_FULL_ROW_TILES * full \
            and (3 * (extents[m] % full) >= 2 * full
                 or many_rows and extents[m] >= MANY_ROW_TILES * full and 3 * mr <= 2 * full) \
            and not dot_tail:
        # 16 registers (AVX2), two-vector panels: rows for all 12 accumulators and a peeled remainder, where
        # a divisor gave fewer (64 rows: 4). 8 accumulators are just the FMAs in flight (2 pipes x 4 cycles),
        # so a late load stalls them all: resnet_block 14% faster at 1 and 2 threads, 1024³ 3.5%, resnet18 3-6%.
        # Only where the remainder keeps 2/3 of the rows: 32 = 5 x 6 + 2 made GPT-2's 32 tokens 7% slower.
        # Or where the rows hold MANY_ROW_TILES full tiles, so the remainder is a small share, and the divisor
        # left at most 2/3 of the accumulators: 128 output channels in 21 x 6 and 2, not 32 x 4 (AVX2: a 1x1
        # NCHW convolution 256 -> 128 onto 56x56 1.09x faster on 1 thread, 1.2x on 2; an im2col 3x3 one
        # 128 -> 128 onto 28x28 1.06-1.12x, 1.02x). 200 rows keep 40 x 5: as 33 x 6 and 2, regnet_x_400mf's
        # grouped convolutions made the model 6-8% slower on 1 thread.
        # Not before a dot column, which needs rows that divide (1000x169x512: 0.93 of numpy's speed with
        # 6 rows and a peeled 9-wide panel, 1.0 with 5 and the column; resnet18's 7x7 layer 4, 512x49x4608 in
        # 256-row tiles: 9-15% faster with 4 rows and the column than with 6, a remainder of 4 and the column
        # a panel of its own, at 1 and 2 threads).
        mr = full
    return nr, mr, vecs


def _rows_l1_keeps(op: TileableOp, m: int | None, v: int | None, cpu: CpuInfo) -> int:
    """The kernel rows whose broadcast operand (the input along m and not v:
    a matmul's A, a convolution's filter) L1 keeps a line of each: rows a
    multiple of 4 KiB apart all map to one set of `ways` lines, and more rows
    than that evict each other at every step along the reduction. CLIP's
    patch embedding, 192x49x3072 (rows 12 KiB apart) on a Zen 4: 16 rows
    0.56x as fast as 8 (43% -> 88% of peak)."""
    if m is None:
        return 1 << 30
    for i, o in enumerate(op.operands):
        dims = None if o.is_init else _plain_dims(op, i)
        if dims is None or m not in dims or v in dims:
            continue
        kept = _lines_kept(o, dims.index(m), cpu.l1_bytes, cpu.l1_bytes // L1_WAY_BYTES)
        if kept is not None:
            return kept
    return 1 << 30


def _accumulator_budget(cpu: CpuInfo) -> int:
    """Vector registers a register block may keep as accumulators: 3/4 of them."""
    return max(4, cpu.vector_registers * 3 // 4)


def short_row_block(op: TileableOp, extents: list[int], cpu: CpuInfo) -> tuple[int, int] | None:
    """(m, full) where a 16-register kernel of contraction `op` over
    `extents` gets fewer rows than its accumulators take (_register_block:
    32 rows in 4s, not 5 x 6 and 2; 128 in 4s too, as a row block can be
    126 rows of whole tiles where fixed rows take 21 x 6 and a remainder):
    its row dim m and the rows `full` that take them all; None elsewhere.
    Only full panels (no peeled panel or dot
    column, whose loops would see the rows' dynamic count too), and m the
    first dim of the op and of its output (the kernel's one-row tiles are
    then tile_sizes [1] on every op of a row tile: RegisterKernel.last_block_rows)."""
    if cpu.vector_registers > 16 or not is_multiply_accumulate(op):
        return None
    v, m = _vector_dims(op, extents)
    if v is None or m != 0 or _output_dims(op)[:1] != [0]:
        return None
    nr, mr, vecs = _register_block(op, extents, cpu, peel=True, many_rows=False)
    full = max(1, _accumulator_budget(cpu) // vecs)
    return (m, full) if mr < full and vecs == 2 and extents[v] % nr == 0 else None


def _dot_tail(op: TileableOp, ext: list[int], v: int, m: int | None, nr: int, lanes: int, own_root: bool) -> bool:
    """Whether the register block should leave its last column to dot products (_with_dot_column), so
    that its rows must divide: two-vector panels that leave one vector and a column (the last panel is
    then one vector), or, in a kernel that is its own root, panels that leave one column."""
    last = _last_panel(ext[v], nr, lanes)
    if last == lanes:
        return True
    return last is not None and own_root and not _lanes_interchange(op, v, m) \
        and _column_operand(op, ext, v, nr, lanes) is not None


def _block_size(n: int, limit: int, multiple: int = 1) -> int:
    """A register block's size along a loop of n: the largest divisor up to
    `limit` (a multiple of `multiple` if one divides) when it fills at least
    half of `limit`, else `limit` itself (rounded down to the multiple) and
    the schedule peels the remainder (`transform.loop.peel`: the last tile is
    its own static loop body, so both vectorize). 197 rows with room for 12:
    sixteen tiles of 12 and one of 5, not 197 tiles of 1 (2% of peak).
    Along a vector dim, a block wider than one register is whole registers:
    LLVM assembled vector<28xf32> element by element through the stack (a
    28-wide convolution at 7 GFLOP/s, 55 at 32); 28 is 16 and a peeled 12."""
    if n <= limit and (n <= multiple or n % multiple == 0):
        return n
    ds = [d for d in divisors(n) if d <= limit]
    good = [d for d in ds if d % multiple == 0]
    best = max(good or ds)
    if 2 * best >= limit and (good or multiple == 1):
        return best
    return max(multiple, min(n, limit) // multiple * multiple)


# Full row tiles a 16-register kernel needs before it takes all its accumulators and peels the rows'
# remainder (_register_block), so that the remainder's tile is a small share of the rows.
MIN_FULL_ROW_TILES = 4
# Full row tiles past which a remainder tile of any size is worth the accumulators all the others gain,
# where a divisor left at most 2/3 of them (_register_block).
MANY_ROW_TILES = 8

# Rows of a forall tile below which a register kernel has too few rows to
# hide the FMA latency (one row: 2 accumulators, 2% of peak at 197 rows).
MIN_OUTER_ROWS = 8

# Reduction steps of a register kernel's K chunk below which reloading its
# output block at each chunk costs more than the bytes a shorter chunk
# saves: 2048³ on AVX2, 1 thread, in [512, 256] tiles by chunks of 128 (the
# least traffic) took 259 ms, in [256, 256] by 256 226 ms (fastest tenth of
# interleaved calls; BLIS's kc).
MIN_K_CHUNK = 256


def k_chunk_floor(op: TileableOp, cpu: CpuInfo) -> int:
    """The K chunk a register kernel of `op` should have at least:
    MIN_K_CHUNK, but no longer than its widest panel keeps in half of L1
    (the planner's panels_in_l1 rule): 256 on AVX2 (16-wide panels, 32 KiB
    L1), 192 on AVX-512 (32-wide, 48 KiB)."""
    nr, _, _ = _register_block(op, list(op.domain), cpu, peel=True)
    return max(1, min(MIN_K_CHUNK, cpu.l1_bytes // 2 // (nr * _element_bytes(op))))


def outer_least(op: TileableOp, cpu: CpuInfo) -> dict[int, int]:
    """The smallest forall tile worth trying per root dim on a CPU target:
    two vectors along the output's contiguous dim and a register block's
    rows along the next, so that the register level below has full blocks
    (peeled where the tile does not divide). A 197-row matmul got 1-row
    forall tiles: a prime's only divisors are 1 and itself."""
    v, m = _vector_dims(op, list(op.domain))
    if (rows := _dot_columns(op, cpu)) is not None:
        return {v: rows}
    least = {}
    if v is not None:
        least[v] = 2 * cpu.lanes(_element_bytes(op))
    if m is not None:
        least[m] = MIN_OUTER_ROWS
    return least


# The narrowest forall column grain (outer_grain): one AVX2 vector of f32, half an AVX-512 one.
MIN_GRAIN_ELEMENTS = 8


def outer_grain(op: TileableOp, cpu: CpuInfo) -> dict[int, int]:
    """Forall tiles along the output's contiguous dim are whole panels (two
    vectors) or the whole dim, so at most one panel per row is a peeled
    remainder: 1000 columns in 500-wide tiles left a 20-column panel in each
    (4% of the work at a fraction of the speed: 72% of peak against 83%
    with the dim whole). Where no multiple of two vectors divides the dim of
    a contraction with rows enough to pack its panels (MIN_PANEL_REUSE row
    tiles): the widest of one vector and, on AVX-512, half of one (8 f32,
    an AVX2 vector) that divides, so that the columns split into blocks a
    row loop packs, one panel per tile narrower. 1000³ on AVX2 in
    200-column blocks: 0.81 -> 0.94 of numpy's speed on 1 thread, 0.79 ->
    0.99 on 2, against [50, 1000] tiles by chunks of K. On AVX-512 (Zen 4),
    1 thread: 1000³ in 200-column blocks (half vectors) 1.10x faster than
    [125, 1000] tiles by chunks of 100, 1008³ in 144-column blocks (one
    vector) 1.10x faster than [168, 1008] by chunks of 72, both then at
    numpy's speed. Not with fewer rows: GPT-2's 32 x 1000 head in 40-column
    tiles took 0.50 ms, 0.46 in 500-column ones."""
    v, m = _vector_dims(op, list(op.domain))
    if v is None:
        return {}
    if (rows := _dot_columns(op, cpu)) is not None:
        return {v: rows}
    lanes = cpu.lanes(_element_bytes(op))
    n = op.domain[v]
    _, mr, _ = _register_block(op, list(op.domain), cpu, peel=True)
    packs = m is not None and is_multiply_accumulate(op) and op.domain[m] >= MIN_PANEL_REUSE * mr
    widths = [2 * lanes]
    if packs:
        widths += [lanes] + [lanes // 2] * (lanes // 2 >= MIN_GRAIN_ELEMENTS)
    return {v: next((w for w in widths if n % w == 0), 2 * lanes)}


def _dot_columns(op: TileableOp, cpu: CpuInfo) -> int | None:
    """The output columns of a dot-product register tile (_dot_rows) when the
    op's whole domain takes that kernel, else None. Its forall tiles are
    multiples of them, not of two vectors: a classifier head's 1000 columns
    (no multiple of 32) stayed one tile, one core of two, its 4 MB of
    weight streamed by one core."""
    if not is_multiply_accumulate(op):
        return None
    extents = list(op.domain)
    v, _ = _vector_dims(op, extents)
    dots = _dot_rows(op, extents, cpu, [1 if k == "parallel" else 0 for k in op.iterators], v)
    return None if dots is None or v is None else dots.register_sizes[v] or None


def inner_tiling(op: TileableOp, extents: list[int], cpu: CpuInfo, untiled: bool = False) -> InnerTiling:
    """The op's register tiling, and whether the vectorizer takes it
    (`untiled`: the op is in no nest, so its operands come in whole)."""
    if (blocked := _blocked(op, extents, cpu, untiled)) is not None:
        return blocked
    t = _whole_where_needed(op, _inner_tiling(op, extents, cpu))
    tile = [s or e for s, e in zip(t.register_sizes or extents, extents)]
    reason = scalar_reason(op, tile)
    v, _ = _vector_dims(op, extents)
    strided = {d for d in _window_dims(op, tile) if d != v and op.iterators[d] == "parallel"}
    if reason is not None and not strided and t.kind == "reduction" and v is not None and v in _window_dims(op, tile):
        # Strided along the vector dim alone, the rows already by 1 (squeezenet's 3x3/2 max pool onto
        # 55x55: scalar, it took 1.97 ms of 22): one row at a time, as below.
        if (one_row := _decomposed_window(op, extents, cpu)) is not None:
            return one_row
    if reason is not None and strided and t.kind in ("reduction", "elementwise"):
        # A pooling window with a stride along the rows (2 * ow): rows one at
        # a time, vectors along the contiguous dim only, which it reads plainly.
        reg = [1 if d in strided and e > 1 else s for d, (s, e) in enumerate(zip(t.register_sizes, extents))]
        retiled = [s or e for s, e in zip(reg, extents)]
        if scalar_reason(op, retiled) is None:
            return t.model_copy(update={"register_sizes": reg})
        if t.kind == "reduction" and v is not None and v in _window_dims(op, retiled):
            if (one_row := _decomposed_window(op, extents, cpu)) is not None:
                return one_row
            # Strided along the contiguous dim too (a 3x3 stride-2 max pool): scalar, but each output
            # row's windows whole inside it, so that every output is reduced in a register. With
            # the taps stepped by 1 outside the row, each tap loaded and stored the row again
            # (0.13 -> 0.10 ms of a ResNet stem's 0.25).
            reg = [0 if k != "parallel" else (s if d == v else (1 if e > 1 else 0))
                   for d, (s, e, k) in enumerate(zip(t.register_sizes, extents, op.iterators))]
            return t.model_copy(update={"register_sizes": reg, "scalar": scalar_reason(op, reg)})
    return t.model_copy(update={"scalar": reason})


# Named 2-D windows that `transform.structured.decompose` turns into their 1-D op once the register tile
# holds one output row of one window row, and whose 1-D op MLIR's vectorizer takes (its convolution path:
# vectors along the channels, the strided window unrolled): (channels, output rows, output columns,
# window rows) among the op's dims.
_ONE_ROW_WINDOWS = {"linalg.pooling_nchw_max": (1, 2, 3, 4), "linalg.pooling_nchw_sum": (1, 2, 3, 4)}


def _decomposed_window(op: TileableOp, extents: list[int], cpu: CpuInfo) -> InnerTiling | None:
    """A pooling strided along its contiguous dim (NCHW, 3x3 stride 2) as
    one output row of one window row at a time, decomposed into the 1-D
    op: vectors along the channels, the output row in pieces whose window
    (the input vectors after the in-register transpose) and outputs fit
    the registers. Scalar, a ResNet stem's 3x3/2 max pool took 0.11 ms;
    so 0.023 (16 channels by 8 columns; 4 or 16 columns were slower)."""
    dims = _ONE_ROW_WINDOWS.get(op.name)
    if dims is None:
        return None
    c, oh, ow, kh = dims
    steps = _row_index(op, ow)
    if steps is None:
        return None
    window = sum(s * (extents[d] - 1) for d, s in steps.items() if d != ow)  # the window's span past its first
    room = cpu.vector_registers - 4  # the rest: the lowering's temporaries
    cols = max((t for t in divisors(extents[ow]) if steps[ow] * (t - 1) + window + 1 + t <= room), default=1)
    reg = [0] * len(extents)
    reg[c] = _largest_divisor(extents[c], cpu.lanes(_element_bytes(op)))
    reg[oh], reg[ow], reg[kh] = 1, cols, 1
    reg[0] = 1  # the batch
    return InnerTiling(op=op.index, rank=len(extents), extents=extents, register_sizes=_drop_unit(reg, extents, op),
                       kind="reduction", decompose=True)


# Depthwise NCHW convolutions' dims: (n, oh, ow, c, kh, kw).
_DEPTHWISE_NCHW = "linalg.depthwise_conv_2d_nchw_chw"


def _channel_blocked(op: TileableOp, extents: list[int], cpu: CpuInfo, untiled: bool = False) -> InnerTiling | None:
    """A depthwise NCHW convolution strided along its output row (2 * ow +
    kw), which no vectorizer takes along the row, with its channels packed
    in blocks of one vector (linalg.pack to NCHW16c, the result unpacked
    back): each filter tap of each output is then one contiguous vector,
    multiplied into the output's vector of channels, the taps stepped by 1.
    Scalar, mobilenet_v2's 96-channel stride-2 one took 4.3 ms; so 0.22."""
    lanes = cpu.lanes(_element_bytes(op))
    ow, c, kw = 2, 3, 5
    steps = _strided_depthwise_row(op, ow)
    if steps is None or extents[c] % lanes:
        return None
    reg = [0, 1, 1, 0, 1, 1, 0]  # the packed op: the block's lanes appended
    # A tile's input slice is the window's span; an untiled op packs its whole input, which may be wider (a
    # 3x3 stride-2 window over a padded 16-wide row reads 15 columns: shufflenet_v2's, where a peel of the
    # 15th had nothing to peel and the schedule did not apply)
    read = steps[ow] * (extents[ow] - 1) + steps.get(kw, 1) * (extents[kw] - 1) + 1
    return InnerTiling(op=op.index, rank=len(extents), extents=extents, register_sizes=reg, kind="reduction",
                       pack_sizes=[lanes if d == c else 0 for d in range(len(extents))],
                       init_sizes=[0, 0, 1, _largest_divisor(extents[ow], 4)], row_sizes=[0, 0, 1, lanes],
                       output_width=extents[ow], input_width=op.operands[0].shape[3] if untiled else read)


# Grouped NCHW convolutions' dims: (n, g, f, oh, ow, c, kh, kw).
_GROUPED_NCHW = "linalg.conv_2d_ngchw_gfchw"
# NCW 1-D convolutions' dims: (n, f, ow, c, kw).
_NCW = "linalg.conv_1d_ncw_fcw"
# NCHW convolutions' dims: (n, f, oh, ow, c, kh, kw). Strided ones reach the kernels only when dilated too:
# the img2col step takes the others (upstream's rewrite wants unit dilations).
_NCHW = "linalg.conv_2d_nchw_fchw"
# NCDHW 3-D convolutions' dims: (n, f, od, oh, ow, c, kd, kh, kw).
_NCDHW = "linalg.conv_3d_ncdhw_fcdhw"
# Per convolution _group_blocked packs: its output channels' dim and its output row's.
_OUTPUT_CHANNELS_AND_ROW = {_GROUPED_NCHW: (2, 4), _NCW: (1, 2), _NCHW: (1, 3), _NCDHW: (1, 4)}

# Independent FMA chains that keep both FMA pipes of a core busy (a 4-cycle latency, 2 per cycle).
FMA_CHAINS = 8


def _blocked(op: TileableOp, extents: list[int], cpu: CpuInfo, untiled: bool = False) -> InnerTiling | None:
    """A strided convolution packed into blocks of channels (linalg.pack), if `op` is one."""
    return _channel_blocked(op, extents, cpu, untiled) or _group_blocked(op, extents, cpu)


def _group_blocked(op: TileableOp, extents: list[int], cpu: CpuInfo) -> InnerTiling | None:
    """A grouped NCHW convolution strided along its output row (2 * ow +
    kw: regnet's 3x3 stride-2 ones), an NCW 1-D one (Whisper's and
    wav2vec2's of stride 2 and 5), a dilated NCHW one (skresnet's 3x3
    dilation-2 stride-2 branch) or an NCDHW 3-D one (r3d's stride-2 stages),
    which no vectorizer takes there, with
    its output channels packed in blocks of one or two vectors (linalg.pack
    of its filter and result; its input stays): each filter tap of each
    output pixel is then one contiguous block, multiplied by one broadcast
    input value. A pixel's tile is all unit dims but the block, which the
    vectorizer takes; `unroll` pixels of one output row are unrolled inside
    the reductions (stepped by 1), so that their blocks stay in registers as
    one kernel's accumulators (_pixel_block). Scalar, regnet_x_400mf's
    2-group one onto 56x56 took 3.9 ms with its pad; so 0.63; skresnet18's
    three dilated ones 16 ms each, the whole model 2.15x faster so; r3d_18
    2.97x. Channels in no whole number of vectors are packed all the same:
    linalg.pack pads the last block with zeros, whose outputs the unpack
    drops (r2plus1d_18's 230, 460 and 921 mid-channels, stride 2: scalar,
    4.1 GFLOP/s; so 57). Stride 1 keeps its register kernel along the row,
    which was faster (0.35 against 0.41 ms onto 28x28; r3d_18's 3-D ones
    onto rows of 4 and 7 too, 0.83x packed)."""
    if op.name not in _OUTPUT_CHANNELS_AND_ROW:
        return None
    f, ow = _OUTPUT_CHANNELS_AND_ROW[op.name]
    steps = _row_index(op, ow)
    lanes = cpu.lanes(_element_bytes(op))
    if steps is None or steps[ow] == 1:
        return None
    vecs, pixels = _pixel_block(-(-extents[f] // lanes), extents[ow], cpu)
    block = vecs * lanes
    rank = len(extents)
    # the packed op: the dims with f in blocks, the block's lanes appended; a pixel's tile is one block
    reg = [0 if d == 0 or op.iterators[d] == "reduction" else 1 for d in range(rank)] + [0]
    reg[ow] = pixels
    columns = _largest_divisor(extents[ow], lanes)  # the result's unpack: transposes of columns x block
    order = [d for d in range(rank) if d != ow] + [ow, rank]  # the block's lanes stay last
    outer = [0] + [1] * (ow - 1)  # the packed init's tiles ahead of the row: (g,) f blocks (, oh)
    return InnerTiling(op=op.index, rank=rank, extents=extents, register_sizes=reg, kind="contraction",
                       pack_sizes=[block if d == f else 0 for d in range(rank)], unroll=pixels,
                       unroll_interchange=order,
                       unroll_sizes=[1 if d == ow or d in op.reduction_dims() else 0 for d in order],
                       accumulators=pixels * vecs, init_sizes=outer + [columns],
                       row_sizes=[0 if d in (0, f) else 1 for d in range(ow)] + [columns],
                       # the packed filter: ((g,) f blocks, c, taps, block lanes), one input channel at a time
                       filter_sizes=[1] * (f - 1) + [1, 1] + [0] * (rank - ow - 2))


def _pixel_block(vectors: int, width: int, cpu: CpuInfo) -> tuple[int, int]:
    """(vectors per block, pixels) of a grouped convolution's unrolled
    kernel (_group_blocked) along an output row of `width`: pixels that
    divide the row, and its accumulators, the filter's vectors and one
    broadcast within the registers (16 channels by 7 pixels spilled: 1.17
    ms onto 56x56). Most FMA chains up to FMA_CHAINS, which keep the FMA
    pipes busy (onto 7x7: 16 by 1 pixel, 2 chains, took 0.33 ms, 8 by 7
    0.24), then most FMAs per load, each step loading the block's vectors
    and one input value per pixel (onto 56x56, 8 chains each: 16 by 4 took
    0.63 ms, 8 by 8 0.74)."""
    options = [(v, p) for v in (2, 1) if vectors % v == 0 for p in divisors(width)
               if p * v + v + 1 <= cpu.vector_registers]
    return max(options, key=lambda o: (min(o[0] * o[1], FMA_CHAINS), o[0] * o[1] / (o[0] + o[1])))


def _strided_depthwise_row(op: TileableOp, ow: int) -> dict[int, int] | None:
    """_row_index of a depthwise NCHW convolution strided along output dim `ow` (2 * ow + kw), else None."""
    steps = _row_index(op, ow) if op.name == _DEPTHWISE_NCHW else None
    return None if steps is None or steps[ow] == 1 else steps


def _row_index(op: TileableOp, ow: int) -> dict[int, int] | None:
    """The (dim: coefficient) terms of the input index that walks output dim `ow` (2 * ow + kw)."""
    width = next((e for o in op.operands if not o.is_init for e in (o.exprs or ())
                  if e is not None and ow in dict(e.coeffs)), None)
    return None if width is None else dict(width.coeffs)


def _whole_where_needed(op: TileableOp, t: InnerTiling) -> InnerTiling:
    """`t` with the dims a non-linear index reads (TileableOp.index_grains)
    tiled only where their slices stay right: registers by 1 (a tile of one
    is always right) but along the innermost dim, by its grain there (by 1
    where there is none), the other levels not at all. An im2col copy so
    copies one output row of a filter tap at a time, a contiguous run LLVM
    vectorizes, not the whole tile with a division per element (0.085 ->
    0.068 ms for a 3x3 convolution onto 28x28; by 9 taps at a time, the
    ResNet stem block took 5% longer)."""
    if not op.index_grains:
        return t
    grained = dict(op.index_grains)

    def whole(sizes: list[int]) -> list[int]:
        kept = [0 if d in grained else s for d, s in enumerate(sizes)]
        return kept if any(kept) else []
    reg = [((grained[d] or 1) if d == t.rank - 1 else 1) if d in grained else s
           for d, s in enumerate(t.register_sizes or [0] * t.rank)]
    return t.model_copy(update={"register_sizes": _drop_unit(reg, t.extents, op),
                                "cache_sizes": whole(t.cache_sizes), "split_sizes": whole(t.split_sizes)})


def _inner_tiling(op: TileableOp, extents: list[int], cpu: CpuInfo) -> InnerTiling:
    lanes = cpu.lanes(_element_bytes(op))
    if op.name == "linalg.pack":
        # Its dims count packed tiles (each a whole inner tile, e.g. 16x4): one at a
        # time. Sized as elements, a register tile was 4x32 inner tiles, whose
        # lowered transpose unrolled into thousands of vector ops.
        return InnerTiling(op=op.index, rank=len(extents), extents=extents,
                           register_sizes=_drop_unit([1] * len(extents), extents, op), kind="pack")
    if op.name == "tensor.pad":
        # Whole along the padded dims (and the contiguous one), one at a time along the others: a plane
        # bufferizes into one fill and one copy of its interior. One element at
        # a time (the elementwise rule finds no vector dim), each became an
        # allocation and a copy: a mobilenet block's 144x30x30 pad took 1.0 of
        # its 1.65 ms.
        # Each plane is written in place (the schedule rewrites it in destination-passing style) when
        # the tile holds whole padded dims: cut along one, its padding is dynamic, and the rewrite
        # aborted xtc-opt.
        # The contiguous dim stays whole too: tiled by 1, a pad along rows alone (mobilebert's shifted
        # copies of its 32x128 tokens) copied one strided column at a time, 0.094 ms of a 0.83 ms model.
        padded = {d for d, (s, n) in enumerate(zip(op.operands[0].shape, op.domain)) if s != n}
        whole = padded | {len(extents) - 1}
        return InnerTiling(op=op.index, rank=len(extents), extents=extents, kind="pad",
                           register_sizes=_drop_unit([0 if d in whole else 1 for d in range(len(extents))],
                                                     extents, op),
                           in_place=all(extents[d] == op.domain[d] for d in padded))
    v, m = _vector_dims(op, extents)
    reg = [1 if k == "parallel" else 0 for k in op.iterators]
    if is_multiply_accumulate(op):
        return _contraction_tiling(op, extents, cpu, reg, v, m)
    red = op.reduction_dims()
    if red and _row_reduction(op):
        if not _combiner(op) and v is not None:
            return _across_rows_tiling(op, extents, lanes, reg, v)
        return _row_reduction_tiling(op, extents, lanes, reg)
    # A transpose: an input contiguous along another parallel dim than the
    # output. Square blocks of lanes x lanes, which the lowering transposes in
    # registers with shuffles (16x16 f32 on AVX-512), not element by element;
    # a remainder is peeled (resnet18's 1000x512 classifier weight: 1000
    # columns fell back to strided reads, 0.43 ms; 62 blocks and one of 8,
    # 0.16 ms).
    w = _transposed_dim(op, v)
    if v is not None and w is not None and extents[v] >= lanes and extents[w] >= lanes:
        reg[v], reg[w] = _block_size(extents[v], lanes, lanes), _block_size(extents[w], lanes, lanes)
        return InnerTiling(op=op.index, rank=len(extents), extents=extents,
                           register_sizes=_drop_unit(reg, extents, op), kind="transpose")
    # Elementwise, and reductions whose inputs are contiguous along a parallel
    # dim (pooling windows): vectors along the output's contiguous dim, window
    # dims stepped by 1. Whole vectors, the remainder peeled: 197 tokens in
    # steps of 1 (a prime's only divisors) left softmax's exp scalar.
    if v is not None:
        reg[v] = _block_size(extents[v], 4 * lanes, lanes)
    if m is not None:
        reg[m] = _largest_divisor(extents[m], 4)
    for d in red:
        reg[d] = 1
    return InnerTiling(op=op.index, rank=len(extents), extents=extents, register_sizes=_drop_unit(reg, extents, op),
                       kind="reduction" if red else "elementwise")



def _contraction_tiling(op: TileableOp, extents: list[int], cpu: CpuInfo, reg: list[int], v: int | None,
                        m: int | None) -> InnerTiling:
    if (dots := _dot_rows(op, extents, cpu, reg, v)) is not None:
        return dots
    nr, mr, vecs = _register_block(op, extents, cpu)
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


# Output columns a dot-product tile takes at once: one vector of partial sums each.
DOT_ROWS = 8


def _dot_rows(op: TileableOp, extents: list[int], cpu: CpuInfo, reg: list[int], v: int | None) -> InnerTiling | None:
    """A contraction whose every input is contiguous along its one
    reduction dim, left without a register kernel (a gemv on a Linear's
    weight: x[1, K] by W[N, K], torch's classifier head): dot products.
    Columns DOT_ROWS at a time, each keeping one vector of partial sums with
    its lanes along K (tile_reduction_using_for), summed across them after
    the loop. As outer products along N, every FMA gathered its W vector
    element by element: shufflenet_v2's 1024 -> 1000 head took 0.52 ms, so
    0.07 (numpy, 1 thread: 0.09)."""
    lanes = cpu.lanes(_element_bytes(op))
    red = op.reduction_dims()
    inputs = [o for o in op.operands if not o.is_init]
    if v is None or len(red) != 1 or extents[red[0]] % lanes or extents[red[0]] < 2 * lanes \
            or op.results[0].element_type != "f32" \
            or any(not o.exprs or o.exprs[-1] is None or o.exprs[-1].as_dim() != red[0] for o in inputs):
        return None
    k = red[0]
    reg = [s if d != k else 0 for d, s in enumerate(reg)]
    reg[v] = _largest_divisor(extents[v], DOT_ROWS)
    split = [lanes if d == k else 0 for d in range(len(extents))]
    return InnerTiling(op=op.index, rank=len(extents), extents=extents, register_sizes=_drop_unit(reg, extents, op),
                       split_sizes=split, kind="contraction", accumulators=reg[v])


def _row_reduction_tiling(op: TileableOp, extents: list[int], lanes: int, reg: list[int]) -> InnerTiling:
    red = op.reduction_dims()
    # A row reduction, one row at a time: the outer reduction dims step by
    # 1 and the innermost is split (tile_reduction_using_for) into
    # partial results one chunk of four vectors wide, accumulated
    # elementwise along the row and combined once at its end -- not one
    # horizontal reduction over a whole-row vector.
    for d in red[:-1]:
        reg[d] = 1
    inner = red[-1]
    chunk = _largest_divisor(extents[inner], 4 * lanes, lanes)
    split: list[int] = []
    if _combiner(op) and chunk % lanes == 0 and chunk < extents[inner]:
        split = [0] * len(extents)
        split[inner] = chunk
    elif extents[inner] > MAX_VECTOR_ELEMENTS:  # no combiner known: whole-row vectors, in steps
        reg[inner] = _largest_divisor(extents[inner], MAX_VECTOR_ELEMENTS, lanes)
    return InnerTiling(op=op.index, rank=len(extents), extents=extents,
                       register_sizes=_drop_unit(reg, extents, op), split_sizes=split, kind="reduction")


def _across_rows_tiling(op: TileableOp, extents: list[int], lanes: int, reg: list[int], v: int) -> InnerTiling:
    """A row reduction the vectorizer cannot reduce along its row (torch's
    row max with its argmax index: a second result, combined by a select):
    two vectors of rows at a time, the reduction dims stepped by 1, so the
    body is elementwise across rows, each lane reading its own row (a
    strided load) and keeping its own max and index. Along the row, it
    stayed a scalar loop: 0.45 ms of a ViT block's 1.65; one vector of
    rows 0.042 ms, two 0.027."""
    for d in op.reduction_dims():
        reg[d] = 1
    reg[v] = _block_size(extents[v], 2 * lanes, lanes)
    return InnerTiling(op=op.index, rank=len(extents), extents=extents,
                       register_sizes=_drop_unit(reg, extents, op), kind="reduction")


def _transposed_dim(op: TileableOp, v: int | None) -> int | None:
    """The parallel dim an input of `op` is contiguous along, when that is not
    `v` (the output's contiguous dim): `op` transposes that input."""
    for o in op.operands:
        if o.is_init or not o.exprs or any(e is None for e in o.exprs):
            continue
        dims = [e.as_dim() for e in o.exprs]  # type: ignore[union-attr]
        d = dims[-1]
        # it reads along v too (a row-broadcast operand, indexed by d alone, is no transpose)
        if d is not None and d != v and v in dims and op.iterators[d] == "parallel" and op.domain[d] > 1:
            return d
    return None


# Bodies that tile_reduction_using_for can split: one combining op whose
# neutral element MLIR knows.
_COMBINERS = {"arith.addf", "arith.addi", "arith.mulf", "arith.muli", "arith.maximumf", "arith.minimumf",
              "arith.maxnumf", "arith.minnumf", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui",
              "arith.andi", "arith.ori", "arith.xori"}


def _combiner(op: TileableOp) -> bool:
    """The body ends in one combining op (a sum, max, ... of the accumulator
    and what the body computed from the input, e.g. x * x + acc), with one
    input and one init."""
    body = [b for b in op.body_ops if b != "linalg.yield"]
    return bool(body) and body[-1] in _COMBINERS and len(op.operands) == 2 and len(op.results) == 1


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


# A register kernel's step along its stepped reduction (unrolled outer products).
KERNEL_K_STEP = 4


def reduction_grain(op: TileableOp) -> dict[int, int]:
    """Per reduction dim of `op`, what an outer chunk of it must be a
    multiple of for the register kernel inside to keep its step: a K chunk
    of 125 left steps of 1, which lower to multiplies and adds, not FMAs."""
    if not is_multiply_accumulate(op):
        return {}
    stepped = _stepped_reduction(op)
    return {} if stepped is None else {stepped: KERNEL_K_STEP}


def _stepped_reduction(op: TileableOp) -> int | None:
    return next((d for d in reversed(op.reduction_dims()) if _plain_dim(op, d)), None)


def _kernel_reductions(op: TileableOp, ext: list[int]) -> list[int]:
    """A register kernel's reduction steps. One reduction by 4: with a step
    of 1 the unit dim is folded away before vectorization, the op stops
    being a contraction and lowers to separate multiplies and adds instead
    of FMAs (34 vs 57 GFLOP/s). The innermost one that indexes every operand
    as a plain dim: an NCHW convolution's input channels, not its filter
    taps (ow + kw would stay a window after the fold, which the vectorizer
    does not take). The others by 1; with no plain one (a depthwise
    convolution: only taps), all by 1: vector multiplies and adds. By 4
    also where 4 does not divide it, the last step peeled, not by a smaller
    divisor: by 3, LLVM read each row's three values of the other operand
    as a pair and one, through the stack (a 7x7 convolution of 3 channels,
    K = 147, and one of K = 27: 7-18% faster by 4 and a last step of 3)."""
    reds = op.reduction_dims()
    sizes = [1 if d in reds else 0 for d in range(len(ext))]
    stepped = _stepped_reduction(op)
    if stepped is not None:
        # 197 by 4, the last step of 1 peeled
        sizes[stepped] = _block_size(ext[stepped], KERNEL_K_STEP, KERNEL_K_STEP)
    return sizes


def _plain_dim(op: TileableOp, d: int) -> bool:
    """Loop dim `d` indexes every operand that reads it alone, with coefficient 1."""
    return all(e is not None and (d not in dict(e.coeffs) or e.coeffs == ((d, 1),))
               for o in op.operands for e in (o.exprs or ()))


def scalar_reason(op: TileableOp, tile: list[int]) -> str | None:
    """Why MLIR's vectorizer leaves `op` scalar at this register tile (per op
    dim, 0 = the whole extent), or None when it takes it. The lowering folds
    the tile's unit dims away first; every operand must then be indexed by
    single loop dims (a projected permutation): a window still walking
    several filter taps (ow + kw) or a stride (2 * ow) is not, and neither is
    a body with side effects (torch's cf.assert)."""
    if op.name in NON_STRUCTURED_TILEABLE:
        return None
    if op.side_effects:
        return f"its body has side effects ({', '.join(op.side_effects)})"
    for o in op.operands:
        for e in o.exprs or ():
            if e is None:
                return f"{o.value.label()} is indexed by a non-affine expression"
            terms = _kept_terms(e, tile)
            if len(terms) > 1 or (terms and terms[0][1] != 1):
                index = " + ".join(f"{c}*d{d}" if c != 1 else f"d{d}" for d, c in terms)
                what = "window" if len(terms) > 1 else "stride"
                return f"{o.value.label()}'s index {index} is a {what}, not one loop dim, at the register tile"
    return None


def _kept_terms(e, tile: list[int]) -> list[tuple[int, int]]:
    """An index's (dim, coefficient) terms left once the tile's unit dims are folded away."""
    return [(d, c) for d, c in e.coeffs if tile[d] != 1]


def _window_dims(op: TileableOp, tile: list[int]) -> set[int]:
    """The dims in the indices scalar_reason objects to."""
    dims: set[int] = set()
    for o in op.operands:
        for e in o.exprs or ():
            terms = _kept_terms(e, tile) if e is not None else []
            if len(terms) > 1 or (terms and terms[0][1] != 1):
                dims |= {d for d, _ in terms}
    return dims


def _nest_extents(payload: Payload, nest: LoopNest) -> dict[int, list[int]]:
    return {i: [t.size for t in ts] for i, ts in innermost_tiles(payload, nest).items()}


def handled_ops(nest: LoopNest) -> list[int]:
    """Ops the schedule holds a handle to after the nest's tile-and-fuse
    steps (none to the producers of a nest that fuses all at once)."""
    ops = [nest.root.index, *[c.index for c in nest.consumers], *[p.index for p in nest.loop_producers]]
    if not nest.fuse_all:
        ops += [p.index for p in nest.producers]
    return ops


# Single-core speed estimates for the parallel-or-not decision: contractions
# near the FMA peak, everything else (exp, reductions) a few GFLOP/s, and the
# nest's main-memory traffic at a bandwidth one core sustains (a copy or a
# pad has no flops, but takes time).
_OTHER_GFLOPS = 5.0
_CORE_GBYTES_PER_S = 20.0
_DEFAULT_PEAK_GFLOPS = 100.0  # a core's f32 FMA peak when none was measured


def contraction_gflops(cpu: CpuInfo) -> float:
    """What one core's register kernels sustain: 60% of its peak."""
    return 0.6 * (cpu.peak_gflops or _DEFAULT_PEAK_GFLOPS)


def bound_by_flops(flops: float, traffic_bytes: int, cpu: CpuInfo) -> bool:
    """Whether a contraction's main-memory traffic takes one core less
    time than its flops in register kernels: then bytes saved do not speed it."""
    return traffic_bytes / _CORE_GBYTES_PER_S < flops / contraction_gflops(cpu)


def streaming_ms(traffic_bytes: int) -> float:
    """One core's time to move these bytes to or from main memory."""
    return traffic_bytes / 1e9 / _CORE_GBYTES_PER_S * 1e3


def copy_chunk(cpu: CpuInfo) -> int:
    """Elements (of 4 bytes) per chunk of a whole-tensor copy that
    bufferization adds outside every nest (a concat's operand it cannot
    compute in place: DenseNet copies every earlier layer's output into each
    layer's input, 2.4 ms of its block's 28 on two threads), run on all
    cores: a chunk is what one core copies (reads and writes) in
    parallel_min_ms, so a copy of one chunk or less stays sequential. 0 on
    one core."""
    if cpu.cores == 1:
        return 0
    chunk = int(cpu.parallel_min_ms * 1e-3 * _CORE_GBYTES_PER_S * 1e9 / 8)
    return max(1024, chunk // 1024 * 1024)


def worth_cores(payload: Payload, ops: list[int], traffic_bytes: int, cpu: CpuInfo) -> bool:
    """Whether a nest of these ops, moving these bytes, takes one core long
    enough to be worth a parallel loop (parallel_min_ms)."""
    from schedgen.analysis.flops import op_flops

    compute = sum(op_flops(payload.ops[i]) / 1e9
                  / (contraction_gflops(cpu) if is_multiply_accumulate(payload.ops[i]) else _OTHER_GFLOPS)
                  for i in ops)
    return cpu.cores > 1 and max(compute * 1e3, streaming_ms(traffic_bytes)) >= cpu.parallel_min_ms


def parallel_nests(payload: Payload, plan: Plan, cpu: CpuInfo) -> list[int]:
    """Ids of the scf.forall nests worth running on several cores: those
    with a tile for more than one (a forall of one tile would start a
    parallel region for one core, and the plan would claim all of them)."""
    return [nest.id for nest in plan.nests if nest.loop_kind == "scf.forall" and nest.forall_tiles > 1
            and worth_cores(payload, [o.index for o in nest.ops], nest.traffic_bytes or 0, cpu)]


def vector_dim(op: TileableOp) -> int | None:
    """The op dim behind its output's contiguous dim (the lanes of its vectors)."""
    return _vector_dims(op, list(op.domain))[0]


def cpu_levels(payload: Payload, plan: Plan, cpu: CpuInfo) -> tuple[list[RegisterKernel], list[InnerTiling]]:
    """The CPU levels below the outer forall: register kernels for the
    contractions of every nest (with the ops fused at their register tiles),
    and a per-op inner tiling for every other op the schedule holds a handle
    to (nest members at their forall tile, untiled ops at their full domain)."""
    kernels: list[RegisterKernel] = []
    tilings: list[InnerTiling] = []
    for nest in plan.nests:
        inner: dict[int, InnerTiling] = {}
        extents = _nest_extents(payload, nest)
        # a row loop's kernel packs its panels once per column block (rows_in_order): the forall tile's rows reuse them
        reuse = _nest_extents(payload, nest.model_copy(update={"row_tiles": []})) if nest.row_tiles else {}
        handled = [i for i in handled_ops(nest) if i in extents]
        taken: set[int] = set()
        consumers = frozenset(c.index for c in nest.consumers)
        for idx in sorted(handled):
            looped = any(r.op == idx for r in nest.reduction_tiling)
            k = register_kernel(payload, payload.ops[idx], extents, set(handled) - taken, cpu, looped,
                                yielded_ops(nest), nest.loop_kind == "scf.forall", reuse.get(idx))
            if k is not None:
                k = _with_last_block(payload, nest, k)
                kernels.append(k)
                taken |= k.ops
        short = _short_dims(payload, nest)
        for idx in handled:
            if idx not in taken:
                inner[idx] = _one_along(inner_tiling(payload.ops[idx], extents[idx], cpu), short.get(idx, set()))
        if not taken and (rows := row_chain(payload, nest, inner, vector_dim(payload.ops[nest.root.index]), cpu)):
            inner = {rows.op: rows}
        for t in [t for t in inner.values() if t.channel_block]:
            # its init's fill, packed with it, folds into a fill of the packed init, which its init tiles cover;
            # tiled first, it was written and then packed (transposed) into the packed init
            init = next(o.value for o in payload.ops[t.op].operands if o.is_init)
            if init.kind == "op" and payload.ops[init.index].name == "linalg.fill":
                inner.pop(init.index, None)
        # consumers (fused by fuse_consumer, after their producer's loop) stay out: with one fused into
        # another's register loop, a producer-driven nest's schedule aborted xtc-opt (fuzz seed 79)
        fuse_elementwise_chains(payload, inner, set(handled) - taken - consumers)
        # other nests have a tiling of their own copy
        tilings += [t.model_copy(update={"copy_in": nest.id}) if t.op in nest.copies else t for t in inner.values()]
    for u in plan.untiled:
        op = payload.ops[u.op.index]
        tilings.append(inner_tiling(op, list(op.domain), cpu, untiled=True))
    return kernels, sorted(tilings, key=lambda t: (t.op, t.copy_in or 0))


def _short_dims(payload: Payload, nest: LoopNest) -> dict[int, set[int]]:
    """Per op of the nest, its dims tiled along a root dim whose forall tile
    does not divide it (the planner's _tile_per_core): the last tile is
    short, so their sizes are dynamic."""
    root = payload.ops[nest.root.index]
    short = {("d", d) for d, (s, n) in enumerate(zip(nest.tile_sizes, root.domain)) if s and n % s}
    if not short:
        return {}
    return {i: {d for d, t in enumerate(ts) if any(loop in short for loop, _ in t.offset[0])}
            for i, ts in innermost_tiles(payload, nest).items()}


def _one_along(t: InnerTiling, dims: set[int]) -> InnerTiling:
    """`t` stepping by 1 along `dims` (whatever it tiled them by): a
    register tile of dynamic size would not vectorize. A scalar tiling
    keeps its steps (an im2col copy's, whose partial tiles are older)."""
    if not dims or t.scalar is not None:
        return t
    def one(sizes: list[int]) -> list[int]:
        return [1 if d in dims and s != 1 else s for d, s in enumerate(sizes)] if sizes else sizes
    return t.model_copy(update={"register_sizes": one(t.register_sizes), "cache_sizes": one(t.cache_sizes)})


def yielded_ops(nest: LoopNest) -> frozenset[int]:
    """Ops of a nest whose result tiles its forall yields besides the root's
    usual one: the consumers fused by fuse_consumer, and the root under them
    unless a consumer writes into the root's tiles (reuse_dest)."""
    if not nest.consumers:
        return frozenset()
    root = frozenset() if nest.reuse_dest else frozenset({nest.root.index})
    return root | {c.index for c in nest.consumers}


def fuse_elementwise_chains(payload: Payload, inner: dict[int, InnerTiling], candidates: set[int]) -> None:
    """Chains of vectorized elementwise ops of one nest, each read element for
    element by the next one alone (a batch norm's subtract, multiplies and
    add, then a ReLU), computed in the last op's register tiles: `inner`
    loses the others, which that op's tiling lists as fused. Tiled each on
    its own, every op wrote its whole tile, and bufferization copied the
    nest's output tile for each of them (they all write into it)."""
    def plain(i: int) -> bool:
        t = inner.get(i)
        # a register loop to fuse into (an op that fits one register tile has none); linalg ops
        # with a plain tiling (a pack or unpack tile is no element-for-element slice)
        name = payload.ops[i].name
        return t is not None and t.kind == "elementwise" and t.scalar is None and not t.fused \
            and any(t.register_sizes) and not t.split_sizes \
            and name.startswith("linalg.") and name not in NON_STRUCTURED_TILEABLE
    for idx in sorted(candidates):
        if not plain(idx):
            continue
        op, chain = payload.ops[idx], []
        while (nxt := _sole_user(payload, op, candidates)) is not None and plain(nxt.index) \
                and _elementwise_reader(nxt, op.index, op.results[0].shape) \
                and inner[nxt.index].register_sizes == inner[idx].register_sizes:
            chain.insert(0, op.index)
            op = nxt
        if chain:
            inner[op.index] = inner[op.index].model_copy(update={"fused": chain})
            for member in chain:
                del inner[member]


def _identity(operand: Operand, rank: int) -> bool:
    return operand.exprs is not None and len(operand.exprs) == rank and \
        all(e is not None and e.as_dim() == d for d, e in enumerate(operand.exprs))


def _elementwise_reader(op: TileableOp, source: int, shape: tuple[int, ...]) -> bool:
    """`op` is an elementwise op over `shape` that reads op `source`'s result
    element for element (its tile is the source's tile)."""
    inits = [o for o in op.operands if o.is_init]
    reads = [o for o in op.operands if not o.is_init and o.value == ValueRef("op", source)]
    rank = len(op.domain)
    return not op.reduction_dims() and len(op.results) == 1 and len(inits) == 1 and op.domain == shape \
        and _identity(inits[0], rank) and bool(reads) and all(_identity(o, rank) for o in reads)


def _sole_user(payload: Payload, op: TileableOp, candidates: set[int]) -> TileableOp | None:
    us = users(op)
    if len(us) == 1 and us[0].kind == "op" and us[0].index in candidates:
        return payload.ops[us[0].index]
    return None


def _read_here_only_by(payload: Payload, op: TileableOp, reader: int, nest_ops: set[int]) -> bool:
    """Whether `reader` alone reads `op`'s result: of all ops, or of the
    nest's ops (`nest_ops`) when `op` reads no tensor (a copy of its own)."""
    if _sole_user(payload, op, {reader}) is not None:
        return True
    return op.reads_no_tensor and {u.index for u in users(op) if u.kind == "op" and u.index in nest_ops} == {reader}


def _zero(operand: Operand) -> str:
    t = operand.element_type
    return f"0.0 : {t}" if t.startswith(("f", "bf")) else f"0 : {t}"


def _with_last_block(payload: Payload, nest: LoopNest, kernel: RegisterKernel) -> RegisterKernel:
    """`kernel` with the rows of its nest's last row block, where the nest's row loop leaves a partial one
    (RegisterKernel.last_block_rows): the nest's root is the kernel's (row_order.register_row_step)."""
    domain = payload.ops[nest.root.index].domain
    last = [(d, n % s) for d, (s, n) in enumerate(zip(nest.row_tiles, domain)) if s and n % s]
    if not last or kernel.root != nest.root.index:
        return kernel
    return kernel.model_copy(update={"last_block_rows": last[0][1]})


def register_kernel(payload: Payload, op: TileableOp, extents: dict[int, list[int]], candidates: set[int],
                    cpu: CpuInfo, looped: bool = False, yielded: frozenset[int] = frozenset(),
                    in_forall: bool = True, reuse: list[int] | None = None) -> RegisterKernel | None:
    """The register kernel of contraction `op` (None if `op` is not one, or
    its output is not indexed by plain dims). `looped`: the nest already runs
    `op` in an scf.for along a reduction dim (long K, two-level nests); its
    result is whole only after that loop and its init is the loop's
    accumulator, so nothing is fused into its tiles. `yielded`: ops whose
    result tiles the nest's forall yields (yielded_ops), which may drive the
    kernel's loops but are fused into no other op's: fusing one into an
    scf.for aborted xtc-opt (fuzz seed 82: fuse_into_containing_op takes the
    loop for the forall whose terminator inserts the result). `in_forall`:
    the nest's loop is an scf.forall (a panel transpose needs one).
    `reuse`: as in copied_panel."""
    ext = extents[op.index]
    dims = _kernel_dims(op, ext, cpu) if op.index in candidates and not op.index_grains else None
    if dims is None:
        return None
    v, m = dims
    out_dims = _output_dims(op)
    init = next(o for o in op.operands if o.is_init)
    if len(out_dims) != len(init.shape) or len(op.results) != 1:
        return None
    # The chain: elementwise ops that alone read the previous one's result.
    root, chain = op, []
    while not looped and root.index not in yielded and \
            (nxt := _sole_user(payload, root, candidates)) is not None and \
            _elementwise_reader(nxt, root.index, op.results[0].shape):
        chain.insert(0, nxt.index)
        root = nxt
    chain = chain[1:]  # the root itself is not fused
    # The init (fill, bias broadcast) joins the tiles by fuse_into_containing_op under an epilogue; with the
    # contraction as the root it is the destination of the root's own scf.for, which that op cannot fuse
    # (hazard 4 of the field notes): there by transform.structured.fuse, where it may (fuses_init).
    # A fill recomputed in several nests (LoopNest.recomputed) is this op's alone in this nest.
    init_here = not looped and init.value.kind == "op" and init.value.index in candidates and \
        _read_here_only_by(payload, payload.ops[init.value.index], op.index, set(extents))
    nr, mr, vecs = _register_block(op, ext, cpu, peel=True, own_root=root is op)
    order = _root_order(op, root, out_dims)
    if order is None:
        return None
    root_ext = _placed([ext[d] for d in out_dims], order)
    red_sizes = _kernel_reductions(op, ext)
    panel, rows, tile = _kernel_sizes(ext, out_dims, order, red_sizes, v, m, nr, mr)
    if scalar_reason(op, tile) is not None and (block := _strided_scalar_block(op, ext, v, m)) is not None:
        (nr, mr), vecs = block, 1
        panel, rows, tile = _kernel_sizes(ext, out_dims, order, red_sizes, v, m, nr, mr)
    if not any(rows):  # one row (a 1x1x1x7 convolution): no row loop to fuse the chain into, no kernel
        return None
    kernel = RegisterKernel(root=root.index, contraction=op.index, chain=chain,
                            inits=[init.value.index] if init_here and root is not op else [], extents=root_ext,
                            panel_sizes=panel, row_sizes=rows, reduction_sizes=red_sizes, contraction_extents=ext,
                            accumulators=mr * vecs, scalar=scalar_reason(op, tile),
                            interchange=_lanes_interchange(op, v, m))
    kernel = _with_dot_column(op, _with_panel_copy(op, kernel, ext, v, m, nr, mr, cpu, reuse, root is op,
                                                   frozenset(candidates)), v, nr, cpu)
    kernel = _with_panel_transpose(payload, op, kernel, v, m, candidates, cpu) if in_forall else kernel
    return _with_init(payload, op, kernel, init.value.index, candidates) if init_here and root is op else kernel


def _with_init(payload: Payload, op: TileableOp, kernel: RegisterKernel, init: int,
               candidates: set[int]) -> RegisterKernel:
    """`kernel`, its contraction `op` the root, with its init op `init` in its
    register tiles where they can take it: by transform.structured.fuse
    (fuses_init), else through scf.forall panel and row loops
    (forall_fuses_init)."""
    if fuses_init(payload, op, kernel, candidates):
        return kernel.model_copy(update={"inits": [init], "tile_op": "fuse"})
    if forall_fuses_init(kernel):
        return kernel.model_copy(update={"inits": [init], "tile_op": "tile_using_forall"})
    return kernel


def _kernel_sizes(ext: list[int], out_dims: list[int], order: list[int], red_sizes: list[int], v: int,
                  m: int | None, nr: int, mr: int) -> tuple[list[int], list[int], list[int]]:
    """A register kernel's panel and row sizes (on its root's dims: nr columns along v, mr rows along m,
    the other output dims by 1), and the contraction's register tile (its reductions' steps too)."""
    panel = _placed([nr if d == v else 0 for d in out_dims], order)
    rows = _placed([mr if d == m else (1 if ext[d] > 1 and d != v else 0) for d in out_dims], order)
    tile = list(red_sizes)
    for t, d in enumerate(out_dims):
        tile[d] = panel[order[t]] or rows[order[t]]
    return panel, rows, tile


# The largest output plane a strided scalar kernel takes whole (_strided_scalar_block).
SCALAR_PLANE = 49


def _strided_scalar_block(op: TileableOp, ext: list[int], v: int, m: int | None) -> tuple[int, int] | None:
    """(columns, rows) of a depthwise NCHW convolution strided along its
    output row (2 * ow + kw) that stays scalar: its channels (per forall
    tile) in no whole vectors, so not packed (_channel_blocked;
    shufflenet_v2's 24, 58, 116 and 232 on AVX-512, efficientnet_b0's 240
    in tiles of 120). Whole output rows, two at a time (one where their
    number is odd), or the whole plane up to SCALAR_PLANE. The vector
    kernel's 16-column panels by 14 rows were fast only outlined into an
    OpenMP region (2 threads): inlined in the function (1 thread), the
    58-channel one onto 28x28 took 0.80 ms; by two whole rows 0.072 (0.085
    by one, 0.82 by four). 14x14 by 2 rows 0.043 ms, against 0.38 by 14
    and 0.42 by 4; 7x7 whole 0.024, by rows of 1 0.031. At 2 threads no
    slower (0.94-1.18x)."""
    if m is None or _strided_depthwise_row(op, v) is None:
        return None
    if ext[v] * ext[m] <= SCALAR_PLANE:
        return ext[v], ext[m]
    return ext[v], 2 if ext[m] % 2 == 0 else 1


def fuses_init(payload: Payload, op: TileableOp, kernel: RegisterKernel, candidates: set[int]) -> bool:
    """Whether root contraction `op`'s init producer joins its panel and row tiles by
    transform.structured.fuse (RegisterKernel.tile_op). That op fuses every producer in the nest
    it reaches, so only where the init is the one: no input of `op` and nothing the init reads is
    computed in the nest (a producer of an input would be computed again per panel), and no dot column
    or panel transpose (tiles of their own). 1024³ on AVX2: 0.93 -> 0.97 of numpy's speed, as the
    fill's pass over each row block and the accumulators' loads from it go."""
    init = payload.ops[next(o for o in op.operands if o.is_init).value.index]
    reads = [o for o in op.operands if not o.is_init] + list(init.operands)
    return kernel.dot_column is None and kernel.panel_transpose is None and \
        not any(o.value.kind == "op" and o.value.index in candidates for o in reads)


def forall_fuses_init(kernel: RegisterKernel) -> bool:
    """Whether a root contraction's init joins its panel and row tiles with
    those loops as scf.forall (RegisterKernel.tile_op), where
    fuses_init does not hold: an input's producer is computed in the nest
    (an im2col copy; transform.structured.fuse would compute it again per
    row tile). Only loops of one dim each, with no remainder to peel (a
    peel takes an scf.for), and no panel copy, dot column or panel
    transpose (scf.for loops of their own). ResNet's 7x7 stem as an im2col
    matmul: 1.13x at 1 thread, 1.06x at 2, the fill's pass over each tile
    of the output and the accumulators' loads from it gone."""
    def one_dim(sizes: list[int]) -> bool:
        return sum(1 for s in sizes if s) == 1 and not kernel.remainder(sizes)
    return one_dim(kernel.panel_sizes) and one_dim(kernel.row_sizes) and not kernel.copies_panel and \
        kernel.dot_column is None and kernel.panel_transpose is None


def _root_order(op: TileableOp, root: TileableOp, out_dims: list[int]) -> list[int] | None:
    """The root's loop dim behind each output dim of contraction `op`, when
    they are its first loop dims. A chain op's are the output's own
    (identity maps); a contraction's need not be: a depthwise NCHW
    convolution iterates n, oh, ow, c and writes n, c, oh, ow (sized by
    output dims, its panels cut the channels by 16, not the row, and the
    peel of a remainder that was not there failed on whole mobilenet_v2)."""
    order = out_dims if root is op else list(range(len(out_dims)))
    return order if sorted(order) == list(range(len(order))) else None


def _placed(sizes: list[int], order: list[int]) -> list[int]:
    """Sizes per output dim, placed on the root's loop dims (`_root_order`)."""
    placed = [0] * len(order)
    for t, d in enumerate(order):
        placed[d] = sizes[t]
    return placed


def _with_panel_copy(op: TileableOp, kernel: RegisterKernel, ext: list[int], v: int, m: int | None, nr: int,
                     mr: int, cpu: CpuInfo, reuse: list[int] | None = None, own_root: bool = False,
                     nest_ops: frozenset[int] = frozenset()) -> RegisterKernel:
    """`kernel` with one operand's panel copied once into a contiguous buffer
    (_panel_to_copy; `reuse`, `own_root` and `nest_ops` as in copied_panel)."""
    peeled = reuse is not None and peels_first(op, ext, v, m, nr, own_root)
    packed = _panel_to_copy(op, ext, v, m, mr, nr, cpu, reuse, peeled, nest_ops)
    if packed is None:
        return kernel
    tile = [ext[d] if d != v else nr for d in _plain_dims(op, packed) or []]
    copy = [1] * len(tile)
    copy[-1] = 0
    if len(tile) >= 2:
        copy[-2] = _largest_divisor(tile[-2], 8)
    step = pack_step(tile[-2] if len(tile) >= 2 else 1, max(1, ext[v] // nr))
    return kernel.model_copy(update={"packed_operand": packed, "pad_dims": op.reduction_dims(), "peel_first": peeled,
                                     "copy_sizes": copy, "pack_step": step,
                                     "padding_values": [_zero(o) for o in op.operands]})


# Panel rows one step of a packing copy moves. 8 rows of 7 of the 49 panels of a 1x1 convolution's pixels
# (128x3136x224 as a matmul, AVX2, 1 thread): 1.14-1.20x faster than panel by panel; 1 row of all 49: 1.14x.
PACK_STEP_ROWS = 64


def pack_step(rows: int, panels: int) -> list[int]:
    """[rows, panels] that one step of a column block's packing copy moves (hoisted out of the row and
    panel loops): a divisor of the panels' height up to 8 and a divisor of their count, as many panel
    rows as PACK_STEP_ROWS holds, then the most panels. So the copy reads that many panels' widths
    contiguous from each row of the operand; panel by panel it read one panel's width from every row
    (rows 12.5 KB apart for 3136 pixels), which the hardware prefetcher does not follow."""
    steps = [(r, j) for r in divisors(rows) if r <= 8 for j in divisors(panels) if r * j <= PACK_STEP_ROWS]
    r, j = max(steps, key=lambda rj: (rj[0] * rj[1], rj[1]))
    return [r, j]


def _last_panel(n: int, nr: int, lanes: int) -> int | None:
    """The width of the last panel before a dot column (_with_dot_column) along n columns in panels
    of nr: a full panel where one column is left, one vector where two-vector panels leave one vector
    and a column (169 pixels: ten panels of 16, one of 8 and a column, not 21 of 8 and a column, each
    FMA then waiting on a broadcast: 0.7 of numpy's speed). None where no column is left so."""
    if n % nr == 1:
        return nr
    return lanes if nr == 2 * lanes and n % nr == lanes + 1 else None


def _with_dot_column(op: TileableOp, kernel: RegisterKernel, v: int, nr: int, cpu: CpuInfo) -> RegisterKernel:
    """`kernel` with a last panel of one column split off as dot products
    along the reduction. As a panel, that column takes as long as a full
    one: each of its FMAs fills one lane of nr (resnet18's 7x7 layer 4: 49
    pixels in panels of 16, 16, 16 and 1). As dot products, each row keeps
    one vector of partial sums with its lanes along K, summed across them
    after the loop: the column's share of the FMAs drops nr-fold, and what
    is left is one more pass over the row operand (a 512x49x4608 matmul:
    1.38 -> 1.15 ms). Its B column is copied, so that it is contiguous.
    The panel before it is a full one, or one vector after two-vector
    panels (_last_panel).

    Only where the contraction is its own root (nothing computed in its
    tiles), its rows divide, and _column_operand allows one."""
    ext = kernel.contraction_extents
    k = len(ext) - 1
    lanes = cpu.lanes(_element_bytes(op))
    last = _last_panel(ext[v], nr, lanes)
    operand = _column_operand(op, ext, v, nr, lanes)
    if kernel.root != op.index or kernel.interchange or last is None or operand is None or kernel.peel_first \
            or kernel.remainder(kernel.row_sizes) is not None:
        return kernel
    inputs = [o for o in op.operands if not o.is_init]
    column_dims = [e.as_dim() for e in inputs[operand].exprs]  # type: ignore[union-attr]
    # The column's op once its unit dims are folded: its rows (of more than one) and K.
    rows = [d for d in range(k) if d != v and (kernel.row_sizes[d] or ext[d]) > 1]
    # A copied panel's operand is the column's too: both copies are tiled alike (one loop in the schedule)
    copy = kernel.copy_sizes if kernel.packed_operand == operand else \
        [0 if d == v else (_largest_divisor(ext[d], 8) if d == k else 1) for d in column_dims]
    dot = DotColumn(at=ext[v] - 1, last=last, operand=operand, reduction_sizes=[0] * len(rows) + [lanes],
                    copy_sizes=copy)
    update: dict = {"dot_column": dot}
    if kernel.packed_operand is None:  # the column is copied all the same
        update |= {"pad_dims": op.reduction_dims(), "padding_values": [_zero(o) for o in op.operands]}
    return kernel.model_copy(update=update)


def _column_operand(op: TileableOp, ext: list[int], v: int, nr: int, lanes: int) -> int | None:
    """The input that a last column's dot products (_with_dot_column) read
    along K, or None where `op` at these extents allows none: a last panel
    of one column (_last_panel), an f32 contraction of two inputs indexed by
    plain dims, one reduction dim, the innermost, a multiple of the lanes,
    which the column's input indexes and along which the other is
    contiguous."""
    k = len(ext) - 1
    if _last_panel(ext[v], nr, lanes) is None or ext[v] == 1 or op.domain[v] % ext[v] \
            or op.reduction_dims() != [k] or ext[k] % lanes or op.results[0].element_type != "f32":
        return None
    inputs = [o for o in op.operands if not o.is_init]
    if len(inputs) != 2 or any(o.exprs is None or any(e is None or e.as_dim() is None for e in o.exprs)
                               for o in inputs):
        return None
    dims = [[e.as_dim() for e in o.exprs] for o in inputs]  # type: ignore[union-attr]
    column = [i for i, ds in enumerate(dims) if v in ds]
    if len(column) != 1 or k not in dims[column[0]] or dims[1 - column[0]][-1] != k:
        return None
    return column[0]


def _with_panel_transpose(payload: Payload, op: TileableOp, kernel: RegisterKernel, v: int, m: int | None,
                          candidates: set[int], cpu: CpuInfo) -> RegisterKernel:
    """`kernel` with its packed operand's producer, a transpose in the nest
    that the contraction alone reads, computed per panel straight into the
    panel's buffer: the transposed tile is not written at the forall level
    and then copied panel by panel. torch-mlir transposes every Linear's
    weight so; ViT's fc2 weight stood as a nest of its own (0.13-0.19 ms of a
    3.5 ms block). Also where too few row tiles reuse a panel for a copy to
    pay (MIN_PANEL_REUSE): the transpose writes its tile anyway, and per
    panel its rows are contiguous (BERT's 32 tokens: 0.315 -> 0.288 ms for
    the layer on one thread). Also under a peeled last panel: its blocks are
    cut by the panel's width until the peel, then static (GPT-2's 1000-token
    head by 500 columns, a last panel of 4). Not with a dot column, and only
    where the transpose's register blocks divide a full panel."""
    k = _packed_operand(op, v, m) if kernel.packed_operand is None else kernel.packed_operand
    if k is None or kernel.dot_column is not None:
        return kernel
    value = op.operands[k].value
    if value.kind != "op" or value.index not in candidates:
        return kernel
    t = payload.ops[value.index]
    init = next((o for o in t.operands if o.is_init), None)
    if t.name != "linalg.transpose" or init is None or not _identity(init, len(t.domain)) \
            or _sole_user(payload, t, {op.index}) is None:
        return kernel
    nr = next(s for s in kernel.panel_sizes if s)
    ext = kernel.contraction_extents
    panel = [nr if d == v else ext[d] for d in _plain_dims(op, k) or []]
    tiling = inner_tiling(t, panel, cpu)
    if tiling.kind != "transpose" or tiling.scalar is not None \
            or any(s and e % s for s, e in zip(tiling.register_sizes, panel)):
        return kernel
    return kernel.model_copy(update={"packed_operand": k, "panel_transpose": t.index,
                                     "transpose_sizes": tiling.register_sizes})


def transposes_panel(payload: Payload, op: TileableOp, producer: int, ext: list[int], cpu: CpuInfo) -> bool:
    """Whether `op`'s register kernel at these extents would compute
    `producer` per panel (_with_panel_transpose): then, fused, it costs the
    nest no tile of its own."""
    k = register_kernel(payload, op, {op.index: ext}, {op.index, producer}, cpu)
    return k is not None and k.panel_transpose == producer


def _kernel_dims(op: TileableOp, ext: list[int], cpu: CpuInfo) -> tuple[int, int | None] | None:
    """(v, m) of the register kernel `op` would get at these extents
    (_vector_dims), or None when it gets none: the preconditions
    register_kernel starts from, and what the planner asks before any
    kernel is built."""
    if not is_multiply_accumulate(op) or _blocked(op, ext, cpu) is not None:
        return None
    v, m = _vector_dims(op, ext)
    return None if v is None else (v, m)


def panel_operand(op: TileableOp, ext: list[int], cpu: CpuInfo) -> int | None:
    """The input that a register kernel of `op` at these extents reads panel
    by panel (_packed_operand), copied or not, if any."""
    dims = _kernel_dims(op, ext, cpu)
    return None if dims is None else _packed_operand(op, *dims)


def copied_panel(op: TileableOp, ext: list[int], cpu: CpuInfo, reuse: list[int] | None = None,
                 own_root: bool = False, nest_ops: frozenset[int] = frozenset()) -> int | None:
    """The input whose panel a register kernel of `op` at these extents
    copies into a buffer (_panel_to_copy), if any. `reuse`: the extents
    whose rows read each copy, where more than the kernel's (a row loop's
    column block, packed once for all its row blocks); `own_root`: the
    kernel computes nothing in its tiles (see peels_first); `nest_ops`: the
    ops of its nest (a tile one of them writes is a buffer of its own)."""
    dims = _kernel_dims(op, ext, cpu)
    if dims is None:
        return None
    nr, mr, _ = _register_block(op, ext, cpu, peel=True, own_root=own_root)
    peeled = reuse is not None and peels_first(op, ext, *dims, nr, own_root)
    return _panel_to_copy(op, ext, *dims, mr, nr, cpu, reuse, peeled, nest_ops)


def peels_first(op: TileableOp, ext: list[int], v: int, m: int | None, nr: int, own_root: bool) -> bool:
    """Whether a row loop's kernel peels its panel loop before it copies the
    panels, so that the narrower last panel is static and packed once per
    column block like the others (hoist_pad takes static panels only). Only
    a kernel that is its own root (nothing computed in its tiles: the two
    parts are tiled apart) and needs no interchange, with a last panel of
    more than one column (one column is a dot column). 1000³ on AVX2, 1
    thread, 200 columns by rows of 50: 0.87 of numpy's speed with the panels
    copied per row block, 0.95 packed once."""
    last = ext[v] % nr
    return own_root and last > 1 and not _lanes_interchange(op, v, m)


def panel_bytes(op: TileableOp, ext: list[int], cpu: CpuInfo, nest_ops: frozenset[int] = frozenset()) -> int:
    """The bytes of the panel that `op`'s register kernel at these extents
    copies (a matmul's B: its reduction chunk times nr columns), 0 without
    one. Enough row tiles read that panel again to pay for the copy
    (_panel_to_copy), each while the other operand streams past it, so it
    should stay in L1. A panel few row tiles read gains little there."""
    k = copied_panel(op, ext, cpu, nest_ops=nest_ops)
    if k is None:
        return 0
    dims = _kernel_dims(op, ext, cpu)
    assert dims is not None
    nr, _, _ = _register_block(op, ext, cpu, peel=True)
    operand = op.operands[k]
    return prod(nr if e.as_dim() == dims[0] else ext[e.as_dim()]  # type: ignore[union-attr]
                for e in operand.exprs) * operand.element_bytes  # type: ignore[union-attr]


def panel_waste(op: TileableOp, ext: list[int], cpu: CpuInfo) -> float:
    """The share of the columns of `op`'s register kernel panels at these
    extents that hold no output: a narrower last panel takes as long as a
    full one (a 98-pixel tile in panels of 32: 3 full panels and one of 2
    columns, 23%). 0 when the panels divide the row, or there is no kernel."""
    dims = _kernel_dims(op, ext, cpu)
    if dims is None:
        return 0.0
    nr, _, _ = _register_block(op, ext, cpu, peel=True)
    n = ext[dims[0]]
    return 1 - n / (-(-n // nr) * nr)


def _panel_to_copy(op: TileableOp, ext: list[int], v: int, m: int | None, mr: int, nr: int, cpu: CpuInfo,
                   reuse: list[int] | None = None, peeled: bool = False,
                   nest_ops: frozenset[int] = frozenset()) -> int | None:
    """The operand `_packed_operand` names, where enough row tiles reuse its
    panel for the copy to pay (MIN_PANEL_REUSE), or, with fewer (two or
    more), where its rows evict each other from L2 (_evicts_itself) and the
    kernel has fewer than STREAMED_PANEL_ROWS rows. Those
    of `reuse` (see copied_panel) where the panels are full or `peeled`
    (peels_first): only those are packed once per column block
    (emit.schedule._panel_hoist); a last panel peeled after the copy keeps
    its copies per row block."""
    rows = reuse if reuse is not None and (ext[v] % nr == 0 or peeled) else ext
    parallel_out = [d for d in _output_dims(op) if op.iterators[d] == "parallel"]
    row_tiles = -(-prod(rows[d] for d in parallel_out if d != v) // mr)
    k = _packed_operand(op, v, m)
    if k is None or row_tiles < 2:
        return None
    if all(e is not None and e.as_dim() is not None for e in op.operands[k].exprs or ()):
        # A plain operand read whole from memory (not a tile an op of the nest writes) whose row stride maps
        # its panel onto few L2 sets (a 32-token matmul onto 3072 columns, rows 12 KiB apart: 16 sets of
        # 1024) is streamed from L3 again by every row tile (32x3072x768 on AVX2: 1.4x faster copied on 1
        # thread, 1.6x on 2). 3136 columns (rows in 256 sets) lost 12% so: the copy's strided reads cost
        # what they save. Only for kernels of few rows (STREAMED_PANEL_ROWS).
        whole = op.operands[k].value.kind != "op"
        if not whole and op.operands[k].value.index in nest_ops \
                and _panel_lines_bytes(op, k, ext, nr) <= cpu.l1_bytes:
            # A tile an op of the nest writes (an im2col copy's) has rows of the tile's width: a panel of a
            # short reduction stays in L1 as it is, and without the copy the accumulators can start from
            # the init in registers (forall_fuses_init). 1x1 convolutions onto 56x56, 1 / 2 threads: 64 ->
            # 256 1.17x / 1.15x, 224 -> 128 1.09x / 1.10x, 64 -> 128 1.11x / 1.19x.
            return None
        streams = mr >= STREAMED_PANEL_ROWS
        pays = row_tiles >= MIN_PANEL_REUSE or (whole and not streams
                                                and _evicts_itself(op, k, ext, nr, cpu.l2_bytes, L2_WAYS))
    else:
        # A window index of one tap (a 1x1 convolution's input): copied only where its panel rows evict each
        # other from L1 and the copy is hoisted (full panels).
        pays = row_tiles >= MIN_PANEL_REUSE and ext[v] % nr == 0 \
            and _evicts_itself(op, k, ext, nr, cpu.l1_bytes, cpu.l1_bytes // L1_WAY_BYTES)
    return k if pays else None


def _panel_lines_bytes(op: TileableOp, k: int, ext: list[int], nr: int) -> int:
    """The bytes of the cache lines that a panel of operand `k` (nr columns
    of each of its rows along the reductions) takes where it lies, uncopied."""
    o = op.operands[k]
    rows = prod(ext[d] for e in o.exprs or () if e is not None and (d := e.as_dim()) is not None
                and op.iterators[d] != "parallel")
    return rows * _row_lines(o, nr) * LINE_BYTES


def _row_lines(operand: Operand, nr: int) -> int:
    """The cache lines of one panel row of `operand`, nr elements wide."""
    return max(1, -(-nr * operand.element_bytes // LINE_BYTES))


# Kernel rows from which a panel whose rows evict each other from L2 is read in place all the same: the
# kernel reads 2 / rows bytes of it per flop (f32), and L3 keeps up with a quarter byte. On a Zen 4, 1 / 2
# threads, 32x3072x768: 8-row kernels (AVX-512's 8x32, or 8x16 on 32 ymm registers) 0.90-1.14x / 1.12-1.25x
# as fast without the copy, 4-row ones (AVX2's 4x16, or 4x32 on 16 zmm) 1.5-2.1x / 1.3-1.7x faster with it;
# 64x1024x512: 8x32 1.06 / 1.08x without, 6x16 1.6x with it.
STREAMED_PANEL_ROWS = 8


# Cache geometry for _evicts_itself. An x86 L1 data cache way: 64 sets of 64-byte lines (32 KiB in 8 ways,
# 48 KiB in 12). L2: 8 ways assumed (Zen 3 and 4; Intel's 16-way ones then count twice the sets and half
# the ways, the same lines where a row stride is a multiple of the way).
L1_WAY_BYTES = 4096
L2_WAYS = 8
LINE_BYTES = 64


def _evicts_itself(op: TileableOp, k: int, ext: list[int], nr: int, cache_bytes: int, ways: int) -> bool:
    """Whether the panel of operand `k` (its rows along the innermost
    reduction dim it indexes, each nr elements wide) holds more lines than
    the sets of a cache of `cache_bytes` in `ways` its row stride maps them
    to can keep. An NCHW input's rows are a whole plane apart: in L1, 64x64
    pixels (16 KiB) put every row in one set of 8 lines, 56x56 in 16 sets,
    28x28 in all 64."""
    o = op.operands[k]
    dims = _plain_dims(op, k) or []
    red = [i for i, d in enumerate(dims) if op.iterators[d] != "parallel" and ext[d] > 1]
    if not red:
        return False
    at = red[-1]
    kept = _lines_kept(o, at, cache_bytes, ways)
    return kept is not None and ext[dims[at]] * _row_lines(o, nr) > kept


def _lines_kept(o: Operand, at: int, cache_bytes: int, ways: int) -> int | None:
    """The lines of rows along index `at` of operand `o` that a cache of
    `cache_bytes` in `ways` keeps: the sets their stride maps them to, times
    the ways. None where the rows lie within a line of each other (contiguous)."""
    stride_lines = prod(o.shape[at + 1:]) * o.element_bytes // LINE_BYTES
    if not stride_lines:
        return None
    sets = max(1, cache_bytes // max(1, ways) // LINE_BYTES)
    return max(1, ways) * (sets // gcd(stride_lines, sets))


def _packed_operand(op: TileableOp, v: int, m: int | None) -> int | None:
    """The input that does not depend on the rows and is contiguous along the
    panel's columns (a matmul's B, a convolution's filter, a 1x1 NCHW
    convolution's input): its panel is copied into a buffer of rows nr
    wide. Plain dims only (_plain_dims)."""
    for i, o in enumerate(op.operands):
        dims = None if o.is_init else _plain_dims(op, i)
        if dims is not None and dims[-1] == v and m not in dims:
            return i
    return None


def _plain_dims(op: TileableOp, i: int) -> list[int] | None:
    """The loop dim each index of operand `i` is, with terms of loops of one
    trip left out (a 1x1 convolution's window: `oh + kh` with kh of 1 is oh),
    or None where an index is no plain dim so."""
    exprs = op.operands[i].exprs
    if exprs is None or any(e is None for e in exprs):
        return None
    dims = []
    for e in exprs:
        kept = _kept_terms(e, list(op.domain)) or list(e.coeffs)  # type: ignore[union-attr]
        if len(kept) != 1 or kept[0][1] != 1 or e.const != 0:  # type: ignore[union-attr]
            return None
        dims.append(kept[0][0])
    return dims
