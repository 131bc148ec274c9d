"""Apply a schedule in a child process, so that an MLIR/LLVM assertion (a
hand-edited `tile_sizes [0, 0]`, a reduction tiled through a `(d0, 0)`
map) ends in a one-line error instead of taking schedgen down with it.

The child (`python -m schedgen.ir.isolated --serve`, kept running between
requests: schedgen.child) writes the transformed payload to
OUT_DIR/out.mlir, or the user-facing error to OUT_DIR/error.json. The
parent runs it before it applies the same schedule in process (where it
needs the module itself): the interpreter is deterministic, so what
survived in the child survives there too.
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from schedgen.child import Worker, child_env, serve
from schedgen.errors import SchedgenError, describe_death
from schedgen.ir.diagnostics import split_warnings

ENTRY = "__transform_main"  # as schedgen.ir.apply (which this module must not import: it loads MLIR)


_WORKER = Worker("schedgen.ir.isolated")
atexit.register(_WORKER.stop)


def stop_worker() -> None:
    """Kill the child now (a caller that gave up waiting on it)."""
    _WORKER.stop()


def apply_isolated(payload: Path | str, schedule: Path | str, entry: str = ENTRY, timeout: float = 600,
                   warnings: list[str] | None = None) -> str:
    """The payload transformed by `schedule` (its `entry` sequence), as text
    (apply_isolated_to says the rest)."""
    with tempfile.TemporaryDirectory(prefix="schedgen-applied-") as tmp:
        out = Path(tmp) / "out.mlir"
        apply_isolated_to(payload, schedule, out, entry, timeout, warnings)
        return out.read_text()


def apply_isolated_to(payload: Path | str, schedule: Path | str, out: Path, entry: str = ENTRY,
                      timeout: float = 600, warnings: list[str] | None = None,
                      shown: Path | str | None = None) -> None:
    """Write the payload transformed by `schedule` (its `entry` sequence) to
    `out`: the text never passes through this process (a model's weights
    print as hex, twice their size). SchedgenError with
    the schedule's file:line when it does not apply, or when MLIR aborted the
    child. What the interpreter warned of goes to `warnings`, or without it
    to stderr as "schedgen: warning: ..." lines. `shown`: the payload's
    name in messages (default `payload`)."""
    payload, schedule = Path(payload), Path(schedule)
    shown = payload if shown is None else shown
    with tempfile.TemporaryDirectory(prefix="schedgen-apply-", dir=out.parent) as tmp:
        try:
            code, stderr = _WORKER.run([str(payload.resolve()), str(schedule.resolve()), entry, tmp], timeout)
        except TimeoutError:
            raise SchedgenError(str(schedule), f"applying the schedule to {shown} timed out after "
                                f"{timeout:g} s") from None
        error, made = Path(tmp) / "error.json", Path(tmp) / "out.mlir"
        printed, said = split_warnings(stderr)
        said = [w.replace(str(payload.resolve()), str(shown)) for w in said]
        if printed and (error.is_file() or made.is_file()):
            sys.stderr.write(printed)  # what the schedule printed (transform.print), as mlir-opt would show it
        if error.is_file():
            e = json.loads(error.read_text())
            # the child saw absolute paths; say them as the user did
            where = e["where"].replace(str(schedule.resolve()), str(schedule)).replace(str(payload.resolve()),
                                                                                      str(shown))
            raise SchedgenError(where, e["message"].replace(str(payload.resolve()), str(shown)), op=e["op"])
        if code != 0 or not made.is_file():
            line, op = _locate_abort(payload, schedule, entry, timeout, tmp)
            where = f"{schedule}:{line}" if line else str(schedule)
            at = f" at line {line} ({op})" if line else ""
            raise SchedgenError(where, f"MLIR aborted{at} while applying the schedule to {shown}: "
                                + describe_death(code, stderr, "applying the schedule", "the child process"))
        if warnings is not None:
            warnings.extend(said)
        for w in said if warnings is None else []:
            print(f"schedgen: warning: {schedule}: MLIR warned at {w}", file=sys.stderr)
        os.replace(made, out)


_STEP = "schedgen-step "


def _locate_abort(payload: Path, schedule: Path, entry: str, timeout: float,
                  directory: str) -> tuple[int | None, str]:
    """(schedule line, op name) of the transform op MLIR aborted in, or
    (None, ""): the schedule is applied once more in a fresh child, with a
    `transform.print` of the payload's top op (regions skipped) before each
    op of its sequences; the last one printed names the culprit. The marked
    copy goes to `directory`, which the caller removes: the child dies."""
    try:
        run = subprocess.run([sys.executable, "-m", "schedgen.ir.isolated", "--locate", str(payload.resolve()),
                              str(schedule.resolve()), entry, directory], capture_output=True, text=True,
                             timeout=timeout, env=child_env(), errors="replace")
    except subprocess.TimeoutExpired:
        return None, ""
    steps = [ln.split(_STEP, 1)[1].split(" top-level ]]]")[0] for ln in run.stdout.splitlines() if _STEP in ln]
    if run.returncode == 0 or not steps:
        return None, ""
    line, _, op = steps[-1].partition(" ")
    return int(line), op


def _with_steps(schedule_path: str) -> str:
    """The schedule with a step marker before each op of each named sequence."""
    from mlir import ir
    from mlir.dialects import transform

    from schedgen.ir.context import new_context, parse_file

    with new_context() as ctx, ir.Location.unknown():
        module = parse_file(Path(schedule_path), ctx, "schedule")
        for seq in module.body.operations:
            if seq.operation.name != "transform.named_sequence":
                continue
            for op in list(seq.regions[0].blocks[0].operations)[:-1]:  # not the terminator
                loc = op.location
                line = loc.start_line if loc.is_a_file() else 0
                transform.PrintOp(name=f"{_STEP}{line} {op.operation.name}", skip_regions=True,
                                  ip=ir.InsertionPoint(op))
        return str(module)


def _locate(payload: str, schedule: str, entry: str, directory: str) -> int:
    from schedgen.ir.apply import transform_payload

    marked = Path(directory) / "located.mlir"
    marked.write_text(_with_steps(schedule))
    transform_payload(payload, str(marked), entry)
    return 0


def _transform(payload_path: str, schedule_path: str, entry: str):
    """The payload transformed stage by stage (apply.stages); a CPU
    schedule's memory-fit tiles are checked before its register levels run
    (schedgen.ir.lint). Warnings go to fd 2, read by the parent."""
    from mlir import ir

    from schedgen.ir.apply import TILE_STAGE, apply_parsed, stages
    from schedgen.ir.context import new_context, parse_file
    from schedgen.ir.lint import refuse_oversized_tiles, refuse_oversized_vectors

    ctx = new_context()
    payload = parse_file(Path(payload_path), ctx, "payload")
    schedule = parse_file(Path(schedule_path), ctx, "schedule")
    with ctx, ir.Location.unknown():
        for stage in stages(schedule, entry):
            apply_parsed(payload, schedule, Path(payload_path), Path(schedule_path), stage, capture=False)
            if stage == TILE_STAGE and entry != TILE_STAGE:
                refuse_oversized_tiles(payload.operation, Path(schedule_path), TILE_STAGE)
            if stage != entry:
                refuse_oversized_vectors(payload.operation, Path(schedule_path), stage, entry)
    return payload


def _child(payload: str, schedule: str, entry: str, out_dir: str) -> int:
    try:
        module = _transform(payload, schedule, entry)
    except SchedgenError as exc:
        (Path(out_dir) / "error.json").write_text(json.dumps({"where": exc.where, "message": exc.message,
                                                               "op": exc.op}))
        return 2
    with open(Path(out_dir) / "out.mlir", "w") as f:
        module.operation.print(file=f)  # streamed: never the whole text in memory
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        sys.exit(serve(_child))
    if sys.argv[1:2] == ["--locate"] and len(sys.argv) == 6:
        sys.exit(_locate(*sys.argv[2:]))
    print("usage: python -m schedgen.ir.isolated --serve (internal: the worker of apply_isolated)", file=sys.stderr)
    sys.exit(2)
