"""The runtime that runs a CPU schedule's parallel loops on several threads.

An OpenMP runtime that provides LLVM's `__kmpc_*` entry points (LLVM's
libomp, or Intel's libiomp5 from the `intel-openmp` wheel, a dependency on
x86-64): MLIR's `convert-scf-to-openmp` lowers each `scf.parallel` to an
`omp.parallel` region, and the runtime keeps its workers spinning between
regions, so starting one costs about a microsecond (0.5 us measured on a
2-core AMD EPYC VM: a 16 KiB add, 4.8 us a call on one thread, 5.3 us on
two). Without one, the MLIR async runtime runs them, whose workers sleep
between regions: waking them cost 0.05-0.15 ms a region on the same VMs, so
a BERT layer with every nest parallel ran in 1.03 ms on two threads against
0.15 ms on one.
"""

from __future__ import annotations

import ctypes.util
import os
import sys
from functools import cache
from pathlib import Path

# The variable that names a runtime to use instead of the one found.
ENV = "SCHEDGEN_OPENMP_LIB"
_NAMES = ("libiomp5.so", "libomp.so", "libomp.so.5")


@cache
def runtime_library() -> Path | None:
    """The OpenMP runtime's shared library, or None (then the async runtime)."""
    named = os.environ.get(ENV)
    if named:
        return Path(named) if Path(named).is_file() else None
    # pip installs intel-openmp's library under the environment's lib/.
    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix, str(Path(sys.executable).resolve().parent.parent))):
        for name in _NAMES:
            if (Path(prefix) / "lib" / name).is_file():
                return Path(prefix) / "lib" / name
    for name in ("omp", "iomp5"):
        found = ctypes.util.find_library(name)
        if found:
            return Path(found)
    return None
