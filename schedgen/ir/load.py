"""Load a payload: parse it, normalize it, and read the tileable ops of one
function with the MLIR bindings into schedgen.model.payload's dataclasses.
Named linalg ops are generalized on a clone of the module to read their
indexing maps and iterator kinds; the clone keeps op order, so ops pair up
by position.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import lcm, prod
from pathlib import Path

from mlir import ir

from schedgen.errors import SchedgenError
from schedgen.ir.context import new_context, parse_file, without_resources
from schedgen.ir.normalize import generalize, img2col_convs, needed_steps, normalize, placed_pads, transpose_b_matmuls
from schedgen.ir.queries import (
    clone_module,
    find_func,
    indexing_maps,
    iterator_kinds,
    symbol,
)
from schedgen.ir.slices import STEP as SLICE_STEP
from schedgen.ir.slices import slice_rounds
from schedgen.ir.tags import stamp_tags
from schedgen.model.payload import (
    Linear,
    Operand,
    OtherOp,
    Payload,
    Result,
    TileableOp,
    Use,
    ValueRef,
    is_tileable,
)

# Largest tensor accepted: beyond any memory a payload could run in.
MAX_TENSOR_BYTES = 1 << 40


# Non-tileable ops that make a tensor without computing it (views, constants,
# empties). tensor.insert_slice (what a concat becomes, schedgen.ir.normalize) places
# a tensor into a bigger one in main memory: bufferization writes the inserted
# value's producer straight into its slice, so it holds nothing in local memory.
_NO_COMPUTE = ("tensor.empty", "arith.constant", "tensor.expand_shape", "tensor.collapse_shape", "tensor.cast",
               "tensor.reshape", "tensor.bitcast", "tensor.extract_slice", "tensor.insert_slice",
               "bufferization.to_tensor", "bufferization.alloc_tensor", "ml_program.global_load_const")


def element_bytes(t: ir.Type) -> int:
    if isinstance(t, ir.IndexType):
        return 8
    width = getattr(t, "width", None)
    if width is None:
        raise ValueError(f"unsupported element type {t}")
    return max(1, (width + 7) // 8)


def _linear(expr: ir.AffineExpr) -> Linear | None:
    if isinstance(expr, ir.AffineDimExpr):
        return Linear(((expr.position, 1),), 0)
    if isinstance(expr, ir.AffineConstantExpr):
        return Linear((), expr.value)
    if isinstance(expr, ir.AffineAddExpr):
        add = expr
        lhs, rhs = _linear(add.lhs), _linear(add.rhs)
        if lhs is None or rhs is None:
            return None
        coeffs: dict[int, int] = dict(lhs.coeffs)
        for d, c in rhs.coeffs:
            coeffs[d] = coeffs.get(d, 0) + c
        return Linear(tuple(sorted((d, c) for d, c in coeffs.items() if c)), lhs.const + rhs.const)
    if isinstance(expr, ir.AffineMulExpr):
        mul = expr
        lhs, rhs = _linear(mul.lhs), _linear(mul.rhs)
        if lhs is None or rhs is None:
            return None
        if not rhs.coeffs:
            lhs, rhs = rhs, lhs
        if lhs.coeffs:  # product of two dims: not affine-linear
            return None
        k = lhs.const
        return Linear(tuple((d, c * k) for d, c in rhs.coeffs if c * k), rhs.const * k)
    return None


def _tree(expr: ir.AffineExpr) -> tuple | None:
    """A non-linear index as a payload.IndexTree (None: a form it cannot bound)."""
    if isinstance(expr, ir.AffineDimExpr):
        return ("d", expr.position)
    if isinstance(expr, ir.AffineConstantExpr):
        return ("c", expr.value)
    if isinstance(expr, ir.AffineAddExpr):
        lhs, rhs = _tree(expr.lhs), _tree(expr.rhs)
        return None if lhs is None or rhs is None else ("+", lhs, rhs)
    kinds = ((ir.AffineMulExpr, "*"), (ir.AffineFloorDivExpr, "//"), (ir.AffineModExpr, "%"))
    for cls, kind in kinds:
        if isinstance(expr, cls) and isinstance(expr.rhs, ir.AffineConstantExpr) and expr.rhs.value > 0:
            lhs = _tree(expr.lhs)
            return None if lhs is None else (kind, lhs, expr.rhs.value)
    return None


def _grains(expr: ir.AffineExpr, above: int = 1) -> dict[int, int] | None:
    """Per dim of `expr`, the grain of its tiles: the product of the divisors
    of the floordivs above it (`above`: those outside `expr`), a mod's
    divisor standing for those it is a multiple of; None where the
    expression is not a positive sum of such terms (a tile of it has no
    known slice)."""
    if isinstance(expr, ir.AffineDimExpr):
        return {expr.position: above}
    if isinstance(expr, ir.AffineConstantExpr):
        return {}
    if isinstance(expr, ir.AffineModExpr) and isinstance(expr.rhs, ir.AffineConstantExpr) and expr.rhs.value > 0:
        # Its values repeat every m: tiles of m cover them all, and the divisors above it that divide m
        # need no more (an im2col's (k mod 9) floordiv 3 takes tiles of 9 along k, not 27)
        m = expr.rhs.value
        return _grains(expr.lhs, m if m % above == 0 else above * m)
    if isinstance(expr, ir.AffineFloorDivExpr) and isinstance(expr.rhs, ir.AffineConstantExpr) and expr.rhs.value > 0:
        return _grains(expr.lhs, above * expr.rhs.value)
    if isinstance(expr, ir.AffineMulExpr) and isinstance(expr.rhs, ir.AffineConstantExpr) and expr.rhs.value > 0:
        return _grains(expr.lhs, above)
    if isinstance(expr, ir.AffineAddExpr):
        lhs, rhs = _grains(expr.lhs, above), _grains(expr.rhs, above)
        if lhs is None or rhs is None:
            return None
        return {d: lcm(lhs.get(d, 1), rhs.get(d, 1)) for d in lhs.keys() | rhs.keys()}
    return None


def _dims_of(expr: ir.AffineExpr) -> set[int]:
    if isinstance(expr, ir.AffineDimExpr):
        return {expr.position}
    if isinstance(expr, ir.AffineBinaryExpr):
        return _dims_of(expr.lhs) | _dims_of(expr.rhs)
    return set()


def _index_grains(maps: list[ir.AffineMap], domain: tuple[int | None, ...]) -> tuple[tuple[int, int], ...]:
    """TileableOp.index_grains: per dim a non-linear index reads, the grain its
    tiles must be multiples of (0: whole, also when the grain does not divide
    the dim: its last tile would not be a multiple)."""
    grains: dict[int, int] = {}
    for m in maps:
        for e in m.results:
            if _linear(e) is not None:
                continue
            found = _grains(e)
            for d in _dims_of(e):
                g = found.get(d) if found is not None else None
                g = 0 if g is None or grains.get(d) == 0 else lcm(g, grains.get(d, 1))
                grains[d] = g if g and domain[d] and domain[d] % g == 0 else 0
    return tuple(sorted(grains.items()))


def _public_funcs(module: ir.Module) -> list[ir.OpView]:
    funcs = []
    for op in module.body.operations:
        if op.operation.name != "func.func" or not op.regions[0].blocks:
            continue
        vis = op.attributes["sym_visibility"] if "sym_visibility" in op.attributes else None
        if vis is None or ir.StringAttr(vis).value == "public":
            funcs.append(op)
    return funcs


def select_function(module: ir.Module, path: str, func: str | None) -> ir.OpView:
    funcs = _public_funcs(module)
    if func is not None:
        op = find_func(module, func)
        if op is not None and op.regions[0].blocks:
            return op
        names = ", ".join("@" + symbol(f) for f in funcs) or "none"
        raise SchedgenError(path, f"no function @{func} (public functions: {names})")
    if not funcs:
        raise SchedgenError(path, "no public function with a body")
    if len(funcs) > 1:
        names = ", ".join(f"@{symbol(f)} at line {_loc(f.operation)[0]}" for f in funcs)
        raise SchedgenError(f"{path}:{_loc(funcs[1].operation)[0]}", f"is one of several public functions ({names}); "
                            "pick one with --func", op="func.func")
    return funcs[0]


@dataclass
class LoadedPayload:
    """A payload as a command loads it, once: its context, its module
    (normalized as the schedule will, each tileable op tagged with its model
    index) and the model of its function. Whoever transforms the module
    works on a copy (schedgen.ir.queries.clone_module)."""

    ctx: ir.Context
    module: ir.Module
    model: Payload
    text: bytes | None = None  # what was parsed, when not the file: without its weights


def load(path: Path | str, func: str | None = None, weights: bool = True, cpu: bool = False) -> LoadedPayload:
    """Parse `path`, normalize it, build the model of one function and tag its
    ops. `cpu`: normalized for a CPU target's schedule. `weights=False`: without the data of its resources (torch-mlir's
    weights), for a command that only plans (context.without_resources)."""
    path = Path(path)
    ctx = new_context()
    text = None if weights else without_resources(path)
    module = parse_file(path, ctx, "payload", text)
    with ctx, ir.Location.unknown():
        fn = select_function(module, str(path), func)
        steps = needed_steps(fn.operation, cpu)
        convs = img2col_convs(fn.operation) if "img2col" in steps else ()
        gemvs = transpose_b_matmuls(fn.operation) if "transpose_b" in steps else ()
        pads = placed_pads(fn.operation) if "pad_in_place" in steps else ()
        normalize(module, symbol(fn), steps, convs, gemvs, pads)
        module, rounds = slice_rounds(module, symbol(fn))
        fn = select_function(module, str(path), symbol(fn))
        sliced = transpose_b_matmuls(fn.operation) if cpu and rounds else ()
        normalize(module, symbol(fn), ("transpose_b",) if sliced else (), gemvs=sliced)
        # unit dims the slices left folded too, so that the schedule's steps, rerun by `check`, change nothing
        normalize(module, symbol(fn), ("fold_unit_dims",) if rounds and "fold_unit_dims" in steps else ())
        steps += (SLICE_STEP,) if rounds else ()
        generalized = clone_module(module)  # op order pairs the two up
        generalize(generalized.operation)
        model = replace(_build(module, generalized.operation, str(path), symbol(fn), steps), img2col_convs=convs,
                        transpose_b_matmuls=gemvs, placed_pads=pads, slice_rounds=rounds, sliced_gemvs=sliced)
        stamp_tags(module, model)
    return LoadedPayload(ctx, module, model, text)


def load_payload(path: Path | str, func: str | None = None, cpu: bool = False) -> Payload:
    """The payload model of one function of `path` (see `load`)."""
    return load(path, func, cpu=cpu).model


# The transform interpreter rewrites ops in place; a pass pipeline would run
# the greedy driver, which hoists and folds constants and so shifts positions.
def _loc(op: ir.Operation) -> tuple[int, int]:
    loc = op.location
    if loc.is_a_file():
        return loc.start_line, loc.start_col
    return 0, 0


def _build(module: ir.Module, generalized: ir.Operation, path: str, fn_name: str,
           steps: tuple[str, ...]) -> Payload:
    fn = select_function(module, path, fn_name)
    block = fn.regions[0].blocks[0]
    gen_fn = next(op for op in generalized.regions[0].blocks[0].operations
                  if op.operation.name == "func.func" and symbol(op) == fn_name)
    body = list(block.operations)
    gen_body = list(gen_fn.regions[0].blocks[0].operations)
    if len(body) != len(gen_body):  # generalization is one-to-one; anything else is a bug
        raise SchedgenError(path, "internal: generalization changed the number of ops")

    producer: dict[ir.Value, ValueRef] = {}
    for i, arg in enumerate(block.arguments):
        producer[arg] = ValueRef("arg", i)
    where = _Positions(body)
    tileable_pos, other_pos, use_of = where.tileable, where.other, where.use_of
    ops: list[TileableOp] = []
    others: list[OtherOp] = []
    returns: tuple[ValueRef, ...] = ()
    for pos, (op, gop) in enumerate(zip(body, gen_body)):
        o = op.operation
        for r, res in enumerate(o.results):
            producer[res] = ValueRef("op", tileable_pos[pos], r) if pos in tileable_pos else ValueRef("other", other_pos[pos], r)
        if o.name == "func.return":
            returns = tuple(producer[v] for v in o.operands)
            continue
        line, col = _loc(o)
        if o.regions and not is_tileable(o.name) and _holds_tileable(o):
            raise SchedgenError(f"{path}:{line}", "holds linalg ops inside a loop or region the payload already has: "
                                "schedgen plans loop-free linalg on tensors and cannot count what that region keeps "
                                "in local memory (schedule the ops before they are put in a loop)", op=o.name)
        if pos not in tileable_pos:
            computes = o.name not in _NO_COMPUTE and any(isinstance(r.type, ir.RankedTensorType) for r in o.results)
            others.append(OtherOp(other_pos[pos], o.name, line,
                                  tuple(producer[v] for v in o.operands if v in producer), computes))
            continue
        ops.append(_tileable(o, gop.operation, tileable_pos[pos], path, line, col, producer, use_of))
    # After the ops, so that a dynamic shape is reported at the op using it.
    line, _ = _loc(fn.operation)
    arg_types = [_static_shape(arg.type, path, line, f"@{fn_name} argument {i}")
                 for i, arg in enumerate(block.arguments)]
    _refuse_untileable_between(ops, others, path)
    return Payload(path=path, func_name=fn_name, func_line=_loc(fn.operation)[0], arg_types=tuple(arg_types),
                   ops=tuple(ops), others=tuple(others), returns=returns, normalize=steps)



class _Positions:
    """Each body op's index among the tileable ops or among the others, and
    what a user of a value is (a nested user counts as the body op holding it)."""

    def __init__(self, body: list[ir.OpView]) -> None:
        self.tileable: dict[int, int] = {}
        self.other: dict[int, int] = {}
        for pos, op in enumerate(body):
            if is_tileable(op.operation.name):
                self.tileable[pos] = len(self.tileable)
            else:
                self.other[pos] = len(self.other)
        self.pos_of_op = {op.operation: pos for pos, op in enumerate(body)}

    def use_of(self, owner: ir.Operation) -> Use:
        if owner not in self.pos_of_op:  # a user nested in a region of a body op
            while owner.parent is not None and owner.parent not in self.pos_of_op:
                owner = owner.parent
            owner = owner.parent if owner.parent is not None else owner
        pos = self.pos_of_op[owner]
        if owner.name == "func.return":
            return Use("return", 0)
        return Use("op", self.tileable[pos]) if pos in self.tileable else Use("other", self.other[pos])

def _holds_tileable(op: ir.Operation) -> bool:
    found = []

    def visit(o: ir.Operation) -> ir.WalkResult:
        if is_tileable(o.name):  # (`op` itself is not: the caller asks about other ops only)
            found.append(o)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return bool(found)


def _refuse_untileable_between(ops: list[TileableOp], others: list[OtherOp], path: str) -> None:
    """An op that computes a tensor without TilingInterface, on a path from
    one tileable op to another (through views), would have to hold its whole
    tensors in local memory: no schedule can tile it or fuse across it."""
    fed: set[int] = set()  # others downstream of a tileable op
    for o in others:  # program order: operands first
        if any(v.kind == "op" or (v.kind == "other" and v.index in fed) for v in o.operands):
            fed.add(o.index)
    feeds = {v.value.index for op in ops for v in op.operands if v.value.kind == "other"}
    for o in reversed(others):
        if o.index in feeds:
            feeds |= {v.index for v in o.operands if v.kind == "other"}
    for o in others:
        if o.computes and o.index in fed and o.index in feeds:
            hint = " (express it as a linalg op: mlir-opt --convert-elementwise-to-linalg)" \
                if o.name.split(".")[0] in ("arith", "math") else ""
            raise SchedgenError(f"{path}:{o.line}", "computes a tensor between tileable ops but has no "
                                f"TilingInterface: no schedule can tile it or fuse across it{hint}", op=o.name)


def _static_shape(t: ir.Type, path: str, line: int, what: str) -> tuple[tuple[int, ...], str]:
    if not isinstance(t, ir.RankedTensorType):
        return ((), str(t))
    _check_shape(ir.RankedTensorType(t), f"{path}:{line}", f"{what} has", None)
    return (tuple(t.shape), str(t.element_type))


def _check_shape(t: ir.RankedTensorType, where: str, what: str, op: str | None) -> None:
    """Shapes schedgen can plan: static, no empty dim, at most MAX_TENSOR_BYTES."""
    if not t.has_static_shape:
        raise SchedgenError(where, f"{what} dynamic shape {t}; only static shapes are supported", op=op)
    if 0 in t.shape:
        raise SchedgenError(where, f"{what} the zero-size shape {t}: there is nothing to tile", op=op)
    size = prod(t.shape) * element_bytes(t.element_type)
    if size > MAX_TENSOR_BYTES:
        raise SchedgenError(where, f"{what} the shape {t} of {size} bytes, over the {MAX_TENSOR_BYTES} bytes "
                            "(1 TiB) a tensor may have here", op=op)


def iteration_domain(g: ir.Operation) -> tuple[int | None, ...]:
    """Loop ranges of a tileable op (`g`: linalg ops generalized), read off
    its operands' static shapes through its indexing maps; None where no
    operand dim is indexed by the loop alone, or that dim is dynamic (a
    partial tile). pad and unpack iterate over their result, pack over its
    result's outer dims."""
    if g.name != "linalg.generic":
        shape = ir.RankedTensorType(g.results[0].type).shape
        if g.name == "linalg.pack":  # the packed result's outer dims
            shape = shape[:ir.RankedTensorType(g.operands[0].type).rank]
        return tuple(None if ir.ShapedType.is_dynamic_size(n) else n for n in shape)
    ranges: list[int | None] = [None] * len(ir.ArrayAttr(g.attributes["iterator_types"]))
    for v, m in zip(g.operands, indexing_maps(g)):
        if not isinstance(v.type, ir.RankedTensorType):
            continue
        shape = ir.RankedTensorType(v.type).shape
        for k, e in enumerate(m.results):
            lin = _linear(e)
            d = lin.as_dim() if lin is not None else None
            if d is not None and ranges[d] is None and not ir.ShapedType.is_dynamic_size(shape[k]):
                ranges[d] = shape[k]
    return tuple(ranges)


