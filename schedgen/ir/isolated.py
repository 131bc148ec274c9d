"""Apply a schedule in a child process, so that an MLIR/LLVM assertion (a
hand-edited `tile_sizes [0, 0]`, a reduction tiled through a `(d0, 0)`
map) ends in a one-line error instead of taking schedgen down with it.

The child (`python -m schedgen.ir.isolated --serve`, kept running between
requests) writes the transformed payload to OUT_DIR/out.mlir, or the
user-facing error to OUT_DIR/error.json. The parent runs it before it
applies the same schedule in process (where it needs the module itself):
the interpreter is deterministic, so what survived in the child survives
there too.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import IO

from schedgen.errors import SchedgenError, describe_death

ENTRY = "__transform_main"  # as schedgen.ir.apply (which this module must not import: it loads MLIR)


class _Worker:
    """One long-lived child that applies schedules on request: a fresh Python
    with MLIR per request cost 0.3 s, a request costs what the interpreter
    does. A request that kills it is answered from its exit status and what
    it printed on stderr; the next request starts a new one."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self.owner = 0  # the pid that started it: a forked process starts its own
        self.stderr: IO[str] | None = None
        self.lock = threading.Lock()

    def _start(self) -> subprocess.Popen[str]:
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        self.stderr = tempfile.TemporaryFile(mode="w+", errors="replace")
        self.proc = subprocess.Popen([sys.executable, "-m", "schedgen.ir.isolated", "--serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr, text=True, env=env)
        self.owner = os.getpid()
        return self.proc

    def stop(self) -> None:
        if self.proc is not None and self.owner == os.getpid() and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def run(self, args: list[str], timeout: float) -> tuple[int, str]:
        """(0 or 2, what it printed) when the request was served; (exit status, stderr) when it killed the worker."""
        with self.lock:
            alive = self.proc is not None and self.owner == os.getpid() and self.proc.poll() is None
            proc = self.proc if alive and self.proc is not None else self._start()
            assert proc.stdin is not None and proc.stdout is not None and self.stderr is not None
            self.stderr.seek(0, os.SEEK_END)
            before = self.stderr.tell()  # what earlier requests printed is not this one's story
            try:
                proc.stdin.write(json.dumps(args) + "\n")
                proc.stdin.flush()
            except BrokenPipeError:
                pass
            if not select.select([proc.stdout], [], [], timeout)[0]:
                self.stop()
                raise TimeoutError
            line = proc.stdout.readline()
            code = int(line) if line.strip() else proc.wait()
            self.stderr.seek(before)
            err = self.stderr.read()
            if not line.strip():
                self.proc = None
            return code, err


_WORKER = _Worker()
atexit.register(_WORKER.stop)


def apply_isolated(payload: Path | str, schedule: Path | str, entry: str = ENTRY, timeout: float = 600) -> str:
    """The payload transformed by `schedule` (its `entry` sequence), as text;
    SchedgenError with the schedule's file:line when it does not apply, or
    when MLIR aborted the child."""
    payload, schedule = Path(payload), Path(schedule)
    with tempfile.TemporaryDirectory(prefix="schedgen-apply-") as tmp:
        try:
            code, stderr = _WORKER.run([str(payload.resolve()), str(schedule.resolve()), entry, tmp], timeout)
        except TimeoutError:
            raise SchedgenError(str(schedule), f"applying the schedule to {payload} timed out after "
                                f"{timeout:g} s") from None
        error, out = Path(tmp) / "error.json", Path(tmp) / "out.mlir"
        if stderr and (error.is_file() or out.is_file()):
            sys.stderr.write(stderr)  # what the schedule printed (transform.print), as mlir-opt would show it
        if error.is_file():
            e = json.loads(error.read_text())
            # the child saw absolute paths; say them as the user did
            where = e["where"].replace(str(schedule.resolve()), str(schedule)).replace(str(payload.resolve()),
                                                                                      str(payload))
            raise SchedgenError(where, e["message"].replace(str(payload.resolve()), str(payload)), op=e["op"])
        if code != 0 or not out.is_file():
            raise SchedgenError(str(schedule), f"MLIR aborted while applying the schedule to {payload}: "
                                + describe_death(code, stderr, "applying the schedule", "the child process"))
        return out.read_text()


def _child(payload: str, schedule: str, entry: str, out_dir: str) -> int:
    from schedgen.ir.apply import transform_payload

    try:
        module = transform_payload(payload, schedule, entry)
    except SchedgenError as exc:
        (Path(out_dir) / "error.json").write_text(json.dumps({"where": exc.where, "message": exc.message,
                                                               "op": exc.op}))
        return 2
    (Path(out_dir) / "out.mlir").write_text(str(module))
    return 0


def _serve() -> int:
    """One request a line on stdin (a JSON list of _child's arguments), one
    status a line on stdout, until stdin closes. What the schedule itself
    prints (a hand-added `transform.print` writes to fd 1) goes to stderr, so
    it cannot be taken for a status; the parent's own apply shows it."""
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    for line in sys.stdin:
        print(_child(*json.loads(line)), file=replies, flush=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        sys.exit(_serve())
    print("usage: python -m schedgen.ir.isolated --serve (internal: the worker of apply_isolated)", file=sys.stderr)
    sys.exit(2)
