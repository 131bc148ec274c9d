"""Memory for JIT-compiled code: page-aligned inputs, glibc settings that keep
freed blocks for the next call, and freeing a call's results."""

from __future__ import annotations

from typing import Any

import numpy as np


def c_library() -> Any:
    """The C library the JIT-compiled code allocates with (this process's own)."""
    import ctypes

    libc = ctypes.CDLL(None)
    libc.free.argtypes = [ctypes.c_void_p]
    libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    return libc


def page_aligned(arr: np.ndarray) -> np.ndarray:
    """A C-contiguous copy starting on a page boundary -- a 2 MiB one, with
    transparent huge pages asked for (as numpy does for its large arrays),
    when the array is that large. Vector loads then never straddle cache
    lines by accident, and timings do not swing with where the kernel
    happened to place 4 KiB pages (L2 set conflicts, TLB misses)."""
    nbytes = max(1, arr.nbytes)
    align = _HUGE_PAGE if nbytes >= _HUGE_PAGE else 4096
    raw = np.empty(nbytes + align, dtype=np.uint8)
    start = -raw.ctypes.data % align
    out = raw[start:start + nbytes].view(arr.dtype).reshape(arr.shape)
    if align == _HUGE_PAGE:
        try:
            c_library().madvise(out.ctypes.data, nbytes // _HUGE_PAGE * _HUGE_PAGE, 14)  # MADV_HUGEPAGE
        except (OSError, AttributeError):
            pass
    out[...] = arr
    return out


_HUGE_PAGE = 2 << 20


def keep_freed_memory() -> None:
    """glibc serves large allocations with fresh mmaps and returns them on
    free, so every call of a benchmarked function would page-fault its
    results and local buffers again (and, on several threads, pay for TLB
    shootdowns on munmap). Keep such blocks in the heap instead: a
    benchmark measures the kernel, as a caching allocator would serve it."""
    try:
        libc = c_library()
        libc.mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD: glibc's maximum, 32 MiB
        libc.mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD: keep up to 1 GiB of freed heap
    except (OSError, AttributeError):
        pass


def result_freer(inputs: list[np.ndarray], descs: list[Any]) -> Any:
    """A function that frees the buffers the last call returned (memref.alloc
    lowers to malloc; `allocated` is malloc's pointer), skipping any result
    that is an input's own memory."""
    libc = c_library()
    spans = [(a.ctypes.data, a.ctypes.data + max(1, a.nbytes)) for a in inputs]

    def free_results() -> None:
        freed: set[int] = set()
        for desc in descs:
            ptr = int(desc.allocated)  # a c_longlong field
            # (a memref.global's descriptor carries 0xdeadbeef there: nothing to free)
            if not ptr or ptr == 0xDEADBEEF or ptr in freed or any(lo <= ptr < hi for lo, hi in spans):
                continue
            libc.free(ptr)
            freed.add(ptr)
            desc.allocated = 0
    return free_results

