"""Cases beyond the payload x preset x mode sweep (tests/test_all_modes.py):
the RFC DAG forced to tile, and schedules applied by the command-line tools."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import ROOT
from ir_helpers import counts

from schedgen.cli import main as schedgen
from schedgen.ir.context import tool_path


@pytest.mark.parametrize("memory, loops, consumers", [
    (1500, ["scf.for"], ["linalg.generic", "linalg.generic"]),  # the RFC's own answer: one loop for the DAG
    (600, ["scf.forall", "scf.forall"], ["linalg.generic"]),  # matmul alone; abs with add fused as consumer
])
def test_rfc_dag_forced_to_tile_uses_consumer_fusion(memory: int, loops: list[str], consumers: list[str],
                                                       tmp_path: Path, verified):
    """The RFC DAG fits every preset untiled; a small budget forces tiling.
    abs and the matmul have several users, so instead of leaving them
    unfused the planner tiles the producer and fuses its consumers
    (transform.xtc.fuse_consumer): each op once, in as few loops as fit."""
    payload = ROOT / "payloads/rfc_dag.mlir"
    schedule = tmp_path / "rfc.mlir"
    assert schedgen(["generate", str(payload), "--memory", str(memory), "-o", str(schedule)]) == 0
    text = schedule.read_text()
    assert text.count('"transform.xtc.fuse_consumer"') == len(consumers)
    report = verified(payload, schedule)
    assert report.ok, report
    assert report.op_counts_transformed == {"linalg.fill": 1, "linalg.matmul": 1, "linalg.generic": 2}
    assert [n.loop for n in report.nests if n.loop != "untiled"] == loops
    assert all(n.loop != "untiled" for n in report.nests)


def test_emitted_schedule_applies_with_xtc_opt_and_mlir_opt(tmp_path: Path):
    payload = ROOT / "payloads/softmax.mlir"
    schedule = tmp_path / "s.mlir"
    assert schedgen(["generate", str(payload), "--target", "cpu-l1", "-o", str(schedule)]) == 0
    for tool in ("xtc-opt", "mlir-opt"):
        out = subprocess.run(
            [str(tool_path(tool)), str(payload), f"--transform-preload-library=transform-library-paths={schedule}",
             "--transform-interpreter"], capture_output=True, text=True, check=True).stdout
        assert counts(out)["scf.forall"] == 1 and counts(out)["linalg.generic"] == 4
    # The same result as the Python interpreter path.
    py = tmp_path / "py.mlir"
    assert schedgen(["apply", str(payload), str(schedule), "-o", str(py)]) == 0
    assert py.read_text().strip() == out.strip()
