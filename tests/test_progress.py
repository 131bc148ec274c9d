"""Progress bars appear on a terminal only, vanish when done, and never
change what a command writes."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from conftest import ROOT

from schedgen.emit.schedule import render, tiling_script
from schedgen.ir.load import load_payload
from schedgen.model.plan import FuseMode
from schedgen.model.target import load_target
from schedgen.planning.planner import plan
from schedgen.progress import progress

SOFTMAX = ROOT / "payloads/softmax.mlir"
CLI = [sys.executable, "-m", "schedgen.cli"]


@pytest.fixture(scope="module")
def expected_schedule() -> str:
    """The precise schedule made without a terminal (pytest captures stderr)."""
    text = render(plan(load_payload(SOFTMAX), load_target("npu-256k"), FuseMode.MAX_PRODUCERS, "precise",
                       tiling=tiling_script))
    return text if text.endswith("\n") else text + "\n"


def run_on_pty(args: list[str], stdout_too: bool = False, columns: int = 0) -> tuple[int, str]:
    """Run with stderr (and stdout) on a pseudo-terminal; what the terminal got."""
    master, slave = pty.openpty()
    if columns:  # a fresh pty reports 0x0, like no real terminal does
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stderr=slave,
                            stdout=slave if stdout_too else subprocess.DEVNULL)
    os.close(slave)
    got = b""
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            if select.select([master], [], [], 1.0)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not chunk:
                    break
                got += chunk
            elif proc.poll() is not None:
                break
        code = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    return code, got.decode(errors="replace")


def test_precise_checks_shown_on_a_terminal(tmp_path: Path, expected_schedule: str):
    out = tmp_path / "sm.mlir"
    code, terminal = run_on_pty([*CLI, "generate", str(SOFTMAX), "--footprint", "precise", "-o", str(out)],
                                columns=100)
    assert code == 0, terminal
    assert "precise checks" in terminal
    assert " sim" in terminal
    assert out.read_text() == expected_schedule


def test_nothing_on_a_pipe(tmp_path: Path, expected_schedule: str):
    out = tmp_path / "sm.mlir"
    proc = subprocess.run([*CLI, "generate", str(SOFTMAX), "--footprint", "precise", "-o", str(out)],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert out.read_text() == expected_schedule


def test_bar_erased_before_explain_prints(tmp_path: Path):
    """The checker's bar is gone when planning returns: the table starts on a
    clean line (the pty also reports no width here: the 80-column fallback)."""
    code, terminal = run_on_pty([*CLI, "explain", str(SOFTMAX), "--footprint", "precise"], stdout_too=True)
    assert code == 0, terminal
    before, table = terminal.split("plan for @softmax", 1)
    assert "precise checks" in before
    assert before.endswith("\r") and before.rsplit("\r", 2)[-2].strip() == ""  # tqdm's erase: \r, blanks, \r
    assert "precise checks" not in table
    assert "footprint precise" in table


def test_no_terminal_no_bar(capsys: pytest.CaptureFixture[str]):
    with progress("work", total=3, unit=" step") as bar:
        assert not bar.shown
        bar.update()
        bar.status("halfway")
        bar.write("a message")
    assert capsys.readouterr().err == "a message\n"
