"""Structural questions about IR for tests: parse text in a context with the
dialects schedgen uses, walk it, and count ops by name, inside loops or
outside them -- instead of searching printed IR for substrings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

from mlir import ir

from schedgen.ir.context import new_context
from schedgen.model.plan import Plan

LOOPS = ("scf.forall", "scf.for", "scf.parallel")


def parse(text: str) -> ir.Module:
    ctx = new_context()
    with ctx:
        return ir.Module.parse(text)


def ops(module: ir.Module | ir.Operation) -> list[ir.Operation]:
    """Every op in `module` (or nested in an op, itself included)."""
    out: list[ir.Operation] = []
    root = module.operation if isinstance(module, ir.Module) else module
    root.walk(lambda op: out.append(op) or ir.WalkResult.ADVANCE)
    return out


def enclosing_loop(op: ir.Operation) -> ir.Operation | None:
    """The innermost loop (LOOPS) around `op`, or None."""
    p = op.parent
    while p is not None and p.name not in LOOPS:
        p = p.parent
    return p


def enclosing_loop_where(op: ir.Operation, keep: Callable[[ir.Operation], bool]) -> ir.Operation | None:
    """The innermost loop (LOOPS) around `op` that `keep` takes, or None."""
    loop = enclosing_loop(op)
    while loop is not None and not keep(loop):
        loop = enclosing_loop(loop)
    return loop


def counts(module: ir.Module | str) -> Counter:
    """Ops by name (text is parsed first)."""
    module = parse(module) if isinstance(module, str) else module
    return Counter(op.name for op in ops(module))


def alloc_shapes(text: str) -> list[list[int]]:
    """The shape of every buffer a transformed payload allocates."""
    module = parse(text)  # kept alive while its ops are read
    return [list(ir.MemRefType(op.results[0].type).shape) for op in ops(module) if op.name == "memref.alloc"]


def dialect_ops(module: ir.Module | str, dialect: str) -> list[str]:
    return [name for name in counts(module) if name.startswith(dialect + ".")]


def placement(module: ir.Module) -> tuple[Counter, Counter]:
    """Op names inside loops and outside any loop."""
    inside: Counter = Counter()
    outside: Counter = Counter()
    for op in ops(module):
        (inside if enclosing_loop(op) is not None else outside)[op.name] += 1
    return inside, outside


def loop_results(module: ir.Module, name: str = "scf.forall") -> list[int]:
    """The number of results of each `name` loop."""
    return [len(op.results) for op in ops(module) if op.name == name]


def loop_trips(module: ir.Module, name: str = "scf.forall") -> list[list[int]]:
    """Each `name` loop's static trip counts per dimension (scf.forall with static bounds)."""
    out = []
    for op in ops(module):
        if op.name == name and "staticUpperBound" in op.attributes:
            upper = list(ir.DenseI64ArrayAttr(op.attributes["staticUpperBound"]))
            lower = list(ir.DenseI64ArrayAttr(op.attributes["staticLowerBound"]))
            steps = list(ir.DenseI64ArrayAttr(op.attributes["staticStep"]))
            out.append([-(-(u - lo) // s) for u, lo, s in zip(upper, lower, steps)])
    return out


def applied_and_compared(payload: Path, p: Plan, threads: int = 1) -> str:
    """The payload transformed by `p`'s schedule, once its numbers (on
    `threads` threads) are checked against the untransformed payload's."""
    from schedgen.emit.schedule import render
    from schedgen.ir.apply import apply_schedule
    from schedgen.ir.load import load_payload
    from schedgen.run.arrays import random_inputs
    from schedgen.run.compare import compare
    from schedgen.run.execute import run_function

    schedule = payload.with_suffix(".cpu.mlir")
    schedule.write_text(render(p))
    transformed = apply_schedule(payload, schedule)
    model = load_payload(payload)
    inputs = random_inputs(list(model.arg_types), 0)
    expected = run_function(payload.read_text(), model.func_name, inputs)
    got = run_function(transformed, model.func_name, inputs, threads=threads)
    assert all(c.ok for c in compare(expected, got, [str(e.dtype) for e in expected]))
    return transformed


def matmul_text(m: int, n: int, k: int) -> str:
    """Payload text of an m x k by k x n matmul into a zero-filled init (@mm): the plain contraction."""
    a, b, c = (f"tensor<{x}x{y}xf32>" for x, y in ((m, k), (k, n), (m, n)))
    return (f"func.func @mm(%a: {a}, %b: {b}) -> {c} {{\n  %z = arith.constant 0.0 : f32\n"
            f"  %e = tensor.empty() : {c}\n  %f = linalg.fill ins(%z : f32) outs(%e : {c}) -> {c}\n"
            f"  %r = linalg.matmul ins(%a, %b : {a}, {b}) outs(%f : {c})\n      -> {c}\n  return %r : {c}\n}}\n")


def nchw_conv_text(name: str, x: str, w: str, y: str, stride: int = 1) -> str:
    """Payload text of an NCHW convolution (@name) of input shape `x`, filter `w`,
    result `y` (e.g. "1x16x30x30") into a zero-filled init, as torch exports it."""
    x, w, y = (f"tensor<{s}xf32>" for s in (x, w, y))
    return f"""func.func @{name}(%x: {x}, %w: {w}) -> {y} {{
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : {y}
  %f = linalg.fill ins(%zero : f32) outs(%e : {y}) -> {y}
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<{stride}> : vector<2xi64>}}
    ins(%x, %w : {x}, {w}) outs(%f : {y}) -> {y}
  return %c : {y}
}}
"""
