"""Producer-driven nests (consumer fusion) and two-level nests, checked on the
plan, on the applied IR and on executed numbers."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT
from ir_helpers import counts, loop_results, parse

from schedgen.analysis.axis_groups import AxisGroups, merge
from schedgen.check.verify import verify
from schedgen.cli import main as schedgen
from schedgen.emit.schedule import render
from schedgen.errors import SchedgenError
from schedgen.ir.apply import apply_schedule
from schedgen.ir.load import load_payload
from schedgen.model.plan import FuseMode
from schedgen.model.target import PRESETS, load_target
from schedgen.planning.planner import plan

FANOUT = ROOT / "payloads/fanout.mlir"
DIAMOND = ROOT / "payloads/diamond.mlir"
RFC = ROOT / "payloads/rfc_dag.mlir"
LONG_ROW = ROOT / "payloads/softmax_long_row.mlir"
ATTENTION = ROOT / "payloads/attention.mlir"


def _generate(payload: Path, tmp_path: Path, *args: str) -> Path:
    out = tmp_path / f"{payload.stem}.schedule.mlir"
    assert schedgen(["generate", str(payload), *args, "-o", str(out)]) == 0
    return out


def test_fanout_is_one_producer_driven_forall_without_a_full_write_of_a(tmp_path: Path, original_outputs):
    p = plan(load_payload(FANOUT), PRESETS["npu-256k"])
    [nest] = p.nests
    assert (nest.driven, nest.loop_kind, nest.root.index) == ("producer", "scf.forall", 0)
    assert [c.index for c in nest.consumers] == [1, 2]  # program order
    assert nest.reuse_dest == [2]
    schedule = _generate(FANOUT, tmp_path)
    ir = apply_schedule(FANOUT, schedule)
    # One loop computes A, B and C; it writes B and C only: no 512x512 write of A (the consumer's
    # own destination is left unused, not folded: see the schedule template).
    assert loop_results(parse(ir)) == [3] and ir.count("tensor.parallel_insert_slice") == 2
    report = verify(FANOUT, schedule, expected=original_outputs(FANOUT))
    assert report.ok and report.op_counts_transformed == {"linalg.generic": 3}


def test_rfc_dag_consumers_in_dominance_order_and_reverse_order_fails(tmp_path: Path):
    """abs (op2) must be fused before add (op3), which reads abs's tile:
    swapping the two fuse_consumer steps leaves add without its operand in
    the loop, and the interpreter refuses at the schedule's line."""
    p = plan(load_payload(RFC), load_target("npu-256k", 1500))
    [nest] = p.nests
    assert nest.loop_kind == "scf.for" and [c.index for c in nest.consumers] == [2, 3]
    schedule = _generate(RFC, tmp_path, "--memory", "1500")
    text = schedule.read_text()
    assert "transform.structured.fuse %op1 tile_sizes" in text  # fill fused through the destination
    first = '%n1_op2, %n1_cloop1 = "transform.xtc.fuse_consumer"(%op2, %n1_loop)'
    second = '%n1_op3, %n1_cloop2 = "transform.xtc.fuse_consumer"(%op3, %n1_cloop1)'
    assert first in text and second in text
    lines = text.replace(first, '%n1_op3, %n1_cloop1 = "transform.xtc.fuse_consumer"(%op3, %n1_loop)') \
        .replace(second, '%n1_op2, %n1_cloop2 = "transform.xtc.fuse_consumer"(%op2, %n1_cloop1)').splitlines()
    bad = tmp_path / "swapped.mlir"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(SchedgenError) as err:
        apply_schedule(RFC, bad)
    line = next(k for k, text in enumerate(lines, 1) if "(%op3, %n1_loop)" in text)
    assert f"swapped.mlir:{line}:" in str(err.value)


