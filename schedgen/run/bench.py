"""Benchmark a payload on this CPU: compile it (as it is, or transformed by a
schedule), run it a few times after a warm-up, and report the median time,
GFLOP/s (operations counted from the linalg ops) and the share of the
machine's peak."""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from pydantic import BaseModel

from schedgen.analysis.flops import payload_flops
from schedgen.errors import ExecutionError
from schedgen.ir.apply import not_executable
from schedgen.ir.load import load_payload
from schedgen.model.payload import Payload
from schedgen.progress import progress
from schedgen.run.arrays import random_inputs, read_inputs
from schedgen.run.execute import time_function


class BenchResult(BaseModel):
    payload: str
    schedule: str | None  # None: the untransformed payload
    threads: int
    flops: int
    times_s: list[float]
    median_s: float
    gflops: float
    peak_gflops: float | None  # of `threads` cores
    percent_of_peak: float | None


def bench(payload_path: Path | str, schedule_path: Path | str | None = None, threads: int = 1,
          repeats: int = 5, warmup: int = 1, peak_per_core: float | None = None, func: str | None = None,
          timeout: float = 1800, min_seconds: float = 0.2, inputs_path: Path | str | None = None,
          model: Payload | None = None) -> BenchResult:
    """`inputs_path`: an .npz of inputs (in_0, ...) instead of seeded random ones;
    `model`: the payload's model if the caller loaded it already."""
    from schedgen.ir.isolated import apply_isolated_to

    payload_path = Path(payload_path)
    # The runs are timed in a child process (schedgen.run.execute): the bar shows the phase, not each run.
    phases = "{desc}: step {n_fmt}/{total_fmt} [{elapsed}]{postfix}"
    with progress(f"bench {payload_path.name}", total=2, bar_format=phases) as bar, \
            tempfile.TemporaryDirectory(prefix="schedgen-bench-") as tmp:
        bar.status("applying the schedule" if schedule_path else "loading")
        model = model or load_payload(payload_path, func)
        # in a child process: a schedule that makes MLIR abort is a one-line error
        module = Path(tmp) / "transformed.mlir" if schedule_path else payload_path
        if schedule_path:
            apply_isolated_to(payload_path, schedule_path, module)
        inputs = read_inputs(inputs_path, list(model.arg_types))[0] if inputs_path is not None \
            else random_inputs(list(model.arg_types), seed=0)
        bar.update()
        bar.status(f"compiling, {warmup} warm-up + {repeats}+ timed runs"
                   + (f" (at least {min_seconds:g} s)" if min_seconds else ""))
        try:
            _, times = time_function(module, model.func_name, inputs, timeout=timeout, threads=threads,
                                     repeats=repeats, warmup=warmup, min_seconds=min_seconds)
        except ExecutionError as exc:
            if not schedule_path:
                raise
            raise not_executable(schedule_path, module, exc.message) from None
        bar.update()
    median = statistics.median(times)
    flops = payload_flops(model)
    gflops = flops / median / 1e9 if median > 0 else 0.0
    peak = peak_per_core * threads if peak_per_core else None
    return BenchResult(payload=str(payload_path), schedule=str(schedule_path) if schedule_path else None,
                       threads=threads, flops=flops, times_s=times, median_s=median, gflops=gflops,
                       peak_gflops=peak, percent_of_peak=100 * gflops / peak if peak else None)


def format_bench(r: BenchResult) -> str:
    what = f"schedule {r.schedule}" if r.schedule else "untransformed"
    peak = f", {r.percent_of_peak:.0f}% of peak ({r.peak_gflops:.0f} GFLOP/s on {r.threads} core(s))" \
        if r.percent_of_peak is not None else ""
    return (f"bench {r.payload} ({what}), {r.threads} thread(s), {len(r.times_s)} runs after warm-up\n"
            f"  median {r.median_s * 1e3:.2f} ms, {r.flops / 1e9:.3f} GFLOP -> {r.gflops:.1f} GFLOP/s{peak}")

