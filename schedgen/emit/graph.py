"""The plan drawn as a graph (`schedgen explain --graph OUT.dot|OUT.svg`):
the payload's op DAG with every loop nest as a coloured Graphviz cluster,
fuse groups as clusters inside it, and edges labelled with the tile the
consumer reads. Python builds the graph as plain models; the Jinja2
template templates/graph.dot.j2 only writes them as DOT."""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path
from typing import Literal

import jinja2
from pydantic import BaseModel

from schedgen.analysis.footprint import DimTile, nest_tiles, operand_tile
from schedgen.emit.template_env import environment
from schedgen.errors import SchedgenError
from schedgen.ir.load import load_payload
from schedgen.model.payload import Operand, Payload, ValueRef
from schedgen.model.plan import GroupInfo, LoopNest, Plan

TEMPLATE = "graph.dot.j2"
FORMATS = (".dot", ".svg")
# (fill, border) per nest, cycled.
NEST_COLOURS = [("#dbeafe", "#1d4ed8"), ("#dcfce7", "#15803d"), ("#fef3c7", "#b45309"), ("#fce7f3", "#be185d"),
                ("#ede9fe", "#6d28d9"), ("#cffafe", "#0e7490"), ("#ffedd5", "#c2410c"), ("#f1f5f9", "#334155")]


class Node(BaseModel):
    id: str
    kind: Literal["arg", "op", "other", "return"]
    lines: list[str]
    root: bool = False  # the root of its nest (drawn with a heavier border)


class Edge(BaseModel):
    src: str
    dst: str
    label: str
    dashed: bool  # crosses nests: the value goes through main memory


class Cluster(BaseModel):
    id: str
    kind: Literal["nest", "group"]
    lines: list[str]
    fill: str | None = None
    border: str
    nodes: list[Node] = []
    children: list[Cluster] = []


class Graph(BaseModel):
    name: str
    title: list[str]
    nodes: list[Node]  # outside any cluster
    clusters: list[Cluster]
    edges: list[Edge]


def graph_format(path: Path) -> str:
    """The output format of `path` (".dot" or ".svg"); checked before planning,
    so a bad path fails fast and leaves no file."""
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise SchedgenError(str(path), f"unknown graph format '{path.suffix or '(no suffix)'}': "
                            "use OUT.dot (Graphviz DOT) or OUT.svg")
    if suffix == ".svg" and shutil.which("dot") is None:
        raise SchedgenError(str(path), "cannot write SVG: Graphviz `dot` is not on PATH; install Graphviz "
                            "(Debian package `graphviz`) or write OUT.dot")
    return suffix


def graph_text(plan: Plan, path: Path, payload: Payload | None = None) -> str:
    """What to write to `path`: DOT text, or for .svg what `dot -Tsvg` makes of it."""
    fmt = graph_format(path)
    dot = render_dot(build_graph(plan, payload or load_payload(plan.payload, plan.func)))
    return dot if fmt == ".dot" else _svg(dot, path)


@functools.cache
def _environment() -> jinja2.Environment:
    env = environment().overlay()
    env.filters["dotstr"] = _dot_string
    return env


def render_dot(graph: Graph) -> str:
    return _environment().get_template(TEMPLATE).render(graph=graph)


def _dot_string(text: str | list[str]) -> str:
    """A quoted DOT string; a list is one line per item."""
    lines = [text] if isinstance(text, str) else text
    return '"' + r"\n".join(s.replace("\\", "\\\\").replace('"', '\\"') for s in lines) + '"'


def _svg(dot: str, path: Path) -> str:
    exe = shutil.which("dot")
    try:
        proc = subprocess.run([exe or "dot", "-Tsvg"], input=dot, capture_output=True, text=True, errors="replace")
    except OSError as exc:  # gone since graph_format looked
        raise SchedgenError(str(path), f"cannot run Graphviz `dot` ({exc.strerror}); install Graphviz "
                            "(Debian package `graphviz`)") from None
    if proc.returncode != 0 or not proc.stdout.strip():
        first = next((ln.strip() for ln in proc.stderr.splitlines() if ln.strip()), f"exit status {proc.returncode}")
        raise SchedgenError(str(path), f"`dot -Tsvg` failed: {first}")
    return proc.stdout


def _shape(shape: tuple[int, ...] | list[int]) -> str:
    return "x".join(map(str, shape)) if shape else "scalar"


def _arg_type(shape: tuple[int, ...], element: str) -> str:
    # the payload model keeps (shape, element type); a non-tensor argument has () and its type
    return f"tensor<{'x'.join(map(str, shape))}x{element}>" if shape else element


