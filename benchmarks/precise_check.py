"""Precise footprint check: cost per simulation, and `generate --footprint
precise` on every example.

    .venv/bin/python benchmarks/precise_check.py

Part 1 times one precise check (extract, apply the fragment, reduce loops,
bufferize, assign addresses) of the same nest -- add bias, relu, scale on
1024x1024 f32 -- tiled into 4 tiles and into 4096 tiles, side by side; loop
reduction keeps the ratio near 1 (target: under 1.5). Part 2 prints, per
example payload (target npu-256k), the number of simulations and the wall
time of `generate --footprint precise` next to `--footprint analytic`.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from schedgen.cli import main as schedgen
from schedgen.emit.schedule import tiling_script
from schedgen.ir.load import load_payload
from schedgen.model.target import PRESETS, Target
from schedgen.planning.planner import candidate_nest, plan
from schedgen.planning.precise import PreciseChecker

ROOT = Path(__file__).resolve().parent.parent
CHAIN = (ROOT / "tests/data/chain3.mlir").read_text().replace("64x64xf32", "1024x1024xf32") \
    .replace("tensor<64xf32>", "tensor<1024xf32>")


def time_check(path: Path, sizes: tuple[int, int], repeats: int = 7) -> tuple[float, int]:
    model = load_payload(path)
    target = Target(name="big", memory_bytes=1 << 40)
    nest = candidate_nest(model, target, 2, {0, 1, 2}, sizes)
    times, peak = [], 0
    for _ in range(repeats):
        checker = PreciseChecker(model, target, tiling_script)  # fresh: no cache
        t0 = time.perf_counter()
        peak = checker.check(nest).peak
        times.append(time.perf_counter() - t0)
    return statistics.median(times), peak


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        chain = Path(tmp) / "chain1024.mlir"
        chain.write_text(CHAIN)
        few, few_peak = time_check(chain, (512, 512))
        many, many_peak = time_check(chain, (16, 16))
        print("precise check of one nest (add bias -> relu -> scale, 1024x1024 f32), median of 7")
        print(f"{'tiles':>6} {'tile':>9} {'peak bytes':>11} {'seconds':>9}")
        print(f"{4:>6} {'512x512':>9} {few_peak:>11} {few:>9.4f}")
        print(f"{4096:>6} {'16x16':>9} {many_peak:>11} {many:>9.4f}")
        print(f"ratio 4096 tiles / 4 tiles: {many / few:.2f} (target < 1.5)")
        print()
        print("generate on each example, target npu-256k")
        print(f"{'payload':<24} {'analytic s':>10} {'precise s':>10} {'simulations':>12} {'nests':>6}")
        out = Path(tmp) / "s.mlir"
        for payload in sorted((ROOT / "payloads").glob("*.mlir")):
            walls = {}
            for mode in ("analytic", "precise"):
                t0 = time.perf_counter()
                if schedgen(["generate", str(payload), "--footprint", mode, "-o", str(out)]) != 0:
                    raise SystemExit(f"generate failed on {payload}")
                walls[mode] = time.perf_counter() - t0
            p = plan(load_payload(payload), PRESETS["npu-256k"], footprint_mode="precise", tiling=tiling_script)
            print(f"{payload.name:<24} {walls['analytic']:>10.3f} {walls['precise']:>10.3f} "
                  f"{p.precise_checks:>12} {len(p.nests):>6}")


if __name__ == "__main__":
    main()
