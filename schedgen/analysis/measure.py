"""Independent footprint measurement on transformed IR.

The planner's estimate is never trusted here: this walks the tiled function
and, for every innermost loop body, adds up the buffers that the tileable ops
live in it (those in the body and in the bodies of its enclosing loops)
read or write. Values that are one buffer are counted once: a DPS op's result
and its init when the init is produced inside the nest (a fill feeding a
matmul accumulator), a loop's iter_arg, init and result, and full-size
extract/insert slices of such values, equal slices of one tensor, and an
elementwise op's result and an input tile of the same size that dies
there (written in place, as the precise placement does), and a pad's (or
a pack's that moves no dim) result and its source tile (copied into place). Every other tensor operand, e.g. each
extract_slice of a function argument, is its own tile. Tile types must be
static (schedgen's tile sizes divide the loop ranges).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from math import prod

from mlir import ir

from schedgen.analysis.placement import Buffer, elementwise, first_fit
from schedgen.ir.load import element_bytes
from schedgen.ir.queries import find_func, nested_ops
from schedgen.model.payload import is_tileable

LOOPS = ("scf.forall", "scf.for")


@dataclass
class MeasuredNest:
    loop: str  # op name of the outermost loop
    line: int  # its line in the transformed IR text
    ops: list[str]  # tileable ops inside, in order
    innermost_loops: int
    footprint_bytes: int | None  # the largest innermost body; None when a tile is dynamic
    problem: str | None = None


@dataclass
class MeasuredOp:
    """A tileable op left outside any loop: its whole operands and results."""

    name: str
    line: int
    footprint_bytes: int | None
    problem: str | None = None


@dataclass
class Measurement:
    nests: list[MeasuredNest] = field(default_factory=list)
    untiled: list[MeasuredOp] = field(default_factory=list)
    op_counts: dict[str, int] = field(default_factory=dict)  # tileable ops by name, inside and outside loops


class _Dynamic(Exception):
    pass


def owner_op(x: ir.Value | ir.OpOperand) -> ir.Operation:
    """The op that defines a result, or that uses an operand (the bindings
    hand out OpViews or Operations)."""
    owner = x.owner
    return owner.operation if isinstance(owner, ir.OpView) else owner


def const_int(v: ir.Value) -> int | None:
    """The value of an integer arith.constant, else None."""
    if not isinstance(v, ir.OpResult):
        return None
    owner = owner_op(v)
    if owner.name == "arith.constant" and isinstance(owner.attributes["value"], ir.IntegerAttr):
        return ir.IntegerAttr(owner.attributes["value"]).value
    return None


def _bytes(v: ir.Value) -> int:
    """Bytes of a tensor value; a partial tile's dynamic dims count at their
    largest (the constant bound of the `affine.min` that sizes the slice)."""
    t = v.type
    if not isinstance(t, ir.RankedTensorType):
        return 0
    dims = [n if not ir.ShapedType.is_dynamic_size(n) else dim_bound(v, k) or _outer_bound(v, k)
            for k, n in enumerate(t.shape)]
    if any(n is None for n in dims):
        raise _Dynamic(str(t))
    return prod(dims) * element_bytes(t.element_type)  # type: ignore[arg-type]


def dim_bound(v: ir.Value, dim: int) -> int | None:
    """An upper bound of dynamic dim `dim` of `v`: read off the slice that
    made it (through DPS results, which have their init's shape, and through
    an scf.for's iteration values, which have their init's)."""
    for _ in range(100):
        if isinstance(v, ir.BlockArgument):
            parent = v.owner.owner
            parent = parent.operation if isinstance(parent, ir.OpView) else parent
            if parent.name != "scf.for" or v.arg_number < 1:
                return None
            v = parent.operands[3 + v.arg_number - 1]  # lb, ub, step, then the inits
            continue
        if not isinstance(v, ir.OpResult):
            return None
        owner = owner_op(v)
        if owner.name == "scf.for":
            v = owner.operands[3 + v.result_number]
            continue
        if owner.name == "tensor.extract_slice":
            static = list(ir.DenseI64ArrayAttr(owner.attributes["static_sizes"]))
            if len(static) != ir.RankedTensorType(v.type).rank:  # rank-reducing: dims do not line up
                return None
            segments = list(ir.DenseI32ArrayAttr(owner.attributes["operandSegmentSizes"]))
            sizes = list(owner.operands)[1 + segments[1]:1 + segments[1] + segments[2]]
            dynamic = [k for k, n in enumerate(static) if ir.ShapedType.is_dynamic_size(n)]
            if dim not in dynamic:
                return static[dim]
            bound = _index_bound(sizes[dynamic.index(dim)])
            # a tile size past the dim (a hand edit) leaves slices no larger than their source
            whole = ir.RankedTensorType(owner.operands[0].type).shape[dim]
            whole = dim_bound(owner.operands[0], dim) if ir.ShapedType.is_dynamic_size(whole) else whole
            return bound if whole is None or bound is None else min(bound, whole)
        if owner.name == "tensor.empty":  # a tiled unpack's padded tile: sized by constants
            dynamic = [k for k, n in enumerate(ir.RankedTensorType(v.type).shape) if ir.ShapedType.is_dynamic_size(n)]
            return _index_bound(owner.operands[dynamic.index(dim)]) if dim in dynamic else None
        if not is_tileable(owner.name):
            return None
        inits = init_operands(owner)
        if v.result_number >= len(inits):
            return None
        v = inits[v.result_number]
    return None


def _outer_bound(v: ir.Value, dim: int) -> int | None:
    """A bound of a dynamic dim from what surrounds the value: a fused pad's
    source slice (sized by affine.max/min chains) is no larger than the pad's
    static result tile, nor than the tensor it is sliced from; the pad's own
    dynamic result is cast to its static tile."""
    bounds = []
    for use in v.uses:
        user = owner_op(use)
        if user.name in ("tensor.pad", "tensor.cast"):  # a pad only adds; a cast to a static type says the size
            n = ir.RankedTensorType(user.results[0].type).shape[dim]
            n = _outer_bound(user.results[0], dim) if ir.ShapedType.is_dynamic_size(n) else n
            if n is not None:
                bounds.append(n)
    if isinstance(v, ir.OpResult) and owner_op(v).name == "tensor.extract_slice":
        source = ir.RankedTensorType(owner_op(v).operands[0].type)
        if source.rank == ir.RankedTensorType(v.type).rank and not ir.ShapedType.is_dynamic_size(source.shape[dim]):
            bounds.append(source.shape[dim])
    return min(bounds) if bounds else None


def _index_bound(v: ir.Value) -> int | None:
    """A constant, the smallest constant among an affine.min's results, or
    the bound of the tensor dim a tensor.dim reads (a K loop's slice of a
    partial row tile takes all of its rows), or the last value of a loop's
    induction variable."""
    if isinstance(v, ir.BlockArgument):
        return _induction_bound(v)
    if not isinstance(v, ir.OpResult):
        return None
    owner = owner_op(v)
    if owner.name == "arith.constant":
        return const_int(v)
    if owner.name == "tensor.dim":
        k = const_int(owner.operands[1])
        source = owner.operands[0]
        if k is None or not isinstance(source.type, ir.RankedTensorType):
            return None
        n = ir.RankedTensorType(source.type).shape[k]
        return n if not ir.ShapedType.is_dynamic_size(n) else dim_bound(source, k) or _outer_bound(source, k)
    if owner.name == "affine.min":
        consts = [e.value for e in ir.AffineMapAttr(owner.attributes["map"]).value.results
                  if isinstance(e, ir.AffineConstantExpr)]
        return min(consts) if consts else None
    if owner.name in ("arith.muli", "arith.addi"):  # a tiled unpack's buffer: inner tiles x tile size
        a, b = (_index_bound(x) for x in owner.operands)
        return None if a is None or b is None else a * b if owner.name == "arith.muli" else a + b
    if owner.name == "affine.apply":  # e.g. the inner tiles an unpack's tile overlaps: ceildiv of a bound
        amap = ir.AffineMapAttr(owner.attributes["map"]).value
        bounds = [_index_bound(x) for x in owner.operands]
        if len(amap.results) == 1 and amap.n_symbols == 0 and None not in bounds:
            at_most = _at_most(amap.results[0], bounds)  # type: ignore[arg-type]
            return at_most if at_most is not None else _largest(amap.results[0], bounds)  # type: ignore[arg-type]
    return None


def _largest(e: ir.AffineExpr, bounds: list[int]) -> int | None:
    """The largest value of `e` over every dim from 0 to its bound, counted
    out where there are few (the inner tiles a tile overlaps: `(d0 + 1)
    floordiv 16 - d0 floordiv 16 + 1` does not grow with d0)."""
    if prod(b + 1 for b in bounds) > 4096:
        return None
    values = [_value(e, list(point)) for point in itertools.product(*(range(b + 1) for b in bounds))]
    return None if not values or None in values else max(values)  # type: ignore[type-var]


def _value(e: ir.AffineExpr, dims: list[int]) -> int | None:
    if isinstance(e, ir.AffineConstantExpr):
        return e.value
    if isinstance(e, ir.AffineDimExpr):
        return dims[e.position]
    if isinstance(e, (ir.AffineAddExpr, ir.AffineMulExpr, ir.AffineFloorDivExpr, ir.AffineCeilDivExpr,
                      ir.AffineModExpr)):
        a, b = _value(e.lhs, dims), _value(e.rhs, dims)
        if a is None or b is None or (b == 0 and not isinstance(e, (ir.AffineAddExpr, ir.AffineMulExpr))):
            return None
        if isinstance(e, ir.AffineAddExpr):
            return a + b
        if isinstance(e, ir.AffineMulExpr):
            return a * b
        return a // b if isinstance(e, ir.AffineFloorDivExpr) else -(-a // b) if isinstance(e, ir.AffineCeilDivExpr) \
            else a % b
    return None


def _induction_bound(v: ir.BlockArgument) -> int | None:
    """The largest value an scf.forall's or scf.for's induction variable takes
    (static bounds only)."""
    loop = v.owner.owner
    loop = loop.operation if isinstance(loop, ir.OpView) else loop
    if loop.name == "scf.forall" and "staticUpperBound" in loop.attributes:
        ubs = list(ir.DenseI64ArrayAttr(loop.attributes["staticUpperBound"]))
        return ubs[v.arg_number] - 1 if v.arg_number < len(ubs) and ubs[v.arg_number] > 0 else None
    if loop.name == "scf.for" and v.arg_number == 0:
        ub = const_int(loop.operands[1])
        return ub - 1 if ub is not None and ub > 0 else None
    return None


def _at_most(e: ir.AffineExpr, bounds: list[int]) -> int | None:
    """The value of `e` with its dims at their bounds, where `e` grows with
    every dim (sums, products by and floor/ceil divisions by positive constants)."""
    if isinstance(e, ir.AffineConstantExpr):
        return e.value
    if isinstance(e, ir.AffineDimExpr):
        return bounds[e.position]
    if isinstance(e, ir.AffineAddExpr):
        a, b = _at_most(e.lhs, bounds), _at_most(e.rhs, bounds)
        return None if a is None or b is None else a + b
    if isinstance(e, (ir.AffineMulExpr, ir.AffineFloorDivExpr, ir.AffineCeilDivExpr)) \
            and isinstance(e.rhs, ir.AffineConstantExpr) and e.rhs.value > 0:
        a = _at_most(e.lhs, bounds)
        if a is None:
            return None
        k = e.rhs.value
        return a * k if isinstance(e, ir.AffineMulExpr) else a // k if isinstance(e, ir.AffineFloorDivExpr) \
            else -(-a // k)
    return None


def walk_ops(region_owner: ir.Operation):
    """Ops nested in `region_owner`, not descending into tileable ops' bodies."""
    return nested_ops(region_owner, lambda op: not is_tileable(op.name))