class _Tiles:
    """The tile each nest op iterates over in its innermost loop body: the
    forall-level tiles of schedgen.footprint, with the plan's sequential
    (reduction or two-level inner) loop sizes on the dims they tile."""

    def __init__(self, payload: Payload, nests: list[LoopNest]) -> None:
        self.op_tiles: dict[int, list[DimTile]] = {}
        for n in nests:
            root = payload.ops[n.root.index]
            sizes = tuple(s or root.domain[d] for d, s in enumerate(n.tile_sizes))
            tiles = nest_tiles(payload, n.root.index, frozenset(o.index for o in n.ops), sizes,
                               tuple(c.index for c in n.consumers))
            for idx, t in (tiles or {}).items():
                inner = list(t)
                for r in n.reduction_tiling:
                    if r.op == idx:
                        inner[r.dim] = DimTile(r.size, t[r.dim].offset)
                self.op_tiles[idx] = inner

    def read(self, op: int, operand: Operand) -> str:
        tiles = self.op_tiles.get(op)
        if tiles is None:
            return _shape(operand.shape)
        t = operand_tile(operand, tiles)
        return "tile n/a" if t is None else _shape([x.size for x in t])  # pad/pack/unpack: no affine maps


def _laminar(groups: list[GroupInfo]) -> tuple[list[tuple[GroupInfo, GroupInfo | None]], list[GroupInfo]]:
    """Groups that nest properly, each with its parent (None: top), largest
    first; and the groups that overlap another one partly (not drawn as
    clusters)."""
    placed: list[tuple[GroupInfo, GroupInfo | None]] = []
    crossing: list[GroupInfo] = []
    for g in sorted(groups, key=lambda g: (-len(g.members), g.id)):
        mine = set(g.members)
        if any(mine & set(p.members) and not mine <= set(p.members) for p, _ in placed):
            crossing.append(g)
            continue
        parents = [p for p, _ in placed if mine <= set(p.members)]
        placed.append((g, min(parents, key=lambda p: len(p.members)) if parents else None))
    return placed, crossing