def _tileable(o: ir.Operation, g: ir.Operation, index: int, path: str, line: int, col: int,
              producer: dict[ir.Value, ValueRef], use_of) -> TileableOp:
    where = f"{path}:{line}"

    def shaped(v: ir.Value) -> tuple[tuple[int, ...], str, int] | None:
        if not isinstance(v.type, ir.RankedTensorType):
            return None
        rt = ir.RankedTensorType(v.type)
        _check_shape(rt, where, "has", o.name)
        return tuple(rt.shape), str(rt.element_type), element_bytes(rt.element_type)

    results = []
    for res in o.results:
        s = shaped(res)
        if s is None:
            raise SchedgenError(where, f"result type {res.type} is not a ranked tensor (payloads are linalg on tensors)",
                                op=o.name)
        results.append(Result(s[0], s[1], s[2], str(res.type), tuple(use_of(u.owner) for u in res.uses)))

    if g.name == "linalg.generic":
        maps = indexing_maps(g)
        iterators = iterator_kinds(g)
        operands = _generic_operands(o, g, maps, producer, shaped)
        domain = iteration_domain(g)
        if any(d is None for d in domain):
            raise SchedgenError(where, "cannot derive static loop ranges from the indexing maps", op=o.name)
        body = tuple(b.operation.name for b in g.regions[0].blocks[0].operations
                     if b.operation.name != "linalg.yield")
        return TileableOp(index, o.name, line, col, tuple(d for d in domain if d is not None), iterators,
                          tuple(operands), tuple(results), body, index_grains=_index_grains(maps, domain))

    # tensor.pad, linalg.pack, linalg.unpack: all-parallel domains without
    # affine operand maps. pad and unpack iterate over the result; pack over
    # the packed result's outer dims (in its order). The destination of pack
    # and unpack is indexed by the domain (pack's inner tile dims whole), so
    # its tile is the one written; what they read is counted as the result
    # tile's elements (footprint.py).
    domain_t = tuple(n for n in iteration_domain(o) if n is not None)
    operands = []
    for i, v in enumerate(o.operands):
        s = shaped(v)
        if s is None or v not in producer:
            continue
        is_init = o.name != "tensor.pad" and i == 1
        exprs = None
        if is_init:
            exprs = tuple(Linear(((k, 1),), 0) if k < len(domain_t) else None for k in range(len(s[0])))
        operands.append(Operand(producer[v], s[0], s[1], s[2], is_init, None, exprs, not is_init, position=i))
    return TileableOp(index, o.name, line, col, domain_t, ("parallel",) * len(domain_t),
                      tuple(operands), tuple(results), unpacked_tiles=_unpacked_tiles(o), pad_low=_pad_low(o))


