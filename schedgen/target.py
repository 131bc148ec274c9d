"""Targets: how much local memory one loop body's tiles may use."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from schedgen.errors import SchedgenError


class Target(BaseModel):
    name: str
    memory_bytes: int = Field(gt=0, description="local memory that all tiles of one loop body must fit")
    alignment_bytes: int = Field(default=64, gt=0, description="every local buffer starts at a multiple of this")


PRESETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target(name="npu-256k", memory_bytes=262144),
        Target(name="cpu-l1", memory_bytes=49152),
        Target(name="cpu-l2", memory_bytes=1048576),
    )
}


def load_target(spec: str = "npu-256k", memory: int | None = None) -> Target:
    """A preset name, or a .json / .toml file with `name` and `memory_bytes`;
    `memory` overrides the budget (the name says so)."""
    if spec in PRESETS:
        target = PRESETS[spec]
    else:
        path = Path(spec)
        if not path.is_file():
            raise SchedgenError(spec, f"unknown target (presets: {', '.join(PRESETS)}; or a .json/.toml file)")
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
        target = Target(name=f"{target.name}@{memory}", memory_bytes=memory, alignment_bytes=target.alignment_bytes)
    return target
