"""Grouped NCHW convolutions strided along the output row (regnet's 3x3
stride-2 ones), and strided NCW, dilated NCHW and NCDHW ones (Whisper's,
skresnet's, r3d's), which MLIR's vectorizer takes at no register tile of the
convolution itself: their output channels are packed into blocks of one or
two vectors and a few output pixels of a row are unrolled inside the
reductions, each pixel's block an accumulator in registers. Checked on the
plan, on the applied IR and by executing it on 1 and 2 threads."""

from __future__ import annotations

from pathlib import Path

import pytest
from ir_helpers import applied_and_compared, ops, parse
from mlir import ir
from test_small_planes import AVX2

from schedgen.ir.load import load_payload
from schedgen.model.plan import InnerTiling
from schedgen.planning.planner import plan

GROUPED = "linalg.conv_2d_ngchw_gfchw"


def _grouped(directory: Path, groups: int, side: int, stride: int) -> Path:
    """A 3x3 convolution of `groups` groups of 16 channels onto a side x side input padded by 1, as
    torch-mlir exports one (pad, expand to groups, convolve, collapse back)."""
    f, p = 16 * groups, side + 2
    o = (p - 3) // stride + 1
    x, w, y = f"tensor<1x{f}x{side}x{side}xf32>", f"tensor<{f}x16x3x3xf32>", f"tensor<1x{f}x{o}x{o}xf32>"
    gx, gw, gy = (f"tensor<1x{groups}x16x{p}x{p}xf32>", f"tensor<{groups}x16x16x3x3xf32>",
                  f"tensor<1x{groups}x16x{o}x{o}xf32>")
    payload = directory / f"grouped_{groups}_{side}_{stride}.mlir"
    payload.write_text(f"""func.func @grouped(%x: {x}, %w: {w}) -> {y} {{
  %zero = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {{
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  }} : {x} to tensor<1x{f}x{p}x{p}xf32>
  %gx = tensor.expand_shape %padded [[0], [1, 2], [3], [4]] output_shape [1, {groups}, 16, {p}, {p}]
    : tensor<1x{f}x{p}x{p}xf32> into {gx}
  %gw = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [{groups}, 16, 16, 3, 3] : {w} into {gw}
  %e = tensor.empty() : {gy}
  %init = linalg.fill ins(%zero : f32) outs(%e : {gy}) -> {gy}
  %c = linalg.conv_2d_ngchw_gfchw {{dilations = dense<1> : vector<2xi64>, strides = dense<{stride}> : vector<2xi64>}}
    ins(%gx, %gw : {gx}, {gw}) outs(%init : {gy}) -> {gy}
  %y = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : {gy} into {y}
  return %y : {y}
}}
""")
    return payload


def _vector_width(op: ir.Operation) -> int | None:
    t = op.results[0].type
    return ir.VectorType(t).shape[-1] if isinstance(t, ir.VectorType) else None


