"""What front ends emit, one construct per payload (tests/data/constructs/),
on every target: `generate` -> `verify` must pass (executed numbers, loop
bodies measured within the budget, nothing computed twice), the applied IR
is walked through the bindings for what the construct needs, and where the
numbers have a closed form they are checked against numpy too."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT
from ir_helpers import enclosing_loop, ops, placement
from mlir import ir

from schedgen.check.verify import verify
from schedgen.cli import main as schedgen
from schedgen.ir.apply import transform_payload
from schedgen.ir.load import load_payload
from schedgen.run.arrays import random_inputs
from schedgen.run.execute import run_function

DATA = ROOT / "tests" / "data" / "constructs"
# npu-256k at a 64 KiB budget so that every construct must be tiled
TARGETS = {"npu-256k": ["--memory", "65536"], "cpu-l1": [], "cpu-l2": [], "cpu-host": []}


def _generate(payload: Path, target: str, out: Path) -> None:
    assert schedgen(["generate", str(payload), "--target", target, *TARGETS[target], "-o", str(out)]) == 0


CASES = sorted(p.stem for p in DATA.glob("*.mlir"))


@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("case", CASES)
def test_construct_verifies(case: str, target: str, tmp_path: Path, verified):
    payload = DATA / f"{case}.mlir"
    schedule = tmp_path / "s.mlir"
    _generate(payload, target, schedule)
    report = verified(payload, schedule)
    assert report.numbers_ok, report.results
    assert report.budget_ok, [(n.id, n.footprint_bytes, n.problem) for n in report.nests]
    assert report.computed_once, report.check.recomputed
    assert report.ok


def _tile_stage(payload: Path, schedule: Path) -> ir.Module:
    text = schedule.read_text()
    return transform_payload(payload, schedule, "schedgen_tile" if "@schedgen_tile" in text else "__transform_main")


@pytest.mark.parametrize("target", ["npu-256k", "cpu-l1"])
def test_named_softmax_is_decomposed_and_tiled(target: str, tmp_path: Path):
    payload = DATA / "named_softmax.mlir"
    _generate(payload, target, tmp_path / "s.mlir")
    inside, outside = placement(_tile_stage(payload, tmp_path / "s.mlir"))
    assert outside["linalg.softmax"] == inside["linalg.softmax"] == 0
    # max and sum reductions, sub+exp, div: all in the row loop, none left outside
    assert inside["linalg.generic"] == 4 and outside["linalg.generic"] == 0
    assert outside["scf.forall"] == 1


@pytest.mark.parametrize("target", ["npu-256k", "cpu-l1"])
def test_keepdim_and_multi_result_reductions_are_tiled(target: str, tmp_path: Path):
    for case in ("keepdim_reduction", "multi_result"):
        payload = DATA / f"{case}.mlir"
        _generate(payload, target, tmp_path / f"{case}.mlir")
        module = _tile_stage(payload, tmp_path / f"{case}.mlir")
        inside, outside = placement(module)
        assert outside["linalg.generic"] == 0 and inside["linalg.generic"] == 2, (case, inside, outside)
    # the max keeps both of its results, inside the loop
    two = []
    module.operation.walk(lambda op: (two.append(op) if op.name == "linalg.generic" and len(op.results) == 2
                                      else None) or ir.WalkResult.ADVANCE)
    assert len(two) == 1


def test_placed_tensor_is_not_one_huge_vector_copy(tmp_path: Path):
    """On a CPU target the 256x512 piece placed by tensor.insert_slice is not
    vectorized as one whole-tensor copy (256 unrolled 512-wide transfers that
    took LLVM minutes): every vector of the lowered IR is a register tile, and
    the piece's producer writes straight into the bigger tensor's buffer."""
    payload = DATA / "insert_slice.mlir"
    _generate(payload, "cpu-host", tmp_path / "s.mlir")
    module = transform_payload(payload, tmp_path / "s.mlir")
    widest, buffers = 0, []

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal widest
        for r in op.results:
            if isinstance(r.type, ir.VectorType):
                widest = max(widest, math.prod(r.type.shape))
        if op.name == "memref.alloc":
            buffers.append(tuple(op.results[0].type.shape))
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    assert 0 < widest <= 256, widest
    assert (256, 512) not in buffers, buffers


@pytest.mark.parametrize("target", ["npu-256k", "cpu-host"])
def test_a_global_average_pool_is_folded_alone(target: str, tmp_path: Path):
    """torch's adaptive_avg_pool2d(1) keeps its reduced dims as size 1 and
    nothing reads them back as a broadcast: only it is folded, so the
    convolution (a named op, which keeps its batch dim) reads nothing through
    a reshape and its ReLU is tiled with it, straight from its tile."""
    payload = DATA / "global_avgpool.mlir"
    assert load_payload(payload, cpu=target.startswith("cpu")).normalize == ("fold_kept_dims",)
    _generate(payload, target, tmp_path / "s.mlir")
    module = _tile_stage(payload, tmp_path / "s.mlir")
    found = {name: [op for op in ops(module) if op.name == name]
             for name in ("linalg.conv_2d_nchw_fchw", "linalg.generic")}
    [conv] = found["linalg.conv_2d_nchw_fchw"]
    [relu] = [op for op in found["linalg.generic"] if "arith.select" in {o.name for o in ops(op)}]
    assert _outermost_loop(conv) is not None and _outermost_loop(relu) == _outermost_loop(conv)
    assert relu.operands[0].owner.name not in ("tensor.collapse_shape", "tensor.expand_shape")
    # the sum alone is folded: [48, 32, 32] -> [48] (or tiles of it)
    sums = [op for op in found["linalg.generic"] if op.results[0].type.rank == 1]
    assert len(sums) == 1 and sums[0].operands[0].type.rank == 3, sums


def test_a_pad_of_a_result_is_written_in_place(tmp_path: Path):
    """On a CPU target a pad of what an op computes is a fill of the padded
    tensor that the op's nest writes its interior into: the ReLU's before
    the max pool and the pool's (read by a 1x1 convolution before it), with
    no buffer of the ReLU's own and no copy. The input's pad (of an
    argument) and the second ReLU's (the residual add reads that ReLU after
    the pad) stay pads."""
    payload = DATA / "padded_pool.mlir"
    model = load_payload(payload, cpu=True)
    assert "pad_in_place" in model.normalize and model.placed_pads == (False, True, True, False)
    pads = [op for op in model.ops if op.name == "tensor.pad"]
    assert [p.domain for p in pads] == [(1, 8, 18, 18), (1, 16, 10, 10)], pads
    _generate(payload, "cpu-host", tmp_path / "s.mlir")
    module = transform_payload(payload, tmp_path / "s.mlir")
    found = ops(module)
    assert not [op for op in found if op.name in ("memref.copy", "linalg.copy")]
    buffers = [tuple(op.results[0].type.shape) for op in found if op.name == "memref.alloc"]
    # one 16x16x16 buffer: the convolution's result (img2col's reshape keeps it apart from the ReLU); the
    # ReLU's is the padded one (before, a buffer of its own too, copied over by the pad's nest)
    assert (1, 16, 18, 18) in buffers and len([b for b in buffers if math.prod(b) == 16 ** 3]) == 1, buffers
    [padded] = [op for op in found if op.name == "memref.alloc" and tuple(op.results[0].type.shape) == (1, 16, 18, 18)]
    interior = [op for op in found if op.name == "memref.subview" and op.operands[0] == padded.results[0]
                and list(op.attributes["static_offsets"]) == [0, 0, 1, 1]]
    assert interior, "no view of the padded buffer's interior"


def _outermost_loop(op: ir.Operation) -> ir.Operation | None:
    outer, loop = None, enclosing_loop(op)
    while loop is not None:
        outer, loop = loop, enclosing_loop(loop)
    return outer


def test_model_has_no_kept_unit_dims():
    """The planner models the normalized IR: reductions with plain projected maps."""
    model = load_payload(DATA / "keepdim_reduction.mlir")
    assert model.normalize == ("fold_unit_dims",)
    assert all(r.shape[-1] != 1 for op in model.ops for r in op.results)


def test_erf_gelu_matches_numpy():
    payload = DATA / "erf_gelu.mlir"
    model = load_payload(payload)
    a, b = random_inputs(list(model.arg_types), 3)
    (got,) = run_function(payload.read_text(), model.func_name, [a, b], opt_level=0)
    m = a.astype(np.float64) @ b.astype(np.float64)
    want = m * 0.5 * (1 + np.vectorize(math.erf)(m / math.sqrt(2)))
    assert np.allclose(got, want, rtol=1e-4, atol=1e-5)


def test_scalar_arguments_are_passed():
    payload = DATA / "scalar_arg.mlir"
    model = load_payload(payload)
    assert [shape for shape, _ in model.arg_types] == [(256, 512), (), ()]
    x, scale, zp = random_inputs(list(model.arg_types), 1)
    assert scale.shape == () and zp.shape == () and zp.dtype == np.int32
    (got,) = run_function(payload.read_text(), model.func_name, [x, scale, zp], opt_level=0)
    np.testing.assert_allclose(got, (x - np.float32(zp)) * scale, rtol=1e-6)


def test_integer_inputs_are_valid_indices():
    """Default integer inputs are small and non-negative: an embedding's
    bounds checks (cf.assert) pass, and the rows come out of the table."""
    payload = DATA / "embedding.mlir"
    model = load_payload(payload)
    tokens, table = random_inputs(list(model.arg_types), 0)
    assert tokens.min() >= 0
    (got,) = run_function(payload.read_text(), model.func_name, [tokens, table], opt_level=0)
    np.testing.assert_array_equal(got, 2 * table[tokens])


def test_failed_bounds_check_says_its_message():
    payload = DATA / "embedding.mlir"
    model = load_payload(payload)
    tokens, table = random_inputs(list(model.arg_types), 0)
    tokens[3] = 1000
    with pytest.raises(Exception) as info:
        run_function(payload.read_text(), model.func_name, [tokens, table], opt_level=0)
    assert "index must be smaller than dim size" in str(info.value)


def test_side_effect_ops_are_not_fused(tmp_path: Path):
    """A fused copy of an op with a bounds check would leave its original
    alive (DCE keeps side effects): it is planned on its own instead."""
    from schedgen.emit.schedule import render
    from schedgen.model.target import load_target
    from schedgen.planning.planner import plan

    payload = DATA / "embedding.mlir"
    model = load_payload(payload)
    p = plan(model, load_target("npu-256k", 8192))
    gather = model.ops[0]
    assert gather.side_effects == ["cf.assert"]
    # a root (tiling replaces it), never a fused producer copy
    assert all(gather.index not in {o.index for o in n.producers} for n in p.nests)
    (tmp_path / "s.mlir").write_text(render(p))
    report = verify(payload, tmp_path / "s.mlir")
    assert report.ok and report.check.op_counts_transformed == report.check.op_counts_original


def test_concat_becomes_placements(tmp_path: Path):
    payload = DATA / "concat.mlir"
    model = load_payload(payload)
    assert "decompose_concat" in model.normalize
    assert [o.name for o in model.others].count("tensor.insert_slice") == 2
    _generate(payload, "npu-256k", tmp_path / "s.mlir")
    inside, outside = placement(_tile_stage(payload, tmp_path / "s.mlir"))
    assert outside["tensor.concat"] == 0 and outside["tensor.insert_slice"] == 2
    assert outside["linalg.generic"] == 0  # both elementwise ops tiled


@pytest.mark.parametrize("target", ["npu-256k", "cpu-l1"])
def test_pack_and_unpack_are_tiled_by_their_outer_dims(target: str, tmp_path: Path):
    """pack tiles over the packed outer dims, unpack over its result; the
    footprint counts the tiles they touch, not their whole operands."""
    payload = DATA / "pack_unpack.mlir"
    model = load_payload(payload)
    pack_b = model.ops[1]
    assert pack_b.name == "linalg.pack" and pack_b.domain == (8, 128)  # outer dims of 8x128x16x4
    _generate(payload, target, tmp_path / "s.mlir")
    inside, outside = placement(_tile_stage(payload, tmp_path / "s.mlir"))
    assert outside["linalg.pack"] == outside["linalg.unpack"] == 0
    assert inside["linalg.pack"] == 2 and inside["linalg.unpack"] == 1


@pytest.mark.parametrize("payload", sorted((ROOT / "tests" / "fuzz_found").glob("*.mlir"))
                         + sorted((ROOT / "corpus").glob("*.mlir")), ids=lambda p: p.stem)
def test_normalization_run_twice_changes_nothing(payload: Path):
    """check and verify apply a schedule (normalization first) to the copy
    schedgen normalized on load: a second run must leave the IR as it is, or
    the schedule's matches miss (fuzz: a transpose and a broadcast swapped)."""
    from schedgen.ir.context import new_context
    from schedgen.ir.load import select_function
    from schedgen.ir.normalize import img2col_convs, needed_steps, normalize, placed_pads, transpose_b_matmuls
    from schedgen.ir.queries import symbol

    with new_context(), ir.Location.unknown():
        module = ir.Module.parseFile(str(payload))
        fn = select_function(module, str(payload), None)
        # A payload that needs no step gets them all: twice, too, they must change nothing the second time.
        # With the CPU targets' pad and transpose steps, matched as the schedule matches them (on the payload
        # as it came). Not img2col: run again, its canonicalization merges the zero the pad step's fill brought
        # with an equal constant (resnet_block), which no match sees.
        steps = tuple(s for s in needed_steps(fn.operation, cpu=True) if s != "img2col") \
            or ("decompose", "decompose_concat", "fold_unit_dims")
        matched = img2col_convs(fn.operation), transpose_b_matmuls(fn.operation), placed_pads(fn.operation)
        normalize(module, symbol(fn), steps, *matched)
        once = str(module)
        normalize(module, symbol(fn), steps, *matched)
        assert str(module) == once
