"""Small output planes and odd column counts on AVX2: a 1x1 NCHW
convolution onto a plane of fewer than 1024 pixels becomes an im2col
matmul along the whole plane (squeezenet's 13x13 classifier, the 7x7 and
14x14 projections of mobilenet_v2 and efficientnet), as does one onto
56x56 with 64 channels or more in and out, and a matmul whose
columns leave one vector and one column after its two-vector panels keeps
those panels, with a last one of one vector and a dot column, as does one
that leaves a single column (a 7x7 plane). Each is checked on the applied
IR and by executing it."""

from __future__ import annotations

from pathlib import Path

import pytest
from ir_helpers import applied_and_compared, matmul_text, ops, parse
from mlir import ir

from schedgen.ir.load import load_payload
from schedgen.model.target import CPU_PRESETS
from schedgen.planning.planner import plan

# AVX2's shape (8 lanes, 16 registers), every nest on both cores.
_AVX512 = CPU_PRESETS["cpu-avx512"]
AVX2 = _AVX512.model_copy(update={"name": "cpu-avx2", "cpu": _AVX512.cpu.model_copy(
    update={"vector_bits": 256, "vector_registers": 16, "parallel_min_ms": 0.0})})
AVX512 = _AVX512.model_copy(update={"cpu": _AVX512.cpu.model_copy(update={"parallel_min_ms": 0.0})})


def _pointwise(directory: Path, c: int, f: int, side: int) -> Path:
    """A 1x1 NCHW convolution of c to f channels onto side x side, with a bias and a ReLU, as torch-mlir
    exports one."""
    x, y = f"tensor<1x{c}x{side}x{side}xf32>", f"tensor<1x{f}x{side}x{side}xf32>"
    payload = directory / f"pointwise{side}.mlir"
    payload.write_text(f"""#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @pointwise(%x: {x}, %w: tensor<{f}x{c}x1x1xf32>, %b: tensor<{f}xf32>) -> {y} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {y}
  %bias = linalg.broadcast ins(%b : tensor<{f}xf32>) outs(%e : {y}) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}}
    ins(%x, %w : {x}, tensor<{f}x{c}x1x1xf32>) outs(%bias : {y}) -> {y}
  %r = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%c : {y}) outs(%e : {y}) {{
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  }} -> {y}
  return %r : {y}
}}
""")
    return payload


def _fma_widths(module: ir.Module) -> set[int]:
    return {ir.VectorType(op.results[0].type).shape[-1] for op in ops(module) if op.name == "vector.fma"}


@pytest.mark.parametrize("threads", [1, 2])
def test_a_1x1_convolution_onto_a_13x13_plane_is_a_matmul_along_the_plane(threads: int, tmp_path: Path) -> None:
    """Along one 13-pixel output row the convolution's kernel filled one
    vector and 5 lanes of another, each FMA waiting on a broadcast
    (squeezenet's 512->1000 classifier: 6.3 ms; 3.2 ms as an im2col
    matmul). Here the plan converts it; the matmul's panels run along the
    169 pixels: ten of two vectors, one of one and a dot column. The
    applied IR holds no convolution and FMAs 16 and 8 wide, and the numbers
    match on 1 and 2 threads. Onto 32x32 the convolution stays."""
    assert load_payload(_pointwise(tmp_path, 16, 8, 32), cpu=True).img2col_convs == ()
    payload = _pointwise(tmp_path, 48, 40, 13)
    p = plan(load_payload(payload, cpu=True), AVX2)
    assert p.img2col_convs and not [o for o in p.ops if o.name.startswith("linalg.conv")], p.img2col_convs
    (k,) = p.kernels
    assert 16 in k.panel_sizes and k.dot_column is not None and k.dot_column.last == 8, k
    module = parse(applied_and_compared(payload, p, threads))
    assert not [op.name for op in ops(module) if op.name.startswith("linalg.conv")]
    assert _fma_widths(module) >= {16, 8}, _fma_widths(module)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_1x1_convolution_with_many_channels_is_a_matmul_onto_a_larger_plane(threads: int, tmp_path: Path) -> None:
    """Onto a plane of 1024 to 4095 pixels (resnet50's and densenet's 56x56)
    a 1x1 convolution becomes a matmul only with 64 channels or more in
    and out: then the matmul packs its panels and each output sums enough
    products to pay for the epilogue's own pass (resnet50_layer1 1.20x
    at 1 thread, 1.14-1.20x at 2); mobilenet_v2's 144 -> 24 projections
    and 24 -> 144 expansions stay convolutions (0.89x at 2 threads
    converted). Onto 40x40, 64 -> 64 channels: the applied IR holds no
    convolution and the numbers match on 1 and 2 threads."""
    assert load_payload(_pointwise(tmp_path, 144, 24, 40), cpu=True).img2col_convs == ()
    assert load_payload(_pointwise(tmp_path, 24, 144, 40), cpu=True).img2col_convs == ()
    assert load_payload(_pointwise(tmp_path, 64, 64, 64), cpu=True).img2col_convs == ()  # 4096 pixels
    payload = _pointwise(tmp_path, 64, 64, 40)
    p = plan(load_payload(payload, cpu=True), AVX2)
    assert p.img2col_convs and not [o for o in p.ops if o.name.startswith("linalg.conv")], p.img2col_convs
    module = parse(applied_and_compared(payload, p, threads))
    assert not [op.name for op in ops(module) if op.name.startswith("linalg.conv")]
    assert 16 in _fma_widths(module), _fma_widths(module)