def _generic_operands(o: ir.Operation, g: ir.Operation, maps: list[ir.AffineMap],
                      producer: dict[ir.Value, ValueRef], shaped) -> list[Operand]:
    """The tensor operands of `o`, read off its generalized form `g`."""
    n_inputs = len(g.operands) - len(g.results)
    args = g.regions[0].blocks[0].arguments
    operands = []
    for i, (v, m) in enumerate(zip(g.operands, maps)):
        s = shaped(v)
        if s is None:  # scalar operand (linalg.fill's value)
            continue
        exprs = tuple(_linear(e) for e in m.results)
        reads = i < n_inputs or any(True for _ in args[i].uses)
        trees = tuple(None if x is not None else _tree(e) for x, e in zip(exprs, m.results)) if None in exprs else ()
        operands.append(Operand(producer[o.operands[i]], s[0], s[1], s[2], i >= n_inputs, str(m), exprs, reads, trees,
                                i))
    return operands


def _pad_low(o: ir.Operation) -> tuple[int, ...]:
    """A tensor.pad's static low padding per dim (() when any is dynamic)."""
    if o.name != "tensor.pad":
        return ()
    low = tuple(ir.DenseI64ArrayAttr(o.attributes["static_low"]))
    return () if any(ir.ShapedType.is_dynamic_size(n) for n in low) else low


def _unpacked_tiles(o: ir.Operation) -> tuple[tuple[int, int], ...]:
    """(result dim, inner tile size) per dim a linalg.unpack unpacks."""
    if o.name != "linalg.unpack":
        return ()
    return tuple(zip(ir.DenseI64ArrayAttr(o.attributes["inner_dims_pos"]),
                     ir.DenseI64ArrayAttr(o.attributes["static_inner_tiles"])))

