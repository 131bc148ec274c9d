"""Bad input: exit 2, one line on stderr naming file:line and op, no
traceback, and no output file left behind."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

MATMUL = ROOT / "payloads/matmul_bias_relu.mlir"
SOFTMAX = ROOT / "payloads/softmax.mlir"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "schedgen.cli", *args], capture_output=True, text=True, cwd=cwd)


def assert_error(proc: subprocess.CompletedProcess, *fragments: str) -> str:
    assert proc.returncode == 2, proc
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("schedgen: error: ")
    for f in fragments:
        assert f in lines[0], lines[0]
    assert proc.stdout == ""
    return lines[0]


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


@pytest.fixture
def out(tmp_path: Path) -> Path:
    return tmp_path / "out" / ".." / "schedule.mlir"


def test_missing_file(tmp_path: Path):
    o = tmp_path / "s.mlir"
    assert_error(run("generate", str(tmp_path / "nope.mlir"), "-o", str(o)), "nope.mlir", "no such payload file")
    assert not o.exists()


def test_empty_file(tmp_path: Path):
    o = tmp_path / "s.mlir"
    assert_error(run("generate", str(write(tmp_path, "e.mlir", "\n  \n")), "-o", str(o)), "e.mlir", "is empty")
    assert not o.exists()


def test_unparseable_ir_names_file_and_line(tmp_path: Path):
    bad = write(tmp_path, "bad.mlir", "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                "  %b = linalg.frobnicate %a : tensor<4xf32>\n  return %b : tensor<4xf32>\n}\n")
    o = tmp_path / "s.mlir"
    assert_error(run("generate", str(bad), "-o", str(o)), "bad.mlir:2:", "cannot parse payload")
    assert not o.exists()


def test_unknown_function(tmp_path: Path):
    o = tmp_path / "s.mlir"
    assert_error(run("generate", str(MATMUL), "--func", "nope", "-o", str(o)), "no function @nope",
                 "@matmul_bias_relu")
    assert not o.exists()


def test_dynamic_shapes_name_the_op(tmp_path: Path):
    dyn = write(tmp_path, "dyn.mlir", "func.func @f(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {\n"
                "  %c = arith.constant 0 : index\n  %n = tensor.dim %a, %c : tensor<?x8xf32>\n"
                "  %e = tensor.empty(%n) : tensor<?x8xf32>\n"
                "  %r = linalg.copy ins(%a : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>\n"
                "  return %r : tensor<?x8xf32>\n}\n")
    o = tmp_path / "s.mlir"
    assert_error(run("generate", str(dyn), "-o", str(o)), "dyn.mlir:5:", "'linalg.copy'", "dynamic shape")
    assert not o.exists()


def test_budget_too_small_names_op_and_minimal_footprint(tmp_path: Path):
    o = tmp_path / "s.mlir"
    line = assert_error(run("generate", str(MATMUL), "--memory", "8", "-o", str(o)),
                        "matmul_bias_relu.mlir:11:", "'linalg.generic'", "8 bytes is too small")
    # relu(x + bias) at one element: x, bias and the result, 4 bytes each,
    assert "needs 192 bytes" in line  # 3 buffers, each at a 64-byte aligned slot
    assert not o.exists()


def test_schedule_for_another_payload(tmp_path: Path):
    schedule = tmp_path / "mm.mlir"
    assert run("generate", str(MATMUL), "-o", str(schedule)).returncode == 0
    o = tmp_path / "applied.mlir"
    assert_error(run("apply", str(SOFTMAX), str(schedule), "-o", str(o)), "mm.mlir", "@matmul_bias_relu")
    assert not o.exists()
    assert_error(run("verify", str(SOFTMAX), str(schedule)), "mm.mlir")


def test_schedule_with_other_ops_fails_at_the_split(tmp_path: Path):
    """Same function name, different ops: the exact-count split_handle fails
    with the schedule's line instead of tiling the wrong op."""
    text = MATMUL.read_text()
    # M = 512 instead of 1024: A, the fill, the matmul and relu change type.
    text = text.replace("%a: tensor<1024x1024xf32>", "%a: tensor<512x1024xf32>")
    text = text.replace("-> tensor<1024x1024xf32> {", "-> tensor<512x1024xf32> {")
    text = text.replace("ins(%a, %b : tensor<1024x1024xf32>,", "ins(%a, %b : tensor<512x1024xf32>,")
    for a, b in [("tensor.empty() : tensor<1024x1024xf32>", "tensor.empty() : tensor<512x1024xf32>"),
                 ("outs(%empty : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>",
                  "outs(%empty : tensor<512x1024xf32>) -> tensor<512x1024xf32>"),
                 ("outs(%init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>",
                  "outs(%init : tensor<512x1024xf32>) -> tensor<512x1024xf32>"),
                 ("ins(%mm, %bias : tensor<1024x1024xf32>", "ins(%mm, %bias : tensor<512x1024xf32>"),
                 ("outs(%empty : tensor<1024x1024xf32>) {", "outs(%empty : tensor<512x1024xf32>) {"),
                 ("} -> tensor<1024x1024xf32>", "} -> tensor<512x1024xf32>"),
                 ("return %out : tensor<1024x1024xf32>", "return %out : tensor<512x1024xf32>")]:
        text = text.replace(a, b)
    other = write(tmp_path, "other.mlir", text)
    schedule = tmp_path / "mm.mlir"
    assert run("generate", str(MATMUL), "-o", str(schedule)).returncode == 0
    split_line = next(i for i, t in enumerate(schedule.read_text().splitlines(), 1) if "%match0 =" in t)
    o = tmp_path / "applied.mlir"
    proc = run("apply", str(other), str(schedule), "-o", str(o))
    if "cannot parse" in proc.stderr:  # the edit must keep the payload valid
        pytest.fail(proc.stderr)
    assert_error(proc, f"mm.mlir:{split_line + 2}:", "expected to contain 1 payloads but it contains 0")
    assert not o.exists()


