"""Axis groups (seed 004, auto-fusion tiling cases): which loop axes of a nest
are tiled by parallel loops, which follow a reduction, and which only views
touch.

Each op's loop dims are named by the nest root's iteration space (z0, z1,
...: loop dims that index the same tensor dim are one axis; a dim outside
the root's space, such as a fused producer's own reduction, is k0, k1, ...)
and classified:

    x  axes a view-like op moves (transpose, pack / unpack)
    y  parallel axes of elementwise, broadcast and contraction ops
    r  reduction axes
    n  axes that may not be split (a producer's dim that an im2col copy
       reads whole in every tile of one of its own dims: INNER)

written `(x)(y)(r)`, e.g. `()(z0,z1)()` for an elementwise op. Merging two
ops' groups first unions their n groups and removes those axes elsewhere,
then accepts only these pairs of kinds (by which groups are non-empty):

    Y+Y      the y groups nest (one is a subset: linalg broadcasts implicitly)
    Y+YR     y must be covered by y' + r'; y's axes in r' move to r
             (`()(z0,z1)()` + `()(z0)(z1)` = `()(z0)(z1)`: the elementwise
             op's z1 follows the reduction)
    YR+YR    equal r, nested y (broadcast, as for Y+Y)
    Y+XY     y covered by x' + y'
    Y+R      y covered by r'

and their mirror images; any other pair fails, and the ops cannot share a
loop nest. The merged groups give the tiling order: y axes by parallel
loops (outermost first), r axes by sequential loops only.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from schedgen.model.payload import Operand, Payload, TileableOp


@dataclass(frozen=True)
class AxisGroups:
    x: tuple[str, ...] = ()
    y: tuple[str, ...] = ()
    r: tuple[str, ...] = ()
    n: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        return "".join(k.upper() for k in ("x", "y", "r") if getattr(self, k))

    def __str__(self) -> str:
        text = "".join("(" + ",".join(g) + ")" for g in (self.x, self.y, self.r))
        return text + (f"[n:{','.join(self.n)}]" if self.n else "")


class MergeError(ValueError):
    pass


def _ordered(axes: set[str], *orders: tuple[str, ...]) -> tuple[str, ...]:
    """`axes` in the order they first appear in `orders`."""
    seen = dict.fromkeys(a for order in orders for a in order if a in axes)
    return tuple(seen) + tuple(sorted(axes - set(seen)))


def merge(a: AxisGroups, b: AxisGroups, views_into_contractions: bool = False) -> AxisGroups:
    """The groups of a nest holding both; MergeError if they cannot share one.
    `views_into_contractions`: also X+YR (see below)."""
    n = set(a.n) | set(b.n)

    def strip(g: AxisGroups) -> AxisGroups:
        return AxisGroups(*(tuple(v for v in getattr(g, k) if v not in n) for k in ("x", "y", "r")))

    a, b = strip(a), strip(b)
    order = (a.x + b.x, a.y + b.y, a.r + b.r)
    nn = tuple(sorted(n))
    for first, second in ((a, b), (b, a)):
        k1, k2 = first.kind, second.kind
        y1 = set(first.y)
        if k1 in ("Y", "") and k2 in ("Y", ""):
            y2 = set(second.y)
            if y1 <= y2 or y2 <= y1:
                return AxisGroups(y=_ordered(y1 | y2, *order), n=nn)
        if k1 in ("Y", "") and k2 == "YR":
            if y1 <= set(second.y) | set(second.r):
                return AxisGroups(y=second.y, r=second.r, n=nn)
        if k1 == "YR" and k2 == "YR" and set(first.r) == set(second.r) and set(first.y) <= set(second.y):
            return AxisGroups(y=second.y, r=second.r, n=nn)
        # Nested reductions (attention: Q.K^T feeding P.V): the producer's y
        # axes lie in the other's y or r (a y axis that the other reduces
        # becomes r, as in Y+YR), and its own reduced axes are nobody's y.
        if k1 == "YR" and k2 == "YR" and y1 <= set(second.y) | set(second.r) \
                and not set(first.r) & set(second.y):
            return AxisGroups(y=second.y, r=_ordered(set(second.r) | set(first.r), *order), n=nn)
        # Opt-in (CPU targets): a transpose feeding a contraction (torch's Linear weight, attention's
        # K^T) whose axes are the contraction's own, so its tile is the slice the contraction reads:
        # it stays in cache instead of going to memory and back (BERT's layer 0.36 -> 0.33 ms on one
        # core). On a memory target it took the place of the contraction's in-loop producers (the MLP
        # moved 2.23 MB, against 1.18).
        if views_into_contractions and k1 in ("X", "XY") and k2 == "YR" \
                and set(first.x) | y1 <= set(second.y) | set(second.r):
            return AxisGroups(y=second.y, r=second.r, n=nn)
        if k1 in ("Y", "") and k2 == "XY":
            if y1 <= set(second.x) | set(second.y):
                return AxisGroups(x=second.x, y=second.y, n=nn)
        if k1 in ("Y", "") and k2 == "R":
            if y1 <= set(second.r):
                return AxisGroups(r=second.r, n=nn)
    raise MergeError(f"{a} ({a.kind or 'empty'}) and {b} ({b.kind or 'empty'}) do not merge")


def _is_transpose(op: TileableOp) -> bool:
    if op.name == "linalg.transpose":
        return True
    if op.name != "linalg.generic" or any(k != "parallel" for k in op.iterators):
        return False
    ins = [o for o in op.operands if not o.is_init]
    init = next((o for o in op.operands if o.is_init), None)
    return len(ins) == 1 and init is not None and ins[0].exprs is not None and init.exprs is not None \
        and len(ins[0].exprs) == len(init.exprs) and ins[0].exprs != init.exprs \
        and all(e is not None and e.as_dim() is not None for e in ins[0].exprs)


# The name of an axis's inner part (`z2` + INNER): a producer's dim that a gather reads through a mod of one
# of its own dims (an im2col copy's `p mod 56` of a 1x1 convolution's input row), whole in every tile of
# that dim (tiles are multiples of the mod's divisor, TileableOp.index_grains), so never split.
INNER = ".in"


def op_groups(op: TileableOp, axes: list[str]) -> AxisGroups:
    """One op's groups; `axes[d]` names its loop dim d (inner parts of an
    axis are n: never split)."""
    inner = tuple(a for a in axes if a.endswith(INNER))
    par = tuple(axes[d] for d in op.parallel_dims())
    red = tuple(axes[d] for d in op.reduction_dims())
    if op.name in ("linalg.pack", "linalg.unpack"):
        groups = AxisGroups(x=par)
    elif _is_transpose(op):
        ins = next(o for o in op.operands if not o.is_init)
        moved = {k for k, e in enumerate(ins.exprs or ()) if e is not None and e.as_dim() != k}
        groups = AxisGroups(x=tuple(axes[d] for d in sorted(moved)),
                            y=tuple(axes[d] for d in range(len(axes)) if d not in moved))
    else:
        groups = AxisGroups(y=par, r=red)
    if not inner:
        return groups
    return AxisGroups(*(tuple(a for a in getattr(groups, k) if a not in inner) for k in ("x", "y", "r")), n=inner)


class AxisMap:
    """The payload's axis links, built once: which tensor dims each op's
    loop dims index, as a union-find over loop and tensor dims (loop dims
    `op{i}.d{d}`, tensor dims `%arg0[1]`, `op3[0]`), and the producer /
    consumer edges that carry a loop dim from one op to the other."""

    def __init__(self, payload: Payload) -> None:
        self.parent: dict[str, str] = {}
        # A loop dim that indexes a tensor dim through a plain dim expression
        # is that tensor dim; ops reading or writing the same tensor dim share
        # the class. An op's init map also describes its result tensor. Inits
        # that are not results of tileable ops (tensor.empty) link nothing.
        for op in payload.ops:
            for operand in op.operands:
                if operand.exprs is None:
                    continue
                tensors = [operand.value.label()] if not operand.is_init or operand.value.kind == "op" else []
                if operand.is_init:
                    tensors.append(f"op{op.index}")
                for k, e in enumerate(operand.exprs):
                    u = e.as_dim() if e is not None else None
                    if u is not None:
                        for t in tensors:
                            self._union(f"op{op.index}.d{u}", f"{t}[{k}]")
        self.edges: dict[int, list[tuple[int, tuple[tuple[int, int], ...]]]] = {op.index: [] for op in payload.ops}
        # (producer, loop dim) -> (consumer, loop dim): the inner part of a consumer's dim (_split_pairs)
        self.inner: dict[tuple[int, int], tuple[int, int]] = {}
        for op in payload.ops:
            for operand in op.operands:
                if operand.value.kind != "op" or operand.exprs is None:
                    continue
                written = _result_dims(payload.ops[operand.value.index], operand.value.result)
                pairs = tuple((e.as_dim(), written[k]) for k, e in enumerate(operand.exprs)
                              if e is not None and e.as_dim() is not None and k < len(written)
                              and written[k] is not None)
                inner = _split_pairs(operand, payload.ops[operand.value.index].results[operand.value.result].shape,
                                     written)
                pairs += tuple((d, outer) for d, outer, _ in inner)
                if pairs:
                    self.edges[op.index].append((operand.value.index, pairs))
                    self.edges[operand.value.index].append((op.index, tuple((b, a) for a, b in pairs)))
                for d, _, dim in inner:  # the producer's inner dim: its name is the outer one's + INNER
                    self.inner[(operand.value.index, dim)] = (op.index, d)

    def find(self, a: str) -> str:
        while self.parent.get(a, a) != a:
            a = self.parent[a]
        return a

    def _union(self, a: str, b: str) -> None:
        a, b = self.find(a), self.find(b)
        if a != b:  # loop-dim names represent their class
            lo, hi = sorted((a, b), key=lambda n: (not n.startswith("op") or "[" in n, n))
            self.parent[hi] = lo


def _split_pairs(operand: Operand, shape: tuple[int, ...],
                 written: list[int | None]) -> list[tuple[int, int, int]]:
    """Where `operand` reads two dims of a producer's result (of `shape`,
    written by the producer's loop dims `written`) as `d floordiv G` and
    `d mod G` of one of its own loop dims d, the inner dim G long (an im2col
    copy of a 1x1 convolution reads an input row whole per G pixels): (d,
    the producer's outer loop dim, its inner one) for each. Tiles of d in
    multiples of G read whole rows, a slice of the outer dim alone."""
    found = []
    trees = operand.trees
    for k, tree in enumerate(trees):
        if tree is None or tree[0] != "//" or tree[1][0] != "d":
            continue
        d, g = tree[1][1], tree[2]
        for j, other in enumerate(trees):
            if other == ("%", ("d", d), g) and j < len(shape) and shape[j] == g and j < len(written) \
                    and k < len(written) and written[k] is not None and written[j] is not None:
                found.append((d, written[k], written[j]))
    return found


def _result_dims(op: TileableOp, result: int) -> list[int | None]:
    """The loop dim that writes each dim of result `result` (its init's map)."""
    inits = [o for o in op.operands if o.is_init]
    if result >= len(inits) or inits[result].exprs is None:
        return []
    return [e.as_dim() if e is not None else None for e in inits[result].exprs]


_AMBIGUOUS = ""


class NestAxes:
    """The merged groups of a nest, grown one producer at a time; axes are
    named after the root's dims (z0, z1, ...) where they are one, else k0,
    k1, ... (a fused producer's own reduction).

    Names travel from the root along the producer / consumer edges, each op
    named by the first edge that reaches it: the slices a fused op gets
    follow those edges. The payload-wide classes only name what no edge
    determines (a reduction's reduced dim, as the tensor dim it shares with
    a member); a class holding two different names names nothing. (One
    tensor read along both of a matmul's M and N puts them in one class, yet
    they stay two axes of its nest.)"""

    def __init__(self, payload: Payload, root: int, axis_map: AxisMap | None = None,
                 views_into_contractions: bool = False) -> None:
        self.payload, self.root = payload, root
        self.views_into_contractions = views_into_contractions
        self.map = axis_map or AxisMap(payload)
        self._named: dict[int, list[str]] = {}
        self._classes: dict[str, str] = {}
        self._fresh = 0
        self._record(root, [f"z{d}" for d in range(len(payload.ops[root].domain))])
        self._queue = deque([root])
        self.groups = op_groups(payload.ops[root], self.names(root))

    def names(self, idx: int) -> list[str]:
        """Op `idx`'s loop dims as axes: z<d> for the root's dims, k<n> for
        the others (a producer's own reductions), numbered as met."""
        while idx not in self._named and self._queue:
            x = self._queue.popleft()
            for y, pairs in self.map.edges[x]:
                if y not in self._named:
                    known: dict[int, str] = {}
                    for dx, dy in pairs:
                        known.setdefault(dy, self._named[x][dx])
                    for dy in range(len(self.payload.ops[y].domain)):
                        link = self.map.inner.get((y, dy))
                        if link is not None and link[0] == x:
                            known.setdefault(dy, self._named[x][link[1]] + INNER)
                    self._name(y, known)
                    self._queue.append(y)
        if idx not in self._named:
            self._name(idx, {})
        return list(self._named[idx])

    def _name(self, idx: int, known: dict[int, str]) -> None:
        names: list[str] = []
        for d in range(len(self.payload.ops[idx].domain)):
            name = known.get(d) or self._classes.get(self.map.find(f"op{idx}.d{d}"), _AMBIGUOUS)
            if not name or name in names or (name in known.values() and d not in known):
                name = f"k{self._fresh}"
                self._fresh += 1
            names.append(name)
        self._record(idx, names)

    def _record(self, idx: int, names: list[str]) -> None:
        self._named[idx] = names
        for d, name in enumerate(names):
            c = self.map.find(f"op{idx}.d{d}")
            self._classes[c] = name if self._classes.get(c, name) == name else _AMBIGUOUS

    def merged_with(self, idx: int) -> AxisGroups:
        """The groups with producer `idx` in the nest (MergeError if none)."""
        return merge(self.groups, op_groups(self.payload.ops[idx], self.names(idx)), self.views_into_contractions)

    def add(self, idx: int) -> None:
        self.groups = self.merged_with(idx)

    def add_all(self, members: set[int] | frozenset[int]) -> AxisGroups:
        """The groups with every op of `members` in the nest (MergeError when they do not merge)."""
        for idx in sorted(set(members) - {self.root}, reverse=True):  # consumers first
            self.add(idx)
        return self.groups


def nest_groups(payload: Payload, root: int, members: set[int] | frozenset[int],
                axis_map: AxisMap | None = None, views_into_contractions: bool = False) -> AxisGroups:
    """The merged groups of a nest (MergeError when they do not merge)."""
    return NestAxes(payload, root, axis_map, views_into_contractions).add_all(members)
