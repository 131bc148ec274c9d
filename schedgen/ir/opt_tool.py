"""Prove that a freshly generated schedule applies, with the `xtc-opt` that
ships in the MLIR wheels, in a process of its own.

Why not the in-process interpreter (schedgen.ir.apply): every
`fuse_into_containing_op` prints its producer and loop into a diagnostic
that is thrown away unless the fusion fails. The printer numbers the whole
enclosing function and, unless told the IR is verified, verifies it first,
so a model with n fusions costs O(n x function size): mobilenet_v2 (352
fusions in a function of ~5000 ops) took 11-13 s through the bindings, whose
printer flags cannot be set. `xtc-opt --mlir-print-assume-verified` skips
the verification: 4-5 s for the same schedule, and the same interpreter a
user runs by hand (README, "Applying a schedule with mlir-opt / xtc-opt").
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from schedgen.errors import SchedgenError, describe_death, one_line
from schedgen.ir.context import tool_path

if TYPE_CHECKING:
    from schedgen.model.plan import Plan

_ERROR = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<message>.*)$", re.MULTILINE)


def applies_with_tool(payload: Path | str, schedule: Path | str, timeout: float = 600,
                      shown: Path | str | None = None) -> None:
    """Nothing when `schedule` applies to `payload`; SchedgenError at the
    schedule's file:line:col (the first error xtc-opt reports), or saying how
    xtc-opt died, when it does not. The transformed IR is not kept. `shown`:
    the payload's name in messages (default `payload`)."""
    shown = payload if shown is None else shown
    cmd = [str(tool_path("xtc-opt")), str(payload), "--mlir-print-assume-verified",
           f"--transform-preload-library=transform-library-paths={schedule}",
           "--transform-interpreter", "-o", "/dev/null"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        raise SchedgenError(str(schedule), f"applying the schedule to {shown} timed out after "
                            f"{timeout:g} s") from None
    if proc.returncode == 0:
        return
    m = _ERROR.search(proc.stderr)
    if proc.returncode > 0 and m:
        raise SchedgenError(f"{m['file']}:{m['line']}:{m['col']}",
                            f"schedule does not apply to {shown}: {one_line(m['message'])}")
    raise SchedgenError(str(schedule), f"MLIR aborted while applying the schedule to {shown}: "
                        + describe_death(proc.returncode, proc.stderr, "applying the schedule", "xtc-opt"))


def applies_or_raise(payload: Path | str, schedule_text: str, plan_ops: Plan,
                     payload_text: bytes | None = None) -> None:
    """Apply a freshly rendered schedule to `payload` (or to `payload_text`,
    its text without the weights: context.without_resources); when it does
    not apply, a SchedgenError at the payload op its failing line handles (a
    planner bug: the plan promised what the transform ops cannot do)."""
    with tempfile.TemporaryDirectory(prefix="schedgen-gen-") as tmp:
        path = Path(tmp) / "schedule.mlir"
        path.write_text(schedule_text)
        applied = Path(payload)
        if payload_text is not None:
            applied = Path(tmp) / "payload.mlir"
            applied.write_bytes(payload_text)
        try:
            applies_with_tool(applied, path, shown=payload)
        except SchedgenError as exc:
            line = _line_number(exc.where, str(path))
            text = schedule_text.splitlines()[line - 1].strip() if line else ""
            ops = [int(m) for m in re.findall(r"%(?:n\d+_|k\d+_|cpu_)?op(\d+)\b", text)]
            op = next((o for o in plan_ops.ops if ops and o.index == ops[0]), None)
            where = f"{payload}:{op.line}" if op else str(payload)
            step = f" (schedule step `{text.split(' = ')[-1].split(' tile_sizes')[0][:80]}`)" if text else ""
            raise SchedgenError(where, f"internal: the schedule planned for this payload does not apply{step}: "
                                f"{exc.message.split(': ', 1)[-1]}; no schedule written",
                                op=op.name if op else None) from None


def _line_number(where: str, path: str) -> int | None:
    if not where.startswith(path + ":"):
        return None
    head = where[len(path) + 1:].split(":", 1)[0]
    return int(head) if head.isdigit() else None
