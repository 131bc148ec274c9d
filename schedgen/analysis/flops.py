"""Arithmetic operations of a payload, counted from its linalg ops' bodies."""

from __future__ import annotations

from schedgen.model.payload import Payload, TileableOp

# Arithmetic per body op (an FMA is two); everything else in a body (casts,
# compares, selects, yields) counts nothing.
_OPS: dict[str, int] = {
    **{f"arith.{k}": 1 for k in ("addf", "subf", "mulf", "divf", "maximumf", "minimumf", "maxnumf", "minnumf",
                                 "negf", "addi", "subi", "muli", "divsi", "divui", "maxsi", "minsi")},
    "math.fma": 2, "math.exp": 1, "math.log": 1, "math.sqrt": 1, "math.rsqrt": 1, "math.tanh": 1,
    "math.powf": 1, "math.erf": 1, "llvm.intr.maxnum": 1,
}


def op_flops(op: TileableOp) -> int:
    per_point = sum(_OPS.get(name, 0) for name in op.body_ops)
    points = 1
    for n in op.domain:
        points *= n
    return per_point * points


def payload_flops(payload: Payload) -> int:
    return sum(op_flops(op) for op in payload.ops)


def is_multiply_accumulate(op: TileableOp) -> bool:
    """A reduction whose body multiplies and accumulates two inputs (matmul,
    conv, batch matmul): the kind register tiling pays off for."""
    inputs = [o for o in op.operands if not o.is_init]
    body = set(op.body_ops)
    return bool(op.reduction_dims()) and len(inputs) >= 2 and bool(body & {"arith.mulf", "arith.muli"}) \
        and bool(body & {"arith.addf", "arith.addi"})
