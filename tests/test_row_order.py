"""CPU targets: a register kernel that copies a panel has its row blocks
walked in order by an scf.for inside a forall over column blocks
(planning/row_order.py, issue 16): each forall tile packs its column block
of B once, panel after panel, for all its row blocks (a copy per row block,
from a source still in cache, where the panels are not full), and B leaves
main memory once per column block (1024³ on AVX2: a quarter of the time
was in the copies)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import AVX2, assert_runs_as_untransformed
from ir_helpers import enclosing_loop, enclosing_loop_where, matmul_text, ops, parse
from mlir import ir

from schedgen.analysis.measure import const_int
from schedgen.check.verify import verify
from schedgen.emit.schedule import render
from schedgen.ir.apply import apply_schedule
from schedgen.ir.load import load_payload
from schedgen.model.cpu import AVX512_2C
from schedgen.model.plan import FuseMode, NoteKind, Plan
from schedgen.model.target import Target
from schedgen.planning.planner import plan
from schedgen.planning.row_order import rows_in_order

# 2 AVX2 cores, half of the 1 MiB budget: the searched tile is [128, 64] of 256x128 (whole K), so the
# forall would have 2 x 2 tiles; with the row loop it has 2 column blocks, each walking 2 row blocks.
TARGET = AVX2.model_copy(update={"memory_bytes": 1 << 19})

# Zen 4's shape (session 59's host): 2 AVX-512 cores, 32 registers, a 1 MiB L2.
ZEN4 = Target(name="cpu-zen4", memory_bytes=1 << 20, cpu=AVX512_2C.model_copy(update={"l2_bytes": 1 << 20}))

MATMUL = matmul_text(256, 128, 512)

# The same product with B = transpose(W): the kernel transposes W's panels itself (panel_transpose), which a
# row loop would do again per row block.
LINEAR = """
func.func @mm(%a: tensor<256x512xf32>, %w: tensor<128x512xf32>) -> tensor<256x128xf32> {
  %z = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<512x128xf32>
  %b = linalg.transpose ins(%w : tensor<128x512xf32>) outs(%et : tensor<512x128xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<256x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x128xf32>) -> tensor<256x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x512xf32>, tensor<512x128xf32>) outs(%f : tensor<256x128xf32>)
      -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}
"""

# A matmul of relu(A): at 1 MiB the relu joins the matmul's nest.
RELU_MATMUL = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @mm(%a: tensor<256x512xf32>, %b: tensor<512x128xf32>) -> tensor<256x128xf32> {
  %z = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<256x512xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<256x512xf32>) outs(%ea : tensor<256x512xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %z : f32
    linalg.yield %m : f32
  } -> tensor<256x512xf32>
  %e = tensor.empty() : tensor<256x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x128xf32>) -> tensor<256x128xf32>
  %r = linalg.matmul ins(%r0, %b : tensor<256x512xf32>, tensor<512x128xf32>) outs(%f : tensor<256x128xf32>)
      -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}
"""


