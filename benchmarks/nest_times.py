"""Where a schedule's time goes: the wall time of each top-level step of the
transformed function (a nest's loop, a copy, a reshape), per call.

    .venv/bin/python benchmarks/nest_times.py PAYLOAD [--schedule S] [--target T] [--threads N] [--calls 200]

The schedule (generated for --target, cpu-host by default, unless --schedule
names one) is applied; a clock read (`rtclock` of the MLIR C runner utils)
follows every top-level op of the function, and each call prints the
differences. A child process runs the lowered function --calls times on
random inputs (the prints are its stdout); this one prints the median of
each step, the ops it holds (the `schedgen.nest` mark of its root when it
has one) and its share of the sum. The clock reads cost some 20 ns each.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mlir import ir  # noqa: E402

from schedgen.emit.schedule import render  # noqa: E402
from schedgen.ir.apply import transform_payload  # noqa: E402
from schedgen.ir.load import load_payload  # noqa: E402
from schedgen.ir.queries import find_func  # noqa: E402
from schedgen.model.target import load_target  # noqa: E402
from schedgen.planning.planner import plan  # noqa: E402


def _costly(op: ir.Operation) -> bool:
    """Loops, and ops that copy or compute whole buffers (not constants, views, allocations)."""
    return len(op.regions) > 0 or op.name in ("memref.copy",) or op.name.startswith("linalg.")


def _label(op: ir.Operation, payload: str) -> str:
    """The op's name and the payload lines of the ops inside it (transformed
    ops keep their payload locations: `explain` names ops by these lines)."""
    lines: set[int] = set()

    def visit(o: ir.Operation) -> ir.WalkResult:
        loc = str(o.location)
        if f'"{payload}":' in loc:
            lines.add(int(loc.split(f'"{payload}":', 1)[1].split(":", 1)[0]))
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return f"{op.name}, payload lines {', '.join(map(str, sorted(lines)))}" if lines else op.name


def instrument(text: str, func_name: str, payload: str) -> tuple[str, list[str]]:
    """`text` with a clock read after each costly top-level op of the
    function and a print of the differences before it returns; the ops' labels."""
    from mlir.dialects import arith, func

    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        f64 = ir.F64Type.get()
        with ir.InsertionPoint.at_block_begin(module.body):
            func.FuncOp("rtclock", ([], [f64]), visibility="private")
            func.FuncOp("printF64", ([f64], []), visibility="private")
            func.FuncOp("printComma", ([], []), visibility="private")
            func.FuncOp("printNewline", ([], []), visibility="private")
        fn = find_func(module, func_name)
        block = fn.regions[0].blocks[0]
        body = list(block.operations)
        with ir.InsertionPoint.at_block_begin(block):
            clocks = [func.CallOp([f64], "rtclock", [])]
        labels = []
        for op, after in zip(body[:-1], body[1:]):
            if not _costly(op.operation):
                continue
            with ir.InsertionPoint(after.operation):
                clocks.append(func.CallOp([f64], "rtclock", []))
            labels.append(_label(op.operation, payload))
        with ir.InsertionPoint(body[-1].operation):
            for i in range(1, len(clocks)):
                func.CallOp([], "printF64", [arith.subf(clocks[i].result, clocks[i - 1].result)])
                func.CallOp([], "printComma", [])
            func.CallOp([], "printNewline", [])
        return str(module), labels


def _child(payload: Path, module: Path, func_name: str, calls: int, threads: int) -> None:
    from schedgen.run.arrays import random_inputs
    from schedgen.run.jit import lower_and_run

    model = load_payload(payload)  # the argument types
    inputs = random_inputs(list(model.arg_types), 0)
    lower_and_run(module, func_name, inputs, 3, lambda _: None, threads=threads, repeats=calls)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("payload", type=Path)
    ap.add_argument("--schedule", type=Path)
    ap.add_argument("--target", default="cpu-host")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(args.payload, Path(args.child[0]), args.child[1], args.calls, args.threads)
        return
    target = load_target(args.target)
    model = load_payload(args.payload, cpu=target.cpu is not None)
    with tempfile.TemporaryDirectory(prefix="nest-times-") as tmp:
        schedule = args.schedule
        if schedule is None:
            schedule = Path(tmp) / "schedule.mlir"
            schedule.write_text(render(plan(model, target)))
        applied = transform_payload(args.payload, schedule).operation.get_asm(enable_debug_info=True)
        text, labels = instrument(applied, model.func_name, str(args.payload))
        module = Path(tmp) / "instrumented.mlir"
        module.write_text(text)
        out = subprocess.run([sys.executable, __file__, str(args.payload), "--calls", str(args.calls),
                              "--threads", str(args.threads), "--child", str(module), model.func_name],
                             capture_output=True, text=True, check=True).stdout
    rows = [[float(x) for x in line.split(",") if x.strip()] for line in out.splitlines() if "," in line]
    rows = rows[len(rows) // 10:]  # the first calls warm the caches
    medians = [statistics.median(r[i] for r in rows) * 1e3 for i in range(len(labels))]
    total = sum(medians)
    print(f"{args.payload}: {len(rows)} calls, {args.threads} thread(s), sum of medians {total:.3f} ms")
    for label, ms in zip(labels, medians):  # in program order
        print(f"  {ms:8.4f} ms {100 * ms / total:5.1f}%  {label}")


if __name__ == "__main__":
    main()
