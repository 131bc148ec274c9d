"""Producer/consumer queries over the payload model's DAG."""

from __future__ import annotations

from collections.abc import Iterable

from schedgen.model.payload import Payload, TileableOp, Use


def producers(payload: Payload, op: TileableOp) -> list[TileableOp]:
    """Tileable ops whose results `op` reads, nearest (latest) first."""
    seen = {o.value.index for o in op.operands if o.value.kind == "op"}
    return [payload.ops[i] for i in sorted(seen, reverse=True)]


def users(op: TileableOp) -> list[Use]:
    return [u for r in op.results for u in r.users]


def outside_users(op: TileableOp, members: Iterable[int]) -> list[Use]:
    """Users of `op`'s results that are not tileable ops in `members`: the
    reason a producer cannot be fused without being computed twice."""
    inside = set(members)
    return [u for u in users(op) if not (u.kind == "op" and u.index in inside)]


def describe_use(payload: Payload, use: Use) -> str:
    if use.kind == "return":
        return "the function's return"
    if use.kind == "op":
        return payload.ops[use.index].label
    return f"{payload.others[use.index].name} (not tileable)"
