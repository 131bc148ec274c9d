"""Fuse groups (seed "The Tile and Fuse Pass"): op patterns that a later
lowering rewrites as one unit, so they must share one loop nest.

Each pattern starts from a principal op, walks forward to the pattern's
output and backward to its inputs, as the lowering pattern would match, and
collects the ops in between (marking mode: nothing is rewritten). A group
gets an id, assigned to its principal; an op may belong to several groups.

Patterns (matched on the payload model, generalized bodies):
  contraction   matmul / batch_matmul / any conv or pooling, its init
                producer (fill, or a broadcast bias), then the chain of
                elementwise ops it alone feeds whose other operands are
                parameters from outside, read broadcast (bias add,
                activation: relu / clamp / gelu / tanh / sigmoid, cast). A
                second full-size operand (a residual add) ends the chain: it
                is an input in its own right, and a nest that must hold it
                keeps a second output-sized tile beside the accumulator
  softmax       max-reduce -> sub + exp -> sum-reduce -> div
  norm          layernorm / rmsnorm: a sum-reduce whose result reaches an
                rsqrt, through to the last elementwise op after the rsqrt
  attention     matmul -> scale -> softmax -> matmul
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from schedgen.model.payload import Payload, TileableOp

CONTRACTIONS = ("linalg.matmul", "linalg.batch_matmul", "linalg.matmul_transpose_a", "linalg.matmul_transpose_b",
                "linalg.batch_matmul_transpose_b", "linalg.contract")


@dataclass(frozen=True)
class FuseGroup:
    id: int
    pattern: str
    principal: int
    members: tuple[int, ...]  # program order, principal included


def is_contraction_family(op: TileableOp) -> bool:
    """By name: a matmul, convolution or pooling op, the principal of a
    "contraction" group (schedgen.planning.cpu_levels asks a different
    question, whether a body multiplies and accumulates)."""
    return op.name in CONTRACTIONS or op.name.startswith(("linalg.conv_", "linalg.depthwise_conv",
                                                          "linalg.pooling_"))


def is_elementwise(op: TileableOp) -> bool:
    return op.name == "linalg.generic" and all(k == "parallel" for k in op.iterators)


def _reduction_with(op: TileableOp, body_op: str) -> bool:
    return op.name == "linalg.generic" and "reduction" in op.iterators and body_op in op.body_ops


def _op_users(op: TileableOp) -> list[int]:
    return sorted({u.index for r in op.results for u in r.users if u.kind == "op"})


def _only_user(payload: Payload, op: TileableOp) -> TileableOp | None:
    uses = [u for r in op.results for u in r.users]
    if len(uses) != 1 or uses[0].kind != "op":
        return None
    return payload.ops[uses[0].index]


def _op_inputs(op: TileableOp) -> list[int]:
    return [o.value.index for o in op.operands if not o.is_init and o.value.kind == "op"]


def _init_op(p: TileableOp) -> bool:
    """A fill, or a broadcast (a body-less generic): what computes an init."""
    return p.name == "linalg.fill" or (is_elementwise(p) and not p.body_ops)


def _read_only_by(p: TileableOp, ops: set[int]) -> bool:
    return all(u.kind == "op" and u.index in ops for r in p.results for u in r.users)


def _init_producer(payload: Payload, op: TileableOp) -> int | None:
    """A fill or broadcast computing `op`'s init for it alone, read once."""
    for o in op.operands:
        if o.is_init and o.value.kind == "op":
            p = payload.ops[o.value.index]
            if _init_op(p) and _read_only_by(p, {op.index}) and len(p.results[0].users) == 1:
                return p.index
    return None


def _inits(payload: Payload, ops: Iterable[int]) -> set[int]:
    """Fills / broadcasts that compute the inits of `ops` and of nothing else.
    torch-mlir reuses one zero fill for the sums of every layernorm of a
    block: as a member of each, it tied their groups into one that no nest
    could hold, and every transformer's layernorms ran untiled, op by op."""
    ops = set(ops)
    return {p.index for i in ops for o in payload.ops[i].operands if o.is_init and o.value.kind == "op"
            for p in [payload.ops[o.value.index]] if _init_op(p) and _read_only_by(p, ops)}


def _contraction(payload: Payload, op: TileableOp) -> set[int] | None:
    if not is_contraction_family(op):
        return None
    members = {op.index}
    init = _init_producer(payload, op)
    if init is not None:
        members.add(init)
    current = op
    # The chain stops at a gather: the im2col copy of the next convolution belongs with that one (as a
    # member here, a depthwise convolution's group could share no nest and ran untiled on one core).
    while (nxt := _only_user(payload, current)) is not None and is_elementwise(nxt) and not nxt.gather \
            and all(i in members for i in _op_inputs(nxt)) and not _reads_full_input(nxt, members):
        members.add(nxt.index)
        current = nxt
    return members


