"""What the corpus's newer models (squeezenet, shufflenet_v2, efficientnet,
and the heads of resnet18 and mobilenet_v2) brought: a classifier head that
reads its Linear weight along the reduction, a strided pooling whose output
rows no small tile divides, and a strided depthwise convolution outside any
nest. Each is checked on the applied IR and by executing it."""

from __future__ import annotations

from math import prod
from pathlib import Path

import pytest
from ir_helpers import applied_and_compared, ops, parse
from mlir import ir

from schedgen.analysis.measure import const_int
from schedgen.ir.load import load_payload
from schedgen.model.plan import format_table
from schedgen.model.target import CPU_PRESETS, Target
from schedgen.planning.planner import plan

# AVX2's shape (8 lanes, 16 registers): the 16-lane preset packs the 16-wide row below in one tile.
_AVX512 = CPU_PRESETS["cpu-avx512"]
HOST = _AVX512.model_copy(update={"name": "cpu-avx2", "cpu": _AVX512.cpu.model_copy(
    update={"vector_bits": 256, "vector_registers": 16})})
ALL_PARALLEL = HOST.model_copy(update={"cpu": HOST.cpu.model_copy(update={"parallel_min_ms": 0.0})})
ONE_CORE = Target(name="cpu-1", memory_bytes=HOST.memory_bytes, cpu=HOST.cpu.model_copy(update={"cores": 1}))

# torch's Linear on one row: the weight transposed, as torch-mlir exports it, then the bias.
_HEAD = """#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @head(%x: tensor<1x512xf32>, %w: tensor<200x512xf32>, %b: tensor<200xf32>) -> tensor<1x200xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<512x200xf32>
  %wt = linalg.transpose ins(%w : tensor<200x512xf32>) outs(%te : tensor<512x200xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<1x200xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x200xf32>) -> tensor<1x200xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<1x512xf32>, tensor<512x200xf32>) outs(%f : tensor<1x200xf32>)
    -> tensor<1x200xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : tensor<1x200xf32>, tensor<200xf32>) outs(%e : tensor<1x200xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<1x200xf32>
  return %r : tensor<1x200xf32>
}
"""

_POOL = """func.func @pool(%x: tensor<1x32x27x27xf32>) -> tensor<1x32x13x13xf32> {
  %ninf = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<1x32x13x13xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x32x13x13xf32>) -> tensor<1x32x13x13xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x32x27x27xf32>, tensor<3x3xf32>) outs(%f : tensor<1x32x13x13xf32>) -> tensor<1x32x13x13xf32>
  return %p : tensor<1x32x13x13xf32>
}
"""

