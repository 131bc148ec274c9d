"""Precise memory check: simulate one loop body's local buffers instead of
estimating them (seed "The Tile and Fuse Pass", memory footprint check).

For a candidate nest (root, fused producers, tile sizes):
  1. extract the nest's ops into a temporary module whose arguments are the
     nest's inputs (cheap producers such as tensor.empty and scalar constants
     are cloned along);
  2. apply the candidate's tiling script (the same template as `generate`,
     tiling only; the caller passes it in) with the transform interpreter;
  3. loop reduction: every tiling loop keeps only its first iteration (tile
     sizes divide the loop ranges, so every tile is the same), so a check
     costs the same for 4 tiles or 4096;
  4. bufferize (one-shot): intermediates become local allocations, tiles of
     the nest's inputs and outputs become subviews of main memory, each of
     which is one local buffer (the tile copied in or out);
  5. address assignment: each buffer lives from the first to the last op of
     the body that touches it; offsets are assigned first-fit at the target's
     alignment, and an elementwise op may write its result in place over an
     input tile that dies there. Peak = highest end offset.
"""

from __future__ import annotations

from collections.abc import Callable
from math import prod

from mlir import ir
from mlir.dialects import arith
from mlir.dialects import func as func_d
from mlir.dialects.transform import interpreter
from mlir.passmanager import PassManager

from schedgen.analysis.measure import measure
from schedgen.analysis.placement import (
    Assignment,
    Buffer,
    elementwise,
    first_fit,
    n_inputs,
)
from schedgen.ir.context import printing_assumes_verified
from schedgen.ir.load import LoadedPayload, element_bytes, load
from schedgen.ir.normalize import has_packs, run_steps
from schedgen.ir.queries import clone_module, find_func, find_symbol, nested_ops
from schedgen.ir.tags import tagged_ops
from schedgen.model.payload import Payload, is_tileable
from schedgen.model.plan import FuseMode, LoopNest, OpRef, Plan
from schedgen.model.target import Target
from schedgen.progress import Progress, progress

BUFFERIZE = ("builtin.module(canonicalize, one-shot-bufferize{bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map}, canonicalize, cse)")


_VIEWS = ("memref.subview", "memref.cast", "memref.expand_shape", "memref.collapse_shape",
          "memref.reinterpret_cast")


_CLONED_PRODUCERS = ("tensor.empty", "arith.constant")


def _memref_bytes(t: ir.Type) -> int:
    if not isinstance(t, ir.MemRefType) or not t.has_static_shape:
        raise ValueError(f"local buffer of non-static type {t}")
    return prod(t.shape) * element_bytes(t.element_type)


def _base(v: ir.Value) -> ir.Value:
    """The allocation or argument a chain of views starts from."""
    while isinstance(v, ir.OpResult) and v.owner.name in _VIEWS:
        v = v.owner.operands[0]
    return v


def assign_body(fn: ir.OpView, alignment: int) -> Assignment:
    """Local buffers of a bufferized, loop-reduced function and their offsets."""
    body = [op.operation for op in fn.regions[0].blocks[0].operations]
    returned = set()
    for op in body:
        if op.name == "func.return":
            for v in op.operands:
                returned.add(_base(v))
    keys: dict[object, int] = {}
    buffers: list[Buffer] = []
    in_place: dict[int, int] = {}
    position = 0
    for op in body:
        if not (is_tileable(op.name) or op.name == "memref.copy"):
            continue
        position += 1
        used: list[tuple[int, bool]] = []  # (buffer index, written)
        n_results_like = len(op.operands) - n_inputs(op)
        for k, v in enumerate(op.operands):
            if not isinstance(v.type, ir.MemRefType):
                continue
            root = _base(v)
            local_alloc = isinstance(root, ir.OpResult) and root.owner.name in ("memref.alloc", "memref.alloca") \
                and root not in returned
            key = root if local_alloc else v  # the tile the op reads or writes, not a wider view
            if key not in keys:
                what = f"{'intermediate' if local_alloc else 'tile of ' + _describe(root)} {v.type}"
                keys[key] = len(buffers)
                buffers.append(Buffer(what, _memref_bytes(key.type), position, position))
            idx = keys[key]
            buffers[idx].end = position
            used.append((idx, k >= len(op.operands) - n_results_like))
        # An elementwise op, or the copy that bufferization adds to move a
        # result tile out, may write over an input that dies there.
        if elementwise(op) or op.name == "memref.copy":
            outs = [i for i, w in used if w and buffers[i].start == position]
            ins = [i for i, w in used if not w]
            for o in outs:
                for i in ins:
                    if i not in in_place.values() and buffers[i].bytes == buffers[o].bytes:
                        in_place[o] = i
                        break
    # An input may be overwritten only if nothing reads it after this op.
    in_place = {o: i for o, i in in_place.items() if buffers[i].end == buffers[o].start}
    return first_fit(buffers, alignment, in_place)


