"""Axis groups (seed 004): classification, the merge rule, and what the
planner does with them."""

from __future__ import annotations

import pytest
from conftest import ROOT

from schedgen.analysis.axis_groups import (
    AxisGroups,
    AxisMap,
    MergeError,
    NestAxes,
    merge,
    nest_groups,
)
from schedgen.ir.load import load_payload
from schedgen.model.target import PRESETS
from schedgen.planning.planner import plan


def test_seed_example_elementwise_axis_moves_to_r():
    # abs is ()(z0,z1)(), the max-reduce over z1 is ()(z0)(z1).
    assert str(merge(AxisGroups(y=("z0", "z1")), AxisGroups(y=("z0",), r=("z1",)))) == "()(z0)(z1)"
    assert str(merge(AxisGroups(y=("z0",), r=("z1",)), AxisGroups(y=("z0", "z1")))) == "()(z0)(z1)"


@pytest.mark.parametrize("a, b", [
    (AxisGroups(y=("z0", "z1")), AxisGroups(x=("z0", "z1"))),  # Y + X: no such pair
    (AxisGroups(y=("z0",), r=("z1",)), AxisGroups(y=("z1",), r=("z0",))),  # YR + YR, different r
    (AxisGroups(y=("z0", "z2")), AxisGroups(y=("z0",), r=("z1",))),  # z2 not covered by y' + r'
    (AxisGroups(y=("z0", "z1"), r=("k",)), AxisGroups(x=("z0",), y=("z1",))),  # YR + XY
])
def test_failing_merges(a, b):
    with pytest.raises(MergeError):
        merge(a, b)


def test_a_transpose_joins_a_contraction_only_where_asked():
    """X+YR (a weight transpose feeding a matmul) merges on request (CPU
    targets) when the transpose's axes are the contraction's."""
    weight, mm = AxisGroups(x=("k0", "z1")), AxisGroups(y=("z0", "z1"), r=("k0",))
    with pytest.raises(MergeError):
        merge(weight, mm)
    assert str(merge(weight, mm, views_into_contractions=True)) == "()(z0,z1)(k0)"
    assert str(merge(mm, weight, views_into_contractions=True)) == "()(z0,z1)(k0)"
    with pytest.raises(MergeError):  # k1 is not an axis of the contraction
        merge(AxisGroups(x=("k1", "z1")), mm, views_into_contractions=True)


def test_other_accepted_pairs_and_n_groups():
    assert str(merge(AxisGroups(y=("z0",)), AxisGroups(y=("z0", "z1")))) == "()(z0,z1)()"  # broadcast
    assert str(merge(AxisGroups(y=("z0", "z1")), AxisGroups(x=("z1",), y=("z0",)))) == "(z1)(z0)()"
    assert str(merge(AxisGroups(y=("z0",)), AxisGroups(r=("z0",)))) == "()()(z0)"
    # n axes are removed everywhere first: z1 may not be split.
    merged = merge(AxisGroups(y=("z0", "z1"), n=("z1",)), AxisGroups(y=("z0",), r=("z1",)))
    assert merged.n == ("z1",) and merged.y == ("z0",) and merged.r == ()


def test_softmax_groups_follow_the_data_not_the_op_order():
    p = load_payload(ROOT / "payloads/softmax.mlir")
    # The max-reduce reads the input, not an op of the nest: its reduced dim
    # is still z1, because it indexes the same tensor dim as the exp's.
    assert str(nest_groups(p, 5, set(range(6)))) == "()(z0)(z1)"
    (nest,) = plan(p, PRESETS["npu-256k"]).nests
    assert nest.axis_groups == "()(z0)(z1)" and nest.tile_sizes[1] == 0  # z1 is in r: never a parallel loop


def test_contraction_and_conv_groups():
    mm = load_payload(ROOT / "payloads/matmul_bias_relu.mlir")
    assert str(nest_groups(mm, 2, {0, 1, 2})) == "()(z0,z1)(k0)"
    conv = load_payload(ROOT / "payloads/conv_bias_relu.mlir")
    assert str(nest_groups(conv, 2, {0, 1, 2})) == "()(z0,z1,z2,z3)(k0,k1,k2)"


def test_transpose_does_not_share_a_contraction_nest():
    p = load_payload(ROOT / "payloads/mlp.mlir")
    transposes = [o.index for o in p.ops if o.name == "linalg.transpose"]
    for nest in plan(p, PRESETS["npu-256k"]).nests:
        if nest.root.name == "linalg.matmul":
            assert not {o.index for o in nest.ops} & set(transposes)
            assert any("axis groups do not merge" in n.text for n in nest.notes)


def test_no_producer_is_recomputed_along_a_tiled_axis():
    """A fused producer must iterate over every axis the forall tiles;
    otherwise each tile along the missing axis would compute it again."""
    for path in sorted((ROOT / "payloads").glob("*.mlir")):
        p = load_payload(path)
        amap = AxisMap(p)
        for target in PRESETS.values():
            for nest in plan(p, target).nests:
                tiled = {f"z{d}" for d, t in enumerate(nest.tile_sizes) if t}
                axes = NestAxes(p, nest.root.index, amap)
                for prod in nest.producers:
                    assert tiled <= set(axes.names(prod.index)), (path.name, nest.id, prod.index)


def test_axes_follow_the_nest_edges_not_the_payload_classes():
    """One tensor feeds a matmul's A (as a producer's init) and, transposed,
    its B: payload-wide, M and N index the same tensor dim. In the matmul's
    nest they stay two axes, and A's producer has M and K, not N."""
    p = load_payload(ROOT / "tests/fuzz_found/shared_tensor_joined_m_and_n.mlir")
    matmul = next(o.index for o in p.ops if o.name == "linalg.matmul")
    producer = next(o.index for o in p.ops if o.name == "linalg.generic" and o.operands[-1].value.kind == "op")
    amap = AxisMap(p)
    assert amap.find(f"op{matmul}.d0") == amap.find(f"op{matmul}.d1")  # the payload's classes join them
    axes = NestAxes(p, matmul, amap)
    assert axes.names(matmul) == ["z0", "z1", "z2"]
    assert axes.names(producer) == ["z0", "z2"]
