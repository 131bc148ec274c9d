"""A model's weights do not pass through schedgen's own process:
`generate`, `check` and `verify` plan on the payload without its
resources' data, `apply` streams the transformed payload from its child to
the output file, and `verify` lets its execution children parse the
payload files themselves. Measured as the peak resident set of a fresh process
(its children apart), against the same verb on a payload without weights.
benchmarks/resources.py prints the same at 100 MB, children included."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from schedgen.cli import main

ROOT = Path(__file__).resolve().parent.parent
N = 2048  # two N x N f32 weights: 32 MiB, 64 MiB of hex in the payload text


def _payload(path: Path, n: int) -> int:
    """Two matmuls on 8 rows with n x n weights as dense_resource blobs (as
    torch-mlir writes parameters); the weights' bytes."""
    t, w = f"tensor<8x{n}xf32>", f"tensor<{n}x{n}xf32>"
    lines = [f"func.func @mlp(%x: {t}) -> {t} {{", "  %zero = arith.constant 0.0 : f32",
             f"  %empty = tensor.empty() : {t}"]
    blobs, cur = [], "%x"
    rng = np.random.default_rng(0)
    for k in range(2):
        lines += [f"  %w{k} = arith.constant dense_resource<w{k}> : {w}",
                  f"  %f{k} = linalg.fill ins(%zero : f32) outs(%empty : {t}) -> {t}",
                  f"  %m{k} = linalg.matmul ins({cur}, %w{k} : {t}, {w}) outs(%f{k} : {t}) -> {t}"]
        cur = f"%m{k}"
        data = (rng.standard_normal((n, n), dtype=np.float32) / n ** 0.5).tobytes()
        blobs.append(f'w{k}: "0x04000000{data.hex()}"')
    lines += [f"  return {cur} : {t}", "}", "{-#", "  dialect_resources: {", "    builtin: {",
              ",\n".join(blobs), "    }", "  }", "#-}"]
    path.write_text("\n".join(lines) + "\n")
    return 2 * n * n * 4


def _own_peak_mb(argv: list[str]) -> float:
    """Peak resident MB of a fresh process that runs one schedgen verb, its
    children apart (VmHWM; ru_maxrss would keep the forking pytest's peak)."""
    code = ("import json, sys; from schedgen.cli import main; c = main(sys.argv[1:]); "
            "kb = next(int(ln.split()[1]) for ln in open('/proc/self/status') if ln.startswith('VmHWM:')); "
            "print(json.dumps([c, kb]))")
    out = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, cwd=ROOT)
    status, kb = json.loads(out.stdout.strip().splitlines()[-1])
    assert status == 0, out.stderr
    return kb / 1024


def test_apply_and_verify_hold_the_weights_at_most_as_the_parse_does(tmp_path: Path) -> None:
    sizes = {"tiny": 64, "big": N}
    growth: dict[str, float] = {}
    peaks: dict[str, dict[str, float]] = {}
    for name, n in sizes.items():
        payload, schedule = tmp_path / f"{name}.mlir", tmp_path / f"{name}.s.mlir"
        nbytes = _payload(payload, n)
        assert main(["generate", str(payload), "--target", "npu-256k", "-o", str(schedule)]) == 0
        peaks[name] = {verb: _own_peak_mb([verb, str(payload), str(schedule), *extra])
                       for verb, extra in (("apply", ["-o", str(tmp_path / f"{name}.out.mlir")]), ("verify", []),
                                           ("check", []))}
        again = tmp_path / f"{name}.again.mlir"
        peaks[name]["generate"] = _own_peak_mb(["generate", str(payload), "--target", "npu-256k", "-o", str(again)])
        assert again.read_text().split("\n", 3)[3] == schedule.read_text().split("\n", 3)[3]  # the same plan
        applied = (tmp_path / f"{name}.out.mlir").read_text()
        assert "dense_resource<w1>" in applied and ("scf.forall" in applied) == (name == "big")
    weights_mb = nbytes / 2 ** 20
    for verb in ("generate", "apply", "verify", "check"):
        growth[verb] = (peaks["big"][verb] - peaks["tiny"][verb]) / weights_mb
    # generate parsed the whole text (2.9 copies) before it left the resources' data out.
    assert growth["generate"] < 0.5, growth
    # apply parses nothing itself; it held the whole text twice before (3.8 copies of the weights).
    assert growth["apply"] < 0.5, growth
    # verify and check plan without the data too; verify's execution children parse the payload.
    # verify held 8.8 copies at first, then 2.7 (its own parse: the text mapped, 2, and the blob, 1).
    assert growth["verify"] < 0.5 and growth["check"] < 0.5, growth


def test_without_resources_keeps_every_line_and_drops_only_the_metadata(tmp_path: Path) -> None:
    """Whatever the chunk size, the text before and after each `{-# ... #-}`
    block is kept and the block becomes the newlines it spanned."""
    from schedgen.ir.context import without_resources

    path = tmp_path / "p.mlir"
    _payload(path, 8)
    text = path.read_bytes()
    head, _, rest = text.partition(b"\n{-#")
    block, _, tail = rest.partition(b"#-}")
    expected = head + b"\n" + b"\n" * block.count(b"\n") + tail
    for chunk in (1, 2, 3, 5, 64, 1 << 20):
        assert without_resources(path, chunk) == expected
    # a block at the very start, two blocks, one that never ends
    path.write_bytes(b"{-#\n x #-}a\n{-# y\n #-}\nb")
    assert [without_resources(path, c) for c in (1, 4, 99)] == [b"\na\n\n\nb"] * 3
    path.write_bytes(b"a\n{-# x")
    assert without_resources(path, 2) is None
    path.write_bytes(b"a{-# x #-}\n")  # not at the start of a line: left to the parser
    assert without_resources(path, 2) is None


@pytest.mark.parametrize("model", ["bert_layer", "resnet_block"])
@pytest.mark.parametrize("footprint", ["analytic", "precise"])
def test_the_plan_without_the_weights_is_the_plan_with_them(model: str, footprint: str) -> None:
    """Planning reads shapes, never values: the schedule is byte for byte the
    one planned on the payload with its weights."""
    from schedgen.emit.schedule import render, tiling_script
    from schedgen.ir.load import load
    from schedgen.model.plan import FuseMode
    from schedgen.model.target import load_target
    from schedgen.planning.planner import plan

    path = ROOT / "corpus" / f"{model}.mlir"
    target = load_target("cpu-host" if footprint == "analytic" else "npu-256k")
    schedules = []
    for weights in (True, False):
        loaded = load(path, weights=weights)
        assert (loaded.text is None) == weights
        schedules.append(render(plan(loaded.model, target, FuseMode.MAX_PRODUCERS, footprint,
                                     tiling=tiling_script, source=loaded)))
    assert schedules[0] == schedules[1]
