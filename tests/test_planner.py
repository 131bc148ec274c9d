"""Planner decisions, checked on the plan and then on the applied, executed
and measured result."""

from __future__ import annotations

import json
import subprocess
import sys
from math import prod
from pathlib import Path

import pytest
from conftest import ROOT

from schedgen.cli import main as schedgen
from schedgen.ir.load import load_payload
from schedgen.model.plan import FuseMode, NoteKind, Plan
from schedgen.model.target import PRESETS, Target, load_target
from schedgen.planning.planner import plan

MATMUL = ROOT / "payloads/matmul_bias_relu.mlir"
SOFTMAX = ROOT / "payloads/softmax.mlir"

LONG_K = """
func.func @long_k(%a: tensor<16x8192xf32>, %b: tensor<8192x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x8192xf32>, tensor<8192x16xf32>)
                      outs(%init : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %mm : tensor<16x16xf32>
}
"""


def test_fuse_modes_on_a_chain_without_groups():
    model = load_payload(ROOT / "tests/data/chain3.mlir")  # add bias -> relu -> scale, 64x64 f32
    small = Target(name="small", memory_bytes=8192)
    mp = plan(model, small, FuseMode.MAX_PRODUCERS)
    ms = plan(model, small, FuseMode.MAX_SIZE)
    nf = plan(model, small, FuseMode.NO_FUSE)
    op = plan(model, small, FuseMode.ONLY_PATTERNS)
    assert model and not mp.groups  # elementwise ops only: no fuse group
    assert [(n.root.index, [p.index for p in n.producers]) for n in mp.nests] == [(2, [1, 0])]
    for p in (nf, op):
        assert [n.root.index for n in p.nests] == [2, 1, 0] and all(not n.producers for n in p.nests)
    # max-size keeps the root's largest tile alone and fuses what still fits.
    assert prod(t or 64 for t in ms.nests[0].tile_sizes) > prod(t or 64 for t in mp.nests[0].tile_sizes)
    assert any("not fused: does not fit in the root's largest tile" in n.text for n in ms.nests[0].notes)
    for p in (mp, ms, nf, op):
        assert all(n.footprint_bytes <= small.memory_bytes for n in p.nests)


def test_fuse_groups_hold_in_every_mode():
    """matmul + bias + relu is one contraction group: every mode tiles it as
    one nest, and the principal (the matmul) decides the tiled dims."""
    model = load_payload(MATMUL)
    for mode in FuseMode:
        p = plan(model, PRESETS["npu-256k"], mode)
        assert [(n.root.index, [q.index for q in n.producers]) for n in p.nests] == [(2, [1, 0])], mode
        assert p.groups[0].nests == [1]


@pytest.mark.parametrize("mode", [m.value for m in FuseMode])
@pytest.mark.parametrize("payload", [MATMUL, SOFTMAX], ids=lambda p: p.stem)
def test_every_fuse_mode_verifies(payload: Path, mode: str, tmp_path: Path, verified):
    schedule = tmp_path / "s.mlir"
    assert schedgen(["generate", str(payload), "--target", "cpu-l1", "--fuse-mode", mode, "-o", str(schedule)]) == 0
    report = verified(payload, schedule)
    assert report.ok, report
    assert report.op_counts_transformed == report.op_counts_original


def test_row_softmax_fuses_into_one_row_loop():
    p = plan(load_payload(SOFTMAX), PRESETS["npu-256k"])
    (nest,) = p.nests
    assert nest.root.index == 5 and len(nest.producers) == 5
    assert nest.tile_sizes[1] == 0  # the rows stay whole: the reductions need them
    assert nest.cse_before == [2]  # exp is read by the sum and by the division


def test_ops_that_fit_are_not_tiled():
    p = plan(load_payload(ROOT / "payloads/layernorm.mlir"), PRESETS["cpu-l2"])
    assert p.nests == [] and len(p.untiled) == 6
    assert all(u.reason == "fits untiled" and u.footprint_bytes <= 1048576 for u in p.untiled)


