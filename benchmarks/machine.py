"""The machine a benchmark's figures belong to: every benchmark prints it
first (figures differ between machines and between sessions)."""

from __future__ import annotations

import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from schedgen.model.cpu import detect_host, read_peak  # noqa: E402


def print_machine() -> float | None:
    """This host's measured peak per core (None before `schedgen peak`), with the host, printed."""
    host = detect_host()
    peak = read_peak(host)
    print(f"{platform.node()}: {host.model}, {host.vector_bits}-bit vectors; peak "
          + (f"{peak:.1f} GFLOP/s per core (schedgen peak)" if peak else "unknown (run `schedgen peak`)"))
    return peak
