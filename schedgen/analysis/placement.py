"""Placement of a loop body's local buffers: first-fit offsets at the
target's alignment, with an elementwise op allowed to write over an input
that dies where it is born. The planner's precise simulation and verify's
measurement both place buffers this way; each finds its buffers itself."""

from __future__ import annotations

from dataclasses import dataclass, field

from mlir import ir

from schedgen.ir.queries import indexing_maps, iterator_kinds


@dataclass
class Buffer:
    """One local buffer of a loop body."""

    what: str
    bytes: int
    start: int  # position of the first op of the body that touches it
    end: int  # position of the last one
    offset: int = -1
    in_place_of: str | None = None  # written over an input that dies at `start`


@dataclass
class Assignment:
    buffers: list[Buffer] = field(default_factory=list)
    peak: int = 0
    folded: bool = False  # the simulation's canonicalization erased an op of the nest: no faithful figure


def _align(n: int, a: int) -> int:
    return (n + a - 1) // a * a


def first_fit(buffers: list[Buffer], alignment: int, in_place: dict[int, int] | None = None) -> Assignment:
    """Offsets first-fit, in order of first use; `in_place` maps a buffer's
    index to the index of an input buffer it may overwrite (same size, dies
    where this one is born)."""
    in_place = in_place or {}
    placed: list[Buffer] = []
    reused: set[int] = set()
    order = sorted(range(len(buffers)), key=lambda i: (buffers[i].start, -buffers[i].bytes, i))
    for i in order:
        b = buffers[i]
        partner = in_place.get(i)
        if partner is not None and buffers[partner].offset >= 0 and partner not in reused \
                and buffers[partner].end == b.start and buffers[partner].bytes >= b.bytes:
            b.offset = buffers[partner].offset
            b.in_place_of = buffers[partner].what
            reused.add(partner)
            placed.append(b)
            continue
        busy = sorted((p.offset, p.offset + _align(p.bytes, alignment)) for p in placed
                      if p.start <= b.end and b.start <= p.end
                      and not (p.end == b.start and p.offset == b.offset))
        offset = 0
        for lo, hi in busy:
            if offset + b.bytes <= lo:
                break
            offset = max(offset, _align(hi, alignment))
        b.offset = offset
        placed.append(b)
    peak = max((b.offset + b.bytes for b in buffers), default=0)
    return Assignment(buffers=buffers, peak=peak)


def n_inputs(op: ir.Operation) -> int:
    if op.name == "memref.copy":
        return 1
    if "operandSegmentSizes" in op.attributes:
        return list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))[0]
    return len(op.operands) - 1 if op.name.startswith("linalg.") else len(op.operands)


def elementwise(op: ir.Operation) -> bool:
    if op.name != "linalg.generic":
        return False
    if any(k != "parallel" for k in iterator_kinds(op)):
        return False
    maps = indexing_maps(op)
    return all(m.is_permutation and m == maps[-1] for m in maps if len(m.results) == len(maps[-1].results))

