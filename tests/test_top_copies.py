"""The copies bufferization adds outside every nest (a concat's operands it
cannot compute in place) run on all cores: flattened where contiguous and
cut into chunks of Plan.copy_chunk elements, an scf.parallel each; strided
ones stay sequential. Checked on the applied IR and on the numbers at 1 and
2 threads."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import AVX2
from ir_helpers import applied_and_compared, enclosing_loop, ops, parse
from mlir import ir

from schedgen.ir.load import load_payload
from schedgen.model.plan import format_table
from schedgen.planning.cpu_levels import copy_chunk
from schedgen.planning.planner import plan

TARGET = AVX2

# DenseNet's pattern, smaller: each layer reads the concat of the input and every earlier layer's output.
# The input (an argument) and the first layer's output (read by both concats) are copied into each
# concat; the second concat also gets the input again, along the last dim (a strided copy).
_DENSE = """#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @dense(%x: tensor<1x32x28x28xf32>) -> (tensor<1x64x28x28xf32>, tensor<1x96x28x56xf32>) {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x32x28x28xf32>
  %y1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x32x28x28xf32>) outs(%e : tensor<1x32x28x28xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %one : f32
    linalg.yield %s : f32
  } -> tensor<1x32x28x28xf32>
  %c1 = tensor.concat dim(1) %x, %y1 : (tensor<1x32x28x28xf32>, tensor<1x32x28x28xf32>) -> tensor<1x64x28x28xf32>
  %e2 = tensor.empty() : tensor<1x64x28x28xf32>
  %y2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1 : tensor<1x64x28x28xf32>) outs(%e2 : tensor<1x64x28x28xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x64x28x28xf32>
  %c2 = tensor.concat dim(1) %y1, %y2 : (tensor<1x32x28x28xf32>, tensor<1x64x28x28xf32>) -> tensor<1x96x28x28xf32>
  %c3 = tensor.concat dim(3) %c2, %c2 : (tensor<1x96x28x28xf32>, tensor<1x96x28x28xf32>) -> tensor<1x96x28x56xf32>
  return %y2, %c3 : tensor<1x64x28x28xf32>, tensor<1x96x28x56xf32>
}
"""


def _top_level(module, name: str) -> list:
    """The `name` ops outside every loop."""
    return [op for op in ops(module) if op.name == name and enclosing_loop(op) is None]


@pytest.mark.parametrize("threads", [1, 2])
def test_copies_outside_the_nests_run_on_all_cores_in_chunks(threads: int, tmp_path: Path) -> None:
    """With the chunks, the contiguous copies are scf.parallel loops of
    ceil(elements / chunk) trips at the function's top level; without them
    (copy_chunk 0, one core) the same copies are sequential scf.for loops.
    The concat along the last dim keeps its strided copies sequential in
    both. The numbers match the untransformed payload's on 1 and 2
    threads."""
    payload = tmp_path / "dense.mlir"
    payload.write_text(_DENSE)
    p = plan(load_payload(payload, cpu=True), TARGET)
    assert p.copy_chunk == copy_chunk(TARGET.cpu) > 0
    assert f"chunks of {p.copy_chunk} elements" in format_table(p)  # explain says so
    chunked = parse(applied_and_compared(payload, p, threads))
    serial = parse(applied_and_compared(payload, p.model_copy(update={"copy_chunk": 0}), threads))
    parallel_copies = len(_top_level(chunked, "scf.parallel")) - len(_top_level(serial, "scf.parallel"))
    moved = len(_top_level(serial, "scf.for")) - len(_top_level(chunked, "scf.for"))
    assert parallel_copies >= 2 and moved == parallel_copies, (parallel_copies, moved)
    assert _top_level(chunked, "scf.for"), "the strided copies of the last concat stay sequential"
    trips = {-(-32 * 28 * 28 // p.copy_chunk), -(-64 * 28 * 28 // p.copy_chunk)}
    new = [op for op in _top_level(chunked, "scf.parallel") if _trips(op) in trips]
    assert len(new) >= parallel_copies, [_trips(op) for op in _top_level(chunked, "scf.parallel")]


def _trips(loop) -> int | None:
    """The trip count of a one-dim scf.parallel with constant bounds (None otherwise)."""
    bounds = [operand.owner for operand in loop.operands[:3]]
    if any(o.name != "arith.constant" for o in bounds):
        return None
    lo, up, st = (ir.IntegerAttr(o.attributes["value"]).value for o in bounds)
    return -(-(up - lo) // st)
