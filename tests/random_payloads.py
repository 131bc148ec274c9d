"""Random valid payloads for the property test (tests/test_fuzz.py) and
benchmarks/fuzz.py, and the one function both run on each example.

A payload is a DAG of 1-30 tileable ops of one element type (f32, f16, bf16,
i32, i8): fills, elementwise ops (unary, binary, binary with a broadcast
operand), linalg.broadcast, reductions (add or max over some dims, with a
fill init), linalg.transpose, linalg.matmul, linalg.conv_2d_nhwc_hwcf and
torch's linalg.conv_2d_nchw_fchw (with a fill init), and what front ends emit: reductions that keep their
reduced dims as size 1, two-result generics (elementwise, or a sum and a
max), linalg.softmax, tensor.pad, tensor.concat, linalg.pack with or
without padding (and its unpack). Dims are static, 1 to 4096 each, the
primes 127, 197 and 997 among them; each tensor holds at
most MAX_ELEMENTS elements and each op iterates at most MAX_DOMAIN points,
so that the untiled payload executes in milliseconds. Every value nobody
reads is returned, and so are some that are read (fan-out to the return).
"""

from __future__ import annotations

import contextlib
import io
import traceback
from dataclasses import dataclass, field
from math import prod
from pathlib import Path

from hypothesis import strategies as st

from schedgen.model.plan import FuseMode

DTYPES = ("f32", "f16", "bf16", "i32", "i8")
KINDS = ("fill", "unary", "binary", "bias", "broadcast", "reduce", "transpose", "matmul", "conv",
         "keepdim", "multi", "softmax", "pad", "concat", "pack")
PRIMES = (127, 197, 997)  # token counts and vocabularies no power of two divides
MAX_ELEMENTS = 1 << 15
MAX_DOMAIN = 1 << 20
MAX_DIM = 4096

_FLOAT_OPS = ("arith.addf", "arith.subf", "arith.mulf", "arith.maximumf", "arith.minimumf")
_INT_OPS = ("arith.addi", "arith.subi", "arith.muli", "arith.maxsi", "arith.minsi")


@dataclass
class _Value:
    name: str
    shape: tuple[int, ...]
    users: int = 0


