"""Property: for any valid payload (tests/random_payloads.py: DAGs of 1-30
ops of fills, elementwise ops, broadcasts, reductions, transposes, matmuls
and convolutions, dims of 1 to 4096, f32/f16/bf16/i32/i8) with any budget
and fuse mode, generate -> apply -> verify passes -- the same numbers, every
loop body within the budget, nothing computed twice -- or generate refuses
with a one-line exit-2 error naming the payload (a budget below the
smallest tile). 200 examples, the same ones on every run (derandomized);
benchmarks/fuzz.py runs more, with fresh seeds; what it found is kept in
tests/fuzz_found/."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_payloads import FuzzConfig, RandomPayload, random_payloads, run_example
from schedule_mutations import CLEAN, MutationCase, run_mutation


# 24 examples, as `make test` must stay under 15 minutes on 2 cores: 120 took 300 s of a 17.5-minute clean-clone
# run on the 2-core AVX2 EPYC (9.5 minutes in all on the AVX-512 one), 60 left 15.6, 40 (77 s) 15.4 once the suite
# had grown, and the VM's slow spells add a minute. benchmarks/fuzz.py runs thousands.
@settings(max_examples=24, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(random_payloads())
def test_random_payloads_verify_or_are_refused(example: RandomPayload):
    with tempfile.TemporaryDirectory(prefix="schedgen-fuzz-") as tmp:
        outcome = run_example(example, Path(tmp))
    assert outcome.kind in ("pass", "refused"), f"{outcome.kind}: {outcome.detail}\n{example.text}"
    if outcome.kind == "refused":
        assert "too small" in outcome.detail or "cannot share one loop nest" in outcome.detail, outcome.detail


FOUND = sorted((Path(__file__).parent / "fuzz_found").glob("*.mlir"))


@pytest.mark.parametrize("payload", FOUND, ids=lambda p: p.stem)
def test_what_fuzzing_found_stays_fixed(payload: Path):
    """Payloads benchmarks/fuzz.py once failed on (their first line says
    how), with the options on their second line: each verifies now, or is
    refused cleanly where the line ends with "(refused)"."""
    options = payload.read_text().splitlines()[1].removeprefix("// schedgen: ").split()
    def option(name: str, default: str) -> str:
        return options[options.index(name) + 1] if name in options else default

    config = FuzzConfig(option("--target", "memory"), option("--footprint", "analytic"))
    example = RandomPayload(payload.read_text(), "", 0, int(option("--memory", "0")), option("--fuse-mode", ""))
    with tempfile.TemporaryDirectory(prefix="schedgen-fuzz-") as tmp:
        outcome = run_example(example, Path(tmp), config)
    assert outcome.kind == ("refused" if options[-1] == "(refused)" else "pass"), outcome.detail


# Hand edits (tests/schedule_mutations.py): a few here, benchmarks/fuzz.py --mutate-schedules runs thousands.
@settings(max_examples=12, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(random_payloads(max_ops=8), st.integers(0, 1 << 30))
def test_hand_edited_schedules_get_a_verdict_or_a_one_line_error(example: RandomPayload, seed: int):
    """apply, check and verify on an edited schedule: a verdict, or one
    line naming the schedule's line; no traceback, no dead process, no
    output file left behind, the inputs untouched."""
    outcome = run_mutation(MutationCase(example, seed), FuzzConfig())
    assert outcome.kind in CLEAN, f"{outcome.mutation}: {outcome.kind}: {outcome.detail}\n{outcome.schedule}"
