"""The one error type the CLI turns into a one-line message and exit code 2."""

from __future__ import annotations


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