def build_graph(plan: Plan, payload: Payload) -> Graph:
    budget = plan.target.memory_bytes
    home: dict[int, int] = {o.index: n.id for n in plan.nests for o in n.ops}  # op -> nest id
    untiled = {u.op.index: u for u in plan.untiled}
    tiles = _Tiles(payload, plan.nests)
    inner_loops: dict[int, list[str]] = {}
    for n in plan.nests:
        for r in n.reduction_tiling:
            inner_loops.setdefault(r.op, []).append(f"d{r.dim} by {r.size}")

    # Groups: clusters inside the nest (or, untiled, at the top) that holds
    # all their ops; otherwise a mark in each member's label.
    marks: dict[int, list[str]] = {}
    homes: dict[int | None, list[GroupInfo]] = {}
    for g in plan.groups:
        where = {home.get(m) for m in g.members}
        if len(where) == 1:
            homes.setdefault(where.pop(), []).append(g)
        else:
            for m in g.members:
                marks.setdefault(m, []).append(f"#{g.id} {g.pattern}")
    group_tree: dict[int | None, list[tuple[GroupInfo, GroupInfo | None]]] = {}
    for where, gs in homes.items():
        group_tree[where], crossing = _laminar(gs)
        for g in crossing:
            for m in g.members:
                marks.setdefault(m, []).append(f"#{g.id} {g.pattern}")

    roots = {n.root.index for n in plan.nests}

    def op_node(i: int) -> Node:
        op = payload.ops[i]
        lines = [f"op{i} {op.name}", f"line {op.line}", ", ".join(r.type_str for r in op.results)]
        lines += [f"inner scf.for: {s}" for s in inner_loops.get(i, [])]
        if i in untiled:
            u = untiled[i]
            lines.append(f"untiled, fits: {u.footprint_bytes} bytes" if u.footprint_bytes <= budget
                         else f"untiled: {u.footprint_bytes} bytes, over the budget")
        lines += sorted(marks.get(i, []))
        return Node(id=f"op{i}", kind="op", lines=lines, root=i in roots)

    def group_clusters(where: int | None, parent: GroupInfo | None, owned: set[int]) -> list[Cluster]:
        """Clusters of the groups under `parent`; `owned` collects the ops they hold."""
        out = []
        for g, p in sorted(group_tree.get(where, []), key=lambda gp: min(gp[0].members)):
            if p is not parent:
                continue
            children = group_clusters(where, g, owned)
            inside = {m for c, up in group_tree[where] if up is g for m in c.members}
            nodes = [op_node(m) for m in sorted(g.members) if m not in inside]
            owned.update(g.members)
            out.append(Cluster(id=f"cluster_group{g.id}", kind="group", border="#555555", nodes=nodes,
                               children=children, lines=[f"#{g.id} {g.pattern} (principal op{g.principal})"]))
        return out

    clusters = []
    for k, n in enumerate(sorted(plan.nests, key=lambda n: n.id)):
        fill, border = NEST_COLOURS[k % len(NEST_COLOURS)]
        owned: set[int] = set()
        children = group_clusters(n.id, None, owned)
        kind = n.loop_kind + (", two-level" if n.levels == 2 else "") + \
            (", producer-driven" if n.driven == "producer" else "")
        pct = 100.0 * n.footprint_bytes / n.budget_bytes
        clusters.append(Cluster(
            id=f"cluster_nest{n.id}", kind="nest", fill=fill, border=border, children=children,
            nodes=[op_node(o.index) for o in sorted(n.ops, key=lambda o: o.index) if o.index not in owned],
            lines=[f"nest {n.id}: {kind}, tile sizes [{', '.join(map(str, n.tile_sizes))}]",
                   f"{n.footprint_bytes} / {n.budget_bytes} bytes ({pct:.0f}%)"]))
    owned_top: set[int] = set()
    clusters += group_clusters(None, None, owned_top)

    nodes = [Node(id=f"arg{i}", kind="arg", lines=[f"%arg{i}", _arg_type(shape, element)])
             for i, (shape, element) in enumerate(payload.arg_types)]
    nodes += [op_node(o.index) for o in payload.ops if o.index not in home and o.index not in owned_top]
    shown = _between(payload)
    nodes += [Node(id=f"other{o.index}", kind="other", lines=[o.name, f"line {o.line}"])
              for o in payload.others if o.index in shown]
    nodes.append(Node(id="return", kind="return", lines=["return"]))

    def node_id(v: ValueRef) -> str | None:
        if v.kind == "other" and v.index not in shown:
            return None  # tensor.empty, constants: not drawn
        return f"{v.kind}{v.index}"

    def through_memory(a: ValueRef, b: ValueRef) -> bool:
        """Between two computations that are not in one nest (arguments are inputs, not computations)."""
        if "arg" in (a.kind, b.kind):
            return False
        if "other" in (a.kind, b.kind):
            return True
        return home.get(a.index) is None or home.get(a.index) != home.get(b.index)

    def full(v: ValueRef) -> str:
        if v.kind == "arg":
            return _shape(payload.arg_types[v.index][0])
        if v.kind == "op":
            return _shape(payload.ops[v.index].results[v.result].shape)
        return ""  # a non-tileable op's result: its type is not in the model

    edges = []
    for op in payload.ops:
        me = ValueRef("op", op.index)
        for operand in op.operands:
            src = node_id(operand.value)
            if src is None:
                continue
            crossing = through_memory(operand.value, me)
            label = _shape(operand.shape) if crossing else tiles.read(op.index, operand)
            edges.append(Edge(src=src, dst=f"op{op.index}", label=label, dashed=crossing))
    for o in payload.others:
        if o.index in shown:
            for v in o.operands:
                src = node_id(v)
                if src is not None:
                    edges.append(Edge(src=src, dst=f"other{o.index}", label=full(v),
                                      dashed=through_memory(v, ValueRef("other", o.index))))
    for v in payload.returns:
        src = node_id(v)
        if src is not None:
            edges.append(Edge(src=src, dst="return", label=full(v), dashed=False))

    t = plan.target
    title = [f"@{plan.func} in {plan.payload}: target {t.name} ({budget} bytes), fuse mode {plan.fuse_mode.value}, "
             f"footprint {plan.footprint_mode}",
             "edges: the tile the consumer reads in its loop body; dashed: through main memory (full tensor)"]
    return Graph(name=plan.func, title=title, nodes=nodes, clusters=clusters, edges=edges)


def _between(payload: Payload) -> set[int]:
    """Non-tileable ops on a path from an argument or a tileable op to a
    tileable op or the return (reshapes and the like; not tensor.empty or
    constants, which only feed)."""
    fed: set[int] = set()
    for o in payload.others:  # program order: operands come first
        if any(v.kind in ("arg", "op") or (v.kind == "other" and v.index in fed) for v in o.operands):
            fed.add(o.index)
    feeds = {operand.value.index for op in payload.ops for operand in op.operands if operand.value.kind == "other"}
    feeds |= {v.index for v in payload.returns if v.kind == "other"}
    for o in reversed(payload.others):
        if o.index in feeds:
            feeds |= {v.index for v in o.operands if v.kind == "other"}
    return fed & feeds

