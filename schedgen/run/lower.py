"""The lowering of a linalg-on-tensors module to the LLVM dialect, and the IR
rewrites it needs on the way (i1 memory widened to i8, vector exp as a
polynomial, strided row copies as vector shuffles)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from schedgen.errors import ExecutionError, one_line
from schedgen.model.openmp import runtime_library
from schedgen.run.int_abs import expand_int_abs
from schedgen.run.math_approx import approximate_math
from schedgen.run.scalar_transfers import scalar_transfers
from schedgen.run.strided_copies import vectorize_strided_copies

# Verified on MLIR 22.1.8 (see the field notes, "Executing payloads"), plus:
# - `canonicalize` first folds the constant/empty-tensor clutter of exports;
# - `scf-forall-to-for` lowers `scf.forall` (tiled payloads) to sequential
#   `scf.for` explicitly rather than relying on `convert-scf-to-cf`;
# - `convert-bufferization-to-memref` is required: without it a
#   `bufferization.clone` survives and the engine fails on
#   `builtin.unrealized_conversion_cast`.
# Split in two because MemRefToLLVM asserts (aborting the process) on any
# `memref.store` of i1: between the halves, i1 memory is widened to i8 (see
# widen_i1_memory).
_TO_LOOPS = (
    "canonicalize",
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map}",
    "buffer-deallocation-pipeline",
    "convert-bufferization-to-memref",
    "func.func(convert-linalg-to-loops)",
    "scf-forall-to-for",
    "convert-vector-to-scf",
    "convert-scf-to-cf",
    "expand-strided-metadata",
    "lower-affine",
)


# bf16 vector arithmetic and casts have no x86 lowering (LLVM: "Do not know how
# to soft promote"): each op in f32, rounded to bf16 as LLVM does for scalars,
# and the casts as the bit shifts they are. Only for modules with bf16 values:
# arith-expand also rewrites maximumf and friends.
_BF16 = (
    "arith-emulate-unsupported-floats{source-types=bf16 target-type=f32}",
    "arith-expand{include-bf16=true}",
)

_TO_LLVM = (
    # x**3 of tanh-GELU arrives as math.fpowi with a vector exponent, which the
    # LLVM intrinsic does not take: multiply it out.
    "math-expand-ops{ops=fpowi}",
    "convert-vector-to-llvm",
    # Buffers from aligned_alloc, not malloc plus pointer arithmetic: LLVM's
    # alias analysis loses track of a pointer rounded up through integers, so
    # it took every two buffers for possibly one and vectorized no copy
    # between them (an im2col copy's rows stayed scalar moves: 0.071 ms,
    # 0.020 ms so; a pad's planes 0.010 -> 0.006 ms).
    "finalize-memref-to-llvm{use-aligned-alloc=1}",
    "convert-to-llvm",
    # What is left of math (erf of exact GELU, tanh...) has no LLVM intrinsic:
    # libm calls (scalarized for vectors; the JIT resolves them in this
    # process). Only after the intrinsics took theirs: rsqrt has no libm twin.
    "convert-math-to-libm",
    "convert-to-llvm",
    "reconcile-unrealized-casts",
)


def diagnostics(exc: Exception) -> str:
    """An MLIRError's diagnostics (and their notes) on one line."""
    diags = getattr(exc, "error_diagnostics", None)
    if not diags:
        return one_line(str(exc))
    parts = []
    for diag in diags:
        parts.append(f"{diag.location}: {diag.message}")
        parts.extend(f"note: {n.message}" for n in diag.notes)
    return one_line("; ".join(parts))


def openmp_library(threads: int) -> Path | None:
    """The OpenMP runtime a run on `threads` threads uses (None: one thread,
    or the MLIR async runtime): the lowering and the JIT agree through this."""
    return runtime_library() if threads > 1 else None


def parallel_passes(threads: int) -> tuple[str, ...]:
    """scf.parallel (a CPU schedule's outer loop) on `threads` workers: OpenMP
    regions when an OpenMP runtime is there (schedgen.model.openmp), else the
    MLIR async runtime; with one thread it stays a sequential loop."""
    if threads <= 1:
        return ()
    if openmp_library(threads) is not None:
        # canonicalize inlines the alloca_scope each region body is wrapped in: scf-to-cf would leave it
        # several blocks, which it may not hold.
        return (f"convert-scf-to-openmp{{num-threads={threads}}}", "canonicalize")
    return (f"async-parallel-for{{async-dispatch=false num-workers={threads} min-task-size=1}}",
            "async-to-async-runtime", "async-runtime-ref-counting", "async-runtime-ref-counting-opt",
            "convert-async-to-llvm")