def line_of(op: ir.Operation) -> int:
    loc = op.location
    return loc.start_line if loc.is_a_file() else 0


def _enclosing_loop(op: ir.Operation) -> ir.Operation | None:
    p = op.parent
    while p is not None and p.name not in LOOPS and p.name != "func.func":
        p = p.parent
    return p if p is not None and p.name in LOOPS else None


def _origin(v: ir.Value, produced: set) -> object | None:
    """The nest op result that `v` is the same buffer as, if any; else, for a
    value carried by an scf.for (a K loop accumulating into a tile of an
    outside init), that loop's init: the op in the loop and the ops after it
    read and write that one tile."""
    carried = False
    for _ in range(10000):
        if isinstance(v, ir.OpResult):
            owner = owner_op(v)
            if owner in produced:
                # A DPS result is its init's buffer when that init is itself
                # a nest op's result (fill -> matmul accumulator).
                inits = init_operands(owner)
                if v.result_number < len(inits):
                    tied = _origin(inits[v.result_number], produced)
                    if tied is not None:
                        return tied
                return (owner, v.result_number)
            if owner.name == "tensor.extract_slice" and v.type == owner.operands[0].type:
                v = owner.operands[0]
            elif owner.name == "tensor.insert_slice":
                v = owner.operands[1]
            elif owner.name == "scf.for":
                v, carried = owner.operands[3 + v.result_number], True
            else:
                return ("carried", v) if carried else None
        elif isinstance(v, ir.BlockArgument):
            parent = v.owner.owner
            if isinstance(parent, ir.OpView):
                parent = parent.operation
            if parent.name == "scf.for" and v.arg_number >= 1:
                v, carried = parent.operands[3 + v.arg_number - 1], True
            else:
                return ("carried", v) if carried else None
        else:
            return None
    return None


