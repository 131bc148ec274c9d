"""Precise footprint: simulated loop bodies (extraction, schedule fragment,
loop reduction, bufferization, first-fit address assignment)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PAYLOADS, ROOT

from schedgen.analysis.placement import Buffer, first_fit
from schedgen.cli import main as schedgen
from schedgen.emit.schedule import tiling_script
from schedgen.ir.load import load_payload
from schedgen.model.plan import Plan
from schedgen.model.target import CPU_PRESETS, PRESETS, Target
from schedgen.planning.planner import candidate_nest, plan
from schedgen.planning.precise import PreciseChecker

ROOMY = Target(name="roomy", memory_bytes=1 << 30)  # alignment 64
CHAIN = ROOT / "tests/data/chain3.mlir"  # add bias -> relu -> scale, 64x64 f32


def simulate(path: Path, root: int, members: set[int], sizes: tuple[int, ...]):
    model = load_payload(path)
    nest = candidate_nest(model, ROOMY, root, members, sizes)
    return nest, PreciseChecker(model, ROOMY, tiling_script).check(nest)


def test_single_elementwise_op_writes_in_place():
    nest, sim = simulate(CHAIN, 0, {0}, (8, 16))
    # x tile 8x16 f32 (512 B) and bias tile 16 f32 (64 B); the result tile
    # is written over the x tile, which dies there.
    assert sim.peak == 512 + 64
    assert nest.footprint_bytes == 512 + 64 + 512  # the estimate counts the result apart
    x = next(b for b in sim.buffers if "%arg0" in b.what)
    assert all(b.offset == x.offset for b in sim.buffers if b.in_place_of)


def test_matmul_tile():
    nest, sim = simulate(ROOT / "payloads/matmul_bias_relu.mlir", 1, {0, 1}, (16, 32, 1024))
    # A 16x1024, B 1024x32 and the 16x32 accumulator are live together.
    assert sim.peak == 4 * (16 * 1024 + 1024 * 32 + 16 * 32)
    assert sim.peak <= nest.footprint_bytes


def test_elementwise_chain_reuses_buffers_in_place():
    nest, sim = simulate(CHAIN, 2, {0, 1, 2}, (8, 64))
    # Every op of the chain writes over the tile it reads: one 8x64 tile
    # (2048 B) plus the bias (256 B). The estimate writes in place only over
    # tiles computed in the nest: the x tile and the first result apart.
    assert sim.peak == 2048 + 256
    assert nest.footprint_bytes == 2 * 2048 + 256
    assert sim.peak < nest.footprint_bytes


def test_conv_tile_with_its_halo():
    nest, sim = simulate(ROOT / "payloads/conv_bias_relu.mlir", 1, {1}, (1, 4, 4, 16, 3, 3, 128))
    sizes = sorted(b.bytes for b in sim.buffers)
    # input window 1x6x6x128 (4x4 outputs + a 3x3 halo), filter 3x3x128x16,
    # accumulator 1x4x4x16, all live at the conv.
    assert sizes == sorted([4 * 6 * 6 * 128, 4 * 3 * 3 * 128 * 16, 4 * 4 * 4 * 16])
    assert sim.peak == sum(sizes)


def test_first_fit_reuses_dead_space_and_aligns():
    bufs = [Buffer("a", 100, 1, 2), Buffer("b", 10, 1, 3), Buffer("c", 100, 3, 4)]
    a = first_fit(bufs, 64)
    assert [b.offset for b in bufs] == [0, 128, 0]  # c takes a's place once a is dead
    assert a.peak == 138


def test_loop_reduction_makes_the_cost_independent_of_the_tile_count():
    model = load_payload(CHAIN)
    few = candidate_nest(model, ROOMY, 2, {0, 1, 2}, (32, 32))  # 4 tiles
    many = candidate_nest(model, ROOMY, 2, {0, 1, 2}, (1, 1))  # 4096 tiles
    checker = PreciseChecker(model, ROOMY, tiling_script)
    assert checker.check(few).peak == 4 * 32 * 32 + 128
    assert checker.check(many).peak == 64 + 4  # x at 0, the bias element at the next 64-byte slot
    assert checker.checks == 2
    checker.check(few)
    assert checker.checks == 2  # cached


@pytest.mark.parametrize("target", list(PRESETS))
@pytest.mark.parametrize("payload", PAYLOADS, ids=lambda p: p.stem)
def test_precise_never_smaller_tiles_than_analytic(payload: Path, target: str):
    model = load_payload(payload)
    a: Plan = plan(model, PRESETS[target])
    p: Plan = plan(model, PRESETS[target], footprint_mode="precise", tiling=tiling_script)
    assert [n.root.index for n in p.nests] == [n.root.index for n in a.nests]
    for na, np_ in zip(a.nests, p.nests):
        extents = model.ops[na.root.index].domain
        for d, (ta, tp) in enumerate(zip(na.tile_sizes, np_.tile_sizes)):
            assert (tp or extents[d]) >= (ta or extents[d]), (na.id, d)
        assert np_.footprint_bytes <= PRESETS[target].memory_bytes
        if np_.levels == 2:  # two-level nests keep the analytic figure (README)
            assert np_.footprint_mode == "analytic" and np_.footprint_bytes == na.footprint_bytes
            continue
        assert np_.footprint_bytes <= np_.analytic_footprint_bytes
        assert np_.local_buffers


@pytest.mark.parametrize("payload", PAYLOADS, ids=lambda p: p.stem)
def test_precise_schedules_verify(payload: Path, tmp_path: Path, verified):
    for target in PRESETS:
        schedule = tmp_path / f"{target}.mlir"
        assert schedgen(["generate", str(payload), "--target", target, "--footprint", "precise",
                         "-o", str(schedule)]) == 0
        report = verified(payload, schedule)
        assert report.footprint == "precise"
        assert report.ok, report
        for n in report.nests:
            if n.planned_bytes is not None:
                assert n.footprint_bytes <= n.planned_bytes <= report.budget_bytes


def test_explain_lists_every_buffer(capsys):
    assert schedgen(["explain", str(ROOT / "payloads/softmax.mlir"), "--footprint", "precise"]) == 0
    out = capsys.readouterr().out
    assert "footprint precise" in out and "local buffers" in out and "in place of" in out
    assert schedgen(["explain", str(ROOT / "payloads/softmax.mlir"), "--footprint", "precise", "--json"]) == 0
    nest = Plan.model_validate_json(capsys.readouterr().out).nests[0]
    assert nest.footprint_mode == "precise"
    assert nest.footprint_bytes == max(b.offset + b.bytes for b in nest.local_buffers)


def test_precise_on_a_cpu_target_simulates_the_tiling_stage(tmp_path: Path, verified):
    """On a CPU target the simulation applies only a nest's tiling (not the
    CPU levels, vectorization and lowering, which made one explain run for
    minutes), and the schedule it plans verifies within its figures."""
    payload = ROOT / "payloads/matmul_bias_relu.mlir"
    target = CPU_PRESETS["cpu-avx512"]
    p = plan(load_payload(payload), target, footprint_mode="precise", tiling=tiling_script)
    assert p.precise_checks > 0 and p.nests and all(n.footprint_mode == "precise" for n in p.nests)
    script = tiling_script(p)
    assert "@__transform_main" in script and "schedgen_cpu_levels" not in script and "vectorize" not in script
    schedule = tmp_path / "s.mlir"
    assert schedgen(["generate", str(payload), "--target", "cpu-avx512", "--footprint", "precise",
                     "-o", str(schedule)]) == 0
    assert "schedgen_lower_cpu" in schedule.read_text()  # the written schedule is the whole CPU pipeline
    report = verified(payload, schedule)
    assert report.footprint == "precise" and report.ok, report
    for n in report.nests:
        assert n.planned_bytes is not None and n.footprint_bytes <= n.planned_bytes <= report.budget_bytes
