"""One place that creates MLIR contexts, so every context knows the XTC
transform extension (transform.xtc.fuse_consumer) and parses the same way."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import re
from collections.abc import Iterator
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


def parse_file(path: Path, ctx: ir.Context, what: str, text: bytes | None = None) -> ir.Module:
    """Parse an MLIR file so that locations carry its path; refuse missing,
    empty and unparseable files with an error naming the file and line.
    `text`: the file's text to parse instead (without_resources); its
    locations name the file "-", and its errors name `path`."""
    if not path.is_file():
        raise SchedgenError(str(path), f"no such {what} file")
    if _blank(path):
        raise SchedgenError(str(path), f"{what} file is empty")
    try:
        with ctx:
            return ir.Module.parseFile(str(path)) if text is None else ir.Module.parse(text)
    except ir.MLIRError as exc:
        diag = exc.error_diagnostics[0] if exc.error_diagnostics else None
        if diag is not None:
            loc = first_location(str(diag.location), str(path))
            loc = f"{path}{loc[1:]}" if text is not None and loc.startswith("-:") else loc
            raise SchedgenError(loc, f"cannot parse {what}: {one_line(diag.message)}") from None
        raise SchedgenError(str(path), f"cannot parse {what}: {one_line(str(exc))}") from None


_OPEN, _CLOSE = b"\n{-#", b"#-}"


def without_resources(path: Path, chunk_bytes: int = 1 << 20) -> bytes | None:
    """The text of `path` with its file metadata blocks (`{-# dialect_resources:
    ... #-}`: torch-mlir's weights, as hex) cut down to the newlines they
    span, so that every line keeps its number; None when it has none, or one
    that does not end. `dense_resource<key>` then parses as a handle without
    data: enough to plan and to prove a schedule, never to execute. Read in
    chunks: the weights are never held."""
    try:
        return _cut_metadata(path, chunk_bytes)
    except OSError:  # missing, a directory, unreadable: parse_file says which
        return None


def _cut_metadata(path: Path, chunk_bytes: int) -> bytes | None:
    out = bytearray()
    pending, inside, found = b"\n", False, False  # a newline before the first line: a block may open it
    with path.open("rb") as f:
        while True:
            chunk = f.read(chunk_bytes)
            data, pending = pending + chunk, b""
            i = 0
            while True:
                if not inside:
                    j = data.find(_OPEN, i)
                    if j < 0:
                        cut = len(data) if not chunk else max(i, len(data) - len(_OPEN) + 1)
                        out += data[i:cut]
                        pending = data[cut:]
                        break
                    out += data[i:j + 1]
                    i, inside, found = j + 1, True, True
                else:
                    j = data.find(_CLOSE, i)
                    end = j + len(_CLOSE) if j >= 0 else (len(data) if not chunk else max(i, len(data) - 2))
                    out += b"\n" * data.count(b"\n", i, end)
                    if j < 0:
                        pending = data[end:]
                        break
                    i, inside = end, False
            if not chunk:
                break
    return bytes(out[1:]) if found and not inside else None


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


@functools.cache
def _llvm_command_line() -> ctypes.CDLL | None:
    """libLLVM, once MLIR's printer options are registered with it (once per
    process: a second registration is a fatal LLVM error); None where the
    libraries lack the symbols."""
    mlir_libs = Path(ir.__file__).resolve().parent / "_mlir_libs"
    try:
        capi = ctypes.CDLL(str(mlir_libs / "libMLIRPythonCAPI.so"))
        llvm = ctypes.CDLL(str(mlir_libs.parent.parent / "llvm" / "lib" / "libLLVM.so"))
        register = capi._ZN4mlir27registerAsmPrinterCLOptionsEv
        llvm.LLVMParseCommandLineOptions.restype = None
    except (OSError, AttributeError):
        return None
    register()
    return llvm


def _set_option(llvm: ctypes.CDLL, option: str) -> None:
    argv = (ctypes.c_char_p * 2)(b"schedgen", option.encode())
    llvm.LLVMParseCommandLineOptions(2, argv, None)


@contextlib.contextmanager
def printing_assumes_verified() -> Iterator[None]:
    """Meanwhile, MLIR's printer takes the IR as verified (mlir-opt's
    --mlir-print-assume-verified). Upstream fuse_into_containing_op prints
    its producer and loop into a diagnostic on every fusion (kept only if
    the fusion fails), and the printer first verifies the whole enclosing
    function: O(function) per fusion. A 500-op chain applied in 17.6 s, and
    in 4.3 s with this. The bindings cannot set printer flags; LLVM's
    command line can, and it is set back after."""
    llvm = _llvm_command_line()
    if llvm is None:
        yield
        return
    _set_option(llvm, "--mlir-print-assume-verified=true")
    try:
        yield
    finally:
        _set_option(llvm, "--mlir-print-assume-verified=false")
