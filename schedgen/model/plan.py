"""The plan: what schedgen decided, as pydantic models (JSON with --json),
and its table form for `schedgen explain`."""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel

from schedgen.model.cpu import CpuInfo
from schedgen.model.target import Target


class FuseMode(str, Enum):
    MAX_PRODUCERS = "max-producers"
    MAX_SIZE = "max-size"
    ONLY_PATTERNS = "only-patterns"
    NO_FUSE = "no-fuse"


class OpRef(BaseModel):
    index: int  # position among the function's tileable ops
    name: str
    line: int
    result_type: str  # of its first result
    results: int = 1  # ops with several results are matched by name alone (filter_result_type takes one)

    @property
    def label(self) -> str:
        return f"op{self.index} {self.name}"


class ReductionTiling(BaseModel):
    """A reduction dim of one nest op tiled by a sequential scf.for."""

    op: int
    op_rank: int  # number of loops of the op (length of its tile_sizes)
    dim: int
    size: int
    extent: int


class FootprintItem(BaseModel):
    what: str
    shape: list[int]
    bytes: int


class LocalBuffer(BaseModel):
    """One buffer of a simulated loop body (precise footprint)."""

    what: str
    bytes: int
    live: list[int]  # [first, last] position in the body of the ops that touch it
    offset: int
    in_place_of: str | None = None


class NoteKind(str, Enum):
    NOT_FUSED = "not-fused"  # a producer left out of the nest (and why)
    SHARED_RESULT = "shared-result"  # left out: its result is also read outside the nest
    ONLY_PATTERNS = "only-patterns"  # producers outside the fuse groups, by the fuse mode
    REDUCTION_TILED = "reduction-tiled"  # reduction dims tiled by scf.for to fit
    PARTIAL_TILES = "partial-tiles"  # a tile size that does not divide its loop: a smaller last tile
    TWO_LEVEL = "two-level"
    PRODUCER_DRIVEN = "producer-driven"
    LOOP_FUSED = "loop-fused"  # another nest's ops computed inside a contraction's reduction loop
    PRECISE_FOLDED = "precise-folded"  # the simulation lost an op: the analytic footprint is used
    RECOMPUTED = "recomputed"  # a producer reading no tensor, computed again in each nest that reads it
    ROWS_IN_ORDER = "rows-in-order"  # CPU: row blocks walked by an scf.for inside a forall over column blocks


class Note(BaseModel):
    """Why the planner did something to a nest: a kind to select on, and the
    sentence `explain` and the schedule print."""

    kind: NoteKind
    text: str

    def __str__(self) -> str:
        return self.text


class Recompute(BaseModel):
    """A producer that reads no tensor (a fill) fused into this nest although
    other nests read it too: each computes its own copy. The schedule takes a
    fresh handle to it from operand `operand` (MLIR operand number) of member
    `reader`, as fusing it into an earlier nest consumed the handles to it."""

    op: int
    reader: int
    operand: int


