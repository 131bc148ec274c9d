"""Fuzz generate -> apply -> verify with random payloads (the strategy of
tests/random_payloads.py: DAGs of 1-30 ops -- elementwise, broadcast,
reductions, transpose, matmul, conv, fill -- with static dims of 1 to 4096,
f32/f16/bf16/i32/i8, random budgets and fuse modes).

    .venv/bin/python benchmarks/fuzz.py 2000 [--seed 0] [--jobs 2] [--keep build/fuzz]

Prints the counts of passes, refusals (a one-line exit-2 error, e.g. a
budget below the smallest tile), crashes, mismatches, budget overruns and
ops computed more than once, with the time taken. Every example that is
not a pass or a clean refusal is written to --keep as payload + note.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from random_payloads import OUTCOMES, examples, run_many  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, help="number of examples")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--keep", type=Path, default=ROOT / "build" / "fuzz", help="where failing examples go")
    args = parser.parse_args()
    start = time.perf_counter()
    items = examples(args.n, args.seed)
    counts: Counter[str] = Counter()
    refusals: Counter[str] = Counter()
    args.keep.mkdir(parents=True, exist_ok=True)
    for k, (example, outcome) in enumerate(run_many(items, args.jobs), 1):
        counts[outcome.kind] += 1
        if outcome.kind == "refused":
            refusals[re.sub(r"\d+", "N", outcome.detail.split(".mlir", 1)[-1])[:90]] += 1
        elif outcome.kind != "pass":
            stem = args.keep / f"seed{args.seed}_{k:05d}_{outcome.kind}"
            stem.with_suffix(".mlir").write_text(example.text)
            stem.with_suffix(".txt").write_text(f"{outcome.kind}: --memory {example.budget} "
                                                f"--fuse-mode {example.mode}\n{outcome.detail}\n")
            print(f"  {outcome.kind}: {stem}.mlir", file=sys.stderr, flush=True)
        if k % 100 == 0:
            print(f"  {k}/{len(items)} ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    print(f"fuzz: {len(items)} examples, seed {args.seed}, {args.jobs} job(s), {elapsed:.0f} s "
          f"({elapsed / max(1, len(items)):.2f} s each)")
    names = {"pass": "passes", "refused": "refusals", "crash": "crashes", "mismatch": "mismatches",
             "overrun": "budget overruns", "recomputed": "computed more than once"}
    for kind in OUTCOMES:
        print(f"  {names[kind]:<24} {counts[kind]}")
    for why, n in refusals.most_common():
        print(f"    refused {n}: {why}")
    return 0 if all(counts[k] == 0 for k in OUTCOMES if k not in ("pass", "refused")) else 1


if __name__ == "__main__":
    sys.exit(main())
