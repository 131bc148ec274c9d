"""Main-memory traffic of schedgen's plans against I/O lower bounds, per
payload and fuse mode (the model: schedgen/analysis/traffic.py).

    .venv/bin/python benchmarks/traffic.py [--target npu-256k ...] [--payload P.mlir ...] [--measure]

One row per payload and fuse mode, in MB (1e6 bytes):

  traffic    the plan's traffic (tiles read from outside each nest and result
             tiles written, times the trips that move them)
  measured   (--measure) the same, read off the IR the schedule leaves
             (schedgen check: analysis/measure_traffic.py)
  tiles      iterations of all nests' outer loops, plus one per untiled op
  untiled    every op on its own with whole tensors
  strict     a lower bound for any plan: the compulsory traffic, or Hong and
             Kung's 2*M*N*K/sqrt(S) summed over the contractions, whichever
             is larger
  per-c      issue 15's per-contraction bound: per contraction the larger of
             its operands and result moved once and Hong-Kung, plus the
             compulsory traffic no contraction accounts for
  nests      a lower bound for any plan with these nests: per nest, what it
             reads from outside once and writes out once, or its
             contractions' Hong-Kung figure, whichever is larger. The fuse
             mode decides the nests (no-fuse sends every value between two
             ops through main memory); this ratio is what the tiles leave

Payloads: the bundled ones, and the transformer feed-forward blocks and the
convolution of benchmarks/payloads/ (BERT FFN, a GPT-style MLP, a 197-token
ViT MLP).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from schedgen.analysis.traffic import lower_bound, nests_bound, per_contraction_bound, plan_traffic, untiled_traffic
from schedgen.emit.schedule import render
from schedgen.ir.load import load_payload
from schedgen.model.plan import FuseMode
from schedgen.model.target import load_target
from schedgen.planning.planner import plan

ROOT = Path(__file__).resolve().parent.parent
MODES = [FuseMode.MAX_PRODUCERS, FuseMode.MAX_SIZE, FuseMode.ONLY_PATTERNS, FuseMode.NO_FUSE]


def _measured(path: Path, schedule: str, tmp: Path) -> float:
    from schedgen.check.check import check  # applies the schedule: only with --measure

    f = tmp / "s.mlir"
    f.write_text(schedule)
    r = check(path, f)
    return sum(n.traffic_bytes or 0 for n in r.nests) + sum(u.traffic_bytes or 0 for u in r.untiled)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", nargs="*", default=["npu-256k", "cpu-l1"])
    ap.add_argument("--payload", nargs="*", type=Path, default=sorted((ROOT / "payloads").glob("*.mlir"))
                    + sorted((ROOT / "benchmarks" / "payloads").glob("*.mlir")))
    ap.add_argument("--measure", action="store_true", help="also apply each schedule and measure its IR")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.target:
            target = load_target(name)
            print(f"main-memory traffic in MB, target {target.name} ({target.memory_bytes} bytes)")
            head = f"{'payload':<18} {'fuse mode':<14} {'traffic':>9}"
            head += f" {'measured':>9}" if args.measure else ""
            head += f" {'tiles':>6} {'untiled':>8} {'strict':>8} {'x':>6} {'per-c':>8} {'x':>6} {'nests':>8} {'x':>6}"
            print(head)
            for path in args.payload:
                payload = load_payload(path)
                untiled = sum(untiled_traffic(payload, op).total for op in payload.ops)
                strict = lower_bound(payload, target.memory_bytes)
                per_c = per_contraction_bound(payload, target.memory_bytes)
                for m in MODES:
                    p = plan(payload, target, m)
                    t = plan_traffic(payload, p)
                    own = nests_bound(payload, p, target.memory_bytes)
                    row = f"{path.stem:<18} {m.value:<14} {t.total / 1e6:>9.2f}"
                    if args.measure:
                        row += f" {_measured(path, render(p), Path(tmp)) / 1e6:>9.2f}"
                    row += (f" {t.tiles:>6} {untiled / 1e6:>8.2f} {strict / 1e6:>8.2f} {t.total / strict:>5.2f}x"
                            f" {per_c / 1e6:>8.2f} {t.total / per_c:>5.2f}x {own / 1e6:>8.2f} {t.total / own:>5.2f}x")
                    print(row)
                    sys.stdout.flush()
            print()


if __name__ == "__main__":
    main()
