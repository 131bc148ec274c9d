"""The peak GFLOP/s of one core (`schedgen peak`): an FMA kernel with
independent accumulators, compiled and timed on this CPU; schedgen.model.cpu
caches the figure."""

from __future__ import annotations

from schedgen.model.cpu import CpuInfo


def peak_kernel(lanes: int, accumulators: int) -> str:
    """An FMA loop: `accumulators` independent vector FMA chains (enough to
    cover the FMA latency times the FMA ports), `n` trips; the sum is stored
    so nothing is dead."""
    vt = f"vector<{lanes}xf32>"
    acc = [f"%a{i}" for i in range(accumulators)]
    body = "\n".join(f"    %n{i} = vector.fma %x, %y, %a{i} : {vt}" for i in range(accumulators))
    sums = [f"  %s1 = arith.addf %r#0, %r#1 : {vt}"]
    sums += [f"  %s{i} = arith.addf %s{i - 1}, %r#{i} : {vt}" for i in range(2, accumulators)]
    types = ", ".join([vt] * accumulators)
    return f"""func.func @peak(%out: memref<{lanes}xf32>, %n: index) attributes {{llvm.emit_c_interface}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : {vt}
  %x = vector.load %out[%c0] : memref<{lanes}xf32>, {vt}
  %y = arith.addf %x, %x : {vt}
  %r:{accumulators} = scf.for %i = %c0 to %n step %c1 iter_args({", ".join(f"{a} = %z" for a in acc)}) -> ({types}) {{
{body}
    scf.yield {", ".join(f"%n{i}" for i in range(accumulators))} : {types}
  }}
{chr(10).join(sums)}
  vector.store %s{accumulators - 1}, %out[%c0] : memref<{lanes}xf32>, {vt}
  return
}}
"""


def measure_peak(info: CpuInfo, seconds: float = 0.5) -> float:
    """One core's f32 GFLOP/s on the FMA loop (best of a few runs), compiled
    through MLIR by the same ExecutionEngine that runs payloads."""
    import ctypes
    import time

    import numpy as np
    from mlir import ir, passmanager, runtime
    from mlir.execution_engine import ExecutionEngine

    lanes = info.lanes()
    # FMA latency 4 x 2 ports needs at least 8 independent chains; 12 of 32
    # registers (8 of 16) covers that with margin (measured: 8 chains gave
    # 80% of what 12-24 gave on AVX-512).
    accumulators = max(8, info.vector_registers * 3 // 8)
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse(peak_kernel(lanes, accumulators))
        passmanager.PassManager.parse("builtin.module(convert-scf-to-cf,convert-vector-to-llvm,"
                                      "convert-to-llvm,reconcile-unrealized-casts)").run(module.operation)
        engine = ExecutionEngine(module, opt_level=3)
        try:
            out = np.ones(lanes, np.float32)
            arg = ctypes.pointer(ctypes.pointer(runtime.get_ranked_memref_descriptor(out)))
            trips = 100_000
            while True:  # calibrate to about `seconds / 5` per run
                n = ctypes.c_int64(trips)
                start = time.perf_counter()
                engine.invoke("peak", arg, ctypes.pointer(n))
                took = time.perf_counter() - start
                if took > seconds / 5 or trips > 1 << 34:
                    break
                trips *= 4
            best = took
            for _ in range(4):
                start = time.perf_counter()
                engine.invoke("peak", arg, ctypes.pointer(n))
                best = min(best, time.perf_counter() - start)
        finally:
            del engine
    return 2 * lanes * accumulators * trips / best / 1e9

