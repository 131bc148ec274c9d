"""`schedgen explain --graph`: the DOT it writes, parsed back and checked
against the plan and the transformed IR; SVG through Graphviz; errors."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import PAYLOADS, ROOT
from mlir import ir

from schedgen.analysis.measure import dim_bound
from schedgen.cli import main
from schedgen.emit.graph import build_graph, graph_format, render_dot
from schedgen.emit.schedule import render
from schedgen.errors import SchedgenError
from schedgen.ir.apply import apply_schedule
from schedgen.ir.load import load_payload
from schedgen.model.plan import GroupInfo, Plan
from schedgen.model.target import load_target
from schedgen.planning.planner import plan

MATMUL = ROOT / "payloads/matmul_bias_relu.mlir"
ATTENTION = ROOT / "payloads/attention.mlir"
RFC_DAG = ROOT / "payloads/rfc_dag.mlir"
HAVE_DOT = shutil.which("dot") is not None


# --- a small parser for the DOT subset the template writes ------------------

_TOKEN = re.compile(r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<arrow>->)|(?P<punct>[{}\[\];,=])|(?P<id>[\w.#%-]+))')


@dataclass
class Dot:
    attrs: dict[str, str] = field(default_factory=dict)  # graph attributes
    clusters: dict[str, dict] = field(default_factory=dict)  # id -> {"parent", "attrs", "nodes"}
    nodes: dict[str, dict] = field(default_factory=dict)  # id -> {"cluster", "attrs"}
    edges: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)

    def label(self, node: str) -> list[str]:
        return self.nodes[node]["attrs"]["label"].split("\n")

    def edge(self, src: str, dst: str) -> dict[str, str]:
        found = [a for s, d, a in self.edges if (s, d) == (src, dst)]
        assert len(found) == 1, (src, dst, found)
        return found[0]

    def ancestors(self, cluster: str | None) -> list[str]:
        out = []
        while cluster is not None:
            out.append(cluster)
            cluster = self.clusters[cluster]["parent"]
        return out


def _unquote(tok: str) -> str:
    if not tok.startswith('"'):
        return tok
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), tok[1:-1])


def parse_dot(text: str) -> Dot:
    tokens = []
    pos = 0
    while pos < len(text.rstrip()):
        m = _TOKEN.match(text, pos)
        assert m and m.end() > pos, f"cannot tokenize DOT at {text[pos:pos + 40]!r}"
        tokens.append(m.group(m.lastgroup))
        pos = m.end()
    dot = Dot()
    i = 0

    def attrs() -> dict[str, str]:
        nonlocal i
        out = {}
        if i < len(tokens) and tokens[i] == "[":
            i += 1
            while tokens[i] != "]":
                key, eq, value = tokens[i:i + 3]
                assert eq == "=", tokens[i:i + 3]
                out[key] = _unquote(value)
                i += 3
                if tokens[i] == ",":
                    i += 1
            i += 1
        return out

    def body(cluster: str | None) -> None:
        nonlocal i
        while tokens[i] != "}":
            tok = tokens[i]
            if tok == "subgraph":
                name = tokens[i + 1]
                assert tokens[i + 2] == "{"
                dot.clusters[name] = {"parent": cluster, "attrs": {}, "nodes": []}
                i += 3
                body(name)
                i += 1  # }
            elif tokens[i + 1] == "=":
                target = dot.clusters[cluster]["attrs"] if cluster else dot.attrs
                target[tok] = _unquote(tokens[i + 2])
                i += 3
            elif tokens[i + 1] == "->":
                src, dst = _unquote(tok), _unquote(tokens[i + 2])
                i += 3
                dot.edges.append((src, dst, attrs()))
            else:
                i += 1
                a = attrs()
                if tok not in ("node", "edge", "graph"):
                    assert tok not in dot.nodes, f"node {tok} declared twice"
                    dot.nodes[tok] = {"cluster": cluster, "attrs": a}
                    if cluster:
                        dot.clusters[cluster]["nodes"].append(tok)
            if tokens[i] == ";":
                i += 1

    assert tokens[0] == "digraph" and tokens[2] == "{", tokens[:3]
    i = 3
    body(None)
    assert i == len(tokens) - 1, "trailing tokens"
    return dot


# --- helpers ----------------------------------------------------------------

def explain_graph(tmp_path: Path, payload: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[Dot, str]:
    out = tmp_path / f"{payload.stem}.dot"
    assert main(["explain", str(payload), "--graph", str(out), *args]) == 0
    return parse_dot(out.read_text()), capsys.readouterr().out


def planned(payload: Path, memory: int | None = None) -> Plan:
    return plan(load_payload(payload), load_target("npu-256k", memory))


def shape(tile: list[int] | tuple[int, ...]) -> str:
    return "x".join(map(str, tile))


def slices_of_arg(ir_text: str, arg: int) -> list[list[int]]:
    """Result shapes of the innermost tensor.extract_slice ops that read
    function argument `arg` (a slice of a slice of it counts; its outer slice
    does not); a dynamic size is given by its bound."""
    with ir.Context():
        module = ir.Module.parse(ir_text)
        fn = next(op for op in module.body.operations if op.operation.name == "func.func")
        sources = [fn.regions[0].blocks[0].arguments[arg]]
        slices: list[ir.Operation] = []

        def visit(op: ir.Operation) -> ir.WalkResult:
            if op.name == "tensor.extract_slice" and op.operands[0] in sources:
                slices.append(op)
                sources.append(op.results[0])
            return ir.WalkResult.ADVANCE

        fn.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
        read = [op.operands[0] for op in slices]
        return [[dim_bound(op.results[0], k) if ir.ShapedType.is_dynamic_size(n) else n  # a partial tile: its bound
                 for k, n in enumerate(ir.RankedTensorType(op.results[0].type).shape)]
                for op in slices if op.results[0] not in read]


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "schedgen.cli", *args], capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL)


def assert_one_line_error(proc: subprocess.CompletedProcess, *fragments: str) -> str:
    assert proc.returncode == 2, proc
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("schedgen: error: "), proc.stderr
    for f in fragments:
        assert f in lines[0].lower(), lines[0]
    return lines[0]


# --- DOT checked against the plan and the IR ---------------------------------

def test_matmul_bias_relu(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    dot, stdout = explain_graph(tmp_path, MATMUL, "--target", "npu-256k", capsys=capsys)
    p = planned(MATMUL)
    assert stdout.startswith("plan for @matmul_bias_relu")  # the table is still printed
    (nest,) = p.nests
    nests = [c for c in dot.clusters if c.startswith("cluster_nest")]
    assert nests == ["cluster_nest1"]
    label = dot.clusters["cluster_nest1"]["attrs"]["label"]
    pct = round(100 * nest.footprint_bytes / nest.budget_bytes)
    assert f"nest 1: {nest.loop_kind}" in label
    assert f"tile sizes [{', '.join(map(str, nest.tile_sizes))}]" in label
    assert f"{nest.footprint_bytes} / {nest.budget_bytes} bytes ({pct}%)" in label
    fill = dot.clusters["cluster_nest1"]["attrs"]["fillcolor"]
    assert fill.startswith("#")
    # the contraction group is a cluster inside the nest, holding all three ops
    group = dot.clusters["cluster_group0"]
    assert group["parent"] == "cluster_nest1"
    assert sorted(group["nodes"]) == ["op0", "op1", "op2"]
    assert "#0 contraction" in group["attrs"]["label"]
    (k_loop,) = nest.reduction_tiling  # the traffic search's K loop around the fused matmul
    assert dot.label("op1") == ["op1 linalg.matmul", "line 9", "tensor<1024x1024xf32>",
                                f"inner scf.for: d{k_loop.dim} by {k_loop.size}"]
    assert dot.label("arg0") == ["%arg0", "tensor<1024x1024xf32>"]
    assert dot.nodes["arg0"]["cluster"] is None and dot.nodes["return"]["cluster"] is None
    # A -> matmul carries the tile the transformed IR really slices out of %arg0
    schedule = tmp_path / "mm.sched.mlir"
    schedule.write_text(render(p))
    (tile,) = slices_of_arg(apply_schedule(MATMUL, schedule), 0)
    a_edge = dot.edge("arg0", "op1")
    assert a_edge["label"] == shape(tile)
    assert "style" not in a_edge
    assert dot.edge("op2", "return")["label"] == "1024x1024"
    assert dot.edge("op1", "op2")["label"] == shape(tile[:1] + [nest.tile_sizes[1]])
    assert not any(a.get("style") == "dashed" for _, _, a in dot.edges)


def test_attention_groups_nest(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    dot, _ = explain_graph(tmp_path, ATTENTION, capsys=capsys)
    p = planned(ATTENTION)
    assert len(p.nests) == 1
    by_pattern = {g.pattern: g for g in p.groups if g.pattern in ("attention", "softmax")}
    attention = f"cluster_group{by_pattern['attention'].id}"
    softmax = f"cluster_group{by_pattern['softmax'].id}"
    assert dot.clusters[attention]["parent"] == "cluster_nest1"
    assert dot.clusters[softmax]["parent"] == attention  # softmax inside attention inside the nest
    for g in p.groups:
        cluster = f"cluster_group{g.id}"
        assert cluster in dot.clusters
        for m in g.members:
            assert cluster in dot.ancestors(dot.nodes[f"op{m}"]["cluster"])
    for m in by_pattern["softmax"].members:
        assert dot.nodes[f"op{m}"]["cluster"] == softmax
        assert not any(line.startswith("#") for line in dot.label(f"op{m}"))  # clusters, not marks
    # every edge inside the nest is solid and carries a tile, not the full tensor
    assert not any(a.get("style") == "dashed" for _, _, a in dot.edges)
    assert dot.edge("arg0", "op1")["label"] != "256x128"


def test_rfc_dag_nests_and_crossing_edges(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    dot, _ = explain_graph(tmp_path, RFC_DAG, "--memory", "600", capsys=capsys)
    p = planned(RFC_DAG, 600)
    nest_of = {o.index: n.id for n in p.nests for o in n.ops}
    assert len(p.nests) >= 2
    assert sorted(c for c in dot.clusters if c.startswith("cluster_nest")) == \
        sorted(f"cluster_nest{n.id}" for n in p.nests)
    fills = {dot.clusters[f"cluster_nest{n.id}"]["attrs"]["fillcolor"] for n in p.nests}
    assert len(fills) == len(p.nests)  # one colour per nest
    for op, nest in nest_of.items():
        assert f"cluster_nest{nest}" in dot.ancestors(dot.nodes[f"op{op}"]["cluster"])
    payload = load_payload(RFC_DAG)
    dashed = 0
    for src, dst, attrs in dot.edges:
        if src.startswith("op") and dst.startswith("op"):
            a, b = int(src[2:]), int(dst[2:])
            crosses = nest_of[a] != nest_of[b]
            assert (attrs.get("style") == "dashed") == crosses, (src, dst)
            if crosses:  # through main memory: the whole tensor
                dashed += 1
                assert attrs["label"] == shape(payload.ops[a].results[0].shape)
        else:
            assert attrs.get("style") != "dashed"
    assert dashed >= 1


def test_untiled_ops_outside_nests(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    dot, _ = explain_graph(tmp_path, RFC_DAG, capsys=capsys)  # everything fits 256 KiB
    p = planned(RFC_DAG)
    assert not p.nests and not any(c.startswith("cluster_nest") for c in dot.clusters)
    for u in p.untiled:
        node = dot.nodes[f"op{u.op.index}"]
        assert f"untiled, fits: {u.footprint_bytes} bytes" in dot.label(f"op{u.op.index}")
        assert not any(c.startswith("cluster_nest") for c in dot.ancestors(node["cluster"]))
    assert dot.edge("arg0", "op1")["label"] == "16x10"  # untiled consumer: the full shape


def test_group_that_does_not_nest_is_marked():
    payload = load_payload(ATTENTION)
    p = planned(ATTENTION)
    # a made-up group overlapping the contraction and softmax groups partly
    odd = GroupInfo(id=99, pattern="odd", principal=2, members=[2, 3], nests=[1])
    dot = parse_dot(render_dot(build_graph(p.model_copy(update={"groups": [*p.groups, odd]}), payload)))
    assert "cluster_group99" not in dot.clusters
    for m in (2, 3):
        assert "#99 odd" in dot.label(f"op{m}")
    assert "#99 odd" not in dot.label("op1")


RESHAPE = """#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @reshape(%x: tensor<64x64xf32>) -> tensor<4096xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<4096xf32>
  %t0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  %c = tensor.collapse_shape %t0 [[0, 1]] : tensor<64x64xf32> into tensor<4096xf32>
  %t1 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%c : tensor<4096xf32>) outs(%e1 : tensor<4096xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4096xf32>
  return %t1 : tensor<4096xf32>
}
"""


def test_non_tileable_op_between(tmp_path: Path):
    """A reshape between two tileable ops is a small grey node; tensor.empty is not drawn."""
    path = tmp_path / "reshape.mlir"
    path.write_text(RESHAPE)
    model = load_payload(path)
    dot = parse_dot(render_dot(build_graph(plan(model, load_target("npu-256k", 4000)), model)))
    others = [n for n in dot.nodes if n.startswith("other")]
    assert len(others) == 1 and dot.label(others[0])[0] == "tensor.collapse_shape"
    assert dot.nodes[others[0]]["attrs"]["fillcolor"] == "#e5e5e5"
    assert dot.edge("op0", others[0]) == {"label": "64x64", "style": "dashed"}
    assert dot.edge(others[0], "op1") == {"label": "4096", "style": "dashed"}


@pytest.mark.parametrize("payload", PAYLOADS, ids=lambda p: p.stem)
def test_every_payload_draws(payload: Path):
    """Each tileable op once, in its nest's cluster; every edge between declared nodes; and `dot` accepts it."""
    model = load_payload(payload)
    p = plan(model, load_target("npu-256k", 3000))
    text = render_dot(build_graph(p, model))
    dot = parse_dot(text)
    nest_of = {o.index: n.id for n in p.nests for o in n.ops}
    for op in model.ops:
        node = dot.nodes[f"op{op.index}"]
        assert dot.label(f"op{op.index}")[0] == f"op{op.index} {op.name}"
        if op.index in nest_of:
            assert f"cluster_nest{nest_of[op.index]}" in dot.ancestors(node["cluster"])
    for src, dst, attrs in dot.edges:
        assert src in dot.nodes and dst in dot.nodes and attrs["label"]
    if HAVE_DOT:
        proc = subprocess.run(["dot", "-Tsvg"], input=text, capture_output=True, text=True)
        assert proc.returncode == 0 and not proc.stderr, proc.stderr


