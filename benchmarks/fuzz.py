"""Fuzz generate -> apply -> verify with random payloads (the strategy of
tests/random_payloads.py), or fuzz hand edits of their schedules
(tests/schedule_mutations.py).

    .venv/bin/python benchmarks/fuzz.py 2000 [--seed 0] [--jobs 2] [--keep build/fuzz]
        [--target memory|cpu-host|cpu-avx512|PRESET] [--footprint analytic|precise]
        [--mutate-schedules]

--target memory (the default) plans each example for its own random budget
(256 B to 512 KiB: what the memory presets differ in) and wants the numbers
bit for bit; a CPU preset plans its cache levels and register kernels and
wants them within the element type's tolerance. Prints the counts of passes,
refusals (a one-line exit-2 error, e.g. a budget below the smallest tile)
by reason, crashes, mismatches, budget overruns and ops computed more than
once, with the time taken.

--mutate-schedules edits each generated schedule the way a person would
(tile sizes of 0, 1, non-divisors, larger than the dim; deleted, duplicated
and swapped lines; a wrong handle; a removed apply_cse/apply_dce) and runs
apply, check and verify on it: each must answer with a verdict or a
one-line error, never a traceback, an internal error, a dead process, a
hang or a partial output file. Prints the counts per answer and mutation.

Every example that is not a pass, a clean refusal or a clean answer is
written to --keep as payload (+ schedule) + note.
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

from random_payloads import OUTCOMES, FuzzConfig, examples, run_many  # noqa: E402
from schedule_mutations import ANSWERS, CLEAN, MUTATIONS, MutationCase, run_mutation  # noqa: E402


def _keep(stem: Path, example, outcome, config: FuzzConfig) -> None:
    stem.with_suffix(".mlir").write_text(example.text)
    stem.with_suffix(".txt").write_text(f"{outcome.kind}: {' '.join(config.options(example))}\n{outcome.detail}\n")
    if getattr(outcome, "schedule", ""):
        stem.with_suffix(".schedule.mlir").write_text(outcome.schedule)
    print(f"  {outcome.kind}: {stem}.mlir", file=sys.stderr, flush=True)


def _payload_run(args, config: FuzzConfig, start: float) -> bool:
    items = examples(args.n, args.seed)
    counts: Counter[str] = Counter()
    refusals: Counter[str] = Counter()
    for k, (example, outcome) in enumerate(run_many(items, args.jobs, config), 1):
        counts[outcome.kind] += 1
        if outcome.kind == "refused":
            refusals[re.sub(r"\d+", "N", outcome.detail.split(".mlir", 1)[-1])[:90]] += 1
        elif outcome.kind != "pass":
            _keep(args.keep / f"seed{args.seed}_{k:05d}_{outcome.kind.replace(' ', '-')}", example, outcome, config)
        if k % 100 == 0:
            print(f"  {k}/{len(items)} ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    names = {"pass": "passes", "refused": "refusals", "crash": "crashes", "mismatch": "mismatches",
             "overrun": "budget overruns", "recomputed": "computed more than once"}
    for kind in OUTCOMES:
        print(f"  {names[kind]:<24} {counts[kind]}")
    for why, n in refusals.most_common():
        print(f"    refused {n}: {why}")
    return all(counts[k] == 0 for k in OUTCOMES if k not in ("pass", "refused"))


def _mutation_run(args, config: FuzzConfig, start: float) -> bool:
    items = [MutationCase(example, args.seed * 100_003 + i) for i, example in enumerate(examples(args.n, args.seed))]
    counts: Counter[str] = Counter()
    by_mutation: Counter[tuple[str, str]] = Counter()
    for k, (case, outcome) in enumerate(run_many(items, args.jobs, config, run_mutation), 1):
        counts[outcome.kind] += 1
        by_mutation[(outcome.mutation, outcome.kind)] += 1
        if outcome.kind not in CLEAN:
            _keep(args.keep / f"mut{args.seed}_{k:05d}_{outcome.kind.replace(' ', '-')}", case.example, outcome, config)
        if k % 100 == 0:
            print(f"  {k}/{len(items)} ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    for kind in ANSWERS:
        print(f"  {kind:<24} {counts[kind]}")
    for m in MUTATIONS:
        said = ", ".join(f"{by_mutation[(m, k)]} {k}" for k in ANSWERS if by_mutation[(m, k)])
        print(f"    {m:<16} {said or '-'}")
    return all(counts[k] == 0 for k in ANSWERS if k not in CLEAN)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, help="number of examples")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--target", default="memory", help="memory (random budgets), cpu-host, cpu-avx512, ...")
    parser.add_argument("--footprint", choices=("analytic", "precise"), default="analytic")
    parser.add_argument("--mutate-schedules", action="store_true", help="fuzz hand edits of the schedules")
    parser.add_argument("--keep", type=Path, default=ROOT / "build" / "fuzz", help="where failing examples go")
    args = parser.parse_args()
    config = FuzzConfig(args.target, args.footprint)
    args.keep.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    what = "schedule mutations" if args.mutate_schedules else "examples"
    ok = (_mutation_run if args.mutate_schedules else _payload_run)(args, config, start)
    elapsed = time.perf_counter() - start
    print(f"fuzz: {args.n} {what}, seed {args.seed}, target {args.target}, {args.footprint} footprints, "
          f"{args.jobs} job(s), {elapsed:.0f} s ({elapsed / max(1, args.n):.2f} s each)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
