"""Only what is read of a result is computed (the slice_producers normalize
step, schedgen/ir/slices.py): a classifier that reads one token of a norm
over all tokens gets the norm, and what it reads, for that token alone.
timm's one-block ViT: 3.89 -> 1.47 ms on one core, 2.97 -> 1.36 on two."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import AVX2, assert_runs_as_untransformed
from ir_helpers import alloc_shapes

from schedgen.check.verify import verify
from schedgen.emit.schedule import render
from schedgen.ir.apply import apply_schedule
from schedgen.ir.load import load_payload
from schedgen.model.plan import format_table
from schedgen.model.target import CPU_PRESETS, PRESETS, Target
from schedgen.planning.planner import plan

TOKENS = 8

# A projection of every token (a matmul over the rows), each token centred by
# its row sum (kept as a unit dim, as torch's mean is), then a head reading
# token 0 (torch's x[:, 0]: a slice, then a reshape).
CLS = """
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @cls(%x: tensor<1x8x16xf32>, %w: tensor<16x16xf32>, %h: tensor<16x4xf32>) -> RESULTS {
  %z = arith.constant 0.0 : f32
  %xc = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x8x16xf32> into tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%xc, %w : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %ye = tensor.expand_shape %y [[0, 1], [2]] output_shape [1, 8, 16] : tensor<8x16xf32> into tensor<1x8x16xf32>
  %e1 = tensor.empty() : tensor<1x8x1xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %s = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ye : tensor<1x8x16xf32>) outs(%f1 : tensor<1x8x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x8x1xf32>
  %e3 = tensor.empty() : tensor<1x8x16xf32>
  %c = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ye, %s : tensor<1x8x16xf32>, tensor<1x8x1xf32>) outs(%e3 : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x8x16xf32>
  %t = tensor.extract_slice %c[0, 0, 0] [1, 1, SIZE] [1, 1, STRIDE] : tensor<1x8x16xf32> to tensor<1x1xSIZExf32>
  %tc = tensor.collapse_shape %t [[0, 1], [2]] : tensor<1x1xSIZExf32> into tensor<1xSIZExf32>
  %e4 = tensor.empty() : tensor<1x4xf32>
  %f4 = linalg.fill ins(%z : f32) outs(%e4 : tensor<1x4xf32>) -> tensor<1x4xf32>
  %hs = tensor.extract_slice %h[0, 0] [SIZE, 4] [1, 1] : tensor<16x4xf32> to tensor<SIZEx4xf32>
  %o = linalg.matmul ins(%tc, %hs : tensor<1xSIZExf32>, tensor<SIZEx4xf32>) outs(%f4 : tensor<1x4xf32>) -> tensor<1x4xf32>
  return RETURN
}
"""


def cls(tmp_path: Path, case: str = "token") -> Path:
    text = CLS.replace("SIZE", "8" if case == "strided" else "16").replace("STRIDE", "2" if case == "strided" else "1")
    if case == "read-whole":  # the centred tokens are a result too
        text = text.replace("RESULTS", "(tensor<1x4xf32>, tensor<1x8x16xf32>)").replace("RETURN", "%o, %c : "
                            "tensor<1x4xf32>, tensor<1x8x16xf32>")
    elif case == "two-slices":  # token 1 is read too: the centring stays whole
        text = text.replace("  %o = linalg.matmul", "  %t1 = tensor.extract_slice %c[0, 1, 0] [1, 1, 16] [1, 1, 1] "
                            ": tensor<1x8x16xf32> to tensor<1x1x16xf32>\n  %o = linalg.matmul")
        text = text.replace("RESULTS", "(tensor<1x4xf32>, tensor<1x1x16xf32>)").replace(
            "RETURN", "%o, %t1 : tensor<1x4xf32>, tensor<1x1x16xf32>")
    text = text.replace("RESULTS", "tensor<1x4xf32>").replace("RETURN", "%o : tensor<1x4xf32>")
    path = tmp_path / f"cls_{case}.mlir"
    path.write_text(text)
    return path


@pytest.mark.parametrize("target", [CPU_PRESETS["cpu-avx512"], AVX2, PRESETS["npu-256k"]], ids=lambda t: t.name)
def test_a_head_reading_one_token_gets_that_token_alone(target: Target, tmp_path: Path) -> None:
    path = cls(tmp_path)
    payload = load_payload(path, cpu=target.cpu is not None)
    assert "slice_producers" in payload.normalize and payload.slice_rounds >= 4, payload.slice_rounds
    # the centring, the row sums and the projection: one token each; no op spans the 8 tokens
    assert not [o for o in payload.ops if TOKENS in o.domain], [(o.name, o.domain) for o in payload.ops]
    # the head, and the projection of token 0 alone
    assert sorted(o.domain for o in payload.ops if o.name == "linalg.matmul") == [(1, 4, 16), (1, 16, 16)]
    p = plan(payload, target)
    assert f"({payload.slice_rounds} rounds: only the slices read are computed)" in format_table(p)
    schedule = tmp_path / "cls.schedule.mlir"
    schedule.write_text(render(p))
    text = schedule.read_text()
    assert text.count("transform.include @schedgen_slice_round") == payload.slice_rounds
    transformed = apply_schedule(path, schedule)
    # the transformed payload has no buffer of the 8 tokens: only the argument holds them
    assert not [s for s in alloc_shapes(transformed) if TOKENS in s], alloc_shapes(transformed)
    report = verify(path, schedule)  # `check` reruns the steps on the payload as normalized: they change nothing
    assert report.numbers_ok and report.computed_once and report.budget_ok
    assert_runs_as_untransformed(path, transformed)


@pytest.mark.parametrize("case", ["read-whole", "two-slices", "strided"])
def test_a_result_read_whole_or_through_other_slices_stays_whole(case: str, tmp_path: Path) -> None:
    """The centred tokens returned as well, or token 1 read too: the centring
    (and all before it) is computed whole. A strided slice (every other
    feature) is not one the step may move a producer into."""
    path = cls(tmp_path, case)
    payload = load_payload(path, cpu=True)
    assert payload.slice_rounds == 0 and "slice_producers" not in payload.normalize
    assert [o for o in payload.ops if TOKENS in o.domain]
    schedule = tmp_path / "cls.schedule.mlir"
    schedule.write_text(render(plan(payload, AVX2)))
    assert "schedgen_slice_round" not in schedule.read_text()
    report = verify(path, schedule)
    assert report.numbers_ok and report.computed_once
