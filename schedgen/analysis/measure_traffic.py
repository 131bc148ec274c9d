"""Main-memory traffic measured on transformed IR, independently of the
planner's model (analysis/traffic.py): what `check` and `verify` report
next to the planned figure.

Per loop nest of the function body (its outermost loop), what the tileable
ops in it read from main memory and what the nest writes there:

- a read is an operand whose value comes, through slices and loop-carried
  values, from outside the nest (an argument, a constant, another nest's
  result), or from a tensor an inner loop of the nest assembles slice by
  slice (a two-level nest's block-sized values); an init counts only when
  the op's body reads it (an accumulator) and it holds data (not a
  tensor.empty);
- a write is every tensor.insert_slice and tensor.parallel_insert_slice in
  the nest (result tiles leaving for main memory), but a whole tile put
  back into an inner loop's accumulator, and a block an inner loop already
  wrote slice by slice (bufferization writes it in place);
- a read or write happens once per iteration of the loops around it, down to
  the innermost loop whose induction variable its slice depends on: a tile
  that does not move with an inner loop stays in local memory across it
  (hoisted), while every iteration of the outermost loop brings it in again;
- equal slices of one tensor in one iteration are one transfer (an input
  read by two ops of the nest, after or without CSE);
- a partial tile (sizes by `affine.min`) moves what it holds: the sizes are
  evaluated at every iteration of the loops they depend on.

An op outside any loop reads its inputs (and a read init) and writes its
results once.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import prod

from mlir import ir

from schedgen.analysis.measure import LOOPS, const_int, dim_bound, init_operands, owner_op, tile_key, walk_ops
from schedgen.ir.load import element_bytes
from schedgen.model.payload import is_tileable

# At most this many points of the loops a partial tile's sizes depend on are
# evaluated; past it, every tile counts at its full size (an upper bound).
_MAX_POINTS = 1 << 16


@dataclass
class MeasuredTraffic:
    read: int = 0
    written: int = 0
    exact: bool = True  # False: some partial tiles counted at their full size

    @property
    def total(self) -> int:
        return self.read + self.written


class _Loop:
    """An scf.forall or scf.for with static bounds: its induction variables and their values."""

    def __init__(self, op: ir.Operation) -> None:
        self.op = op
        if op.name == "scf.forall":
            lbs = list(ir.DenseI64ArrayAttr(op.attributes["staticLowerBound"]))
            ubs = list(ir.DenseI64ArrayAttr(op.attributes["staticUpperBound"]))
            steps = list(ir.DenseI64ArrayAttr(op.attributes["staticStep"]))
            self.ivs = list(op.regions[0].blocks[0].arguments)[:len(ubs)]
        else:
            lbs, ubs, steps = ([const_int(op.operands[i])] for i in range(3))
            self.ivs = [op.regions[0].blocks[0].arguments[0]]
        if any(v is None or ir.ShapedType.is_dynamic_size(v) for v in [*lbs, *ubs, *steps]):
            raise _NotStatic(op.name)
        self.ranges = [range(lb, ub, step) for lb, ub, step in zip(lbs, ubs, steps)]  # type: ignore[arg-type]

    @property
    def trips(self) -> int:
        return prod(len(r) for r in self.ranges)


class _NotStatic(Exception):
    pass


def _loops_around(op: ir.Operation, top: ir.Operation) -> list[ir.Operation]:
    """The loops from `top` down to `op`'s innermost enclosing loop."""
    out, p = [], op.parent
    while p is not None:
        if p.name in LOOPS:
            out.append(p)
        if p == top:
            break
        p = p.parent
    return list(reversed(out))


def _inside(v: ir.Value, top: ir.Operation) -> bool:
    """Whether `v` is defined within `top`'s regions."""
    p = v.owner.owner if isinstance(v, ir.BlockArgument) else owner_op(v)
    p = p.operation if isinstance(p, ir.OpView) else p
    while p is not None:
        if p == top:
            return True
        p = p.parent
    return False


