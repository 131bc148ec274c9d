"""schedgen's CPU schedules against IREE and numpy/OpenBLAS, side by side.

For matmul 1024 + bias + relu, the tutorial convolution, the MLP, softmax and
layernorm, at 1 and 2 threads: the untransformed payload (1 thread, one run:
it is slow), schedgen's schedule for `cpu-host`, IREE 3.13 (llvm-cpu, host
CPU; with its default flags and with IREE_TUNED's) and, for the matmul,
numpy (OpenBLAS). Prints median times, GFLOP/s, % of peak and the ratio
schedgen / each peer.

    pip install -e '.[bench]'        # IREE compiler and runtime
    python benchmarks/cpu_vs_peers.py [--repeats 5] [--threads 1 2] [--skip-untransformed]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from schedgen.analysis.flops import payload_flops  # noqa: E402
from schedgen.emit.schedule import render  # noqa: E402
from schedgen.ir.apply import apply_schedule  # noqa: E402
from schedgen.ir.load import load_payload  # noqa: E402
from schedgen.model.cpu import write_peak
from schedgen.model.target import host_target  # noqa: E402
from schedgen.planning.planner import plan  # noqa: E402
from schedgen.progress import progress  # noqa: E402
from schedgen.run.arrays import random_inputs
from schedgen.run.bench import bench  # noqa: E402
from schedgen.run.execute import time_function
from schedgen.run.peak import measure_peak

KERNELS = ["matmul_bias_relu", "conv_bias_relu", "mlp", "softmax", "layernorm"]


def _tool(name: str) -> str | None:
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


# IREE's CPU flags beyond the default that issue 16 measured (data tiling, microkernels, im2col for
# convolutions): IREE at its best on this machine, not its default.
IREE_TUNED = ("--iree-opt-data-tiling", "--iree-llvmcpu-enable-ukernels=all",
              "--iree-global-opt-use-im2col-for-convs")


def iree_times(payload: Path, func: str, inputs: list[np.ndarray], threads: int, repeats: int,
               work: Path, flags: tuple[str, ...] = ()) -> float | str:
    """Median seconds of iree-benchmark-module on `payload` compiled with
    `flags` beyond the default, or why there is none."""
    compiler, runner = _tool("iree-compile"), _tool("iree-benchmark-module")
    if not compiler or not runner:
        return "IREE not installed (pip install -e '.[bench]')"
    vmfb = work / f"{payload.stem}{'.tuned' if flags else ''}.vmfb"
    if not vmfb.exists():
        out = subprocess.run([compiler, str(payload), "--iree-hal-target-device=local",
                              "--iree-hal-local-target-device-backends=llvm-cpu",
                              "--iree-llvmcpu-target-cpu=host", *flags, "-o", str(vmfb)],
                             capture_output=True, text=True)
        if out.returncode != 0:
            return "iree-compile failed: " + (out.stderr.strip().splitlines() or ["?"])[0][:200]
    args = [runner, f"--module={vmfb}", "--device=local-task", f"--function={func}",
            f"--task_topology_max_group_count={threads}", f"--benchmark_repetitions={repeats}",
            "--benchmark_format=json"]
    for i, a in enumerate(inputs):
        path = work / f"{payload.stem}_in{i}.npy"
        np.save(path, a)
        args.append(f"--input=@{path}")
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        return "iree-benchmark-module failed: " + (out.stderr.strip().splitlines() or ["?"])[-1][:80]
    data = json.loads(out.stdout[out.stdout.index("{"):])
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    runs = [b["real_time"] * scale[b["time_unit"]] for b in data["benchmarks"] if b.get("run_type") == "iteration"]
    return statistics.median(runs)


_NUMPY = """
import os, sys, time, numpy as np
rng = np.random.default_rng(0)
a = rng.uniform(-1, 1, (1024, 1024)).astype(np.float32)
b = rng.uniform(-1, 1, (1024, 1024)).astype(np.float32)
bias = rng.uniform(-1, 1, 1024).astype(np.float32)
def run():
    return np.maximum(a @ b + bias, 0)
run()
ts = []
for _ in range(int(sys.argv[1])):
    t0 = time.perf_counter(); run(); ts.append(time.perf_counter() - t0)
