"""JIT-compile a lowered module and call one of its functions on numpy arrays
(in the execution child: an LLVM abort here must not take the parent down)."""

from __future__ import annotations

import ctypes
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from schedgen.errors import ExecutionError
from schedgen.run.arrays import numpy_dtype
from schedgen.run.loop_order import reorder_loops
from schedgen.run.lower import diagnostics, lower, openmp_library
from schedgen.run.memory import keep_freed_memory, page_aligned, result_freer

_MAX_CALLS = 100_000  # bound on min_seconds' extra calls


def lower_and_run(module: str | Path, func_name: str, inputs: list[np.ndarray], opt_level: int,
                  phase: Any, threads: int = 1, repeats: int = 0,
                  warmup: int = 0, min_seconds: float = 0.0,
                  reorder: bool = False) -> tuple[list[np.ndarray], list[float]]:
    """Parse `module` (its text, or a file that holds it), lower it, JIT it and call `func_name` on `inputs` once (its
    outputs), then `warmup` and `repeats` more times (the timed ones). `reorder`: as in execute.run_function."""
    try:  # registers transform.xtc.* so that modules that mention it parse
        import mlir.xtc_transform  # noqa: F401
    except ImportError:
        pass
    from mlir import ir

    with ir.Context() as ctx, ir.Location.unknown():
        phase("parsing the module")
        try:
            parsed = ir.Module.parseFile(str(module)) if isinstance(module, Path) else ir.Module.parse(module)
        except ir.MLIRError as exc:
            raise ExecutionError(f"cannot parse module: {diagnostics(exc)}") from None
        args, arg_types, res_types = _prepare(parsed, func_name, inputs)
        if reorder:
            phase("reordering loops")
            reorder_loops(parsed)
        phase("lowering")
        lower(parsed, threads)
        phase("compiling")
        engine = _engine(ctx, parsed, opt_level, threads)
        phase(f"running @{func_name}")
        try:
            return _call(engine, func_name, args, arg_types, res_types, repeats, warmup, min_seconds)
        finally:
            # Must go before interpreter shutdown, or Python aborts with
            # "PyThreadState_Get: the function must be called with the GIL held".
            del engine


@contextmanager
def compiled(module: Path, func_name: str, inputs: list[np.ndarray], threads: int = 1,
             opt_level: int = 3) -> Iterator[Callable[[int], tuple[list[np.ndarray], list[float]]]]:
    """`func_name` of the lowered `module` (a file), JIT-compiled once: a
    callable that calls it on `inputs` once and then n more times, and
    returns the first call's outputs and each timed call's seconds. For benchmarks that interleave it with
    other code in one process (a peer library on the same arrays), so that
    both see the machine in the same state; in a child process, as an LLVM
    abort would take its caller down."""
    from mlir import ir

    with ir.Context() as ctx, ir.Location.unknown():
        parsed = ir.Module.parseFile(str(module))
        args, arg_types, res_types = _prepare(parsed, func_name, inputs)
        lower(parsed, threads)
        held = {"engine": _engine(ctx, parsed, opt_level, threads)}
        try:
            yield lambda n: _call(held["engine"], func_name, args, arg_types, res_types, n, 0, 0.0)
        finally:
            held.clear()  # the engine goes here, before interpreter shutdown (see lower_and_run)


