"""CPU target: schedules with an outer forall per core, L1 and register tiles,
vectorization, bufferization and vector lowering, all in the schedule.

Every benchmark kernel (matmul + bias + relu, the tutorial convolution, the
MLP, softmax, layernorm) is scheduled at a small size, applied, executed on 1
and on 2 threads and compared with the untransformed payload."""

from __future__ import annotations

import json
import subprocess
import sys
from math import prod
from pathlib import Path

import pytest

from schedgen.bench import payload_flops
from schedgen.cli import main
from schedgen.cpu import CpuInfo, peak_kernel
from schedgen.emit import render
from schedgen.execute import compare, random_inputs, run_function
from schedgen.payload import load_payload
from schedgen.planner import plan
from schedgen.target import CPU_PRESETS, Target
from schedgen.verify import verify

ROOT = Path(__file__).resolve().parent.parent
TARGET = CPU_PRESETS["cpu-avx512"]

# Small sizes of the benchmark kernels: (payload, text substitutions).
KERNELS: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "matmul_bias_relu": ("matmul_bias_relu.mlir", [("1024x1024", "96x96"), ("1024xf32", "96xf32")]),
    "conv_bias_relu": ("conv_bias_relu.mlir", [("5x82x102x128", "1x10x14x32"), ("3x3x128x128", "3x3x32x32"),
                                               ("5x80x100x128", "1x8x12x32"), ("128xf32", "32xf32")]),
    "mlp": ("mlp.mlir", []),
    "softmax": ("softmax.mlir", [("512x1024", "32x256"), ("512xf32", "32xf32")]),
    "layernorm": ("layernorm.mlir", [("128x768", "16x96"), ("128xf32", "16xf32"), ("768xf32", "96xf32")]),
}


def small_payload(kernel: str, directory: Path) -> Path:
    name, subs = KERNELS[kernel]
    text = (ROOT / "payloads" / name).read_text()
    for old, new in subs:
        assert old in text, (kernel, old)
        text = text.replace(old, new)
    path = directory / f"{kernel}_small.mlir"
    path.write_text(text)
    return path


def cpu_schedule(payload: Path, target: Target = TARGET) -> Path:
    out = payload.with_suffix(".cpu.mlir")
    out.write_text(render(plan(load_payload(payload), target)))
    return out


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_cpu_schedule_verifies_on_one_and_two_threads(kernel: str, tmp_path: Path) -> None:
    payload = small_payload(kernel, tmp_path)
    schedule = cpu_schedule(payload)
    text = schedule.read_text()
    # The whole pipeline is in the schedule, readable and editable.
    for step in ("tile_using_forall", "vectorize_children_and_apply_patterns", "one_shot_bufferize",
                 "lower_contraction lowering_strategy = outerproduct", "forall_to_parallel"):
        assert step in text, step

    report = verify(payload, schedule)
    assert report.numbers_ok and report.computed_once, report
    # Footprints are measured on the tiling stage against the per-core L2.
    assert report.nests and all(n.ok and n.loop == "scf.forall" for n in report.nests), report.nests

    from schedgen.apply import apply_schedule

    transformed = apply_schedule(payload, schedule)
    assert "linalg." not in transformed  # every op was vectorized
    assert "scf.parallel" in transformed
    if kernel in ("matmul_bias_relu", "conv_bias_relu", "mlp"):
        assert "vector.fma" in transformed  # contractions lowered to outer-product FMAs
    model = load_payload(payload)
    inputs = random_inputs(list(model.arg_types), 0)
    expected = run_function(payload.read_text(), model.func_name, inputs)
    got = run_function(transformed, model.func_name, inputs, threads=2)
    assert all(c.ok for c in compare(expected, got, [str(e.dtype) for e in expected]))


def test_cpu_tiles_fit_registers_and_divide_the_tiles() -> None:
    model = load_payload(ROOT / "payloads/conv_bias_relu.mlir")
    p = plan(model, TARGET)
    (nest,) = p.nests
    root = model.ops[nest.root.index]
    tiles = [n // s if s else 1 for n, s in zip(root.domain, nest.tile_sizes)]
    assert prod(tiles) >= TARGET.cores  # at least one forall tile per core
    assert nest.footprint_bytes <= TARGET.cpu.l2_bytes
    by_op = {t.op: t for t in p.inner}
    conv = by_op[1]
    assert conv.kind == "contraction"
    assert 0 < conv.accumulators <= TARGET.cpu.vector_registers
    for t in p.inner:
        for size, extent in zip(t.register_sizes, t.extents):
            assert size == 0 or extent % size == 0, t
    # register tile: vectors along f (the contiguous output dim), rows along ow, c unrolled by 4
    assert conv.register_sizes[3] % TARGET.cpu.lanes() == 0 and conv.register_sizes[4:] == [1, 1, 4]


def test_one_core_target_leaves_small_ops_whole_and_still_vectorizes(tmp_path: Path) -> None:
    one = Target(name="cpu-1", memory_bytes=TARGET.memory_bytes,
                 cpu=TARGET.cpu.model_copy(update={"cores": 1}))
    payload = small_payload("softmax", tmp_path)
    p = plan(load_payload(payload), one)
    assert not p.nests and p.inner  # fits L2 as it is: no forall, register tiles at the top level
    schedule = cpu_schedule(payload, one)
    assert verify(payload, schedule).numbers_ok


def test_flops_are_counted_from_the_linalg_bodies() -> None:
    model = load_payload(ROOT / "payloads/matmul_bias_relu.mlir")
    # matmul: mul + add per point; epilogue: add + max per element; fill: none
    assert payload_flops(model) == 2 * 1024 ** 3 + 2 * 1024 ** 2


def test_peak_kernel_parses_and_runs(tmp_path: Path) -> None:
    from schedgen.cpu import measure_peak

    assert "vector.fma" in peak_kernel(16, 12)
    small = CpuInfo(cores=1, vector_bits=256, vector_registers=16, l1_bytes=32768, l2_bytes=1 << 20,
                    l3_bytes=1 << 22)
    assert measure_peak(small, seconds=0.05) > 0.1


def test_bench_and_peak_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert main(["peak"]) == 0
    assert "GFLOP/s" in capsys.readouterr().out
    assert json.loads((tmp_path / "cache/schedgen/peak.json").read_text())
    payload = small_payload("matmul_bias_relu", tmp_path)
    assert main(["bench", str(payload), "--target", "cpu-avx512", "--threads", "2", "--repeats", "2",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["threads"] == 2 and len(result["times_s"]) == 2 and result["gflops"] > 0
    assert result["flops"] == 2 * 96 ** 3 + 2 * 96 ** 2 and result["percent_of_peak"] is not None
    assert main(["bench", str(payload), "--target", "npu-256k"]) == 2
    assert "CPU target" in capsys.readouterr().err


def test_cpu_schedule_applies_with_xtc_opt(tmp_path: Path) -> None:
    from schedgen.mlir_env import tool_path

    payload = small_payload("matmul_bias_relu", tmp_path)
    schedule = cpu_schedule(payload)
    out = subprocess.run([str(tool_path("xtc-opt")), str(payload),
                          f"--transform-preload-library=transform-library-paths={schedule}",
                          "--transform-interpreter"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "scf.parallel" in out.stdout and "vector.fma" in out.stdout and "linalg." not in out.stdout


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
