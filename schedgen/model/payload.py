"""Payload model: the tileable ops of one function as plain dataclasses
(schedgen.ir.load fills them from the IR), so the analyses never touch MLIR
objects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# Body ops whose effects keep an op alive without users (DCE leaves it).
SIDE_EFFECTS = ("cf.assert", "vector.print", "memref.store", "func.call")


# Ops that implement TilingInterface without being linalg structured ops.
NON_STRUCTURED_TILEABLE = ("tensor.pad", "linalg.pack", "linalg.unpack")


# linalg ops that are not structured (they survive generalization unchanged).
_LINALG_NOT_TILEABLE = ("linalg.yield", "linalg.index", "linalg.softmax", "linalg.winograd_filter_transform",
                        "linalg.winograd_input_transform", "linalg.winograd_output_transform")


@dataclass(frozen=True)
class ValueRef:
    """Where a value comes from: a function argument, a tileable op's result,
    or the result of another (not tileable) op of the function body."""

    kind: Literal["arg", "op", "other"]
    index: int
    result: int = 0

    def label(self) -> str:
        if self.kind == "arg":
            return f"%arg{self.index}"
        if self.kind == "op":
            return f"op{self.index}" + (f"#{self.result}" if self.result else "")
        return f"other{self.index}"


@dataclass(frozen=True)
class Use:
    """One user of a value: a tileable op, the function's return, or another op."""

    kind: Literal["op", "return", "other"]
    index: int


@dataclass(frozen=True)
class Linear:
    """An affine expression that is sum(coeff * d_i) + const (conv windows,
    strides, plain dims). Non-linear expressions (mod, floordiv) are None."""

    coeffs: tuple[tuple[int, int], ...]
    const: int

    def as_dim(self) -> int | None:
        return self.coeffs[0][0] if len(self.coeffs) == 1 and self.coeffs[0][1] == 1 and self.const == 0 else None


# A non-linear index (an im2col copy's `(d2 floordiv 14) * 2 + (d1 mod 9) floordiv 3`) as a tree:
# ("d", dim) | ("c", value) | ("+", a, b) | ("*", a, k) | ("//", a, k) | ("%", a, k), k > 0 constants.
IndexTree = tuple


def index_span(tree: IndexTree, sizes: dict[int, int]) -> tuple[int, int] | None:
    """The smallest and largest value of the index over a tile of `sizes`
    elements per dim, starting at 0 (interval arithmetic: a tile that is a
    multiple of the index's grains spans the same range at any aligned
    offset). None where the tree has a form it cannot bound."""
    kind = tree[0]
    if kind == "d":
        return 0, sizes[tree[1]] - 1
    if kind == "c":
        return tree[1], tree[1]
    a = index_span(tree[1], sizes)
    if a is None:
        return None
    if kind == "+":
        b = index_span(tree[2], sizes)
        return None if b is None else (a[0] + b[0], a[1] + b[1])
    k = tree[2]
    if kind == "*":
        return a[0] * k, a[1] * k
    if kind == "//":
        return a[0] // k, a[1] // k
    if kind == "%":
        return (a[0] % k, a[1] % k) if a[0] // k == a[1] // k else (0, k - 1)
    return None


@dataclass(frozen=True)
class Operand:
    value: ValueRef
    shape: tuple[int, ...]
    element_type: str
    element_bytes: int
    is_init: bool
    indexing_map: str | None  # printed affine map; None for pad/pack/unpack
    exprs: tuple[Linear | None, ...] | None
    reads: bool = True  # an init: the body reads its value (an accumulator), so it comes in too
    trees: tuple[IndexTree | None, ...] = ()  # per result of the map: the non-linear ones (exprs None) as trees
    position: int = -1  # the MLIR operand number (scalar operands are not in the model)

    def dims(self) -> set[int]:
        """The op dims its linear indices involve (a window's oh + kh: both)."""
        return {d for e in self.exprs or () if e is not None for d, _ in e.coeffs}


@dataclass(frozen=True)
class Result:
    shape: tuple[int, ...]
    element_type: str
    element_bytes: int
    type_str: str
    users: tuple[Use, ...]


