"""Schedules applied in the worker child process: an MLIR assertion there is
a one-line SchedgenError here, and the next request gets a new worker."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT

from schedgen.errors import SchedgenError
from schedgen.ir.apply import apply_schedule
from schedgen.ir.isolated import apply_isolated, stop_worker

PAYLOAD = ROOT / "payloads" / "matmul_bias_relu.mlir"
SCHEDULE = ROOT / "schedules" / "matmul_bias_relu.npu-256k.mlir"
ZERO_TILES = ROOT / "tests" / "bad_inputs" / "zero_tiles.schedule.mlir"


def test_abort_is_one_line_and_the_worker_comes_back():
    with pytest.raises(SchedgenError) as info:
        apply_isolated(PAYLOAD, ZERO_TILES)
    msg = info.value.line()
    assert "\n" not in msg and "MLIR aborted" in msg and "SIGABRT" in msg and "Assertion" in msg
    # the same text as the in-process interpreter gives, from a fresh worker
    assert apply_isolated(PAYLOAD, SCHEDULE) == apply_schedule(PAYLOAD, SCHEDULE)


def test_schedule_errors_keep_their_line(tmp_path):
    bad = tmp_path / "s.mlir"
    bad.write_text(SCHEDULE.read_text().replace("tile_using_forall %op2 ", "tile_using_forall %op9 "))
    with pytest.raises(SchedgenError) as info:
        apply_isolated(PAYLOAD, bad)
    assert info.value.where.startswith(f"{bad}:")


def test_an_abort_names_the_transform_op_it_happened_in(tmp_path, monkeypatch):
    """The worker died: the schedule is applied once more with a step marker
    before each op, and the last marker printed names the line. That child
    dies too, and leaves no marked copy in the temporary directory."""
    children_tmp = tmp_path / "tmp"
    children_tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(children_tmp))
    stop_worker()  # the next worker starts with this TMPDIR
    with pytest.raises(SchedgenError) as info:
        apply_isolated(PAYLOAD, ZERO_TILES)
    line = next(k for k, text in enumerate(ZERO_TILES.read_text().splitlines(), 1) if "tile_sizes [0, 0]" in text)
    assert info.value.where == f"{ZERO_TILES}:{line}"
    assert f"at line {line} (transform.structured.tile_using_forall)" in info.value.line()
    stop_worker()
    assert list(children_tmp.iterdir()) == []


ROW_SUM = """func.func @row_sum(%x: tensor<16x64xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x64xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}
"""

RACE = """module attributes {transform.with_named_sequence, schedgen.memory_bytes = 65536 : i64} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %g tile_sizes [4, 16]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
"""


def test_a_forall_over_a_reduction_dim_is_a_warning_and_a_violation(tmp_path, capsys):
    """MLIR only warns ("tiling is not thread safe"): the forall's iterations
    race on one output tile. apply says so on a line of its own; check fails."""
    from schedgen.check.check import check

    payload, schedule = tmp_path / "p.mlir", tmp_path / "s.mlir"
    payload.write_text(ROW_SUM)
    schedule.write_text(RACE)
    warned: list[str] = []
    apply_isolated(payload, schedule, warnings=warned)
    assert warned == [f"{payload}:5:8: tiling is not thread safe at axis #1"]
    apply_isolated(payload, schedule)
    assert capsys.readouterr().err.strip() == \
        f"schedgen: warning: {schedule}: MLIR warned at {payload}:5:8: tiling is not thread safe at axis #1"
    report = check(payload, schedule)
    assert not report.ok and any("not thread safe at axis #1" in v for v in report.violations)
    assert capsys.readouterr().err == ""  # said once, as a violation, not also printed by the bindings


def test_a_cpu_tile_larger_than_its_dim_is_refused_at_its_line(tmp_path):
    """The register levels would pad to the tile size: refused before they run."""
    cpu = ROOT / "schedules" / "matmul_bias_relu.cpu-avx512.mlir"
    edited = tmp_path / "s.mlir"
    text = cpu.read_text()
    rows = re.search(r"tile_using_forall %\w+ tile_sizes \[(\d+), \d+\]", text)
    assert rows is not None
    edited.write_text(text.replace(rows.group(0), rows.group(0).split("[")[0] + f"[{rows.group(1)}, 5000]"))
    with pytest.raises(SchedgenError) as info:
        apply_isolated(PAYLOAD, edited)
    line = next(k for k, t in enumerate(edited.read_text().splitlines(), 1) if ", 5000]" in t)
    assert info.value.where == f"{edited}:{line}"
    assert "tile size 5000 is larger than the dim it tiles (1024)" in info.value.message
