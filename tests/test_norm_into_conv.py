"""A batch norm and ReLU in front of a 1x1 NCHW convolution (densenet's
bn-relu-conv layers) computed in the convolution's nest: the im2col copy
reads the norm's rows whole (`p floordiv w`, `p mod w`), so a tile of the
plane in whole rows reads a slice of the norm's output rows alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from ir_helpers import LOOPS, applied_and_compared, ops, parse
from mlir import ir

from schedgen.analysis.axis_groups import INNER, NestAxes
from schedgen.ir.load import load_payload
from schedgen.model.target import CPU_PRESETS
from schedgen.planning.planner import plan

_AVX512 = CPU_PRESETS["cpu-avx512"]
ALL_PARALLEL = _AVX512.model_copy(update={"cpu": _AVX512.cpu.model_copy(update={"parallel_min_ms": 0.0})})


def _norm_conv(directory: Path, c: int, f: int, hw: int) -> Path:
    """relu((x - m[c]) * s[c]) of x: 1 x c x hw x hw, then a 1x1 convolution to f channels (torch's NCHW)."""
    x, y, v = f"tensor<1x{c}x{hw}x{hw}xf32>", f"tensor<1x{f}x{hw}x{hw}xf32>", f"tensor<{c}xf32>"
    w = f"tensor<{f}x{c}x1x1xf32>"
    path = directory / f"norm_conv_{c}_{f}_{hw}.mlir"
    path.write_text(f"""#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @norm_conv(%x: {x}, %m: {v}, %s: {v}, %w: {w}) -> {y} {{
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : {x}
  %n = linalg.generic {{indexing_maps = [#id, #ch, #ch, #id],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%x, %m, %s : {x}, {v}, {v}) outs(%e0 : {x}) {{
  ^bb0(%a: f32, %b: f32, %k: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = arith.mulf %0, %k : f32
    %2 = arith.maximumf %1, %zero : f32
    linalg.yield %2 : f32
  }} -> {x}
  %e = tensor.empty() : {y}
  %f = linalg.fill ins(%zero : f32) outs(%e : {y}) -> {y}
  %r = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}}
      ins(%n, %w : {x}, {w}) outs(%f : {y}) -> {y}
  return %r : {y}
}}
""")
    return path


@pytest.mark.parametrize("threads", [1, 2])
def test_the_norm_is_computed_in_the_1x1_convolutions_nest(threads: int, tmp_path: Path) -> None:
    """The norm joins the im2col matmul's nest: its axes are the plane's
    rows (z2) and, whole in every tile, their pixels (z2 + INNER); the nest
    is tiled along the plane in whole rows. In the applied IR the norm's
    generic runs inside the matmul's parallel loop, no buffer of the norm's
    whole output is left, and the numbers match on 1 and 2 threads."""
    payload = _norm_conv(tmp_path, 32, 64, 16)
    loaded = load_payload(payload, cpu=True)
    (norm,) = [o for o in loaded.ops if "arith.subf" in o.body_ops]
    (copy,) = [o for o in loaded.ops if o.index_grains]
    p = plan(loaded, ALL_PARALLEL)
    (nest,) = [n for n in p.nests if copy.index in [o.index for o in n.ops]]
    assert norm.index in [o.index for o in nest.producers], nest
    assert nest.axis_groups.endswith(f"[n:z2{INNER}]"), nest.axis_groups
    names = NestAxes(loaded, nest.root.index).names(norm.index)
    assert names[2:] == ["z2", f"z2{INNER}"], names
    pixels = nest.tile_sizes[2]
    assert pixels % 16 == 0 and nest.forall_tiles >= 2, nest.tile_sizes  # whole rows, a tile per core or more
    module = parse(applied_and_compared(payload, p, threads))
    norm_loops = {_outermost_loop(op) for op in ops(module) if op.name == "arith.subf"}
    fma_loops = {_outermost_loop(op) for op in ops(module) if op.name in ("vector.fma", "vector.contract")}
    assert len(norm_loops) == 1 and norm_loops == fma_loops and None not in norm_loops, (norm_loops, fma_loops)
    shapes = {tuple(ir.ShapedType(r.type).shape) for op in ops(module) for r in op.results
              if isinstance(r.type, ir.MemRefType) and ir.ShapedType(r.type).has_static_shape}
    assert (1, 32, 16, 16) not in shapes, sorted(shapes)  # the norm's whole output is no buffer


def _outermost_loop(op: ir.Operation) -> ir.Operation | None:
    found, parent = None, op.parent
    while parent is not None:
        if parent.name in LOOPS:
            found = parent
        parent = parent.parent
    return found


@pytest.mark.parametrize(("c", "f", "hw", "why"), [
    (512, 512, 7, "weights"),  # 1 MiB of weights (the budget's) read again per tile of the plane
    (32, 64, 14, "whole vectors"),  # rows of 14: no tile of whole rows and whole vectors for each core
])
def test_the_norm_stays_apart_where_tiles_of_whole_rows_cost_more(c: int, f: int, hw: int, why: str,
                                                                  tmp_path: Path) -> None:
    """Fused, the norm (no output-channel axis) keeps the nest to tiles of
    whole rows of the plane: where each would read the convolution's
    weights again (512 x 512 onto 7x7), or where no such tile is also whole
    vectors with one for each core (14x14: halves of 98 pixels, panels of
    32 a quarter empty), it stays apart, and the note says why."""
    loaded = load_payload(_norm_conv(tmp_path, c, f, hw), cpu=True)
    (norm,) = [o for o in loaded.ops if "arith.subf" in o.body_ops]
    p = plan(loaded, ALL_PARALLEL)
    (holder,) = [n for n in p.nests if norm.index in [o.index for o in n.ops]]
    assert holder.root.index == norm.index, holder
    notes = [str(x) for n in p.nests for x in n.notes if f"op{norm.index} " in str(x)]
    assert any(why in x for x in notes), notes