def _root(v: ir.Value, top: ir.Operation) -> ir.Value:
    """Where the data `v` holds comes from: through slices, and from a loop's
    block arguments to the values the loop starts from."""
    for _ in range(10000):
        if isinstance(v, ir.BlockArgument):
            parent = v.owner.owner
            parent = parent.operation if isinstance(parent, ir.OpView) else parent
            if parent.name == "scf.for" and v.arg_number >= 1:
                v = parent.operands[3 + v.arg_number - 1]
                continue
            if parent.name == "scf.forall":
                rank = len(ir.DenseI64ArrayAttr(parent.attributes["staticUpperBound"]))
                if v.arg_number >= rank:  # a shared_outs argument: the loop's init
                    outs = list(parent.operands)[len(parent.operands) - len(parent.results):]
                    v = outs[v.arg_number - rank]
                    continue
            return v
        owner = owner_op(v)
        if owner.name == "tensor.extract_slice":
            v = owner.operands[0]
            continue
        return v
    return v


def _assembled(v: ir.Value) -> bool:
    """A loop result built from slices (tensor.insert_slice of part of its carried value), also through the
    loops nested in it (a row loop over several dims)."""
    if not isinstance(v, ir.OpResult) or owner_op(v).name != "scf.for":
        return False
    ops = owner_op(v).regions[0].blocks[0].operations
    yielded = ops[len(ops) - 1].operands[v.result_number]
    if not isinstance(yielded, ir.OpResult):
        return False
    inner = owner_op(yielded)
    if inner.name == "scf.for":
        return _assembled(yielded)
    return inner.name == "tensor.insert_slice" and inner.operands[0].type != yielded.type


def _holds_data(v: ir.Value) -> bool:
    return not (isinstance(v, ir.OpResult) and owner_op(v).name in ("tensor.empty", "bufferization.alloc_tensor"))


def _reads_init(op: ir.Operation, k: int) -> bool:
    """Whether the body of `op` uses the block argument of its init `k`."""
    if not op.regions or not op.regions[0].blocks:
        return False
    args = list(op.regions[0].blocks[0].arguments)
    n = len(init_operands(op))
    return len(args) >= n and any(True for _ in args[len(args) - n + k].uses)


def _index_values(v: ir.Value) -> list[ir.Value]:
    """The index values a slice reads: its offsets and sizes, and those of the slices it is cut from."""
    out = []
    while isinstance(v, ir.OpResult) and owner_op(v).name in ("tensor.extract_slice", "tensor.insert_slice",
                                                             "tensor.parallel_insert_slice"):
        owner = owner_op(v)
        first = 1 if owner.name == "tensor.extract_slice" else 2
        out += list(owner.operands)[first:]
        v = owner.operands[0] if owner.name == "tensor.extract_slice" else owner.operands[1]
    return out


def _depends(values: list[ir.Value], ivs: set) -> set:
    """The induction variables (of `ivs`) the index `values` are computed from."""
    found, todo, seen = set(), list(values), set()
    while todo:
        v = todo.pop()
        if v in seen:
            continue
        seen.add(v)
        if isinstance(v, ir.BlockArgument):
            if v in ivs:
                found.add(v)
            continue
        if isinstance(v, ir.OpResult):
            todo += list(owner_op(v).operands)
    return found


def _eval(v: ir.Value, env: dict) -> int | None:
    """An index value at one point of the loops (`env`: induction variable -> value)."""
    if isinstance(v, ir.BlockArgument):
        return env.get(v)
    if not isinstance(v, ir.OpResult):
        return None
    owner = owner_op(v)
    if owner.name == "arith.constant":
        return const_int(v)
    args = [_eval(x, env) for x in owner.operands]
    if None in args:
        return None
    if owner.name in ("affine.apply", "affine.min", "affine.max"):
        amap = ir.AffineMapAttr(owner.attributes["map"]).value
        dims, syms = args[:amap.n_dims], args[amap.n_dims:]
        vals = [_affine(e, dims, syms) for e in amap.results]  # type: ignore[arg-type]
        if None in vals:
            return None
        return vals[0] if owner.name == "affine.apply" else min(vals) if owner.name == "affine.min" else max(vals)  # type: ignore[type-var]
    a = args
    ops = {"arith.addi": lambda: a[0] + a[1], "arith.subi": lambda: a[0] - a[1], "arith.muli": lambda: a[0] * a[1],
           "arith.minsi": lambda: min(a), "arith.maxsi": lambda: max(a), "arith.index_cast": lambda: a[0]}
    return ops[owner.name]() if owner.name in ops else None  # type: ignore[index]