def _describe(root: ir.Value) -> str:
    if isinstance(root, ir.BlockArgument):
        return f"input %arg{root.arg_number}"
    return "output"


def extract_nest(fn: ir.OpView, members: list[int], tileable: dict[int, ir.Operation]) -> ir.Module:
    """A module whose function computes the nest's ops (payload tileable op
    indices `members`) from arguments that are the nest's inputs; it returns
    the results used outside the nest."""
    ops = [tileable[i] for i in sorted(members)]
    inside = set(ops)
    mapping: dict[ir.Value, ir.Value] = {}
    args: list[ir.Value] = []
    clones: list[ir.Operation] = []

    def need(v: ir.Value) -> None:
        if v in mapping or v in args:
            return
        owner = v.owner if isinstance(v, ir.OpResult) else None
        if owner is not None and owner in inside:
            return
        if owner is not None and owner.name in _CLONED_PRODUCERS and _cheap(owner):
            for w in owner.operands:
                need(w)
            if owner not in clones:
                clones.append(owner)
            return
        args.append(v)

    for op in ops:
        for v in _all_operands(op):
            need(v)
    outputs = [r for op in ops for r in op.results if any(u.owner not in inside for u in r.uses)]
    with ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            f = func_d.FuncOp("nest", ir.FunctionType.get([a.type for a in args], [r.type for r in outputs]))
            block = f.add_entry_block()
        for a, b in zip(args, block.arguments):
            mapping[a] = b
        with ir.InsertionPoint(block):
            for op in sorted(clones, key=_position) + ops:
                c = op.clone()
                _remap(c, mapping)
                for r0, r1 in zip(op.results, c.results):
                    mapping[r0] = r1
            func_d.ReturnOp([mapping[r] for r in outputs])
    return module


def _position(op: ir.Operation) -> int:
    block = op.parent.regions[0].blocks[0]
    for i, o in enumerate(block.operations):
        if o.operation == op:
            return i
    return 0


def _cheap(op: ir.Operation) -> bool:
    """Constants are cloned when small (scalars, splats); weights stay inputs."""
    if op.name != "arith.constant":
        return True
    t = op.results[0].type
    value = op.attributes["value"]
    return not isinstance(t, ir.ShapedType) or (isinstance(value, ir.DenseElementsAttr) and value.is_splat)


def _all_operands(op: ir.Operation):
    """Operands of `op` and values its regions capture from outside."""
    yield from op.operands
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                for v in _all_operands(inner.operation):
                    if isinstance(v, ir.BlockArgument) and _defined_within(v, op):
                        continue
                    if isinstance(v, ir.OpResult) and _is_ancestor(op, v.owner):
                        continue
                    yield v


def _defined_within(arg: ir.BlockArgument, op: ir.Operation) -> bool:
    parent = arg.owner.owner
    return _is_ancestor(op, parent.operation if hasattr(parent, "operation") else parent)


def _is_ancestor(op: ir.Operation, other: ir.Operation) -> bool:
    p = other
    while p is not None:
        if p == op:
            return True
        p = p.parent
    return False


def _remap(op: ir.Operation, mapping: dict) -> None:
    for i, v in enumerate(op.operands):
        if v in mapping:
            op.operands[i] = mapping[v]
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                _remap(inner.operation, mapping)


