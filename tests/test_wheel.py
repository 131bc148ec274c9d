"""The built wheel works outside the checkout: templates ship as package
data (schedgen.templates), not as files next to the sources."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import ROOT


def test_wheel_generates_outside_the_checkout(tmp_path: Path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist),
                    str(ROOT)], check=True, capture_output=True)
    (wheel,) = dist.glob("schedgen-*.whl")
    assert "schedgen/templates/schedule.mlir.j2" in zipfile.ZipFile(wheel).namelist()
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
                   check=True, capture_output=True)
    work = tmp_path / "elsewhere"
    work.mkdir()
    payload = work / "p.mlir"
    payload.write_text((ROOT / "payloads/matmul_bias_relu.mlir").read_text())
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run([sys.executable, "-c", "import schedgen.emit.schedule as e; print(e.__file__)"], cwd=work, env=env,
                           capture_output=True, text=True, check=True).stdout.strip()
    assert where.startswith(str(site)), where  # the installed copy, not the checkout
    out = subprocess.run([sys.executable, "-m", "schedgen.cli", "generate", str(payload), "-o", "s.mlir"], cwd=work,
                         env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "transform.structured.tile_using_forall" in (work / "s.mlir").read_text()
