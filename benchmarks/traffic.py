"""Main-memory traffic of schedgen's schedules, per example and fuse mode.

    .venv/bin/python benchmarks/traffic.py [--target npu-256k]

Traffic is the bytes moved between main and local memory: in every
iteration of a nest, the tiles it reads from outside the nest (function
inputs, other nests' results) and the tile of its root's result it writes,
times the trip count (reduction-tiled reads times their sequential trips as
well); a producer-driven nest also writes its consumers' result tiles (and
not the root's when reuse_producer_dest put a consumer's tiles in its
place); an untiled op reads its inputs and writes its result once. Fused
producers' results stay in local memory. Printed side by side with the
untiled baseline (every op on its own, whole tensors) and the no-fuse
schedule; the ratio column is traffic / no-fuse (expected <= 1 for
max-producers).
"""

from __future__ import annotations

import argparse
from math import prod
from pathlib import Path

from schedgen.analysis.axis_groups import AxisMap, NestAxes
from schedgen.analysis.footprint import (
    NestShape,
    footprint,
    two_level_footprint,
    untiled_footprint,
)
from schedgen.ir.load import load_payload
from schedgen.model.payload import Payload
from schedgen.model.plan import FuseMode, LoopNest, Plan
from schedgen.model.target import PRESETS
from schedgen.planning.planner import plan

ROOT = Path(__file__).resolve().parent.parent


def two_level_traffic(payload: Payload, nest: LoopNest) -> int:
    """Each op with an inner loop reads its input tiles and writes its
    result tile (block-sized values between the ops' loops live in main
    memory; an accumulator stays local until its loop ends); ops run once
    per block read their inputs once per block."""
    root = payload.ops[nest.root.index]
    members = frozenset(o.index for o in nest.ops)
    axes = NestAxes(payload, root.index, AxisMap(payload))
    for m in sorted(members - {root.index}, reverse=True):
        axes.add(m)
    names = {m: axes.names(m) for m in members}
    outer = {f"z{d}": t for d, t in enumerate(nest.tile_sizes) if t}
    blocks = prod(n // t for n, t in zip(root.domain, nest.tile_sizes) if t)
    inner: dict[str, int] = {}
    for r in nest.reduction_tiling:
        inner[names[r.op][r.dim]] = r.size
    total = 0
    for m in members:
        op = payload.ops[m]
        fp = two_level_footprint(payload, frozenset({m}), names, outer, inner)
        assert fp is not None
        looped = [r for r in nest.reduction_tiling if r.op == m]
        trips = prod(r.extent // r.size for r in looped)
        reduces = any(op.iterators[r.dim] == "reduction" for r in looped)
        for what, _shape, nbytes in fp.items:
            if " reads " in what:
                src = what.split(" reads ")[1]
                local = src.startswith("op") and int(src[2:]) in members and not looped
                total += 0 if local else nbytes * trips * blocks
            elif looped or m == root.index:
                total += nbytes * (1 if reduces else trips) * blocks
    return total


def nest_traffic(payload: Payload, nest: LoopNest) -> int:
    if nest.levels == 2:
        return two_level_traffic(payload, nest)
    root = payload.ops[nest.root.index]
    sizes = tuple(t or n for t, n in zip(nest.tile_sizes, root.domain))
    members = frozenset(o.index for o in nest.ops)
    consumers = tuple(c.index for c in nest.consumers)
    reductions = tuple((r.op, r.dim, r.size) for r in nest.reduction_tiling)
    fp = footprint(payload, NestShape(root.index, members, sizes, reductions, consumers))  # unaligned bytes
    assert fp is not None
    trips = prod(n // s for n, s in zip(root.domain, sizes) if s < n)
    red_trips = {r.op: prod(x.extent // x.size for x in nest.reduction_tiling if x.op == r.op)
                 for r in nest.reduction_tiling}
    total = 0
    for what, _shape, nbytes in fp.items:
        op = int(what.split()[0][2:])
        if " reads " in what:
            total += nbytes * trips * red_trips.get(op, 1)
        elif op == root.index and not nest.reuse_dest:
            total += nbytes * trips  # the root's result tile goes back to main memory
        elif op in consumers:  # so does every fused consumer's
            total += nbytes * trips
    return total


def plan_traffic(payload: Payload, p: Plan) -> int:
    total = sum(nest_traffic(payload, n) for n in p.nests)
    return total + sum(untiled_footprint(payload, payload.ops[u.op.index]).total for u in p.untiled)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="npu-256k")
    args = ap.parse_args()
    target = PRESETS[args.target]
    modes = [FuseMode.MAX_PRODUCERS, FuseMode.MAX_SIZE, FuseMode.ONLY_PATTERNS, FuseMode.NO_FUSE]
    print(f"main-memory traffic in MB (1e6 bytes), target {target.name}; nests in brackets; ratio = mode / no-fuse")
    head = f"{'payload':<22} {'untiled':>9}" + "".join(f" {m.value:>18}" for m in modes) + f" {'max-producers/no-fuse':>22}"
    print(head)
    for path in sorted((ROOT / "payloads").glob("*.mlir")):
        payload = load_payload(path)
        untiled = sum(untiled_footprint(payload, op).total for op in payload.ops)
        cells, figures = [], {}
        for m in modes:
            p = plan(payload, target, m)
            figures[m] = plan_traffic(payload, p)
            cells.append(f"{figures[m] / 1e6:>12.2f} [{len(p.nests):>2}]")
        ratio = figures[FuseMode.MAX_PRODUCERS] / figures[FuseMode.NO_FUSE]
        print(f"{path.stem:<22} {untiled / 1e6:>9.2f}" + "".join(f" {c:>18}" for c in cells) + f" {ratio:>22.3f}")


if __name__ == "__main__":
    main()
