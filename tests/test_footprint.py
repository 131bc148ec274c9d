"""The analytic footprint and the tile-size search, on hand-computed cases."""

from __future__ import annotations

from itertools import product

from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from schedgen.analysis.footprint import NestShape, footprint
from schedgen.analysis.tile_search import SearchDim, divisors, fit_tiles
from schedgen.ir.load import load_payload


def test_matmul_nest_by_hand():
    p = load_payload(ROOT / "payloads/matmul_bias_relu.mlir")
    fp = footprint(p, NestShape(2, frozenset({0, 1, 2}), (32, 64)))
    # A 32x1024, B 1024x64, accumulator 32x64 (fill -> matmul, in place),
    # bias 64; the relu reads the accumulator tile itself and writes its
    # result over it (nothing else reads it): no tile of its own.
    assert fp.total == 4 * (32 * 1024 + 1024 * 64 + 32 * 64 + 64)
    assert ("op2 result, in place over op1's tile", (32, 64), 0) in fp.items


def test_reduction_tiling_shrinks_only_the_reduction_operands():
    p = load_payload(ROOT / "payloads/matmul_bias_relu.mlir")
    fp = footprint(p, NestShape(1, frozenset({0, 1}), (32, 64, 1024), ((1, 2, 128),)))
    assert fp.total == 4 * (32 * 128 + 128 * 64 + 32 * 64)


def test_conv_input_tile_includes_its_halo():
    p = load_payload(ROOT / "payloads/conv_bias_relu.mlir")
    fp = footprint(p, NestShape(1, frozenset({1}), (1, 8, 10, 16, 3, 3, 128)))
    items = {what: shape for what, shape, _ in fp.items}
    assert items["op1 reads %arg0"] == (1, 10, 12, 128)  # 8 + 3 - 1 rows, 10 + 3 - 1 columns
    assert items["op1 reads %arg1"] == (3, 3, 128, 16)
    assert fp.total == 4 * (10 * 12 * 128 + 3 * 3 * 128 * 16 + 8 * 10 * 16)


def test_row_reduction_forbids_tiling_the_row():
    p = load_payload(ROOT / "payloads/softmax.mlir")
    whole = frozenset(range(6))
    assert footprint(p, NestShape(5, whole, (8, 1024))) is not None
    # Tiling the columns would make the sum-reduction and the division read
    # different slices of exp: it cannot be fused once.
    assert footprint(p, NestShape(5, whole, (8, 512))) is None


def test_divisors():
    assert divisors(100) == [1, 2, 4, 5, 10, 20, 25, 50, 100]
    assert divisors(97) == [1, 97]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([1, 6, 12, 16, 30, 64]), min_size=1, max_size=3),
       st.lists(st.integers(1, 5), min_size=3, max_size=3), st.integers(1, 20000))
def test_fit_tiles_is_maximal_per_dim(extents, weights, budget):
    """Against brute force on a monotone cost: the result fits, and no single
    dim can grow to its next divisor and still fit."""
    dims = [SearchDim(i, e) for i, e in enumerate(extents)]

    def cost(s):
        total = 1
        for i, d in enumerate(dims):
            total *= s[d.key] * weights[i]
        return total + sum(s.values())

    got = fit_tiles(dims, lambda s: cost(s) <= budget)
    smallest = {d.key: 1 for d in dims}
    if cost(smallest) > budget:
        assert got is None
        return
    assert got is not None and cost(got) <= budget
    for d in dims:
        bigger = [x for x in divisors(d.extent) if x > got[d.key]]
        if bigger:
            assert cost({**got, d.key: bigger[0]}) > budget
    any_fit = [s for s in product(*[divisors(d.extent) for d in dims]) if cost(dict(enumerate(s))) <= budget]
    assert any_fit


def test_frontier_starts_find_square_tiles_where_the_largest_tiles_stay_tall():
    """A 997x1024 output, K 1024, 65536 elements of memory: a*b + k*(a+b)
    must fit, and A is re-read per column tile, B per row tile. From the
    largest tiles alone (all 997 rows) the search keeps tall tiles; from the
    frontier's spread points it reaches nearly square ones, and growing a
    dim past what fits shrinks the K chunk to make room."""
    from schedgen.analysis.tile_search import frontier_starts, least_cost, tile_count

    dims = [SearchDim("m", 997, partial=True), SearchDim("n", 1024, partial=True), SearchDim("k", 1024, partial=True)]

    def fits(s):
        return s["m"] * s["n"] + s["k"] * (s["m"] + s["n"]) <= 65536

    def traffic(s):
        if s["k"] < 16:
            return None
        reads = 997 * 1024 * tile_count(1024, s["n"]) + 1024 * 1024 * tile_count(997, s["m"])
        return reads + 128 * tile_count(997, s["m"]) * tile_count(1024, s["n"]) * tile_count(1024, s["k"])

    def cost(s):
        return traffic(s) if fits(s) else None

    tall = {"m": 997, "n": 32, "k": 32}
    assert fits(tall)
    stuck = least_cost(dims, cost, tall)
    starts = frontier_starts(dims, fits, ["k"])
    assert starts and all(fits(s) for s in starts)
    best = least_cost(dims, cost, min(starts, key=lambda s: cost(s) or float("inf")), make_room=["k"])
    assert cost(best) < 0.7 * cost(stuck)
    assert 0.5 < best["m"] / best["n"] < 2 and best["k"] >= 16

    # Pruned by the cost without the fit test: the same tiles, fewer fit tests.
    tested = []

    def counted(s):
        tested.append(1)
        return cost(s)

    start = min(starts, key=lambda s: cost(s) or float("inf"))
    assert least_cost(dims, counted, start, make_room=["k"]) == best
    unpruned = len(tested)
    tested.clear()
    assert least_cost(dims, counted, start, make_room=["k"], bound=traffic) == best
    assert len(tested) < 0.8 * unpruned
