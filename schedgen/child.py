"""Long-lived child processes for the steps where MLIR or JIT-compiled code
may abort (applying a schedule: schedgen.ir.isolated; running a function:
schedgen.run.execute). A fresh Python with MLIR per request cost 0.3-0.8 s;
a request to a child kept running costs what its work does. A request that
kills the child is answered from its exit status and what it printed on
stderr; the next request starts a new one."""

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
from typing import IO, Any, Callable


def child_env() -> dict[str, str]:
    """This process's environment, with this package importable even where it is not installed."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


# Set by pytest for each test, and read by no child: not a reason to start a new one.
_NOT_READ = ("PYTEST_CURRENT_TEST",)


def _same_env(a: dict[str, str], b: dict[str, str]) -> bool:
    return {k: v for k, v in a.items() if k not in _NOT_READ} == {k: v for k, v in b.items() if k not in _NOT_READ}


class Worker:
    """One child, `python -m MODULE --serve`, that reads a JSON list of
    arguments a line and answers each with a status line. Restarted when the
    environment changed since it started (a variable the child reads), and
    in a forked process (which starts its own)."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.proc: subprocess.Popen[str] | None = None
        self.owner = 0  # the pid that started it
        self.env: dict[str, str] = {}
        self.stderr: IO[str] | None = None
        self.lock = threading.Lock()

    def _start(self, env: dict[str, str]) -> subprocess.Popen[str]:
        self.stop()
        self.stderr = tempfile.TemporaryFile(mode="w+", errors="replace")
        self.proc = subprocess.Popen([sys.executable, "-m", self.module, "--serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr, text=True, env=env)
        self.owner, self.env = os.getpid(), env
        return self.proc

    def stop(self) -> None:
        if self.proc is not None and self.owner == os.getpid() and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def run(self, args: list[str], timeout: float) -> tuple[int, str]:
        """(the status it answered, what it printed on stderr meanwhile) when
        the request was served; (exit status, stderr) when it killed the
        child. TimeoutError, the child killed, when no answer came in time."""
        with self.lock:
            env = child_env()
            alive = self.proc is not None and self.owner == os.getpid() and self.proc.poll() is None
            proc = self.proc if alive and self.proc is not None and _same_env(env, self.env) else self._start(env)
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


class Pool:
    """Workers of one module for callers on several threads at once (verify
    runs the original and the transformed payload side by side): each
    request takes an idle worker or starts one; at most `keep` stay."""

    def __init__(self, module: str, keep: int = 2) -> None:
        self.module, self.keep = module, keep
        self.idle: list[Worker] = []
        self.lock = threading.Lock()
        atexit.register(self.stop)

    def run(self, args: list[str], timeout: float) -> tuple[int, str]:
        with self.lock:
            worker = self.idle.pop() if self.idle else Worker(self.module)
        try:
            return worker.run(args, timeout)
        finally:
            with self.lock:
                if len(self.idle) < self.keep:
                    self.idle.append(worker)
                else:
                    worker.stop()

    def stop(self) -> None:
        with self.lock:
            for worker in self.idle:
                worker.stop()
            self.idle = []


def serve(handle: Callable[..., int], stdout_for: Callable[[list[Any]], str] | None = None) -> int:
    """The child's loop: one request a line on stdin (a JSON list of
    `handle`'s arguments), its status a line on stdout, until stdin closes.
    Whatever the work itself writes to fd 1 (a hand-added `transform.print`,
    a failed `cf.assert`'s message) goes to `stdout_for(args)`, a file, or
    else to stderr, so that it cannot be taken for a status."""
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    for line in sys.stdin:
        args = json.loads(line)
        if stdout_for is not None:
            fd = os.open(stdout_for(args), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(fd, 1)
            os.close(fd)
        code = handle(*args)
        os.dup2(2, 1)
        print(code, file=replies, flush=True)
    return 0