def init_operands(op: ir.Operation) -> list[ir.Value]:
    """The DPS init operands of a tileable op: on tensors, one per result,
    last among the operands (tensor.pad is not DPS: none)."""
    if op.name == "tensor.pad":
        return []
    if op.name in ("linalg.pack", "linalg.unpack"):
        return [op.operands[1]]
    n = len(op.results)
    return list(op.operands)[len(op.operands) - n:] if n else []


def _body_buffers(ops: list[ir.Operation]) -> tuple[list[Buffer], dict[int, int]]:
    """The buffers the ops live in (one per class of values that are the same
    buffer), with live ranges over the ops' positions, and the in-place
    candidates: an elementwise op's new result over an input of equal size."""
    produced = set(ops)
    index: dict[object, int] = {}
    buffers: list[Buffer] = []
    in_place: dict[int, int] = {}

    def touch(key: object, nbytes: int, pos: int, what: str) -> int:
        if key not in index:
            index[key] = len(buffers)
            buffers.append(Buffer(what, nbytes, pos, pos))
        b = buffers[index[key]]
        b.bytes, b.end = max(b.bytes, nbytes), pos
        return index[key]

    for pos, op in enumerate(ops, 1):
        inits = init_operands(op)
        read = []
        for v in op.operands:
            if v in inits or not isinstance(v.type, ir.RankedTensorType):
                continue
            o = _origin(v, produced)
            read.append(touch(o if o is not None else tile_key(v), _bytes(v), pos, f"input of {op.name}"))
        for i, r in enumerate(op.results):
            o = _origin(inits[i], produced) if i < len(inits) else None
            out = touch(o if o is not None else (op, i), _bytes(r), pos, f"result of {op.name}")
            # A pad's source is copied into its padded tile, which holds it; an
            # unpack that moves no dim drops each row's padding in place (either
            # way, the copy runs in the direction that overwrites nothing unread).
            pad = _copies_in_place(op)
            if o is None and (elementwise(op) or pad):
                partner = next((k for k in read if k not in in_place.values() and (
                    pad or buffers[k].bytes == buffers[out].bytes)), None)
                if partner is not None:
                    in_place[out] = partner
    in_place = {o: i for o, i in in_place.items() if buffers[i].end == buffers[o].start}
    for o, i in in_place.items():  # the buffer they share is the larger one
        buffers[i].bytes = max(buffers[i].bytes, buffers[o].bytes)
    return buffers, in_place


