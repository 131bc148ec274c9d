"""The real-model corpus end to end, as a user runs it: for every model and
block x target, `schedgen generate` -> `apply` -> `verify --inputs` (the
inputs PyTorch ran on, its outputs compared too), with the time of each
step and the largest relative error against PyTorch's saved output.

    .venv/bin/python benchmarks/real_models.py                 # corpus/ blocks, and build/corpus/ models if made
    .venv/bin/python benchmarks/real_models.py --markdown      # the README's table
    .venv/bin/python benchmarks/real_models.py vit_block --targets cpu-host

Whole models come from `make corpus-models` (build/corpus/). Each step runs
as the `schedgen` command in its own process, so the times are what a user
waits for.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ["npu-256k", "cpu-l1", "cpu-l2", "cpu-host"]
SCHEDGEN = [sys.executable, "-m", "schedgen.cli"]


@dataclass
class Row:
    name: str
    target: str
    outcome: str  # PASS, or the step that failed and its first line
    rel_err: float | None = None
    times: tuple[float, float, float] | None = None  # generate, apply, verify


def corpus_files(names: list[str]) -> list[Path]:
    files = sorted((ROOT / "corpus").glob("*.mlir")) + sorted((ROOT / "build" / "corpus").glob("*.mlir"))
    return [f for f in files if not names or f.stem in names]


def _step(args: list[str]) -> tuple[subprocess.CompletedProcess, float]:
    start = time.perf_counter()
    proc = subprocess.run(SCHEDGEN + args, capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL)
    return proc, time.perf_counter() - start


def run(payload: Path, target: str, tmp: Path) -> Row:
    name = payload.stem
    schedule = tmp / f"{name}.{target}.mlir"
    gen, t_gen = _step(["generate", str(payload), "--target", target, "-o", str(schedule)])
    if gen.returncode:
        return Row(name, target, "generate: " + gen.stderr.strip().splitlines()[-1][:160])
    app, t_app = _step(["apply", str(payload), str(schedule), "-o", str(tmp / "applied.mlir")])
    if app.returncode:
        return Row(name, target, "apply: " + app.stderr.strip().splitlines()[-1][:160])
    inputs = payload.with_suffix(".npz")
    ver, t_ver = _step(["verify", str(payload), str(schedule), "--json"]
                       + (["--inputs", str(inputs)] if inputs.is_file() else []))
    if ver.returncode == 2 or not ver.stdout.strip():
        return Row(name, target, "verify: " + (ver.stderr.strip().splitlines() or ["no output"])[-1][:160])
    report = json.loads(ver.stdout)
    ref = report.get("reference") or []
    err = max((r["max_rel_err"] for r in ref), default=None)
    if report["ok"]:
        outcome = "PASS"
    else:
        violations = report["check"]["violations"]
        bad = [r for r in report["results"] + ref if not r["ok"]]
        outcome = "FAIL: " + (violations[0][:160] if violations else f"{len(bad)} result(s) differ")
    return Row(name, target, outcome, err, (t_gen, t_app, t_ver))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="corpus entries (file stems; default: all)")
    parser.add_argument("--targets", nargs="+", default=TARGETS)
    parser.add_argument("--markdown", action="store_true", help="print the README table")
    args = parser.parse_args(argv)
    files = corpus_files(args.names)
    if not files:
        print("no corpus files (corpus/*.mlir; `make corpus-models` for build/corpus/)", file=sys.stderr)
        return 2
    print(f"# {platform.processor() or platform.machine()}, {len(files)} payload(s) x {len(args.targets)} target(s)",
          file=sys.stderr)
    rows = []
    with tempfile.TemporaryDirectory(prefix="real-models-") as tmp:
        for f in files:
            for target in args.targets:
                row = run(f, target, Path(tmp))
                rows.append(row)
                print(_line(row, args.markdown), flush=True)
    failed = [r for r in rows if r.outcome != "PASS"]
    print(f"# {len(rows) - len(failed)} of {len(rows)} PASS", file=sys.stderr)
    return 1 if failed else 0


def _line(r: Row, markdown: bool) -> str:
    err = "-" if r.rel_err is None else f"{r.rel_err:.1e}"
    times = "-" if r.times is None else " / ".join(f"{t:.1f}" for t in r.times)
    if markdown:
        return f"| {r.name} | {r.target} | {r.outcome} | {err} | {times} |"
    return f"{r.name:<20} {r.target:<10} {r.outcome[:60]:<60} rel err {err:<8} s {times}"


if __name__ == "__main__":
    sys.exit(main())
