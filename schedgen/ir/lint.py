"""Checks of a CPU schedule's payload between its stages, made before the
costly stages after them (and LLVM) run.

A hand-edited tile size larger than the dim it tiles is harmless to the
tiling itself (the tile is the whole dim), but the register levels after it
pad their tiles to the bounding box MLIR derives from the tile size: a
`tile_sizes [5000, ...]` over a dim of 3 made a 5000x5000x1048576 vector
whose full unrolling did not end. So it is refused up front, at its line.
And a vector larger than any register tile means ops were vectorized at
their memory-fit tiles (a hand edit that lowers before the register levels
run): refused after the stage that made it, at that stage's include.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from math import prod
from pathlib import Path

from mlir import ir

from schedgen.errors import SchedgenError
from schedgen.ir.queries import nested_ops

_TILE_SIZES = re.compile(r"tile_sizes \[([^\]]*)\]")


def _extent(e: ir.AffineExpr) -> int | None:
    """C for a tiled loop's remainder expression `-d0 + C` (C - offset, the most a tile can hold)."""
    if isinstance(e, ir.AffineAddExpr):
        for a, b in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
            if isinstance(b, ir.AffineConstantExpr) and isinstance(a, ir.AffineMulExpr) \
                    and isinstance(a.rhs, ir.AffineConstantExpr) and a.rhs.value == -1 \
                    and isinstance(a.lhs, ir.AffineDimExpr):
                return b.value
    return None


def _loop_offset(v: ir.Value) -> bool:
    """Whether `v` is a tiled loop's offset: its induction variable, through
    affine.apply only. A tiled pad also bounds its source's slice with
    `affine.min`s of clamped indices (a 1-row source under 2-row tiles of
    its 4-row result): not a tile size, and no reason to refuse."""
    while isinstance(v, ir.OpResult) and v.owner.name == "affine.apply" and len(v.owner.operands) == 1:
        v = v.owner.operands[0]
    return isinstance(v, ir.BlockArgument) and v.owner.owner.name in ("scf.forall", "scf.for")


def oversized_tiles(func: ir.Operation) -> list[tuple[int, int]]:
    """(tile size, extent) of each tiled loop whose tile size exceeds the
    extent it tiles: an `affine.min (-d0 + C, T)` with T > C."""
    found = []
    for op in nested_ops(func):
        if op.name != "affine.min" or len(op.operands) != 1 or not _loop_offset(op.operands[0]):
            continue
        results = ir.AffineMapAttr(op.attributes["map"]).value.results
        if len(results) != 2:
            continue
        consts = [e.value for e in results if isinstance(e, ir.AffineConstantExpr)]
        extents = [x for e in results if (x := _extent(e)) is not None]
        if consts and extents and consts[0] > extents[0] and (consts[0], extents[0]) not in found:
            found.append((consts[0], extents[0]))
    return found


def _line_in_sequence(schedule_path: Path, sequence: str, matches: Callable[[str], bool]) -> str:
    """"file:line" of the first line from sequence @`sequence` on that
    `matches` (the file alone if none does)."""
    lines = Path(schedule_path).read_text(errors="replace").splitlines()
    start = next((k for k, ln in enumerate(lines) if f"@{sequence}" in ln and "named_sequence" in ln), 0)
    line = next((k + 1 for k in range(start, len(lines)) if matches(lines[k])), None)
    return f"{schedule_path}:{line}" if line else str(schedule_path)


def refuse_oversized_tiles(func: ir.Operation, schedule_path: Path, stage: str) -> None:
    """SchedgenError at the line of sequence @`stage` that asks for a tile
    larger than its dim (the first line whose tile_sizes hold that size)."""
    found = oversized_tiles(func)
    if not found:
        return
    size, extent = found[0]

    def asks_for_size(line: str) -> bool:
        m = _TILE_SIZES.search(line)
        return m is not None and str(size) in [s.strip() for s in m.group(1).split(",")]
    raise SchedgenError(_line_in_sequence(schedule_path, stage, asks_for_size), f"tile size {size} is larger than the dim it tiles ({extent}): the register levels "
                        f"of this CPU schedule would pad their tiles to {size}; use at most {extent} (or 0, whole)")


# A register tile is a few vector registers by rows, or a whole row that
# one vector reduces (997 lanes at most in the corpus and the fuzz findings);
# a vector value with more elements than this is a whole memory-fit tile,
# whose unrolled code LLVM takes minutes to compile and run (16x12x11x10
# lanes of i8 ran over 5 minutes at -O0).
MAX_VECTOR_ELEMENTS = 8192


def oversized_vector(func: ir.Operation) -> str | None:
    """The first vector type of a value with more than MAX_VECTOR_ELEMENTS."""
    for op in nested_ops(func):
        for r in op.results:
            if isinstance(r.type, ir.VectorType) and prod(r.type.shape) > MAX_VECTOR_ELEMENTS:
                return str(r.type)
    return None


def refuse_oversized_vectors(func: ir.Operation, schedule_path: Path, stage: str, entry: str) -> None:
    """SchedgenError at the line of `entry` that includes @`stage`, if the
    payload holds a vector larger than any register tile after it."""
    found = oversized_vector(func)
    if found is None:
        return
    where = _line_in_sequence(schedule_path, entry, lambda line: f"transform.include @{stage} " in line)
    raise SchedgenError(where, f"after @{stage} the payload holds a {found}, larger than any register tile "
                        f"({MAX_VECTOR_ELEMENTS} elements at most): ops were vectorized at their memory-fit tiles, which "
                        "LLVM would take minutes to compile and run (do the register levels run before the "
                        "lowering?)")