# --- SVG and errors ----------------------------------------------------------

@pytest.mark.skipif(not HAVE_DOT, reason="Graphviz `dot` not installed")
def test_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    out = tmp_path / "attention.svg"
    assert main(["explain", str(ATTENTION), "--graph", str(out), "--json"]) == 0
    assert capsys.readouterr().out.lstrip().startswith("{")  # --json still goes to stdout
    root = ET.fromstring(out.read_text())
    assert root.tag.endswith("svg")
    texts = [t.text or "" for t in root.iter() if t.tag.endswith("text")]
    assert any(t.startswith("nest 1: scf.forall") for t in texts), texts[:10]
    assert any("bytes (" in t for t in texts)


def test_svg_without_graphviz(tmp_path: Path):
    empty = tmp_path / "bin"
    empty.mkdir()
    out = tmp_path / "a.svg"
    proc = run_cli("explain", str(ATTENTION), "--graph", str(out), env={"PATH": str(empty)})
    line = assert_one_line_error(proc, "graphviz", str(out).lower())
    assert "`graphviz`" in line  # the Debian package
    assert proc.stdout == ""
    assert not out.exists() and not list(tmp_path.glob(".a.svg*"))


def test_dot_failure(tmp_path: Path):
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "dot").write_text("#!/bin/sh\necho 'Error: <stdin>: syntax error in line 3' >&2\necho more >&2\nexit 1\n")
    (fake / "dot").chmod(0o755)
    out = tmp_path / "a.svg"
    proc = run_cli("explain", str(MATMUL), "--graph", str(out), env={"PATH": str(fake)})
    assert_one_line_error(proc, "syntax error in line 3", str(out).lower())
    assert not out.exists() and list(tmp_path.iterdir()) == [fake]


@pytest.mark.parametrize("name", ["graph.png", "graph", "graph.dot.txt"])
def test_unknown_suffix(tmp_path: Path, name: str):
    out = tmp_path / name
    proc = run_cli("explain", str(MATMUL), "--graph", str(out))
    assert_one_line_error(proc, "unknown graph format", str(out).lower())
    assert proc.stdout == ""
    assert not list(tmp_path.iterdir())


def test_never_overwrites_the_payload(tmp_path: Path):
    payload = tmp_path / "mm.dot"  # a payload that happens to end in .dot
    payload.write_text(MATMUL.read_text())
    proc = run_cli("explain", str(payload), "--graph", str(payload))
    assert_one_line_error(proc, "refusing to overwrite an input file")
    assert payload.read_text() == MATMUL.read_text()


def test_graph_format():
    assert graph_format(Path("x/y.DOT")) == ".dot"
    with pytest.raises(SchedgenError, match="unknown graph format"):
        graph_format(Path("y.png"))
