"""Execute a function of a linalg-on-tensors MLIR module on numpy inputs, and
compare results.

Lowering and JIT execution run in a child process: an LLVM assertion or a
crash in JIT-compiled code aborts the whole process, and the parent must
survive it to report a one-line `ExecutionError`. run_function's children
are kept running between calls (`python -m schedgen.run.execute --serve`,
schedgen.child), a timed call gets a fresh one (`... DIR`). Parent and child
talk through files in a temporary directory: `module.mlir`, `request.json`,
`inputs.npz` in; `outputs.npz` or `error.txt` out, `stdout.txt` (a failed
`cf.assert`'s message) and `phase.txt` (what the child was doing, for a crash
report). The parent never imports the MLIR bindings.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from schedgen.child import Pool, child_env, serve
from schedgen.errors import ExecutionError, describe_death, one_line
from schedgen.run.arrays import load_arrays, save_arrays
from schedgen.run.jit import lower_and_run
from schedgen.run.memory import c_library

# The child's stack: schedules that use `alloc_to_alloca` put whole tiles on
# the stack and segfault under the default 8 MB. Reserved, not committed.
_STACK_BYTES = 1 << 30

# run_function's children, kept running between calls (schedgen.child).
_POOL = Pool("schedgen.run.execute")


def run_function(module: str | Path, func_name: str, inputs: list[np.ndarray],
                 timeout: float = 600, opt_level: int = 3, threads: int = 1) -> list[np.ndarray]:
    """Lower `module` (_TO_LOOPS, then _TO_LLVM), JIT it and call `func_name`
    on `inputs` (one array per tensor argument, same shape and element type)
    in a child process; returns one array per returned tensor. `module` is
    the text, or a file the child parses itself (a model's weights are not
    copied on the way). Raises
    ExecutionError on a parse or lowering failure, a crash, or a timeout.
    `threads` > 1 runs scf.parallel loops on that many workers (async runtime).
    The numbers are what count here, not the time: linalg ops left in the
    module run their loops in a faster order that keeps every sum's order
    (loop_order.reorder_loops)."""
    return time_function(module, func_name, inputs, timeout, opt_level, threads, repeats=0, reorder=True)[0]


def time_function(module: str | Path, func_name: str, inputs: list[np.ndarray], timeout: float = 600,
                  opt_level: int = 3, threads: int = 1, repeats: int = 5,
                  warmup: int = 1, min_seconds: float = 0.0,
                  reorder: bool = False) -> tuple[list[np.ndarray], list[float]]:
    """As run_function, and also the wall time of each of `repeats` calls
    after `warmup` calls (outputs are those of the first call); with
    `min_seconds`, more calls until the timed ones add up to that much (as
    benchmark libraries do: a sub-millisecond kernel timed a few times
    mostly measures worker threads waking up). `reorder`: as run_function
    does (a timing then measures no standard lowering)."""
    with tempfile.TemporaryDirectory(prefix="schedgen-exec-") as tmp:
        d = Path(tmp)
        if not isinstance(module, Path):
            (d / "module.mlir").write_text(module)
        where = str(module.resolve()) if isinstance(module, Path) else "module.mlir"
        (d / "request.json").write_text(json.dumps({"module": where, "func": func_name, "opt_level": opt_level,
                                                    "threads": threads, "repeats": repeats, "warmup": warmup,
                                                    "min_seconds": min_seconds, "reorder": reorder}))
        save_arrays(d / "inputs.npz", [np.asarray(a) for a in inputs])
        try:
            if repeats == 0:  # numbers only: the long-lived child (what a call costs is not measured)
                code, stderr = _POOL.run([str(d)], timeout)
                stdout = _read(d / "stdout.txt")
            else:  # timed: a fresh process, as every benchmark's
                proc = subprocess.run([sys.executable, "-m", "schedgen.run.execute", str(d)], cwd=d,
                                      env=child_env(), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                      errors="replace", timeout=timeout)
                code, stderr, stdout = proc.returncode, proc.stderr, proc.stdout
        except (subprocess.TimeoutExpired, TimeoutError):  # the child has been killed
            raise ExecutionError(f"@{func_name}: timed out after {timeout:g} s "
                                 f"({_read(d / 'phase.txt') or 'starting'})") from None
        error_file, out_file = d / "error.txt", d / "outputs.npz"
        if error_file.is_file():  # the child caught the failure itself
            raise ExecutionError(error_file.read_text())
        if code != 0 or not out_file.is_file():
            phase = _read(d / "phase.txt") or "starting"
            raise ExecutionError(f"@{func_name}: {describe_death(code, stderr, phase)}" + _assert_message(stdout))
        outputs = load_arrays(out_file)
        times = json.loads(_read(d / "times.json") or "[]")
        return outputs, times


def _read(path: Path) -> str:
    return path.read_text().strip() if path.is_file() else ""


def _assert_message(stdout: str) -> str:
    """What a failed cf.assert printed (its last line), if anything."""
    lines = [ln.strip() for ln in stdout.splitlines() if ln.strip()]
    return f"; the payload's assertion failed: {lines[-1]}" if lines else ""


def _child(d: Path) -> None:
    req = json.loads((d / "request.json").read_text())
    func_name: str = req["func"]
    # A failed cf.assert (torch's bounds checks) puts its message on C's
    # stdout, then aborts: unbuffered, the message reaches the parent.
    try:
        import ctypes

        libc = c_library()
        libc.setvbuf(ctypes.c_void_p.in_dll(libc, "stdout"), None, 2, 0)  # _IONBF
    except (OSError, ValueError, AttributeError):
        pass

    def phase(what: str) -> None:
        # Tells the parent what was going on if this process dies.
        (d / "phase.txt").write_text(what)

    try:
        inputs = load_arrays(d / "inputs.npz")
        outputs, times = lower_and_run(d / req.get("module", "module.mlir"), func_name, inputs,
                                        int(req["opt_level"]), phase, int(req.get("threads", 1)),
                                        int(req.get("repeats", 0)), int(req.get("warmup", 0)),
                                        float(req.get("min_seconds", 0.0)), bool(req.get("reorder", False)))
    except ExecutionError as exc:
        (d / "error.txt").write_text(f"@{func_name}: {exc.message}")
        return
    (d / "times.json").write_text(json.dumps(times))
    save_arrays(d / "outputs.npz", outputs)


def _run_child_main(directory: str) -> int:
    """Run the child in a thread with a large stack (see _STACK_BYTES) and
    report any unexpected Python exception as a one-line error file."""
    import threading

    d = Path(directory)
    failure: list[BaseException] = []

    def work() -> None:
        try:
            _child(d)
        except BaseException as exc:  # noqa: BLE001  reported to the parent
            failure.append(exc)

    try:
        threading.stack_size(_STACK_BYTES)
        t = threading.Thread(target=work, name="schedgen-execute")
        t.start()
    except (RuntimeError, ValueError, MemoryError):  # no room for the big stack
        threading.stack_size(0)
        t = threading.Thread(target=work, name="schedgen-execute")
        t.start()
    t.join()
    if failure:
        exc = failure[0]
        (d / "error.txt").write_text(f"internal error in the execution process: "
                                     f"{type(exc).__name__}: {one_line(str(exc))}")
        return 1
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        sys.exit(serve(_run_child_main, lambda args: str(Path(args[0]) / "stdout.txt")))
    if len(sys.argv) != 2:
        print("usage: python -m schedgen.run.execute DIR | --serve (internal: the child of run_function)",
              file=sys.stderr)
        sys.exit(2)
    sys.exit(_run_child_main(sys.argv[1]))

