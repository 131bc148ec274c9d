"""The error types the CLI turns into a one-line message and exit code 2, and
how a child process's death is told on one line."""

from __future__ import annotations

import signal


class SchedgenError(Exception):
    """A user-facing error: `where` is "file:line" (or just the file), `op` the
    operation it concerns, if any."""

    def __init__(self, where: str, message: str, op: str | None = None) -> None:
        self.where = where
        self.op = op
        self.message = message
        super().__init__(self.line())

    def line(self) -> str:
        op = f" '{self.op}'" if self.op else ""
        return f"{self.where}:{op} {self.message}" if op else f"{self.where}: {self.message}"


class ExecutionError(Exception):
    """Lowering or execution failed; the message is a single line."""

    def __init__(self, message: str) -> None:
        self.message = one_line(message)
        super().__init__(self.message)


def one_line(text: str) -> str:
    return " ".join(text.split())


def describe_death(returncode: int, stderr: str, phase: str, who: str = "execution process") -> str:
    """How a child process died, on one line: the signal and what it was doing,
    with the LLVM assertion (or last meaningful line) it printed."""
    if returncode < 0:
        try:
            how = f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            how = f"killed by signal {-returncode}"
    else:
        how = "exited"
    line = meaningful_line(stderr)
    return (f"{who} {how} while {phase} (return code {returncode})"
            + (f": {line}" if line else ""))


def meaningful_line(stderr: str) -> str:
    """The line that says what went wrong: an LLVM assertion or fatal error if
    there is one, else the last line that is not stack-dump noise."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    for ln in lines:
        if "Assertion" in ln or ln.startswith("LLVM ERROR") or "error:" in ln:
            return ln
    noise = ("PLEASE submit", "Stack dump", "#", "0x", "Fatal Python error", "Current thread",
             "Thread 0x", "File \"", "Extension modules:", "Aborted", "Segmentation fault")
    for ln in reversed(lines):
        if not ln.startswith(noise) and not ln[:1].isdigit():
            return ln
    return ""

