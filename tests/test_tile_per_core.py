"""A row nest worth both cores whose rows no divisor splits (ViT's 197
tokens: a prime) gets one forall tile per core, the last one short, its
register tiles one row each so that they stay static and vectorized
(planner._tile_per_core, cpu_levels._one_along). Before, ViT's layer norms
ran in one tile, on one core: a ViT block 1.08x faster on 2 threads."""

from __future__ import annotations

from pathlib import Path

import pytest
from ir_helpers import applied_and_compared, ops, parse
from mlir import ir

from schedgen.ir.load import load_payload
from schedgen.model.target import CPU_PRESETS
from schedgen.planning.planner import plan

TARGET = CPU_PRESETS["cpu-avx512"]
TARGET = TARGET.model_copy(update={"cpu": TARGET.cpu.model_copy(update={"parallel_min_ms": 0.0})})

# Each token centred by its mean (a row sum, then the subtraction), as a norm starts.
CENTRE = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @centre(%x: tensor<197x192xf32>) -> tensor<197x192xf32> {
  %z = arith.constant 0.0 : f32
  %n = arith.constant 192.0 : f32
  %e1 = tensor.empty() : tensor<197xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<197xf32>) -> tensor<197xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<197x192xf32>) outs(%f1 : tensor<197xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<197xf32>
  %e = tensor.empty() : tensor<197x192xf32>
  %c = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<197x192xf32>, tensor<197xf32>) outs(%e : tensor<197x192xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.divf %b, %n : f32
    %r = arith.subf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<197x192xf32>
  return %c : tensor<197x192xf32>
}
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_197_tokens_take_a_tile_per_core_and_stay_vectorized(threads: int, tmp_path: Path) -> None:
    path = tmp_path / "centre.mlir"
    path.write_text(CENTRE)
    p = plan(load_payload(path), TARGET)
    (nest,) = p.nests
    assert nest.tile_sizes == [99, 0] and nest.id in p.parallel_nests, (nest.tile_sizes, p.parallel_nests)
    # every op one row at a time along the short tile's rows, none left scalar
    assert all(t.register_sizes[0] == 1 and t.scalar is None for t in p.inner), p.inner
    module = parse(applied_and_compared(path, p, threads))
    subs = [op for op in ops(module) if op.name == "arith.subf"]
    assert subs and all(isinstance(op.results[0].type, ir.VectorType) for op in subs)
    (forall,) = [op for op in ops(module) if op.name == "scf.parallel"]
    assert str(forall.operands[1].owner).endswith("constant 2 : index"), forall.operands[1].owner  # 2 tiles
