"""Verify a schedule on its payload: apply it, execute the original and the
transformed function on the same seeded inputs and compare every result, and
measure every loop body's footprint on the transformed IR, independently of
the planner."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from schedgen.apply import TILE_STAGE, ScheduleInfo, read_schedule_info, transform_payload
from schedgen.errors import SchedgenError
from schedgen.execute import compare, random_inputs, run_function
from schedgen.measure import measure
from schedgen.payload import Payload, load_payload


class ResultCheck(BaseModel):
    index: int
    shape: list[int]
    dtype: str
    max_abs_err: float
    max_rel_err: float
    ok: bool


class NestCheck(BaseModel):
    loop: str
    line: int
    ops: list[str]
    innermost_loops: int
    footprint_bytes: int | None  # measured on the transformed IR
    planned_bytes: int | None = None  # what the schedule says the planner computed
    budget_bytes: int
    ok: bool
    problem: str | None = None


class VerifyReport(BaseModel):
    payload: str
    schedule: str
    func: str
    budget_bytes: int
    footprint: str  # "analytic" or "precise" measurement
    seed: int
    results: list[ResultCheck]
    nests: list[NestCheck]  # loop nests, then untiled ops (loop = "untiled")
    op_counts_original: dict[str, int]
    op_counts_transformed: dict[str, int]
    numbers_ok: bool
    budget_ok: bool
    computed_once: bool
    ok: bool


def budget_for(schedule: Path, memory: int | None, info: ScheduleInfo) -> int:
    if memory is not None:
        return memory
    if info.memory_bytes is None:
        raise SchedgenError(str(schedule), "schedule does not say its memory budget "
                            "(schedgen.memory_bytes); pass --memory or --target")
    return info.memory_bytes


def verify(payload_path: Path | str, schedule_path: Path | str, func: str | None = None,
           memory: int | None = None, seed: int = 0,
           expected: list[np.ndarray] | None = None, footprint: str | None = None) -> VerifyReport:
    """`expected` lets a caller reuse the original payload's outputs for the
    same seed (the untiled payload is the slow one to execute)."""
    payload_path, schedule_path = Path(payload_path), Path(schedule_path)
    model: Payload = load_payload(payload_path, func)
    info = read_schedule_info(schedule_path)
    budget = budget_for(schedule_path, memory, info)
    mode = footprint or info.footprint
    module = transform_payload(payload_path, schedule_path)
    # A CPU schedule bufferizes and lowers: its loop nests are measured on tensors, after its tiling stage.
    tiled = transform_payload(payload_path, schedule_path, TILE_STAGE) if info.tile_stage else module
    with tiled.context:  # on the module itself: its ops keep the payload's lines
        measured = measure(tiled, model.func_name, info.alignment_bytes, precise=mode == "precise")
    transformed = str(module)
    original_counts = dict(Counter(op.name for op in model.ops))

    inputs = random_inputs(list(model.arg_types), seed)
    with ThreadPoolExecutor(max_workers=2) as pool:  # both run in child processes
        want = pool.submit(run_function, payload_path.read_text(), model.func_name, inputs) \
            if expected is None else None
        got = run_function(transformed, model.func_name, inputs)
        if want is not None:
            expected = want.result()
    assert expected is not None
    checks = compare(expected, got, [str(e.dtype) for e in expected])
    results = [ResultCheck(index=c.index, shape=list(c.shape), dtype=c.dtype, max_abs_err=c.max_abs_err,
                           max_rel_err=c.max_rel_err, ok=c.ok) for c in checks]

    # The schedule lists the planner's figures in the order its loops appear
    # in the transformed IR (program order of their roots).
    planned = list(info.nest_footprints) if len(info.nest_footprints) == len(measured.nests) \
        else [None] * len(measured.nests)
    nests = [NestCheck(loop=n.loop, line=n.line, ops=n.ops, innermost_loops=n.innermost_loops,
                       footprint_bytes=n.footprint_bytes, planned_bytes=p, budget_bytes=budget, problem=n.problem,
                       ok=n.footprint_bytes is not None and n.footprint_bytes <= budget)
             for n, p in zip(measured.nests, planned)]
    nests += [NestCheck(loop="untiled", line=u.line, ops=[u.name], innermost_loops=0,
                        footprint_bytes=u.footprint_bytes, budget_bytes=budget, problem=u.problem,
                        ok=u.footprint_bytes is not None and u.footprint_bytes <= budget)
              for u in measured.untiled]
    numbers_ok = bool(results) and all(r.ok for r in results)
    budget_ok = all(n.ok for n in nests)
    once = all(measured.op_counts.get(k, 0) <= v for k, v in original_counts.items()) and \
        set(measured.op_counts) <= set(original_counts)
    return VerifyReport(payload=str(payload_path), schedule=str(schedule_path), func=model.func_name,
                        budget_bytes=budget, footprint=mode, seed=seed, results=results, nests=nests,
                        op_counts_original=original_counts, op_counts_transformed=measured.op_counts,
                        numbers_ok=numbers_ok, budget_ok=budget_ok, computed_once=once,
                        ok=numbers_ok and budget_ok and once)


def format_report(r: VerifyReport) -> str:
    lines = [f"verify {r.schedule} on {r.payload} @{r.func} (seed {r.seed}, budget {r.budget_bytes} bytes)",
             "results (original vs transformed, executed):"]
    for c in r.results:
        lines.append(f"  result {c.index} {c.dtype}{c.shape}: max abs err {c.max_abs_err:.3g}, "
                     f"max rel err {c.max_rel_err:.3g}  {'ok' if c.ok else 'MISMATCH'}")
    lines.append(f"footprint per loop nest ({r.footprint}, measured on the transformed IR, largest innermost body;"
                 " planner's figure in brackets):")
    for n in r.nests:
        fp = "?" if n.footprint_bytes is None else str(n.footprint_bytes)
        what = f"{n.loop} (payload line {n.line})" + (f", {n.innermost_loops} innermost loop(s)" if n.innermost_loops else "")
        planned = f" [{n.planned_bytes}]" if n.planned_bytes is not None else ""
        lines.append(f"  {what}: {fp}{planned} / {n.budget_bytes} bytes  {'ok' if n.ok else 'OVER BUDGET'}"
                     f"  [{', '.join(n.ops)}]" + (f" ({n.problem})" if n.problem else ""))
    counts = ", ".join(f"{k} {r.op_counts_transformed.get(k, 0)}/{v}" for k, v in r.op_counts_original.items())
    lines.append(f"ops after/before: {counts}  {'ok' if r.computed_once else 'COMPUTED MORE THAN ONCE'}")
    lines.append("verdict: " + ("PASS" if r.ok else "FAIL"))
    return "\n".join(lines)
