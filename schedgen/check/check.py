"""Check a schedule on its payload without executing anything: apply it to a
copy and report, per loop nest, what the IR holds -- the loops and their
steps, every op's tile, the footprint against the budget -- and every
violation: a nest over the budget, an untiled op over the budget, an op
computed more than once. Each nest names the schedule line that made it.

Which line made a loop: a copy of the schedule gets, after every transform
op that creates loops or fuses ops, a `transform.annotate` that stamps the
line on the payload ops its result handles hold (attribute
`schedgen.origin`). Ops that rebuild a loop they take as an operand
(fuse_into_containing_op, transform.xtc.fuse_consumer) pass on the line
of the op that made that loop, so a nest is named after the op that tiled
it, however many steps grew it later.

"Computed more than once" counts work, not ops: every tileable op inside a
nest does its tile's iterations once per iteration of the loops around it,
and the sum over all copies of an op must not exceed its iteration domain.
That catches a producer fused into a loop along a dim it does not have
(recomputed for every tile along it) as well as a producer left outside
while a fused copy also runs inside. On CPU schedules a gather (an im2col
copy) may be done once per iteration of the forall around it: the planner
redoes one in each core's reduction loop instead of sharing it across cores.
An op that reads no tensor (a fill) may be done once in each nest that
reads it: the planner recomputes it there instead of writing it out.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from math import prod
from pathlib import Path

from mlir import ir
from mlir.dialects import transform
from pydantic import BaseModel, computed_field

from schedgen.analysis.measure import (
    LOOPS,
    Measurement,
    const_int,
    dim_bound,
    line_of,
    measure,
    owner_op,
    walk_ops,
)
from schedgen.analysis.measure_traffic import measured_traffic
from schedgen.errors import SchedgenError
from schedgen.ir.apply import (
    ENTRY,
    TILE_STAGE,
    ScheduleInfo,
    apply_parsed,
    schedule_info,
)
from schedgen.ir.context import parse_file
from schedgen.ir.isolated import apply_isolated_to
from schedgen.ir.load import LoadedPayload, iteration_domain, load
from schedgen.ir.normalize import generalize, runs_cpu_steps
from schedgen.ir.queries import clone_module, find_func, indexing_maps
from schedgen.ir.tags import NEST, ORIGIN, TAG
from schedgen.model.payload import Payload, TileableOp, is_tileable

# Transform ops whose results hold new loops (and the ops tiled into them).
_CREATORS = ("transform.structured.tile_using_forall", "transform.structured.tile_using_for",
             "transform.structured.fuse", "transform.structured.tile_reduction_using_for",
             "transform.structured.tile_reduction_using_forall", "transform.structured.fuse_into_containing_op",
             "transform.xtc.fuse_consumer")


# ... of which these rebuild the loop handed in as operand 1 (result 1).
_PASS_LOOP = ("transform.structured.fuse_into_containing_op", "transform.xtc.fuse_consumer")


class LoopInfo(BaseModel):
    kind: str  # scf.forall / scf.for
    steps: list[int | None]
    trips: list[int | None]
    schedule_line: int | None  # the transform op that made it


class OpTile(BaseModel):
    label: str  # "op3 linalg.matmul", as the plan numbers ops
    payload_line: int
    tile: list[int | None]  # iteration tile per loop dim (None: dynamic, a partial tile)
    tile_bound: list[int | None]  # the same, dynamic dims at their largest
    domain: list[int]  # the op's whole iteration domain
    executions: int | None  # iterations of the loops around it
    schedule_line: int | None  # the transform op that put it there

    @property
    def tile_sizes(self) -> list[int | None]:
        """The transform ops' convention: 0 where the dim is whole."""
        return [0 if t == d else b for t, b, d in zip(self.tile, self.tile_bound, self.domain)]


def _within(footprint_bytes: int | None, budget_bytes: int) -> bool:
    """Measured (a dynamic tile without a bound is not) and within the budget."""
    return footprint_bytes is not None and footprint_bytes <= budget_bytes