def test_output_never_overwrites_an_input(tmp_path: Path):
    payload = tmp_path / "p.mlir"
    payload.write_text(MATMUL.read_text())
    before = payload.read_text()
    assert_error(run("generate", str(payload), "-o", str(payload)), "refusing to overwrite an input file")
    assert payload.read_text() == before


def test_unwritable_output_leaves_nothing(tmp_path: Path):
    assert_error(run("generate", str(MATMUL), "-o", str(tmp_path / "no" / "dir" / "s.mlir")), "no such directory")
    assert not (tmp_path / "no").exists()


def test_a_schedule_whose_result_does_not_execute_names_its_entry_line(tmp_path: Path):
    """A CPU schedule that applies but leaves IR the execution cannot lower
    (one_shot_bufferize without its options keeps the function's tensors):
    verify names the schedule's entry sequence, and the line of the
    transformed payload as such, not a temporary file."""
    payload = write(tmp_path, "mm.mlir", "\n".join([
        "func.func @mm(%a: tensor<32x64xf32>, %b: tensor<64x48xf32>) -> tensor<32x48xf32> {",
        "  %z = arith.constant 0.0 : f32",
        "  %e = tensor.empty() : tensor<32x48xf32>",
        "  %f = linalg.fill ins(%z : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>",
        "  %m = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x48xf32>) outs(%f : tensor<32x48xf32>)"
        " -> tensor<32x48xf32>",
        "  return %m : tensor<32x48xf32>", "}", ""]))
    schedule = tmp_path / "s.mlir"
    assert run("generate", str(payload), "--target", "cpu-avx512", "-o", str(schedule)).returncode == 0
    lines = schedule.read_text().splitlines()
    options = next(i for i, t in enumerate(lines) if "bufferize_function_boundaries = true" in t)
    assert "one_shot_bufferize" in lines[options - 1]
    del lines[options]
    schedule.write_text("\n".join(lines) + "\n")
    entry = next(i for i, t in enumerate(lines, 1) if "named_sequence @__transform_main" in t)
    error = assert_error(run("verify", str(payload), str(schedule)), f"s.mlir:{entry}:", "does not execute",
                         "of the transformed payload")
    assert "schedgen-verify-" not in error
