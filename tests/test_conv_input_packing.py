"""CPU targets: the input panel of a 1x1 NCHW convolution (rows of its
panel are input channels, a whole plane apart) is copied into a contiguous
buffer where those rows evict each other from L1 (planning.cpu_levels.
_evicts_itself) and the panels are full. Onto 64x64 pixels each row is 16
KiB from the next: all 224 rows of a panel fall into one set of 8 lines.
resnet50's layer1 onto 64x64 (a 256x256 image) ran 1.38x faster so on AVX2."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import AVX2, assert_runs_as_untransformed
from ir_helpers import nchw_conv_text, ops, parse
from mlir import ir

from schedgen.emit.schedule import render
from schedgen.ir.apply import apply_schedule
from schedgen.ir.load import load_payload
from schedgen.model.plan import Plan
from schedgen.planning.planner import plan


def _conv_plan(tmp_path: Path, channels: int, filters: int, plane: int) -> tuple[Path, Plan]:
    path = tmp_path / "conv.mlir"
    hw = f"{plane}x{plane}"
    path.write_text(nchw_conv_text("conv", f"1x{channels}x{hw}", f"{filters}x{channels}x1x1", f"1x{filters}x{hw}"))
    return path, plan(load_payload(path, cpu=True), AVX2)


@pytest.mark.parametrize(("channels", "plane", "copied"), [
    (64, 32, True),  # rows 4 KiB apart: one L1 set of 8 lines for 64 rows
    (64, 48, True),  # 9 KiB apart: 4 sets, 32 lines
    (16, 48, False),  # 16 rows fit those 32 lines
    (224, 56, False),  # 12.25 KiB apart (16 sets, 128 lines), but 56 pixels leave a last panel of 8
])
def test_a_1x1_convolution_copies_its_input_panel_where_the_rows_evict_each_other(
        channels: int, plane: int, copied: bool, tmp_path: Path) -> None:
    _, p = _conv_plan(tmp_path, channels, 48, plane)
    (kernel,) = p.kernels
    assert p.ops[kernel.contraction].name == "linalg.conv_2d_nchw_fchw"
    assert kernel.packed_operand == (0 if copied else None), kernel


def _vector_reads_in_reductions(module: ir.Module) -> list[ir.Operation]:
    """The vector reads in the loops that carry vector accumulators (the register kernels' reductions)."""
    loops = [op for op in ops(module) if op.name == "scf.for" and len(op.results) > 0
             and all(isinstance(r.type, ir.VectorType) for r in op.results)]
    return [r for loop in loops for r in ops(loop) if r.name == "vector.transfer_read"
            and ir.VectorType(r.results[0].type).shape == [16]]


def test_the_kernel_reads_the_input_from_the_copied_panel(tmp_path: Path) -> None:
    """64 -> 48 channels onto 32x32 pixels: the register kernel's input vectors are read from a buffer the
    parallel loop allocates, not from the input argument (function arguments have no defining op), and
    the numbers match the untransformed payload on 1 and 2 threads."""
    path, p = _conv_plan(tmp_path, 64, 48, 32)
    schedule = tmp_path / "conv.schedule.mlir"
    schedule.write_text(render(p))
    transformed = apply_schedule(path, schedule)
    module = parse(transformed)
    (par,) = [op for op in ops(module) if op.name == "scf.parallel"]
    allocs = [op for op in ops(par) if op.name == "memref.alloc"]
    reads = _vector_reads_in_reductions(module)
    assert reads
    for read in reads:
        source = read.operands[0].owner
        assert isinstance(source, ir.OpView) and source.operation in allocs, read
        assert ir.MemRefType(read.operands[0].type).shape[1] == 64, "the panel holds every input channel"
    assert_runs_as_untransformed(path, transformed)


def test_a_transposed_input_is_packed_too(tmp_path: Path) -> None:
    """The input transposed for the convolution alone (NHWC -> NCHW, as a permute before a 1x1 convolution
    gives it): the transpose is a nest of its own, whose result the convolution's kernel packs as it packs
    an argument, and the schedule computes the untransformed numbers on 1 and 2 threads."""
    x, y, t, w = "tensor<1x32x32x64xf32>", "tensor<1x48x32x32xf32>", "tensor<1x64x32x32xf32>", "tensor<48x64x1x1xf32>"
    path = tmp_path / "tconv.mlir"
    path.write_text(f"""func.func @tconv(%x: {x}, %w: {w}) -> {y} {{
  %zero = arith.constant 0.000000e+00 : f32
  %et = tensor.empty() : {t}
  %xt = linalg.transpose ins(%x : {x}) outs(%et : {t}) permutation = [0, 3, 1, 2]
  %e = tensor.empty() : {y}
  %f = linalg.fill ins(%zero : f32) outs(%e : {y}) -> {y}
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}}
    ins(%xt, %w : {t}, {w}) outs(%f : {y}) -> {y}
  return %c : {y}
}}
""")
    p = plan(load_payload(path, cpu=True), AVX2)
    (kernel,) = p.kernels
    assert kernel.packed_operand == 0 and kernel.panel_transpose is None, kernel
    schedule = tmp_path / "tconv.schedule.mlir"
    schedule.write_text(render(p))
    assert_runs_as_untransformed(path, apply_schedule(path, schedule))
