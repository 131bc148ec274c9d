"""Nests of row reductions and what reads them (torch-mlir's layer norm,
a softmax) computed one row at a time in the root's register loop
(schedgen.planning.norm_rows): checked on the plan, on the applied IR and
by executing it on 1 and 2 threads."""

from __future__ import annotations

from math import prod
from pathlib import Path

import pytest
from ir_helpers import alloc_shapes, applied_and_compared, ops, parse
from mlir import ir

from schedgen.ir.load import load_payload
from schedgen.model.plan import format_table
from schedgen.model.target import CPU_PRESETS
from schedgen.planning.planner import plan

ROOT = Path(__file__).resolve().parent.parent
AVX512 = CPU_PRESETS["cpu-avx512"]
ALL_PARALLEL = AVX512.model_copy(update={"cpu": AVX512.cpu.model_copy(update={"parallel_min_ms": 0.0})})
AVX2 = ALL_PARALLEL.model_copy(update={"name": "cpu-avx2", "cpu": ALL_PARALLEL.cpu.model_copy(
    update={"vector_bits": 256, "vector_registers": 16})})


def _reductions(module: ir.Module) -> set[tuple[str, int]]:
    """(element type, width) of every vector.reduction."""
    return {(str(ir.VectorType(op.operands[0].type).element_type), ir.VectorType(op.operands[0].type).shape[-1])
            for op in ops(module) if op.name == "vector.reduction"}


@pytest.mark.parametrize("threads", [1, 2])
def test_a_layer_norm_is_computed_one_row_at_a_time(threads: int, tmp_path: Path) -> None:
    """Swin's first norm as torch-mlir exports it (18 ops, the variance in
    f64) at 4x8 tokens of 96: every op fused into the root's loop over
    single rows, each reduction a horizontal one over the whole 96-wide row
    in f32 or f64, no buffer but the result's and a few scalars (op by op,
    each op kept a copy of the whole tile), and the numbers match."""
    payload = tmp_path / "ln.mlir"
    payload.write_text((ROOT / "tests/data/layer_norm_f64.mlir").read_text())
    model = load_payload(payload)
    p = plan(model, ALL_PARALLEL)
    (nest,) = p.nests
    (rows,) = [t for t in p.inner if t.kind == "rows"]
    assert len(p.inner) == 1 and rows.op == nest.root.index and rows.register_sizes == [1, 1, 0]
    assert sorted(rows.fused) == sorted(o.index for o in nest.ops if o.index != rows.op)
    assert "computed one row at a time" in format_table(p)
    module = parse(applied_and_compared(payload, p, threads))
    assert not [op for op in ops(module) if op.name.startswith("linalg.")]
    assert _reductions(module) == {("f32", 96), ("f64", 96)}, _reductions(module)
    # besides the result, no buffer holds more than a row's partial results
    inside = [s for s in alloc_shapes(str(module)) if s != [1, 4, 8, 96]]
    assert len(inside) < len(alloc_shapes(str(module))) and max(prod(s) for s in inside) <= 1, inside


@pytest.mark.parametrize("threads", [1, 2])
def test_a_softmax_over_a_prime_row_length_is_whole_row_vectors(threads: int, tmp_path: Path) -> None:
    """Softmax over rows of 197 (ViT's tokens): one row at a time, the
    exp and the divide on the whole 197-wide row, nothing peeled, the
    row's max and sum whole-row reductions; the numbers match."""
    payload = tmp_path / "softmax197.mlir"
    payload.write_text((ROOT / "payloads/softmax.mlir").read_text().replace("512x1024", "24x197")
                       .replace("512xf32", "24xf32"))
    p = plan(load_payload(payload), ALL_PARALLEL)
    (rows,) = [t for t in p.inner if t.kind == "rows"]
    assert len(p.inner) == 1 and rows.register_sizes == [1, 0] and not rows.remainders()
    module = parse(applied_and_compared(payload, p, threads))
    assert not [op for op in ops(module) if op.name.startswith("linalg.")]
    widths = {ir.VectorType(op.results[0].type).shape[-1] for op in ops(module)
              if op.name in ("math.exp", "arith.divf") and isinstance(op.results[0].type, ir.VectorType)}
    assert widths == {197}, widths
    assert _reductions(module) == {("f32", 197)}


def test_rows_longer_than_the_registers_hold_stay_op_by_op(tmp_path: Path) -> None:
    """A 768-wide f32 layer norm row takes 48 AVX-512 registers, within
    1.5 times the file: one row at a time. On AVX2 it takes 96 of 16:
    op by op, its reductions in chunks of vectors."""
    payload = ROOT / "payloads/layernorm.mlir"
    model = load_payload(payload)
    assert [t.kind for t in plan(model, ALL_PARALLEL).inner] == ["rows"]
    op_by_op = plan(model, AVX2).inner
    assert "rows" not in {t.kind for t in op_by_op} and any(t.split_sizes for t in op_by_op)