class NestReport(BaseModel):
    id: int  # 1.. in IR order
    loop: str
    payload_line: int  # the loop's location: the op it was tiled from
    schedule_line: int | None
    planned_nest: int | None = None  # the nest id the schedule gave it (schedgen.nest)
    loops: list[LoopInfo]
    ops: list[OpTile]
    rewritten: list[str] = []  # ops that are not copies of a payload op, "<name> from <op label>"
    footprint_bytes: int | None
    planned_bytes: int | None = None  # the planner's figure, recorded in the schedule
    budget_bytes: int
    problem: str | None = None
    # Main-memory bytes read and written, measured on the IR (None: a loop with dynamic bounds),
    # whether that is exact (not every partial tile's size evaluated), and the planner's figure.
    traffic_bytes: int | None = None
    traffic_exact: bool = True
    planned_traffic_bytes: int | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def ok(self) -> bool:
        return _within(self.footprint_bytes, self.budget_bytes)


class UntiledReport(BaseModel):
    label: str
    payload_line: int
    footprint_bytes: int | None
    budget_bytes: int
    read_by_nests: list[int]  # nests whose loops read its whole result
    traffic_bytes: int | None = None  # its operands read and results written once

    @computed_field  # type: ignore[prop-decorator]
    @property
    def ok(self) -> bool:
        return _within(self.footprint_bytes, self.budget_bytes)


class Recomputed(BaseModel):
    label: str
    payload_line: int
    times: float  # iterations done / iterations in its domain
    where: list[str]  # "nest 1 (sched.mlir:40)" or "outside any loop", per copy


class CheckReport(BaseModel):
    payload: str
    schedule: str
    func: str
    budget_bytes: int
    footprint: str  # analytic / precise measurement
    nests: list[NestReport]
    untiled: list[UntiledReport]
    recomputed: list[Recomputed]
    op_counts_original: dict[str, int]
    op_counts_transformed: dict[str, int]
    warnings: list[str] = []  # what the transform interpreter warned of, "file:line:col: message"
    violations: list[str]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def budget_ok(self) -> bool:
        return all(n.ok for n in self.nests) and all(u.ok for u in self.untiled)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def computed_once(self) -> bool:
        return not self.recomputed

    @computed_field  # type: ignore[prop-decorator]
    @property
    def ok(self) -> bool:
        return not self.violations


def _is_op_handle(t: ir.Type) -> bool:
    text = str(t)
    return text.startswith(("!transform.any_op", "!transform.op<"))


def instrument(schedule: ir.Module) -> None:
    """Stamp, after every loop-making transform op, its line on the payload
    ops its results hold (see the module docstring)."""
    i64 = ir.IntegerType.get_signless(64)
    origin: dict[ir.Value, int] = {}
    for op in list(walk_ops(schedule.operation)):
        if op.name not in _CREATORS:
            continue
        line = line_of(op)
        stamps = []
        for k, res in enumerate(op.results):
            if not _is_op_handle(res.type):
                continue
            made = origin.get(op.operands[1], line) if op.name in _PASS_LOOP and k == 1 else line
            origin[res] = made
            stamps.append((res, made))
        after = op
        for res, made in stamps:
            with ir.InsertionPoint.after(after), op.location:
                param = transform.ParamConstantOp(transform.ParamType.get(i64), ir.IntegerAttr.get(i64, made))
                after = transform.AnnotateOp(res, ORIGIN, param=param.result).operation


def _int_attr(op: ir.Operation, name: str) -> int | None:
    return ir.IntegerAttr(op.attributes[name]).value if name in op.attributes else None


def _origin(op: ir.Operation) -> int | None:
    return _int_attr(op, ORIGIN)


