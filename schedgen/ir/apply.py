"""Apply a schedule to a payload with the transform interpreter (Python
bindings). Diagnostics keep the schedule's file:line."""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from mlir import ir
from mlir.dialects.transform import interpreter

from schedgen.errors import SchedgenError
from schedgen.ir.context import (
    new_context,
    one_line,
    parse_file,
    printing_assumes_verified,
)
from schedgen.ir.diagnostics import split_warnings
from schedgen.ir.queries import find_func, find_symbol

ENTRY = "__transform_main"
# CPU schedules: the memory-fit loop nests alone (footprints are measured after it).
TILE_STAGE = "schedgen_tile"
_DIAG = re.compile(r'(?:Diagnostic message )?at loc\("([^"]*)":(\d+):(\d+)\):\s*')


@dataclass(frozen=True)
class ScheduleInfo:
    """What the schedule says about itself (module attributes written by
    `generate`; a hand-written schedule may have none)."""

    func: str | None
    target: str | None
    memory_bytes: int | None
    alignment_bytes: int = 1
    footprint: str = "analytic"
    nest_footprints: tuple[int, ...] = ()  # the planner's figure per nest, by nest id (1, 2, ...)
    nest_traffic: tuple[int, ...] = ()  # the planner's main-memory traffic per nest, by nest id
    tile_stage: bool = False  # has @schedgen_tile (a CPU schedule: tiling, then CPU levels and lowering)


def _sequence(schedule: ir.Module, name: str) -> ir.OpView | None:
    return find_symbol(schedule, "transform.named_sequence", name)


def _entry(schedule: ir.Module, path: str, name: str = ENTRY) -> ir.OpView:
    op = _sequence(schedule, name)
    if op is None:
        raise SchedgenError(path, f"schedule has no transform.named_sequence @{name}")
    return op


def schedule_info(schedule: ir.Module) -> ScheduleInfo:
    attrs = schedule.operation.attributes
    func = ir.StringAttr(attrs["schedgen.func"]).value if "schedgen.func" in attrs else None
    target = ir.StringAttr(attrs["schedgen.target"]).value if "schedgen.target" in attrs else None
    memory = ir.IntegerAttr(attrs["schedgen.memory_bytes"]).value if "schedgen.memory_bytes" in attrs else None
    align = ir.IntegerAttr(attrs["schedgen.alignment_bytes"]).value if "schedgen.alignment_bytes" in attrs else 1
    mode = ir.StringAttr(attrs["schedgen.footprint"]).value if "schedgen.footprint" in attrs else "analytic"
    planned, traffic = (tuple(ir.IntegerAttr(a).value for a in ir.ArrayAttr(attrs[f"schedgen.{k}"]))
                        if f"schedgen.{k}" in attrs else () for k in ("nest_footprints", "nest_traffic"))
    return ScheduleInfo(func, target, memory, align, mode, planned, traffic,
                        _sequence(schedule, TILE_STAGE) is not None)


def apply_schedule(payload_path: Path | str, schedule_path: Path | str) -> str:
    """The transformed payload as text; raises SchedgenError (with the
    schedule's file:line) when the schedule fails on this payload."""
    return str(transform_payload(payload_path, schedule_path))


def transform_payload(payload_path: Path | str, schedule_path: Path | str, entry: str = ENTRY,
                      warnings: list[str] | None = None) -> ir.Module:
    """The transformed payload module; its ops keep the payload's locations.
    `entry`: the named sequence to apply (default the whole schedule);
    `warnings` receives what the interpreter warned of; without it, the
    bindings print that to file descriptor 2 (split_warnings reads it)."""
    payload_path, schedule_path = Path(payload_path), Path(schedule_path)
    ctx = new_context()
    payload = parse_file(payload_path, ctx, "payload")
    schedule = parse_file(schedule_path, ctx, "schedule")
    with ctx, ir.Location.unknown():
        said = apply_parsed(payload, schedule, payload_path, schedule_path, entry, capture=warnings is not None)
    if warnings is not None:
        warnings.extend(said)
    return payload