# shufflenet_v2's downsampling depthwise convolution: a 14x14 map padded to 16x16, 3x3 stride 2 onto 7x7.
_DEPTHWISE = """func.func @dw(%x: tensor<1x32x14x14xf32>, %w: tensor<32x3x3xf32>) -> tensor<1x32x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x32x14x14xf32> to tensor<1x32x16x16xf32>
  %e = tensor.empty() : tensor<1x32x7x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%p, %w : tensor<1x32x16x16xf32>, tensor<32x3x3xf32>) outs(%f : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  return %c : tensor<1x32x7x7xf32>
}
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_a_head_on_one_row_is_dot_products_along_the_weight_rows(threads: int, tmp_path: Path) -> None:
    """x[1, 512] by a Linear weight W[200, 512]: along the 200 outputs every
    FMA gathered its weight vector element by element (shufflenet_v2's head,
    0.52 ms). As dot products, each of a few outputs keeps one vector of
    partial sums along the reduction, read contiguously from W's rows, and
    sums its lanes once after the loop."""
    payload = tmp_path / "head.mlir"
    payload.write_text(_HEAD)
    p = plan(load_payload(payload, cpu=True), ALL_PARALLEL)
    lanes = HOST.cpu.lanes()
    (dots,) = [t for t in p.inner if t.dots]
    assert p.ops[dots.op].name == "linalg.matmul" and dots.split_sizes[-1] == lanes
    assert "as dot products" in format_table(p)
    module = parse(applied_and_compared(payload, p, threads))
    loops = [op for op in ops(module) if op.name == "scf.for" and op.results
             and all(isinstance(r.type, ir.VectorType) for r in op.results)]
    carried = [ir.VectorType(r.type).shape for op in loops for r in op.results]
    assert carried and all(shape[-1] == lanes for shape in carried), carried  # partial sums along K
    sums = [op for op in ops(module) if op.name == "vector.reduction"]
    assert sums and all(ir.VectorType(op.operands[0].type).shape == [lanes] for op in sums)
    # no gather: every read of W is a contiguous vector along its row
    assert not [op for op in ops(module) if op.name in ("vector.gather", "memref.load")
                and "200x512" in str(op.operands[0].type)]


def _head(directory: Path, outputs: int, inputs: int = 512) -> Path:
    """_HEAD with `outputs` columns and `inputs` rows of the reduction."""
    payload = directory / f"head{outputs}.mlir"
    payload.write_text(_HEAD.replace("200", str(outputs)).replace("512", str(inputs)))
    return payload


@pytest.mark.parametrize("threads", [1, 2])
def test_a_classifier_heads_weight_is_streamed_by_both_cores(threads: int, tmp_path: Path) -> None:
    """googlenet's classifier: x[1, 1024] by W[1000, 1024], 2 MFLOP but a
    4 MB weight. Its forall tiles were whole panels of two vectors, which
    no part of 1000 is: one tile, one core streaming all of the weight,
    while the plan said it ran on 2 (0.25 ms in the model on 1 thread,
    0.32 on 2). Now tiles are whole dot-product tiles (8 columns), the
    weight's bytes make the nest worth the cores, and the tiles split
    evenly between them (alone, 1.97-2.18x faster on 2 threads). In the
    applied IR the nest is one parallel loop with a trip per tile, and
    the numbers match."""
    payload = _head(tmp_path, 1000, 1024)
    p = plan(load_payload(payload, cpu=True), _AVX512)
    (nest,) = [n for n in p.nests if any(p.ops[o.index].name == "linalg.matmul" for o in n.ops)]
    (dots,) = [t for t in p.inner if t.dots]
    columns = nest.tile_sizes[1]
    assert columns % dots.register_sizes[1] == 0 and nest.forall_tiles == 1000 // columns, nest.tile_sizes
    assert nest.forall_tiles % 2 == 0 or nest.forall_tiles >= 8, nest.forall_tiles  # even shares
    assert nest.id in p.parallel_nests and "runs on 2 core(s)" in format_table(p)
    module = parse(applied_and_compared(payload, p, threads))
    (par,) = [op for op in ops(module) if op.name == "scf.parallel"]
    assert [const_int(v) for v in par.operands] == [0, nest.forall_tiles, 1]


def test_a_forall_of_one_tile_starts_no_parallel_loop(tmp_path: Path) -> None:
    """A head of 8 outputs is one dot-product tile: its forall has one
    tile, however worth the cores its work. It was marked parallel (an
    OpenMP region for one core), and the plan said it ran on 2. Now it
    runs on one, the plan says why, and the applied IR has no parallel
    loop."""
    payload = _head(tmp_path, 8)
    p = plan(load_payload(payload, cpu=True), ALL_PARALLEL)
    (nest,) = [n for n in p.nests if any(p.ops[o.index].name == "linalg.matmul" for o in n.ops)]
    assert nest.forall_tiles == 1 and nest.id not in p.parallel_nests, nest
    assert "runs on 1 core(s) (its forall has one tile)" in format_table(p)
    module = parse(applied_and_compared(payload, p, 2))
    assert not [op for op in ops(module) if op.name == "scf.parallel"]


@pytest.mark.parametrize("threads", [1, 2])
def test_a_strided_pooling_onto_a_prime_row_count_is_decomposed(threads: int, tmp_path: Path) -> None:
    """A 3x3 stride-2 NCHW max pool onto 13x13 (squeezenet's): no row tile
    of 2 to 4 divides 13, so the register tile already takes rows by 1 and
    the stride is left along the vector dim alone. It stayed scalar (1.97 of
    squeezenet's 22 ms in its 55x55 pool); decomposed into the 1-D pooling
    it is vectorized along the channels, as the stem's pool is."""
    payload = tmp_path / "pool.mlir"
    payload.write_text(_POOL)
    p = plan(load_payload(payload, cpu=True), ALL_PARALLEL)
    (pool,) = [t for t in p.inner if p.ops[t.op].name == "linalg.pooling_nchw_max"]
    assert pool.decompose and pool.scalar is None, pool
    module = parse(applied_and_compared(payload, p, threads))
    maxes = [op.results[0].type for op in ops(module) if op.name == "arith.maximumf"]
    assert maxes and all(isinstance(t, ir.VectorType) and prod(t.shape) > 1 for t in maxes), maxes
    assert not [op for op in ops(module) if op.name.startswith("linalg.")]


def test_an_untiled_strided_depthwise_convolution_packs_its_whole_input(tmp_path: Path) -> None:
    """On one core the convolution fits as it is and no nest tiles it: its
    channel-blocked input pack then takes the whole padded row, 16 wide,
    not the 15 its window reads. The schedule peeled a remainder of the
    15 that the 16-wide pack loop did not have, and did not apply
    (shufflenet_v2)."""
    payload = tmp_path / "dw.mlir"
    payload.write_text(_DEPTHWISE)
    p = plan(load_payload(payload, cpu=True), ONE_CORE)
    (conv,) = [t for t in p.inner if t.channel_block]
    assert any(u.op.index == conv.op for u in p.untiled)
    assert conv.input_width == 16 and not conv.row_remainder(conv.input_width)
    module = parse(applied_and_compared(payload, p, 1))
    muls = [op.results[0].type for op in ops(module) if op.name in ("arith.mulf", "vector.fma")]
    assert muls and all(isinstance(t, ir.VectorType) and t.shape[-1] == HOST.cpu.lanes() for t in muls), muls
