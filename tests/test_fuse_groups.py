"""Fuse groups: pattern matching, marking, and group atomicity checked on
the transformed IR."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PAYLOADS, ROOT
from mlir import ir

from schedgen.analysis.fuse_groups import find_groups
from schedgen.analysis.measure import LOOPS, walk_ops
from schedgen.cli import main as schedgen
from schedgen.ir.apply import transform_payload
from schedgen.ir.context import new_context, parse_file
from schedgen.ir.load import load_payload
from schedgen.model.payload import is_tileable
from schedgen.model.plan import FuseMode
from schedgen.model.target import CPU_PRESETS, PRESETS
from schedgen.planning.planner import plan


def groups(name: str) -> list[tuple[str, int, tuple[int, ...]]]:
    return [(g.pattern, g.principal, g.members) for g in find_groups(load_payload(ROOT / f"payloads/{name}.mlir"))]


def test_patterns_on_the_examples():
    assert groups("matmul_bias_relu") == [("contraction", 1, (0, 1, 2))]
    assert groups("conv_bias_relu") == [("contraction", 1, (0, 1, 2))]  # bias broadcast init, conv, relu
    assert groups("softmax") == [("softmax", 1, (0, 1, 2, 3, 4, 5))]
    assert groups("layernorm") == [("norm", 1, (0, 1, 2, 3, 4, 5))]
    # The RFC DAG's matmul feeds two ops: no epilogue, only its fill.
    assert groups("rfc_dag") == [("contraction", 1, (0, 1))]
    mlp = groups("mlp")
    assert [(p, pr) for p, pr, _ in mlp] == [("contraction", 2), ("contraction", 7), ("norm", 12)]
    assert mlp[1][2] == (6, 7, 8)  # fill, matmul, bias add: the residual add reads a second full input
    assert mlp[2][2] == tuple(range(10, 28))  # torch-mlir's whole LayerNorm decomposition


def test_a_fill_shared_by_two_layernorms_ties_neither_group() -> None:
    """torch-mlir reuses one zero fill (and one f64 zero fill) for the sums
    of both layernorms of a ViT block. As a member of each norm group, the
    fill merged them into one group no nest could hold, and both layernorms
    ran untiled, op by op. The groups leave out inits shared with ops
    outside them; on a CPU target each layernorm is a nest of its own."""
    payload = load_payload(ROOT / "corpus/vit_block.mlir", cpu=True)
    norms = [g for g in find_groups(payload) if g.pattern == "norm"]
    assert len(norms) == 2 and not set(norms[0].members) & set(norms[1].members), norms
    readers = {op.index: {u.index for r in op.results for u in r.users} for op in payload.ops
               if op.name == "linalg.fill"}
    assert any(all(users & set(g.members) for g in norms) for users in readers.values()), \
        "the payload no longer shares a fill between its layernorms"
    p = plan(payload, CPU_PRESETS["cpu-avx512"])
    infos = [g for g in p.groups if g.pattern == "norm"]
    assert all(len(g.nests) == 1 and g.split is None for g in infos), infos
    assert not {u.op.index for u in p.untiled} & {m for g in norms for m in g.members}, p.untiled


def test_attention_pattern(tmp_path: Path):
    src = tmp_path / "attn.mlir"
    src.write_text("""
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @attn(%q: tensor<32x16xf32>, %kt: tensor<16x32xf32>, %v: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %s = arith.constant 0.25 : f32
  %e2 = tensor.empty() : tensor<32x32xf32>
  %e1 = tensor.empty() : tensor<32xf32>
  %eo = tensor.empty() : tensor<32x16xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %qk = linalg.matmul ins(%q, %kt : tensor<32x16xf32>, tensor<16x32xf32>) outs(%f0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %sc = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%qk : tensor<32x32xf32>) outs(%e2 : tensor<32x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  } -> tensor<32x32xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<32xf32>) -> tensor<32xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%sc : tensor<32x32xf32>) outs(%mi : tensor<32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<32xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sc, %mx : tensor<32x32xf32>, tensor<32xf32>) outs(%e2 : tensor<32x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<32x32xf32>
  %si = linalg.fill ins(%z : f32) outs(%e1 : tensor<32xf32>) -> tensor<32xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<32x32xf32>) outs(%si : tensor<32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.addf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<32xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sm : tensor<32x32xf32>, tensor<32xf32>) outs(%e2 : tensor<32x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<32x32xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eo : tensor<32x16xf32>) -> tensor<32x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<32x32xf32>, tensor<32x16xf32>) outs(%fo : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %o : tensor<32x16xf32>
}
""")
    all_groups = find_groups(load_payload(src))
    found = {g.pattern: g for g in all_groups}
    assert found["attention"].principal == 1 and found["attention"].members == tuple(range(11))
    assert found["softmax"].principal == 4
    # QK^T with its fill and scale; P.V with its fill.
    assert [g.members for g in all_groups if g.pattern == "contraction"] == [(0, 1, 2), (9, 10)]


def test_mark_writes_group_attributes(tmp_path: Path):
    out = tmp_path / "marked.mlir"
    assert schedgen(["mark", str(ROOT / "payloads/mlp.mlir"), "-o", str(out)]) == 0
    ctx = new_context()
    module = parse_file(out, ctx, "payload")
    with ctx:
        fn = module.body.operations[0]
        ops = [o.operation for o in fn.regions[0].blocks[0].operations if is_tileable(o.operation.name)]
        marks = [[ir.IntegerAttr(a).value for a in ir.ArrayAttr(o.attributes["schedgen.fuse_groups"])]
                 if "schedgen.fuse_groups" in o.attributes else [] for o in ops]
        principals = {i: ir.IntegerAttr(o.attributes["schedgen.fuse_group_id"]).value
                      for i, o in enumerate(ops) if "schedgen.fuse_group_id" in o.attributes}
    assert principals == {2: 0, 7: 1, 12: 2}
    assert marks[0] == [] and marks[7] == [1] and marks[27] == [2]
    # The marked payload is still a payload: it plans the same.
    assert [n.tile_sizes for n in plan(load_payload(out), PRESETS["cpu-l1"]).nests] == \
        [n.tile_sizes for n in plan(load_payload(ROOT / "payloads/mlp.mlir"), PRESETS["cpu-l1"]).nests]


def placement(payload: Path, schedule: Path) -> dict[int, int | None]:
    """Payload line of each tileable op -> index of the outermost loop holding
    it in the transformed IR (None: outside any loop)."""
    module = transform_payload(payload, schedule)
    where: dict[int, int | None] = {}
    with module.context:
        fn = module.body.operations[0]
        for k, op in enumerate(fn.regions[0].blocks[0].operations):
            op = op.operation
            inside = [o for o in walk_ops(op) if is_tileable(o.name)] if op.name in LOOPS else [op]
            for o in inside:
                if is_tileable(o.name):
                    assert o.location.start_line not in where, "an op appears twice"
                    where[o.location.start_line] = k if op.name in LOOPS else None
    return where


@pytest.mark.parametrize("mode", [m.value for m in FuseMode])
@pytest.mark.parametrize("payload", PAYLOADS, ids=lambda p: p.stem)
def test_groups_stay_whole_in_the_transformed_ir(payload: Path, mode: str, tmp_path: Path):
    model = load_payload(payload)
    lines = {op.index: op.line for op in model.ops}
    for target in PRESETS:
        schedule = tmp_path / f"{target}.mlir"
        assert schedgen(["generate", str(payload), "--target", target, "--fuse-mode", mode, "-o", str(schedule)]) == 0
        where = placement(payload, schedule)
        # every op exactly once; but a nest's final CSE merges two fills of equal tiles (the
        # layernorm's two zero accumulators): one fill then starts both reductions
        merged = {i for i, line in lines.items() if line not in where}
        assert set(where) <= set(lines.values()) and all(model.ops[i].name == "linalg.fill" for i in merged)
        for g in find_groups(model):
            places = {where[lines[m]] for m in g.members if m not in merged}
            assert len(places) == 1, (target, g, places)
