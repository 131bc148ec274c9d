"""Verify a schedule on its payload: everything `check` reports (loop nests,
tiles, footprints measured on the transformed IR independently of the
planner, ops computed more than once), and the numbers: the original and
the transformed function executed on the same seeded inputs, every result
compared."""

from __future__ import annotations

import hashlib
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from pydantic import BaseModel, computed_field

from schedgen.check.check import CheckReport, NestReport, format_check, inspect
from schedgen.errors import ExecutionError
from schedgen.ir.apply import not_executable
from schedgen.ir.load import load
from schedgen.ir.normalize import runs_cpu_steps
from schedgen.progress import phase
from schedgen.run.arrays import random_inputs, read_inputs
from schedgen.run.compare import compare, no_further
from schedgen.run.execute import run_function
from schedgen.run.widen import widened

# verify runs its payloads unoptimized: it wants their numbers, and LLVM's -O3
# took longer than the run it speeds up even on whole models. Original /
# transformed payload, seconds to compile and run at -O0 and -O3 (Zen 4):
# mobilevit_xxs 6 / 17 and 480 / 44, densenet121 26 / 36 and 135 / 70,
# vit_ti16 5 and 42 (original), googlenet 13 and 36, resnet18 12 and 15.
# Without fast-math flags both levels give the same numbers.
_OPT_LEVEL = 0


class ResultCheck(BaseModel):
    index: int
    shape: list[int]
    dtype: str
    max_abs_err: float
    max_rel_err: float
    ok: bool
    # a half-precision result off by more than the tolerance: its distance, and
    # the original's, to the payload evaluated in f32 (schedgen.run.widen)
    f32_err: float | None = None
    original_f32_err: float | None = None
    # further than the original: whether the transformed payload, evaluated in f32 too, matches
    schedule_f32_ok: bool | None = None


class VerifyReport(BaseModel):
    check: CheckReport
    seed: int
    results: list[ResultCheck]
    inputs: str | None = None  # the .npz the inputs came from (else seeded random inputs)
    # the transformed results against the outputs saved in that .npz (out_0, ...), e.g. PyTorch's own
    reference: list[ResultCheck] = []
    # the original's against them too: when both are off, the payload (its export), not the schedule, differs
    reference_original: list[ResultCheck] = []

    @property
    def nests(self) -> list[NestReport]:
        return self.check.nests

    @property
    def budget_bytes(self) -> int:
        return self.check.budget_bytes

    @property
    def footprint(self) -> str:
        return self.check.footprint

    @property
    def op_counts_original(self) -> dict[str, int]:
        return self.check.op_counts_original

    @property
    def op_counts_transformed(self) -> dict[str, int]:
        return self.check.op_counts_transformed

    @computed_field  # type: ignore[prop-decorator]
    @property
    def numbers_ok(self) -> bool:
        return bool(self.results) and all(r.ok for r in self.results)

    @property
    def budget_ok(self) -> bool:
        return self.check.budget_ok

    @property
    def computed_once(self) -> bool:
        return self.check.computed_once

    @computed_field  # type: ignore[prop-decorator]
    @property
    def ok(self) -> bool:
        return self.numbers_ok and self.check.ok and all(r.ok for r in self.reference)


def verify(payload_path: Path | str, schedule_path: Path | str, func: str | None = None,
           memory: int | None = None, seed: int = 0,
           expected: list[np.ndarray] | None = None, footprint: str | None = None,
           inputs_path: Path | str | None = None,
           executed: dict[tuple[str, int, str], list[np.ndarray]] | None = None) -> VerifyReport:
    """`expected` lets a caller reuse the original payload's outputs for the
    same seed (the untiled payload is the slow one to execute). `inputs_path`:
    an .npz of inputs (and reference outputs) instead of seeded random ones.
    `executed`: outputs of transformed payloads already run, by their digest,
    seed and inputs (the same IR computes the same numbers); filled here."""
    payload_path = Path(payload_path)
    phase("loading the payload")
    loaded = load(payload_path, func, weights=False, cpu=runs_cpu_steps(schedule_path))  # the children parse them
    model = loaded.model
    with tempfile.TemporaryDirectory(prefix="schedgen-verify-") as tmp:
        transformed = Path(tmp) / "transformed.mlir"
        phase("applying the schedule and measuring the loop nests")
        report = inspect(loaded, schedule_path, memory, footprint, transformed)
        reference: list[np.ndarray] = []
        if inputs_path is not None:
            inputs, reference = read_inputs(inputs_path, list(model.arg_types))
        else:
            inputs = random_inputs(list(model.arg_types), seed)
        phase("executing the original and the transformed payload")
        expected, got = _execute(payload_path, (Path(schedule_path), transformed), model.func_name, inputs,
                                 expected, executed, (_digest(transformed), seed, str(inputs_path)))
        results = _checks(expected, got)
        if any(not r.ok and r.dtype in _HALF for r in results):
            phase("evaluating the payload in f32")
            judge_in_f32(results, (payload_path.read_text(), transformed), model.func_name, inputs, expected, got,
                         _OPT_LEVEL)
    phase("")
    return VerifyReport(check=report, seed=seed, results=results,
                        inputs=None if inputs_path is None else str(inputs_path),
                        reference=_checks(reference, got, _REFERENCE_TOLERANCE) if reference else [],
                        reference_original=_checks(reference, expected, _REFERENCE_TOLERANCE) if reference else [])


