"""Shared fixtures: repository paths, and the original payloads' outputs
computed once per session (the untiled payload is the slow run)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from schedgen.ir.load import load_payload
from schedgen.model.cpu import CpuInfo
from schedgen.model.target import Target
from schedgen.run.arrays import random_inputs, read_inputs
from schedgen.run.execute import run_function

ROOT = Path(__file__).resolve().parent.parent
PAYLOADS = sorted((ROOT / "payloads").glob("*.mlir"))

# The machine class of the sessions' measurements: 2 AVX2 cores, 16 registers, a 1 MiB budget (cpu-host's least).
AVX2 = Target(name="cpu-avx2", memory_bytes=1 << 20,
              cpu=CpuInfo(cores=2, vector_bits=256, vector_registers=16, l1_bytes=32 * 1024,
                          l2_bytes=512 * 1024, l3_bytes=32 * 1024 * 1024, model="AVX2, 2 cores (test)"))


@pytest.fixture(scope="session")
def original_outputs():
    cache: dict[tuple[str, int, str], list[np.ndarray]] = {}

    def get(payload: Path, seed: int = 0, inputs_path: Path | None = None) -> list[np.ndarray]:
        key = (str(payload), seed, str(inputs_path))
        if key not in cache:
            model = load_payload(payload)
            inputs = read_inputs(inputs_path, list(model.arg_types))[0] if inputs_path \
                else random_inputs(list(model.arg_types), seed)
            cache[key] = run_function(payload.read_text(), model.func_name, inputs)
        return cache[key]

    return get


@pytest.fixture(scope="session")
def verified(original_outputs):
    """`verify` against the original outputs computed once per session, and
    without executing again a transformed payload some test already ran
    (precise and analytic plans, fuse modes and tests often give the same IR)."""
    executed: dict = {}

    def run(payload: Path, schedule: Path, **kwargs):
        from schedgen.check.verify import verify
        return verify(payload, schedule, expected=original_outputs(payload), executed=executed, **kwargs)

    return run


def assert_traffic_as_planned(nests) -> None:
    """Every nest's main-memory traffic, measured on the applied IR
    (analysis/measure_traffic.py), is the planner's figure: to the byte, but
    that a window's last tile (a convolution's or a pool's input), clipped
    at the input's edge, moves a little less than the model's full window."""
    for n in nests:
        if n.planned_traffic_bytes is not None:
            assert n.traffic_exact and n.traffic_bytes is not None, (n.id, n.problem)
            assert n.traffic_bytes <= n.planned_traffic_bytes <= 1.001 * n.traffic_bytes, \
                (n.id, n.traffic_bytes, n.planned_traffic_bytes)


def assert_runs_as_untransformed(payload: Path, transformed: str, seed: int = 0, threads=(1, 2)) -> None:
    """The transformed payload (text) computes the untransformed one's
    numbers on random inputs, on each thread count."""
    from schedgen.run.compare import compare

    model = load_payload(payload)
    inputs = random_inputs(list(model.arg_types), seed)
    expected = run_function(payload.read_text(), model.func_name, inputs)
    for t in threads:
        got = run_function(transformed, model.func_name, inputs, threads=t)
        assert all(c.ok for c in compare(expected, got, [str(e.dtype) for e in expected])), t
