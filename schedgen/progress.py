"""Progress bars for long searches and benchmark runs: a tqdm bar on stderr,
shown only when stderr is a terminal, and erased when it closes, so the
output of a command (and anything piped or logged) stays as it was.

    with progress("precise checks", unit=" sim") as bar:
        bar.update()
"""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import Any


def _stderr_is_tty() -> bool:
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed stream
        return False


def _columns() -> int:
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return 0


class Progress:
    """One bar; every method is a no-op when it is not shown."""

    def __init__(self, desc: str, total: int | None = None, unit: str = "it", bar_format: str | None = None) -> None:
        self._bar: Any = None
        if _stderr_is_tty():  # tqdm is imported only when a bar can be shown
            from tqdm import tqdm

            # A terminal that reports no width (a fresh pseudo-terminal) would get an empty bar.
            width: dict[str, Any] = {"dynamic_ncols": True} if _columns() else {"ncols": 80, "nrows": 24}
            # disable=None: tqdm itself also stays silent unless the file is a TTY
            self._bar = tqdm(desc=desc, total=total, unit=unit, file=sys.stderr, disable=None, leave=False,
                             bar_format=bar_format, **width)

    @property
    def shown(self) -> bool:
        return self._bar is not None and not self._bar.disable

    def update(self, n: int = 1) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def status(self, text: str) -> None:
        """What is happening now, after the counts."""
        if self._bar is not None:
            self._bar.set_postfix_str(text)

    def write(self, message: str) -> None:
        """A line on stderr that does not garble the bar (printed above it)."""
        if self.shown:
            self._bar.write(message, file=sys.stderr)
        else:
            print(message, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()  # leave=False: the line is erased
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def progress(desc: str, total: int | None = None, unit: str = "it", bar_format: str | None = None) -> Progress:
    """A bar on stderr when it is a terminal; `bar_format` as tqdm's."""
    return Progress(desc, total, unit, bar_format)


def phase(text: str) -> None:
    """What a long command is doing now, on one line of stderr that the next
    phase overwrites ("" erases it); only on a terminal, like the bars."""
    if not _stderr_is_tty():
        return
    width = max(_columns() - 1, 20) if _columns() else 79
    line = f"schedgen: {text}..." if text else ""
    sys.stderr.write("\r" + line[:width].ljust(width) + ("\r" if not text else ""))
    if not text:
        sys.stderr.write(" " * width + "\r")
    sys.stderr.flush()
