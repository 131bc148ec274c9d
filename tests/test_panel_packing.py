"""CPU targets: where a register kernel's panel copies are hoisted out of
the row loop, or with none out of the panel loop
(emit.schedule._panel_hoist), one packing loop per forall tile fills the
column block's buffer. Each panel is copied straight into it (no
buffer of its own in between), and each step of the loop copies a few rows
of several panels (planning.cpu_levels.pack_step, unrolled and jammed by the
CPU lowering): it reads several panels' widths contiguous from each row of
B, where panel by panel it read one panel's width from every row, rows
6 KB apart here, which the prefetcher does not follow (a 1x1 convolution's
3136 pixels as a 128x3136x224 matmul on AVX2: 1.14-1.2x faster)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import AVX2, assert_runs_as_untransformed
from ir_helpers import applied_and_compared, enclosing_loop, matmul_text, ops, parse
from mlir import ir

from schedgen.analysis.measure import const_int
from schedgen.emit.schedule import render
from schedgen.ir.apply import apply_schedule
from schedgen.ir.load import load_payload
from schedgen.model.target import CPU_PRESETS, Target
from schedgen.planning.cpu_levels import PACK_STEP_ROWS, STREAMED_PANEL_ROWS, pack_step
from schedgen.planning.planner import plan


@pytest.mark.parametrize(("rows", "panels", "step"), [
    (224, 49, [8, 7]),  # 56 panel rows: 8 rows of 7 panels, not 1 row of all 49
    (1024, 8, [8, 8]),
    (224, 13, [4, 13]),  # a prime count: fewer rows, all the panels
    (222, 49, [1, 49]),  # 222 rows: 6 of 7 panels hold 42 panel rows, 1 of 49 holds 49
    (3, 1, [3, 1]),
])
def test_a_packing_step_holds_the_most_panel_rows(rows: int, panels: int, step: list[int]) -> None:
    assert pack_step(rows, panels) == step
    assert rows % step[0] == 0 and panels % step[1] == 0 and step[0] * step[1] <= PACK_STEP_ROWS


def _loop_step(op: ir.Operation) -> int | None:
    return const_int(op.operands[2]) if op.name == "scf.for" else None


def _buffer(value: ir.Value) -> ir.Operation | None:
    """The op a memref value comes from, through its subviews (None: a function argument)."""
    owner = value.owner
    while isinstance(owner, ir.OpView) and owner.name == "memref.subview":
        owner = owner.operands[0].owner
    return owner.operation if isinstance(owner, ir.OpView) else None


def _packing(transformed: str, shape: list[int]) -> tuple[int | None, int | None, int, list[list[int]]]:
    """In the one parallel loop: the step of the loop that writes the packed buffer of `shape`, that of the
    panel loop around it (None: unrolled whole), the vector reads per step, and the buffers allocated."""
    module = parse(transformed)  # kept alive while its ops are read
    (par,) = [op for op in ops(module) if op.name == "scf.parallel"]
    allocs = [op for op in ops(par) if op.name == "memref.alloc"]
    (packed,) = [a for a in allocs if list(ir.MemRefType(a.results[0].type).shape) == shape]
    writes = [op for op in ops(par) if op.name == "vector.transfer_write" and _buffer(op.operands[1]) == packed]
    (step,) = {enclosing_loop(w) for w in writes}  # one loop writes the packed buffer
    reads = [op for op in ops(step) if op.name == "vector.transfer_read"]
    assert len(writes) == len(reads) and all(_buffer(r.operands[0]) is None for r in reads), "from B, an argument"
    assert all(ir.VectorType(w.operands[0].type).shape == [16] for w in writes)
    assert not [op for op in ops(step) if op.name in ("memref.load", "memref.store", "linalg.copy")]
    panel_loop = enclosing_loop(step)
    return (_loop_step(step), _loop_step(panel_loop) if panel_loop != par else None, len(reads),
            [list(ir.MemRefType(a.results[0].type).shape) for a in allocs])


@pytest.mark.parametrize("k", [224, 222])
def test_the_packing_loop_copies_rows_of_several_panels_into_the_packed_buffer(k: int, tmp_path: Path) -> None:
    """128x1568xK on AVX2: two column blocks of 49 panels of 16, rows by 64. The packed block is the only
    buffer in the parallel loop; its packing loop (before the row loop) steps over jam panels, and each
    step of its inner loop reads `rows` rows of each of them from B and writes them into the buffer, one
    vector each, no scalar copy left. The numbers match the untransformed payload on 1 and 2 threads."""
    path = tmp_path / "mm.mlir"
    path.write_text(matmul_text(128, 1568, k))
    p = plan(load_payload(path, cpu=True), AVX2)
    (kernel,) = p.kernels
    (nest,) = p.nests
    assert nest.tile_sizes == [0, 784, 0] and nest.row_tiles == [64, 0, 0] and kernel.packed_operand == 1
    rows, jam = kernel.pack_step
    assert [rows, jam] == pack_step(k, 49)
    schedule = tmp_path / "mm.schedule.mlir"
    schedule.write_text(render(p))
    transformed = apply_schedule(path, schedule)
    step, panel_step, reads, allocs = _packing(transformed, [49, k, 16])
    assert allocs == [[49, k, 16]], "no buffer per panel"
    # the panel loop is unrolled and jammed jam panels at a time (or whole: all 49 in one step)
    assert (step, panel_step or 784, reads) == (rows, jam * 16, rows * jam)
    assert_runs_as_untransformed(path, transformed)


def test_the_full_panels_before_a_narrower_one_are_packed_so_too(tmp_path: Path) -> None:
    """AVX2 at 256 KiB, 200x120x512 (as in test_row_order): 40-column blocks, two panels of 16 and one of
    8; the panel loop is peeled before the copy. The two full panels are packed as above, 8 rows of both
    per step; the last one has a buffer of its own, and the numbers match."""
    path = tmp_path / "mm.mlir"
    path.write_text(matmul_text(200, 120, 512))
    p = plan(load_payload(path, cpu=True), AVX2.model_copy(update={"memory_bytes": 1 << 18}))
    (kernel,) = p.kernels
    assert kernel.peel_first and kernel.pack_step == [8, 2], kernel
    schedule = tmp_path / "mm.schedule.mlir"
    schedule.write_text(render(p))
    transformed = apply_schedule(path, schedule)
    step, panel_step, reads, allocs = _packing(transformed, [2, 512, 16])
    assert (step, panel_step, reads) == (8, None, 16)
    assert sorted(allocs) == [[2, 512, 16], [512, 8]], allocs
    assert_runs_as_untransformed(path, transformed)


def _allocs(transformed: str) -> list[list[int]]:
    """The shapes of the buffers allocated in the one parallel loop."""
    module = parse(transformed)  # kept alive while its ops are read
    (par,) = [op for op in ops(module) if op.name == "scf.parallel"]
    return [list(ir.MemRefType(op.results[0].type).shape) for op in ops(par) if op.name == "memref.alloc"]


@pytest.mark.parametrize(("n", "target", "copied"), [(1024, AVX2, True), (1040, AVX2, False),
                                                      (1024, CPU_PRESETS["cpu-avx512"], False)])
def test_few_row_tiles_copy_a_panel_whose_rows_share_few_l2_sets(n: int, target: Target, copied: bool,
                                                                 tmp_path: Path) -> None:
    """A 32-row matmul (8 row tiles of 4, fewer than MIN_PANEL_REUSE) by 512 steps: onto 1024 columns, B's
    rows are 4 KiB apart and its panel's 512 lines fall in 16 of the AVX2 L2's 1024 sets, which keep 128
    of them: its panels are copied. With no row loop in the nest, the copies are hoisted out of the panel
    loop alone: the forall tile's column block is packed into one [panels, 512, 16] buffer, a few rows of
    several panels per step, as above (a copy panel by panel read 64 bytes from each of 512 rows 4 KiB
    apart). Onto 1040 columns its rows spread over every set and the kernel reads B in place, no buffer.
    AVX-512's 8-row kernel reads B in place too, evicting or not (STREAMED_PANEL_ROWS). The copied one's
    numbers match on 1 and 2 threads."""
    path = tmp_path / "mm.mlir"
    path.write_text(matmul_text(32, n, 512))
    p = plan(load_payload(path, cpu=True), target)
    (kernel,) = p.kernels
    (nest,) = p.nests
    rows = 4 if target is AVX2 else STREAMED_PANEL_ROWS
    assert kernel.row_sizes[0] == rows and (kernel.packed_operand == 1) == copied, kernel
    assert not nest.row_tiles
    schedule = tmp_path / "mm.schedule.mlir"
    schedule.write_text(render(p))
    transformed = apply_schedule(path, schedule)
    if not copied:  # (B read in place is every other 32-row kernel's case)
        assert _allocs(transformed) == []
        return
    panels = nest.tile_sizes[1] // 16
    rows, jam = kernel.pack_step
    step, _, reads, allocs = _packing(transformed, [panels, 512, 16])
    assert panels > 1 and allocs == [[panels, 512, 16]], "no buffer per panel"
    assert (step, reads) == (rows, rows * jam) and jam > 1
    assert_runs_as_untransformed(path, transformed)


@pytest.mark.parametrize("threads", [1, 2])
def test_an_im2col_tile_of_a_short_reduction_is_read_in_place_from_the_init_in_registers(
        threads: int, tmp_path: Path) -> None:
    """A 1x1 convolution 64 -> 256 onto 32x32 (resnet50's expansions, on a
    smaller plane) as an im2col copy and a matmul: the copy, computed in the
    matmul's forall tiles, writes a buffer of the tile's own, its rows the
    tile's width. A panel of its 64 rows takes 8 KiB where it lies, so it is
    not copied again (16 row tiles read it: MIN_PANEL_REUSE), and without
    the copy the accumulators start from the fill in registers. In the
    applied IR the parallel loop allocates the copy's tile alone, no packed
    panels, and writes no vector of zeros (no tile of the fill for the
    accumulators to read back); the numbers match on 1 and 2 threads."""
    from ir_helpers import applied_and_compared, nchw_conv_text

    path = tmp_path / "up.mlir"
    path.write_text(nchw_conv_text("up", "1x64x32x32", "256x64x1x1", "1x256x32x32"))
    loaded = load_payload(path, cpu=True)
    target = CPU_PRESETS["cpu-avx512"]
    p = plan(loaded, target.model_copy(update={"cpu": target.cpu.model_copy(update={"parallel_min_ms": 0.0})}))
    (kernel,) = p.kernels
    (nest,) = p.nests
    (copy,) = [o.index for o in loaded.ops if o.index_grains]
    assert copy in [o.index for o in nest.producers] and kernel.packed_operand is None, kernel
    assert [loaded.ops[i].name for i in kernel.inits] == ["linalg.fill"], kernel
    assert kernel.extents[1] // kernel.row_sizes[1] >= 16, kernel  # enough row tiles that a copy would pay
    module = parse(applied_and_compared(path, p, threads))
    (par,) = [op for op in ops(module) if op.name == "scf.parallel"]
    allocs = [list(ir.MemRefType(op.results[0].type).shape) for op in ops(par) if op.name == "memref.alloc"]
    assert allocs == [[1, 64, nest.tile_sizes[2]]], allocs
    zeros = [w for w in ops(par) if w.name == "vector.transfer_write"
             and isinstance(w.operands[0], ir.OpResult) and w.operands[0].owner.name == "arith.constant"]
    assert not zeros, [str(w) for w in zeros]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(("k", "rows"), [(1024, 8), (1000, 16)])
def test_kernel_rows_whose_broadcast_operand_shares_one_l1_set_are_as_many_as_its_ways(
        k: int, rows: int, threads: int, tmp_path: Path) -> None:
    """A 64x49 matmul by k steps on AVX-512 (one-vector panels: 49 columns): by 1024 steps A's rows are
    4 KiB apart, so the lines the kernel reads from them all map to one L1 set, which keeps 8 lines on a
    32 KiB L1 (CLIP's patch embedding, 192x49x3072: 16 rows ran at 43% of a Zen 4's peak, 8 at 88%). The
    kernel then takes 8 rows, not 16: in the applied IR its reduction loop carries 8x16 accumulators. By 1000
    steps the rows spread over 32 sets and it keeps 16. The numbers match."""
    path = tmp_path / "mm.mlir"
    path.write_text(matmul_text(64, 49, k))
    target = CPU_PRESETS["cpu-avx512"].model_copy(deep=True)
    target.cpu.l1_bytes = 32 * 1024
    p = plan(load_payload(path, cpu=True), target)
    (kernel,) = p.kernels
    assert kernel.row_sizes[0] == rows and kernel.panel_sizes[1] == 16, kernel
    module = parse(applied_and_compared(path, p, threads))
    carried = {str(r.type) for op in ops(module) if op.name == "scf.for" for r in op.results}
    assert {t for t in carried if t.endswith("x16xf32>")} == {f"vector<{rows}x16xf32>"}, carried