def _trips(lb: int | None, ub: int | None, step: int | None) -> int | None:
    if lb is None or ub is None or not step:
        return None
    return max(0, -(-(ub - lb) // step))


def _static(values: list[int]) -> list[int | None]:
    return [None if ir.ShapedType.is_dynamic_size(v) else v for v in values]


def loop_info(loop: ir.Operation) -> LoopInfo:
    if loop.name == "scf.forall":
        lbs = _static(list(ir.DenseI64ArrayAttr(loop.attributes["staticLowerBound"])))
        ubs = _static(list(ir.DenseI64ArrayAttr(loop.attributes["staticUpperBound"])))
        steps = _static(list(ir.DenseI64ArrayAttr(loop.attributes["staticStep"])))
    else:  # scf.for: lower bound, upper bound, step operands
        lbs, ubs, steps = ([const_int(loop.operands[i])] for i in range(3))
    return LoopInfo(kind=loop.name, steps=steps, trips=[_trips(*t) for t in zip(lbs, ubs, steps)],
                    schedule_line=_origin(loop))


def _enclosing_loops(op: ir.Operation) -> list[ir.Operation]:
    loops = []
    p = op.parent
    while p is not None and p.name != "func.func":
        if p.name in LOOPS:
            loops.append(p)
        p = p.parent
    return loops


def _payload_op(model: Payload, op: ir.Operation, by_loc: dict[tuple[int, int], TileableOp]) -> TileableOp | None:
    """The payload op a transformed op is a copy of: by the tag stamped on
    load (copies made by tiling and fusion keep it); an op without one (made
    by a rewrite) by its source location."""
    tag = _int_attr(op, TAG)
    if tag is not None and 0 <= tag < len(model.ops):
        return model.ops[tag]
    loc = _file_loc(op)
    return by_loc.get(loc) if loc else None


def _file_loc(op: ir.Operation) -> tuple[int, int] | None:
    loc = op.location
    if loc.is_a_file():
        return loc.start_line, loc.start_col
    if loc.is_a_fused():
        for inner in loc.locations:
            if inner.is_a_file():
                return inner.start_line, inner.start_col
    return None


def _tileable_ops(func: ir.OpView) -> list[ir.Operation]:
    return [o for o in walk_ops(func.operation) if is_tileable(o.name)]


def check(payload_path: Path | str, schedule_path: Path | str, func: str | None = None,
          memory: int | None = None, footprint: str | None = None) -> CheckReport:
    """Apply the schedule to a copy of the payload and report (nests as they
    stand after the tiling stage, for a CPU schedule); SchedgenError when
    the schedule does not apply."""
    return inspect(load(payload_path, func, weights=False, cpu=runs_cpu_steps(schedule_path)), schedule_path, memory,
                   footprint)


def inspect(loaded: LoadedPayload, schedule_path: Path | str, memory: int | None = None,
            footprint: str | None = None, whole_to: Path | None = None) -> CheckReport:
    """The report; the payload transformed by the whole schedule as it is
    written (what `apply` prints and `verify` executes) goes to `whole_to`."""
    model = loaded.model
    payload_path, schedule_path = Path(model.path), Path(schedule_path)
    schedule = parse_file(schedule_path, loaded.ctx, "schedule")
    with loaded.ctx, ir.Location.unknown(), tempfile.TemporaryDirectory(prefix="schedgen-check-") as tmp:
        info = schedule_info(schedule)
        budget = budget_for(schedule_path, memory, info)
        # First in a child process: where MLIR aborts, that is a one-line error here. Its
        # warnings are reported below, from in process. Without the weights unless the
        # result is wanted (they change no transform op).
        source = payload_path
        if whole_to is None and loaded.text is not None:
            source = Path(tmp) / "payload.mlir"
            source.write_bytes(loaded.text)
        apply_isolated_to(source, schedule_path, whole_to or Path(tmp) / "whole.mlir", ENTRY, warnings=[],
                          shown=payload_path)
        instrument(schedule)
        # On a copy of the loaded module, normalized and tagged: ops are joined to
        # the model by their tag, not by location (front ends give many ops one
        # location). The schedule's own normalization steps find nothing left to
        # rewrite in it, so the tags survive them.
        tiled = clone_module(loaded.module)
        warned = apply_parsed(tiled, schedule, payload_path, schedule_path,
                              TILE_STAGE if info.tile_stage else ENTRY)
        return _report(model, tiled, info, budget, footprint or info.footprint, str(payload_path),
                       str(schedule_path), warned)


def budget_for(schedule: Path, memory: int | None, info: ScheduleInfo) -> int:
    if memory is not None:
        return memory
    if info.memory_bytes is None:
        raise SchedgenError(str(schedule), "schedule does not say its memory budget "
                            "(schedgen.memory_bytes); pass --memory or --target")
    return info.memory_bytes


def _report(model: Payload, module: ir.Module, info: ScheduleInfo, budget: int, mode: str, payload: str,
            schedule: str, warned: list[str]) -> CheckReport:
    measured = measure(module, model.func_name, info.alignment_bytes, precise=mode == "precise")
    func = find_func(module, model.func_name)
    by_loc = {(o.line, o.col): o for o in model.ops}
    top = [op.operation for op in func.regions[0].blocks[0].operations]
    loops = [op for op in top if op.name in LOOPS]
    nests = _nest_reports(loops, measured, info, budget)
    untiled = []
    for o, u in zip([o for o in top if is_tileable(o.name)], measured.untiled):
        orig = _payload_op(model, o, by_loc)
        readers = {loops.index(t) + 1 for r in o.results for use in r.uses
                   if (t := _top_level(owner_op(use))) in loops}
        moved = measured_traffic(o)
        untiled.append(UntiledReport(label=orig.label if orig else o.name, payload_line=line_of(o),
                                     footprint_bytes=u.footprint_bytes, budget_bytes=budget,
                                     read_by_nests=sorted(readers), traffic_bytes=moved.total if moved else None))
    recomputed = _work_done(model, module, func, loops, nests, by_loc, schedule, redo_gathers=info.tile_stage)
    report = CheckReport(payload=payload, schedule=schedule, func=model.func_name, budget_bytes=budget,
                         footprint=mode, nests=nests, untiled=untiled, recomputed=recomputed,
                         op_counts_original=dict(Counter(o.name for o in model.ops)),
                         op_counts_transformed=measured.op_counts, warnings=warned,
                         violations=[])
    report.violations = _violations(report)
    return report


def _nest_reports(loops: list[ir.Operation], measured: Measurement, info: ScheduleInfo,
                  budget: int) -> list[NestReport]:
    nests: list[NestReport] = []
    for k, (loop, m) in enumerate(zip(loops, measured.nests)):
        inner = [loop_info(lp) for lp in [loop, *(o for o in walk_ops(loop) if o.name in LOOPS)]]
        planned = next((n for o in walk_ops(loop) if (n := _int_attr(o, NEST)) is not None), None)
        moved = measured_traffic(loop)
        nests.append(NestReport(id=k + 1, loop=loop.name, payload_line=line_of(loop), schedule_line=_origin(loop),
                                planned_nest=planned, loops=inner, ops=[], footprint_bytes=m.footprint_bytes,
                                planned_bytes=info.nest_footprints[planned - 1]
                                if planned and planned <= len(info.nest_footprints) else None,
                                budget_bytes=budget, problem=m.problem,
                                traffic_bytes=moved.total if moved else None,
                                traffic_exact=moved.exact if moved else False,
                                planned_traffic_bytes=info.nest_traffic[planned - 1] or None
                                if planned and planned <= len(info.nest_traffic) else None))
    return nests


def _work_done(model: Payload, module: ir.Module, func: ir.OpView, loops: list[ir.Operation],
               nests: list[NestReport], by_loc: dict[tuple[int, int], TileableOp], schedule: str,
               redo_gathers: bool = False) -> list[Recomputed]:
    """Each tileable op's tiles into its nest's report, and the ops whose
    copies together do more than their iteration domain. With
    `redo_gathers` (CPU schedules), a gather (TileableOp.gather: an im2col
    copy) may be done once per iteration of the forall around it: the
    planner redoes one in each core's tiles (planner._Nest._redoes)."""
    before = _tileable_ops(func)
    # Where each tileable op sits: its original, nest, and how often it runs.
    placed: list[tuple[TileableOp | None, int | None, int | None, int | None]] = []
    allowed: dict[int, int] = {}  # op -> times over it may be done
    for op in before:
        top_op = _top_level(op)
        enclosing = _enclosing_loops(op)
        trips = [t for lp in enclosing for t in loop_info(lp).trips]
        executions = prod(trips) if all(t is not None for t in trips) else None  # type: ignore[arg-type]
        orig = _payload_op(model, op, by_loc)
        if redo_gathers and orig is not None and orig.redoable:
            foralls = [t for lp in enclosing if lp.name in ("scf.forall", "scf.parallel") for t in loop_info(lp).trips]
            if all(t is not None for t in foralls):
                allowed[orig.index] = max(allowed.get(orig.index, 1), prod(foralls))  # type: ignore[arg-type]
        placed.append((orig, loops.index(top_op) if top_op in loops else None, executions, _origin(op)))
    names = [op.name for op in before]  # generalization renames them
    generalize(module.operation)  # to read every op's indexing maps; op order is kept
    work: dict[int, dict[str, float]] = {}  # op -> where its copies run -> share of its domain done there
    for (orig, nest, executions, origin), generic, op in zip(placed, _tileable_ops(func), names):
        tile = list(iteration_domain(generic))
        if orig is None:
            continue
        if op != orig.name or len(tile) != len(orig.domain) \
                or any(t is not None and t > n for t, n in zip(tile, orig.domain)):
            # Not a copy: what a canonicalization rewrote the op into (a transpose
            # of a unit dim becomes a smaller transpose and a broadcast, both at its
            # location; a pad of a fill becomes a larger fill). Its work is not
            # comparable with the op's.
            if nest is not None:
                nests[nest].rewritten.append(f"{op} from {orig.label}")
            continue
        if nest is not None:
            nests[nest].ops.append(OpTile(label=orig.label, payload_line=orig.line, tile=tile,
                                          tile_bound=_bounds(generic, tile), domain=list(orig.domain),
                                          executions=executions, schedule_line=origin))
        if executions is not None and all(t is not None for t in tile):
            where = "outside any loop" if nest is None else _nest_name(nests[nest], schedule)
            places = work.setdefault(orig.index, {})
            places[where] = places.get(where, 0.0) + executions * prod(tile) / max(1, prod(orig.domain))
    return [Recomputed(label=model.ops[i].label, payload_line=model.ops[i].line, times=sum(places.values()),
                       where=[f"{where} {t:g}x" for where, t in places.items()])
            for i, places in sorted(work.items()) if _overdone(model.ops[i], places, allowed.get(i, 1))]


def _overdone(op: TileableOp, places: dict[str, float], allowed: int) -> bool:
    """Whether an op's copies do more than they may: its domain `allowed`
    times in all, or, for an op reading no tensor (a fill, which the planner
    recomputes in every nest that reads it), once in each place."""
    if op.reads_no_tensor:
        return max(places.values()) > 1 + 1e-9
    return sum(places.values()) > allowed + 1e-9


def _bounds(generic: ir.Operation, tile: list[int | None]) -> list[int | None]:
    """`tile` with each dynamic dim bounded through an operand indexed by it
    (the affine.min that sizes a partial tile's slice)."""
    if generic.name != "linalg.generic" or all(t is not None for t in tile):
        return tile
    out = list(tile)
    maps = indexing_maps(generic)
    for v, m in zip(generic.operands, maps):
        for k, e in enumerate(m.results):
            if isinstance(e, ir.AffineDimExpr) and out[e.position] is None:
                out[e.position] = dim_bound(v, k)
    return out


def _top_level(op: ir.Operation) -> ir.Operation:
    """The op of the function body that holds `op`."""
    while op.parent is not None and op.parent.name != "func.func":
        op = op.parent
    return op


def _nest_name(n: NestReport, schedule: str) -> str:
    made = f"{schedule}:{n.schedule_line}" if n.schedule_line else "a loop no schedule step made"
    return f"nest {n.id} ({n.loop} made at {made})"


def _violations(r: CheckReport) -> list[str]:
    out = []
    for n in r.nests:
        if n.footprint_bytes is None:
            out.append(f"{_nest_name(n, r.schedule)}: footprint cannot be measured ({n.problem})")
        elif n.footprint_bytes > n.budget_bytes:
            out.append(f"{_nest_name(n, r.schedule)}: footprint {n.footprint_bytes} bytes exceeds the budget of "
                       f"{n.budget_bytes}")
    for u in r.untiled:
        if not u.ok:
            readers = "; read by " + ", ".join(_nest_name(r.nests[k - 1], r.schedule) for k in u.read_by_nests) \
                if u.read_by_nests else ""
            out.append(f"{u.label} ({r.payload}:{u.payload_line}) is not tiled and needs {u.footprint_bytes} bytes, "
                       f"over the budget of {u.budget_bytes}{readers}")
    for c in r.recomputed:
        out.append(f"{c.label} ({r.payload}:{c.payload_line}) is computed {c.times:g} times over: "
                   + ", ".join(c.where))
    # e.g. "tiling is not thread safe": an scf.forall over a reduction dim, whose iterations race on one tile
    out += [f"{r.schedule}: MLIR warned while applying it, at {w}" for w in r.warnings]
    return out


def format_check(r: CheckReport) -> str:
    lines = [f"check {r.schedule} on {r.payload} @{r.func} (budget {r.budget_bytes} bytes, {r.footprint} footprint)"]
    for n in r.nests:
        made = f"{r.schedule}:{n.schedule_line}" if n.schedule_line else "?"
        fp = "?" if n.footprint_bytes is None else str(n.footprint_bytes)
        planned = f" [planned {n.planned_bytes}]" if n.planned_bytes is not None else ""
        plan = f" (the schedule's nest {n.planned_nest})" if n.planned_nest not in (None, n.id) else ""
        lines.append(f"nest {n.id}{plan}: {n.loop} at payload line {n.payload_line}, made at {made}: "
                     f"footprint {fp}{planned} / {n.budget_bytes} bytes  {'ok' if n.ok else 'OVER BUDGET'}")
        if n.traffic_bytes is not None:
            bound = "" if n.traffic_exact else " at most"
            planned_t = f" [planned {n.planned_traffic_bytes / 1e6:.3f}]" if n.planned_traffic_bytes else ""
            lines.append(f"  main-memory traffic:{bound} {n.traffic_bytes / 1e6:.3f}{planned_t} MB")
        for lp in n.loops:
            trips = "x".join("?" if t is None else str(t) for t in lp.trips)
            at = f", made at line {lp.schedule_line}" if lp.schedule_line else ""
            lines.append(f"  {lp.kind}: {trips} iterations{at}")
        for o in n.ops:
            # a partial tile's dim: its largest size, starred
            star = ["?" if b is None else f"{b}*" if t is None else str(b) for t, b in zip(o.tile, o.tile_bound)]
            sizes = ", ".join(x if t != d else "0" for x, t, d in zip(star, o.tile, o.domain))
            tile = "x".join(star)
            at = f", placed at line {o.schedule_line}" if o.schedule_line else ""
            lines.append(f"  {o.label} (payload line {o.payload_line}): tile sizes [{sizes}] = {tile} of "
                         f"{'x'.join(map(str, o.domain))}{at}")
        for what in n.rewritten:
            lines.append(f"  {what}, rewritten by a canonicalization (not counted as a copy)")
    for u in r.untiled:
        fp = "?" if u.footprint_bytes is None else str(u.footprint_bytes)
        lines.append(f"untiled {u.label} (payload line {u.payload_line}): {fp} / {u.budget_bytes} bytes  "
                     f"{'ok' if u.ok else 'OVER BUDGET'}")
    counts = ", ".join(f"{k} {r.op_counts_transformed.get(k, 0)}/{v}" for k, v in r.op_counts_original.items())
    if any(t is None for n in r.nests for o in n.ops for t in o.tile):
        lines.append("  (* partial tiles: at most that size; their work is not counted)")
    traffic = [n.traffic_bytes for n in r.nests] + [u.traffic_bytes for u in r.untiled]
    if traffic and None not in traffic:
        lines.append(f"main-memory traffic in all: {sum(traffic) / 1e6:.3f} MB")  # type: ignore[arg-type]
    lines.append(f"ops after/before: {counts}")
    for v in r.violations:
        lines.append(f"violation: {v}")
    lines.append("verdict: " + ("PASS" if r.ok else f"FAIL ({len(r.violations)} violation(s))"))
    return "\n".join(lines)