print(sorted(ts)[len(ts) // 2])
"""


def numpy_time(threads: int, repeats: int) -> float:
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, "-c", _NUMPY, str(repeats)], capture_output=True, text=True, env=env,
                         check=True)
    return float(out.stdout.strip())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5, help="timed calls per round (after a warm-up)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds over every configuration, interleaved; the table shows the median of the "
                         "rounds' medians (shared VMs drift by tens of percent over seconds)")
    ap.add_argument("--min-time", type=float, default=0.5,
                    help="seconds of timed calls per round at least (iree-benchmark-module's default too)")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--kernels", nargs="+", default=KERNELS, choices=KERNELS)
    ap.add_argument("--skip-untransformed", action="store_true", help="the untransformed payloads take ~40 s")
    args = ap.parse_args()

    target = host_target()
    cpu = target.cpu
    assert cpu is not None
    peak = measure_peak(cpu)  # measured now, on the same machine state as the table
    write_peak(cpu, peak)
    print(f"machine: {cpu.model}, {cpu.cores} cores, {cpu.vector_bits}-bit vectors, L1 {cpu.l1_bytes // 1024} KiB, "
          f"L2 {cpu.l2_bytes // 1024} KiB; peak {peak:.0f} GFLOP/s per core (FMA loop through MLIR)")
    rows = []
    with tempfile.TemporaryDirectory(prefix="schedgen-peers-") as tmp:
        work = Path(tmp)
        cases = []
        for kernel in args.kernels:
            payload = ROOT / "payloads" / f"{kernel}.mlir"
            model = load_payload(payload, cpu=True)
            schedule = work / f"{kernel}.cpu-host.mlir"
            schedule.write_text(render(plan(model, target)))
            cases.append((kernel, payload, model, apply_schedule(payload, schedule),
                          random_inputs(list(model.arg_types), 0)))
        samples: dict[tuple[str, int, str], list[float | str]] = {}
        with progress("peer rounds", total=args.rounds * len(cases) * len(args.threads), unit=" config") as bar:
            for r in range(args.rounds):
                for kernel, payload, model, transformed, inputs in cases:
                    for t in args.threads:
                        bar.status(f"round {r + 1}/{args.rounds}: {kernel}, {t} thread(s)")
                        _, times = time_function(transformed, model.func_name, inputs, threads=t,
                                                 repeats=args.repeats, warmup=1, min_seconds=args.min_time)
                        samples.setdefault((kernel, t, "ours"), []).append(statistics.median(times))
                        samples.setdefault((kernel, t, "iree"), []).append(
                            iree_times(payload, model.func_name, inputs, t, args.repeats, work))
                        samples.setdefault((kernel, t, "tuned"), []).append(
                            iree_times(payload, model.func_name, inputs, t, args.repeats, work, IREE_TUNED))
                        if kernel == "matmul_bias_relu":
                            samples.setdefault((kernel, t, "blas"), []).append(numpy_time(t, args.repeats))
                        bar.update()
                    bar.write(f"  round {r + 1}/{args.rounds}: {kernel}")

        def summary(key: tuple[str, int, str]) -> float | str | None:
            got = samples.get(key)
            if not got:
                return None
            failures = [x for x in got if isinstance(x, str)]
            return failures[0] if failures else statistics.median([x for x in got if isinstance(x, float)])

        for kernel, payload, model, _, _ in cases:
            flops = payload_flops(model)
            untransformed = None
            if not args.skip_untransformed:
                untransformed = bench(payload, None, 1, repeats=1, warmup=0).median_s
            for t in args.threads:
                rows.append((kernel, t, flops, untransformed if t == 1 else None, summary((kernel, t, "ours")),
                             summary((kernel, t, "iree")), summary((kernel, t, "tuned")),
                             summary((kernel, t, "blas"))))

    def cell(seconds: float | str | None, flops: int, threads: int) -> str:
        if seconds is None:
            return "-"
        if isinstance(seconds, str):
            return seconds
        g = flops / seconds / 1e9
        return f"{seconds * 1e3:9.2f} ms {g:7.1f} GF/s {100 * g / (peak * threads):4.0f}%"

    print()
    print(f"{'kernel':<17} {'thr':>3}  {'untransformed':<29} {'schedgen':<29} {'IREE 3.13':<29} "
          f"{'IREE 3.13 tuned':<29} {'numpy/OpenBLAS':<29} {'sg/IREE':>7} {'sg/tuned':>8} {'sg/BLAS':>7}")
    by_key = {}
    for kernel, t, flops, raw, ours, iree, tuned, blas in rows:
        by_key[(kernel, t)] = ours
        r_iree = f"{iree / ours:7.2f}" if isinstance(iree, float) else "      -"
        r_tuned = f"{tuned / ours:8.2f}" if isinstance(tuned, float) else "       -"
        r_blas = f"{blas / ours:7.2f}" if isinstance(blas, float) else "      -"
        print(f"{kernel:<17} {t:>3}  {cell(raw, flops, t):<29} {cell(ours, flops, t):<29} {cell(iree, flops, t):<29} "
              f"{cell(tuned, flops, t):<29} {cell(blas, flops, t):<29} {r_iree} {r_tuned} {r_blas}")
    print("\nschedgen / peer is a speed ratio (peer time / schedgen time): above 1 means schedgen is faster.")
    for kernel in args.kernels:
        if (kernel, 1) in by_key and (kernel, 2) in by_key:
            print(f"  {kernel}: 2 threads run {by_key[(kernel, 1)] / by_key[(kernel, 2)]:.2f}x the 1-thread speed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
