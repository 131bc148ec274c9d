"""schedgen.run.loop_order: the executions whose numbers count run a
reduction's loops with the last output dim innermost, where an input walks
along it, and compute the same numbers to the bit as the standard lowering."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from ir_helpers import matmul_text, ops, parse
from mlir import ir

from schedgen.ir.queries import iterator_kinds
from schedgen.run.arrays import random_inputs
from schedgen.run.execute import run_function, time_function
from schedgen.run.loop_order import reorder_loops

# torch's NCHW: a 3x3 convolution, relu, a 3x3 depthwise convolution
CONV_NCHW = (Path(__file__).parent / "data" / "conv_nchw.mlir").read_text()

# B read as [n, k]: no input walks along n, so the reduction stays innermost.
MATMUL_TRANSPOSE_B = """
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @mm(%a: tensor<24x40xf32>, %b: tensor<32x40xf32>) -> tensor<24x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<24x32xf32>) -> tensor<24x32xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<24x40xf32>, tensor<32x40xf32>) outs(%f : tensor<24x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<24x32xf32>
  return %r : tensor<24x32xf32>
}
"""


def _reordered(text: str) -> list[list[str]]:
    """The iterator kinds of each reduction generic after reorder_loops."""
    module = parse(text)
    with module.context, ir.Location.unknown():
        reorder_loops(module)
        module.operation.verify()
        kinds = [list(iterator_kinds(o)) for o in ops(module) if o.name == "linalg.generic"]
    return [k for k in kinds if "reduction" in k]


def test_a_matmul_runs_its_columns_innermost():
    assert _reordered(matmul_text(24, 32, 40)) == [["parallel", "reduction", "parallel"]]


def test_an_nchw_convolution_runs_its_output_row_innermost():
    # n, f, oh, c, kh, kw, ow: the input's row (ow + kw) and the output's walk along ow. The depthwise one
    # iterates n, oh, ow, c, kh, kw: a parallel dim (c) follows ow, so it keeps its order.
    assert _reordered(CONV_NCHW) == [["parallel"] * 3 + ["reduction"] * 3 + ["parallel"],
                                     ["parallel"] * 4 + ["reduction"] * 2]


def test_a_transposed_b_keeps_its_reduction_innermost():
    assert _reordered(MATMUL_TRANSPOSE_B) == [["parallel", "parallel", "reduction"]]


@pytest.mark.parametrize("text, func", [(matmul_text(24, 32, 40), "mm"), (CONV_NCHW, "conv_nchw")],
                         ids=["matmul", "conv_nchw"])
def test_reordered_loops_compute_the_same_numbers_to_the_bit(text: str, func: str):
    module = parse(text)
    arg_types = [(tuple(ir.RankedTensorType(a.type).shape), "f32") for a in module.body.operations[0].arguments]
    inputs = random_inputs(arg_types, 3)
    (reordered,) = run_function(text, func, inputs)
    (plain,), _ = time_function(text, func, inputs, repeats=0, warmup=0)
    assert np.array_equal(reordered, plain)
    # and the numbers are right: float64 numpy to f32 rounding
    if func == "mm":
        want = inputs[0].astype(np.float64) @ inputs[1].astype(np.float64)
        assert np.allclose(reordered, want, rtol=1e-5, atol=1e-5)
