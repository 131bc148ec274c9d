"""Hand-edited schedules: a person changes a tile size, deletes a fusion
step, reorders two steps or tiles a dim that should stay whole, then runs
`check`, `apply` and `verify`. A valid edit passes and is applied as
written; an invalid one fails naming the schedule's file:line (a nest over
the budget or an op computed twice: exit 1 naming the nest and the line
that made it; a schedule that does not parse or apply: exit 2). And
`generate` never overwrites an edited schedule without --force."""

from __future__ import annotations

import json
import subprocess
import sys
from math import prod
from pathlib import Path

from conftest import ROOT
from ir_helpers import counts, loop_trips, ops, parse

from schedgen.cli import main as schedgen

MATMUL = ROOT / "payloads/matmul_bias_relu.mlir"
SOFTMAX = ROOT / "payloads/softmax.mlir"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "schedgen.cli", *args], capture_output=True, text=True)


def generate(payload: Path, path: Path, *extra: str) -> list[str]:
    assert schedgen(["generate", str(payload), "-o", str(path), *extra]) == 0
    return path.read_text().splitlines()


def line_of(lines: list[str], text: str) -> int:
    [k] = [k for k, line in enumerate(lines, 1) if text in line]
    return k


def retile(payload: Path, tmp_path: Path, step: str, old: str, new: str) -> tuple[Path, int]:
    """The generated schedule with the tile sizes `old` of the step starting
    `step` changed to `new`, as a person would edit it; and that line."""
    lines = generate(payload, tmp_path / "s.mlir")
    k = line_of(lines, f"{step} tile_sizes {old}")
    lines[k - 1] = lines[k - 1].replace(old, new)
    return write(tmp_path / "edited.mlir", lines), k


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def check_json(payload: Path, schedule: Path) -> tuple[int, dict]:
    proc = run("check", str(payload), str(schedule), "--json")
    return proc.returncode, json.loads(proc.stdout)


def test_check_reports_the_generated_schedule(tmp_path: Path):
    lines = generate(MATMUL, tmp_path / "s.mlir")
    code, report = check_json(MATMUL, tmp_path / "s.mlir")
    assert code == 0 and report["ok"] and report["violations"] == []
    [nest] = report["nests"]
    assert nest["schedule_line"] == line_of(lines, "tile_using_forall %op2")
    assert nest["footprint_bytes"] == nest["planned_bytes"] <= report["budget_bytes"]
    tiles = {o["label"]: (o["tile"], o["tile_bound"]) for o in nest["ops"]}
    # 256x205 output tiles (1024 columns in 5, the last of 204: dynamic,
    # bounded by 205), the matmul's K in steps of 27 inside (38 trips, the
    # last of 25), relu written in place over the matmul's tile: the least
    # traffic that fits
    assert tiles == {"op0 linalg.fill": ([256, None], [256, 205]),
                     "op1 linalg.matmul": ([256, None, None], [256, 205, 27]),
                     "op2 linalg.generic": ([256, None], [256, 205])}
    placed = {o["label"]: o["schedule_line"] for o in nest["ops"]}
    assert placed["op1 linalg.matmul"] == line_of(lines, "tile_using_for %n1_op1")
    assert [lp["trips"] for lp in nest["loops"]] == [[4, 5], [38]]


def test_changed_tile_size_is_applied_as_written(tmp_path: Path):
    edited, k = retile(MATMUL, tmp_path, "tile_using_forall %op2", "[256, 205]", "[64, 128]")
    code, report = check_json(MATMUL, edited)
    assert code == 0, report["violations"]
    [nest] = report["nests"]
    assert {o["label"]: o["tile"] for o in nest["ops"]}["op2 linalg.generic"] == [64, 128]
    assert [lp["trips"] for lp in nest["loops"]] == [[16, 8], [38]]
    assert nest["footprint_bytes"] < nest["planned_bytes"]  # smaller tiles, smaller than the planner's figure
    applied = run("apply", str(MATMUL), str(edited))
    assert applied.returncode == 0
    found = counts(applied.stdout)
    assert found["scf.forall"] == 1 and found["scf.for"] == 1
    assert loop_trips(parse(applied.stdout), "scf.forall") == [[16, 8]]
    verified = run("verify", str(MATMUL), str(edited))
    assert verified.returncode == 0 and "verdict: PASS" in verified.stdout


