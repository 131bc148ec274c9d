"""schedgen.run.widen and verify's f32 judge of half-precision results: the
widened payload really runs in f32, and a reordered bf16 sum passes where a
wrong one does not."""

from __future__ import annotations

import ml_dtypes
import numpy as np
from mlir import ir

from schedgen.ir.context import new_context
from schedgen.run.compare import compare, no_further
from schedgen.run.execute import run_function
from schedgen.run.widen import widened

ROW_SUM = """
func.func @rows(%x: tensor<8x512xbf16>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<8xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%e : tensor<8xbf16>) -> tensor<8xbf16>
  %s = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x512xbf16>) outs(%init : tensor<8xbf16>) {
  ^bb0(%a: bf16, %acc: bf16):
    %r = arith.addf %a, %acc : bf16
    linalg.yield %r : bf16
  } -> tensor<8xbf16>
  %e32 = tensor.empty() : tensor<8xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]} ins(%s : tensor<8xbf16>) outs(%e32 : tensor<8xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %r = arith.extf %a : bf16 to f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %w : tensor<8xf32>
}
"""


def _types(text: str) -> set[str]:
    ctx = new_context()
    with ctx:
        module = ir.Module.parse(text)
        seen: set[str] = set()

        def walk(op: ir.Operation) -> None:
            seen.update(str(r.type) for r in op.results)
            for region in op.regions:
                for block in region.blocks:
                    seen.update(str(a.type) for a in block.arguments)
                    for inner in block.operations:
                        walk(inner.operation)
        walk(module.operation)
    return seen


def test_widened_payload_computes_in_f32():
    text = widened(ROW_SUM, "rows")
    assert text is not None
    assert not any("bf16" in t for t in _types(text)), "a half-precision value is left"
    x = np.random.default_rng(0).uniform(0, 1, (8, 512)).astype(ml_dtypes.bfloat16)
    (wide,) = run_function(text, "rows", [x.astype(np.float32)], opt_level=0)
    (half,) = run_function(ROW_SUM, "rows", [x], opt_level=0)
    exact = x.astype(np.float64).sum(axis=1)
    assert np.allclose(wide, exact, rtol=1e-5)
    # past 256 a bf16 accumulator moves in steps of 2: far off, where f32 is not
    assert np.abs(half - exact).max() > 100 * np.abs(wide - exact).max()


def test_half_precision_weights_are_not_widened():
    dense = ROW_SUM.replace("%zero = arith.constant 0.0 : bf16",
                            "%zero = arith.constant 0.0 : bf16\n  %w8 = arith.constant dense<[1.0, 2.0]> : tensor<2xbf16>")
    assert widened(dense, "rows") is None
    assert widened(ROW_SUM, "nope") is None


def test_reordered_half_sum_passes_and_a_dropped_tile_does_not():
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (64, 256)).astype(ml_dtypes.bfloat16)
    wide = x.astype(np.float32).sum(axis=1)

    def bf16_sum(rows: np.ndarray, lanes: int) -> np.ndarray:
        acc = np.zeros((rows.shape[0], lanes), dtype=ml_dtypes.bfloat16)
        for k in range(0, rows.shape[1], lanes):
            acc = (acc + rows[:, k:k + lanes]).astype(ml_dtypes.bfloat16)
        out = np.zeros(rows.shape[0], dtype=ml_dtypes.bfloat16)
        for lane in range(lanes):
            out = (out + acc[:, lane]).astype(ml_dtypes.bfloat16)
        return out

    sequential, vectorized = bf16_sum(x, 1), bf16_sum(x, 16)
    assert not compare([sequential], [vectorized], ["bf16"])[0].ok, "the fixed tolerance alone refuses the reorder"
    assert no_further(sequential, vectorized, wide, "bfloat16")[0]
    dropped = bf16_sum(x[:, :224], 16)  # one 32-wide tile of every row missing
    assert not no_further(sequential, dropped, wide, "bfloat16")[0]


def test_a_result_further_than_the_original_passes_only_if_it_agrees_in_f32(tmp_path):
    """verify's second look at a half-precision result further from the f32
    evaluation than the original's: the transformed payload is evaluated in
    f32 too. One that sums something else (an init of 64, not 0) stays a
    mismatch; tests/fuzz_found/cpu_bf16_sum_rounds_worse.mlir is one whose
    order only rounds worse and passes."""
    from schedgen.check.verify import ResultCheck, judge_in_f32

    text = ROW_SUM.replace("-> tensor<8xf32> {", "-> tensor<8xbf16> {").replace(
        "  return %w : tensor<8xf32>", "  return %s : tensor<8xbf16>")
    wrong = tmp_path / "wrong.mlir"
    wrong.write_text(text.replace("%zero = arith.constant 0.0 : bf16", "%zero = arith.constant 64.0 : bf16"))
    x = np.random.default_rng(2).uniform(-1, 1, (8, 512)).astype(ml_dtypes.bfloat16)
    (expected,) = run_function(text, "rows", [x], opt_level=0)
    (got,) = run_function(wrong.read_text(), "rows", [x], opt_level=0)
    results = [ResultCheck(index=0, shape=[8], dtype="bfloat16", max_abs_err=64.0, max_rel_err=1.0, ok=False)]
    judge_in_f32(results, (text, wrong), "rows", [x], [expected], [got], 0)
    assert results[0].f32_err is not None and not results[0].ok
    assert results[0].schedule_f32_ok is False
