"""The checked-in schedules: one per bundled payload and target preset
(the fixed CPU preset included; cpu-host depends on the machine).

`python -m schedgen.schedules` (or `make schedules`) rewrites schedules/;
`tests/test_schedules_fresh.py` fails when a checked-in file differs from
what the current planner and templates produce.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from schedgen.emit.schedule import render
from schedgen.ir.load import load_payload
from schedgen.model.target import CPU_PRESETS, PRESETS
from schedgen.planning.planner import plan

ROOT = Path(__file__).resolve().parent.parent


def expected() -> dict[str, str]:
    """File name under schedules/ -> its text, rendered with repository-
    relative payload paths so the text does not depend on the checkout."""
    out: dict[str, str] = {}
    for payload in sorted((ROOT / "payloads").glob("*.mlir")):
        models = {cpu: replace(load_payload(payload, cpu=cpu), path=str(payload.relative_to(ROOT)))
                  for cpu in (False, True)}
        for name, target in {**PRESETS, **CPU_PRESETS}.items():
            out[f"{payload.stem}.{name}.mlir"] = render(plan(models[target.cpu is not None], target))
    return out


def main() -> None:
    directory = ROOT / "schedules"
    directory.mkdir(exist_ok=True)
    for name, text in expected().items():
        (directory / name).write_text(text)
        print(f"wrote schedules/{name}")


if __name__ == "__main__":
    main()