def test_tile_too_large_names_the_nest_and_its_line(tmp_path: Path):
    edited, k = retile(MATMUL, tmp_path, "tile_using_forall %op2", "[256, 205]", "[256, 256]")
    proc = run("check", str(MATMUL), str(edited))
    assert proc.returncode == 1
    [violation] = [ln for ln in proc.stdout.splitlines() if ln.startswith("violation:")]
    assert f"nest 1 (scf.forall made at {edited}:{k})" in violation and "exceeds the budget of 262144" in violation
    # apply does as it is told; verify measures the same nest and fails
    assert run("apply", str(MATMUL), str(edited)).returncode == 0
    assert run("verify", str(MATMUL), str(edited)).returncode == 1


def test_deleted_fusion_step_leaves_the_producer_untiled(tmp_path: Path):
    """Deleting the last fusion step (the fill) is valid MLIR: the fill stays
    whole outside the loop, 4 MiB over the budget, read by nest 1."""
    lines = generate(MATMUL, tmp_path / "s.mlir")
    k = line_of(lines, "fuse_into_containing_op %op0")
    del lines[k - 1:k + 1]  # the step and its type line
    edited = write(tmp_path / "edited.mlir", lines)
    proc = run("check", str(MATMUL), str(edited))
    assert proc.returncode == 1, proc
    forall = line_of(lines, "tile_using_forall %op2")
    assert (f"violation: op0 linalg.fill ({MATMUL}:8) is not tiled and needs 4194304 bytes, over the budget of "
            f"262144; read by nest 1 (scf.forall made at {edited}:{forall})") in proc.stdout


def test_deleted_fusion_step_in_the_middle_fails_at_its_line(tmp_path: Path):
    """Deleting the matmul's step breaks the chain of loop handles: the next
    step uses a value nothing defines (exit 2 at that line); pointing it at
    the loop instead makes the fill's fusion fail in the interpreter (its
    only user, the matmul, is outside the loop), again at that line."""
    lines = generate(MATMUL, tmp_path / "s.mlir")
    k = line_of(lines, "fuse_into_containing_op %op1")
    del lines[k - 1:k + 1]
    broken = write(tmp_path / "broken.mlir", lines)
    fill = line_of(lines, "fuse_into_containing_op %op0")
    proc = run("check", str(MATMUL), str(broken))
    assert proc.returncode == 2 and proc.stderr.startswith(f"schedgen: error: {broken}:{fill}:")
    assert "undeclared SSA value" in proc.stderr and proc.stdout == ""
    lines[fill - 1] = lines[fill - 1].replace("into %n1_loop1", "into %n1_loop")
    k_loop = line_of(lines, "tile_using_for %n1_op1")  # the K loop of the matmul that is no longer fused
    del lines[k_loop - 1:k_loop + 1]
    rewired = write(tmp_path / "rewired.mlir", lines)
    for verb in ("check", "apply", "verify"):
        proc = run(verb, str(MATMUL), str(rewired))
        assert proc.returncode == 2 and proc.stderr.startswith(f"schedgen: error: {rewired}:{fill}:"), (verb, proc)
        assert "schedule does not apply" in proc.stderr and len(proc.stderr.splitlines()) == 1


def test_reordered_steps(tmp_path: Path):
    """Swapping two independent steps (the matches of two ops) is valid and
    changes nothing; swapping the two fusions (the fill before the matmul
    that reads it) fails at the moved step's line."""
    lines = generate(MATMUL, tmp_path / "s.mlir")
    original = run("apply", str(MATMUL), str(tmp_path / "s.mlir")).stdout
    a, b = line_of(lines, "%match0 = "), line_of(lines, "%match1 = ")
    swapped = lines[:a - 2] + lines[b - 2:b + 4] + lines[a - 2:b - 2] + lines[b + 4:]  # comment, match, split
    valid = write(tmp_path / "valid.mlir", swapped)
    assert line_of(swapped, "%match1 = ") < line_of(swapped, "%match0 = ")
    assert run("check", str(MATMUL), str(valid)).returncode == 0
    assert run("apply", str(MATMUL), str(valid)).stdout == original

    k1, k0 = line_of(lines, "fuse_into_containing_op %op1"), line_of(lines, "fuse_into_containing_op %op0")
    step1, step0 = lines[k1 - 1:k1 + 1], lines[k0 - 1:k0 + 1]
    # as a person would: the fill's step first, on the loop handle, then the matmul's
    step0 = [step0[0].replace("%n1_op0, %n1_loop2", "%n1_op0, %n1_loop1").replace("into %n1_loop1", "into %n1_loop"),
             step0[1]]
    step1 = [step1[0].replace("%n1_op1, %n1_loop1", "%n1_op1, %n1_loop2").replace("into %n1_loop", "into %n1_loop1"),
             step1[1]]
    reordered = lines[:k1 - 1] + step0 + step1 + lines[k0 + 1:]
    bad = write(tmp_path / "bad.mlir", reordered)
    moved = line_of(reordered, "fuse_into_containing_op %op0")
    proc = run("check", str(MATMUL), str(bad))
    assert proc.returncode == 2 and proc.stderr.startswith(f"schedgen: error: {bad}:{moved}:"), proc


