"""The payload model, read with the MLIR bindings."""

from __future__ import annotations

import pytest
from conftest import ROOT

from schedgen.errors import SchedgenError
from schedgen.ir.load import load_payload
from schedgen.model.payload import Use, ValueRef


def test_matmul_bias_relu_model():
    p = load_payload(ROOT / "payloads/matmul_bias_relu.mlir")
    assert p.func_name == "matmul_bias_relu"
    assert [op.name for op in p.ops] == ["linalg.fill", "linalg.matmul", "linalg.generic"]
    fill, mm, relu = p.ops
    assert mm.domain == (1024, 1024, 1024)
    assert mm.iterators == ("parallel", "parallel", "reduction")
    assert [o.indexing_map for o in mm.operands] == [
        "(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)", "(d0, d1, d2) -> (d0, d1)"]
    assert mm.operands[2].value == ValueRef("op", 0) and mm.operands[2].is_init
    assert relu.operands[1].value == ValueRef("arg", 2) and relu.operands[1].shape == (1024,)
    assert relu.results[0].users == (Use("return", 0),)
    assert fill.results[0].users == (Use("op", 1),)
    assert p.returns == (ValueRef("op", 2),)
    assert (mm.line, relu.line) == (9, 11)


def test_conv_domain_and_window_maps():
    p = load_payload(ROOT / "payloads/conv_bias_relu.mlir")
    conv = p.ops[1]
    assert conv.name == "linalg.conv_2d_nhwc_hwcf"
    assert conv.domain == (5, 80, 100, 128, 3, 3, 128)
    assert conv.iterators == ("parallel",) * 4 + ("reduction",) * 3
    assert conv.operands[0].indexing_map == "(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)"


def test_users_that_are_not_tileable(tmp_path):
    src = tmp_path / "expand.mlir"
    src.write_text("""
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x8xf32>) -> tensor<2x2x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.absf %x : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %x = tensor.expand_shape %r [[0, 1], [2]] output_shape [2, 2, 8] : tensor<4x8xf32> into tensor<2x2x8xf32>
  return %x : tensor<2x2x8xf32>
}
""")
    p = load_payload(src)
    (op,) = p.ops
    (use,) = op.results[0].users
    assert use.kind == "other" and p.others[use.index].name == "tensor.expand_shape"
    assert p.returns[0].kind == "other"


def test_pad_and_pack_are_tileable(tmp_path):
    src = tmp_path / "padpack.mlir"
    src.write_text("""
func.func @f(%a: tensor<30x30xf32>) -> tensor<4x4x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %a low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<30x30xf32> to tensor<32x32xf32>
  %e = tensor.empty() : tensor<4x4x8x8xf32>
  %k = linalg.pack %p inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %e : tensor<32x32xf32> -> tensor<4x4x8x8xf32>
  return %k : tensor<4x4x8x8xf32>
}
""")
    p = load_payload(src)
    assert [(op.name, op.domain, op.iterators) for op in p.ops] == [
        ("tensor.pad", (32, 32), ("parallel", "parallel")),
        ("linalg.pack", (4, 4), ("parallel", "parallel")),  # the packed outer dims
    ]
    assert p.ops[1].operands[0].value == ValueRef("op", 0)


def test_dynamic_shapes_are_refused_naming_the_op(tmp_path):
    src = tmp_path / "dyn.mlir"
    src.write_text("""func.func @f(%a: tensor<?x8xf32>, %b: tensor<8x4xf32>, %c: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x4xf32>) outs(%c : tensor<?x4xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
""")
    with pytest.raises(SchedgenError) as err:
        load_payload(src)
    assert err.value.where.endswith("dyn.mlir:2")
    assert err.value.op == "linalg.matmul"
    assert "has dynamic shape tensor<?x" in err.value.message
