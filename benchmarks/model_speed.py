"""The real-model corpus at speed: schedgen's cpu-host schedule next to
PyTorch eager on the same module and IREE 3.13 (default and tuned flags),
interleaved in one run, at 1 and 2 threads.

    .venv/bin/python benchmarks/model_speed.py [NAMES...] [--threads 1 2] [--rounds 3] [--untransformed]

Every corpus entry (corpus/*.mlir, and build/corpus/*.mlir from `make
corpus-models`) runs on the inputs PyTorch ran on (its .npz). Per round,
entry and thread count: the transformed payload in schedgen's execution
child (the median of calls adding up to --min-time), then PyTorch eager in
a child of the corpus environment (benchmarks/torch_eager.py, which builds
the module corpus/make_corpus.py exports; torch.set_num_threads), then IREE
when it is installed (`pip install -e '.[bench]'`). Each figure is the
median over rounds; a measurement during which other processes used the
CPU is taken again (benchmarks/idle.py), and one that never ran alone is
marked `~`. Prints ms, GFLOP/s (the payload's linalg ops), % of the peak
`schedgen peak` measured, and each peer's time over schedgen's (above 1:
schedgen is faster), then each round's ratio of the two measured in it.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
from cpu_vs_peers import IREE_TUNED, iree_times  # noqa: E402
from idle import alone  # noqa: E402
from machine import print_machine  # noqa: E402

from schedgen.analysis.flops import payload_flops  # noqa: E402
from schedgen.emit.schedule import render  # noqa: E402
from schedgen.ir.isolated import apply_isolated_to  # noqa: E402
from schedgen.ir.load import load_payload  # noqa: E402
from schedgen.model.payload import Payload  # noqa: E402
from schedgen.model.target import host_target  # noqa: E402
from schedgen.planning.planner import plan  # noqa: E402
from schedgen.run.arrays import read_inputs  # noqa: E402
from schedgen.run.execute import time_function  # noqa: E402

TORCH = ROOT / ".venv-corpus" / "bin" / "python"
PEERS = ("torch", "iree", "iree tuned")


@dataclass
class Entry:
    name: str
    payload: Path
    transformed: Path
    model: Payload
    inputs: list[np.ndarray]


def prepare(payload: Path, work: Path) -> Entry:
    """The cpu-host schedule applied once (timing re-runs the same file)."""
    model = load_payload(payload, cpu=True)  # normalized for a CPU schedule (NCHW convolutions to im2col)
    schedule, transformed = work / f"{payload.stem}.schedule.mlir", work / f"{payload.stem}.applied.mlir"
    schedule.write_text(render(plan(model, host_target())))
    apply_isolated_to(payload, schedule, transformed)
    return Entry(payload.stem, payload, transformed, model,
                 read_inputs(payload.with_suffix(".npz"), list(model.arg_types))[0])


def schedgen_seconds(module: Path, e: Entry, threads: int, min_seconds: float) -> float:
    return statistics.median(time_function(module, e.model.func_name, e.inputs, threads=threads, repeats=5,
                                           min_seconds=min_seconds)[1])


def torch_seconds(name: str, threads: int, min_seconds: float) -> float | str:
    if not TORCH.exists():
        return "no .venv-corpus (make corpus)"
    out = subprocess.run([str(TORCH), str(ROOT / "benchmarks" / "torch_eager.py"), name, str(threads),
                          str(min_seconds)], capture_output=True, text=True)
    if out.returncode != 0:
        return "torch failed: " + (out.stderr.strip().splitlines() or ["?"])[-1][:60]
    return float(out.stdout.strip())


def peer_seconds(peer: str, e: Entry, threads: int, min_seconds: float, work: Path) -> float | str:
    if peer == "torch":
        return torch_seconds(e.name, threads, min_seconds)
    return iree_times(e.payload, e.model.func_name, e.inputs, threads, 5, work,
                      IREE_TUNED if peer == "iree tuned" else ())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="corpus entries (file stems; default: all)")
    ap.add_argument("--threads", nargs="*", type=int, default=[1, 2])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--min-time", type=float, default=0.5, help="seconds of timed calls per measurement")
    ap.add_argument("--untransformed", action="store_true", help="also the payload as it is (1 thread, once)")
    args = ap.parse_args()
    files = sorted((ROOT / "corpus").glob("*.mlir")) + sorted((ROOT / "build" / "corpus").glob("*.mlir"))
    files = [f for f in files if not args.names or f.stem in args.names]
    peak = print_machine()
    got: dict[tuple[str, int, str], list[tuple[float | str, bool]]] = {}
    with tempfile.TemporaryDirectory(prefix="schedgen-models-") as tmp:
        work = Path(tmp)
        entries = [prepare(f, work) for f in files]
        for r in range(args.rounds):
            for e in entries:
                for t in args.threads:
                    got.setdefault((e.name, t, "schedgen"), []).append(
                        alone(lambda: schedgen_seconds(e.transformed, e, t, args.min_time)))
                    for peer in PEERS:
                        got.setdefault((e.name, t, peer), []).append(
                            alone(lambda: peer_seconds(peer, e, t, args.min_time, work)))
            print(f"  round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
        if args.untransformed:
            for e in entries:
                got[(e.name, 1, "untransformed")] = [alone(lambda: schedgen_seconds(e.payload, e, 1, 0.0))]
    _table(entries, got, args.threads, peak)
    return 0


def _figure(runs: list[tuple[float | str, bool]] | None) -> tuple[float | str | None, str]:
    """(median seconds or the first failure, `~` if a run never ran alone)."""
    if not runs:
        return None, ""
    failed = [v for v, _ in runs if isinstance(v, str)]
    mark = "" if all(ok for _, ok in runs) else "~"
    return (failed[0] if failed else statistics.median(v for v, _ in runs if isinstance(v, float))), mark


def _table(entries: list[Entry], got: dict, threads: list[int], peak: float | None) -> None:
    print(f"{'payload':<18} {'thr':>3} {'schedgen ms':>12} {'GFLOP/s':>8} {'% peak':>7} "
          + " ".join(f"{p + ' ms':>14} {'ratio':>6}" for p in PEERS) + f" {'untransformed ms':>17}")
    failures: list[str] = []  # why a peer has no time, printed below the table: a cell has room for a number only
    for e in entries:
        flop = payload_flops(e.model)
        for t in threads:
            ours, mark = _figure(got[(e.name, t, "schedgen")])
            assert isinstance(ours, float)
            pct = f"{100 * flop / ours / 1e9 / (peak * t):.0f}%" if peak else "-"
            cells = []
            for p in PEERS:
                s, m = _figure(got.get((e.name, t, p)))
                if isinstance(s, str) and s not in failures:
                    failures.append(s)
                cells.append(f"{m}{s * 1e3:.2f}".rjust(14) + f" {s / ours:6.2f}" if isinstance(s, float)
                             else f"{f'see [{failures.index(s) + 1}]' if s else '-':>21}")
            raw, m = _figure(got.get((e.name, t, "untransformed")))
            raw_cell = f"{m}{raw * 1e3:.1f}" if isinstance(raw, float) else "-"
            print(f"{e.name:<18} {t:>3} {mark + f'{ours * 1e3:.2f}':>12} {flop / ours / 1e9:>8.1f} {pct:>7} "
                  + " ".join(cells) + f" {raw_cell:>17}")
    print("ratio: the peer's time over schedgen's (above 1: schedgen is faster).")
    for i, why in enumerate(failures, 1):
        print(f"[{i}] {why}")
    _paired(entries, got, threads)


def _paired(entries: list[Entry], got: dict, threads: list[int]) -> None:
    """Each round's ratio, the peer's time over schedgen's in that round: the
    VM's speed drifts between rounds (10-20% on the 2-core EPYC), and a pair
    measured seconds apart shares more of its state than two medians do."""
    print("paired ratios, round by round (median):")
    for e in entries:
        for t in threads:
            ours = got[(e.name, t, "schedgen")]
            cells = []
            for p in PEERS:
                pairs = [b / a for (a, _), (b, _) in zip(ours, got.get((e.name, t, p), []))
                         if isinstance(a, float) and isinstance(b, float)]
                if pairs:
                    cells.append(f"{p} " + " ".join(f"{x:.2f}" for x in pairs) + f" ({statistics.median(pairs):.2f})")
            print(f"  {e.name:<18} {t:>3}  " + "; ".join(cells))


if __name__ == "__main__":
    sys.exit(main())
