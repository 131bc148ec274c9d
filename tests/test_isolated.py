"""Schedules applied in the worker child process: an MLIR assertion there is
a one-line SchedgenError here, and the next request gets a new worker."""

from __future__ import annotations

import pytest
from conftest import ROOT

from schedgen.errors import SchedgenError
from schedgen.ir.apply import apply_schedule
from schedgen.ir.isolated import apply_isolated

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
