"""schedules/ holds one schedule per bundled payload and target preset, as
the current planner and templates write them (`make schedules`)."""

from __future__ import annotations

from schedgen.schedules import ROOT, expected


def test_checked_in_schedules_are_fresh():
    want = expected()
    have = {p.name: p.read_text() for p in (ROOT / "schedules").glob("*.mlir")}
    assert sorted(have) == sorted(want), "run `make schedules`"
    stale = [name for name in want if have[name] != want[name]]
    assert not stale, f"stale schedules (run `make schedules`): {stale}"
