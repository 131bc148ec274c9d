"""A convolution's padding (torch's tensor.pad before it) is computed inside
the convolution's channel loop on CPU targets, one padded chunk per trip,
rather than by a nest of its own that writes the whole padded tensor out for
the convolution to read back: deeplabv3's ASPP branches pad a 960x14x14 map
by 12, 24 and 36 (5.5, 14.7 and 28 MB padded). Checked on the plan, on the
schedule as `check` measures it, and by executing it on 1 and 2 threads."""

from __future__ import annotations

from pathlib import Path

import pytest
from ir_helpers import applied_and_compared
from test_costly_two_levels import _dilated_relu
from test_small_planes import AVX2

from schedgen.check.check import check
from schedgen.emit.schedule import render
from schedgen.ir.load import load_payload
from schedgen.planning.planner import plan


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dilation", [2, 12])
def test_a_convolutions_pad_is_computed_in_its_channel_loop(tmp_path: Path, threads: int, dilation: int) -> None:
    """The pad has no nest of its own: the convolution's nest (with its ReLU) takes it into the convolution's
    channel loop and says so. `check` finds the pad there at chunks of the channels with its padded rows and
    columns whole, each chunk padded at most once per core, within the budget; the numbers match the
    untransformed payload's."""
    c, side = 64, 14
    payload = _dilated_relu(tmp_path, c, 32, side, dilation)
    p = plan(load_payload(payload, cpu=True), AVX2)
    pad = next(o.index for o in p.ops if o.name == "tensor.pad")
    conv = next(o.index for o in p.ops if o.name == "linalg.conv_2d_nchw_fchw")
    (nest,) = [n for n in p.nests if pad in {o.index for o in n.ops}]
    assert [o.index for o in nest.loop_producers] == [pad] and nest.loop_into == conv
    assert any(f"op{pad} " in note.text and "reduction loop" in note.text for note in nest.notes), nest.notes
    chunk = next(r.size for r in nest.reduction_tiling if r.op == conv and r.dim == 4)
    assert chunk < c
    schedule = tmp_path / "pad.schedule.mlir"
    schedule.write_text(render(p))
    report = check(payload, schedule)
    assert report.ok and report.computed_once, (report.violations, report.recomputed)
    padded = side + 2 * dilation
    tiles = [t for n in report.nests for t in n.ops if t.label.startswith(f"op{pad} ")]
    assert tiles and all(t.tile == [1, chunk, padded, padded] for t in tiles), [t.tile for t in tiles]
    applied_and_compared(payload, p, threads)