class LoopNest(BaseModel):
    id: int
    root: OpRef
    loop_kind: str  # "scf.forall" (parallel dims), or "scf.for" (producer-driven, see driven)
    driven: str = "consumer"  # "consumer": tile the last op, fuse producers; "producer": also fuse consumers
    levels: int = 1  # 2: each op's r-axis dims tiled by its own scf.for inside the forall (two-level nest)
    axis_groups: str = ""  # merged (x)(y)(r) groups over the root's axes z0, z1, ... (schedgen.analysis.axis_groups)
    dims_order: list[int]  # root dims in tiling order: parallel, outermost first
    tile_sizes: list[int]  # per root dim, 0 = not tiled (the transform ops' convention)
    forall_tiles: int = 1  # iterations of the outermost loop at these sizes (an scf.forall's: what the cores share)
    producers: list[OpRef]  # fused by fuse_into_containing_op, in this order
    consumers: list[OpRef] = []  # fused by transform.xtc.fuse_consumer, in this order
    # Producers fused into the innermost reduction loop of op `loop_into` (a
    # contraction's K loop), in this order, after the nested slices are merged:
    # another contraction group computed one K chunk at a time.
    loop_producers: list[OpRef] = []
    loop_into: int | None = None
    reuse_dest: list[int] = []  # consumers fused with reuse_producer_dest (no full write of the root's result)
    cse_before: list[int] = []  # producers read by several nest ops: their slices are merged first
    # Of those, the rank-0 ones: read whole (no slice to merge), fusion clones one per read; CSE merges the clones.
    cse_after: list[int] = []
    recomputed: list[Recompute] = []  # producers also computed in other nests (they read no tensor)
    # Several nest ops read one tile of an outside tensor: the schedule merges their slices (one
    # transfer, as the footprint and traffic count it) once the nest is built (memory targets).
    shared_tiles: list[str] = []
    reduction_tiling: list[ReductionTiling] = []
    # CPU targets (row_order.rows_in_order): per root dim, the tiles of a sequential scf.for over row blocks
    # inside the forall (0 = not tiled), every member fused into it; [] = none.
    row_tiles: list[int] = []
    footprint_bytes: int  # the figure checked against the budget (precise peak in precise mode)
    budget_bytes: int
    footprint_items: list[FootprintItem]  # the analytic estimate's terms
    footprint_mode: str = "analytic"
    analytic_footprint_bytes: int | None = None  # in precise mode, the estimate next to the peak
    local_buffers: list[LocalBuffer] = []  # precise mode: every buffer with its live range and offset
    notes: list[Note] = []
    traffic_bytes: int | None = None  # main-memory traffic of the nest (schedgen.analysis.traffic)

    @property
    def ops(self) -> list[OpRef]:
        return [self.root, *self.producers, *self.loop_producers, *self.consumers]

    @property
    def copies(self) -> set[int]:
        """The ops this nest computes a copy of (recomputed)."""
        return {r.op for r in self.recomputed}

    @property
    def fuse_all(self) -> bool:
        """A producer-driven scf.for nest tiles and fuses all its producers in
        one transform.structured.fuse (fuse_into_containing_op cannot fuse a
        destination producer into scf.for), which leaves no handle to them."""
        return self.driven == "producer" and self.loop_kind == "scf.for" and bool(self.producers)