def _copies_in_place(op: ir.Operation) -> bool:
    """A pad, or a pack or unpack that moves no dim (its inner tiles are its
    last dims, in order): the result is the source copied into place, one
    buffer (the precise simulation lowers them to copies)."""
    if op.name == "tensor.pad":
        return True
    if op.name not in ("linalg.pack", "linalg.unpack"):
        return False
    packed = ir.RankedTensorType((op.results[0] if op.name == "linalg.pack" else op.operands[0]).type).rank
    inner = list(ir.DenseI64ArrayAttr(op.attributes["inner_dims_pos"]))
    outer = list(ir.DenseI64ArrayAttr(op.attributes["outer_dims_perm"])) if "outer_dims_perm" in op.attributes else []
    rank = packed - len(inner)
    return inner == list(range(rank - len(inner), rank)) and outer in ([], list(range(rank)))


def tile_key(v: ir.Value, source: Callable[[ir.Value], object] = lambda s: s) -> object:
    """Slices of one tensor at the same offsets and sizes are one tile (an op
    that reads a tensor twice gets two equal slices after tiling); `source`
    keys the sliced tensor."""
    if isinstance(v, ir.OpResult) and owner_op(v).name == "tensor.extract_slice":
        owner = owner_op(v)
        return ("slice", source(owner.operands[0]), tuple(_index_key(x) for x in list(owner.operands)[1:]),
                str(v.type), *(str(owner.attributes[a]) for a in ("static_offsets", "static_sizes", "static_strides")))
    return ("value", v)


