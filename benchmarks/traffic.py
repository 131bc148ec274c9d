"""Main-memory traffic of schedgen's plans against an I/O lower bound, per
payload and fuse mode (the model: schedgen/analysis/traffic.py).

    .venv/bin/python benchmarks/traffic.py [--target npu-256k] [--payload P.mlir ...]

Columns, per fuse mode: the plan's traffic, its ratio to the lower bound
(the compulsory traffic, or Hong and Kung's 2*M*N*K/sqrt(S) summed over the
contractions, whichever is larger) and the number of tiles (iterations of
all nests' outer loops, plus one per untiled op). `untiled` is every op on
its own with whole tensors. Figures in MB (1e6 bytes).

Payloads: the bundled ones, and the transformer feed-forward blocks of
benchmarks/payloads/ (BERT FFN, a GPT-style MLP, a 197-token ViT MLP).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from schedgen.analysis.traffic import lower_bound, plan_traffic, untiled_traffic
from schedgen.ir.load import load_payload
from schedgen.model.plan import FuseMode
from schedgen.model.target import load_target
from schedgen.planning.planner import plan

ROOT = Path(__file__).resolve().parent.parent
MODES = [FuseMode.MAX_PRODUCERS, FuseMode.MAX_SIZE, FuseMode.ONLY_PATTERNS, FuseMode.NO_FUSE]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="npu-256k")
    ap.add_argument("--payload", nargs="*", type=Path, default=sorted((ROOT / "payloads").glob("*.mlir"))
                    + sorted((ROOT / "benchmarks" / "payloads").glob("*.mlir")))
    args = ap.parse_args()
    target = load_target(args.target)
    print(f"main-memory traffic in MB, target {target.name} ({target.memory_bytes} bytes); "
          "per mode: traffic, x lower bound, tiles")
    print(f"{'payload':<22} {'untiled':>9} {'bound':>8}" + "".join(f" | {m.value:^26}" for m in MODES))
    for path in args.payload:
        payload = load_payload(path)
        untiled = sum(untiled_traffic(payload, op).total for op in payload.ops)
        bound = lower_bound(payload, target.memory_bytes)
        cells = []
        for m in MODES:
            t = plan_traffic(payload, plan(payload, target, m))
            cells.append(f"{t.total / 1e6:>10.2f} {t.total / bound:>6.2f}x {t.tiles:>7}")
        print(f"{path.stem:<22} {untiled / 1e6:>9.2f} {bound / 1e6:>8.2f}" + "".join(f" | {c:>26}" for c in cells))


if __name__ == "__main__":
    main()