def _prepare(module: Any, func_name: str, inputs: list[np.ndarray]) -> tuple[list[np.ndarray], list, list]:
    """The arguments as the function takes them (checked against its
    signature), its argument and result types; the module made ready to
    lower (aggregates decomposed, packs lowered, an embedded schedule gone,
    a C interface on the entry)."""
    from mlir import ir

    from schedgen.ir.normalize import has_packs, needed_steps, normalize

    func = find_func(module, func_name)
    # Aggregate ops (linalg.softmax) have no lowering of their own: decompose them, as a schedule
    # would; linalg.pack / unpack have no bufferization: lower them to pad, reshapes and transposes.
    steps = tuple(s for s in needed_steps(func.operation) if s == "decompose")
    normalize(module, func_name, steps + (("lower_packs",) if has_packs(func.operation) else ()))
    ftype = ir.FunctionType(func.attributes["function_type"].value)
    arg_types = [arg_type(t, f"argument {i}") for i, t in enumerate(ftype.inputs)]
    res_types = [tensor_type(t, f"result {i}") for i, t in enumerate(ftype.results)]
    if len(inputs) != len(arg_types):
        raise ExecutionError(f"takes {len(arg_types)} arguments, got {len(inputs)} inputs")
    args = []
    for i, ((shape, dt), arr) in enumerate(zip(arg_types, inputs)):
        # A mismatch would be an out-of-bounds access in JIT code.
        if arr.dtype != dt or tuple(arr.shape) != (shape or ()):
            raise ExecutionError(f"argument {i} is {fmt(shape, dt)}, input is "
                                 f"{fmt(tuple(arr.shape), arr.dtype)}")
        args.append(arr if shape is None else page_aligned(arr))
    # Only the entry needs a C interface: `_mlir_ciface_<name>` takes
    # pointers to memref descriptors, a pointer to the results first.
    func.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
    for op in list(module.body.operations):  # drop an embedded schedule
        if op.operation.name.startswith("transform.") or (
                op.operation.name == "builtin.module"
                and "transform.with_named_sequence" in op.operation.attributes):
            op.operation.erase()
    return args, arg_types, res_types