def _index_key(v: ir.Value) -> object:
    """An index by what computes it: fusion gives each slice its own
    affine.apply of the same loop variables."""
    if isinstance(v, ir.OpResult) and owner_op(v).name in ("affine.apply", "affine.min", "affine.max"):
        owner = owner_op(v)
        return (owner.name, str(owner.attributes["map"]), tuple(_index_key(x) for x in owner.operands))
    if (c := const_int(v)) is not None:
        return c
    return v


def _body_footprint(ops: list[ir.Operation], alignment: int, precise: bool) -> int:
    buffers, in_place = _body_buffers(ops)
    if precise:
        return first_fit(buffers, alignment, in_place).peak
    # An elementwise result written over an input that dies there is that input's buffer.
    return sum(-(-b.bytes // alignment) * alignment for i, b in enumerate(buffers) if i not in in_place)


def measure(module: ir.Module, func_name: str, alignment: int = 1, precise: bool = False) -> Measurement:
    """`precise`: live ranges, in-place reuse and first-fit placement at
    `alignment` (the peak); otherwise every buffer counts, rounded up to it."""
    m = Measurement()
    func = find_func(module, func_name)
    for op in walk_ops(func.operation):
        if is_tileable(op.name):
            m.op_counts[op.name] = m.op_counts.get(op.name, 0) + 1
    for op in func.regions[0].blocks[0].operations:
        op = op.operation
        if op.name in LOOPS:
            m.nests.append(_measure_nest(op, alignment, precise))
        elif is_tileable(op.name):
            try:
                m.untiled.append(MeasuredOp(op.name, line_of(op), _body_footprint([op], alignment, precise)))
            except _Dynamic as exc:
                m.untiled.append(MeasuredOp(op.name, line_of(op), None, f"dynamic type {exc}"))
    return m


def _measure_nest(outer: ir.Operation, alignment: int, precise: bool) -> MeasuredNest:
    inside = list(walk_ops(outer))
    loops = [outer] + [o for o in inside if o.name in LOOPS]
    tileable = [o for o in inside if is_tileable(o.name)]
    has_inner = {_enclosing_loop(lp) for lp in loops[1:]}
    innermost = [lp for lp in loops if lp not in has_inner]
    names = [o.name for o in tileable]
    try:
        worst = 0
        for lp in innermost:
            chain = set()
            p: ir.Operation | None = lp
            while p is not None:
                chain.add(p)
                p = _enclosing_loop(p) if p != outer else None
            body = [o for o in tileable if _enclosing_loop(o) in chain]
            worst = max(worst, _body_footprint(body, alignment, precise))
        return MeasuredNest(outer.name, line_of(outer), names, len(innermost), worst)
    except _Dynamic as exc:
        return MeasuredNest(outer.name, line_of(outer), names, len(innermost), None, f"dynamic tile type {exc}")
