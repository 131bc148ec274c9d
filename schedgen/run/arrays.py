"""Inputs and outputs as numpy arrays: element types, seeded random inputs,
inputs read from an .npz, and the files the execution child exchanges."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

from schedgen.errors import SchedgenError

# Element type as MLIR prints it -> numpy dtype. i1 is a byte per element in
# LLVM memory, like numpy's bool; bf16 comes from ml_dtypes (as the MLIR
# runtime's own numpy bridge expects).
_NP_DTYPES: dict[str, np.dtype[Any]] = {
    "f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype(np.float32), "f64": np.dtype(np.float64),
    "i1": np.dtype(np.bool_), "i8": np.dtype(np.int8), "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32), "i64": np.dtype(np.int64), "index": np.dtype(np.int64),
}


def numpy_dtype(element_type: str) -> np.dtype[Any]:
    """numpy dtype for an MLIR element type string ("f32") or a numpy name."""
    if element_type in _NP_DTYPES:
        return _NP_DTYPES[element_type]
    try:
        dt = np.dtype(element_type)
    except TypeError:
        raise ValueError(f"unsupported element type {element_type!r}") from None
    if dt not in _NP_DTYPES.values():
        raise ValueError(f"unsupported element type {element_type!r}")
    return dt


def random_inputs(arg_types: list[tuple[tuple[int, ...], str]], seed: int) -> list[np.ndarray]:
    """One array per (shape, element type), the same for the same seed:
    floats uniform in [-1, 1] (mixed signs, so relu-like ops matter; no
    overflow in exp or long sums), integers in [0, 8], i1 a fair coin. Small
    integers keep i32 results exact; i8 sums may wrap, but wrapping arithmetic
    is associative, so a tiled payload must still match bit for bit."""
    rng = np.random.default_rng(seed)
    out: list[np.ndarray] = []
    for shape, etype in arg_types:
        dt = numpy_dtype(etype)
        if dt == np.bool_:
            arr = rng.integers(0, 2, size=shape).astype(np.bool_)
        elif np.issubdtype(dt, np.integer):
            # small and non-negative: integer arguments of models are indices (token ids
            # that an embedding's bounds check would reject when negative)
            arr = rng.integers(0, 9, size=shape).astype(dt)
        else:
            arr = rng.uniform(-1.0, 1.0, size=shape).astype(dt)
        out.append(np.ascontiguousarray(arr).reshape(shape))  # (0-d stays 0-d: a scalar argument)
    return out


def read_inputs(path: Path | str, arg_types: list[tuple[tuple[int, ...], str]]) -> tuple[list[np.ndarray],
                                                                                       list[np.ndarray]]:
    """Inputs (in_0, in_1, ... in argument order; or arr_0, ...) and saved
    reference outputs (out_0, ...) from an .npz; SchedgenError when they do
    not fit the function's arguments."""
    path = Path(path)
    try:
        npz = np.load(path)
    except (OSError, ValueError) as exc:
        raise SchedgenError(str(path), f"cannot read inputs: {exc}") from None
    with npz:
        names = set(npz.files)
        prefix = "in_" if "in_0" in names else "arr_"
        inputs = [npz[f"{prefix}{i}"] for i in range(len(arg_types)) if f"{prefix}{i}" in names]
        outputs = [npz[f"out_{i}"] for i in range(len(names)) if f"out_{i}" in names]
    if len(inputs) != len(arg_types):
        raise SchedgenError(str(path), f"holds {len(inputs)} inputs ({prefix}0, ...), the function takes "
                            f"{len(arg_types)} arguments")
    out = []
    for i, (arr, (shape, etype)) in enumerate(zip(inputs, arg_types)):
        want = numpy_dtype(etype)
        if tuple(arr.shape) != tuple(shape):
            raise SchedgenError(str(path), f"input {i} has shape {list(arr.shape)}, argument {i} is {list(shape)}")
        if arr.dtype != want:
            raise SchedgenError(str(path), f"input {i} is {arr.dtype}, argument {i} is {etype}")
        out.append(np.ascontiguousarray(arr).reshape(shape))  # (0-d stays 0-d: a scalar argument)
    return out, outputs


def save_arrays(path: Path, arrays: list[np.ndarray]) -> None:
    """npz keeps only numpy's own dtypes (bf16 would come back as void16):
    every array is stored as its raw bytes' unsigned view, with its dtype name."""
    names = np.array([a.dtype.name for a in arrays])
    np.savez(path, names, *[a.view(f"u{a.dtype.itemsize}") if a.dtype.kind == "V" else a for a in arrays])


def load_arrays(path: Path) -> list[np.ndarray]:
    with np.load(path) as npz:
        names = [str(n) for n in npz["arr_0"]]
        return [npz[f"arr_{i + 1}"].view(numpy_dtype(n)) for i, n in enumerate(names)]

