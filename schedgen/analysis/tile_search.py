"""Tile-size search: shrink dims in order until the nest fits, then grow each
dim back, in the same order, to the largest size that still fits.

Sizes are divisors of the loop range, so every tile is full and static (see
README, "Tile sizes divide the loop range"), except where a SearchDim allows
partial tiles (the traffic search on memory targets): then the last tile
holds the remainder, and the full tile bounds its footprint. The grow-back is a binary search
over that divisor list; footprints grow with every tile size, so "fits" is
monotone along each dim and the search is exact per dim.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

Sizes = dict[Hashable, int]


def divisors(n: int) -> list[int]:
    small = [d for d in range(1, int(n**0.5) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


def tile_options(n: int, partial: bool = False, least: int = 1, multiple: int = 1, grain: int = 1) -> list[int]:
    """Tile sizes to try for a loop of n, none below `least` (but n itself):
    its divisors (every tile full), or with `partial` the smallest size for
    each tile count, ceil(n / k): a divisor where one gives that count, else
    the size whose last tile is the smallest remainder (197 in tiles of 99,
    66, 50, ...). With `multiple` > 1, only its multiples and n (an unpack's
    tiles start on its inner tiles, or each would unpack them again), the
    last tile holding the remainder. With `grain` > 1, only the divisors
    that are its multiples (and of `multiple`), and n."""
    if grain > 1:
        opts = [d for d in divisors(n) if d % grain == 0 and d % multiple == 0 or d == n]
    elif multiple > 1:
        opts = sorted({k * multiple for k in range(1, n // multiple + 1)} | {n})
    else:
        opts = divisors(n) if not partial else sorted({-(-n // k) for k in range(1, n + 1)})
    return [o for o in opts if o >= min(least, n)]


def tile_count(n: int, size: int) -> int:
    return -(-n // size)


def even_shares(tiles: int, cores: int) -> bool:
    """Whether `tiles` parallel tiles keep no core waiting long for
    another's last one: a multiple of the cores, or at least 4 each."""
    return tiles % cores == 0 or tiles >= 4 * cores


@dataclass(frozen=True)
class SearchDim:
    key: Hashable  # e.g. ("d", 0) for a root dim, ("r", op, dim) for a reduction dim
    extent: int
    partial: bool = False  # sizes that do not divide the extent may be tried (a remainder tile)
    least: int = 1  # no smaller size is tried (a reduction chunk of at least one burst)
    multiple: int = 1  # sizes are multiples of it, or the extent (an unpack's inner tile)
    grain: int = 1  # sizes are divisors that are multiples of it, or the extent (a CPU kernel's K step)

    def options(self) -> list[int]:
        return tile_options(self.extent, self.partial, self.least, self.multiple, self.grain)


def fit_tiles(dims: Sequence[SearchDim], fits: Callable[[Sizes], bool],
              start: Sizes | None = None) -> Sizes | None:
    """Largest per-dim sizes (shrink then grow back) for which `fits` holds,
    starting from `start` (default: every dim whole); None when even
    1-element tiles along every dim do not fit."""
    sizes: Sizes = dict(start) if start else {d.key: d.extent for d in dims}
    # a start size the options lack (a partial tile, grown on by the precise check) is one of them
    options = {d.key: sorted(set(d.options()) | ({sizes[d.key]} if d.key in sizes else set())) for d in dims}
    # Shrink: halve (to the next divisor) one dim at a time, in order.
    for d in dims:
        while not fits(sizes) and sizes[d.key] > options[d.key][0]:
            opts = options[d.key]
            half = sizes[d.key] // 2
            sizes[d.key] = opts[max(0, bisect_right(opts, half) - 1)]
        if fits(sizes):
            break
    if not fits(sizes):
        return None
    # Grow back: per dim, binary search the divisor list above the current size.
    for d in dims:
        if sizes[d.key] == d.extent:  # never shrunk: nothing to grow
            continue
        sizes[d.key] = _largest_fitting(options[d.key], lambda x, k=d.key: fits({**sizes, k: x}), sizes[d.key])
    return sizes