def check_all_llvm(module: Any) -> None:
    """Name the first op the pipeline could not lower (e.g. linalg.softmax):
    the engine itself would only say "Failure while creating the
    ExecutionEngine" and blame a leftover unrealized_conversion_cast."""
    from mlir import ir

    left: list[Any] = []

    def visit(op: Any) -> Any:
        name = op.name
        if not name.startswith(("llvm.", "omp.")) and name != "builtin.module":
            left.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    if left:
        real = [op for op in left if op.name != "builtin.unrealized_conversion_cast"] or left
        raise ExecutionError(f"lowering left '{real[0].name}' at {real[0].location} "
                             f"({len(left)} op(s) not lowered to the LLVM dialect)")


# How ops that store into (or load from) i1 memory are widened: the value
# operand to extend, and whether the loaded result must be truncated.
_STORES = {"memref.store": lambda o: o.operands[0], "vector.store": lambda o: o.operands[0],
           "vector.transfer_write": lambda o: o.operands[0],
           "vector.maskedstore": lambda o: o.valueToStore,  # (`o` is the op's OpView)
           "vector.transfer_read": lambda o: o.padding,
           "vector.maskedload": lambda o: o.pass_thru}
_LOADS = {"memref.load", "vector.load", "vector.transfer_read", "vector.maskedload"}
# Ops that only pass i1 memory along: their types change, nothing else.
_NEUTRAL = {"memref.alloc", "memref.alloca", "memref.dealloc", "memref.subview", "memref.cast",
            "memref.reinterpret_cast", "memref.extract_strided_metadata", "memref.copy",
            "memref.collapse_shape", "memref.expand_shape", "memref.get_global", "memref.dim",
            "memref.extract_aligned_pointer_as_index", "memref.assume_alignment", "memref.global",
            "cf.br", "cf.cond_br", "func.return", "func.call", "func.func", "scf.yield", "scf.for",
            "scf.if", "scf.while", "scf.condition"}


def widen_i1_memory(module: Any) -> None:
    """Store i1 elements in i8 memory: MemRefToLLVM (22.1.8) asserts on every
    `memref.store` of i1, and numpy's bool is a byte anyway. Runs on loops
    over memrefs (before the LLVM conversion): memref types with i1 elements
    become i8, values loaded from them are truncated, values stored extended."""
    from mlir import ir

    ops: list[Any] = []
    module.operation.walk(lambda op: ops.append(op) or ir.WalkResult.ADVANCE, ir.WalkOrder.PRE_ORDER)
    for op in [op for op in ops if _mentions_i1_memory(op)]:
        if op.name not in _NEUTRAL and op.name not in _LOADS and op.name not in _STORES:
            raise ExecutionError(f"cannot widen i1 memory for '{op.name}' at {op.location}")
        _widen_op(op)


def widen_half_reductions(module: Any) -> bool:
    """Reduce bf16 vectors, and take their math functions, in f32, rounding
    once: LLVM's x86 backend cannot lower a bf16 `llvm.vector.reduce.*` or
    `llvm.exp` ("Do not know how to soft promote this operator's operand"),
    which a vectorized softmax or max over bf16 makes. max/min are exact
    either way; a sum rounds once instead of per term. Returns whether the
    module computes bf16 values at all."""
    from mlir import ir

    ops: list[Any] = []
    module.operation.walk(lambda op: ops.append(op) or ir.WalkResult.ADVANCE, ir.WalkOrder.PRE_ORDER)
    seen = False
    for op in ops:
        if not any(_element(r.type) == "bf16" for r in op.results):
            continue
        seen = True
        if (op.name == "vector.reduction" or op.name.startswith("math.")) and len(op.results) == 1 \
                and all(_element(v.type) == "bf16" for v in op.operands):
            _in_f32(op)
    return seen


def _element(t: Any) -> str:
    from mlir import ir

    return str(ir.ShapedType(t).element_type) if isinstance(t, ir.ShapedType) else str(t)


def _in_f32(op: Any) -> None:
    """Rebuild `op` on f32 operands and round its result back to bf16."""
    from mlir import ir

    f32 = ir.F32Type.get()

    def wide(t: Any) -> Any:
        return ir.VectorType.get(ir.VectorType(t).shape, f32) if isinstance(t, ir.VectorType) else f32

    with ir.InsertionPoint(op), op.location:
        operands = [ir.Operation.create("arith.extf", results=[wide(v.type)], operands=[v]).result for v in op.operands]
        result = op.results[0]
        computed = ir.Operation.create(op.name, results=[wide(result.type)], operands=operands,
                                       attributes={name: op.attributes[name] for name in op.attributes})
        narrow = ir.Operation.create("arith.truncf", results=[result.type], operands=[computed.result])
    result.replace_all_uses_with(narrow.result)
    op.erase()


def _i1() -> Any:
    from mlir import ir

    return ir.IntegerType.get_signless(1)


def _is_i1_memref(t: Any) -> bool:
    from mlir import ir

    return isinstance(t, ir.MemRefType) and t.element_type == _i1()