def test_diamond_stays_consumer_driven_when_one_nest_holds_it(tmp_path: Path, original_outputs):
    """A -> B, A -> C, B + C -> D with only D returned: tiling D and fusing
    C, B, A (A read twice, merged by CSE first) computes each op once and
    writes only D; a producer-driven loop would also write A, B and C."""
    p = plan(load_payload(DIAMOND), PRESETS["npu-256k"])
    [nest] = p.nests
    assert nest.driven == "consumer" and [o.index for o in nest.producers] == [2, 1, 0]
    assert nest.cse_before == [0]
    schedule = _generate(DIAMOND, tmp_path)
    ir = apply_schedule(DIAMOND, schedule)
    assert counts(ir)["scf.forall"] == 1 and '"transform.xtc.fuse_consumer"' not in schedule.read_text()
    report = verify(DIAMOND, schedule, expected=original_outputs(DIAMOND))
    assert report.ok and report.op_counts_transformed == {"linalg.generic": 4}


def test_two_level_softmax_of_a_4x1m_row(tmp_path: Path, original_outputs):
    """A 4 MiB row fits no preset: the softmax group shares one forall over
    rows, and every op walks the row in its own scf.for."""
    p = plan(load_payload(LONG_ROW), PRESETS["npu-256k"])
    [nest] = p.nests
    assert nest.levels == 2 and nest.tile_sizes == [1, 0]
    assert sorted(r.op for r in nest.reduction_tiling) == [1, 2, 4, 5]  # max, exp, sum, div; not the fills
    assert {r.size for r in nest.reduction_tiling} == {16384}
    schedule = _generate(LONG_ROW, tmp_path)
    ir = apply_schedule(LONG_ROW, schedule)
    assert counts(ir)["scf.forall"] == 1 and counts(ir)["scf.for"] == 4
    report = verify(LONG_ROW, schedule, expected=original_outputs(LONG_ROW))
    assert report.ok, report
    [measured] = [n for n in report.nests if n.loop == "scf.forall"]
    assert measured.footprint_bytes <= measured.planned_bytes <= PRESETS["npu-256k"].memory_bytes


def test_attention_is_one_two_level_nest_under_npu(tmp_path: Path, original_outputs):
    """K and V (128 KiB each) cannot stay whole next to a row block: the
    attention group is tiled over query rows, with K, V walked by scf.for."""
    p = plan(load_payload(ATTENTION), PRESETS["cpu-l1"])
    [nest] = p.nests
    assert nest.levels == 2 and nest.axis_groups == "()(z0,z1)(z2,k0)"
    assert [g.nests for g in p.groups] == [[1]] * len(p.groups)
    schedule = _generate(ATTENTION, tmp_path, "--target", "cpu-l1")
    report = verify(ATTENTION, schedule, expected=original_outputs(ATTENTION))
    assert report.ok, report


def test_nested_reduction_merge():
    # Q.K^T ()(z0,z2)(k0) into P.V ()(z0,z1)(z2): z2 is reduced by P.V.
    merged = merge(AxisGroups(y=("z0", "z2"), r=("k0",)), AxisGroups(y=("z0", "z1"), r=("z2",)))
    assert str(merged) == "()(z0,z1)(z2,k0)"


@pytest.mark.parametrize("order, ok", [([1, 2, 3], True), ([3, 1, 2], False)])
def test_diamond_consumer_order_must_follow_dominance(order: list[int], ok: bool, tmp_path: Path):
    """A producer-driven diamond (tile A, fuse B, C, D): D reads B and C, so
    it can only be fused after both; the planner's program order does that.
    Fused first, D has no operand computed in the loop yet."""
    p = plan(load_payload(DIAMOND), PRESETS["npu-256k"], FuseMode.NO_FUSE)
    a = next(n for n in p.nests if n.root.index == 0)
    ops = {o.index: o for o in p.ops}
    nest = a.model_copy(update={"id": 1, "loop_kind": "scf.for", "driven": "producer", "tile_sizes": [64, 0],
                                "consumers": [ops[i] for i in order]})
    schedule = tmp_path / "diamond.mlir"
    schedule.write_text(render(p.model_copy(update={"nests": [nest], "untiled": []})))
    if ok:
        ir = apply_schedule(DIAMOND, schedule)
        assert counts(ir)["scf.for"] == 1 and counts(ir)["linalg.generic"] == 4
    else:
        with pytest.raises(SchedgenError, match="diamond.mlir:[0-9]+:.*(no operand defined by the loop|failed)"):
            apply_schedule(DIAMOND, schedule)
