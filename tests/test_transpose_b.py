"""A classifier head (one row times a weight torch transposes for it alone)
reads the weight in place on CPU targets (the normalize step transpose_b,
issue 16): a dot product per output along the weight's rows, instead of the
weight written out transposed and read back (mobilenet_v2's head: 1.47 ms
for the transpose and 0.63 ms for the product, 0.33 ms in place)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import AVX2, assert_runs_as_untransformed
from ir_helpers import alloc_shapes, ops
from mlir import ir

from schedgen.check.verify import verify
from schedgen.emit.schedule import render
from schedgen.ir.apply import apply_schedule
from schedgen.ir.context import new_context
from schedgen.ir.load import load_payload
from schedgen.model.target import CPU_PRESETS, Target
from schedgen.planning.planner import plan

TARGETS = [CPU_PRESETS["cpu-avx512"], AVX2]

# y = x W^T + b with W as torch stores it ([classes, features]); ROWS rows.
HEAD = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @head(%x: tensor<ROWSx512xf32>, %w: tensor<1000x512xf32>, %b: tensor<1000xf32>) -> tensor<ROWSx1000xf32> {
  %z = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<512x1000xf32>
  %wt = linalg.transpose ins(%w : tensor<1000x512xf32>) outs(%et : tensor<512x1000xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<ROWSx1000xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<ROWSx1000xf32>) -> tensor<ROWSx1000xf32>
  %mm = linalg.matmul ins(%x, %wt : tensor<ROWSx512xf32>, tensor<512x1000xf32>) outs(%f : tensor<ROWSx1000xf32>)
      -> tensor<ROWSx1000xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<ROWSx1000xf32>, tensor<1000xf32>) outs(%e : tensor<ROWSx1000xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %s = arith.addf %v, %c : f32
    linalg.yield %s : f32
  } -> tensor<ROWSx1000xf32>
  return %y : tensor<ROWSx1000xf32>
}
"""


def head(tmp_path: Path, rows: int = 1, text: str = HEAD) -> Path:
    path = tmp_path / "head.mlir"
    path.write_text(text.replace("ROWS", str(rows)))
    return path


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
def test_a_classifier_head_reads_its_weight_in_place(target: Target, tmp_path: Path) -> None:
    path = head(tmp_path)
    payload = load_payload(path, cpu=True)
    assert "transpose_b" in payload.normalize
    assert not any(o.name == "linalg.transpose" for o in payload.ops)
    (mm,) = [o for o in payload.ops if o.name == "linalg.matmul"]
    w = mm.operands[1]
    assert w.value.kind == "arg" and [e.as_dim() for e in w.exprs] == [1, 2], w  # W[n, k], read in place
    p = plan(payload, target)
    schedule = tmp_path / "head.schedule.mlir"
    schedule.write_text(render(p))
    assert "transform.structured.transpose_matmul" in schedule.read_text()
    transformed = apply_schedule(path, schedule)
    # no transposed weight anywhere: the product reads W, the result is the one buffer
    assert [512, 1000] not in alloc_shapes(transformed), alloc_shapes(transformed)
    with new_context():
        module = ir.Module.parse(transformed)
        names = {op.name for op in ops(module)}
    assert "linalg.transpose" not in names and "vector.transpose" not in names
    report = verify(path, schedule)  # modelled as the schedule rewrites it (runs_cpu_steps)
    assert report.numbers_ok and report.computed_once and report.budget_ok
    assert_runs_as_untransformed(path, transformed)


OTHER_MATMUL = HEAD.replace("  return %y", """  %mm2 = linalg.matmul ins(%x, %p : tensor<ROWSx512xf32>, tensor<512x1000xf32>) outs(%f : tensor<ROWSx1000xf32>)
      -> tensor<ROWSx1000xf32>
  return %y""").replace("%b: tensor<1000xf32>)", "%b: tensor<1000xf32>, %p: tensor<512x1000xf32>)")


@pytest.mark.parametrize("case", ["rows", "same-types", "two-readers", "memory-target"])
def test_the_weight_stays_transposed_where_the_rewrite_does_not_apply(case: str, tmp_path: Path) -> None:
    """32 rows: the register kernel's outer products want the transposed
    panels (it writes them itself). A matmul of the same operand types that
    reads no transpose would be matched too, and get one of its own. A
    transpose read twice stays. A memory target keeps the payload as it is."""
    text = {"same-types": OTHER_MATMUL,
            "two-readers": HEAD.replace("  return %y", "  %keep = tensor.extract %wt[%i, %i] : tensor<512x1000xf32>\n"
                                        "  return %y").replace("{\n  %z", "{\n  %i = arith.constant 0 : index\n  %z")
            }.get(case, HEAD)
    path = head(tmp_path, 32 if case == "rows" else 1, text)
    payload = load_payload(path, cpu=case != "memory-target")
    assert "transpose_b" not in payload.normalize
    assert any(o.name == "linalg.transpose" for o in payload.ops)