def _wide(t: Any) -> Any:
    """`t` with i8 for i1: memrefs, vectors read from or written to memory, i1 itself."""
    from mlir import ir

    i8 = ir.IntegerType.get_signless(8)
    if isinstance(t, ir.MemRefType) and t.element_type == _i1():
        return ir.MemRefType.get(t.shape, i8, t.layout, t.memory_space)
    if isinstance(t, ir.VectorType) and t.element_type == _i1():
        return ir.VectorType.get(t.shape, i8)
    return i8 if t == _i1() else t


def _mentions_i1_memory(op: Any) -> bool:
    if op.name == "memref.global":
        return _is_i1_memref(op.attributes["type"].value)
    values = list(op.operands) + list(op.results)
    values += [a for r in op.regions for b in r.blocks for a in b.arguments]
    return any(_is_i1_memref(v.type) for v in values)


def _widen_op(op: Any) -> None:
    """One op that touches i1 memory: extend what it stores, truncate what it
    loads, and give its memrefs (results, block arguments, a function's or a
    global's type) i8 elements."""
    from mlir import ir
    from mlir.dialects import arith

    if op.name in _STORES:
        value = _STORES[op.name](op.opview)
        if value.type != _wide(value.type):
            ext = arith.ExtUIOp(_wide(value.type), value, loc=op.location, ip=ir.InsertionPoint(op))
            op.replace_uses_of_with(value, ext.result)
    for arg in (a for r in op.regions for b in r.blocks for a in b.arguments):
        if _is_i1_memref(arg.type):
            arg.set_type(_wide(arg.type))
    for res in op.results:
        if _is_i1_memref(res.type):
            res.set_type(_wide(res.type))
        elif op.name in _LOADS and res.type != _wide(res.type):
            narrow = res.type
            res.set_type(_wide(narrow))
            trunc = arith.TruncIOp(narrow, res, loc=op.location, ip=ir.InsertionPoint.after(op))
            res.replace_all_uses_except(trunc.result, trunc.operation)
    if op.name == "func.func":
        ft = ir.FunctionType(op.attributes["function_type"].value)
        new = ir.FunctionType.get([_wide(t) if _is_i1_memref(t) else t for t in ft.inputs],
                                  [_wide(t) if _is_i1_memref(t) else t for t in ft.results])
        op.attributes["function_type"] = ir.TypeAttr.get(new)
    if op.name == "memref.global" and _is_i1_memref(op.attributes["type"].value):
        _widen_global(op)


def _widen_global(op: Any) -> None:
    from mlir import ir

    i8 = ir.IntegerType.get_signless(8)
    op.attributes["type"] = ir.TypeAttr.get(_wide(op.attributes["type"].value))
    init = op.attributes["initial_value"] if "initial_value" in op.attributes else None
    if isinstance(init, ir.DenseElementsAttr):
        vals = np.array(init, dtype=np.int8) if not init.is_splat else \
            np.full(init.type.shape, int(bool(init.get_splat_value())), dtype=np.int8)
        op.attributes["initial_value"] = ir.DenseElementsAttr.get(
            vals, type=ir.RankedTensorType.get(init.type.shape, i8))
    elif init is not None and not isinstance(init, ir.UnitAttr):
        raise ExecutionError(f"cannot widen the i1 initial value of a memref.global at {op.location}")


def lower(module: Any, threads: int = 1) -> None:
    """Lower `module` in place to the LLVM dialect (ExecutionError on failure,
    naming what could not be lowered)."""
    from mlir import ir, passmanager

    try:
        vectorize_strided_copies(module)  # im2col rows of strided convolutions (schedgen.run.strided_copies)
        scalar_transfers(module)
        to_loops = _TO_LOOPS[:5] + parallel_passes(threads) + _TO_LOOPS[5:]
        passmanager.PassManager.parse(f"builtin.module({','.join(to_loops)})").run(module.operation)
        widen_i1_memory(module)
        bf16 = widen_half_reductions(module)
        expand_int_abs(module)  # n-D math.absi, which MathToLLVM leaves (schedgen.run.int_abs)
        approximate_math(module)  # vector expf/erff/tanhf calls -> polynomial (schedgen.run.math_approx)
        to_llvm = (_BF16 if bf16 else ()) + _TO_LLVM
        if openmp_library(threads) is not None:  # omp ops stay, on LLVM types (the JIT translates them)
            to_llvm = to_llvm[:-1] + ("convert-openmp-to-llvm",) + to_llvm[-1:]
        passmanager.PassManager.parse(f"builtin.module({','.join(to_llvm)})").run(module.operation)
    except ir.MLIRError as exc:
        raise ExecutionError(f"lowering failed: {diagnostics(exc)}") from None
    check_all_llvm(module)
