"""Compare executed results with expected ones, within each element type's
tolerance."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from schedgen.run.arrays import numpy_dtype


@dataclass
class ResultComparison:
    index: int
    shape: tuple[int, ...]
    dtype: str
    max_abs_err: float
    max_rel_err: float
    ok: bool


# (rtol, atol) per dtype. An element passes if
#     |actual - expected| <= atol + rtol * max(|expected|, FLOOR * max|expected|)
# where the max runs over the whole result. Tiling a reduction reorders its
# sums; the rounding error of a sum is relative to the size of its terms, not
# of the sum, so an element that cancels to nearly 0 can be off by far more
# than rtol * |expected|. Flooring |expected| at 1% of the result's largest
# magnitude accepts that (f32: eps * sqrt(K) * |terms| stays well under it for
# reductions of thousands of terms) while a wrong or missing tile is still off
# by O(|terms|). f32 rtol 1e-4 is ~800 ulps; f16 has ~3 decimal digits and
# accumulates in f16, hence 1e-2; bf16 keeps 8 significant bits (eps 2^-8),
# so the same ~20 ulps are 8e-2; integers must match exactly.
_TOLERANCES: dict[str, tuple[float, float]] = {
    "float64": (1e-9, 1e-12),
    "float32": (1e-4, 1e-5),
    "float16": (1e-2, 1e-3),
    "bfloat16": (8e-2, 1e-2),
}


_FLOOR = 1e-2


def tolerance(dtype: str) -> tuple[float, float]:
    """(rtol, atol) for an element type ("f32" or "float32"); (0, 0) = exact."""
    return _TOLERANCES.get(numpy_dtype(dtype).name, (0.0, 0.0))


def compare(expected: list[np.ndarray], actual: list[np.ndarray],
            dtypes: list[str], tol: tuple[float, float] | None = None) -> list[ResultComparison]:
    """Compare result by result (`dtypes` in MLIR or numpy spelling; `tol`:
    (rtol, atol) for floating results instead of the type's own).
    max_rel_err is relative to the floored |expected| of the criterion above.
    A missing result or a shape mismatch fails with infinite error; NaN
    matches only NaN, an infinity only the same infinity."""
    out: list[ResultComparison] = []
    for i in range(max(len(expected), len(actual))):
        ref = expected[i] if i < len(expected) else actual[i]
        name = numpy_dtype(dtypes[i] if i < len(dtypes) else str(ref.dtype)).name
        if i >= len(expected) or i >= len(actual) or expected[i].shape != actual[i].shape:
            out.append(ResultComparison(i, tuple(ref.shape), name, math.inf, math.inf, False))
            continue
        rtol, atol = tol if tol is not None and np.dtype(name).kind == "f" else tolerance(name)
        e = expected[i].astype(np.float64)
        a = actual[i].astype(np.float64)
        with np.errstate(invalid="ignore"):
            diff = np.abs(a - e)  # inf - inf and NaN give NaN
        same = (np.isnan(a) & np.isnan(e)) | (np.isinf(e) & (a == e))
        diff = np.where(same, 0.0, np.where(np.isnan(diff), math.inf, diff))
        finite = np.abs(e[np.isfinite(e)])
        floor = _FLOOR * float(finite.max()) if finite.size else 0.0
        scale = np.maximum(np.where(np.isfinite(e), np.abs(e), 0.0), floor)
        ok = bool(np.all(diff <= atol + rtol * scale))
        # Relative to the same floored scale (at least 1 for exact types, so
        # an integer off by one near zero reads as 1, not as a huge ratio).
        rel = diff / np.maximum(scale, atol if atol > 0 else 1.0)
        out.append(ResultComparison(i, tuple(e.shape), name,
                                    float(diff.max()) if diff.size else 0.0,
                                    float(rel.max()) if rel.size else 0.0, ok))
    return out



def no_further(expected: np.ndarray, actual: np.ndarray, wide: np.ndarray, dtype: str) -> tuple[bool, float, float]:
    """Whether `actual` is about as close to `wide` (the same function
    evaluated in f32) as `expected` is: its largest error at most twice the
    original's, plus the dtype's tolerance. A reordered half-precision sum
    lands elsewhere in the original's own rounding range (which order rounds
    worse on a given input is luck, and the errors are relative to the terms,
    so a sum that cancels has no relative bound); a wrong tile lands outside
    it. Returns the verdict and the largest errors of `actual` and of `expected`."""
    rtol, atol = tolerance(dtype)
    w = wide.astype(np.float64)
    if not w.size:
        return True, 0.0, 0.0
    finite = np.abs(w[np.isfinite(w)])
    largest = float(finite.max()) if finite.size else 0.0
    with np.errstate(invalid="ignore"):
        mine = float(np.nan_to_num(np.abs(actual.astype(np.float64) - w), nan=math.inf).max())
        theirs = float(np.nan_to_num(np.abs(expected.astype(np.float64) - w), nan=math.inf).max())
    return mine <= 2 * theirs + atol + rtol * _FLOOR * largest, mine, theirs
