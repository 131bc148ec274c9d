"""Execute a function of a linalg-on-tensors MLIR module on numpy inputs, and
compare results.

Lowering and JIT execution run in a child process (`python -m
schedgen.run.execute DIR`): an LLVM assertion or a crash in JIT-compiled code
aborts the whole process, and the parent must survive it to report a one-line
`ExecutionError`. Parent and child talk through files in a temporary
directory: `module.mlir`, `request.json`, `inputs.npz` in; `outputs.npz` or
`error.txt` out, and `phase.txt` (what the child was doing, for a crash
report). The parent never imports the MLIR bindings.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

from schedgen.errors import SchedgenError
from schedgen.run.math_approx import approximate_exp

# Verified on MLIR 22.1.8 (see the field notes, "Executing payloads"), plus:
# - `canonicalize` first folds the constant/empty-tensor clutter of exports;
# - `scf-forall-to-for` lowers `scf.forall` (tiled payloads) to sequential
#   `scf.for` explicitly rather than relying on `convert-scf-to-cf`;
# - `convert-bufferization-to-memref` is required: without it a
#   `bufferization.clone` survives and the engine fails on
#   `builtin.unrealized_conversion_cast`.
# Split in two because MemRefToLLVM asserts (aborting the process) on any
# `memref.store` of i1: between the halves, i1 memory is widened to i8 (see
# _widen_i1_memory). Without i1 memrefs the two halves are LOWERING_PIPELINE.
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



_TO_LLVM = (
    # x**3 of tanh-GELU arrives as math.fpowi with a vector exponent, which the
    # LLVM intrinsic does not take: multiply it out.
    "math-expand-ops{ops=fpowi}",
    "convert-vector-to-llvm",
    "convert-to-llvm",
    # What is left of math (erf of exact GELU, tanh...) has no LLVM intrinsic:
    # libm calls (scalarized for vectors; the JIT resolves them in this
    # process). Only after the intrinsics took theirs: rsqrt has no libm twin.
    "convert-math-to-libm",
    "convert-to-llvm",
    "reconcile-unrealized-casts",
)



LOWERING_PIPELINE = f"builtin.module({','.join(_TO_LOOPS + _TO_LLVM)})"



# Element type as MLIR prints it -> numpy dtype. i1 is a byte per element in
# LLVM memory, like numpy's bool; bf16 comes from ml_dtypes (as the MLIR
# runtime's own numpy bridge expects).
_NP_DTYPES: dict[str, np.dtype[Any]] = {
    "f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype(np.float32), "f64": np.dtype(np.float64),
    "i1": np.dtype(np.bool_), "i8": np.dtype(np.int8), "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32), "i64": np.dtype(np.int64), "index": np.dtype(np.int64),
}



# The child's stack: schedules that use `alloc_to_alloca` put whole tiles on
# the stack and segfault under the default 8 MB. Reserved, not committed.
_STACK_BYTES = 1 << 30



class ExecutionError(Exception):
    """Lowering or execution failed; the message is a single line."""

    def __init__(self, message: str) -> None:
        self.message = _one_line(message)
        super().__init__(self.message)



def _one_line(text: str) -> str:
    return " ".join(text.split())



def numpy_dtype(element_type: str) -> np.dtype[Any]:
    """numpy dtype for an MLIR element type string ("f32") or a numpy name."""
    if element_type in _NP_DTYPES:
        return _NP_DTYPES[element_type]
    try:
        dt = np.dtype(element_type)
    except TypeError:
        raise ValueError(f"unsupported element type {element_type!r}") from None
    if dt not in _NP_DTYPES.values():
        raise ValueError(f"unsupported element type {element_type!r}")
    return dt



def random_inputs(arg_types: list[tuple[tuple[int, ...], str]], seed: int) -> list[np.ndarray]:
    """One array per (shape, element type), the same for the same seed:
    floats uniform in [-1, 1] (mixed signs, so relu-like ops matter; no
    overflow in exp or long sums), integers in [0, 8], i1 a fair coin. Small
    integers keep i32 results exact; i8 sums may wrap, but wrapping arithmetic
    is associative, so a tiled payload must still match bit for bit."""
    rng = np.random.default_rng(seed)
    out: list[np.ndarray] = []
    for shape, etype in arg_types:
        dt = numpy_dtype(etype)
        if dt == np.bool_:
            arr = rng.integers(0, 2, size=shape).astype(np.bool_)
        elif np.issubdtype(dt, np.integer):
            # small and non-negative: integer arguments of models are indices (token ids
            # that an embedding's bounds check would reject when negative)
            arr = rng.integers(0, 9, size=shape).astype(dt)
        else:
            arr = rng.uniform(-1.0, 1.0, size=shape).astype(dt)
        out.append(np.ascontiguousarray(arr).reshape(shape))  # (0-d stays 0-d: a scalar argument)
    return out



def read_inputs(path: Path | str, arg_types: list[tuple[tuple[int, ...], str]]) -> tuple[list[np.ndarray],
                                                                                       list[np.ndarray]]:
    """Inputs (in_0, in_1, ... in argument order; or arr_0, ...) and saved
    reference outputs (out_0, ...) from an .npz; SchedgenError when they do
    not fit the function's arguments."""
    path = Path(path)
    try:
        npz = np.load(path)
    except (OSError, ValueError) as exc:
        raise SchedgenError(str(path), f"cannot read inputs: {exc}") from None
    with npz:
        names = set(npz.files)
        prefix = "in_" if "in_0" in names else "arr_"
        inputs = [npz[f"{prefix}{i}"] for i in range(len(arg_types)) if f"{prefix}{i}" in names]
        outputs = [npz[f"out_{i}"] for i in range(len(names)) if f"out_{i}" in names]
    if len(inputs) != len(arg_types):
        raise SchedgenError(str(path), f"holds {len(inputs)} inputs ({prefix}0, ...), the function takes "
                            f"{len(arg_types)} arguments")
    out = []
    for i, (arr, (shape, etype)) in enumerate(zip(inputs, arg_types)):
        want = numpy_dtype(etype)
        if tuple(arr.shape) != tuple(shape):
            raise SchedgenError(str(path), f"input {i} has shape {list(arr.shape)}, argument {i} is {list(shape)}")
        if arr.dtype != want:
            raise SchedgenError(str(path), f"input {i} is {arr.dtype}, argument {i} is {etype}")
        out.append(np.ascontiguousarray(arr).reshape(shape))  # (0-d stays 0-d: a scalar argument)
    return out, outputs