def _affine(e: ir.AffineExpr, dims: list[int], syms: list[int]) -> int | None:
    if isinstance(e, ir.AffineConstantExpr):
        return e.value
    if isinstance(e, ir.AffineDimExpr):
        return dims[e.position]
    if isinstance(e, ir.AffineSymbolExpr):
        return syms[e.position]
    a, b = _affine(e.lhs, dims, syms), _affine(e.rhs, dims, syms)
    if a is None or b is None:
        return None
    if isinstance(e, ir.AffineAddExpr):
        return a + b
    if isinstance(e, ir.AffineMulExpr):
        return a * b
    if b == 0:
        return None
    if isinstance(e, ir.AffineFloorDivExpr):
        return a // b
    if isinstance(e, ir.AffineCeilDivExpr):
        return -(-a // b)
    return a % b if isinstance(e, ir.AffineModExpr) else None


def _slice_sizes(slice_op: ir.Operation, rank: int) -> list[ir.Value | int] | None:
    """The sizes of an extract/insert slice op: static, or the index values (None: rank-reducing)."""
    segments = list(ir.DenseI32ArrayAttr(slice_op.attributes["operandSegmentSizes"]))
    first = sum(segments[:-3]) + segments[-3]  # after the tensors and the offsets
    sizes = list(slice_op.operands)[first:first + segments[-2]]
    static = list(ir.DenseI64ArrayAttr(slice_op.attributes["static_sizes"]))
    if len(static) != rank:
        return None
    dynamic = iter(sizes)
    return [next(dynamic) if ir.ShapedType.is_dynamic_size(n) else n for n in static]


def _sizes(v: ir.Value, slice_op: ir.Operation | None = None) -> list[ir.Value | int]:
    """Each dim of a tile: its static size, or the index value that sizes it
    (from the slice op that cuts or places it); -k-1 where neither says."""
    t = ir.RankedTensorType(v.type)
    dims: list[ir.Value | int] = list(t.shape)
    if not any(ir.ShapedType.is_dynamic_size(n) for n in dims):
        return dims
    if slice_op is None and isinstance(v, ir.OpResult) and owner_op(v).name == "tensor.extract_slice":
        slice_op = owner_op(v)
    if slice_op is not None and (sizes := _slice_sizes(slice_op, len(dims))) is not None:
        return sizes
    return [n if not ir.ShapedType.is_dynamic_size(n) else -(k + 1) for k, n in enumerate(dims)]


def _moved(v: ir.Value, index_values: list[ir.Value], loops: list[_Loop], dims: list[ir.Value | int]
           ) -> tuple[int, bool]:
    """Bytes of tile `v` (sized `dims`) moved over the whole nest (`loops`:
    outermost first; the outermost counts whole), and whether that is exact."""
    ivs = {iv: lp for lp in loops for iv in lp.ivs}
    dep = _depends(index_values, set(ivs))
    deepest = max((loops.index(ivs[iv]) for iv in dep), default=0)
    counted = loops[:deepest + 1]
    nbytes = element_bytes(ir.RankedTensorType(v.type).element_type)
    static = prod(d for d in dims if isinstance(d, int) and d >= 0)
    dynamic = [d for d in dims if not isinstance(d, int)]
    unknown = [k for k, d in enumerate(dims) if isinstance(d, int) and d < 0]
    bound = prod(dim_bound(v, k) or 0 for k in unknown) if unknown else 1
    trips = prod(lp.trips for lp in counted)
    if not dynamic:
        return static * bound * trips * nbytes, not unknown
    size_ivs = [iv for lp in counted for iv in lp.ivs if iv in _depends(dynamic, set(ivs))]
    ranges = [r for lp in counted for iv, r in zip(lp.ivs, lp.ranges) if iv in size_ivs]
    points = prod(len(r) for r in ranges)
    if points > _MAX_POINTS:
        full = prod(dim_bound(v, k) or 0 for k, d in enumerate(dims) if not isinstance(d, int))
        return static * full * bound * trips * nbytes, False
    total, exact = 0, not unknown
    for point in itertools.product(*ranges):
        env = dict(zip(size_ivs, point))
        sizes = [_eval(d, env) for d in dynamic]
        if None in sizes:
            sizes = [dim_bound(v, k) or 0 for k, d in enumerate(dims) if not isinstance(d, int)]
            exact = False
        total += prod(sizes)  # type: ignore[arg-type]
    return static * bound * total * (trips // max(1, points)) * nbytes, exact


def nest_traffic(top: ir.Operation) -> MeasuredTraffic:
    """The traffic of the loop nest whose outermost loop is `top`."""
    m = MeasuredTraffic()
    loops_of: dict = {}

    def loops(op: ir.Operation) -> list[_Loop]:
        return [loops_of.setdefault(lp, _Loop(lp)) for lp in _loops_around(op, top)]

    seen: set = set()
    for op in walk_ops(top):
        if is_tileable(op.name):
            inits = init_operands(op)
            for v in op.operands:
                if not isinstance(v.type, ir.RankedTensorType):
                    continue
                if v in inits and not _reads_init(op, inits.index(v)):
                    continue
                source = _root(v, top)
                if not _holds_data(source) or (_inside(source, top) and not _assembled(source)):
                    continue
                key = _slice_key(v)
                if key in seen:
                    continue
                seen.add(key)
                moved, exact = _moved(v, _index_values(v), loops(op), _sizes(v))
                m.read += moved
                m.exact &= exact
        elif op.name in ("tensor.insert_slice", "tensor.parallel_insert_slice") and not _updates_in_place(op, top) \
                and not _assembled(op.operands[0]):  # a block an inner loop wrote tile by tile: placed already
            index_values = list(op.operands)[2:]
            moved, exact = _moved(op.operands[0], index_values, loops(op), _sizes(op.operands[0], op))
            m.written += moved
            m.exact &= exact
    return m


def _updates_in_place(op: ir.Operation, top: ir.Operation) -> bool:
    """A whole-tile tensor.insert_slice into the value an inner scf.for
    carries (a K loop's accumulator): it stays in local memory."""
    if op.name != "tensor.insert_slice" or op.operands[0].type != op.operands[1].type:
        return False
    dest = op.operands[1]
    if not isinstance(dest, ir.BlockArgument):
        return False
    loop = dest.owner.owner
    loop = loop.operation if isinstance(loop, ir.OpView) else loop
    return loop.name == "scf.for" and loop != top


def _slice_key(v: ir.Value) -> object:
    """Slices at the same offsets and sizes of equal slices are one tile too."""
    return tile_key(v, _slice_key)


def untiled_traffic(op: ir.Operation) -> MeasuredTraffic:
    """An op outside any loop: its inputs (and a read init) once, its results once."""
    m = MeasuredTraffic()
    inits = init_operands(op)
    for v in op.operands:
        if not isinstance(v.type, ir.RankedTensorType) or not ir.RankedTensorType(v.type).has_static_shape:
            continue
        if v in inits and (not _reads_init(op, inits.index(v)) or not _holds_data(v)):
            continue
        m.read += prod(ir.RankedTensorType(v.type).shape) * element_bytes(ir.RankedTensorType(v.type).element_type)
    for r in op.results:
        t = ir.RankedTensorType(r.type)
        m.written += prod(t.shape) * element_bytes(t.element_type)
    return m


def measured_traffic(top: ir.Operation) -> MeasuredTraffic | None:
    """A top-level loop's or op's traffic; None when a loop has dynamic bounds."""
    try:
        return nest_traffic(top) if top.name in LOOPS else untiled_traffic(top) if is_tileable(top.name) else None
    except _NotStatic:
        return None