def reduce_loops(module: ir.Module, which: str = "first") -> None:
    """Keep only one iteration of every tiling loop (the first, middle or
    last), then fold them."""
    def pick(n: int) -> int:
        return 0 if which == "first" else max(n - 1, 0) if which == "last" else n // 2

    for op in nested_ops(module.operation):
        if op.name == "scf.forall":
            if "staticUpperBound" in op.attributes and "staticLowerBound" in op.attributes:
                lbs = list(ir.DenseI64ArrayAttr(op.attributes["staticLowerBound"]))
                ubs = list(ir.DenseI64ArrayAttr(op.attributes["staticUpperBound"]))
                steps = list(ir.DenseI64ArrayAttr(op.attributes["staticStep"]))
                if min(ubs + lbs + steps) < 0:  # a dynamic bound: keep its first iteration only where static
                    continue
                lbs = [lb + pick(-(-(ub - lb) // st)) * st for lb, ub, st in zip(lbs, ubs, steps)]
                op.attributes["staticLowerBound"] = ir.DenseI64ArrayAttr.get(lbs)
                op.attributes["staticUpperBound"] = ir.DenseI64ArrayAttr.get(
                    [lb + st for lb, st in zip(lbs, steps)])
        elif op.name == "scf.for":
            lb, ub, step = op.operands[0], op.operands[1], op.operands[2]
            lbv, ubv, stepv = _const(lb), _const(ub), _const(step)
            if lbv is not None and stepv is not None:
                if ubv is not None:
                    lbv += pick(-(-(ubv - lbv) // stepv)) * stepv
                with ir.InsertionPoint(op), ir.Location.unknown():
                    op.operands[0] = arith.ConstantOp(ir.IndexType.get(), lbv).result
                    op.operands[1] = arith.ConstantOp(ir.IndexType.get(), lbv + stepv).result
    PassManager.parse("builtin.module(canonicalize)").run(module.operation)


def _const(v: ir.Value) -> int | None:
    if isinstance(v, ir.OpResult) and v.owner.name == "arith.constant":
        return ir.IntegerAttr(v.owner.attributes["value"]).value
    return None


def _apply(module: ir.Module, schedule: ir.Module) -> None:
    entry = find_symbol(schedule, "transform.named_sequence", "__transform_main")
    assert entry is not None, "a tiling script has @__transform_main"
    with printing_assumes_verified():  # a planner-made schedule on a nest it extracted
        interpreter.apply_named_sequence(module.operation, entry, schedule)


def simulate(module: ir.Module, schedule: ir.Module, alignment: int) -> Assignment:
    """Steps 2-5 on an extracted module (modified in place). A tiled pad's
    first tile may be all padding (nothing read, no producer computed): nests
    with pads are simulated at their first, middle and last tiles, and the
    worst counts. An op that canonicalization erases (min(x, x) is x: an
    identity generic) is still in the applied schedule: such a result is
    marked `folded`."""
    fn = next(op for op in module.body.operations if op.operation.name == "func.func")
    ops = _structured(fn.operation)
    _apply(module, schedule)
    # What `check` will measure on the tiled IR as the schedule leaves it: the
    # simulation never plans below that (canonicalized and lowered, an unpack
    # tile reads part of an inner tile and writes a smaller buffer than the IR names).
    measured = measure(module, "nest", alignment, precise=True)
    floor = max([n.footprint_bytes or 0 for n in measured.nests] + [u.footprint_bytes or 0 for u in measured.untiled])
    pads = any(op.name == "tensor.pad" for op in nested_ops(fn.operation))
    worst: Assignment | None = None
    kept = 0
    for which in ("first", "middle", "last") if pads else ("first",):
        copy = clone_module(module) if pads else module
        result, left = _simulate_one(copy, which, alignment)
        kept = max(kept, left)
        if worst is None or result.peak > worst.peak:
            worst = result
    assert worst is not None
    worst.folded = kept < ops
    worst.peak = max(worst.peak, floor)
    return worst


def _structured(op: ir.Operation) -> int:
    """linalg ops in `op` that tiling keeps and bufferization leaves as ops."""
    return sum(1 for o in nested_ops(op) if o.name.startswith("linalg.") and is_tileable(o.name)
               and o.name not in ("linalg.pack", "linalg.unpack"))


def _simulate_one(module: ir.Module, which: str, alignment: int) -> tuple[Assignment, int]:
    """The placement at one tile, and how many structured ops were left after the loops folded."""
    reduce_loops(module, which)
    fn = next(op for op in module.body.operations if op.operation.name == "func.func")
    left = _structured(fn.operation)
    # A tile of a fused producer's tensor.empty init is an empty tile of its own:
    # without this fold, bufferization would allocate the whole tensor.
    run_steps(module.operation, ("fold_empty",))
    if has_packs(fn.operation):  # no bufferization of their own: pads, reshapes and transposes, as the JIT runs them
        run_steps(module.operation, ("lower_packs",), "nest")
    PassManager.parse(BUFFERIZE).run(module.operation)
    fn = next(op for op in module.body.operations if op.operation.name == "func.func")
    return assign_body(fn, alignment), left


class PreciseChecker:
    """Simulates candidate nests of one payload function; each distinct
    (nest ops, tile sizes) is simulated once."""

    def __init__(self, payload: Payload, target: Target, tiling: Callable[[Plan], str],
                 source: LoadedPayload | None = None) -> None:
        """`source`: the payload as the command loaded it (normalized, tagged);
        without it, the payload's file is loaded again."""
        self.payload = payload
        self.target = target
        self.tiling = tiling  # a one-nest plan -> its tiling script
        source = source or load(payload.path, payload.func_name, cpu="img2col" in payload.normalize)
        self.ctx, self.module = source.ctx, source.module  # read only: nests are extracted into new modules
        with self.ctx:
            self.fn = find_func(self.module, payload.func_name)
            self.tileable = tagged_ops(self.fn)
        self.cache: dict[tuple, Assignment] = {}
        self.checks = 0
        self._bar: Progress | None = None  # opened at the first simulation

    def close(self) -> None:
        """Erase the progress bar (the planner closes its checker when done)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def check(self, nest: LoopNest) -> Assignment:
        members = sorted(o.index for o in nest.ops)
        key = (tuple(members), tuple(nest.tile_sizes), tuple((r.op, r.dim, r.size) for r in nest.reduction_tiling),
               tuple(p.index for p in nest.loop_producers))
        if key in self.cache:
            return self.cache[key]
        local = {old: new for new, old in enumerate(members)}
        ops = [OpRef(index=local[i], name=self.payload.ops[i].name, line=self.payload.ops[i].line,
                     result_type=self.payload.ops[i].results[0].type_str,
                     results=len(self.payload.ops[i].results)) for i in members]
        fragment = nest.model_copy(update={
            "root": ops[local[nest.root.index]],
            "producers": [ops[local[p.index]] for p in nest.producers],
            "loop_producers": [ops[local[p.index]] for p in nest.loop_producers],
            "loop_into": None if nest.loop_into is None else local[nest.loop_into],
            "consumers": [ops[local[c.index]] for c in nest.consumers],
            "reuse_dest": [local[i] for i in nest.reuse_dest],
            "cse_before": [local[i] for i in nest.cse_before],
            "cse_after": [local[i] for i in nest.cse_after],
            "recomputed": [],  # the only nest here: its matched handles are fresh
            "reduction_tiling": [r.model_copy(update={"op": local[r.op]}) for r in nest.reduction_tiling],
            "notes": [],
        })
        sub = Plan(payload=f"nest {nest.id} of {self.payload.path}", func="nest", target=self.target,
                   fuse_mode=FuseMode.MAX_PRODUCERS, ops=ops, nests=[fragment], untiled=[])
        if self._bar is None:
            self._bar = progress("precise checks", unit=" sim")
        with self.ctx, ir.Location.unknown():
            module = extract_nest(self.fn, members, self.tileable)
            schedule = ir.Module.parse(self.tiling(sub))
            result = simulate(module, schedule, self.target.alignment_bytes)
        self._bar.update()
        self.cache[key] = result
        self.checks += 1
        return result