@pytest.mark.parametrize("threads", [1, 2])
def test_two_vector_panels_end_in_one_vector_and_a_dot_column(threads: int, tmp_path: Path) -> None:
    """25 columns on AVX2 are a panel of 16, one of 8 and a column of dot
    products. With one-vector panels (16 + 9 leaves a 9-wide one, which
    LLVM splits badly) each row's broadcast fed one FMA: a 1000x169x512
    matmul ran at 0.72 of numpy's speed, and at 1.0 so. The rows are 5,
    which divide 40 (the dot column needs rows that do), not 6 and a
    remainder. The applied IR multiplies 16 and 8 wide and sums the
    column's lanes; the numbers match on 1 and 2 threads. On AVX-512 (16
    lanes) the panels are one vector as before."""
    payload = tmp_path / "mm25.mlir"
    payload.write_text(matmul_text(40, 25, 64))
    (wide,) = plan(load_payload(payload, cpu=True), AVX512).kernels
    assert wide.panel_sizes == [0, 16] and wide.dot_column is None, wide
    p = plan(load_payload(payload, cpu=True), AVX2)
    (k,) = p.kernels
    assert k.panel_sizes == [0, 16] and k.row_sizes == [5, 0], k
    assert k.dot_column is not None and (k.dot_column.at, k.dot_column.last) == (24, 8), k.dot_column
    module = parse(applied_and_compared(payload, p, threads))
    assert _fma_widths(module) == {16, 8}, _fma_widths(module)
    assert "vector.reduction" in {op.name for op in ops(module)}


_RELU = """  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]} ins(%r : tensor<512x49xf32>) outs(%e : tensor<512x49xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %z : f32
    linalg.yield %m : f32
  } -> tensor<512x49xf32>
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_a_7x7_planes_last_column_is_dot_products_under_rows_that_divide(threads: int, tmp_path: Path) -> None:
    """49 columns (a 7x7 plane) in two-vector panels leave one column. In
    256-row tiles the kernel took 6 rows and a peeled remainder of 4, and
    the column ran as a panel of its own, each FMA filling one lane of 16.
    A dot column needs rows that divide, so a kernel that is its own root
    now takes 4 rows and the column as dot products (resnet18's 512x49x4608
    layer-4 matmuls 9-15% faster at 1 and 2 threads). The applied IR has
    FMAs 16 wide only (a one-column panel's are one wide) and sums the
    column's lanes, and the numbers match. With a ReLU computed in its
    register tiles the kernel is not its own root, has no dot column and
    keeps its 6 rows."""
    payload = tmp_path / "mm49.mlir"
    payload.write_text(matmul_text(512, 49, 64))
    p = plan(load_payload(payload, cpu=True), AVX2)
    (k,) = p.kernels
    assert k.extents == [256, 49] and k.row_sizes == [4, 0], k
    assert k.dot_column is not None and (k.dot_column.at, k.dot_column.last) == (48, 16), k.dot_column
    module = parse(applied_and_compared(payload, p, threads))
    assert _fma_widths(module) == {16}, _fma_widths(module)
    assert "vector.reduction" in {op.name for op in ops(module)}
    relu = tmp_path / "mm49_relu.mlir"
    relu.write_text(matmul_text(512, 49, 64).replace("  return %r", _RELU + "  return %y"))
    (chained,) = plan(load_payload(relu, cpu=True), AVX2).kernels
    assert chained.root != chained.contraction and chained.dot_column is None, chained
    assert 6 in chained.row_sizes, chained


_DEPTHWISE_THEN_POINTWISE = """#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @block(%x: tensor<1x16x16x16xf32>, %dw: tensor<16x3x3xf32>, %w: tensor<24x16x1x1xf32>)
    -> tensor<1x24x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<1x16x14x14xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x, %dw : tensor<1x16x16x16xf32>, tensor<16x3x3xf32>) outs(%f : tensor<1x16x14x14xf32>)
    -> tensor<1x16x14x14xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%d : tensor<1x16x14x14xf32>) outs(%e : tensor<1x16x14x14xf32>) {
  ^bb0(%in: f32, %o: f32):
    %lo = arith.maximumf %in, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x16x14x14xf32>
  %pe = tensor.empty() : tensor<1x24x14x14xf32>
  %pf = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x24x14x14xf32>) -> tensor<1x24x14x14xf32>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%r, %w : tensor<1x16x14x14xf32>, tensor<24x16x1x1xf32>) outs(%pf : tensor<1x24x14x14xf32>)
    -> tensor<1x24x14x14xf32>
  return %p : tensor<1x24x14x14xf32>
}
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_an_im2col_copy_stays_out_of_the_depthwise_convolutions_group_before_it(
        threads: int, tmp_path: Path) -> None:
    """A MobileNet block's depthwise convolution and its ReLU6 feed a 1x1
    projection onto 14x14, now an im2col matmul. Its copy, an elementwise
    reader of the ReLU6, had joined the depthwise convolution's fuse
    group, which then could share no nest and ran untiled on one core (a
    mobilenet block 0.71x as fast, 0.51x on 2 threads). The group ends
    before the copy and is tiled; the numbers match on 1 and 2 threads."""
    payload = tmp_path / "block.mlir"
    payload.write_text(_DEPTHWISE_THEN_POINTWISE)
    loaded = load_payload(payload, cpu=True)
    (copy,) = [o.index for o in loaded.ops if o.gather]
    p = plan(loaded, AVX2)
    (dw,) = [g for g in p.groups if loaded.ops[g.principal].name == "linalg.depthwise_conv_2d_nchw_chw"]
    assert copy not in dw.members and dw.nests and not p.untiled, (dw, p.untiled)
    applied_and_compared(payload, p, threads)
