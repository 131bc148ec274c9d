"""The kernels the sweeps time (matmul_sizes.py, conv_sizes.py): one op onto
a zero-filled result, as torch-mlir emits a matmul or a convolution, and
its schedule."""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from schedgen.emit.schedule import render  # noqa: E402
from schedgen.ir.load import load_payload  # noqa: E402
from schedgen.model.payload import Payload  # noqa: E402
from schedgen.model.target import Target, load_target  # noqa: E402
from schedgen.planning.planner import plan  # noqa: E402


def onto_zeros(name: str, args: dict[str, str], result: str, op: str) -> str:
    """func @name(args) -> result: `op` (its ins named by `args`, its outs `%f`) onto a zero fill."""
    params = ", ".join(f"%{a}: {t}" for a, t in args.items())
    return (f"func.func @{name}({params}) -> {result} {{\n"
            "  %zero = arith.constant 0.0 : f32\n"
            f"  %e = tensor.empty() : {result}\n"
            f"  %f = linalg.fill ins(%zero : f32) outs(%e : {result}) -> {result}\n"
            f"  %r = {op}\n"
            f"  return %r : {result}\n}}\n")


def sweep_options(ap: argparse.ArgumentParser) -> None:
    """The options every sweep takes: thread counts, rounds, time per
    measurement, and the target the schedules are planned for."""
    ap.add_argument("--threads", nargs="*", type=int, default=[1, 2])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--min-time", type=float, default=0.5, help="seconds of timed runs per measurement")
    # Another machine's register shape and caches run here (an AVX2 plan on an AVX-512 host): whether a share of
    # peak another machine missed is the plan's or that machine's. % of peak stays this host's.
    ap.add_argument("--target", default="cpu-host", help="plan for this target (a preset or a .json/.toml file)")


def sweep_target(spec: str) -> Target:
    """The --target of a sweep, which must be a CPU one (the kernels are timed here)."""
    target = load_target(spec)
    if target.cpu is None:
        raise SystemExit(f"--target {spec}: not a CPU target (no `cpu` table)")
    print(f"planned for: {target.name} ({target.cpu.vector_bits}-bit vectors, {target.cpu.vector_registers} "
          f"registers, L2 {target.cpu.l2_bytes // 1024} KiB, {target.cpu.cores} cores)")
    return target


def planned(directory: Path, name: str, text: str, target: Target) -> tuple[Path, Path, Payload]:
    """The payload `text` written to `directory`, its schedule for `target`
    beside it (loaded and planned as `schedgen generate` does), and its model."""
    path, schedule = directory / f"{name}.mlir", directory / f"{name}.schedule.mlir"
    path.write_text(text)
    model = load_payload(path, cpu=True)
    schedule.write_text(render(plan(model, target)))
    return path, schedule, model


def median_and_fast(rounds: list[tuple[list[float], bool]]) -> tuple[float, float, bool]:
    """Over rounds of timed runs (and whether each ran alone): the median of
    the rounds' medians, the fastest tenth of all runs (its slowest), and
    whether every round ran alone. The 2-core VMs swing between states
    (the same schedule 0.61-0.93 ms on 2 threads): a median in a slow state
    next to a fast tenth that is not tells the VM apart from the schedule."""
    runs = sorted(t for times, _ in rounds for t in times)
    return (statistics.median(statistics.median(times) for times, _ in rounds),
            runs[max(0, len(runs) // 10 - 1)], all(ok for _, ok in rounds))