def test_tiling_a_dim_that_should_stay_whole(tmp_path: Path):
    """Tiling the softmax's row (its reduction axis) in the division's loop:
    the fused max and sum still need whole rows, so they run once per
    column tile -- four times over. check names the nest and its line."""
    edited, k = retile(SOFTMAX, tmp_path, "tile_using_forall %op5", "[16, 0]", "[16, 256]")
    code, report = check_json(SOFTMAX, edited)
    assert code == 1
    times = {r["label"]: r["times"] for r in report["recomputed"]}
    # the max and the sum, per column tile (the max is fused twice, for the exp of the division's
    # tile and of the sum's row, and the nest's final CSE merges the two identical copies)
    assert times["op1 linalg.generic"] == 4 and times["op4 linalg.generic"] == 4
    assert len(times) == 5  # every producer of the division
    assert any(v.startswith("op1 linalg.generic") and f"nest 1 (scf.forall made at {edited}:{k})" in v
               for v in report["violations"])
    proc = run("verify", str(SOFTMAX), str(edited))
    assert proc.returncode == 1 and "computed 4 times over" in proc.stdout


def test_generate_does_not_overwrite_an_edited_schedule(tmp_path: Path):
    out = tmp_path / "s.mlir"
    lines = generate(MATMUL, out)
    assert schedgen(["generate", str(MATMUL), "-o", str(out)]) == 0  # untouched: regenerated freely
    lines[line_of(lines, "tile_sizes [256, 205]") - 1] = lines[line_of(lines, "tile_sizes [256, 205]") - 1].replace(
        "[256, 205]", "[64, 128]")
    write(out, lines)
    edited = out.read_text()
    proc = run("generate", str(MATMUL), "-o", str(out))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (f"schedgen: error: {out}: exists and is not what schedgen wrote there (edited since?); "
                           "pass --force to overwrite it\n")
    assert out.read_text() == edited
    assert run("generate", str(MATMUL), "-o", str(out), "--force").returncode == 0
    assert "tile_sizes [256, 205]" in out.read_text()
    notes = tmp_path / "notes.mlir"  # not a schedule at all
    notes.write_text("// my notes\n")
    assert run("generate", str(MATMUL), "-o", str(notes)).returncode == 2 and notes.read_text() == "// my notes\n"


