"""A fuse group that fits no nest is split, not tiled on two levels, when two
levels would move far more bytes than its ops apart: deeplabv3's ASPP
convolutions (dilation 12 and more) with their ReLU had blocks small enough to
hold the dilated window and re-read the whole filter per block (914 MB against
15 MB apart, 10x slower). Checked on the plan, on the applied IR and by
executing it on 1 and 2 threads."""

from __future__ import annotations

from pathlib import Path

import pytest
from ir_helpers import LOOPS, applied_and_compared, enclosing_loop, ops, parse
from mlir import ir
from test_small_planes import AVX2

from schedgen.ir.load import load_payload
from schedgen.planning.planner import plan


def _dilated_relu(directory: Path, c: int, f: int, side: int, dilation: int) -> Path:
    """A 3x3 NCHW convolution of c to f channels with `dilation`, padded to keep side x side, then a ReLU, as
    torch-mlir exports an ASPP branch."""
    p = side + 2 * dilation
    x, y, px = f"tensor<1x{c}x{side}x{side}xf32>", f"tensor<1x{f}x{side}x{side}xf32>", f"tensor<1x{c}x{p}x{p}xf32>"
    payload = directory / f"dilated{dilation}.mlir"
    payload.write_text(f"""#id = affine_map<(a, b, c, d) -> (a, b, c, d)>
func.func @aspp(%x: {x}, %w: tensor<{f}x{c}x3x3xf32>) -> {y} {{
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, {dilation}, {dilation}] high[0, 0, {dilation}, {dilation}] {{
  ^bb0(%a: index, %b: index, %i: index, %j: index):
    tensor.yield %zero : f32
  }} : {x} to {px}
  %e = tensor.empty() : {y}
  %init = linalg.fill ins(%zero : f32) outs(%e : {y}) -> {y}
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<{dilation}> : vector<2xi64>, strides = dense<1> : vector<2xi64>}}
    ins(%p, %w : {px}, tensor<{f}x{c}x3x3xf32>) outs(%init : {y}) -> {y}
  %r = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
    ins(%c : {y}) outs(%e : {y}) {{
  ^bb0(%in: f32, %out: f32):
    %g = arith.cmpf ugt, %in, %zero : f32
    %s = arith.select %g, %in, %zero : f32
    linalg.yield %s : f32
  }} -> {y}
  return %r : {y}
}}
""")
    return payload


def _top_loops(module: ir.Module) -> list[ir.Operation]:
    """The outermost loops of the transformed function: one per nest."""
    return [op for op in ops(module) if op.name in LOOPS and enclosing_loop(op) is None]


@pytest.mark.parametrize("threads", [1, 2])
def test_a_dilated_convolution_whose_two_level_nest_would_cost_is_split_from_its_relu(tmp_path: Path, threads: int):
    """At 64 KiB the convolution (dilation 12) cannot share a nest with its ReLU. The group is split and says
    why with both figures; every nest is one level, each op its own nest, and the plan moves less than 4x the
    per-contraction bound; the applied IR has one outermost loop per nest and computes the same numbers."""
    payload = _dilated_relu(tmp_path, 64, 32, 14, 12)
    p = plan(load_payload(payload, cpu=True), AVX2.model_copy(update={"memory_bytes": 65536}))
    (group,) = p.groups
    assert group.split is not None and "two levels would move" in group.split, group.split
    assert len(group.nests) == 2 and all(n.levels == 1 for n in p.nests), [(n.id, n.levels) for n in p.nests]
    conv = next(o.index for o in p.ops if o.name == "linalg.conv_2d_nchw_fchw")
    relu = next(o.index for o in p.ops if o.name == "linalg.generic")
    roots = {n.root.index: n for n in p.nests}
    assert conv in roots and relu in roots and not roots[relu].producers
    assert p.traffic_bytes < 4 * p.traffic_per_contraction_bound, (p.traffic_bytes, p.traffic_per_contraction_bound)
    module = parse(applied_and_compared(payload, p, threads))
    assert len(_top_loops(module)) == len(p.nests), [op.name for op in _top_loops(module)]