def frontier_starts(dims: Sequence[SearchDim], fits: Callable[[Sizes], bool], make_room: Sequence[Hashable],
                    sweeps: int = 8) -> list[Sizes]:
    """Starting points spread along the frontier of tiles that fit: each
    dim outside `make_room` pinned in turn at the sizes either side of its
    extent halved 0 to `sweeps - 1` times, the others grown in order to the largest that fits (the
    make-room dims held at a chunk of 16 meanwhile, then grown last). A local search from the
    largest tiles alone stays on one end of that frontier: tall tiles for a
    997-row matmul whose best tiles are nearly square."""
    options = {d.key: d.options() for d in dims}
    room = [d for d in dims if d.key in make_room]
    grown = [d for d in dims if d.key not in make_room]
    starts = []
    for pinned in grown:
        opts = options[pinned.key]
        # the options either side of extent / 2^j (197 rows: 99 and 66 for a half)
        halves = [-(-pinned.extent // (1 << j)) for j in range(sweeps)]
        picks = sorted({opts[max(0, bisect_right(opts, h) - 1)] for h in halves}
                       | {opts[min(len(opts) - 1, bisect_left(opts, h))] for h in halves})
        for v in picks:
            sizes = {d.key: options[d.key][0] for d in dims}
            sizes.update({d.key: options[d.key][max(0, bisect_right(options[d.key], 16) - 1)] for d in room})
            sizes[pinned.key] = v
            if not fits(sizes):
                continue
            for d in [g for g in grown if g is not pinned] + room:
                sizes[d.key] = _largest_fitting(options[d.key], lambda x, k=d.key: fits({**sizes, k: x}),
                                                sizes[d.key])
            starts.append(sizes)
    return starts


def _largest_fitting(opts: list[int], fits: Callable[[int], bool], known: int) -> int:
    """The largest option that fits, searched upward from `known` (which does)."""
    lo, hi = opts.index(known), len(opts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(opts[mid]):
            lo = mid
        else:
            hi = mid - 1
    return opts[lo]


def keeps_order(tiles: Sequence[tuple[int, int]]) -> bool:
    """Whether tiling an op's reduction dims by (size, extent), outermost
    first, visits the reduction space in the untiled order, so that its sums
    come out bit for bit the same. Tile loops run outside the loops of a
    tile: a dim whose tile has several points must have no dim after it that
    is split into several tiles ([1, 1, 8] of [1, 2, 40] keeps the order;
    [2, 1, 41] of [2, 2, 41] visits (0, 0, *), (1, 0, *), (0, 1, *), ...)."""
    return not any(size > 1 and any(s < e for s, e in tiles[k + 1:]) for k, (size, _) in enumerate(tiles))


def least_cost(dims: Sequence[SearchDim], cost: Callable[[Sizes], float | None], start: Sizes,
               max_evaluations: int = 600, make_room: Sequence[Hashable] = (),
               bound: Callable[[Sizes], float | None] | None = None) -> Sizes:
    """Local search from `start` (which must have a cost) for the sizes of
    least `cost` (None: does not fit). Moves: one dim to any other divisor,
    or one dim up a divisor and another down one (a larger output tile for a
    shorter reduction chunk); a dim grown past what fits also tries the dims
    of `make_room` (reduction chunks, whose size moves no bytes) shrunk to
    the largest that fits again. Steepest descent until no move helps, or
    the evaluation budget is spent.

    `bound`: a cheap lower bound of `cost` that needs no fit test (None:
    no finite cost). A move whose bound cannot beat the best so far is
    not tested: with precise footprints, a fit test is a simulation.
    Pruned moves count against the budget as tested ones do, so the
    search takes the same steps either way."""
    search = _Search(dims, cost, max_evaluations, make_room)
    best = dict(start)
    best_cost = search.value(best)
    assert best_cost is not None
    while search.left():
        found = None
        for trial in _moves(dims, search.options, best):
            if not search.left():
                break
            if bound is not None and search.prune(trial, bound, best_cost if found is None else found[0]):
                continue
            c = search.value(trial)
            grown = [k for k in trial if trial[k] > best[k] and k not in make_room]
            if c is None and grown and make_room:
                fitted = search.refit(trial)
                trial, c = (fitted, search.value(fitted)) if fitted is not None else (trial, None)
            if c is not None and c < best_cost and (found is None or c < found[0]):
                found = (c, trial)
        if found is None:
            break
        best_cost, best = found
    return best


class _Search:
    """least_cost's memo of tested and pruned sizes, within its budget."""

    def __init__(self, dims: Sequence[SearchDim], cost: Callable[[Sizes], float | None], budget: int,
                 make_room: Sequence[Hashable]) -> None:
        self.dims, self.cost, self.budget, self.make_room = dims, cost, budget, make_room
        self.options = {d.key: d.options() for d in dims}
        self.memo: dict[tuple, float | None] = {}
        self.pruned: set[tuple] = set()

    def left(self) -> bool:
        return len(self.memo) + len(self.pruned) < self.budget

    def _key(self, sizes: Sizes) -> tuple:
        return tuple(sizes[d.key] for d in self.dims)

    def value(self, sizes: Sizes) -> float | None:
        key = self._key(sizes)
        if key not in self.memo:
            self.memo[key] = self.cost(sizes)
        return self.memo[key]

    def prune(self, sizes: Sizes, bound: Callable[[Sizes], float | None], beat: float) -> bool:
        """Whether `sizes` cannot cost less than `beat` (then it is not tested)."""
        key = self._key(sizes)
        if key in self.memo:
            return False
        if key not in self.pruned:
            b = bound(sizes)
            if b is not None and b < beat:
                return False
            self.pruned.add(key)
        return True

    def refit(self, trial: Sizes) -> Sizes | None:
        """`trial` with the make-room dims shrunk, in order, each to the
        largest option that fits (None when the smallest does not)."""
        trial = dict(trial)
        for k in self.make_room:
            opts = [v for v in self.options[k] if v <= trial[k]]
            lo, hi = -1, len(opts) - 1  # opts[lo] fits (-1: none known)
            while lo < hi and len(self.memo) < self.budget:
                mid = (lo + hi + 1) // 2
                if self.value({**trial, k: opts[mid]}) is not None:
                    lo = mid
                else:
                    hi = mid - 1
            if lo >= 0:
                return {**trial, k: opts[lo]}
            trial[k] = opts[0]
        return None


def _moves(dims: Sequence[SearchDim], options: dict[Hashable, list[int]], best: Sizes) -> list[Sizes]:
    """One dim to any other option; one dim up one or two options and
    another down as many."""
    moves: list[Sizes] = []
    for d in dims:
        moves += [{**best, d.key: v} for v in options[d.key] if v != best[d.key]]
    for a in dims:
        for b in dims:
            ka, kb = options[a.key], options[b.key]
            ia, ib = ka.index(best[a.key]), kb.index(best[b.key])
            if a is not b:
                moves += [{**best, a.key: ka[ia + step], b.key: kb[ib - step]} for step in (1, 2)
                          if ia + step < len(ka) and ib - step >= 0]
    return moves
