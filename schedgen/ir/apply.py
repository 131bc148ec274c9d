"""Apply a schedule to a payload with the transform interpreter (Python
bindings). Diagnostics keep the schedule's file:line."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from mlir import ir
from mlir.dialects.transform import interpreter

from schedgen.errors import SchedgenError
from schedgen.ir.context import first_location, new_context, one_line, parse_file
from schedgen.ir.queries import find_func, find_symbol

ENTRY = "__transform_main"
# CPU schedules: the memory-fit loop nests alone (footprints are measured after it).
TILE_STAGE = "schedgen_tile"
_DIAG = re.compile(r'^Diagnostic message at loc\([^)]*\):\s*')


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
    planned = tuple(ir.IntegerAttr(a).value for a in ir.ArrayAttr(attrs["schedgen.nest_footprints"])) \
        if "schedgen.nest_footprints" in attrs else ()
    return ScheduleInfo(func, target, memory, align, mode, planned, _sequence(schedule, TILE_STAGE) is not None)


def apply_schedule(payload_path: Path | str, schedule_path: Path | str) -> str:
    """The transformed payload as text; raises SchedgenError (with the
    schedule's file:line) when the schedule fails on this payload."""
    return str(transform_payload(payload_path, schedule_path))


def transform_payload(payload_path: Path | str, schedule_path: Path | str, entry: str = ENTRY) -> ir.Module:
    """The transformed payload module; its ops keep the payload's locations.
    `entry`: the named sequence to apply (default the whole schedule)."""
    payload_path, schedule_path = Path(payload_path), Path(schedule_path)
    ctx = new_context()
    payload = parse_file(payload_path, ctx, "payload")
    schedule = parse_file(schedule_path, ctx, "schedule")
    with ctx, ir.Location.unknown():
        apply_parsed(payload, schedule, payload_path, schedule_path, entry)
    return payload


def apply_parsed(payload: ir.Module, schedule: ir.Module, payload_path: Path, schedule_path: Path,
                 entry: str = ENTRY) -> None:
    """Apply the parsed `schedule` to the parsed `payload` in place (inside
    their context); SchedgenError with the schedule's file:line on failure."""
    sequence = _entry(schedule, str(schedule_path), entry)
    info = schedule_info(schedule)
    if info.func is not None and find_func(payload, info.func) is None:
        raise SchedgenError(str(schedule_path), f"schedule is for function @{info.func}, which {payload_path} "
                            "does not define")
    try:
        interpreter.apply_named_sequence(payload.operation, sequence, schedule)
    except ValueError as exc:
        text = str(exc).replace("Failed to apply named transform sequence.", "").strip()
        where = first_location(text, str(schedule_path))
        first = _DIAG.sub("", text.splitlines()[0]) if text else "transform interpreter failed"
        raise SchedgenError(where, f"schedule does not apply to {payload_path}: {one_line(first)}") from None
    if not payload.operation.verify():
        raise SchedgenError(str(schedule_path), f"transformed {payload_path} does not verify")