@dataclass
class PayloadBuilder:
    """Writes one function, op by op; values are referred to by index."""

    dtype: str
    args: list[int] = field(default_factory=list)
    values: list[_Value] = field(default_factory=list)
    body: list[str] = field(default_factory=list)
    ops: int = 0  # tileable ops written
    empties: dict[tuple[int, ...], str] = field(default_factory=dict)

    @property
    def is_float(self) -> bool:
        return self.dtype.startswith(("f", "bf"))

    def tensor(self, shape: tuple[int, ...]) -> str:
        return f"tensor<{'x'.join(map(str, shape))}x{self.dtype}>"

    def _const(self, value: int) -> str:
        name = f"%c{len(self.body)}"
        literal = f"{float(value)!r}" if self.is_float else str(value)
        self.body.append(f"{name} = arith.constant {literal} : {self.dtype}")
        return name

    def _new(self, shape: tuple[int, ...]) -> int:
        self.values.append(_Value(f"%v{len(self.values)}", shape))
        return len(self.values) - 1

    def _empty(self, shape: tuple[int, ...], shared: bool = True) -> str:
        """One tensor.empty per shape, as torch-mlir's CSE leaves them: ops that write one tensor at
        different tiles (a transpose's producer) then share a destination (`shared` False: a new one)."""
        if shared and shape in self.empties:
            return self.empties[shape]
        name = f"%e{len(self.body)}"
        self.body.append(f"{name} = tensor.empty() : {self.tensor(shape)}")
        if shared:
            self.empties[shape] = name
        return name

    def _use(self, *values: int) -> list[_Value]:
        for v in values:
            self.values[v].users += 1
        return [self.values[v] for v in values]

    def arg(self, shape: tuple[int, ...]) -> int:
        v = self._new(shape)
        self.values[v].name = f"%a{len(self.args)}"
        self.args.append(v)
        return v

    def fill(self, shape: tuple[int, ...], value: int = 0) -> int:
        c, e = self._const(value), self._empty(shape)
        v = self._new(shape)
        t = self.tensor(shape)
        self.body.append(f"{self.values[v].name} = linalg.fill ins({c} : {self.dtype}) outs({e} : {t}) -> {t}")
        self.ops += 1
        return v

    def _generic(self, ins: list[tuple[_Value, list[int]]], out_shape: tuple[int, ...], rank: int,
                 reduced: set[int], out_dims: list[int], init: str | None, body: list[str],
                 out_map: str | None = None, second_init: str | None = None) -> int:
        """One generic; with `second_init`, a second result like the first
        (the values are consecutive: the first's index is returned)."""
        def amap(dims: list[int]) -> str:
            ds = ", ".join(f"d{i}" for i in range(rank))
            return f"affine_map<({ds}) -> ({', '.join(f'd{d}' for d in dims)})>"

        out_t = self.tensor(out_shape)
        inits = [init or self._empty(out_shape)] + ([second_init] if second_init else [])
        out_maps = [out_map or amap(out_dims)] * len(inits)
        maps = ", ".join([amap(dims) for _, dims in ins] + out_maps)
        iters = ", ".join('"reduction"' if d in reduced else '"parallel"' for d in range(rank))
        names = ", ".join(v.name for v, _ in ins)
        types = ", ".join(self.tensor(v.shape) for v, _ in ins)
        outs = ["%out", "%out1"][:len(inits)]
        block = ", ".join([f"%in{i}: {self.dtype}" for i in range(len(ins))] + [f"{o}: {self.dtype}" for o in outs])
        v = self._new(out_shape)
        name = self.values[v].name
        if second_init:
            self._new(out_shape)
            self.values[v].name, self.values[v + 1].name = f"{name}#0", f"{name}#1"
        results = ", ".join([out_t] * len(inits))
        self.body.append(f"{name}{':2' if second_init else ''} = linalg.generic {{indexing_maps = [{maps}], "
                         f"iterator_types = [{iters}]}} ins({names} : {types}) outs({', '.join(inits)} : "
                         f"{results}) {{")
        self.body.append(f"^bb0({block}):")
        self.body.extend("  " + line for line in body)
        self.body.append(f"}} -> ({results})" if second_init else f"}} -> {out_t}")
        self.ops += 1
        return v

    def _op(self, k: int) -> str:
        return (_FLOAT_OPS if self.is_float else _INT_OPS)[k % len(_FLOAT_OPS)]

    def unary(self, x: int, k: int) -> int:
        (vx,) = self._use(x)
        rank = len(vx.shape)
        ident = list(range(rank))
        return self._generic([(vx, ident)], vx.shape, rank, set(), ident, None,
                             [f"%r = {self._op(k)} %in0, %in0 : {self.dtype}", f"linalg.yield %r : {self.dtype}"])

    def binary(self, x: int, y: int, k: int, y_dims: list[int] | None = None) -> int:
        """x op y; y indexed by `y_dims` of x's dims (a broadcast operand) or all of them."""
        vx, vy = self._use(x, y)
        rank = len(vx.shape)
        ident = list(range(rank))
        return self._generic([(vx, ident), (vy, ident if y_dims is None else y_dims)], vx.shape, rank, set(), ident,
                             None, [f"%r = {self._op(k)} %in0, %in1 : {self.dtype}",
                                    f"linalg.yield %r : {self.dtype}"])

    def broadcast(self, x: int, dim: int, size: int) -> int:
        (vx,) = self._use(x)
        shape = vx.shape[:dim] + (size,) + vx.shape[dim:]
        e, v = self._empty(shape), self._new(shape)
        self.body.append(f"{self.values[v].name} = linalg.broadcast ins({vx.name} : {self.tensor(vx.shape)}) "
                         f"outs({e} : {self.tensor(shape)}) dimensions = [{dim}]")
        self.ops += 1
        return v

    def reduce(self, x: int, dims: set[int], use_max: bool) -> int:
        vx = self.values[x]
        rank = len(vx.shape)
        kept = [d for d in range(rank) if d not in dims]
        shape = tuple(vx.shape[d] for d in kept)
        init = self.values[self.fill(shape)].name
        self._use(x)
        op = ("arith.maximumf" if self.is_float else "arith.maxsi") if use_max else self._op(0)
        return self._generic([(vx, list(range(rank)))], shape, rank, dims, kept, init,
                             [f"%r = {op} %in0, %out : {self.dtype}", f"linalg.yield %r : {self.dtype}"])

    def transpose(self, x: int, perm: list[int]) -> int:
        (vx,) = self._use(x)
        shape = tuple(vx.shape[p] for p in perm)
        e, v = self._empty(shape), self._new(shape)
        self.body.append(f"{self.values[v].name} = linalg.transpose ins({vx.name} : {self.tensor(vx.shape)}) "
                         f"outs({e} : {self.tensor(shape)}) permutation = [{', '.join(map(str, perm))}]")
        self.ops += 1
        return v

    def matmul(self, a: int, b: int) -> int:
        va, vb = self.values[a], self.values[b]
        shape = (va.shape[0], vb.shape[1])
        init = self.values[self.fill(shape)].name
        self._use(a, b)
        v = self._new(shape)
        t = self.tensor(shape)
        self.body.append(f"{self.values[v].name} = linalg.matmul ins({va.name}, {vb.name} : "
                         f"{self.tensor(va.shape)}, {self.tensor(vb.shape)}) outs({init} : {t}) -> {t}")
        self.ops += 1
        return v

    def conv(self, x: int, f: int, stride: int, nchw: bool = False) -> int:
        """An NHWC/HWCF convolution, or torch's NCHW/FCHW one (x and f in that layout)."""
        vx, vf = self.values[x], self.values[f]
        if nchw:
            (n, _, h, w), (co, _, kh, kw) = vx.shape, vf.shape
            oh, ow = (h - kh) // stride + 1, (w - kw) // stride + 1
            shape, name, attr = (n, co, oh, ow), "conv_2d_nchw_fchw", "vector"
        else:
            (n, h, w, _), (kh, kw, _, co) = vx.shape, vf.shape
            oh, ow = (h - kh) // stride + 1, (w - kw) // stride + 1
            shape, name, attr = (n, oh, ow, co), "conv_2d_nhwc_hwcf", "tensor"
        init = self.values[self.fill(shape)].name
        self._use(x, f)
        v = self._new(shape)
        t = self.tensor(shape)
        self.body.append(f"{self.values[v].name} = linalg.{name} {{dilations = dense<1> : {attr}<2xi64>, "
                         f"strides = dense<{stride}> : {attr}<2xi64>}} ins({vx.name}, {vf.name} : "
                         f"{self.tensor(vx.shape)}, {self.tensor(vf.shape)}) outs({init} : {t}) -> {t}")
        self.ops += 1
        return v

    def keepdim_reduce(self, x: int, dims: set[int]) -> int:
        """A sum over `dims` that keeps them as size 1, written through a constant map (torch's keepdim)."""
        vx = self.values[x]
        rank = len(vx.shape)
        shape = tuple(1 if d in dims else n for d, n in enumerate(vx.shape))
        init = self.values[self.fill(shape)].name
        self._use(x)
        out = ", ".join("0" if d in dims else f"d{d}" for d in range(rank))
        ds = ", ".join(f"d{i}" for i in range(rank))
        return self._generic([(vx, list(range(rank)))], shape, rank, dims, [], init,
                             [f"%r = {self._op(0)} %in0, %out : {self.dtype}", f"linalg.yield %r : {self.dtype}"],
                             out_map=f"affine_map<({ds}) -> ({out})>")

    def multi(self, x: int, reduced: set[int], k: int) -> tuple[int, int]:
        """One generic, two results: x op x and x (elementwise), or a sum and a max over `reduced`."""
        vx = self.values[x]
        rank = len(vx.shape)
        kept = [d for d in range(rank) if d not in reduced]
        shape = tuple(vx.shape[d] for d in kept)
        inits = [self.values[self.fill(shape)].name, self.values[self.fill(shape, 1)].name] if reduced \
            else [self._empty(shape), self._empty(shape, shared=False)]
        self._use(x)
        mx = ("arith.maximumf" if self.is_float else "arith.maxsi")
        body = [f"%r = {self._op(0)} %in0, %out : {self.dtype}", f"%q = {mx} %in0, %out1 : {self.dtype}"] \
            if reduced else [f"%r = {self._op(k)} %in0, %in0 : {self.dtype}", f"%q = {mx} %in0, %in0 : {self.dtype}"]
        body.append(f"linalg.yield %r, %q : {self.dtype}, {self.dtype}")
        first = self._generic([(vx, list(range(rank)))], shape, rank, reduced, kept, inits[0], body,
                              second_init=inits[1])
        return first, first + 1

    def softmax(self, x: int, dim: int) -> int:
        (vx,) = self._use(x)
        e, v = self._empty(vx.shape), self._new(vx.shape)
        t = self.tensor(vx.shape)
        self.body.append(f"{self.values[v].name} = linalg.softmax dimension({dim}) ins({vx.name} : {t}) "
                         f"outs({e} : {t}) -> {t}")
        self.ops += 1
        return v

    def pad(self, x: int, low: list[int], high: list[int]) -> int:
        (vx,) = self._use(x)
        shape = tuple(n + lo + hi for n, lo, hi in zip(vx.shape, low, high))
        c, v = self._const(0), self._new(shape)
        idx = ", ".join(f"%i{d}: index" for d in range(len(shape)))
        self.body += [f"{self.values[v].name} = tensor.pad {vx.name} low[{', '.join(map(str, low))}] "
                      f"high[{', '.join(map(str, high))}] {{", f"^bb0({idx}):", f"  tensor.yield {c} : {self.dtype}",
                      f"}} : {self.tensor(vx.shape)} to {self.tensor(shape)}"]
        self.ops += 1
        return v

    def concat(self, x: int, y: int, dim: int) -> int:
        vx, vy = self._use(x, y)
        shape = tuple(n + (vy.shape[d] if d == dim else 0) for d, n in enumerate(vx.shape))
        v = self._new(shape)
        self.body.append(f"{self.values[v].name} = tensor.concat dim({dim}) {vx.name}, {vy.name} : "
                         f"({self.tensor(vx.shape)}, {self.tensor(vy.shape)}) -> {self.tensor(shape)}")
        return v  # not a tileable op: a placement in main memory (schedgen.ir.normalize)

    def pack(self, x: int, dims: list[int], tiles: list[int], unpack: bool) -> int:
        """linalg.pack of `dims` by `tiles` (padded where a tile does not divide), and maybe back."""
        (vx,) = self._use(x)
        outer = list(vx.shape)
        for d, t in zip(dims, tiles):
            outer[d] = -(-vx.shape[d] // t)
        shape = tuple(outer) + tuple(tiles)
        e, v = self._empty(shape), self._new(shape)
        divides = all(vx.shape[d] % t == 0 for d, t in zip(dims, tiles))
        pad = "" if divides else f"padding_value({self._const(0)} : {self.dtype}) "
        where = f"inner_dims_pos = [{', '.join(map(str, dims))}] inner_tiles = [{', '.join(map(str, tiles))}]"
        self.body.append(f"{self.values[v].name} = linalg.pack {vx.name} {pad}{where} into {e} : "
                         f"{self.tensor(vx.shape)} -> {self.tensor(shape)}")
        self.ops += 1
        if not unpack:
            return v
        e2, u = self._empty(vx.shape), self._new(vx.shape)
        self.values[v].users += 1
        self.body.append(f"{self.values[u].name} = linalg.unpack {self.values[v].name} {where} into {e2} : "
                         f"{self.tensor(shape)} -> {self.tensor(vx.shape)}")
        self.ops += 1
        return u

    def text(self, extra_returns: list[int]) -> str:
        """The module; returns every op result nobody reads, and `extra_returns`."""
        produced = [i for i in range(len(self.values)) if i not in self.args]
        returned = [i for i in produced if self.values[i].users == 0 or i in extra_returns]
        args = ", ".join(f"{self.values[a].name}: {self.tensor(self.values[a].shape)}" for a in self.args)
        rtypes = ", ".join(self.tensor(self.values[r].shape) for r in returned)
        lines = [f"func.func @fuzz({args}) -> ({rtypes}) {{"]
        lines += ["  " + line for line in self.body]
        lines.append(f"  return {', '.join(self.values[r].name for r in returned)} : {rtypes}")
        lines.append("}")
        return "\n".join(lines) + "\n"


def _dims(draw: st.DrawFn, rank: int, limit: int = MAX_ELEMENTS) -> tuple[int, ...]:
    """`rank` dims, each 1..4096 (small, powers of two, primes and anything), at most `limit` elements."""
    dim = st.one_of(st.integers(1, 16), st.sampled_from([32, 64, 128, 256, 512, 1024, 2048, 4096]),
                    st.sampled_from(PRIMES), st.integers(1, MAX_DIM))
    shape = [draw(dim) for _ in range(rank)]
    while prod(shape) > limit:  # shrink the largest dim until it fits
        i = shape.index(max(shape))
        shape[i] = max(1, shape[i] // 2)
    return tuple(shape)


def _pick(draw: st.DrawFn, b: PayloadBuilder, ok=lambda v: True) -> int | None:
    """An existing value (most recent first, so shrinking favours chains)."""
    cands = [i for i in range(len(b.values)) if ok(b.values[i])]
    if not cands:
        return None
    return cands[len(cands) - 1 - draw(st.integers(0, len(cands) - 1))]


def _rank_at_least(draw: st.DrawFn, b: PayloadBuilder, rank: int) -> int:
    x = _pick(draw, b, lambda v: len(v.shape) >= rank)
    return x if x is not None else b.arg(_dims(draw, draw(st.integers(rank, max(rank, 3)))))


def _add_op(draw: st.DrawFn, b: PayloadBuilder, kind: str) -> None:
    if kind == "fill" or not b.values:
        if kind == "fill":
            b.fill(_dims(draw, draw(st.integers(1, 4))), draw(st.integers(0, 2)))
            return
        b.arg(_dims(draw, draw(st.integers(1, 4))))
    k = draw(st.integers(0, 4))
    if kind == "unary":
        b.unary(_rank_at_least(draw, b, 1), k)
    elif kind == "binary":
        x = _rank_at_least(draw, b, 1)
        shape = b.values[x].shape
        y = _pick(draw, b, lambda v: v.shape == shape) if draw(st.booleans()) else None
        b.binary(x, y if y is not None else b.arg(shape), k)
    elif kind == "bias":  # x op y[kept dims]: a broadcast operand
        x = _rank_at_least(draw, b, 2)
        shape = b.values[x].shape
        kept = sorted(draw(st.sets(st.integers(0, len(shape) - 1), min_size=1, max_size=len(shape) - 1)))
        b.binary(x, b.arg(tuple(shape[d] for d in kept)), k, kept)
    elif kind == "broadcast":
        x = _pick(draw, b, lambda v: len(v.shape) <= 3)
        x = x if x is not None else b.arg(_dims(draw, 2))
        shape = b.values[x].shape
        size = draw(st.integers(1, max(1, min(MAX_DIM, MAX_ELEMENTS // prod(shape)))))
        b.broadcast(x, draw(st.integers(0, len(shape))), size)
    elif kind == "reduce":
        x = _rank_at_least(draw, b, 2)
        rank = len(b.values[x].shape)
        dims = draw(st.sets(st.integers(0, rank - 1), min_size=1, max_size=rank - 1))
        b.reduce(x, dims, draw(st.booleans()))
    elif kind == "transpose":
        x = _rank_at_least(draw, b, 2)
        rank = len(b.values[x].shape)
        perm = draw(st.permutations(list(range(rank))))
        if perm == sorted(perm):
            perm[-2], perm[-1] = perm[-1], perm[-2]
        b.transpose(x, perm)
    elif kind == "matmul":
        a = _pick(draw, b, lambda v: len(v.shape) == 2)
        a = a if a is not None else b.arg(_dims(draw, 2))
        m, kk = b.values[a].shape
        limit = max(1, min(MAX_DIM, MAX_DOMAIN // (m * kk), MAX_ELEMENTS // m, MAX_ELEMENTS // kk))
        bb = _pick(draw, b, lambda v: len(v.shape) == 2 and v.shape[0] == kk and v.shape[1] <= limit) \
            if draw(st.booleans()) else None
        if bb is None and draw(st.booleans()):
            # torch's Linear: the weight stored [out, in] and transposed, out often whole vectors (a
            # register kernel then writes the transpose per panel)
            n = draw(st.one_of(st.integers(1, limit), st.sampled_from([w for w in (16, 32, 64, 96) if w <= limit]
                                                                       or [1])))
            bb = b.transpose(b.arg((n, kk)), [1, 0])
        if bb is None:
            bb = b.arg((kk, draw(st.integers(1, limit))))
        b.matmul(a, bb)
    elif kind in ("keepdim", "multi", "softmax", "pad", "concat", "pack"):
        _add_front_end_op(draw, b, kind, k)
    elif kind == "conv":
        x = _pick(draw, b, lambda v: len(v.shape) == 4)
        x = x if x is not None else b.arg(_dims(draw, 4, MAX_ELEMENTS // 4))
        nchw = draw(st.booleans())  # torch's layout: CPU schedules convert it into im2col and a matmul
        n, h, w, c = b.values[x].shape
        if nchw:
            n, c, h, w = b.values[x].shape
        kh, kw = draw(st.integers(1, min(h, 3))), draw(st.integers(1, min(w, 3)))
        stride = draw(st.sampled_from([1, 1, 2]))
        out = n * ((h - kh) // stride + 1) * ((w - kw) // stride + 1)
        limit = max(1, min(64, MAX_DOMAIN // (out * kh * kw * c), MAX_ELEMENTS // out, MAX_ELEMENTS // (kh * kw * c)))
        co = draw(st.integers(1, limit))
        b.conv(x, b.arg((co, c, kh, kw) if nchw else (kh, kw, c, co)), stride, nchw)


def _add_front_end_op(draw: st.DrawFn, b: PayloadBuilder, kind: str, k: int) -> None:
    """What front ends emit beyond plain linalg: kept unit dims, multi-result
    generics, named softmax, pads, concats, packs (and unpacks)."""
    x = _rank_at_least(draw, b, 2 if kind in ("keepdim", "pack") else 1)
    shape = b.values[x].shape
    rank = len(shape)
    if kind == "keepdim":
        b.keepdim_reduce(x, draw(st.sets(st.integers(0, rank - 1), min_size=1, max_size=rank - 1)))
    elif kind == "multi":
        reduced = draw(st.sets(st.integers(0, rank - 1), max_size=rank - 1)) if rank > 1 else set()
        b.multi(x, reduced, k)
    elif kind == "softmax" and b.is_float:
        b.softmax(x, draw(st.integers(0, rank - 1)))
    elif kind == "pad":
        low = [draw(st.integers(0, 2)) for _ in shape]
        high = [draw(st.integers(0, 2)) for _ in shape]
        if prod(n + lo + hi for n, lo, hi in zip(shape, low, high)) <= MAX_ELEMENTS and any(low + high):
            b.pad(x, low, high)
        else:
            b.unary(x, k)
    elif kind == "concat":
        dim = draw(st.integers(0, rank - 1))
        room = MAX_ELEMENTS // max(1, prod(shape) // shape[dim]) - shape[dim]
        if room < 1:
            b.unary(x, k)
            return
        like = [i for i, v in enumerate(b.values) if len(v.shape) == rank and i != x and v.shape[dim] <= room
                and all(v.shape[d] == shape[d] for d in range(rank) if d != dim)]
        y = like[-1] if like and draw(st.booleans()) else \
            b.arg(tuple(draw(st.integers(1, min(room, 64))) if d == dim else n for d, n in enumerate(shape)))
        b.concat(x, y, dim)
    elif kind == "pack":
        dims = sorted(draw(st.sets(st.integers(0, rank - 1), min_size=1, max_size=2)))
        tiles = [draw(st.sampled_from([2, 4, 8, 16, 3, 5])) for _ in dims]
        padded = prod(-(-n // tiles[dims.index(d)]) * tiles[dims.index(d)] if d in dims else n
                      for d, n in enumerate(shape))
        if padded <= MAX_ELEMENTS:
            b.pack(x, dims, tiles, draw(st.booleans()))
        else:
            b.unary(x, k)
    else:  # softmax of integers: none
        b.unary(x, k)


@dataclass(frozen=True)
class RandomPayload:
    text: str
    dtype: str
    ops: int
    budget: int
    mode: str


@st.composite
def random_payloads(draw: st.DrawFn, max_ops: int = 30) -> RandomPayload:
    """A payload, a budget (256 B to 512 KiB, log-uniform: from about the
    smallest tile of three buffers to more than the largest tensor) and a
    fuse mode."""
    b = PayloadBuilder(draw(st.sampled_from(DTYPES)))
    n = draw(st.integers(1, max_ops))
    while b.ops < n:
        _add_op(draw, b, draw(st.sampled_from(KINDS)))
    produced = [i for i in range(len(b.values)) if i not in b.args]
    extra = draw(st.lists(st.sampled_from(produced), max_size=2)) if produced else []
    # integers, not floats: Hypothesis draws a float range's ends far more often
    budget = int(2 ** (8 + 11 * draw(st.integers(0, 1 << 20)) / (1 << 20)))
    mode = draw(st.sampled_from([m.value for m in FuseMode]))
    return RandomPayload(b.text(extra), b.dtype, b.ops, budget, mode)


# -- one example, end to end ---------------------------------------------------

OUTCOMES = ("pass", "refused", "crash", "mismatch", "overrun", "recomputed")


@dataclass
class Outcome:
    kind: str  # one of OUTCOMES
    detail: str = ""


@dataclass(frozen=True)
class FuzzConfig:
    """Where the examples are planned: `target` "memory" takes each example's
    own random budget (what the memory presets differ in); a CPU preset
    (cpu-host, cpu-avx512) plans its own cache levels and register kernels."""

    target: str = "memory"
    footprint: str = "analytic"

    @property
    def exact(self) -> bool:
        """The memory targets keep every sum's order (tile_search.keeps_order)
        and the payloads run unoptimized: bit for bit. CPU register kernels
        reorder sums: within the element type's tolerance (run/compare.py)."""
        return self.target == "memory"

    def options(self, example: RandomPayload) -> list[str]:
        where = ["--memory", str(example.budget)] if self.target == "memory" else ["--target", self.target]
        return where + ["--fuse-mode", example.mode, "--footprint", self.footprint]


def generate(example: RandomPayload, directory: Path, config: FuzzConfig) -> tuple[int, str, Path, Path]:
    """(exit code, stderr, payload, schedule) of `schedgen generate` on the example."""
    from schedgen.cli import main

    payload = directory / "payload.mlir"
    schedule = directory / "schedule.mlir"
    payload.write_text(example.text)
    schedule.unlink(missing_ok=True)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["generate", str(payload), *config.options(example), "-o", str(schedule)])
    return code, err.getvalue().strip(), payload, schedule


def run_example(example: RandomPayload, directory: Path, config: FuzzConfig = FuzzConfig()) -> Outcome:
    """generate -> apply -> verify, in this process, through the CLI's own
    entry point. A refusal is exit 2 with one line naming the payload; a
    pass needs the same numbers (bit for bit where the target promises it)."""
    from schedgen.check.verify import verify
    from schedgen.errors import ExecutionError, SchedgenError

    code, message, payload, schedule = generate(example, directory, config)
    if code == 2:
        lines = message.splitlines()
        clear = len(lines) == 1 and lines[0].startswith(f"schedgen: error: {payload}") and not schedule.exists()
        # "internal:" is a planner bug said cleanly (a planned schedule that does not apply), not a refusal
        return Outcome("refused" if clear and ": internal:" not in lines[0] else "crash", message)
    if code != 0:
        return Outcome("crash", message)
    try:
        report = verify(payload, schedule)
    except (SchedgenError, ExecutionError) as exc:
        return Outcome("crash", f"{type(exc).__name__}: {exc}")
    except Exception:  # noqa: BLE001  a bug: reported with its traceback
        return Outcome("crash", traceback.format_exc())
    if not report.numbers_ok or (config.exact and any(r.max_abs_err != 0 for r in report.results)):
        return Outcome("mismatch", str([r for r in report.results if r.max_abs_err != 0]))
    if not report.budget_ok:
        return Outcome("overrun", "\n".join(report.check.violations))
    if not report.computed_once:
        return Outcome("recomputed", "\n".join(report.check.violations))
    return Outcome("pass")


def examples(n: int, seed: int) -> list[RandomPayload]:
    """`n` examples drawn by Hypothesis from `random_payloads()`, the same for the same seed."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed

    out: list[RandomPayload] = []

    @hypothesis_seed(seed)
    @settings(max_examples=n, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(random_payloads())
    def collect(example: RandomPayload) -> None:
        out.append(example)

    collect()
    return out[:n]


def _run_in_worker(example: RandomPayload, config: FuzzConfig) -> Outcome:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="schedgen-fuzz-") as tmp:
        return run_example(example, Path(tmp), config)


def run_many(items: list[RandomPayload], jobs: int, config: FuzzConfig = FuzzConfig(), work=None):
    """(example, outcome) for every example, `jobs` worker processes at a
    time, in completion order; `work(example, config)` (run_example by
    default) makes the outcome in the worker. A worker that dies (an LLVM assertion in the
    transform interpreter aborts its process) is a crash of the example it
    was running: the examples in flight are run again one by one to tell."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    context = multiprocessing.get_context("spawn")  # no MLIR state inherited from the parent
    todo = list(reversed(items))
    suspects: list[RandomPayload] = []
    while todo or suspects:
        alone = bool(suspects)
        batch = suspects if alone else todo
        with ProcessPoolExecutor(max_workers=1 if alone else jobs, mp_context=context) as pool:
            running: dict = {}
            broken = False
            while (batch or running) and not broken:
                while batch and len(running) < (1 if alone else jobs):
                    ex = batch.pop()
                    running[pool.submit(work or _run_in_worker, ex, config)] = ex
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in done:
                    ex = running.pop(fut)
                    try:
                        yield ex, fut.result()
                    except BrokenProcessPool:
                        broken = True
                        if alone:
                            yield ex, Outcome("crash", "the worker process died (abort or signal)")
                        else:
                            suspects.append(ex)
            if broken and not alone:
                suspects.extend(running.values())
                pool.shutdown(wait=False, cancel_futures=True)
