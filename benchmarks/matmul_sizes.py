"""Matmul cost against size: schedgen's cpu-host schedule next to numpy
(OpenBLAS) on the sizes of issue 16's table, interleaved in one run.

    .venv/bin/python benchmarks/matmul_sizes.py [--threads 1 2] [--rounds 3] [--sizes 256x256x256 ...] [--target T]

--target plans for another machine and times the plans here, % of peak
still this host's: `--target benchmarks/targets/zen3-avx2.json` runs the
AVX2 plans of the Zen 3 VM (sessions 68-76) on any host, which tells a
share of peak that machine missed apart from what its plans can reach.

Sizes are M x N x K (C[M, N] += A[M, K] B[K, N], f32). Per size and thread
count, one child process (OPENBLAS_NUM_THREADS set to the count) JIT-compiles
the transformed payload once (`schedgen.run.jit.compiled`) and then, for
each round, times schedgen and numpy in turn on the same arrays, each for
--min-time seconds (10 rounds of 0.2 s by default). Each pair of turns
sees the machine in one state, which on the 2-core VMs swings by 30%
between minutes: with 3 rounds of 0.5 s, 1024³ came out at 0.83 and 1.09
of numpy's speed in two runs a minute apart; with 10 of 0.2 s, two runs
agreed within 0.1 on every ratio. Before each turn the child pauses
(PAUSE_S) and makes one untimed call: a library's worker threads keep
spinning after its last call (Intel OpenMP's, which runs schedgen's
parallel loops, for KMP_BLOCKTIME, 200 ms; OpenBLAS's too), and on 2 cores
a worker still spinning took a core from the other's turn at 2 threads.
Without the pause, the turn right after numpy's ran 256³ at 0.52 of
numpy's speed and the same schedule's next turn at 1.08; with it, both at
1.03-1.05. The figure is the median over rounds. It prints ms, GFLOP/s, % of the measured peak
(`schedgen peak`, per core times the threads), the % of peak of schedgen's
fastest tenth of runs (kernels.median_and_fast), and schedgen's speed over
numpy's.

Only an idle machine gives figures worth keeping: a child during which
other processes used more than 10% of a core (from /proc/stat, against
this process's and its children's CPU time) is discarded and run again, up
to three times; a figure that never ran alone is marked with `~`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from idle import alone  # noqa: E402
from kernels import median_and_fast, onto_zeros, planned, sweep_options, sweep_target  # noqa: E402
from machine import print_machine  # noqa: E402

from schedgen.ir.isolated import apply_isolated_to  # noqa: E402

PAUSE_S = 0.3  # longer than KMP_BLOCKTIME's 200 ms
SIZES = ["256x256x256", "512x512x512", "1024x1024x1024", "1000x1000x1000", "2048x2048x2048",
         "384x197x768", "197x768x768"]

_PAIR = """
import json, sys, time
import numpy as np
from schedgen.ir.load import load_payload
from schedgen.run.arrays import random_inputs
from schedgen.run.jit import compiled
payload, module, rounds, slice_s = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
model = load_payload(payload)
inputs = random_inputs(list(model.arg_types), seed=0)
a, b = inputs
c = np.empty((a.shape[0], b.shape[1]), dtype=np.float32)


def numpy_calls(n):
    times = []
    for _ in range(n):
        t = time.perf_counter(); np.matmul(a, b, out=c); times.append(time.perf_counter() - t)
    return times


got = {"schedgen": [], "numpy": []}
PAUSE_S = float(sys.argv[6])
with compiled(module, model.func_name, inputs, int(sys.argv[5])) as schedgen_calls:
    calls = {"schedgen": lambda n: schedgen_calls(n)[1], "numpy": numpy_calls}
    numpy_calls(1)
    for _ in range(rounds):
        for who, call in calls.items():
            time.sleep(PAUSE_S)  # the other's workers stop spinning (see the module's docstring)
            call(1)
            times, start = [], time.perf_counter()
            while len(times) < 3 or time.perf_counter() - start < slice_s:
                times += call(3)
            got[who].append(times)
print(json.dumps(got))
"""


def payload(m: int, n: int, k: int) -> str:
    a, b, c = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    return onto_zeros("matmul", {"a": a, "b": b}, c, f"linalg.matmul ins(%a, %b : {a}, {b}) outs(%f : {c}) -> {c}")


def paired(payload_path: Path, module: Path, threads: int, rounds: int, min_seconds: float) -> dict:
    """Per round, schedgen's and numpy's call times, taken in turn in one child."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", _PAIR, str(payload_path), str(module), str(rounds), str(min_seconds),
                          str(threads), str(PAUSE_S)], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="*", default=SIZES, help="M x N x K")
    sweep_options(ap)
    # shorter turns, more of them: each pair of turns sees the machine in one state (two runs of 10 x 0.2 s
    # agreed within 0.1 on every ratio; of 3 x 0.5 s, 1024^3 gave 0.83 and 1.09 a minute apart)
    ap.set_defaults(rounds=10, min_time=0.2)
    args = ap.parse_args()
    peak = print_machine()
    target = sweep_target(args.target)
    with tempfile.TemporaryDirectory(prefix="schedgen-sizes-") as tmp:
        cases = []
        for size in args.sizes:
            m, n, k = (int(x) for x in size.lower().split("x"))
            path, schedule, _ = planned(Path(tmp), size, payload(m, n, k), target)
            module = Path(tmp) / f"{size}.transformed.mlir"
            apply_isolated_to(path, schedule, module)
            cases.append((size, m, n, k, path, module))
        got: dict[tuple[str, int, str], list[tuple[list[float], bool]]] = {}
        for size, m, n, k, path, module in cases:
            for t in args.threads:
                times, ok = alone(lambda: paired(path, module, t, args.rounds, args.min_time))
                for who, rounds in times.items():
                    got[(size, t, who)] = [(r, ok) for r in rounds]
            print(f"  {size} done", file=sys.stderr, flush=True)
    print(f"{'M x N x K':<16} {'thr':>3} {'schedgen ms':>12} {'GFLOP/s':>8} {'% peak':>7} {'p10 %':>6} "
          f"{'numpy ms':>10} {'GFLOP/s':>8} {'% peak':>7} {'schedgen/numpy speed':>21}")
    for size, m, n, k, *_ in cases:
        flop = 2 * m * n * k
        for t in args.threads:
            cells = []
            for who in ("schedgen", "numpy"):
                s, fast, ok = median_and_fast(got[(size, t, who)])
                mark = "" if ok else "~"
                pct = f"{100 * flop / s / 1e9 / (peak * t):.0f}%" if peak else "-"
                p10 = f"{100 * flop / fast / 1e9 / (peak * t):.0f}%" if peak else "-"
                cells.append((s, f"{mark}{s * 1e3:.2f}", f"{flop / s / 1e9:.1f}", pct, p10))
            (s1, ms1, g1, p1, f1), (s2, ms2, g2, p2, _) = cells
            print(f"{size:<16} {t:>3} {ms1:>12} {g1:>8} {p1:>7} {f1:>6} {ms2:>10} {g2:>8} {p2:>7} {s2 / s1:>21.2f}")


if __name__ == "__main__":
    main()