def _payload(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mm.mlir"
    path.write_text(text)
    return path


def _loop_steps(op: ir.Operation) -> list[int | None]:
    return [const_int(op.operands[2])] if op.name == "scf.for" else []


def test_row_blocks_walk_in_order_inside_column_blocks(tmp_path: Path) -> None:
    path = _payload(tmp_path, MATMUL)
    p = plan(load_payload(path, cpu=True), TARGET)
    (nest,) = p.nests
    assert nest.tile_sizes == [0, 64, 0] and nest.row_tiles == [128, 0, 0], (nest.tile_sizes, nest.row_tiles)
    assert any(n.kind == NoteKind.ROWS_IN_ORDER for n in nest.notes)
    assert nest.id in p.parallel_nests
    # A read once per column block, B and C once: the row loop keeps B's column block local
    assert nest.traffic_bytes == (2 * 256 * 512 + 512 * 128 + 256 * 128) * 4
    schedule = tmp_path / "mm.schedule.mlir"
    schedule.write_text(render(p))
    transformed = apply_schedule(path, schedule)
    module = parse(transformed)  # kept alive while its ops are read
    (par,) = [op for op in ops(module) if op.name == "scf.parallel"]
    assert [const_int(v) for v in par.operands] == [0, 2, 1], "one trip per column block"
    steps = [s for op in ops(par) for s in _loop_steps(op)]
    assert 128 in steps, steps  # the row loop, inside the parallel loop
    # B's column block packed once per forall tile, panel after panel, before the row loop: no other buffer
    allocs = [op for op in ops(par) if op.name == "memref.alloc"]
    assert [4, 512, 16] in [list(ir.MemRefType(a.results[0].type).shape) for a in allocs], allocs
    assert all(enclosing_loop(a) == par for a in allocs)
    report = verify(path, schedule)
    assert report.numbers_ok and report.budget_ok and report.computed_once
    (measured,) = report.check.nests
    assert measured.footprint_bytes == nest.footprint_bytes
    assert measured.traffic_bytes == nest.traffic_bytes
    assert_runs_as_untransformed(path, transformed)


@pytest.mark.parametrize("text", [MATMUL, LINEAR], ids=["matmul", "linear"])
def test_a_transposed_panel_keeps_its_forall(text: str, tmp_path: Path) -> None:
    """At 1 MiB the Linear's kernel transposes W's panels itself (the
    transpose is fused). Tiled [128, 64], the plain matmul would get the row
    loop, but not the Linear: the transpose's tile does not move with the
    rows, so a row loop would compute it once per row block."""
    payload = load_payload(_payload(tmp_path, text), cpu=True)
    p = plan(payload, AVX2)
    (nest,) = p.nests
    # the Linear: rows whole; the matmul: N whole, one column block for two cores
    assert nest.row_tiles == [] and nest.tile_sizes[0] in (0, 128), nest.tile_sizes
    assert any(k.panel_transpose is not None for k in p.kernels) == (text == LINEAR)
    split = rows_in_order(payload, nest.model_copy(update={"tile_sizes": [128, 64, 0]}), AVX2.cpu)
    assert split.row_tiles == ([] if text == LINEAR else [128, 0, 0]), split.row_tiles


@pytest.mark.parametrize("cores", [1, 3])
def test_columns_must_share_out_evenly(cores: int, tmp_path: Path) -> None:
    """Two column blocks give one core all (1 core: the row loop is taken), three cores unequal shares (kept)."""
    cpu = TARGET.cpu.model_copy(update={"cores": cores})
    p = plan(load_payload(_payload(tmp_path, MATMUL), cpu=True), TARGET.model_copy(update={"cpu": cpu}))
    (nest,) = p.nests
    assert bool(nest.row_tiles) == (cores == 1), (nest.tile_sizes, nest.row_tiles)


# NHWC convolution with a bias init and a relu (payloads/conv_bias_relu.mlir, smaller): its row blocks are
# 1 image x 16 output columns, two loops (n, w) inside the forall over 32-channel blocks.
CONV = """
#bias = affine_map<(n, h, w, f) -> (f)>
#id = affine_map<(n, h, w, f) -> (n, h, w, f)>
func.func @conv(%x: tensor<2x18x34x64xf32>, %k: tensor<3x3x64x64xf32>, %b: tensor<64xf32>) -> tensor<2x16x32x64xf32> {
  %e = tensor.empty() : tensor<2x16x32x64xf32>
  %init = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<64xf32>) outs(%e : tensor<2x16x32x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<2x16x32x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<2x18x34x64xf32>, tensor<3x3x64x64xf32>) outs(%init : tensor<2x16x32x64xf32>)
      -> tensor<2x16x32x64xf32>
  %z = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<2x16x32x64xf32>) outs(%e : tensor<2x16x32x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %z : f32
    linalg.yield %m : f32
  } -> tensor<2x16x32x64xf32>
  return %r : tensor<2x16x32x64xf32>
}
"""


def test_a_convolution_walks_its_rows_in_two_loops(tmp_path: Path) -> None:
    path = _payload(tmp_path, CONV)
    target = AVX2.model_copy(update={"memory_bytes": 1 << 18})
    p = plan(load_payload(path, cpu=True), target)
    (nest,) = p.nests
    assert nest.tile_sizes == [0, 0, 0, 32] and nest.row_tiles == [1, 0, 16, 0], (nest.tile_sizes, nest.row_tiles)
    schedule = tmp_path / "conv.schedule.mlir"
    schedule.write_text(render(p))
    report = verify(path, schedule)
    assert report.numbers_ok and report.budget_ok and report.computed_once
    (measured,) = report.nests
    # the loops' blocks are written once (the forall's insert of what they assembled is not a second write)
    assert (measured.footprint_bytes, measured.traffic_bytes) == (nest.footprint_bytes, nest.traffic_bytes)
    assert_runs_as_untransformed(path, apply_schedule(path, schedule))


def _square(n: int) -> str:
    return matmul_text(n, n, n)


def _applied_and_verified(path: Path, p: Plan, tmp_path: Path) -> tuple[list[list[int]], ir.Module]:
    """The shapes of the buffers the applied plan allocates in its parallel body, and the applied module, after
    checking that verify measures the (one) nest's planned footprint and traffic and that the numbers match on 1
    and 2 threads."""
    (nest,) = p.nests
    schedule = tmp_path / "mm.schedule.mlir"
    schedule.write_text(render(p))
    transformed = apply_schedule(path, schedule)
    module = parse(transformed)  # kept alive while its ops are read
    (par,) = [op for op in ops(module) if op.name == "scf.parallel"]
    allocs = [list(ir.MemRefType(op.results[0].type).shape) for op in ops(par) if op.name == "memref.alloc"]
    report = verify(path, schedule)
    assert report.numbers_ok and report.budget_ok and report.computed_once
    (measured,) = report.check.nests
    assert (measured.footprint_bytes, measured.traffic_bytes) == (nest.footprint_bytes, nest.traffic_bytes)
    assert_runs_as_untransformed(path, transformed)
    return allocs, module


@pytest.mark.parametrize("l3_mib", [32, 16])
def test_a_matmul_larger_than_l3_keeps_its_whole_k_where_the_rows_rereads_fit(l3_mib: int, tmp_path: Path) -> None:
    """2048³ (48 MiB of tensors) on 2 AVX2 cores at 1 MiB. With a 32 MiB
    L3, A (16 MiB, what the row loops read again per column block) fits in
    half of it: the whole K, searched for the least row-loop traffic, gives
    wide column blocks of 64 and row blocks of 32 (AVX2, 1 thread: 269 ms
    against 329 in [256, 256] tiles by chunks of 256; numpy 232), which
    become 60 rows (whole 6x16 kernel tiles, the last block 8 rows:
    planner._whole_register_rows). Each row block is 10 row tiles, too few
    to copy a panel for, but the column block is packed once for all of
    them, so the panel is copied. With a 16 MiB L3 the nest keeps its K
    chunks and no row loop."""
    payload = load_payload(_payload(tmp_path, _square(2048)), cpu=True)
    target = AVX2.model_copy(update={"cpu": AVX2.cpu.model_copy(update={"l3_bytes": l3_mib << 20})})
    p = plan(payload, target)
    (nest,) = p.nests
    (kernel,) = p.kernels
    if l3_mib == 16:
        assert nest.row_tiles == [] and nest.reduction_tiling, (nest.tile_sizes, nest.reduction_tiling)
        return
    assert (nest.tile_sizes, nest.row_tiles, nest.reduction_tiling) == ([0, 64, 0], [60, 0, 0], [])
    assert nest.footprint_bytes <= target.memory_bytes
    assert kernel.row_sizes[0] == 6 and kernel.last_block_rows == 8 and kernel.packed_operand == 1, kernel
    mib = 2048 * 2048 * 4
    assert nest.traffic_bytes == (2048 // 64) * mib + mib + mib, nest.traffic_bytes  # A per column block, B, C


def test_short_row_blocks_still_pack_their_column_block(tmp_path: Path) -> None:
    """256x256x1024 at 512 KiB: row blocks of 60 rows (searched as 32,
    then whole 6x16 kernel tiles: planner._whole_register_rows), 10 row
    tiles each, too few to copy a panel for one block; the column block is
    packed once for all the row tiles of the forall tile, so the kernel
    copies. The applied IR allocates the packed block in the
    parallel body, verify measures the planned footprint and traffic, and
    the numbers match on 1 and 2 threads."""
    path = _payload(tmp_path, MATMUL.replace("256x512", "256x1024").replace("512x128", "1024x256")
                    .replace("256x128", "256x256"))
    p = plan(load_payload(path, cpu=True), TARGET)
    (nest,) = p.nests
    (kernel,) = p.kernels
    assert (nest.tile_sizes, nest.row_tiles) == ([0, 64, 0], [60, 0, 0]) and kernel.packed_operand == 1, \
        (nest.tile_sizes, nest.row_tiles, kernel)
    allocs, _ = _applied_and_verified(path, p, tmp_path)
    assert [4, 1024, 16] in allocs, allocs


@pytest.mark.parametrize("columns", [64, 40])
def test_only_full_panels_count_every_row_as_reuse(columns: int, tmp_path: Path) -> None:
    """A 32-row block of 4-row tiles reads each panel 8 times, too few for a
    copy; packed once per column block, all 1040 rows reuse it. Only full
    panels are packed so (emit.schedule._panel_hoist): 40 columns leave a
    peeled panel of 8, whose copies would stay per row block. (1040: B's rows
    are 4160 bytes apart, over every L2 set; 1024's, 4 KiB apart, share 16
    sets, and their panels are copied per row block anyway: test_panel_packing.)"""
    from schedgen.planning.cpu_levels import copied_panel

    payload = load_payload(_payload(tmp_path, _square(1040)), cpu=True)
    op = next(o for o in payload.ops if o.name == "linalg.matmul")
    copied = copied_panel(op, [32, columns, 1040], AVX2.cpu, reuse=[1040, columns, 1040])
    assert copied == (1 if columns == 64 else None), copied
    assert copied_panel(op, [32, columns, 1040], AVX2.cpu) is None
    # a kernel that is its own root peels the panel loop first, and packs the last panel once too
    assert copied_panel(op, [32, columns, 1040], AVX2.cpu, reuse=[1040, columns, 1040], own_root=True) == 1


@pytest.mark.parametrize("vectors", ["avx2", "avx512"])
def test_a_last_panel_narrower_than_the_others_is_packed_once_too(vectors: str, tmp_path: Path) -> None:
    """At 256 KiB, 40-column blocks, rows in order. AVX2, 200x120x512: two
    panels of 16 and one of 8, three blocks, so the forall also splits the
    rows in two for two cores, each part walking two row blocks of 50.
    AVX-512, 256x120x512: a panel of 32 and one of 8 (half a vector: no
    whole vector divides 120), rows of 64. The kernel peels its panel loop
    before the copy, and both parts pack their panels once per forall tile:
    the parallel body allocates a buffer for each part's panels. verify
    measures the planned footprint and traffic, and the numbers match on 1
    and 2 threads."""
    m, target, tiles, rows, panel, buffers = {
        "avx2": (200, AVX2, [100, 40, 0], [50, 0, 0], 16, [[2, 512, 16], [512, 8]]),
        "avx512": (256, ZEN4, [128, 40, 0], [64, 0, 0], 32, [[512, 32], [512, 8]])}[vectors]
    path = _payload(tmp_path, matmul_text(m, 120, 512))
    p = plan(load_payload(path, cpu=True), target.model_copy(update={"memory_bytes": 1 << 18}))
    (nest,) = p.nests
    (kernel,) = p.kernels
    assert (nest.tile_sizes, nest.row_tiles) == (tiles, rows), (nest.tile_sizes, nest.row_tiles)
    assert kernel.peel_first and kernel.packed_operand == 1 and kernel.panel_sizes == [0, panel], kernel
    allocs, _ = _applied_and_verified(path, p, tmp_path)
    assert all(b in allocs for b in buffers), allocs


@pytest.mark.parametrize("rows", [1000, 32])
def test_columns_no_two_vectors_divide_split_where_rows_pack_them(rows: int, tmp_path: Path) -> None:
    """1000 columns (no multiple of 16 divides them) on 2 AVX2 cores at 1
    MiB: with 1000 rows, 200-column blocks by rows of 50, in two row parts
    for the cores, the last panel of 8 packed too (32 MB planned, against 88
    in [50, 1000] tiles by K chunks). With 32 rows (GPT-2's head), too few
    row tiles pack a panel: tiles stay whole panels."""
    payload = load_payload(_payload(tmp_path, matmul_text(rows, 1000, 1000 if rows == 1000 else 128)), cpu=True)
    p = plan(payload, AVX2)
    (nest,) = p.nests
    if rows == 32:
        assert nest.tile_sizes[1] % 16 in (0, 1000 % 16) and not nest.row_tiles, nest.tile_sizes
        return
    assert (nest.tile_sizes, nest.row_tiles, nest.reduction_tiling) == ([500, 200, 0], [50, 0, 0], [])
    (kernel,) = p.kernels
    assert kernel.peel_first and kernel.packed_operand == 1
    mb = 1000 * 1000 * 4
    assert nest.traffic_bytes == 5 * mb + 2 * mb + mb, nest.traffic_bytes  # A per column block, B per part, C


@pytest.mark.parametrize("n", [1000, 1008])
def test_avx512_columns_no_two_vectors_divide_split_in_narrower_blocks(n: int, tmp_path: Path) -> None:
    """On AVX-512, n³ where no multiple of two vectors (32 f32) divides n:
    blocks of whole half vectors (1000: 200 columns, 6 panels of 32 and a
    peeled one of 8) or whole vectors (1008: 144, 9 panels of 16), walked
    by a row loop that packs B's panels once per column block, over the
    whole K. Before, no column tile but the whole dim was a multiple of the
    grain, and the nest took the whole columns by K chunks, 1.10x slower."""
    payload = load_payload(_payload(tmp_path, matmul_text(n, n, n)), cpu=True)
    p = plan(payload, ZEN4)
    (nest,) = p.nests
    (kernel,) = p.kernels
    assert nest.tile_sizes[1] == {1000: 200, 1008: 144}[n] and nest.row_tiles[0] > 0, nest
    assert not nest.reduction_tiling and kernel.packed_operand == 1, (nest.reduction_tiling, kernel)
    assert kernel.panel_sizes == [0, {1000: 32, 1008: 16}[n]] and kernel.peel_first == (n == 1000), kernel


@pytest.mark.parametrize("shape", [(256, 128, 512), (200, 120, 512)])
def test_a_contraction_that_is_its_own_root_starts_its_accumulators_from_its_fill(
        shape: tuple[int, int, int], tmp_path: Path) -> None:
    """A matmul onto a fill of 1.5, with nothing after it: the fill joins the
    kernel's panel and row tiles (transform.structured.fuse, through the
    loops' destination), so that every reduction loop starts its
    accumulators from constants, and no loop stores a constant vector (the
    fill's own pass over each row block, read back by the row tiles). Also
    where the panel loop is peeled before the copy (200x120x512). The
    numbers match on 1 and 2 threads. With a relu of A in the nest (an input
    computed there) the fill keeps tiles of its own."""
    m, n, k = shape
    path = _payload(tmp_path, matmul_text(m, n, k).replace("arith.constant 0.0", "arith.constant 1.5"))
    target = TARGET if shape[0] == 256 else AVX2.model_copy(update={"memory_bytes": 1 << 18})
    p = plan(load_payload(path, cpu=True), target)
    (kernel,) = p.kernels
    fill = next(o.index for o in p.ops if o.name == "linalg.fill")
    assert kernel.tile_op == "fuse" and kernel.inits == [fill] and kernel.peel_first == (m == 200), kernel
    assert not any(t.op == fill for t in p.inner), p.inner
    _, module = _applied_and_verified(path, p, tmp_path)
    vector_loops = [op for op in ops(module) if op.name == "scf.for" and len(op.operands) > 3
                    and all(isinstance(v.type, ir.VectorType) for v in op.operands[3:])]
    assert vector_loops and all(v.owner.name == "arith.constant" for op in vector_loops for v in op.operands[3:])
    stored = [op for op in ops(module) if op.name in ("vector.transfer_write", "vector.store")
              and isinstance(op.operands[0].owner, ir.OpView) and op.operands[0].owner.name == "arith.constant"]
    assert not stored, stored
    # a relu of A in the nest: transform.structured.fuse would compute it again per panel
    relu = plan(load_payload(_payload(tmp_path, RELU_MATMUL), cpu=True), AVX2)
    (nest,) = relu.nests
    (kernel,) = relu.kernels
    assert len(nest.ops) == 3 and kernel.tile_op != "fuse" and kernel.inits == [], (nest.ops, kernel)
    relu_fill = next(o.index for o in relu.ops if o.name == "linalg.fill")
    assert any(t.op == relu_fill for t in relu.inner), relu.inner


def test_a_producer_the_schedule_tiles_later_keeps_the_rows_in_the_forall(tmp_path: Path) -> None:
    """No fusion: the relu is a nest of its own, which the schedule tiles
    after the matmul's (consumers first). A row loop's
    transform.structured.fuse would fuse the relu, still untiled then and
    read whole as the matmul's rows, into every column block: computed
    twice, and its own nest left with nothing to tile. The row loop is
    refused there, and the search prices the nest without it."""
    path = _payload(tmp_path, RELU_MATMUL)
    p = plan(load_payload(path, cpu=True), TARGET, FuseMode.NO_FUSE)
    matmul, relu = p.nests
    assert [o.index for o in relu.ops] == [0] and matmul.root.index == 2
    assert matmul.row_tiles == [] and not any(n.kind == NoteKind.ROWS_IN_ORDER for n in matmul.notes)
    # the plain matmul at these sizes does take the row loop
    (tmp_path / "alone").mkdir()
    alone = plan(load_payload(_payload(tmp_path / "alone", MATMUL), cpu=True), TARGET, FuseMode.NO_FUSE)
    assert alone.nests[0].row_tiles
    schedule = tmp_path / "relu_mm.schedule.mlir"
    schedule.write_text(render(p))
    report = verify(path, schedule)
    assert report.numbers_ok and report.budget_ok and report.computed_once, report
    assert sorted(n.id for n in report.check.nests) == [1, 2]


def test_row_blocks_are_whole_register_row_tiles_the_last_one_partial(tmp_path: Path) -> None:
    """512x128x512 on AVX2 at half a MiB: the searched row block, 128 rows (= 21 x 6 + 2), gave the
    kernel 4-row tiles, 8 of its 12 accumulators. The blocks are 126 rows instead, 21 whole 6-row tiles,
    the last block 8; the kernel peels its rows in every block, and the last block's 2 rows left over are
    tiled by one row, so that every tile is static and vectorizes."""
    path = _payload(tmp_path, matmul_text(512, 128, 512))
    p = plan(load_payload(path, cpu=True), TARGET)
    (nest,) = p.nests
    (kernel,) = p.kernels
    assert nest.tile_sizes == [0, 64, 0] and nest.row_tiles == [126, 0, 0], (nest.tile_sizes, nest.row_tiles)
    assert kernel.row_sizes == [6, 0] and kernel.accumulators == 12 and kernel.last_block_rows == 8
    assert nest.footprint_bytes <= TARGET.memory_bytes
    # the row operand is still read once per column block
    assert nest.traffic_bytes == (2 * 512 * 512 + 512 * 128 + 512 * 128) * 4
    schedule = tmp_path / "mm.schedule.mlir"
    schedule.write_text(render(p))
    transformed = apply_schedule(path, schedule)
    module = parse(transformed)  # kept alive while its ops are read
    assert not [op.name for op in ops(module) if op.name.startswith("linalg.")], "a tile left scalar"
    fma_loops = {const_int(loop.operands[2]) for op in ops(module) if op.name == "vector.fma"
                 for loop in [_row_loop(op)] if loop is not None}
    assert {6, 1} <= fma_loops, fma_loops  # the 6-row tiles and the one-row tiles, both in vector FMAs
    report = verify(path, schedule)
    assert report.numbers_ok and report.budget_ok and report.computed_once
    assert_runs_as_untransformed(path, transformed)


def _row_loop(op: ir.Operation) -> ir.Operation | None:
    """The nearest scf.for around `op` that is not a reduction loop (step 4: the kernel's K by 4)."""
    return enclosing_loop_where(op, lambda loop: not (loop.name == "scf.for" and const_int(loop.operands[2]) == 4))