def test_reduction_dim_tiled_when_nothing_else_fits(tmp_path: Path, verified):
    payload = tmp_path / "long_k.mlir"
    payload.write_text(LONG_K)
    # One row of A and one column of B already take 64 KiB: K must be tiled.
    p = plan(load_payload(payload), Target(name="tiny", memory_bytes=16384))
    (nest,) = p.nests
    (red,) = nest.reduction_tiling
    assert (red.op, red.dim, red.extent) == (1, 2, 8192) and red.size < 8192
    assert any(n.kind == NoteKind.REDUCTION_TILED for n in nest.notes)
    schedule = tmp_path / "s.mlir"
    assert schedgen(["generate", str(payload), "--memory", "16384", "-o", str(schedule)]) == 0
    assert "tile_using_for" in schedule.read_text()
    report = verified(payload, schedule)
    assert report.ok, report
    (measured,) = [n for n in report.nests if n.loop != "untiled"]
    assert measured.footprint_bytes == nest.footprint_bytes <= 16384
    # With room for half of B and K whole, B would be read twice; a K loop
    # around the whole 16x16 output reads A and B once: the compulsory bytes.
    roomy = plan(load_payload(payload), Target(name="roomy", memory_bytes=1 << 20))
    (nest,) = roomy.nests
    assert [(r.op, r.dim) for r in nest.reduction_tiling] == [(1, 2)]
    assert roomy.traffic_bytes == 4 * (2 * 16 * 8192 + 16 * 16)


def test_explain_json_round_trips(capsys):
    assert schedgen(["explain", str(MATMUL), "--target", "cpu-l1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    p = Plan.model_validate(data)
    assert p.target.memory_bytes == 49152 and p.nests[0].budget_bytes == 49152
    assert p.nests[0].footprint_bytes == sum(i.bytes for i in p.nests[0].footprint_items)


def test_target_files_and_memory_override(tmp_path: Path):
    (tmp_path / "t.toml").write_text('name = "scratch"\nmemory_bytes = 65536\n')
    (tmp_path / "t.json").write_text('{"name": "scratch", "memory_bytes": 32768}')
    assert load_target(str(tmp_path / "t.toml")).memory_bytes == 65536
    assert load_target(str(tmp_path / "t.json")).memory_bytes == 32768
    assert load_target("cpu-l1", 4096).memory_bytes == 4096


def test_verify_exits_1_when_a_nest_exceeds_the_budget(tmp_path: Path, capsys):
    payload = ROOT / "payloads/rfc_dag.mlir"
    schedule = tmp_path / "s.mlir"
    assert schedgen(["generate", str(payload), "--memory", "700", "-o", str(schedule)]) == 0
    capsys.readouterr()
    # The schedule's own budget passes; a smaller one is measured and refused.
    assert schedgen(["verify", str(payload), str(schedule)]) == 0
    capsys.readouterr()
    assert schedgen(["verify", str(payload), str(schedule), "--memory", "500", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["numbers_ok"] and not report["check"]["budget_ok"] and not report["ok"]
    over = [n for n in report["check"]["nests"] if not n["ok"]]
    assert over and all(n["footprint_bytes"] > 500 for n in over)


def test_a_producer_writing_the_roots_destination_at_other_tiles_is_fused_only_where_the_tiles_agree():
    """The broadcast, its transpose and the add share one tensor.empty: fused, the broadcast would write its
    (transposed) tiles into the loop's output. Where the forall tiles only the batch, its tiles are the add's."""
    payload = load_payload(ROOT / "tests/data/constructs/shared_dest_transpose.mlir", cpu=True)
    for target, tiled_beyond_batch in (("cpu-l1", True), ("cpu-host", False)):
        made = plan(payload, load_target(target))
        nest = next(n for n in made.nests if n.root.index == 2)
        fused = {p.index for p in nest.producers}
        assert 1 in fused  # the transpose writes the add's own tiles
        assert (0 in fused) == (not tiled_beyond_batch), (target, nest.tile_sizes)
        assert all(t == 0 for t in nest.tile_sizes[1:]) or 0 not in fused
        notes = [n.text for n in nest.notes if "at other tiles" in n.text]
        assert bool(notes) == tiled_beyond_batch and all("tensor.empty at line 9" in t for t in notes)


def test_a_banned_producer_outside_any_fuse_group_is_planned_on_its_own(tmp_path: Path):
    """The transpose's nest bans its direct producer (both write one tensor.empty at other tiles). The
    producer is in no fuse group, so the ban breaks none: both ops are planned (the producer's nest takes
    the transpose as its consumer), within the budget, and the schedule verifies. Planned in a child with
    a deadline: this payload once kept the planner in a loop."""
    payload = ROOT / "tests/data/constructs/shared_dest_direct_producer.mlir"
    schedule = tmp_path / "s.mlir"
    run = subprocess.run([sys.executable, "-m", "schedgen.cli", "generate", str(payload), "--memory", "256",
                          "-o", str(schedule)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    made = plan(load_payload(payload), load_target("npu-256k").model_copy(update={"memory_bytes": 256}))
    assert sorted(o.index for n in made.nests for o in (n.root, *n.producers, *n.consumers)) == [0, 1]
    assert all(n.footprint_bytes <= 256 for n in made.nests)
    assert schedgen(["verify", str(payload), str(schedule)]) == 0
