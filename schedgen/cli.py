"""`schedgen` command line: generate, explain, mark, apply, check, verify, bench, peak.

Bad input ends with one line on stderr naming file:line and op, exit code 2,
and no output file; a failed verification exits 1.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from pathlib import Path
from typing import IO, TYPE_CHECKING

from schedgen.errors import SchedgenError
from schedgen.model.plan import FuseMode, Plan, format_table

if TYPE_CHECKING:
    from schedgen.ir.load import LoadedPayload
from schedgen.model.target import ALL_PRESETS


def _add_planning(p: argparse.ArgumentParser) -> None:
    p.add_argument("payload", type=Path, help="MLIR file with linalg on tensors")
    p.add_argument("--target", default="npu-256k",
                   help=f"preset ({', '.join(ALL_PRESETS)}) or a .json/.toml file with name and memory_bytes"
                        " (and a `cpu` table for a CPU target)")
    p.add_argument("--memory", type=int, metavar="BYTES", help="override the target's local memory budget")
    p.add_argument("--fuse-mode", default=FuseMode.MAX_PRODUCERS.value, choices=[m.value for m in FuseMode])
    p.add_argument("--func", help="function to schedule (default: the only public one)")
    p.add_argument("--strict-groups", action="store_true",
                   help="refuse a fuse group that cannot share one loop nest (default: split it, with a note)")
    _add_footprint(p)


def _add_footprint(p: argparse.ArgumentParser) -> None:
    p.add_argument("--footprint", default="analytic", choices=["analytic", "precise"],
                   help="analytic estimate, or precise: simulate each loop body's buffers (slower, larger tiles)")


def _add_budget_override(p: argparse.ArgumentParser) -> None:
    """check / verify: what to measure a schedule against."""
    p.add_argument("--func", help="function (default: the only public one)")
    p.add_argument("--target", help="budget from this target instead of the schedule's own")
    p.add_argument("--memory", type=int, metavar="BYTES", help="budget in bytes instead of the schedule's own")
    p.add_argument("--footprint", choices=["analytic", "precise"],
                   help="how to measure loop bodies (default: the mode the schedule was made with)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="schedgen", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="verb", required=True)
    g = sub.add_parser("generate", help="plan and write a transform schedule")
    _add_planning(g)
    g.add_argument("-o", "--output", type=Path, help="schedule file (default: stdout)")
    g.add_argument("--force", action="store_true",
                   help="overwrite OUTPUT even if it was edited since schedgen wrote it (or is not a schedule)")
    e = sub.add_parser("explain", help="print the plan: nests, tile sizes, fused ops, footprints")
    _add_planning(e)
    e.add_argument("--json", action="store_true", help="the plan as JSON")
    e.add_argument("--graph", type=Path, metavar="OUT.dot|OUT.svg",
                   help="also write the op DAG with its nests and fuse groups (Graphviz DOT, or SVG through `dot`)")
    mk = sub.add_parser("mark", help="write a copy of the payload with its fuse groups marked")
    mk.add_argument("payload", type=Path)
    mk.add_argument("-o", "--output", type=Path, help="annotated payload (default: stdout)")
    mk.add_argument("--func", help="function (default: the only public one)")
    a = sub.add_parser("apply", help="apply a schedule with the transform interpreter")
    a.add_argument("payload", type=Path)
    a.add_argument("schedule", type=Path)
    a.add_argument("-o", "--output", type=Path, help="transformed payload (default: stdout)")
    v = sub.add_parser("verify", help="apply, execute original and transformed, compare; measure footprints")
    v.add_argument("payload", type=Path)
    v.add_argument("schedule", type=Path)
    _add_budget_override(v)
    v.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    v.add_argument("--inputs", type=Path, metavar="FILE.npz",
                   help="inputs in argument order (in_0, in_1, ... or arr_0, ...) instead of random ones; "
                        "outputs saved there as out_0, ... are compared too")
    v.add_argument("--json", action="store_true", help="the report as JSON")
    c = sub.add_parser("check", help="apply to a copy, no execution: per nest the tiles in the IR, fused ops, "
                                     "footprint vs budget, ops computed twice; exit 1 on a violation")
    c.add_argument("payload", type=Path)
    c.add_argument("schedule", type=Path)
    _add_budget_override(c)
    c.add_argument("--json", action="store_true", help="the report as JSON")
    b = sub.add_parser("bench", help="compile and time a payload on this CPU: median, GFLOP/s, %% of peak")
    b.add_argument("payload", type=Path)
    how = b.add_mutually_exclusive_group()
    how.add_argument("--schedule", type=Path, help="schedule to apply first (default: generate one for --target)")
    how.add_argument("--untransformed", action="store_true", help="time the payload as it is")
    b.add_argument("--target", default="cpu-host", help="CPU target of the generated schedule (default cpu-host)")
    b.add_argument("--threads", type=int, default=1, help="worker threads for the outer parallel loops")
    b.add_argument("--repeats", type=int, default=5, help="timed runs after one warm-up run (at least)")
    b.add_argument("--min-time", type=float, default=0.2,
                   help="more timed runs until they add up to this many seconds (default 0.2; 0: exactly --repeats)")
    b.add_argument("--func", help="function (default: the only public one)")
    b.add_argument("--inputs", type=Path, metavar="FILE.npz", help="inputs in argument order instead of random ones")
    b.add_argument("--json", action="store_true", help="the result as JSON")
    pk = sub.add_parser("peak", help="measure one core's f32 FMA peak (cached; bench reports %% of it)")
    pk.add_argument("--force", action="store_true", help="measure again even if a figure is cached")
    return parser


def _refuse_inputs(path: Path, inputs: list[Path]) -> None:
    for src in inputs:
        if src.exists() and path.exists() and os.path.samefile(src, path):
            raise SchedgenError(str(path), "refusing to overwrite an input file")


def _mode_for(path: Path) -> int:
    """The mode a plain `open(path, "w")` would leave: the file's own if it
    exists, else 0666 less the umask."""
    if path.exists():
        return path.stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_output(path: Path | None, content: str | Path, inputs: list[Path]) -> None:
    """stdout, or an atomic write (temp file + rename) that never replaces an
    input. A path that is not a regular file (/dev/stdout, a FIFO) is written
    in place: renaming over it would replace the device node. `content` is
    the text, or a file that holds it (copied in chunks: a payload's weights
    are never read into memory whole)."""
    if path is not None:
        _refuse_inputs(path, inputs)
        if path.is_dir():
            raise SchedgenError(str(path), "cannot write output: it is a directory")
    if path is None or (path.exists() and not path.is_file()):
        try:
            with open(path, "w") if path is not None else contextlib.nullcontext(sys.stdout) as fh:
                _write(fh, content)
        except OSError as exc:
            raise SchedgenError(str(path or "stdout"), f"cannot write output: {exc.strerror}") from None
        return
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise SchedgenError(str(path), "cannot write output: no such directory")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise SchedgenError(str(path), f"cannot write output: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w") as fh:
            _write(fh, content)
        os.chmod(tmp, _mode_for(path))  # mkstemp makes the file private
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise SchedgenError(str(path), f"cannot write output: {exc.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write(fh: IO[str], content: str | Path) -> None:
    """`content`, ending in a newline."""
    last = ""
    if isinstance(content, Path):
        with content.open() as src:
            while chunk := src.read(1 << 20):
                fh.write(chunk)
                last = chunk[-1]
    else:
        fh.write(content)
        last = content[-1:]
    if last != "\n":
        fh.write("\n")


def _apply(payload: Path, schedule: Path, output: Path | None) -> None:
    """In a child process (an MLIR abort is a one-line error), which writes
    the result to a file: the text never passes through this process."""
    from schedgen.ir.isolated import apply_isolated_to

    with tempfile.TemporaryDirectory(prefix="schedgen-applied-") as tmp:
        applied = Path(tmp) / "applied.mlir"
        apply_isolated_to(payload, schedule, applied)
        write_output(output, applied, [payload, schedule])


def _plan(args: argparse.Namespace) -> tuple[Plan, LoadedPayload]:
    # Imported here so `schedgen --help` does not load MLIR.
    from schedgen.emit.schedule import tiling_script
    from schedgen.ir.load import load
    from schedgen.model.target import load_target
    from schedgen.planning.planner import plan

    target = load_target(args.target, args.memory)
    loaded = load(args.payload, args.func, weights=False, cpu=target.cpu is not None)  # planning never reads them
    return plan(loaded.model, target, FuseMode(args.fuse_mode), args.footprint, args.strict_groups,
                tiling=tiling_script, source=loaded), loaded


def _run(args: argparse.Namespace) -> int:
    if args.verb == "generate":
        from schedgen.emit.schedule import is_untouched, render
        from schedgen.ir.opt_tool import applies_or_raise

        if args.output is not None and args.output.is_file() and not args.force:
            _refuse_inputs(args.output, [args.payload])
            if not is_untouched(args.output.read_text(errors="replace")):  # a person's edits, or no schedule
                raise SchedgenError(str(args.output), "exists and is not what schedgen wrote there (edited since?); "
                                    "pass --force to overwrite it")
        plan, loaded = _plan(args)
        text = render(plan)
        applies_or_raise(args.payload, text, plan, loaded.text)  # never a schedule that does not apply
        write_output(args.output, text, [args.payload])
        return 0
    if args.verb == "explain":
        if args.graph is not None:
            from schedgen.emit.graph import graph_format, graph_text

            graph_format(args.graph)  # before planning: a bad suffix or no `dot` fails fast
        plan, loaded = _plan(args)
        if args.graph is not None:
            write_output(args.graph, graph_text(plan, args.graph, loaded.model), [args.payload])
        print(plan.model_dump_json(indent=2) if args.json else format_table(plan))
        return 0
    if args.verb == "mark":
        from schedgen.emit.mark import mark

        write_output(args.output, mark(str(args.payload), args.func), [args.payload])
        return 0
    if args.verb == "apply":
        _apply(args.payload, args.schedule, args.output)
        return 0
    if args.verb == "check":
        from schedgen.check.check import check, format_check

        report = check(args.payload, args.schedule, args.func, _budget(args), args.footprint)
        print(report.model_dump_json(indent=2) if args.json else format_check(report))
        return 0 if report.ok else 1
    if args.verb == "verify":
        from schedgen.check.verify import format_report, verify

        vreport = verify(args.payload, args.schedule, args.func, _budget(args), args.seed, footprint=args.footprint,
                         inputs_path=args.inputs)
        print(vreport.model_dump_json(indent=2) if args.json else format_report(vreport))
        return 0 if vreport.ok else 1
    if args.verb == "peak":
        from schedgen.model.cpu import detect_host

        cpu = detect_host()
        gflops, path = _peak(cpu, force=args.force)
        print(f"{cpu.model}: {cpu.vector_bits}-bit vectors, {cpu.cores} core(s); one core peaks at "
              f"{gflops:.1f} GFLOP/s f32 (FMA loop through MLIR; cached in {path})")
        return 0
    if args.verb == "bench":
        return _bench(args)
    raise AssertionError(args.verb)


def _budget(args: argparse.Namespace) -> int | None:
    """--memory, or --target's budget (with --memory applied); None: the schedule's own."""
    if args.target is None:
        return args.memory
    from schedgen.model.target import load_target

    return load_target(args.target, args.memory).memory_bytes


def _peak(cpu, force: bool = False) -> tuple[float, Path]:
    from schedgen.model.cpu import peak_cache_path, read_peak, write_peak
    from schedgen.run.peak import measure_peak

    cached = None if force else read_peak(cpu)
    if cached is not None:
        return cached, peak_cache_path()
    gflops = measure_peak(cpu)
    return gflops, write_peak(cpu, gflops)


def _bench(args: argparse.Namespace) -> int:
    from schedgen.model.cpu import detect_host
    from schedgen.run.bench import bench, format_bench

    if args.threads < 1:
        raise SchedgenError("--threads", f"must be at least 1, got {args.threads}")
    if args.repeats < 1:
        raise SchedgenError("--repeats", f"must be at least 1, got {args.repeats}")
    if args.min_time < 0:
        raise SchedgenError("--min-time", f"must not be negative, got {args.min_time}")
    peak, _ = _peak(detect_host())
    schedule, model = args.schedule, None
    with tempfile.TemporaryDirectory(prefix="schedgen-bench-") as tmp:
        if schedule is None and not args.untransformed:
            from schedgen.emit.schedule import render
            from schedgen.ir.load import load_payload
            from schedgen.model.target import load_target
            from schedgen.planning.planner import plan

            target = load_target(args.target)
            if target.cpu is None:
                raise SchedgenError(args.target, "bench generates a CPU schedule: pass a CPU target "
                                    "(cpu-host, cpu-avx512 or a file with a `cpu` table) or --schedule")
            schedule = Path(tmp) / "schedule.mlir"
            model = load_payload(args.payload, args.func, cpu=True)  # as `generate` loads it for a CPU target
            schedule.write_text(render(plan(model, target)))
        result = bench(args.payload, schedule, args.threads, args.repeats, peak_per_core=peak, func=args.func,
                       min_seconds=args.min_time, inputs_path=args.inputs, model=model)
        if args.schedule is None and not args.untransformed:
            result.schedule = f"generated for {args.target}"
    print(result.model_dump_json(indent=2) if args.json else format_bench(result))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except SchedgenError as exc:
        print(f"schedgen: error: {exc.line()}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `schedgen explain ... | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as exc:  # noqa: BLE001  never a traceback for the user
        from schedgen.errors import ExecutionError

        if isinstance(exc, ExecutionError):
            print(f"schedgen: error: {args.payload}: execution failed: {exc}", file=sys.stderr)
            return 2
        if os.environ.get("SCHEDGEN_TRACEBACK"):
            raise
        print(f"schedgen: internal error: {type(exc).__name__}: {exc} (set SCHEDGEN_TRACEBACK=1 for details)",
              file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
