"""Producers that read no tensor (fills) are computed again in every nest
that reads them instead of being written out once and read back by each
(issue 16): the plan says so, the applied IR holds one copy per nest, the
check counts each copy once per nest, and the numbers match."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import assert_runs_as_untransformed, assert_traffic_as_planned
from ir_helpers import enclosing_loop, ops

from schedgen.check.check import check
from schedgen.check.verify import verify
from schedgen.emit.schedule import render
from schedgen.ir.apply import ENTRY, TILE_STAGE, apply_schedule, transform_payload
from schedgen.ir.load import load_payload
from schedgen.model.plan import NoteKind, Plan
from schedgen.model.target import CPU_PRESETS, PRESETS, Target
from schedgen.planning.planner import plan

# One zero fill, the init of two matmuls whose results are returned apart (torch-mlir shares fills so).
TWO = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @two(%a: tensor<256x256xf32>, %b1: tensor<256x256xf32>, %b2: tensor<256x256xf32>)
    -> (tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c1 = linalg.matmul ins(%a, %b1 : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c2 = linalg.matmul ins(%a, %b2 : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  RELUS
  THIRD
  return %r1, %r2, THIRD_RESULT : tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>
}
"""
RELU = """%r{i} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%c{i} : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %z : f32
    linalg.yield %m : f32
  }} -> tensor<256x256xf32>"""
# A third reader that fits untiled in 600 KB (its input and result, 512 KB): it reads the fill whole.
SHIFTED = """%s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%f : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %m = arith.addf %x, %one : f32
    linalg.yield %m : f32
  } -> tensor<256x256xf32>"""
FILL = 0  # op0, the fill


def payload(tmp_path: Path, untiled_reader: bool = False) -> Path:
    text = TWO.replace("RELUS", "\n  ".join(RELU.format(i=i) for i in (1, 2))).replace(
        "THIRD_RESULT", "%s" if untiled_reader else "%r1").replace("THIRD", SHIFTED if untiled_reader else "")
    path = tmp_path / "two.mlir"
    path.write_text(text)
    return path


def schedule(path: Path, target: Target) -> tuple[Plan, Path]:
    p = plan(load_payload(path, cpu=target.cpu is not None), target)
    out = path.with_suffix(f".{target.name}.schedule.mlir")
    out.write_text(render(p))
    return p, out


def fills_in_loops(path: Path, sched: Path, cpu: bool) -> list[bool]:
    """Per linalg.fill after the schedule's tiling: whether a loop holds it."""
    module = transform_payload(path, sched, entry=TILE_STAGE if cpu else ENTRY)
    return [enclosing_loop(op) is not None for op in ops(module) if op.name == "linalg.fill"]


@pytest.mark.parametrize("target", [PRESETS["npu-256k"], CPU_PRESETS["cpu-avx512"]], ids=lambda t: t.name)
def test_a_fill_two_nests_read_is_computed_in_each(target: Target, tmp_path: Path) -> None:
    path = payload(tmp_path)
    p, sched = schedule(path, target)
    holding = [n for n in p.nests if FILL in {o.index for o in n.ops}]
    assert len(holding) == 2 and all(FILL != n.root.index for n in holding), [n.ops for n in p.nests]
    assert all([r.op for r in n.recomputed] == [FILL] for n in holding)
    assert all(any(note.kind == NoteKind.RECOMPUTED and note.text.startswith("op0 linalg.fill computed again")
                   for note in n.notes) for n in holding)
    assert FILL not in {u.op.index for u in p.untiled}
    if target.cpu is not None:  # each matmul's kernel starts its accumulators from its own copy, in registers
        assert sorted(k.inits for k in p.kernels) == [[FILL], [FILL]], p.kernels
    # The IR holds two fills, each inside a nest's loop; each counts once in its nest.
    assert fills_in_loops(path, sched, target.cpu is not None) == [True, True]
    report = verify(path, sched)
    assert report.numbers_ok and report.computed_once and report.budget_ok, report.check.recomputed
    assert_traffic_as_planned(report.nests)
    if target.cpu is not None:
        assert_runs_as_untransformed(path, apply_schedule(path, sched), seed=1)


def test_a_fill_an_untiled_op_reads_whole_is_computed_once(tmp_path: Path) -> None:
    """A reader that stays untiled needs the fill's whole result: it is then
    written out once and read by every reader, as before, never both."""
    path = payload(tmp_path, untiled_reader=True)
    target = PRESETS["npu-256k"].model_copy(update={"memory_bytes": 600_000})
    p, sched = schedule(path, target)
    assert 5 in {u.op.index for u in p.untiled}, p.untiled  # the third reader
    assert not any(n.recomputed for n in p.nests)
    assert sum(FILL in {o.index for o in n.ops} for n in p.nests) + (FILL in {u.op.index for u in p.untiled}) == 1
    assert fills_in_loops(path, sched, False).count(True) <= 1
    report = check(path, sched)
    assert report.computed_once and report.ok, report.recomputed
    assert verify(path, sched).numbers_ok


def test_torch_mlirs_shared_fills_are_recomputed_in_every_reader_nest() -> None:
    """The ViT block (torch-mlir) shares zero fills among its layernorms'
    sums and its matmuls: each fill is in every nest that reads it, or in
    none, and each nest says so once (consumer fusion rebuilds nests)."""
    from conftest import ROOT

    payload = load_payload(ROOT / "corpus/vit_block.mlir", cpu=True)
    p = plan(payload, CPU_PRESETS["cpu-avx512"])
    shared = [o for o in payload.ops if o.reads_no_tensor and len({u.index for r in o.results for u in r.users}) > 1]
    assert shared, "the export no longer shares a fill"
    nest_of = {o.index: n.id for n in p.nests for o in n.ops if o.index not in n.copies}
    for fill in shared:
        holding = {n.id for n in p.nests if fill.index in n.copies}
        readers = {nest_of.get(u.index) for r in fill.results for u in r.users}
        assert holding == readers, (fill.label, holding, readers)
    for n in p.nests:
        texts = [note.text for note in n.notes if note.kind == NoteKind.RECOMPUTED]
        assert len(texts) == len(set(texts)) == len(n.recomputed), (n.id, texts)