@dataclass(frozen=True)
class TileableOp:
    index: int  # position among the function's tileable ops, program order
    name: str
    line: int
    col: int
    domain: tuple[int, ...]  # static loop ranges of the iteration domain
    iterators: tuple[str, ...]  # "parallel" / "reduction" per loop dim
    operands: tuple[Operand, ...]  # tensor operands only (scalars carry no tile)
    results: tuple[Result, ...]
    body_ops: tuple[str, ...] = ()  # op names in the (generalized) body, e.g. ("arith.addf", "arith.maximumf")
    unpacked_tiles: tuple[tuple[int, int], ...] = ()  # linalg.unpack: (domain dim, inner tile size) per tiled dim
    # (dim, grain) per dim that a non-linear index (mod, floordiv: an im2col copy) reads. Tiling sizes an
    # operand's slice as map(tile - 1) + 1, which such an index obeys only on tiles that are multiples of
    # its divisors' product (the grain; a mod's divisor stands for those it is a multiple of); grain 0: only
    # whole. Other tiles get wrong slices (tiles of 1 are always right).
    index_grains: tuple[tuple[int, int], ...] = ()
    pad_low: tuple[int, ...] = ()  # tensor.pad: the padding before each dim (static), for what a tile reads

    @property
    def label(self) -> str:
        return f"op{self.index} {self.name}"

    @property
    def side_effects(self) -> list[str]:
        """Body ops with side effects (an embedding's `cf.assert` bounds check)."""
        return sorted({b for b in self.body_ops if b in SIDE_EFFECTS})

    @property
    def reads_no_tensor(self) -> bool:
        """Its tiles read nothing from memory (a linalg.fill: a scalar into an
        init it does not read): a copy in every nest that reads it costs no
        traffic, so it is recomputed there rather than written out once and
        read back by each."""
        return bool(self.operands) and all(o.is_init and not o.reads and o.value.kind != "op" for o in self.operands) \
            and not self.side_effects and len(self.results) == 1

    @property
    def gather(self) -> bool:
        """A copy through non-linear indices (an NCHW convolution's im2col
        copy): no reduction, no arithmetic on values, index grains. Redone
        in a tile, it re-reads its input instead of writing and re-reading
        its result, nine times bigger for a 3x3 window."""
        return not self.reduction_dims() and bool(self.index_grains) and not self.body_ops

    @property
    def redoable(self) -> bool:
        """A copy a nest may redo in each core's forall tiles (planner._Nest._redoes)
        rather than one core writing what the other reads back: a gather, or a
        tensor.pad (each trip of a convolution's channel loop pads its chunk of
        the source, which it reads once, instead of the padded tensor going
        through main memory)."""
        return self.gather or self.name == "tensor.pad"

    def tile_ok(self, d: int, size: int) -> bool:
        """Whether a tile of `size` along dim `d` keeps the slices of its non-linear indices right."""
        grain = dict(self.index_grains).get(d)
        return grain is None or size == self.domain[d] or (grain > 0 and size % grain == 0)

    def index_grain(self, d: int) -> int | None:
        """The multiple tiles along `d` must be (index_grains); 0: only whole; None: any."""
        return dict(self.index_grains).get(d)

    def parallel_dims(self) -> list[int]:
        return [d for d, k in enumerate(self.iterators) if k == "parallel"]

    def reduction_dims(self) -> list[int]:
        return [d for d, k in enumerate(self.iterators) if k != "parallel"]


@dataclass(frozen=True)
class OtherOp:
    """A non-tileable op in the body (tensor.empty, constants, reshapes...)."""

    index: int
    name: str
    line: int
    operands: tuple[ValueRef, ...]
    computes: bool = False  # makes a tensor by computing it (not a view, a constant or an empty)


@dataclass(frozen=True)
class Payload:
    path: str
    func_name: str
    func_line: int
    arg_types: tuple[tuple[tuple[int, ...], str], ...]  # (shape, element type) per argument
    ops: tuple[TileableOp, ...]
    others: tuple[OtherOp, ...]
    returns: tuple[ValueRef, ...]
    # schedgen.ir.normalize steps the schedule runs first (the model is of the IR after them)
    normalize: tuple[str, ...] = ()
    img2col_convs: tuple[str, ...] = ()  # the operand types of the convolutions the img2col step converts
    transpose_b_matmuls: tuple[str, ...] = ()  # the operand types of the matmuls the transpose_b step rewrites
    placed_pads: tuple[bool, ...] = ()  # per tensor.pad in order: whether the pad_in_place step takes it
    slice_rounds: int = 0  # rounds of the slice_producers step (schedgen.ir.slices), after the steps above
    sliced_gemvs: tuple[str, ...] = ()  # the one-row matmuls those rounds leave, rewritten as transpose_b

    def where(self, op: TileableOp) -> str:
        return f"{self.path}:{op.line}"


def is_tileable(name: str) -> bool:
    return name in NON_STRUCTURED_TILEABLE or (name.startswith("linalg.") and name not in _LINALG_NOT_TILEABLE)

