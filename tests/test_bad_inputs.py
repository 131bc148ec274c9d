"""The bad-input corpus (tests/bad_inputs/cases.toml): every case exits 2
with exactly its one-line error naming file, line and op, prints nothing on
stdout and no traceback, and leaves no output file (nor a temporary one)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT

CORPUS = ROOT / "tests" / "bad_inputs"
CASES = tomllib.loads((CORPUS / "cases.toml").read_text())["case"]


def _listing(*dirs: Path) -> set[Path]:
    return {p for d in dirs for p in d.rglob("*")}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_bad_input_is_refused_with_its_line(case: dict, tmp_path: Path):
    out = tmp_path / "out.mlir"
    args = [a.replace("{out}", str(out)).replace("{tmp}", str(tmp_path)) for a in case["args"]]
    before = _listing(CORPUS, tmp_path)
    contents = {p: p.read_bytes() for p in before if p.is_file()}
    proc = subprocess.run([sys.executable, "-m", "schedgen.cli", *args], cwd=CORPUS, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    if "error_prefix" in case:  # what follows it is MLIR's own assertion text, which names its source files
        assert (proc.returncode, proc.stdout) == (2, "")
        assert proc.stderr.startswith("schedgen: error: " + case["error_prefix"]), proc.stderr
        assert proc.stderr.count("\n") == 1 and proc.stderr.endswith("\n")
    else:
        expected = "schedgen: error: " + case["error"].replace("{tmp}", str(tmp_path))
        assert (proc.returncode, proc.stderr, proc.stdout) == (2, expected + "\n", "")
    assert _listing(CORPUS, tmp_path) == before  # no output, no temporary file left
    assert all(p.read_bytes() == data for p, data in contents.items())  # inputs untouched