def run_function(module_text: str, func_name: str, inputs: list[np.ndarray],
                 timeout: float = 600, opt_level: int = 3, threads: int = 1) -> list[np.ndarray]:
    """Lower `module_text` (LOWERING_PIPELINE), JIT it and call `func_name` on
    `inputs` (one array per tensor argument, same shape and element type) in
    a child process; returns one array per returned tensor. Raises
    ExecutionError on a parse or lowering failure, a crash, or a timeout.
    `threads` > 1 runs scf.parallel loops on that many workers (async runtime)."""
    return time_function(module_text, func_name, inputs, timeout, opt_level, threads, repeats=0)[0]



def time_function(module_text: str, func_name: str, inputs: list[np.ndarray], timeout: float = 600,
                  opt_level: int = 3, threads: int = 1, repeats: int = 5,
                  warmup: int = 1, min_seconds: float = 0.0) -> tuple[list[np.ndarray], list[float]]:
    """As run_function, and also the wall time of each of `repeats` calls
    after `warmup` calls (outputs are those of the first call); with
    `min_seconds`, more calls until the timed ones add up to that much (as
    benchmark libraries do: a sub-millisecond kernel timed a few times
    mostly measures worker threads waking up)."""
    with tempfile.TemporaryDirectory(prefix="schedgen-exec-") as tmp:
        d = Path(tmp)
        (d / "module.mlir").write_text(module_text)
        (d / "request.json").write_text(json.dumps({"func": func_name, "opt_level": opt_level, "threads": threads,
                                                    "repeats": repeats, "warmup": warmup,
                                                    "min_seconds": min_seconds}))
        _save_arrays(d / "inputs.npz", [np.asarray(a) for a in inputs])
        env = dict(os.environ)
        # The child must import this package even if it is not installed.
        root = str(Path(__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        try:
            proc = subprocess.run([sys.executable, "-m", "schedgen.run.execute", str(d)], cwd=d, env=env,
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  errors="replace", timeout=timeout)
        except subprocess.TimeoutExpired:  # subprocess.run has killed the child
            raise ExecutionError(f"@{func_name}: timed out after {timeout:g} s "
                                 f"({_read(d / 'phase.txt') or 'starting'})") from None
        error_file, out_file = d / "error.txt", d / "outputs.npz"
        if error_file.is_file():  # the child caught the failure itself
            raise ExecutionError(error_file.read_text())
        if proc.returncode != 0 or not out_file.is_file():
            phase = _read(d / "phase.txt") or "starting"
            raise ExecutionError(f"@{func_name}: {describe_death(proc.returncode, proc.stderr, phase)}"
                                 + _assert_message(proc.stdout))
        outputs = _load_arrays(out_file)
        times = json.loads(_read(d / "times.json") or "[]")
        return outputs, times



def _save_arrays(path: Path, arrays: list[np.ndarray]) -> None:
    """npz keeps only numpy's own dtypes (bf16 would come back as void16):
    every array is stored as its raw bytes' unsigned view, with its dtype name."""
    names = np.array([a.dtype.name for a in arrays])
    np.savez(path, names, *[a.view(f"u{a.dtype.itemsize}") if a.dtype.kind == "V" else a for a in arrays])



def _load_arrays(path: Path) -> list[np.ndarray]:
    with np.load(path) as npz:
        names = [str(n) for n in npz["arr_0"]]
        return [npz[f"arr_{i + 1}"].view(numpy_dtype(n)) for i, n in enumerate(names)]



def _read(path: Path) -> str:
    return path.read_text().strip() if path.is_file() else ""



def _assert_message(stdout: str) -> str:
    """What a failed cf.assert printed (its last line), if anything."""
    lines = [ln.strip() for ln in stdout.splitlines() if ln.strip()]
    return f"; the payload's assertion failed: {lines[-1]}" if lines else ""



def describe_death(returncode: int, stderr: str, phase: str, who: str = "execution process") -> str:
    """How a child process died, on one line: the signal and what it was doing,
    with the LLVM assertion (or last meaningful line) it printed."""
    if returncode < 0:
        try:
            how = f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            how = f"killed by signal {-returncode}"
    else:
        how = "exited"
    line = _meaningful_line(stderr)
    return (f"{who} {how} while {phase} (return code {returncode})"
            + (f": {line}" if line else ""))



def _meaningful_line(stderr: str) -> str:
    """The line that says what went wrong: an LLVM assertion or fatal error if
    there is one, else the last line that is not stack-dump noise."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    for ln in lines:
        if "Assertion" in ln or ln.startswith("LLVM ERROR") or "error:" in ln:
            return ln
    noise = ("PLEASE submit", "Stack dump", "#", "0x", "Fatal Python error", "Current thread",
             "Thread 0x", "File \"", "Extension modules:", "Aborted", "Segmentation fault")
    for ln in reversed(lines):
        if not ln.startswith(noise) and not ln[:1].isdigit():
            return ln
    return ""



def _child(d: Path) -> None:
    req = json.loads((d / "request.json").read_text())
    func_name: str = req["func"]
    # A failed cf.assert (torch's bounds checks) puts its message on C's
    # stdout, then aborts: unbuffered, the message reaches the parent.
    try:
        import ctypes

        libc = _libc()
        libc.setvbuf(ctypes.c_void_p.in_dll(libc, "stdout"), None, 2, 0)  # _IONBF
    except (OSError, ValueError, AttributeError):
        pass

    def phase(what: str) -> None:
        # Tells the parent what was going on if this process dies.
        (d / "phase.txt").write_text(what)

    try:
        inputs = _load_arrays(d / "inputs.npz")
        outputs, times = _lower_and_run((d / "module.mlir").read_text(), func_name, inputs,
                                        int(req["opt_level"]), phase, int(req.get("threads", 1)),
                                        int(req.get("repeats", 0)), int(req.get("warmup", 0)),
                                        float(req.get("min_seconds", 0.0)))
    except ExecutionError as exc:
        (d / "error.txt").write_text(f"@{func_name}: {exc.message}")
        return
    (d / "times.json").write_text(json.dumps(times))
    _save_arrays(d / "outputs.npz", outputs)



def _diagnostics(exc: Exception) -> str:
    """An MLIRError's diagnostics (and their notes) on one line."""
    diags = getattr(exc, "error_diagnostics", None)
    if not diags:
        return _one_line(str(exc))
    parts = []
    for diag in diags:
        parts.append(f"{diag.location}: {diag.message}")
        parts.extend(f"note: {n.message}" for n in diag.notes)
    return _one_line("; ".join(parts))



def _parallel_passes(threads: int) -> tuple[str, ...]:
    """scf.parallel (a CPU schedule's outer loop) on `threads` workers of the
    MLIR async runtime; with one thread it stays a sequential loop."""
    if threads <= 1:
        return ()
    return (f"async-parallel-for{{async-dispatch=false num-workers={threads} min-task-size=1}}",
            "async-to-async-runtime", "async-runtime-ref-counting", "async-runtime-ref-counting-opt",
            "convert-async-to-llvm")



def _lower_and_run(text: str, func_name: str, inputs: list[np.ndarray], opt_level: int,
                   phase: Any, threads: int = 1, repeats: int = 0,
                   warmup: int = 0, min_seconds: float = 0.0) -> tuple[list[np.ndarray], list[float]]:
    import ctypes
    import time

    try:  # registers transform.xtc.* so that modules that mention it parse
        import mlir.xtc_transform  # noqa: F401
    except ImportError:
        pass
    from mlir import ir, passmanager, runtime
    from mlir.execution_engine import ExecutionEngine

    from schedgen.ir.normalize import has_packs, needed_steps, normalize

    lib_dir = Path(ir.__file__).resolve().parent / "lib"
    # memrefCopy (non-contiguous copies) lives in the runner utils.
    shared_libs = [str(lib_dir / n) for n in ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so")]
    if threads > 1:
        shared_libs.append(str(lib_dir / "libmlir_async_runtime.so"))

    with ir.Context() as ctx, ir.Location.unknown():
        phase("parsing the module")
        try:
            module = ir.Module.parse(text)
        except ir.MLIRError as exc:
            raise ExecutionError(f"cannot parse module: {_diagnostics(exc)}") from None
        func = _find_func(module, func_name)
        # Aggregate ops (linalg.softmax) have no lowering of their own: decompose them, as a schedule
        # would; linalg.pack / unpack have no bufferization: lower them to pad, reshapes and transposes.
        steps = tuple(s for s in needed_steps(func.operation) if s == "decompose")
        normalize(module, func_name, steps + (("lower_packs",) if has_packs(func.operation) else ()))
        ftype = ir.FunctionType(func.attributes["function_type"].value)
        arg_types = [_arg_type(t, f"argument {i}") for i, t in enumerate(ftype.inputs)]
        res_types = [_tensor_type(t, f"result {i}") for i, t in enumerate(ftype.results)]
        if len(inputs) != len(arg_types):
            raise ExecutionError(f"takes {len(arg_types)} arguments, got {len(inputs)} inputs")
        args = []
        for i, ((shape, dt), arr) in enumerate(zip(arg_types, inputs)):
            # A mismatch would be an out-of-bounds access in JIT code.
            if arr.dtype != dt or tuple(arr.shape) != (shape or ()):
                raise ExecutionError(f"argument {i} is {_fmt(shape, dt)}, input is "
                                     f"{_fmt(tuple(arr.shape), arr.dtype)}")
            args.append(arr if shape is None else _page_aligned(arr))

        # Only the entry needs a C interface: `_mlir_ciface_<name>` takes
        # pointers to memref descriptors, a pointer to the results first.
        func.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
        for op in list(module.body.operations):  # drop an embedded schedule
            if op.operation.name.startswith("transform.") or (
                    op.operation.name == "builtin.module"
                    and "transform.with_named_sequence" in op.operation.attributes):
                op.operation.erase()
        phase("lowering")
        try:
            to_loops = _TO_LOOPS[:5] + _parallel_passes(threads) + _TO_LOOPS[5:]
            passmanager.PassManager.parse(f"builtin.module({','.join(to_loops)})").run(module.operation)
            _widen_i1_memory(module)
            approximate_exp(module)  # vector expf calls -> polynomial (schedgen.run.math_approx)
            passmanager.PassManager.parse(f"builtin.module({','.join(_TO_LLVM)})").run(module.operation)
        except ir.MLIRError as exc:
            raise ExecutionError(f"lowering failed: {_diagnostics(exc)}") from None
        _check_all_llvm(module)

        phase("compiling")
        errors: list[str] = []

        def on_diagnostic(diag: Any) -> bool:
            errors.append(f"{diag.location}: {diag.message}")
            return True

        handler = ctx.attach_diagnostic_handler(on_diagnostic)
        try:
            engine = ExecutionEngine(module, opt_level=opt_level, shared_libs=shared_libs)
        except RuntimeError as exc:
            raise ExecutionError(f"cannot build the execution engine: {exc}"
                                 + (f": {'; '.join(errors)}" if errors else "")) from None
        finally:
            handler.detach()

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
        phase(f"running @{func_name}")
        times: list[float] = []
        free_results = _result_freer(args, [getattr(result_struct, f"r{i}") for i in range(len(res_types))])
        try:
            engine.invoke(func_name, *ptrs)
            outputs = [_to_numpy(getattr(result_struct, f"r{i}"), dt, runtime)
                       for i, (_, dt) in enumerate(res_types)]
            if repeats or warmup:
                _keep_freed_memory()
            # Results are fresh allocations on every call: freed between calls, so that a
            # timed call does not also page-fault a new mapping for each result.
            k, timed = 0, 0.0
            while k < warmup + repeats or (repeats and timed < min_seconds and k < _MAX_CALLS):
                free_results()
                start = time.perf_counter()
                engine.invoke(func_name, *ptrs)
                if k >= warmup:
                    times.append(time.perf_counter() - start)
                    timed += times[-1]
                k += 1
            free_results()
        finally:
            # Must go before interpreter shutdown, or Python aborts with
            # "PyThreadState_Get: the function must be called with the GIL held".
            del engine
        phase("writing results")
        return outputs, times



def _libc() -> Any:
    """The C library the JIT-compiled code allocates with (this process's own)."""
    import ctypes

    libc = ctypes.CDLL(None)
    libc.free.argtypes = [ctypes.c_void_p]
    libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    return libc



def _page_aligned(arr: np.ndarray) -> np.ndarray:
    """A C-contiguous copy starting on a page boundary -- a 2 MiB one, with
    transparent huge pages asked for (as numpy does for its large arrays),
    when the array is that large. Vector loads then never straddle cache
    lines by accident, and timings do not swing with where the kernel
    happened to place 4 KiB pages (L2 set conflicts, TLB misses)."""
    nbytes = max(1, arr.nbytes)
    align = _HUGE_PAGE if nbytes >= _HUGE_PAGE else 4096
    raw = np.empty(nbytes + align, dtype=np.uint8)
    start = -raw.ctypes.data % align
    out = raw[start:start + nbytes].view(arr.dtype).reshape(arr.shape)
    if align == _HUGE_PAGE:
        try:
            _libc().madvise(out.ctypes.data, nbytes // _HUGE_PAGE * _HUGE_PAGE, 14)  # MADV_HUGEPAGE
        except (OSError, AttributeError):
            pass
    out[...] = arr
    return out



_HUGE_PAGE = 2 << 20



_MAX_CALLS = 100_000  # bound on min_seconds' extra calls



def _keep_freed_memory() -> None:
    """glibc serves large allocations with fresh mmaps and returns them on
    free, so every call of a benchmarked function would page-fault its
    results and local buffers again (and, on several threads, pay for TLB
    shootdowns on munmap). Keep such blocks in the heap instead: a
    benchmark measures the kernel, as a caching allocator would serve it."""
    try:
        libc = _libc()
        libc.mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD: glibc's maximum, 32 MiB
        libc.mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD: keep up to 1 GiB of freed heap
    except (OSError, AttributeError):
        pass



def _result_freer(inputs: list[np.ndarray], descs: list[Any]) -> Any:
    """A function that frees the buffers the last call returned (memref.alloc
    lowers to malloc; `allocated` is malloc's pointer), skipping any result
    that is an input's own memory."""
    libc = _libc()
    spans = [(a.ctypes.data, a.ctypes.data + max(1, a.nbytes)) for a in inputs]

    def free_results() -> None:
        freed: set[int] = set()
        for desc in descs:
            ptr = int(desc.allocated)  # a c_longlong field
            # (a memref.global's descriptor carries 0xdeadbeef there: nothing to free)
            if not ptr or ptr == 0xDEADBEEF or ptr in freed or any(lo <= ptr < hi for lo, hi in spans):
                continue
            libc.free(ptr)
            freed.add(ptr)
            desc.allocated = 0
    return free_results



def _find_func(module: Any, name: str) -> Any:
    from mlir import ir

    for op in module.body.operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == name:
            if len(op.regions[0].blocks) == 0:
                raise ExecutionError("is only a declaration")
            return op
    raise ExecutionError("no such function in the module")



def _arg_type(t: Any, what: str) -> tuple[tuple[int, ...] | None, np.dtype[Any]]:
    """As _tensor_type, and (None, dtype) for a scalar (int, float or index) argument."""
    from mlir import ir

    if isinstance(t, (ir.IntegerType, ir.FloatType, ir.IndexType)):
        try:
            return None, numpy_dtype(str(t))
        except ValueError as exc:
            raise ExecutionError(f"{what}: {exc}") from None
    return _tensor_type(t, what)



def _tensor_type(t: Any, what: str) -> tuple[tuple[int, ...], np.dtype[Any]]:
    """(shape, dtype) of a statically shaped tensor type; () for rank 0."""
    from mlir import ir

    if isinstance(t, ir.MemRefType) and _identity_layout(t) and t.has_static_shape:
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



def _identity_layout(t: Any) -> bool:
    from mlir import ir

    layout = t.layout
    return isinstance(layout, ir.AffineMapAttr) and layout.value == ir.AffineMap.get_identity(len(t.shape))



def _fmt(shape: tuple[int, ...] | None, dt: Any) -> str:
    return "x".join([str(n) for n in shape or ()] + [np.dtype(dt).name])



def _to_numpy(desc: Any, dt: np.dtype[Any], runtime: Any) -> np.ndarray:
    """Copy a result out of its descriptor (the copy outlives the engine)."""
    if not hasattr(desc, "shape"):  # rank 0
        ptr = runtime.move_aligned_ptr_by_offset(desc.aligned, desc.offset)
        return np.ctypeslib.as_array(ptr, shape=(1,)).view(dt).reshape(()).copy()
    return np.array(runtime.ranked_memref_to_numpy([desc]), dtype=dt, copy=True)



def _check_all_llvm(module: Any) -> None:
    """Name the first op the pipeline could not lower (e.g. linalg.softmax):
    the engine itself would only say "Failure while creating the
    ExecutionEngine" and blame a leftover unrealized_conversion_cast."""
    from mlir import ir

    left: list[Any] = []

    def visit(op: Any) -> Any:
        name = op.name
        if not name.startswith("llvm.") and name != "builtin.module":
            left.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    if left:
        real = [op for op in left if op.name != "builtin.unrealized_conversion_cast"] or left
        raise ExecutionError(f"lowering left '{real[0].name}' at {real[0].location} "
                             f"({len(left)} op(s) not lowered to the LLVM dialect)")



def _widen_i1_memory(module: Any) -> None:
    """Store i1 elements in i8 memory: MemRefToLLVM (22.1.8) asserts on every
    `memref.store` of i1, and numpy's bool is a byte anyway. Runs on loops
    over memrefs (before the LLVM conversion): memref types with i1 elements
    become i8, values loaded from them are truncated, values stored extended."""
    from mlir import ir
    from mlir.dialects import arith

    i1, i8 = ir.IntegerType.get_signless(1), ir.IntegerType.get_signless(8)

    def wide(t: Any) -> Any:
        if isinstance(t, ir.MemRefType) and t.element_type == i1:
            return ir.MemRefType.get(t.shape, i8, t.layout, t.memory_space)
        if isinstance(t, ir.VectorType) and t.element_type == i1:  # a value read from / written to memory
            return ir.VectorType.get(t.shape, i8)
        return i8 if t == i1 else t

    def is_i1_memref(t: Any) -> bool:
        return isinstance(t, ir.MemRefType) and t.element_type == i1

    ops: list[Any] = []
    module.operation.walk(lambda op: ops.append(op) or ir.WalkResult.ADVANCE, ir.WalkOrder.PRE_ORDER)
    def mentions_i1_memory(op: Any) -> bool:
        if op.name == "memref.global":
            return is_i1_memref(op.attributes["type"].value)
        values = list(op.operands) + list(op.results)
        values += [a for r in op.regions for b in r.blocks for a in b.arguments]
        return any(is_i1_memref(v.type) for v in values)

    touches = [op for op in ops if mentions_i1_memory(op)]
    if not touches:
        return

    # What stores into (or loads from) i1 memory: the value operand to extend
    # and whether the result must be truncated.
    stores = {"memref.store": lambda o: o.operands[0], "vector.store": lambda o: o.operands[0],
              "vector.transfer_write": lambda o: o.operands[0],
              "vector.maskedstore": lambda o: o.valueToStore,  # (`o` is the op's OpView)
              "vector.transfer_read": lambda o: o.padding,
              "vector.maskedload": lambda o: o.pass_thru}
    loads = {"memref.load", "vector.load", "vector.transfer_read", "vector.maskedload"}
    neutral = {"memref.alloc", "memref.alloca", "memref.dealloc", "memref.subview", "memref.cast",
               "memref.reinterpret_cast", "memref.extract_strided_metadata", "memref.copy",
               "memref.collapse_shape", "memref.expand_shape", "memref.get_global", "memref.dim",
               "memref.extract_aligned_pointer_as_index", "memref.assume_alignment", "memref.global",
               "cf.br", "cf.cond_br", "func.return", "func.call", "func.func", "scf.yield", "scf.for",
               "scf.if", "scf.while", "scf.condition"}
    for op in touches:
        name = op.name
        if name not in neutral and name not in loads and name not in stores:
            raise ExecutionError(f"cannot widen i1 memory for '{name}' at {op.location}")
        if name in stores:
            value = stores[name](op.opview)
            if value.type != wide(value.type):
                ext = arith.ExtUIOp(wide(value.type), value, loc=op.location, ip=ir.InsertionPoint(op))
                op.replace_uses_of_with(value, ext.result)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    if is_i1_memref(arg.type):
                        arg.set_type(wide(arg.type))
        for res in op.results:
            if is_i1_memref(res.type):
                res.set_type(wide(res.type))
            elif name in loads and res.type != wide(res.type):
                narrow = res.type
                res.set_type(wide(narrow))
                trunc = arith.TruncIOp(narrow, res, loc=op.location, ip=ir.InsertionPoint.after(op))
                res.replace_all_uses_except(trunc.result, trunc.operation)
        if name == "func.func":
            ft = ir.FunctionType(op.attributes["function_type"].value)
            new = ir.FunctionType.get([wide(t) if is_i1_memref(t) else t for t in ft.inputs],
                                      [wide(t) if is_i1_memref(t) else t for t in ft.results])
            op.attributes["function_type"] = ir.TypeAttr.get(new)
        if name == "memref.global" and is_i1_memref(op.attributes["type"].value):
            op.attributes["type"] = ir.TypeAttr.get(wide(op.attributes["type"].value))
            init = op.attributes["initial_value"] if "initial_value" in op.attributes else None
            if isinstance(init, ir.DenseElementsAttr):
                vals = np.array(init, dtype=np.int8) if not init.is_splat else \
                    np.full(init.type.shape, int(bool(init.get_splat_value())), dtype=np.int8)
                op.attributes["initial_value"] = ir.DenseElementsAttr.get(
                    vals, type=ir.RankedTensorType.get(init.type.shape, i8))
            elif init is not None and not isinstance(init, ir.UnitAttr):
                raise ExecutionError(f"cannot widen the i1 initial value of a memref.global at {op.location}")



def _run_child_main(directory: str) -> int:
    """Run the child in a thread with a large stack (see _STACK_BYTES) and
    report any unexpected Python exception as a one-line error file."""
    import threading

    d = Path(directory)
    failure: list[BaseException] = []

    def work() -> None:
        try:
            _child(d)
        except BaseException as exc:  # noqa: BLE001  reported to the parent
            failure.append(exc)

    try:
        threading.stack_size(_STACK_BYTES)
        t = threading.Thread(target=work, name="schedgen-execute")
        t.start()
    except (RuntimeError, ValueError, MemoryError):  # no room for the big stack
        threading.stack_size(0)
        t = threading.Thread(target=work, name="schedgen-execute")
        t.start()
    t.join()
    if failure:
        exc = failure[0]
        (d / "error.txt").write_text(f"internal error in the execution process: "
                                     f"{type(exc).__name__}: {_one_line(str(exc))}")
        return 1
    return 0



@dataclass
class ResultComparison:
    index: int
    shape: tuple[int, ...]
    dtype: str
    max_abs_err: float
    max_rel_err: float
    ok: bool



# (rtol, atol) per dtype. An element passes if
#     |actual - expected| <= atol + rtol * max(|expected|, FLOOR * max|expected|)
# where the max runs over the whole result. Tiling a reduction reorders its
# sums; the rounding error of a sum is relative to the size of its terms, not
# of the sum, so an element that cancels to nearly 0 can be off by far more
# than rtol * |expected|. Flooring |expected| at 1% of the result's largest
# magnitude accepts that (f32: eps * sqrt(K) * |terms| stays well under it for
# reductions of thousands of terms) while a wrong or missing tile is still off
# by O(|terms|). f32 rtol 1e-4 is ~800 ulps; f16 has ~3 decimal digits and
# accumulates in f16, hence 1e-2; bf16 keeps 8 significant bits (eps 2^-8),
# so the same ~20 ulps are 8e-2; integers must match exactly.
_TOLERANCES: dict[str, tuple[float, float]] = {
    "float64": (1e-9, 1e-12),
    "float32": (1e-4, 1e-5),
    "float16": (1e-2, 1e-3),
    "bfloat16": (8e-2, 1e-2),
}



_FLOOR = 1e-2



def tolerance(dtype: str) -> tuple[float, float]:
    """(rtol, atol) for an element type ("f32" or "float32"); (0, 0) = exact."""
    return _TOLERANCES.get(numpy_dtype(dtype).name, (0.0, 0.0))



def compare(expected: list[np.ndarray], actual: list[np.ndarray],
            dtypes: list[str], tol: tuple[float, float] | None = None) -> list[ResultComparison]:
    """Compare result by result (`dtypes` in MLIR or numpy spelling; `tol`:
    (rtol, atol) for floating results instead of the type's own).
    max_rel_err is relative to the floored |expected| of the criterion above.
    A missing result or a shape mismatch fails with infinite error; NaN
    matches only NaN, an infinity only the same infinity."""
    out: list[ResultComparison] = []
    for i in range(max(len(expected), len(actual))):
        ref = expected[i] if i < len(expected) else actual[i]
        name = numpy_dtype(dtypes[i] if i < len(dtypes) else str(ref.dtype)).name
        if i >= len(expected) or i >= len(actual) or expected[i].shape != actual[i].shape:
            out.append(ResultComparison(i, tuple(ref.shape), name, math.inf, math.inf, False))
            continue
        rtol, atol = tol if tol is not None and np.dtype(name).kind == "f" else tolerance(name)
        e = expected[i].astype(np.float64)
        a = actual[i].astype(np.float64)
        with np.errstate(invalid="ignore"):
            diff = np.abs(a - e)  # inf - inf and NaN give NaN
        same = (np.isnan(a) & np.isnan(e)) | (np.isinf(e) & (a == e))
        diff = np.where(same, 0.0, np.where(np.isnan(diff), math.inf, diff))
        finite = np.abs(e[np.isfinite(e)])
        floor = _FLOOR * float(finite.max()) if finite.size else 0.0
        scale = np.maximum(np.where(np.isfinite(e), np.abs(e), 0.0), floor)
        ok = bool(np.all(diff <= atol + rtol * scale))
        # Relative to the same floored scale (at least 1 for exact types, so
        # an integer off by one near zero reads as 1, not as a huge ratio).
        rel = diff / np.maximum(scale, atol if atol > 0 else 1.0)
        out.append(ResultComparison(i, tuple(e.shape), name,
                                    float(diff.max()) if diff.size else 0.0,
                                    float(rel.max()) if rel.size else 0.0, ok))
    return out



if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: python -m schedgen.run.execute DIR (internal: the child of run_function)", file=sys.stderr)
        sys.exit(2)
    sys.exit(_run_child_main(sys.argv[1]))