def test_tile_size_that_does_not_divide(tmp_path: Path):
    """96 rows of 1024: 10 full tiles and one of 64. The loop body's shapes
    are dynamic; its footprint counts the partial dim at its bound, 96."""
    edited, k = retile(MATMUL, tmp_path, "tile_using_forall %op2", "[256, 205]", "[96, 128]")
    code, report = check_json(MATMUL, edited)
    assert code == 0, report["violations"]
    [nest] = report["nests"]
    assert [lp["trips"] for lp in nest["loops"]] == [[11, 8], [38]]
    ops = {o["label"]: o for o in nest["ops"]}
    assert ops["op1 linalg.matmul"]["tile"] == [None, 128, None]
    assert ops["op1 linalg.matmul"]["tile_bound"] == [96, 128, 27]
    # A 96x27 and B 27x128 chunks, the fill/matmul tile and the bias, 4 bytes
    # each (relu's result is written over the matmul's tile), each rounded up
    # to 64 bytes
    assert nest["footprint_bytes"] == sum(-(-4 * n // 64) * 64 for n in (96 * 27, 27 * 128, 96 * 128, 128))
    assert run("verify", str(MATMUL), str(edited)).returncode == 0


def test_recomputed_ops_that_share_one_location_are_each_named(tmp_path: Path):
    """A named softmax decomposes into six ops that all carry its one source
    location. A hand edit that also tiles the rows' columns recomputes the
    reductions (and what feeds them) per column tile: check names every one
    by its tag, and excuses none as "rewritten by a canonicalization"."""
    from schedgen.check.check import check
    from schedgen.ir.load import load_payload

    payload = ROOT / "tests/data/constructs/named_softmax.mlir"
    model = load_payload(payload)
    assert len({(o.line, o.col) for o in model.ops}) == 1 and len(model.ops) == 6
    schedule = tmp_path / "s.mlir"
    assert schedgen(["generate", str(payload), "--memory", "65536", "-o", str(schedule)]) == 0
    text = schedule.read_text()
    assert "tile_sizes [4, 0]" in text  # 4 rows: the input tile that the max and the exp read is one
    schedule.write_text(text.replace("tile_sizes [4, 0]", "tile_sizes [4, 256]"))
    report = check(payload, schedule)
    names = {r.label for r in report.recomputed}
    # the max and the sum (reductions over the whole row), the exp they read, and their fills
    assert names == {"op0 linalg.fill", "op1 linalg.generic", "op2 linalg.generic", "op3 linalg.fill",
                     "op4 linalg.generic"}, names
    assert all(r.times > 1 for r in report.recomputed)
    assert not any(n.rewritten for n in report.nests)
    assert not report.ok


def _enclosing(op, name: str) -> list:
    """The `name` ops around `op`, innermost first."""
    out, p = [], op.parent
    while p is not None:
        if p.name == name:
            out.append(p)
        p = p.parent
    return out


def test_a_contraction_group_planned_inside_another_contractions_k_loop(tmp_path: Path, verified):
    """The ViT MLP's first matmul group (fill, matmul, GELU) is planned
    inside the second matmul's K loop, over the hidden dim: the 197x768
    hidden activation never goes to main memory. In the applied IR both
    matmuls sit in one scf.for inside one scf.forall, check measures the
    planned footprint with every op computed once, the numbers are
    bit-exact, and the traffic is within 1.5x of the lower bound. A person
    then halves the K chunk by hand: still valid, smaller."""
    from schedgen.ir.apply import apply_schedule
    from schedgen.ir.load import load_payload
    from schedgen.model.target import load_target
    from schedgen.planning.planner import plan

    payload = ROOT / "benchmarks/payloads/vit_mlp.mlir"
    p = plan(load_payload(payload), load_target("npu-256k"))
    [nest] = p.nests
    assert [o.index for o in nest.loop_producers] == [2, 1, 0] and nest.loop_into == 4
    assert p.traffic_bytes <= 1.5 * p.traffic_lower_bound
    lines = generate(payload, tmp_path / "s.mlir", "--target", "npu-256k")
    applied = parse(apply_schedule(payload, tmp_path / "s.mlir"))
    matmuls = [op for op in ops(applied) if op.name == "linalg.matmul"]
    assert len(matmuls) == 2
    loops = [_enclosing(m, "scf.for") for m in matmuls]
    assert all(len(fors) == 1 for fors in loops) and loops[0][0] == loops[1][0]  # one K loop holds both
    assert len(_enclosing(loops[0][0], "scf.forall")) == 1
    report = verified(payload, tmp_path / "s.mlir")
    assert report.ok, report
    [measured] = [n for n in report.nests if n.loop != "untiled"]
    assert measured.footprint_bytes == nest.footprint_bytes
    assert all(o.executions is not None and o.executions * prod(o.tile_bound) >= prod(o.domain) for o in measured.ops)
    assert all(r.max_abs_err == 0 for r in report.results)

    chunk = nest.reduction_tiling[0].size
    k = line_of(lines, f"tile_using_for %n1_op4 tile_sizes [0, 0, {chunk}]")
    lines[k - 1] = lines[k - 1].replace(f"[0, 0, {chunk}]", f"[0, 0, {chunk // 2}]")
    edited = verified(payload, write(tmp_path / "edited.mlir", lines))
    assert edited.ok, edited
    [smaller] = [n for n in edited.nests if n.loop != "untiled"]
    # the chunk-sized tiles shrink: W1's and W2's chunks, the hidden chunk and b1's
    assert smaller.footprint_bytes < measured.footprint_bytes
    assert all(r.max_abs_err == 0 for r in edited.results)
