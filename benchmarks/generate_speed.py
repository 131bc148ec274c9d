"""Time `schedgen generate` on every example payload and on synthetic chains
of 10, 100 and 1000 tileable ops (elementwise and matmul mixed).

    .venv/bin/python benchmarks/generate_speed.py [--target npu-256k]

Prints, per payload, the seconds of planning (parse, analyses, plan: the
target for the 1000-op chain is under 5 s) and of the whole verb (plan,
render, the proof that the schedule applies, write), side by side with
tileable ops per second. The proof runs the schedule through `xtc-opt`:
every fusion step prints its ops into a diagnostic that MLIR numbers
against the whole function, so it grows as nests x function size (README,
"Generate proves its schedule applies"). Each figure is the best of 3 runs
in this process.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from schedgen.cli import main as schedgen
from schedgen.ir.load import load_payload
from schedgen.model.target import load_target
from schedgen.planning.planner import plan

ROOT = Path(__file__).resolve().parent.parent


def chain_payload(n_ops: int, size: int = 256) -> str:
    """A chain of `n_ops` tileable ops on size x size f32: every fourth step
    is a matmul with its fill (two ops), the others alternate add-bias and
    relu generics."""
    t = f"tensor<{size}x{size}xf32>"
    lines = [
        "#id = affine_map<(d0, d1) -> (d0, d1)>",
        "#row = affine_map<(d0, d1) -> (d1)>",
        f"func.func @chain(%x: {t}, %w: {t}, %b: tensor<{size}xf32>) -> {t} {{",
        "  %zero = arith.constant 0.0 : f32",
        f"  %empty = tensor.empty() : {t}",
    ]
    cur, made, step = "%x", 0, 0
    while made < n_ops:
        step += 1
        if step % 4 == 0 and made + 2 <= n_ops:
            lines.append(f"  %f{step} = linalg.fill ins(%zero : f32) outs(%empty : {t}) -> {t}")
            lines.append(f"  %v{step} = linalg.matmul ins({cur}, %w : {t}, {t}) outs(%f{step} : {t}) -> {t}")
            made += 2
        elif step % 2:
            lines += [
                f"  %v{step} = linalg.generic {{indexing_maps = [#id, #row, #id], iterator_types = [\"parallel\", \"parallel\"]}}",
                f"      ins({cur}, %b : {t}, tensor<{size}xf32>) outs(%empty : {t}) {{",
                "  ^bb0(%a: f32, %c: f32, %o: f32):",
                "    %s = arith.addf %a, %c : f32",
                "    linalg.yield %s : f32",
                f"  }} -> {t}",
            ]
            made += 1
        else:
            lines += [
                f"  %v{step} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\"]}}",
                f"      ins({cur} : {t}) outs(%empty : {t}) {{",
                "  ^bb0(%a: f32, %o: f32):",
                "    %r = arith.maximumf %a, %zero : f32",
                "    linalg.yield %r : f32",
                f"  }} -> {t}",
            ]
            made += 1
        cur = f"%v{step}"
    lines += [f"  return {cur} : {t}", "}"]
    return "\n".join(lines) + "\n"


def time_generate(payload: Path, target: str, out: Path, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        rc = schedgen(["generate", str(payload), "--target", target, "-o", str(out)])
        best = min(best, time.perf_counter() - t0)
        if rc != 0:
            raise SystemExit(f"generate failed on {payload} (exit {rc})")
    return best


def time_plan(payload: Path, target: str, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        plan(load_payload(payload), load_target(target))
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="npu-256k")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cases = [(p.name, p) for p in sorted((ROOT / "payloads").glob("*.mlir"))]
        for n in (10, 100, 1000):
            path = Path(tmp) / f"chain{n}.mlir"
            path.write_text(chain_payload(n))
            cases.append((f"chain of {n} ops", path))
        print(f"schedgen generate --target {args.target}, best of 3")
        print(f"{'payload':<28} {'tileable ops':>12} {'plan s':>8} {'ops/s':>8} {'generate s':>11} {'nests':>6}")
        for name, path in cases:
            n_ops = len(load_payload(path).ops)
            planned = time_plan(path, args.target)
            secs = time_generate(path, args.target, Path(tmp) / "out.mlir")
            nests = (Path(tmp) / "out.mlir").read_text().count("// Nest ")
            print(f"{name:<28} {n_ops:>12} {planned:>8.3f} {n_ops / planned:>8.0f} {secs:>11.3f} {nests:>6}")


if __name__ == "__main__":
    main()