def _reads_full_input(op: TileableOp, members: set[int]) -> bool:
    """Whether `op` reads a tensor from outside `members` along all its dims
    (a residual), not a broadcast parameter."""
    return any(not o.is_init and not (o.value.kind == "op" and o.value.index in members)
               and o.exprs is not None and len(o.dims()) == len(op.domain) for o in op.operands)


def _between(payload: Payload, sources: set[int], output: int) -> set[int]:
    """Tileable ops on a path from `sources` to `output` (both included)."""
    down = set(sources)
    for op in payload.ops:  # program order is a topological order
        if any(i in down for i in _op_inputs(op)):
            down.add(op.index)
    up = {output}
    for op in reversed(payload.ops):
        if op.index in up:
            up.update(_op_inputs(op))
    return down & up


def _softmax_from(payload: Payload, op: TileableOp) -> tuple[set[int], int] | None:
    """(members, output) of a softmax starting at max-reduce `op`."""
    if not _reduction_with(op, "arith.maximumf"):
        return None
    for e in _op_users(op):
        exp = payload.ops[e]
        if not (is_elementwise(exp) and "math.exp" in exp.body_ops):
            continue
        for s in _op_users(exp):
            total = payload.ops[s]
            if not _reduction_with(total, "arith.addf"):
                continue
            for d in _op_users(total):
                div = payload.ops[d]
                if is_elementwise(div) and "arith.divf" in div.body_ops and exp.index in _op_inputs(div):
                    members = _between(payload, {op.index}, div.index) | {exp.index, total.index}
                    return members | _inits(payload, members), div.index
    return None


def _softmax(payload: Payload, op: TileableOp) -> set[int] | None:
    found = _softmax_from(payload, op)
    return found[0] if found else None


def _norm(payload: Payload, op: TileableOp) -> set[int] | None:
    if not _reduction_with(op, "arith.addf") or any(
            _reduction_with(payload.ops[i], "arith.addf") for i in _ancestors(payload, op.index)
            if _rsqrt_after(payload, i) is not None and i != op.index):
        return None
    rsqrt = _rsqrt_after(payload, op.index)
    if rsqrt is None:
        return None
    out = payload.ops[rsqrt]
    while (nxt := _only_user(payload, out)) is not None and is_elementwise(nxt):
        out = nxt
    # Sources: every op reading the tensor the principal normalizes (seen
    # through a leading cast, as torch-mlir upcasts the statistics).
    sources = {op.index}
    for o in op.operands:
        if o.is_init:
            continue
        value = o.value
        if value.kind == "op" and set(payload.ops[value.index].body_ops) <= {"arith.extf", "arith.truncf"} \
                and is_elementwise(payload.ops[value.index]):
            sources.add(value.index)
            cast_in = [x.value for x in payload.ops[value.index].operands if not x.is_init]
            value = cast_in[0] if cast_in else value
        sources.update(r.index for r in payload.ops if any(x.value == value and not x.is_init for x in r.operands))
    members = _between(payload, sources, out.index)
    return members | _inits(payload, members)


def _ancestors(payload: Payload, idx: int) -> set[int]:
    up = {idx}
    for op in reversed(payload.ops):
        if op.index in up:
            up.update(_op_inputs(op))
    return up - {idx}


def _rsqrt_after(payload: Payload, idx: int, limit: int = 12) -> int | None:
    """The first op with math.rsqrt reachable from `idx` within `limit` hops."""
    frontier, seen = [idx], {idx}
    for _ in range(limit):
        nxt = []
        for i in frontier:
            for u in _op_users(payload.ops[i]):
                if u in seen:
                    continue
                if "math.rsqrt" in payload.ops[u].body_ops:
                    return u
                seen.add(u)
                nxt.append(u)
        frontier = nxt
    return None


def _attention(payload: Payload, op: TileableOp) -> set[int] | None:
    if op.name not in CONTRACTIONS:
        return None
    members = {op.index}
    current = op
    while (nxt := _only_user(payload, current)) is not None and is_elementwise(nxt):
        members.add(nxt.index)
        current = nxt
    for m in _op_users(current):
        found = _softmax_from(payload, payload.ops[m])
        if found is None:
            continue
        soft, out = found
        for u in _op_users(payload.ops[out]):
            second = payload.ops[u]
            if second.name in CONTRACTIONS:
                group = members | soft | {second.index}
                return group | _inits(payload, group)
    return None


PATTERNS = (("contraction", _contraction), ("softmax", _softmax), ("norm", _norm), ("attention", _attention))


def find_groups(payload: Payload) -> list[FuseGroup]:
    """Every pattern from every principal, ids in program order of principals."""
    groups: list[FuseGroup] = []
    seen: set[tuple[str, tuple[int, ...]]] = set()
    for op in payload.ops:
        for name, match in PATTERNS:
            members = match(payload, op)
            key = (name, tuple(sorted(members or ())))
            if members and len(members) > 1 and key not in seen:  # one group per op set
                seen.add(key)
                groups.append(FuseGroup(len(groups), name, op.index, key[1]))
    return groups
