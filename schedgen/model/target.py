"""Targets: how much local memory one loop body's tiles may use."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from schedgen.errors import SchedgenError
from schedgen.model.cpu import AVX512_2C, CpuInfo, detect_host


class Target(BaseModel):
    name: str
    memory_bytes: int = Field(gt=0, description="local memory that all tiles of one loop body must fit")
    alignment_bytes: int = Field(default=64, gt=0, description="every local buffer starts at a multiple of this")
    # A CPU target: the schedule also tiles for L1 and registers, vectorizes,
    # bufferizes and lowers (schedgen.planning.cpu_levels); memory_bytes is then the
    # per-core L2 that the outer forall's tiles must fit.
    cpu: CpuInfo | None = None

    @property
    def cores(self) -> int:
        return self.cpu.cores if self.cpu else 1


PRESETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target(name="npu-256k", memory_bytes=262144),
        Target(name="cpu-l1", memory_bytes=49152),
        Target(name="cpu-l2", memory_bytes=1048576),
    )
}


# CPU presets: `cpu-avx512` has fixed figures (the CI machine class) so that
# checked-in schedules do not depend on where they were generated;
# `cpu-host` is this machine, detected when asked for.
CPU_PRESETS: dict[str, Target] = {
    "cpu-avx512": Target(name="cpu-avx512", memory_bytes=AVX512_2C.l2_bytes, cpu=AVX512_2C),
}


ALL_PRESETS = [*PRESETS, *CPU_PRESETS, "cpu-host"]


# The least budget of a cpu-host nest. A 512 KiB L2 (Zen 3) made the fit force degenerate tiles: ViT's
# 197-row MLP output (a prime, its epilogue needing the whole K) in 1-row tiles, 5.9 ms for the block
# against 3.6 ms at 1 MiB; a 1000x1000 matmul in K chunks of 20. What spills from L2 stays in the L3
# behind it; the nests were measured on 1-2 MiB L2s.
CPU_MIN_BUDGET = 1 << 20


def host_target() -> Target:
    cpu = detect_host()
    return Target(name="cpu-host", memory_bytes=max(cpu.l2_bytes, CPU_MIN_BUDGET), cpu=cpu)


def load_target(spec: str = "npu-256k", memory: int | None = None) -> Target:
    """A preset name, or a .json / .toml file with `name` and `memory_bytes`;
    `memory` overrides the budget (the name says so)."""
    if spec in PRESETS:
        target = PRESETS[spec]
    elif spec in CPU_PRESETS:
        target = CPU_PRESETS[spec]
    elif spec == "cpu-host":
        target = host_target()
    else:
        path = Path(spec)
        if not path.is_file():
            raise SchedgenError(spec, f"unknown target (presets: {', '.join(ALL_PRESETS)}; "
                                      "or a .json/.toml file)")
        try:
            text = path.read_text()
            data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
            target = Target.model_validate(data)
        except (ValueError, ValidationError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise SchedgenError(spec, f"invalid target file: {first}") from None
    if memory is not None:
        if memory <= 0:
            raise SchedgenError("--memory", f"budget must be positive, got {memory}")
        target = Target(name=f"{target.name}@{memory}", memory_bytes=memory, alignment_bytes=target.alignment_bytes,
                        cpu=target.cpu)
    return target