def _packs_pixels(payload: Path, name: str, block: int, pixels: int, threads: int,
                  padded: bool = False) -> InnerTiling:
    """`name`'s convolution in `payload`, planned for AVX2, gets no register kernel but output channels packed
    in blocks of `block` with `pixels` pixels unrolled (its accumulators counted in 8-lane vectors); in the
    applied IR no linalg op is left (but, if `padded`, the zero fills of padded pack tiles, linalg.map, which
    the lowering makes loops), every multiply is `block` wide and may contract into an FMA, and a
    reduction loop carries the pixels' blocks; the numbers match on `threads` threads. Returns its tiling."""
    p = plan(load_payload(payload, cpu=True), AVX2)
    conv = next(o.index for o in p.ops if o.name == name)
    assert not [k for k in p.kernels if conv in k.ops]
    (t,) = [t for t in p.inner if t.op == conv]
    assert (t.channel_block, t.unroll, t.accumulators, t.scalar) == (block, pixels, pixels * block // 8, None)
    module = parse(applied_and_compared(payload, p, threads))
    left = {op.name for op in ops(module) if op.name.startswith("linalg.")}
    assert left <= ({"linalg.map", "linalg.yield"} if padded else set()), left
    multiplies = [op for op in ops(module) if op.name == "arith.mulf"]
    assert multiplies and {_vector_width(op) for op in multiplies} == {block}, [_vector_width(op) for op in multiplies]
    assert all("contract" in str(op.attributes["fastmath"]) for op in multiplies)
    carried = [sum(1 for r in op.results if str(r.type) == f"vector<{block}xf32>")
               for op in ops(module) if op.name == "scf.for"]
    assert max(carried) == pixels, carried
    return t


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(("side", "block", "pixels"), [(16, 16, 4), (14, 8, 7)])
def test_a_strided_grouped_convolution_unrolls_pixels_of_packed_output_channels(
        side: int, block: int, pixels: int, threads: int, tmp_path: Path) -> None:
    """On AVX2, onto an 8-wide row: blocks of two vectors (16 channels) and 4
    pixels, 8 accumulators; onto a 7-wide one, which 4 does not divide:
    blocks of one vector and 7 pixels, 7 accumulators. The convolution gets
    no register kernel (it would be scalar: a stride, not one loop dim). In
    the applied IR no linalg op is left, every multiply is `block` wide and
    may contract into an FMA, none is scalar, and a reduction loop carries
    the pixels' blocks as accumulators, one per pixel; the numbers match
    on 1 and 2 threads."""
    _packs_pixels(_grouped(tmp_path, 2, side, 2), GROUPED, block, pixels, threads)


def test_a_grouped_convolution_of_stride_1_keeps_its_register_kernel(tmp_path: Path) -> None:
    """Stride 1 reads plain windows, which a register kernel along the
    output row vectorizes (faster than the packed one: 0.35 against 0.41 ms
    onto 28x28): no packing."""
    payload = _grouped(tmp_path, 2, 14, 1)
    p = plan(load_payload(payload, cpu=True), AVX2)
    conv = next(o.index for o in p.ops if o.name == GROUPED)
    (k,) = [k for k in p.kernels if conv in k.ops]
    assert k.scalar is None
    assert not [t for t in p.inner if t.op == conv and t.channel_block]


def _grouped_1d(directory: Path, groups: int, channels: int, length: int, taps: int) -> Path:
    """wav2vec2's positional convolution as torch-mlir exports it: a grouped 1-D convolution written as
    2-D with a W of 1 (input padded by taps // 2 along H, expanded to groups)."""
    f, p = groups * channels, length + 2 * (taps // 2)
    o = p - taps + 1
    x, w, y = f"tensor<1x{f}x{length}x1xf32>", f"tensor<{f}x{channels}x{taps}x1xf32>", f"tensor<1x{f}x{o}x1xf32>"
    gx, gw = f"tensor<1x{groups}x{channels}x{p}x1xf32>", f"tensor<{groups}x{channels}x{channels}x{taps}x1xf32>"
    gy = f"tensor<1x{groups}x{channels}x{o}x1xf32>"
    payload = directory / f"grouped_1d_{groups}_{length}.mlir"
    payload.write_text(f"""func.func @grouped_1d(%x: {x}, %w: {w}) -> {y} {{
  %zero = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %x low[0, 0, {taps // 2}, 0] high[0, 0, {taps // 2}, 0] {{
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  }} : {x} to tensor<1x{f}x{p}x1xf32>
  %gx = tensor.expand_shape %padded [[0], [1, 2], [3], [4]] output_shape [1, {groups}, {channels}, {p}, 1]
    : tensor<1x{f}x{p}x1xf32> into {gx}
  %gw = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [{groups}, {channels}, {channels}, {taps}, 1]
    : {w} into {gw}
  %e = tensor.empty() : {gy}
  %init = linalg.fill ins(%zero : f32) outs(%e : {gy}) -> {gy}
  %c = linalg.conv_2d_ngchw_gfchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}}
    ins(%gx, %gw : {gx}, {gw}) outs(%init : {gy}) -> {gy}
  %y = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : {gy} into {y}
  return %y : {y}
}}
""")
    return payload


@pytest.mark.parametrize("threads", [1, 2])
def test_a_grouped_1d_convolution_as_2d_has_its_lanes_along_h(threads: int, tmp_path: Path) -> None:
    """A W of 1 is no row to put lanes along: the register kernel takes H,
    the row of a 1-D convolution, with output channels as its rows (each
    loaded input vector shared by all of them). Along the W of 1 it had
    one-lane 'vectors' (wav2vec2's 4-group 16-tap one onto 200 frames: 2.24
    ms, 10% of peak; 0.23 ms so). In the applied IR the convolution's FMAs
    are whole vectors along H (panels of two, a last panel of one: 40 =
    2 x 16 + 8), none scalar; the numbers match on 1 and 2 threads."""
    payload = _grouped_1d(tmp_path, 2, 16, 40, 5)
    p = plan(load_payload(payload, cpu=True), AVX2)
    conv = next(o.index for o in p.ops if o.name == GROUPED)
    (k,) = [k for k in p.kernels if conv in k.ops]
    h = 3  # (n, g, f, oh, ow, c, kh, kw)
    assert k.scalar is None and k.panel_sizes[h] == 16 and k.row_sizes[2] > 1, (k.panel_sizes, k.row_sizes)
    module = parse(applied_and_compared(payload, p, threads))
    widths = [_vector_width(op) for op in ops(module) if op.name in ("vector.fma", "arith.mulf")]
    assert 16 in widths and set(widths) <= {16, 8}, widths


def _strided(directory: Path, name: str, x: list[int], f: int, taps: int, pad: int, stride: int,
             dilation: int) -> Path:
    """A convolution `name` of f filters of taps^k onto input x (NC then k spatial dims), padded by `pad`
    on every side, with the given stride and dilation in every spatial dim, as torch-mlir exports one
    (Whisper's second 1-D one: NCW, 3 taps, padded by 1, stride 2)."""
    k = len(x) - 2
    padded = x[:2] + [s + 2 * pad for s in x[2:]]
    out = [1, f] + [(s - dilation * (taps - 1) - 1) // stride + 1 for s in padded[2:]]
    xt, pt, yt = (f"tensor<{'x'.join(map(str, d))}xf32>" for d in (x, padded, out))
    wt = f"tensor<{f}x{x[1]}x{'x'.join([str(taps)] * k)}xf32>"
    pads = ", ".join(["0", "0"] + [str(pad)] * k)
    args = ", ".join(f"%i{d}: index" for d in range(len(x)))
    payload = directory / f"{name.split('.')[-1]}_{stride}_{dilation}.mlir"
    payload.write_text(f"""func.func @conv(%x: {xt}, %w: {wt}) -> {yt} {{
  %zero = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %x low[{pads}] high[{pads}] {{
  ^bb0({args}):
    tensor.yield %zero : f32
  }} : {xt} to {pt}
  %e = tensor.empty() : {yt}
  %init = linalg.fill ins(%zero : f32) outs(%e : {yt}) -> {yt}
  %y = {name} {{dilations = dense<{dilation}> : vector<{k}xi64>, strides = dense<{stride}> : vector<{k}xi64>}}
    ins(%padded, %w : {pt}, {wt}) outs(%init : {yt}) -> {yt}
  return %y : {yt}
}}
""")
    return payload


@pytest.mark.parametrize("threads", [1, 2])
def test_a_strided_1d_convolution_unrolls_pixels_of_packed_output_channels(threads: int, tmp_path: Path) -> None:
    """An NCW 1-D convolution of stride 2 (Whisper's, wav2vec2's) is a strided
    row like regnet's: 32 output channels onto 20 pixels, on AVX2 blocks of
    two vectors and 5 pixels (10 accumulators), no register kernel. Scalar,
    Whisper's 128 -> 128 onto 100 frames took 0.53 ms (16% of peak); so 0.10
    (81%)."""
    payload = _strided(tmp_path, "linalg.conv_1d_ncw_fcw", [1, 32, 40], 32, 3, 1, 2, 1)
    _packs_pixels(payload, "linalg.conv_1d_ncw_fcw", 16, 5, threads)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_dilated_strided_nchw_convolution_unrolls_pixels_of_packed_output_channels(
        threads: int, tmp_path: Path) -> None:
    """A 3x3 NCHW convolution of dilation 2 and stride 2 (skresnet18's second
    branch) is not made an im2col copy and a matmul (upstream's rewrite
    wants unit dilations), so it is packed like regnet's: 32 channels onto
    a 10-wide row, blocks of two vectors and 5 pixels. Scalar, skresnet18's
    three took 15-16 ms each, and the model ran at 0.60x PyTorch's speed."""
    payload = _strided(tmp_path, "linalg.conv_2d_nchw_fchw", [1, 16, 20, 20], 32, 3, 2, 2, 2)
    _packs_pixels(payload, "linalg.conv_2d_nchw_fchw", 16, 5, threads)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_strided_3d_convolution_unrolls_pixels_of_packed_output_channels(threads: int, tmp_path: Path) -> None:
    """A 3x3x3 NCDHW convolution of stride 2 (r3d_18's stage entries), which
    no img2col step takes: 32 channels onto 2x5x5, blocks of two vectors
    and 5 pixels. Scalar, r3d_18 ran at 0.73x PyTorch's speed; so 2.1x."""
    payload = _strided(tmp_path, "linalg.conv_3d_ncdhw_fcdhw", [1, 16, 4, 10, 10], 32, 3, 1, 2, 1)
    _packs_pixels(payload, "linalg.conv_3d_ncdhw_fcdhw", 16, 5, threads)


@pytest.mark.parametrize("threads", [1, 2])
def test_output_channels_in_no_whole_number_of_vectors_are_packed_with_a_zero_padded_last_block(
        threads: int, tmp_path: Path) -> None:
    """20 output channels on AVX2 (two and a half vectors), like r2plus1d_18's 230, 460 and 921 of stride
    2: packed all the same, the last block padded with zeros by linalg.pack and dropped by the unpack,
    2 forall tiles of 10, each in blocks of two vectors and 5 pixels. Scalar, r2plus1d_18's ran at 4.1 GFLOP/s; so 57."""
    payload = _strided(tmp_path, "linalg.conv_3d_ncdhw_fcdhw", [1, 16, 4, 10, 10], 20, 3, 1, 2, 1)
    t = _packs_pixels(payload, "linalg.conv_3d_ncdhw_fcdhw", 16, 5, threads, padded=True)
    assert t.extents[1] % t.channel_block, (t.extents, t.channel_block)