def not_executable(schedule_path: Path | str, transformed: Path | str, message: str,
                   entry: str = ENTRY) -> SchedgenError:
    """The error for a payload that `schedule_path` transformed but that does
    not lower or run: no transform op failed, so it names the line of the
    `entry` sequence, and says lines of the transformed payload as such (a
    temporary file the user never saw; `schedgen apply -o` writes it)."""
    where = str(schedule_path)
    with contextlib.suppress(SchedgenError), new_context() as ctx:
        sequence = _sequence(parse_file(Path(schedule_path), ctx, "schedule"), entry)
        loc = sequence.location if sequence is not None else None
        if loc is not None and loc.is_a_file():
            where = f"{schedule_path}:{loc.start_line}"
    said = re.sub(r'loc\("' + re.escape(str(transformed)) + r'":(\d+):\d+\)',
                  r"line \1 of the transformed payload", message)
    return SchedgenError(where, f"the payload @{entry} leaves does not execute "
                         f"(`schedgen apply -o` writes it): {said}")


def stages(schedule: ir.Module, entry: str = ENTRY) -> list[str]:
    """The sequences `entry` runs, in order: the ones it includes when it
    does nothing else (a CPU schedule: tiling, CPU levels, lowering), so
    that a caller can look at the payload between them; else `entry`."""
    sequence = find_symbol(schedule, "transform.named_sequence", entry)
    if sequence is None:
        return [entry]
    ops = [op.operation for op in sequence.regions[0].blocks[0].operations][:-1]
    if not ops or any(op.name != "transform.include" for op in ops):
        return [entry]
    return [ir.FlatSymbolRefAttr(op.attributes["target"]).value for op in ops]


def apply_parsed(payload: ir.Module, schedule: ir.Module, payload_path: Path, schedule_path: Path,
                 entry: str = ENTRY, capture: bool = True) -> list[str]:
    """Apply the parsed `schedule` to the parsed `payload` in place (inside
    their context); SchedgenError with the schedule's file:line on failure.
    Returns what the interpreter warned of on success, a line each
    ("payload.mlir:5:9: tiling is not thread safe at axis #0"), unless
    `capture` is off (a child process, whose fd 2 its parent reads: an
    LLVM assertion must reach it)."""
    sequence = _entry(schedule, str(schedule_path), entry)
    info = schedule_info(schedule)
    if info.func is not None and find_func(payload, info.func) is None:
        raise SchedgenError(str(schedule_path), f"schedule is for function @{info.func}, which {payload_path} "
                            "does not define")
    try:
        with _fd2_captured() if capture else contextlib.nullcontext([]) as warned, printing_assumes_verified():
            interpreter.apply_named_sequence(payload.operation, sequence, schedule)
    except ValueError as exc:
        where, first = _failure(str(exc).replace("Failed to apply named transform sequence.", "").strip(),
                                str(schedule_path))
        raise SchedgenError(where, f"schedule does not apply to {payload_path}: {one_line(first)}") from None
    if not payload.operation.verify():
        raise SchedgenError(str(schedule_path), f"transformed {payload_path} does not verify")
    return warned


def _failure(text: str, schedule_path: str) -> tuple[str, str]:
    """Where and what a failed application reports: the first diagnostic
    located in the schedule (the transform op that failed), else the first
    one. A warning on a payload op (a forall over a reduction dim) may come
    before the error."""
    found = list(_DIAG.finditer(text))
    if not found:
        return schedule_path, text.splitlines()[0] if text else "transform interpreter failed"
    ends = [m.start() for m in found[1:]] + [len(text)]
    entries = [(f"{m[1]}:{m[2]}:{m[3]}", text[m.end():end].strip().split("\n", 1)[0]) for m, end in zip(found, ends)]
    return next((e for e in entries if e[0].startswith(schedule_path + ":")), entries[0])


@contextlib.contextmanager
def _fd2_captured() -> Iterator[list[str]]:
    """The warnings the C++ side prints to file descriptor 2 meanwhile,
    filled in on exit; anything else (a hand-added `transform.print`, where
    fd 1 is fd 2) is passed on."""
    warned: list[str] = []
    sys.stderr.flush()
    with tempfile.TemporaryFile() as sink:
        saved = os.dup(2)
        os.dup2(sink.fileno(), 2)
        try:
            yield warned
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            head, said = split_warnings(sink.read().decode(errors="replace"))
            warned.extend(said)
            if head:
                sys.stderr.write(head)
                sys.stderr.flush()
