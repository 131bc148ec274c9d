"""Measurements worth keeping come from an idle machine: `alone` repeats a
measurement during which other processes used more than 10% of a core
(from /proc/stat, against this process's and its children's CPU time)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def _busy() -> float:
    """CPU seconds the whole machine has been busy (all cores)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _ours() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def alone(measure: Callable[[], T], tries: int = 3) -> tuple[T, bool]:
    """(what `measure` returned, whether nothing else used the CPU meanwhile):
    taken again, up to `tries` times, while something else did."""
    for _ in range(tries):
        busy, ours, start = _busy(), _ours(), time.perf_counter()
        value = measure()
        others = (_busy() - busy) - (_ours() - ours)
        if others <= 0.1 * (time.perf_counter() - start):
            return value, True
    return value, False