class InnerTiling(BaseModel):
    """scf.for tiling of one op inside its nest (or at the top level)."""

    op: int
    rank: int
    extents: list[int]  # the op's iteration tile before this tiling
    copy_in: int | None = None  # the nest of this copy, for an op recomputed in several (LoopNest.recomputed)
    cache_sizes: list[int] = []  # L1 level: reduction dims tiled by kc (0 = not tiled); [] = no such level
    register_sizes: list[int]  # register level (0 = not tiled)
    split_sizes: list[int] = []  # row reductions, dot products: tile_reduction_using_for chunks (partial results); [] = none
    # "contraction", "reduction", "transpose", "elementwise", "pack" (one packed tile at a time), "pad" (planes)
    # or "rows" (a nest computed one row at a time: planning.norm_rows)
    kind: str
    accumulators: int = 0  # vector registers the register tile keeps live (contractions)
    scalar: str | None = None  # why the vectorizer leaves the register tile scalar (cpu_levels.scalar_reason)
    # Elementwise producers computed in this op's register tiles (fused into its innermost register
    # loop), nearest first: their tiles stay in vector registers, none is written out whole.
    fused: list[int] = []
    # Pads: each plane filled and copied straight into the result (the tile holds whole padded dims).
    in_place: bool = False
    # A named 2-D window op (an NCHW pooling) whose register tile is one output row of one window row:
    # `transform.structured.decompose` makes it the 1-D op, which the vectorizer takes along the channels.
    decompose: bool = False
    # A depthwise or grouped NCHW convolution strided along its output row: transform.structured.pack's
    # sizes per op dim, the (output) channels in blocks of one or two vectors (NCHW16c), so that each tap
    # is one contiguous block ([] = not packed). register_sizes then tile the packed op: the block's dim
    # appended last.
    pack_sizes: list[int] = []
    # Output pixels along the row that one register tile of the packed op computes (a grouped one), each
    # then tiled by 1 inside the reductions and unrolled: each pixel's block stays in registers (0 = none).
    unroll: int = 0
    # The packed op's iterators interchanged so that the pixels' dim comes after the reductions, and the
    # tiles inside a register tile: the reductions and the pixels by 1.
    unroll_interchange: list[int] = []
    unroll_sizes: list[int] = []
    input_width: int = 0  # the packed input's row (for the peel of its 16-wide pack tiles); 0 = not packed
    output_width: int = 0  # the unpacked result's row (likewise)
    init_sizes: list[int] = []  # the packed init's tiles: one row, a divisor of it (no dynamic tile)
    row_sizes: list[int] = []  # the input pack's and the result unpack's tiles: one row by a few columns
    # The filter pack's tiles (one input channel's taps at a time): whole, a grouped convolution's 16x16x3x3
    # filter was 2304 element moves in the IR, per nest.
    filter_sizes: list[int] = []

    @property
    def dots(self) -> bool:
        """A contraction as dot products: partial sums along its reduction (split_sizes)."""
        return self.kind == "contraction" and bool(self.split_sizes)

    @property
    def channel_block(self) -> int:
        """The channels' block when packed (pack_sizes), else 0."""
        return max(self.pack_sizes, default=0)

    def row_remainder(self, width: int) -> bool:
        """Whether a packed row of `width` (input_width, output_width) leaves
        a remainder of its vector-wide pack tiles, which the schedule peels:
        a row no longer than a vector is one whole tile."""
        return width > self.channel_block and width % self.channel_block != 0

    def remainders(self) -> list[tuple[int, int, int]]:
        """(dim, size, last tile) of each register loop whose size does not
        divide its extent, innermost first: the schedule peels each into a
        static loop body of its own, so that both vectorize."""
        return [(d, s, e % s) for d, (s, e) in reversed(list(enumerate(zip(self.register_sizes, self.extents))))
                if s and e % s]


class DotColumn(BaseModel):
    """The last column of a register kernel's panels, split off and computed
    as dot products along the reduction (cpu_levels._with_dot_column)."""

    at: int  # where it splits off along the panel dim: the panels cover the columns before it
    last: int  # the width of the panel before it: a full one, or one vector after two-vector panels
    operand: int  # the contraction operand read along that dim (copied, so that the column is contiguous)
    reduction_sizes: list[int]  # tile_reduction_using_for sizes of its op, unit dims folded: lanes along K
    copy_sizes: list[int]  # tiling of its copy (a few elements of K at a time)