def _digest(path: Path) -> str:
    """What identifies a transformed payload (the same IR computes the same numbers)."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def _execute(payload: Path, transformed_by: tuple[Path, Path], func: str, inputs: list[np.ndarray],
             expected: list[np.ndarray] | None, executed: dict[tuple[str, int, str], list[np.ndarray]] | None,
             key: tuple[str, int, str]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The original's outputs (unless given) and the transformed payload's
    (unless in `executed`), both run at once in child processes that parse
    the files themselves. `transformed_by`: the schedule and the payload it
    transformed (a failure to run that one names the schedule)."""
    schedule, transformed = transformed_by
    with ThreadPoolExecutor(max_workers=2) as pool:
        want = pool.submit(run_function, payload, func, inputs, opt_level=_OPT_LEVEL) if expected is None else None
        got = executed.get(key) if executed is not None else None
        if got is None:
            try:
                got = run_function(transformed, func, inputs, opt_level=_OPT_LEVEL)
            except ExecutionError as exc:
                raise not_executable(schedule, transformed, exc.message) from None
        if executed is not None:
            executed[key] = got
        if want is not None:
            expected = want.result()
    assert expected is not None
    return expected, got


# A reference computed elsewhere (PyTorch, in another order, f32 statistics
# where the export upcasts) agrees to rounding, not bit for bit.
_REFERENCE_TOLERANCE = (1e-4, 1e-5)


_HALF = ("float16", "bfloat16")


def judge_in_f32(results: list[ResultCheck], texts: tuple[str, Path], func_name: str, inputs: list[np.ndarray],
                 expected: list[np.ndarray], got: list[np.ndarray], opt: int) -> None:
    """Judge the half-precision results that differ by more than the
    tolerance against the payload evaluated in f32: they pass when no
    further from it than the original's own results, or else when the
    transformed payload evaluated in f32 too agrees with it (to f32's
    reassociation tolerance): then the two differ only in how their orders
    round, not in what they sum. `texts`: the payload's text and the
    transformed payload's file."""
    payload_text, transformed = texts
    text = widened(payload_text, func_name)
    if text is None:
        return
    wide_inputs = [a.astype(np.float32) if a.dtype.name in _HALF else a for a in inputs]
    wide = run_function(text, func_name, wide_inputs, opt_level=opt)
    scheduled: list[np.ndarray] | None = None
    for r in results:
        if not r.ok and r.dtype in _HALF and r.index < len(got) and r.index < len(wide):
            r.ok, r.f32_err, r.original_f32_err = no_further(expected[r.index], got[r.index], wide[r.index], r.dtype)
            if r.ok:
                continue
            if scheduled is None:
                wide_schedule = widened(transformed.read_text(), func_name)
                scheduled = [] if wide_schedule is None else run_function(wide_schedule, func_name, wide_inputs,
                                                                           opt_level=opt)
            if r.index < len(scheduled):
                r.ok = r.schedule_f32_ok = compare([wide[r.index]], [scheduled[r.index]], ["float32"])[0].ok


def _checks(expected: list[np.ndarray], got: list[np.ndarray],
            tolerance: tuple[float, float] | None = None) -> list[ResultCheck]:
    checks = compare(expected, got, [str(e.dtype) for e in expected], tolerance)
    return [ResultCheck(index=c.index, shape=list(c.shape), dtype=c.dtype, max_abs_err=c.max_abs_err,
                        max_rel_err=c.max_rel_err, ok=c.ok) for c in checks]


def format_report(r: VerifyReport) -> str:
    c = r.check
    lines = [f"verify {c.schedule} on {c.payload} @{c.func} ("
             + (f"inputs from {r.inputs}" if r.inputs else f"seed {r.seed}") + ")",
             "results (original vs transformed, executed):"]
    for res in r.results:
        lines.append(f"  result {res.index} {res.dtype}{res.shape}: max abs err {res.max_abs_err:.3g}, "
                     f"max rel err {res.max_rel_err:.3g}  {'ok' if res.ok else 'MISMATCH'}")
        if res.f32_err is not None:
            lines.append(f"    against the payload in f32: max abs err {res.f32_err:.3g} "
                         f"(the original's: {res.original_f32_err:.3g})"
                         + ("  ok: as close as the original" if res.ok and res.schedule_f32_ok is None
                            else "  further than the original"))
        if res.schedule_f32_ok is not None:
            lines.append("    the transformed payload in f32 against the payload in f32: "
                         + ("ok: the same sum, rounded in another order" if res.schedule_f32_ok else "MISMATCH"))
    if r.reference:
        lines.append(f"results (transformed vs the outputs saved in {r.inputs}):")
    for res, orig in zip(r.reference, r.reference_original or [None] * len(r.reference)):
        lines.append(f"  result {res.index} {res.dtype}{res.shape}: max abs err {res.max_abs_err:.3g}, "
                     f"max rel err {res.max_rel_err:.3g}  {'ok' if res.ok else 'MISMATCH'}")
        if not res.ok and orig is not None and not orig.ok:
            lines.append(f"    the untransformed payload too (max abs err {orig.max_abs_err:.3g}): "
                         "the payload computes other numbers than the saved outputs, before any schedule")
    body = format_check(c).splitlines()[:-1]  # its own verdict line is replaced by the combined one
    lines += body
    lines.append("verdict: " + ("PASS" if r.ok else "FAIL"))
    return "\n".join(lines)