def _engine(ctx: Any, module: Any, opt_level: int, threads: int) -> Any:
    from mlir import ir
    from mlir.execution_engine import ExecutionEngine

    lib_dir = Path(ir.__file__).resolve().parent / "lib"
    # memrefCopy (non-contiguous copies) lives in the runner utils.
    shared_libs = [str(lib_dir / n) for n in ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so")]
    if threads > 1:
        shared_libs.append(str(openmp_library(threads) or lib_dir / "libmlir_async_runtime.so"))
    errors: list[str] = []

    def on_diagnostic(diag: Any) -> bool:
        errors.append(f"{diag.location}: {diag.message}")
        return True

    handler = ctx.attach_diagnostic_handler(on_diagnostic)
    try:
        return ExecutionEngine(module, opt_level=opt_level, shared_libs=shared_libs)
    except RuntimeError as exc:
        raise ExecutionError(f"cannot build the execution engine: {exc}"
                             + (f": {'; '.join(errors)}" if errors else "")) from None
    finally:
        handler.detach()


def _call(engine: Any, func_name: str, args: list[np.ndarray], arg_types: list, res_types: list,
          repeats: int, warmup: int, min_seconds: float) -> tuple[list[np.ndarray], list[float]]:
    from mlir import runtime

    # All results come back through one struct of memref descriptors
    # (with one result, the struct has the layout of its descriptor).
    descs = []
    for shape, dt in res_types:
        ctp = runtime.as_ctype(dt)
        descs.append(runtime.make_nd_memref_descriptor(len(shape), ctp) if shape
                     else runtime.make_zero_d_memref_descriptor(ctp))
    result_struct = type("Results", (ctypes.Structure,),
                         {"_fields_": [(f"r{i}", t) for i, t in enumerate(descs)]})()
    # A scalar argument is passed by value: a pointer to it; a tensor, a pointer to its descriptor's pointer.
    ptrs = [ctypes.pointer(np.ctypeslib.as_ctypes_type(a.dtype)(a.item())) if shape is None
            else ctypes.pointer(ctypes.pointer(runtime.get_ranked_memref_descriptor(a)))
            for a, (shape, _) in zip(args, arg_types)]
    if res_types:
        ptrs.insert(0, ctypes.pointer(ctypes.pointer(result_struct)))
    times: list[float] = []
    free_results = result_freer(args, [getattr(result_struct, f"r{i}") for i in range(len(res_types))])
    # ExecutionEngine.invoke, with its symbol lookup and argument packing done once: per call they took
    # 10-18 us (a 16³ matmul: 18 us a call through invoke, 1.5 us so), 4-7% of a 256³ matmul's time.
    invoke = engine.lookup(func_name)
    packed = (ctypes.c_void_p * len(ptrs))(*[ctypes.cast(p, ctypes.c_void_p) for p in ptrs])
    invoke(packed)
    outputs = [to_numpy(getattr(result_struct, f"r{i}"), dt, runtime) for i, (_, dt) in enumerate(res_types)]
    if repeats or warmup:
        keep_freed_memory()
    # Results are fresh allocations on every call: freed between calls, so that a
    # timed call does not also page-fault a new mapping for each result.
    k, timed = 0, 0.0
    while k < warmup + repeats or (repeats and timed < min_seconds and k < _MAX_CALLS):
        free_results()
        start = time.perf_counter()
        invoke(packed)
        if k >= warmup:
            times.append(time.perf_counter() - start)
            timed += times[-1]
        k += 1
    free_results()
    return outputs, times


def find_func(module: Any, name: str) -> Any:

    from schedgen.ir.queries import find_func as lookup

    op = lookup(module, name)
    if op is None:
        raise ExecutionError("no such function in the module")
    if len(op.regions[0].blocks) == 0:
        raise ExecutionError("is only a declaration")
    return op


def arg_type(t: Any, what: str) -> tuple[tuple[int, ...] | None, np.dtype[Any]]:
    """As tensor_type, and (None, dtype) for a scalar (int, float or index) argument."""
    from mlir import ir

    if isinstance(t, (ir.IntegerType, ir.FloatType, ir.IndexType)):
        try:
            return None, numpy_dtype(str(t))
        except ValueError as exc:
            raise ExecutionError(f"{what}: {exc}") from None
    return tensor_type(t, what)


def tensor_type(t: Any, what: str) -> tuple[tuple[int, ...], np.dtype[Any]]:
    """(shape, dtype) of a statically shaped tensor type; () for rank 0."""
    from mlir import ir

    if isinstance(t, ir.MemRefType) and identity_layout(t) and t.has_static_shape:
        # A schedule that bufferizes (CPU targets) leaves identity-layout memrefs at the boundary.
        try:
            return tuple(t.shape), numpy_dtype(str(t.element_type))
        except ValueError as exc:
            raise ExecutionError(f"{what}: {exc}") from None
    if not isinstance(t, ir.RankedTensorType):  # 22.x hands out downcast types
        raise ExecutionError(f"{what} has type {t}; only ranked tensors are supported")
    if t.encoding is not None:
        raise ExecutionError(f"{what} has type {t}; tensors with an encoding are not supported")
    if not t.has_static_shape:
        raise ExecutionError(f"{what} has type {t}; only static shapes are supported")
    try:
        return tuple(t.shape), numpy_dtype(str(t.element_type))
    except ValueError as exc:
        raise ExecutionError(f"{what}: {exc}") from None


def identity_layout(t: Any) -> bool:
    from mlir import ir

    layout = t.layout
    return isinstance(layout, ir.AffineMapAttr) and layout.value == ir.AffineMap.get_identity(len(t.shape))


def fmt(shape: tuple[int, ...] | None, dt: Any) -> str:
    return "x".join([str(n) for n in shape or ()] + [np.dtype(dt).name])


def to_numpy(desc: Any, dt: np.dtype[Any], runtime: Any) -> np.ndarray:
    """Copy a result out of its descriptor (the copy outlives the engine)."""
    if not hasattr(desc, "shape"):  # rank 0
        ptr = runtime.move_aligned_ptr_by_offset(desc.aligned, desc.offset)
        return np.ctypeslib.as_array(ptr, shape=(1,)).view(dt).reshape(()).copy()
    return np.array(runtime.ranked_memref_to_numpy([desc]), dtype=dt, copy=True)

