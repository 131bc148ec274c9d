"""CPU targets: what the multi-level CPU schedule is sized from (cores,
vector registers, cache sizes), detection of the host, and the peak GFLOP/s
figure that `schedgen peak` measures once and caches."""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path

from pydantic import BaseModel, Field

from schedgen.model.openmp import runtime_library

# Waking the MLIR async runtime's sleeping workers cost 0.05-0.15 ms a
# region on the 2-core VMs measured (schedgen.model.openmp).
ASYNC_PARALLEL_MIN_MS = 0.5


class CpuInfo(BaseModel):
    cores: int = Field(ge=1, description="cores the outer forall is split across")
    vector_bits: int = Field(ge=128, description="SIMD register width (512 for AVX-512, 256 for AVX2)")
    vector_registers: int = Field(ge=8, description="SIMD registers (32 for AVX-512, 16 for AVX2)")
    l1_bytes: int = Field(gt=0, description="L1 data cache per core")
    l2_bytes: int = Field(gt=0, description="L2 cache per core")
    l3_bytes: int = Field(gt=0, description="last-level cache, shared")
    model: str = ""
    peak_gflops: float | None = Field(default=None, description="one core, f32 FMA (schedgen peak)")
    # A nest runs on all cores only when one core would take longer than this
    # (0: every nest with a forall). An OpenMP region costs about 0.5 us to
    # start (schedgen.model.openmp): ten times that. Without an OpenMP runtime
    # detect_host says ASYNC_PARALLEL_MIN_MS instead.
    parallel_min_ms: float = Field(default=0.005, ge=0, description="smallest one-core time worth a parallel loop")

    def lanes(self, element_bytes: int = 4) -> int:
        return max(1, self.vector_bits // (8 * element_bytes))


# The CI machine class (2 cores, Sapphire-Rapids-like Xeon): fixed figures, so
# schedules checked in under schedules/ do not depend on the machine that
# regenerates them.
AVX512_2C = CpuInfo(cores=2, vector_bits=512, vector_registers=32, l1_bytes=48 * 1024, l2_bytes=2 * 1024 * 1024,
                    l3_bytes=32 * 1024 * 1024, model="AVX-512, 2 cores (fixed preset)")


def _cache_sizes() -> dict[int, int]:
    """Data/unified cache size by level, from sysfs (cpu0)."""
    sizes: dict[int, int] = {}
    base = Path("/sys/devices/system/cpu/cpu0/cache")
    for index in sorted(base.glob("index*")):
        try:
            kind = (index / "type").read_text().strip()
            level = int((index / "level").read_text())
            text = (index / "size").read_text().strip()
        except (OSError, ValueError):
            continue
        if kind == "Instruction":
            continue
        scale = {"K": 1024, "M": 1024 * 1024, "G": 1024 ** 3}.get(text[-1:], 1)
        sizes[level] = int(text.rstrip("KMG")) * scale
    return sizes


def _cpuinfo() -> tuple[set[str], str]:
    flags: set[str] = set()
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "flags" and not flags:
                flags = set(value.split())
            elif key.strip() == "model name":
                model = value.strip()
    except OSError:
        pass
    return flags, model


def detect_host() -> CpuInfo:
    """This machine: cores available to the process, SIMD width from the CPU
    flags, caches from sysfs (defaults for what cannot be read), and the
    cached peak figure if `schedgen peak` has measured it."""
    flags, model = _cpuinfo()
    if "avx512f" in flags:
        bits, regs = 512, 32
    elif "avx2" in flags or "avx" in flags:
        bits, regs = 256, 16
    else:
        bits, regs = 128, 16
    caches = _cache_sizes()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    info = CpuInfo(cores=cores, vector_bits=bits, vector_registers=regs, l1_bytes=caches.get(1, 32 * 1024),
                   l2_bytes=caches.get(2, 1024 * 1024), l3_bytes=caches.get(3, caches.get(2, 1024 * 1024)),
                   model=model)
    if runtime_library() is None:
        info.parallel_min_ms = ASYNC_PARALLEL_MIN_MS
    cached = read_peak(info)
    return info.model_copy(update={"peak_gflops": cached}) if cached else info


def peak_cache_path() -> Path:
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "schedgen" / "peak.json"


def _peak_key(info: CpuInfo) -> str:
    return f"{info.model}|{info.vector_bits}"


def read_peak(info: CpuInfo) -> float | None:
    try:
        data = json.loads(peak_cache_path().read_text())
        return float(data[_peak_key(info)])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_peak(info: CpuInfo, gflops: float) -> Path:
    path = peak_cache_path()
    try:
        data = json.loads(path.read_text())
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[_peak_key(info)] = round(gflops, 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(tmp, path)
    return path

