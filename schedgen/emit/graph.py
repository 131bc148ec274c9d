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

from schedgen.analysis.footprint import DimTile, innermost_tiles, operand_tile
from schedgen.errors import SchedgenError
from schedgen.ir.load import load_payload
from schedgen.model.payload import Operand, Payload, ValueRef
from schedgen.model.plan import GroupInfo, LoopNest, Plan
from schedgen.template_env import environment

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
    dot = render_dot(build_graph(plan, payload or load_payload(plan.payload, plan.func, "img2col" in plan.normalize)))
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
    """The tile each nest op iterates over in its innermost loop body
    (schedgen.analysis.footprint.innermost_tiles), as edge labels."""

    def __init__(self, payload: Payload, nests: list[LoopNest]) -> None:
        self.op_tiles: dict[int, list[DimTile]] = {}
        for n in nests:
            self.op_tiles.update(innermost_tiles(payload, n))

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
    return _GraphBuilder(plan, payload).graph()


class _GraphBuilder:
    """The graph of one plan: what each node says, which cluster holds it,
    and what each edge carries."""

    def __init__(self, plan: Plan, payload: Payload) -> None:
        self.plan, self.payload = plan, payload
        self.budget = plan.target.memory_bytes
        # an op recomputed in several nests (LoopNest.recomputed): a node in each, op<i>_n<nest>
        self.copies: dict[int, set[int]] = {}
        for n in plan.nests:
            for i in n.copies:
                self.copies.setdefault(i, set()).add(n.id)
        self.home: dict[int, int] = {o.index: n.id for n in plan.nests for o in n.ops
                                     if o.index not in self.copies}  # op -> nest id
        self.untiled = {u.op.index: u for u in plan.untiled}
        self.tiles = _Tiles(payload, plan.nests)
        self.roots = {n.root.index for n in plan.nests}
        self.inner_loops: dict[int, list[str]] = {}
        for n in plan.nests:
            for r in n.reduction_tiling:
                self.inner_loops.setdefault(r.op, []).append(f"d{r.dim} by {r.size}")
        self.shown = _between(payload)
        self._place_groups()

    def _place_groups(self) -> None:
        """Groups: clusters inside the nest (or, untiled, at the top) that holds
        all their ops; otherwise a mark in each member's label."""
        self.marks: dict[int, list[str]] = {}
        homes: dict[int | None, list[GroupInfo]] = {}
        for g in self.plan.groups:
            where = {self.home.get(m) for m in g.members}
            if len(where) == 1:
                homes.setdefault(where.pop(), []).append(g)
            else:
                self._mark(g)
        self.group_tree: dict[int | None, list[tuple[GroupInfo, GroupInfo | None]]] = {}
        for where, gs in homes.items():
            self.group_tree[where], crossing = _laminar(gs)
            for g in crossing:
                self._mark(g)

    def _mark(self, g: GroupInfo) -> None:
        for m in g.members:
            self.marks.setdefault(m, []).append(f"#{g.id} {g.pattern}")

    def graph(self) -> Graph:
        plan, t = self.plan, self.plan.target
        owned_top: set[int] = set()
        clusters = self._nest_clusters() + self._group_clusters(None, None, owned_top)
        title = [f"@{plan.func} in {plan.payload}: target {t.name} ({self.budget} bytes), "
                 f"fuse mode {plan.fuse_mode.value}, footprint {plan.footprint_mode}",
                 "edges: the tile the consumer reads in its loop body; dashed: through main memory (full tensor)"]
        return Graph(name=plan.func, title=title, nodes=self._top_nodes(owned_top), clusters=clusters,
                     edges=self._edges())

    def _op_node(self, i: int, nest: int | None = None) -> Node:
        op = self.payload.ops[i]
        lines = [f"op{i} {op.name}", f"line {op.line}", ", ".join(r.type_str for r in op.results)]
        lines += [f"inner scf.for: {s}" for s in self.inner_loops.get(i, [])]
        if i in self.untiled:
            u = self.untiled[i]
            lines.append(f"untiled, fits: {u.footprint_bytes} bytes" if u.footprint_bytes <= self.budget
                         else f"untiled: {u.footprint_bytes} bytes, over the budget")
        lines += sorted(self.marks.get(i, []))
        if i in self.copies:
            lines.append(f"computed in each nest reading it ({', '.join(map(str, sorted(self.copies[i])))})")
            return Node(id=f"op{i}_n{nest}", kind="op", lines=lines)
        return Node(id=f"op{i}", kind="op", lines=lines, root=i in self.roots)

    def _group_clusters(self, where: int | None, parent: GroupInfo | None, owned: set[int]) -> list[Cluster]:
        """Clusters of the groups under `parent`; `owned` collects the ops they hold."""
        out = []
        tree = self.group_tree.get(where, [])
        for g, p in sorted(tree, key=lambda gp: min(gp[0].members)):
            if p is not parent:
                continue
            children = self._group_clusters(where, g, owned)
            inside = {m for c, up in tree if up is g for m in c.members}
            nodes = [self._op_node(m) for m in sorted(g.members) if m not in inside]
            owned.update(g.members)
            out.append(Cluster(id=f"cluster_group{g.id}", kind="group", border="#555555", nodes=nodes,
                               children=children, lines=[f"#{g.id} {g.pattern} (principal op{g.principal})"]))
        return out

    def _nest_clusters(self) -> list[Cluster]:
        clusters = []
        for k, n in enumerate(sorted(self.plan.nests, key=lambda n: n.id)):
            fill, border = NEST_COLOURS[k % len(NEST_COLOURS)]
            owned: set[int] = set()
            children = self._group_clusters(n.id, None, owned)
            kind = n.loop_kind + (", two-level" if n.levels == 2 else "") + \
                (", producer-driven" if n.driven == "producer" else "")
            pct = 100.0 * n.footprint_bytes / n.budget_bytes
            clusters.append(Cluster(
                id=f"cluster_nest{n.id}", kind="nest", fill=fill, border=border, children=children,
                nodes=[self._op_node(o.index, n.id) for o in sorted(n.ops, key=lambda o: o.index)
                       if o.index not in owned],
                lines=[f"nest {n.id}: {kind}, tile sizes [{', '.join(map(str, n.tile_sizes))}]",
                       f"{n.footprint_bytes} / {n.budget_bytes} bytes ({pct:.0f}%)"]))
        return clusters

    def _top_nodes(self, owned_top: set[int]) -> list[Node]:
        payload = self.payload
        nodes = [Node(id=f"arg{i}", kind="arg", lines=[f"%arg{i}", _arg_type(shape, element)])
                 for i, (shape, element) in enumerate(payload.arg_types)]
        nodes += [self._op_node(o.index) for o in payload.ops
                  if o.index not in self.home and o.index not in owned_top and o.index not in self.copies]
        nodes += [Node(id=f"other{o.index}", kind="other", lines=[o.name, f"line {o.line}"])
                  for o in payload.others if o.index in self.shown]
        nodes.append(Node(id="return", kind="return", lines=["return"]))
        return nodes

    def _node_id(self, v: ValueRef) -> str | None:
        if v.kind == "other" and v.index not in self.shown:
            return None  # tensor.empty, constants: not drawn
        return f"{v.kind}{v.index}"

    def _through_memory(self, a: ValueRef, b: ValueRef) -> bool:
        """Between two computations that are not in one nest (arguments are inputs, not computations)."""
        if "arg" in (a.kind, b.kind):
            return False
        if "other" in (a.kind, b.kind):
            return True
        return self.home.get(a.index) is None or self.home.get(a.index) != self.home.get(b.index)

    def _full(self, v: ValueRef) -> str:
        if v.kind == "arg":
            return _shape(self.payload.arg_types[v.index][0])
        if v.kind == "op":
            return _shape(self.payload.ops[v.index].results[v.result].shape)
        return ""  # a non-tileable op's result: its type is not in the model

    def _edges(self) -> list[Edge]:
        payload, edges = self.payload, []
        for op in payload.ops:
            me = ValueRef("op", op.index)
            for operand in op.operands:
                src = self._node_id(operand.value)
                if src is None:
                    continue
                crossing = self._through_memory(operand.value, me)
                if operand.value.kind == "op" and operand.value.index in self.copies:
                    src, crossing = f"op{operand.value.index}_n{self.home.get(op.index)}", False
                label = _shape(operand.shape) if crossing else self.tiles.read(op.index, operand)
                edges.append(Edge(src=src, dst=f"op{op.index}", label=label, dashed=crossing))
        for o in payload.others:
            if o.index in self.shown:
                for v in o.operands:
                    src = self._node_id(v)
                    if src is not None:
                        edges.append(Edge(src=src, dst=f"other{o.index}", label=self._full(v),
                                          dashed=self._through_memory(v, ValueRef("other", o.index))))
        for v in payload.returns:
            src = self._node_id(v)
            if src is not None:
                edges.append(Edge(src=src, dst="return", label=self._full(v), dashed=False))
        return edges


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

