"""Cases beyond the payload x preset x mode sweep (tests/test_all_modes.py):
the RFC DAG forced to tile, and schedules applied by the command-line tools."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from schedgen.cli import main as schedgen
from schedgen.mlir_env import tool_path
from schedgen.verify import verify

from conftest import ROOT


@pytest.mark.parametrize("memory", [700, 1500])
def test_rfc_dag_forced_to_tile_computes_each_op_once(memory: int, tmp_path: Path, original_outputs):
    """The RFC DAG fits every preset untiled; a small budget makes every op a
    nest root. abs and the matmul have users outside any nest built around
    add, so they are left unfused (not computed twice)."""
    payload = ROOT / "payloads/rfc_dag.mlir"
    schedule = tmp_path / "rfc.mlir"
    assert schedgen(["generate", str(payload), "--memory", str(memory), "-o", str(schedule)]) == 0
    text = schedule.read_text()
    assert "also used by the function's return" in text
    report = verify(payload, schedule, expected=original_outputs(payload))
    assert report.ok, report
    assert report.op_counts_transformed == {"linalg.fill": 1, "linalg.matmul": 1, "linalg.generic": 2}
    assert len([n for n in report.nests if n.loop == "scf.forall"]) >= 2


def test_emitted_schedule_applies_with_xtc_opt_and_mlir_opt(tmp_path: Path):
    payload = ROOT / "payloads/softmax.mlir"
    schedule = tmp_path / "s.mlir"
    assert schedgen(["generate", str(payload), "--target", "cpu-l1", "-o", str(schedule)]) == 0
    for tool in ("xtc-opt", "mlir-opt"):
        out = subprocess.run(
            [str(tool_path(tool)), str(payload), f"--transform-preload-library=transform-library-paths={schedule}",
             "--transform-interpreter"], capture_output=True, text=True, check=True).stdout
        assert out.count("scf.forall (") == 1 and out.count("linalg.generic") == 4
    # The same result as the Python interpreter path.
    py = tmp_path / "py.mlir"
    assert schedgen(["apply", str(payload), str(schedule), "-o", str(py)]) == 0
    assert py.read_text().strip() == out.strip()
