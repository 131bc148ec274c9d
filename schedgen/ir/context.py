"""One place that creates MLIR contexts, so every context knows the XTC
transform extension (transform.xtc.fuse_consumer) and parses the same way."""

from __future__ import annotations

import re
from pathlib import Path

import mlir.xtc_transform  # noqa: F401  registers transform.xtc.* for new contexts
from mlir import ir

from schedgen.errors import SchedgenError


def new_context() -> ir.Context:
    return ir.Context()


_LOC = re.compile(r'loc\("([^"]*)":(\d+):(\d+)\)')


def first_location(message: str, default: str) -> str:
    """The first `loc("file":line:col)` of an MLIR diagnostic, as file:line:col."""
    m = _LOC.search(message)
    return f"{m.group(1)}:{m.group(2)}:{m.group(3)}" if m else default


def one_line(message: str) -> str:
    """MLIR diagnostics span lines; the CLI promises a single line."""
    return " ".join(part.strip() for part in message.splitlines() if part.strip())


def parse_file(path: Path, ctx: ir.Context, what: str) -> ir.Module:
    """Parse an MLIR file so that locations carry its path; refuse missing,
    empty and unparseable files with an error naming the file and line."""
    if not path.is_file():
        raise SchedgenError(str(path), f"no such {what} file")
    if _blank(path):
        raise SchedgenError(str(path), f"{what} file is empty")
    try:
        with ctx:
            return ir.Module.parseFile(str(path))
    except ir.MLIRError as exc:
        diag = exc.error_diagnostics[0] if exc.error_diagnostics else None
        if diag is not None:
            loc = first_location(str(diag.location), str(path))
            raise SchedgenError(loc, f"cannot parse {what}: {one_line(diag.message)}") from None
        raise SchedgenError(str(path), f"cannot parse {what}: {one_line(str(exc))}") from None


def _blank(path: Path) -> bool:
    """Nothing but whitespace, read in chunks (a payload's weights can be
    hundreds of MB: never a second copy of them just for this)."""
    with path.open("rb") as f:
        while chunk := f.read(1 << 16):
            if chunk.strip():
                return False
    return True


def tool_path(name: str) -> Path:
    """A binary shipped in the MLIR wheels (mlir-opt, xtc-opt, ...)."""
    return Path(ir.__file__).resolve().parent / "bin" / name
