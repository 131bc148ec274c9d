"""Strided row copies (a stride-2 convolution's im2col rows) as contiguous
vector loads and shuffles in the CPU lowering (schedgen.run.strided_copies):
found on the applied IR, rewritten into vector ops that verify, and
executed to the same numbers on 1 and 2 threads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from ir_helpers import applied_and_compared, counts, nchw_conv_text, ops, parse

from schedgen.ir.load import load_payload
from schedgen.model.target import CPU_PRESETS
from schedgen.planning.planner import plan
from schedgen.run.execute import run_function
from schedgen.run.strided_copies import vectorize_strided_copies

TARGET = CPU_PRESETS["cpu-avx512"]
ALL_PARALLEL = TARGET.model_copy(update={"cpu": TARGET.cpu.model_copy(update={"parallel_min_ms": 0.0})})

# Every third element of row 2 from column 1 on: 20 outputs, a piece of 16 and one of 4.
_COPY = """#in = affine_map<(d0) -> (2, d0 * 3 + 1)>
#out = affine_map<(d0) -> (d0)>
func.func @every_third(%x: memref<4x64xf32>) -> memref<20xf32> {
  %y = memref.alloc() : memref<20xf32>
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel"]}
      ins(%x : memref<4x64xf32>) outs(%y : memref<20xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return %y : memref<20xf32>
}
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_a_stride_2_convolutions_im2col_rows_become_vector_shuffles(threads: int, tmp_path: Path) -> None:
    """The schedule leaves the im2col copy a scalar generic that reads every
    second input column; in an OpenMP body LLVM kept it scalar (3x the
    time of its vectorized form on 2 threads). The lowering rewrites each
    of its rows into contiguous reads and shuffles: none is left as a
    generic, the module verifies, and the numbers match on 1 and 2
    threads."""
    payload = tmp_path / "down.mlir"  # ResNet's downsampling convolution, smaller: 3x3 stride 2 onto 14x14
    payload.write_text(nchw_conv_text("down", "1x8x30x30", "16x8x3x3", "1x16x14x14", stride=2))
    module = parse(applied_and_compared(payload, plan(load_payload(payload, cpu=True), ALL_PARALLEL), threads))
    assert vectorize_strided_copies(module) >= 1
    assert module.operation.verify()
    names = counts(module)
    assert names["vector.shuffle"] >= 1 and names["vector.transfer_read"] >= 1, names
    assert vectorize_strided_copies(module) == 0  # nothing strided left
    shuffled = [op for op in ops(module) if op.name == "vector.shuffle"]
    assert all(list(op.attributes["mask"]) == list(range(0, 2 * len(op.attributes["mask"]), 2)) for op in shuffled)


def test_a_strided_copy_with_an_offset_reads_the_right_elements() -> None:
    """Stride 3 from column 1 of row 2, 20 outputs (pieces of 16 and 4):
    the rewritten copy returns exactly x[2, 1::3][:20]."""
    module = parse(_COPY)
    assert vectorize_strided_copies(module) == 1 and module.operation.verify()
    assert not [op for op in ops(module) if op.name == "linalg.generic"]
    x = np.arange(4 * 64, dtype=np.float32).reshape(4, 64)
    (got,) = run_function(str(module), "every_third", [x])
    np.testing.assert_array_equal(got, x[2, 1::3][:20])


# A scalar broadcast onto a row and a copy of one element: 1-D copy generics with no stride to read along.
_NO_STRIDE = """#scalar = affine_map<(d0) -> ()>
#one = affine_map<(d0) -> (d0 * 2)>
#id = affine_map<(d0) -> (d0)>
func.func @no_stride(%s: memref<bf16>, %x: memref<8xf32>, %y: memref<16xbf16>, %z: memref<1xf32>) {
  linalg.generic {indexing_maps = [#scalar, #id], iterator_types = ["parallel"]}
      ins(%s : memref<bf16>) outs(%y : memref<16xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    linalg.yield %a : bf16
  }
  linalg.generic {indexing_maps = [#one, #id], iterator_types = ["parallel"]}
      ins(%x : memref<8xf32>) outs(%z : memref<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}
"""


def test_copies_with_no_stride_are_left_as_they_are() -> None:
    """A source of rank 0 (fuzz seed 122: a bf16 scalar broadcast made the
    rewrite index an empty row) and a copy of one element are not rewritten."""
    module = parse(_NO_STRIDE)
    assert vectorize_strided_copies(module) == 0 and module.operation.verify()
    assert len([op for op in ops(module) if op.name == "linalg.generic"]) == 2


def test_a_bf16_strided_copy_is_left_to_llvm() -> None:
    """Every third bf16 element: x86's backend cannot legalize a shuffle of
    bf16 lanes (fuzz seed 123: LLVM aborted on a 9-lane one), so only f32
    and f64 copies are rewritten; the bf16 one stays a generic."""
    module = parse(_COPY.replace("f32", "bf16"))
    assert vectorize_strided_copies(module) == 0 and module.operation.verify()
    assert [op.name for op in ops(module) if op.name == "linalg.generic"] == ["linalg.generic"]
