"""Matmul cost against size: schedgen's cpu-host schedule next to numpy
(OpenBLAS) on the sizes of issue 16's table, interleaved in one run.

    .venv/bin/python benchmarks/matmul_sizes.py [--threads 1 2] [--rounds 3] [--sizes 256x256x256 ...]

Sizes are M x N x K (C[M, N] += A[M, K] B[K, N], f32). Per size and thread
count, each round times schedgen (`schedgen.run.bench`: the transformed
payload in its execution child, the median of runs adding up to
--min-time) and then numpy in a child of its own (OPENBLAS_NUM_THREADS set
to the same count); the figure is the median over rounds. It prints ms,
GFLOP/s, % of the measured peak (`schedgen peak`, per core times the
threads), the % of peak of schedgen's fastest tenth of runs
(kernels.median_and_fast), and schedgen's speed over numpy's.

Only an idle machine gives figures worth keeping: a measurement during
which other processes used more than 10% of a core (from /proc/stat,
against this process's and its children's CPU time) is discarded and
taken again, up to three times; a figure that never ran alone is marked
with `~`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from idle import alone  # noqa: E402
from kernels import median_and_fast, onto_zeros, planned, sweep_options  # noqa: E402
from machine import print_machine  # noqa: E402

from schedgen.model.target import host_target  # noqa: E402
from schedgen.run.bench import bench  # noqa: E402

SIZES = ["256x256x256", "512x512x512", "1024x1024x1024", "1000x1000x1000", "2048x2048x2048",
         "384x197x768", "197x768x768"]

_NUMPY = """
import os, statistics, sys, time
import numpy as np
m, n, k, min_s = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
rng = np.random.default_rng(0)
a, b = rng.standard_normal((m, k), dtype=np.float32), rng.standard_normal((k, n), dtype=np.float32)
c = np.empty((m, n), dtype=np.float32)
np.matmul(a, b, out=c)
times, start = [], time.perf_counter()
while len(times) < 5 or time.perf_counter() - start < min_s:
    t = time.perf_counter(); np.matmul(a, b, out=c); times.append(time.perf_counter() - t)
print(statistics.median(times))
"""


def payload(m: int, n: int, k: int) -> str:
    a, b, c = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    return onto_zeros("matmul", {"a": a, "b": b}, c, f"linalg.matmul ins(%a, %b : {a}, {b}) outs(%f : {c}) -> {c}")


def numpy_seconds(m: int, n: int, k: int, threads: int, min_seconds: float) -> float:
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, "-c", _NUMPY, str(m), str(n), str(k), str(min_seconds)],
                         capture_output=True, text=True, env=env, check=True)
    return float(out.stdout.strip())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="*", default=SIZES, help="M x N x K")
    sweep_options(ap)
    args = ap.parse_args()
    peak = print_machine()
    target = host_target()
    with tempfile.TemporaryDirectory(prefix="schedgen-sizes-") as tmp:
        cases = []
        for size in args.sizes:
            m, n, k = (int(x) for x in size.lower().split("x"))
            cases.append((size, m, n, k, *planned(Path(tmp), size, payload(m, n, k), target)))
        got: dict[tuple[str, int, str], list[tuple[list[float], bool]]] = {}
        for r in range(args.rounds):
            for size, m, n, k, path, schedule, model in cases:
                for t in args.threads:
                    got.setdefault((size, t, "schedgen"), []).append(alone(lambda: bench(
                        path, schedule, threads=t, min_seconds=args.min_time, model=model).times_s))
                    got.setdefault((size, t, "numpy"), []).append(
                        alone(lambda: [numpy_seconds(m, n, k, t, args.min_time)]))
            print(f"  round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
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