class RegisterKernel(BaseModel):
    """A contraction computed inside the register tiles of the last
    elementwise op it feeds (Halide's `compute_at` at the register level):
    the accumulators stay in vector registers over the whole reduction, and
    the epilogue (bias, activation) runs on them before the one store.

    Inside the nest's forall: the root is tiled into column panels (nr
    along the output's contiguous dim) with the chain, the contraction and
    its init fused in; the contraction's operand that does not depend on the
    rows is copied once per panel into a contiguous buffer (so its rows are
    nr wide, not a full matrix row apart); then rows of mr (1 along other
    outer dims) with everything fused again; then the contraction's
    reductions (innermost by 4: unrolled outer products)."""

    root: int  # op whose tiles drive the loops (the contraction itself when nothing follows it)
    contraction: int
    chain: list[int]  # elementwise ops between the root and the contraction, nearest the root first
    inits: list[int]  # producers of the contraction's init in the nest (fill, bias broadcast)
    extents: list[int]  # the root's tile inside the forall, over its first loop dims (those of its output)
    panel_sizes: list[int]  # the same loop dims: nr along the output's contiguous dim
    row_sizes: list[int]  # the same loop dims: mr rows, 1 along other outer dims
    reduction_sizes: list[int]  # contraction dims: innermost reduction by 4, the others by 1
    contraction_extents: list[int] = []  # the contraction's tile inside the forall, per its dims
    # iterator_interchange of the generalized contraction (v before the rows: the outer-product lowering's
    # lanes follow the first input's first parallel dim); [] = none
    interchange: list[int] = []
    packed_operand: int | None = None  # contraction operand copied per panel
    pad_dims: list[int] = []  # contraction dims spanned by that copy's padding op (its reductions)
    padding_values: list[str] = []  # one zero per contraction operand, typed
    copy_sizes: list[int] = []  # tiling of the copy (a few rows at a time)
    # [rows, panels] one step of the copy moves where it is hoisted out of the row loop into one packing
    # loop per column block (cpu_levels.pack_step)
    pack_step: list[int] = []
    accumulators: int  # vector registers the row tile keeps live
    scalar: str | None = None  # why the vectorizer leaves the kernel scalar (cpu_levels.scalar_reason)
    dot_column: DotColumn | None = None  # a last column split off the panels
    # A transpose in the nest whose result is the packed operand (a Linear's weight as torch-mlir
    # emits it): computed per panel straight into the panel's buffer instead of the copy
    # (cpu_levels._with_panel_transpose), in register blocks of transpose_sizes.
    panel_transpose: int | None = None
    transpose_sizes: list[int] = []
    # The panel loop is peeled before the copy (a row loop's kernel whose last panel is narrower): both
    # parts are static, so the last panel is packed once per column block too (cpu_levels.peels_first)
    peel_first: bool = False
    # The transform op that tiles the panels and rows. Where the contraction is the root, its init (inits)
    # is the destination of those loops, which fuse_into_containing_op cannot fuse into an scf.for; so that
    # the accumulators start from it in registers, not from a tile written and read back: "fuse"
    # (transform.structured.fuse fuses it through the destination, cpu_levels.fuses_init), or, where an
    # input's producer is computed in the nest too (an im2col copy, which that op would fuse into every row
    # tile), "tile_using_forall": fuse_into_containing_op fuses the init alone through the shared outputs
    # (cpu_levels.forall_fuses_init)
    tile_op: Literal["tile_using_for", "fuse", "tile_using_forall"] = "tile_using_for"
    # Rows of the nest's last row block where the row loop's blocks do not divide the rows (a multiple of
    # the kernel's: planner._whole_register_rows). The kernel's row loop then has a dynamic extent: peeled in
    # every block, so that its full row tiles are static, and what the last block leaves is tiled by 1 row.
    last_block_rows: int | None = None

    @property
    def last_block_left(self) -> int | None:
        """Rows the nest's partial last row block leaves after its whole row tiles (tiled by one row)."""
        return None if self.last_block_rows is None else self.last_block_rows % max(self.row_sizes)

    @property
    def copies_panel(self) -> bool:
        """Whether a copy (pad + allocation) fills the panel buffer: a panel transpose writes it itself."""
        return self.packed_operand is not None and self.panel_transpose is None

    @property
    def ops(self) -> set[int]:
        return {self.root, self.contraction, *self.chain, *self.inits} | \
            ({self.panel_transpose} if self.panel_transpose is not None else set())

    def remainder(self, sizes: list[int]) -> int | None:
        """The last tile of a panel, row or reduction loop that does not
        divide its extent (the schedule peels it into a static loop body of
        its own)."""
        extents = self.contraction_extents if sizes is self.reduction_sizes else self.panel_extents
        return next((e % s for s, e in zip(sizes, extents) if s and e % s), None)

    @property
    def panel_extents(self) -> list[int]:
        """`extents` along the panel loop: less the last panel and the column split off after it (dot_column)."""
        if self.dot_column is None:
            return self.extents
        head = self.dot_column.at - self.dot_column.last
        return [head if p else e for p, e in zip(self.panel_sizes, self.extents)]

    @property
    def full_panels(self) -> list[int]:
        """The full panels along each dim the panel loop tiles."""
        return [e // s for s, e in zip(self.panel_sizes, self.panel_extents) if s]


class UntiledOp(BaseModel):
    op: OpRef
    footprint_bytes: int
    reason: str


class GroupInfo(BaseModel):
    """A fuse group (schedgen.analysis.fuse_groups) and the nests its ops landed in
    (one when tiled, none when it fits untiled)."""

    id: int
    pattern: str
    principal: int
    members: list[int]
    nests: list[int]
    split: str | None = None  # why the group was split over several nests (it could not share one)


class Plan(BaseModel):
    payload: str
    func: str
    target: Target
    fuse_mode: FuseMode
    ops: list[OpRef]  # every tileable op of the function, program order
    # Emission order: producer-driven nests (program order), then the rest
    # (reverse program order of roots).
    nests: list[LoopNest]
    untiled: list[UntiledOp]
    footprint_mode: str = "analytic"
    precise_checks: int = 0  # simulations run (precise mode)
    groups: list[GroupInfo] = []
    # CPU targets: scf.for tiling (L1, registers) of every op the schedule
    # holds a handle to, inside its nest (schedgen.planning.cpu_levels).
    inner: list[InnerTiling] = []
    kernels: list[RegisterKernel] = []  # contractions at register level; their ops are not in `inner`
    parallel_nests: list[int] = []  # ids of the nests whose scf.forall runs on all cores (scf.parallel)
    # CPU targets: elements per chunk of the copies bufferization adds outside every nest, which run on all
    # cores (0: sequential; schedgen.planning.cpu_levels.copy_chunk)
    copy_chunk: int = 0
    normalize: list[str] = []  # schedgen.ir.normalize steps the schedule runs before it matches ops
    img2col_convs: list[str] = []  # operand types of the convolutions its img2col step converts
    transpose_b_matmuls: list[str] = []  # operand types of the matmuls its transpose_b step rewrites
    placed_pads: list[bool] = []  # per tensor.pad in order: whether its pad_in_place step takes it
    slice_rounds: int = 0  # rounds of the slice_producers step (schedgen.ir.slices), after the steps above
    sliced_gemvs: list[str] = []  # operand types of the one-row matmuls those rounds leave, rewritten as transpose_b
    traffic_bytes: int | None = None  # main-memory traffic of the whole plan
    traffic_lower_bound: int | None = None  # an I/O lower bound for the payload at this budget
    traffic_per_contraction_bound: int | None = None  # issue 15's yardstick (analysis/traffic.py)


def format_table(plan: Plan) -> str:
    """Human-readable plan: one block per nest, then the untiled ops."""
    budget = plan.target.memory_bytes
    lines = [f"plan for @{plan.func} in {plan.payload}: target {plan.target.name} "
             f"({budget} bytes), fuse mode {plan.fuse_mode.value}, footprint {plan.footprint_mode}"
             + (f" ({plan.precise_checks} simulations)" if plan.footprint_mode == "precise" else ""),
             *([f"normalized first: {', '.join(plan.normalize)}"
                + (f" ({plan.slice_rounds} rounds: only the slices read are computed)" if plan.slice_rounds else "")]
               if plan.normalize else []),
             *([f"cpu: the copies of concat operands not computed in place (bufferization's, outside every nest) "
                f"run on all cores in chunks of {plan.copy_chunk} elements where contiguous"]
               if plan.copy_chunk and "decompose_concat" in plan.normalize else []),
             f"{'nest':<5} {'root':<34} {'tile sizes':<22} {'loops':<11} {'footprint / budget':<22} fused ops"]
    for n in plan.nests:
        fused = ", ".join(f"op{p.index}" for p in n.producers) or "-"
        if n.loop_producers:
            fused += f"; in op{n.loop_into}'s loop " + ", ".join(f"op{p.index}" for p in n.loop_producers)
        if n.consumers:
            fused += "; consumers " + ", ".join(f"op{c.index}" for c in n.consumers)
        sizes = "[" + ", ".join(map(str, n.tile_sizes)) + "]"
        pct = 100.0 * n.footprint_bytes / budget
        lines.append(f"{n.id:<5} {n.root.label + ' (line ' + str(n.root.line) + ')':<34} {sizes:<22} "
                     f"{n.loop_kind:<11} {str(n.footprint_bytes) + ' / ' + str(budget) + f' ({pct:.0f}%)':<22} {fused}")
        lines.append(f"{'':<5}   axes (x)(y)(r): {n.axis_groups}")
        if n.traffic_bytes is not None:
            lines.append(f"{'':<5}   traffic: {_mb(n.traffic_bytes)} to and from main memory")
        if n.row_tiles:
            lines.append(f"{'':<5}   rows: [{', '.join(map(str, n.row_tiles))}] of op{n.root.index} by an scf.for "
                         "inside the forall, every op fused into it")
        for r in n.reduction_tiling:
            kind = "inner loop: dim" if n.levels == 2 else "reduction dim"
            lines.append(f"{'':<5}   {kind} d{r.dim} of op{r.op} tiled by {r.size} of {r.extent} (scf.for)")
        if n.footprint_mode == "precise":
            lines.append(f"{'':<5}   precise: peak {n.footprint_bytes} bytes of {len(n.local_buffers)} local buffers "
                         f"(analytic estimate {n.analytic_footprint_bytes})")
            for b in n.local_buffers:
                reuse = f", in place of {b.in_place_of}" if b.in_place_of else ""
                lines.append(f"{'':<5}     @{b.offset:<8} {b.bytes:>9} B  live {b.live[0]}-{b.live[1]}  {b.what}{reuse}")
        for note in n.notes:
            lines.append(f"{'':<5}   note: {note}")
        if plan.target.cpu is not None:
            lines += [f"{'':<5}   cpu: {text}" for text in _cpu_texts(plan, n, plan.target.cpu)]
    for g in plan.groups:
        where = f"nest {g.nests[0]}" if len(g.nests) == 1 else ("untiled" if not g.nests else f"nests {g.nests}")
        lines.append(f"group #{g.id} {g.pattern}: principal op{g.principal}, ops "
                     + ", ".join(f"op{m}" for m in g.members) + f" -> {where}"
                     + (f" (split: {g.split})" if g.split else ""))
    for u in plan.untiled:
        lines.append(f"{'-':<5} {u.op.label + ' (line ' + str(u.op.line) + ')':<34} {'untiled':<22} {'-':<11} "
                     f"{str(u.footprint_bytes) + ' / ' + str(budget):<22} {u.reason}")
    if plan.traffic_bytes is not None and plan.traffic_lower_bound:
        line = f"traffic: {_mb(plan.traffic_bytes)} in all, {plan.traffic_bytes / plan.traffic_lower_bound:.2f}x " \
               f"the lower bound of {_mb(plan.traffic_lower_bound)} (compulsory, or Hong-Kung summed over the contractions)"
        if plan.traffic_per_contraction_bound:
            line += f"; {plan.traffic_bytes / plan.traffic_per_contraction_bound:.2f}x the per-contraction bound of " \
                    f"{_mb(plan.traffic_per_contraction_bound)}"
        lines.append(line)
    return "\n".join(lines)


def _cpu_texts(plan: Plan, n: LoopNest, cpu: CpuInfo) -> list[str]:
    """What `explain` says of a nest's CPU levels: cores, kernels, scalar ops, chains in registers."""
    cores = cpu.cores if n.id in plan.parallel_nests else 1
    why = "" if cores > 1 else (" (sequential scf.for)" if n.loop_kind != "scf.forall" else
                                " (its forall has one tile)" if n.forall_tiles == 1 else
                                f" (under {cpu.parallel_min_ms:g} ms on one)")
    texts = [f"runs on {cores} core(s){why}"]
    members = {o.index for o in n.ops}
    texts += [_kernel_text(k) for k in plan.kernels if k.root in members]
    for t in (t for t in plan.inner if t.copy_in in (None, n.id)):
        if t.op in members and t.scalar is not None:
            texts.append(f"op{t.op} stays scalar: the vectorizer does not take it ({t.scalar})")
        if t.op in members and t.channel_block and t.unroll:
            texts.append(f"op{t.op} with its output channels packed in blocks of {t.channel_block} (linalg.pack), "
                         f"{t.unroll} output pixels of a row unrolled: {t.accumulators} vector accumulators, "
                         f"registers {t.register_sizes}")
        elif t.op in members and t.channel_block:
            texts.append(f"op{t.op} with its channels packed in blocks of {t.channel_block} (linalg.pack), "
                         f"one vector per tap: registers {t.register_sizes}")
        if t.op in members and t.dots:
            texts.append(f"op{t.op} as dot products, registers {t.register_sizes}: one vector of partial sums per "
                         f"output, lanes along the reduction {t.split_sizes}, summed after it")
        if t.op in members and t.decompose:
            texts.append(f"op{t.op} by one output row of one window row {t.register_sizes}, decomposed into its 1-D op: "
                         "vectors along the channels")
        if t.op in members and t.fused:
            where = f"one row at a time in op{t.op}'s register tiles {t.register_sizes}: the rows' reductions and " \
                "what reads them stay in vector registers" if t.kind == "rows" else f"in op{t.op}'s register tiles"
            texts.append(", ".join(f"op{i}" for i in t.fused) + f" computed {where} (no tile of theirs is stored)")
    return texts


def _kernel_text(k: RegisterKernel) -> str:
    """One register kernel as `explain` prints it: levels, peeled remainders, registers."""
    where = "" if k.root == k.contraction else f" in op{k.root}'s register tiles"
    packed = f", operand {k.packed_operand}'s panel transposed from op{k.panel_transpose}'s input" \
        if k.panel_transpose is not None else f", operand {k.packed_operand}'s panel copied" if k.copies_panel else ""
    if k.interchange:
        packed += f", iterators interchanged {k.interchange} (lanes along the output row)"
    regs = f"{k.accumulators} vector accumulators" if k.scalar is None else \
        f"scalar: the vectorizer does not take it ({k.scalar})"
    peeled = [f"a last {what} of {r}{(' ' + unit + ('s' if r > 1 else '')) if unit else ''}"
              for what, unit, sizes in (("panel", "column", k.panel_sizes), ("row tile", "row", k.row_sizes),
                                        ("reduction step", "", k.reduction_sizes))
              if (r := k.remainder(sizes))]
    if k.last_block_rows is not None:
        peeled.append(f"the rows of every row block, the last block's {k.last_block_rows} leaving "
                      f"{k.last_block_left} one row at a time")
    peeled_text = f" (peeled: {', '.join(peeled)})" if peeled else ""
    dot = f", its last column split off as dot products along the reduction ({k.dot_column.reduction_sizes[-1]} " \
        "lanes, summed across them after it)" if k.dot_column is not None else ""
    init = f", starting from init {', '.join(f'op{i}' for i in k.inits)} in registers" if k.inits else ""
    return (f"kernel op{k.contraction}{where}: panels {k.panel_sizes}, rows {k.row_sizes}{peeled_text}, "
            f"reductions {k.reduction_sizes}, {regs}{init}{packed}{dot}")


def _mb(n: int) -> str:
    return f"{n / 1e6:.2f} MB"
