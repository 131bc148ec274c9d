"""Render a plan into a Transform-dialect schedule with the Jinja2 template
shipped in schedgen.templates. Python only names handles and groups data;
every line of transform IR comes from the template."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from math import prod

from schedgen import __version__
from schedgen.ir.normalize import IMG2COL, IMG2COL_1X1_RULE
from schedgen.model.payload import NON_STRUCTURED_TILEABLE
from schedgen.model.plan import InnerTiling, LoopNest, Plan, RegisterKernel
from schedgen.template_env import environment

TEMPLATE = "schedule.mlir.j2"


def _var(op_index: int) -> str:
    return f"op{op_index}"


def _mark(op: int, nest: LoopNest | None) -> str:
    """The attributes @schedgen_cpu_levels matches an op by: its schedgen.op,
    and for a copy of an op recomputed in several nests, the nest's id."""
    again = nest is not None and op in nest.copies
    return f"{{schedgen.op = {op} : i64" + (f", schedgen.copy = {nest.id} : i64}}" if again else "}")


def _groups(plan: Plan) -> list[dict]:
    """One match per op name and result type; by name alone where an op of
    that name has several results (filter_result_type matches one-result ops)."""
    by_name_only = {op.name for op in plan.ops if op.results > 1}
    by_type: dict[tuple[str, str | None], list] = defaultdict(list)
    for op in plan.ops:
        by_type[(op.name, None if op.name in by_name_only else op.result_type)].append(op)
    groups = []
    for g, ((name, rtype), ops) in enumerate(by_type.items()):
        groups.append({"name": name, "result_type": rtype, "var": f"match{g}",
                       "handles": [{"var": _var(o.index), "label": f"op{o.index}", "line": o.line} for o in ops]})
    return groups


def _nest_view(plan: Plan, n: LoopNest, kernel_views: list[dict]) -> dict:
    root_dims = len(n.tile_sizes)
    loop = f"n{n.id}_loop"
    # consumer-driven scf.for nests (no parallel dims) tile only along reductions, from the matched handle
    tiles_root = n.loop_kind == "scf.forall" or n.driven == "producer"
    handles = {n.root.index: f"n{n.id}_op{n.root.index}" if tiles_root else _var(n.root.index)}
    fuse_all = n.fuse_all
    producers, fresh = _producer_steps(n, loop)
    handles.update({p["op"]: p["fused"] for p in producers})
    consumers = []
    current = producers[-1]["loop"] if producers else loop
    for k, c in enumerate(n.consumers):
        fused, after = f"n{n.id}_op{c.index}", f"n{n.id}_cloop{k + 1}"
        consumers.append({"var": _var(c.index), "label": f"op{c.index}", "fused": fused, "into": current,
                          "loop": after, "reuse": c.index in n.reuse_dest})
        handles[c.index] = fused
        current = after
    reduction_loops = _reduction_loops(n, handles)
    for r in reduction_loops:  # the op's handle after its reduction (or two-level inner) loops
        handles[_op_of(r["tiled"])] = r["tiled"]
    loop_producers = _loop_producers(n, reduction_loops)
    handles.update({p["op"]: p["fused"] for p in loop_producers})
    if fuse_all:
        handles = {i: h for i, h in handles.items() if i == n.root.index or i in {c.index for c in n.consumers}}
    inner = {t.op: t for t in plan.inner if t.copy_in in (None, n.id)}
    named = _cpu_named(plan)
    return {
        "inner": [_inner_view(plan, inner[i], h, n) for i, h in sorted(handles.items()) if i in inner],
        # ops named (schedgen.op) for @schedgen_cpu_levels: inner tilings, register kernels, the ops fused in them
        "named": [{"op": i, "source_handle": h, "again": i in n.copies} for i, h in sorted(handles.items())
                  if i in named],
        "fresh": fresh,
        "kernels": [kv for k, kv in zip(plan.kernels, kernel_views) if k.root in handles],
        "id": n.id, "root": f"op{n.root.index} {n.root.name}", "line": n.root.line,
        "ops": ", ".join(o.label for o in n.ops),
        "tile_sizes": n.tile_sizes, "dims": ", ".join(f"d{d}" for d in range(root_dims)),
        "reductions": n.reduction_tiling, "footprint": n.footprint_bytes, "budget": n.budget_bytes,
        "row_loop": {"sizes": n.row_tiles, "tiled": f"n{n.id}_rows_op{n.root.index}",
                     "loops": [f"n{n.id}_rows_d{d}" for d, s in enumerate(n.row_tiles) if s]} if n.row_tiles else None,
        "percent": round(100 * n.footprint_bytes / n.budget_bytes), "notes": n.notes,
        "analytic": n.analytic_footprint_bytes, "buffers": len(n.local_buffers),
        "loop_kind": n.loop_kind, "root_var": _var(n.root.index), "tiled": f"n{n.id}_op{n.root.index}", "loop": loop,
        "final_loop": current, "parallel": n.id in plan.parallel_nests,
        # memory targets only: a CPU reads a shared tile from its cache either way, and CSE
        # there could merge ops named for @schedgen_cpu_levels
        "shared_tiles": ", ".join(n.shared_tiles) if plan.target.cpu is None else "",
        "producers": producers, "reduction_loops": reduction_loops, "consumers": consumers,
        "loop_producers": loop_producers, "loop_into_label": f"op{n.loop_into}",
        "loop_producer_labels": ", ".join(f"op{p.index}" for p in n.loop_producers),
        "driven": n.driven, "levels": n.levels, "fuse_all": fuse_all, "reuse_any": bool(n.reuse_dest),
        "root_label": f"op{n.root.index}",
        "producer_labels": ", ".join(f"op{p.index}" for p in n.producers),
        "consumer_labels": ", ".join(f"op{c.index}" for c in n.consumers),
    }


def _producer_steps(n: LoopNest, loop: str) -> tuple[list[dict], list[dict]]:
    """fuse_into_containing_op steps of a forall nest's producers, and the
    fresh handles of those it recomputes: fusing one into an earlier nest
    consumed every handle to it (LoopNest.recomputed)."""
    if n.fuse_all:
        return [], []
    fresh = {r.op: {"var": f"n{n.id}_op{r.op}_src", "reader": _var(r.reader), "operand": r.operand,
                    "label": f"op{r.op}"} for r in n.recomputed}
    steps = []
    for k, p in enumerate(n.producers):
        steps.append({"op": p.index, "var": fresh[p.index]["var"] if p.index in fresh else _var(p.index),
                      "label": f"op{p.index}", "fused": f"n{n.id}_op{p.index}",
                      "into": loop if k == 0 else f"n{n.id}_loop{k}", "loop": f"n{n.id}_loop{k + 1}",
                      "cse": p.index in n.cse_before, "cse_after": p.index in n.cse_after})
    return steps, list(fresh.values())


def _cpu_named(plan: Plan) -> set[int]:
    """Ops @schedgen_cpu_levels matches by their schedgen.op mark: those with
    an inner tiling, in a register kernel, or computed in another's register tiles."""
    return {t.op for t in plan.inner}.union(*(k.ops for k in plan.kernels), *(t.fused for t in plan.inner))


def _reduction_loops(n: LoopNest, handles: dict[int, str]) -> list[dict]:
    """tile_using_for steps: one per op with tiled reduction (or two-level inner) dims."""
    by_op: dict[int, list] = defaultdict(list)
    for r in n.reduction_tiling:
        by_op[r.op].append(r)
    loops = []
    for op_index, rs in by_op.items():
        sizes = [0] * rs[0].op_rank
        for r in rs:
            sizes[r.dim] = r.size
        var = handles[op_index] if n.loop_kind == "scf.forall" else _var(op_index)
        loops.append({"var": var, "tiled": f"n{n.id}_op{op_index}_r", "tile_sizes": sizes,
                      "loops": [f"n{n.id}_op{op_index}_d{r.dim}" for r in sorted(rs, key=lambda r: r.dim)]})
    return loops


def _loop_producers(n: LoopNest, reduction_loops: list[dict]) -> list[dict]:
    """fuse_into_containing_op steps into op `loop_into`'s innermost reduction loop."""
    if not n.loop_producers:
        return []
    into = next(r["loops"][-1] for r in reduction_loops if _op_of(r["tiled"]) == n.loop_into)
    steps = []
    for k, p in enumerate(n.loop_producers):
        fused, after = f"n{n.id}_op{p.index}", f"n{n.id}_kloop{k + 1}"
        steps.append({"op": p.index, "var": _var(p.index), "label": f"op{p.index}", "fused": fused, "into": into,
                      "loop": after, "pad": p.name == "tensor.pad"})
        into = after
    return steps


def _op_of(tiled: str) -> int:
    """Op index in a reduction-loop handle name, n<nest>_op<index>_r."""
    return int(tiled.split("_op", 1)[1].split("_", 1)[0])


def _inner_view(plan: Plan, t: InnerTiling, handle: str, nest: LoopNest | None) -> dict:
    """CPU levels of one op (in `nest`, or untiled): generalize, L1-level reduction tiles, register tiles."""
    op = plan.ops[t.op]
    base = f"cpu_op{t.op}" + (f"_n{t.copy_in}" if t.copy_in else "")
    levels = []
    # pack/unpack stay named, and so do a window decompose turns into its 1-D op and an op packed first
    generalize = op.name.startswith("linalg.") and op.name not in NON_STRUCTURED_TILEABLE and not t.decompose \
        and not t.channel_block
    if t.channel_block:
        return _blocked_view(plan, t, base, handle, nest)
    current = f"{base}_g" if generalize else base
    for what, sizes in (("cache", t.cache_sizes), ("register", t.register_sizes)):
        if not sizes or not any(sizes):
            continue
        tiled = f"{base}_{what[0]}"
        loops = [f"{tiled}{d}" for d, s in enumerate(sizes) if s]
        levels.append({"what": what, "sizes": sizes, "source": current, "tiled": tiled, "loops": loops})
        current = tiled
    if t.split_sizes:
        levels.append({"what": "split", "sizes": t.split_sizes, "source": current, "tiled": f"{base}_s",
                       "loops": []})
    member = {i: f"{base}_m{i}" for i in t.fused}
    register_loops = next((lv["loops"] for lv in levels if lv["what"] == "register"), [])
    fused_steps, last_loop = _fusion_steps([(member[i], member[i]) for i in t.fused], register_loops[-1], "f") \
        if t.fused else ([], "")
    # the loop handle of each register dim (the innermost one's after the fusions into it)
    dim_loops = dict(zip([d for d, s in enumerate(t.register_sizes) if s], register_loops))
    if fused_steps:
        dim_loops[max(dim_loops)] = last_loop
    return {"op": t.op, "mark": _mark(t.op, nest), "label": f"op{t.op} {op.name}", "kind": t.kind, "handle": base,
            "source_handle": handle, "extents": t.extents,
            "generalize": generalize, "generalized": f"{base}_g", "levels": levels,
            "accumulators": t.accumulators, "scalar": t.scalar, "dots": t.dots,
            "fused": [{"op": i, "var": member[i], "label": f"op{i} {plan.ops[i].name}",
                       "mark": _mark(i, nest)} for i in t.fused],
            "fused_steps": fused_steps,
            "peels": [{"loop": dim_loops[d], "what": "tiles", "size": size, "last": last, "canonicalize": False,
                       "block": None}
                      for d, size, last in t.remainders()],
            # a pad's planes: filled and copied in place (the tiled pad's handle, its outermost loop)
            "in_place": (current, register_loops[0]) if t.in_place and register_loops else None,
            "decompose": current if t.decompose else None}


def _blocked_view(plan: Plan, t: InnerTiling, base: str, handle: str, nest: LoopNest | None) -> dict:
    """A strided convolution packed by channel blocks (InnerTiling.channel_block): the packed op's
    register tiles (and, for unrolled pixels, the reductions by 1 inside them), the packed init's tiles,
    and the input pack's (if packed) and the result unpack's tiles of one row, a remainder peeled."""
    copies = [{"what": what, "sizes": t.row_sizes, "loops": _loop_names(f"{base}_{what}_l", t.row_sizes),
               "peel": t.row_remainder(width)}
              for what, width in (("in", t.input_width), ("out", t.output_width)) if what == "out" or width]
    unrolled = None if not t.unroll else {
        "interchange": t.unroll_interchange, "sizes": t.unroll_sizes, "pixels": t.unroll,
        "loops": [f"{base}_u{i}" for i, s in enumerate(t.unroll_sizes) if s]}
    return {"op": t.op, "mark": _mark(t.op, nest), "label": f"op{t.op} {plan.ops[t.op].name}", "kind": t.kind,
            "handle": base, "source_handle": handle,
            "extents": t.extents, "blocked": True, "block": t.channel_block, "packed_sizes": t.pack_sizes,
            "register_sizes": t.register_sizes, "init_sizes": t.init_sizes, "copies": copies,
            "init_loops": _loop_names(f"{base}_init_l", t.init_sizes),
            "filter_sizes": t.filter_sizes, "filter_loops": _loop_names(f"{base}_filter_l", t.filter_sizes),
            "register_loops": [f"{base}_r{d}" for d, s in enumerate(t.register_sizes) if s],
            "unrolled": unrolled, "accumulators": t.accumulators}


def _loop_names(prefix: str, sizes: list[int]) -> list[str]:
    """Handles of the loops a tile_using_for by `sizes` returns, numbered from 1."""
    return [f"{prefix}{i}" for i in range(1, 1 + sum(1 for s in sizes if s))]


def _fusion_steps(ops: list[tuple[str, str]], loop: str, suffix: str) -> tuple[list[dict], str]:
    """fuse_into_containing_op steps of (handle, name) pairs into `loop`, each
    into the loop handle the previous one returned; and the last loop handle."""
    steps = []
    for i, (source, name) in enumerate(ops, 1):
        after = f"{loop}_{i}"
        steps.append({"source": source, "fused": f"{name}_{suffix}", "into": loop if i == 1 else f"{loop}_{i - 1}",
                      "loop": after})
    return steps, steps[-1]["loop"] if steps else loop


def _kernel_view(plan: Plan, k: RegisterKernel, number: int) -> dict:
    """Handles and steps of one register kernel (names k<number>_...); the
    template only writes them out."""
    base = f"k{number}"
    nest = next((n for n in plan.nests if k.root in {o.index for o in n.ops}), None)
    c_op, root_op = plan.ops[k.contraction], plan.ops[k.root]
    var = {i: f"{base}_op{i}" for i in k.ops}
    c_is_root = k.root == k.contraction
    # ops fused into each level, nearest the root first (producers before their own producers)
    # (an init fused by transform.structured.fuse needs no step of its own)
    fused = [*k.chain, *([] if c_is_root else [k.contraction]), *([] if k.tile_op == "fuse" else k.inits)]
    # a panel transpose joins the panel level only: the rows read the buffer it writes
    at_panel = fused + ([] if k.panel_transpose is None else [k.panel_transpose])
    panel_loops = [f"{base}_pl{d}" for d, s in enumerate(k.panel_sizes) if s]
    # rows of the contraction itself are cut after its interchange, so in the interchanged order
    row_sizes = [k.row_sizes[d] for d in k.interchange[:len(k.row_sizes)]] if c_is_root and k.interchange \
        else k.row_sizes
    row_loops = [f"{base}_rl{d}" for d, s in enumerate(row_sizes) if s]
    panel_steps, panel_loop = _fusion_steps([(var[i], var[i]) for i in at_panel], panel_loops[-1], "p")
    c_panel = f"{var[k.contraction]}_p"  # the contraction at the panel level: generalized, then padded
    c_final = f"{var[k.contraction]}_pad" if k.copies_panel else f"{var[k.contraction]}_g"
    red_loops = [f"{base}_kl{d}" for d, s in enumerate(k.reduction_sizes) if s]
    row_steps, row_loop = _fusion_steps([(c_final if i == k.contraction else f"{var[i]}_p", var[i]) for i in fused],
                                 row_loops[-1], "r")
    hoist = _panel_hoist(k, nest, len(panel_loops))
    return {
        "dot": _dot_view(k, base, row_sizes, var[k.root]), "panel_source": f"{base}_main" if k.dot_column else var[k.root],
        "base": base, "root_label": f"op{k.root} {root_op.name}", "c_label": f"op{k.contraction} {c_op.name}",
        "chain_labels": ", ".join(f"op{i}" for i in k.chain), "init_labels": ", ".join(f"op{i}" for i in k.inits),
        "matched": [{"op": i, "var": var[i], "mark": _mark(i, nest)} for i in [k.root, *at_panel]],
        "root_var": var[k.root], "c_var": var[k.contraction], "c_is_root": c_is_root,
        "tile_op": k.tile_op,
        # inits fused by fuse_into_containing_op (not transform.structured.fuse): their row tiles
        "init_rows": [] if k.tile_op == "fuse" else [f"{var[i]}_r" for i in k.inits],
        "panel_sizes": k.panel_sizes, "panel_loops": panel_loops, "panel_steps": panel_steps,
        "panel_loop": panel_loop, "c_panel": c_panel,
        "row_source": c_final if c_is_root else f"{var[k.root]}_p",
        "row_sizes": row_sizes, "row_loops": row_loops, "row_steps": row_steps,
        "reduction_source": f"{var[k.contraction]}_r",
        "reduction_sizes": k.reduction_sizes,
        "red_loops": red_loops,
        "extents": k.extents, "accumulators": k.accumulators, "scalar": k.scalar,
        "interchange": k.interchange,
        "packed": k.packed_operand if k.copies_panel else None,
        "pad_dims": k.pad_dims, "padding_values": k.padding_values,
        "transpose": None if k.panel_transpose is None else {
            "label": f"op{k.panel_transpose} {plan.ops[k.panel_transpose].name}", "operand": k.packed_operand,
            "fused": f"{var[k.panel_transpose]}_p", "var": var[k.panel_transpose], "sizes": k.transpose_sizes,
            "loops": [f"{base}_tl{d}" for d, s in enumerate(k.transpose_sizes) if s]},
        "nofold": [1 if i == k.packed_operand else 0 for i in range(len(k.padding_values))],
        # a partial panel leaves the padded op's result behind a dynamic slice no folder removes;
        # merged right before the padded op fuses, after the chain ops that read it
        "merge_slices": k.copies_panel and not c_is_root and bool(k.remainder(k.panel_sizes)),
        "merge_before": c_final,
        "copy_sizes": k.copy_sizes, "copy_loops": [f"{base}_cl{d}" for d, s in enumerate(k.copy_sizes) if s],
        "hoist_loops": hoist,
        "pack": None if k.peel_first else _pack_view(k, number, hoist),
        "peels": _kernel_peels(k, red_loops, row_loops[:-1] + [row_loop], row_sizes, panel_loop),
        "parts": _peeled_parts(k, nest, base, row_sizes, number),
    }


def _peeled_parts(k: RegisterKernel, nest: LoopNest | None, base: str, row_sizes: list[int],
                  number: int) -> list[dict]:
    """A kernel whose panel loop is peeled before the copy (RegisterKernel.peel_first): per part, the full
    panels and the last one, its handle names, the loops its copy is hoisted out of (the panel loop, unless
    one trip is left of it, then the row loops) and the packing loop that makes (_pack_view: where it keeps
    its panel loop), and its row and reduction loops and their peels."""
    if not k.peel_first or not k.copies_panel or nest is None or not nest.row_tiles:
        return []
    dim = next(d for d, s in enumerate(k.panel_sizes) if s)
    full = k.full_panels[0]  # (the first dim the panel loop tiles: dim)
    rows = sum(1 for s in nest.row_tiles if s)
    parts = []
    for part, panels in (("main", full), ("last", 1)):
        name = f"{base}_{part}"
        row_loops = [f"{name}_rl{d}" for d, s in enumerate(row_sizes) if s]
        red_loops = [f"{name}_kl{d}" for d, s in enumerate(k.reduction_sizes) if s]
        hoist = rows + (panels > 1)
        parts.append({"name": name, "part": part, "loop": f"{base}_p{part}", "panels": panels,
                      "hoist": hoist, "row_loops": row_loops,
                      "pack": _pack_view(k, number, hoist) if panels > 1 else None,
                      "red_loops": red_loops, "width": k.panel_sizes[dim] if part == "main" else k.remainder(k.panel_sizes),
                      "peels": _kernel_peels(k, red_loops, row_loops, row_sizes, None)})
    return parts


def _pack_view(k: RegisterKernel, number: int, hoist: int) -> dict | None:
    """The packing loop of a hoisted panel copy, as the CPU lowering takes it up after bufferization: its
    mark, the tiling of its copy (RegisterKernel.pack_step rows) and the panels unrolled and jammed into
    each step."""
    # a column block of one panel: its packing loop of one trip folds away, with the mark
    if not hoist or len(k.pack_step) != 2 or k.full_panels[-1] < 2:
        return None
    rows, jam = k.pack_step
    sizes = list(k.copy_sizes)
    if len(sizes) >= 2:
        sizes[-2] = rows
    return {"id": number, "rows": rows, "jam": jam, "sizes": sizes}


def _panel_hoist(k: RegisterKernel, nest: LoopNest | None, panel_loops: int) -> int:
    """The loops a kernel's panel copy is hoisted out of (transform.structured.hoist_pad), 0 for none: its
    panel loops, and in a nest with a row loop (rows_in_order) the row loops too, so that the copies become
    one packed column block per forall tile (panel by panel, [panels, K, nr]) that every row tile reads, and
    the packing loop reads several panels' widths from each row of the operand. Panel by panel, the copy
    read one panel's width (64 bytes) from each of K rows, which the prefetcher does not follow where the
    rows are far apart (32x3072x768 on AVX2, rows 12 KiB apart: 1.53x faster on 1 thread, 1.34x on 2).
    Only full panels (a peeled last panel is padded apart) and no dot column (a pad of its own)."""
    if nest is None or not k.copies_panel or k.dot_column is not None \
            or k.panel_transpose is not None or (k.remainder(k.panel_sizes) and not k.peel_first):
        return 0
    rows = sum(1 for s in nest.row_tiles if s)
    # one panel per forall tile and no row loop: its copy is already made once per tile
    return (panel_loops + rows) if rows or prod(k.full_panels) > 1 else 0


def _kernel_peels(k: RegisterKernel, red_loops: list[str], row_loops: list[str], row_sizes: list[int],
                  panel_loop: str | None) -> list[dict]:
    """A kernel's loops whose last tile is a remainder: peeled, innermost
    first (so that the inner peels are copied into the outer remainders
    too). A panel transpose's blocks and buffer are sized by the panel until
    its peel (min(16, n - j)): canonicalized in both bodies, they become
    static and vectorize."""
    return [{"loop": loop, "what": what, "size": max(sizes), "last": last,
             "canonicalize": what == "panels" and k.panel_transpose is not None,
             "block": k.last_block_rows if what == "rows" else None}
            for loop, what, sizes in ((_remainder_loop(red_loops, k.reduction_sizes), "steps", k.reduction_sizes),
                                      (_remainder_loop(row_loops, row_sizes), "rows", k.row_sizes),
                                      (panel_loop, "panels", k.panel_sizes))
            if loop is not None and (last := _peeled_last(k, what, sizes)) is not None]


def _peeled_last(k: RegisterKernel, what: str, sizes: list[int]) -> int | None:
    """The last tile of a kernel's loop that is peeled: its remainder, or, for the rows of a kernel whose
    nest's last row block is partial (RegisterKernel.last_block_rows), what that block leaves (0 too: the
    row loop's extent is dynamic, so its tiles are static only once peeled)."""
    if what == "rows" and k.last_block_rows is not None:
        return k.last_block_left
    return k.remainder(sizes)


def _dot_view(k: RegisterKernel, base: str, row_sizes: list[int], root_var: str) -> dict | None:
    """Handles and sizes of a kernel's last column computed as dot products (RegisterKernel.dot_column),
    in one row loop with the last panel: the panels before them (`head` columns, maybe none) are split off."""
    d = k.dot_column
    if d is None:
        return None
    dim = next(i for i, s in enumerate(k.panel_sizes) if s)
    head = d.at - d.last
    red_loops = [f"{base}_last_kl{i}" for i, s in enumerate(k.reduction_sizes) if s]
    return {"at": d.at, "width": d.at + 1, "dim": dim, "last": d.last, "head": head,
            "tail_source": f"{base}_tail" if head else root_var,
            "tail_sizes": [d.last + 1 if i == dim else 0 for i in range(dim + 1)],
            "column_sizes": [int(i == dim) for i in range(dim + 1)],
            "operand": d.operand, "nofold": [1 if i == d.operand else 0 for i in range(len(k.padding_values))],
            "row_loops": [f"{base}_tail_rl{i}" for i, s in enumerate(row_sizes) if s],
            "copies": (["last"] if k.packed_operand is not None else []) + ["col"],
            "last_source": f"{base}_last_pad" if k.packed_operand is not None else f"{base}_last",
            "red_loops": red_loops, "copy_sizes": d.copy_sizes,
            "copy_loops": [f"{base}_tail_cl{i}" for i, s in enumerate(d.copy_sizes) if s],
            "reduction_sizes": d.reduction_sizes, "lanes": d.reduction_sizes[-1]}


def _remainder_loop(loops: list[str], sizes: list[int]) -> str | None:
    """The loop (of those tiling the dims with a size) of the first dim whose size is not 1: the
    only one that can leave a remainder (a kernel's stepped reduction, which need not be innermost)."""
    stepped = [d for d, s in enumerate(sizes) if s]
    return next((loop for loop, d in zip(loops, stepped) if sizes[d] > 1), None)


# The second line of every generated schedule: a digest of the rest, so that
# `generate` can tell a file it wrote, untouched, from one a person edited.
_DIGEST = "//   digest:    "
_DIGEST_NOTE = " (of this file as generated: `schedgen generate` overwrites it only while it matches, or with --force)"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _stamp(text: str) -> str:
    first, rest = text.split("\n", 1)
    return f"{first}\n{_DIGEST}{_digest(first + rest)}{_DIGEST_NOTE}\n{rest}"


def is_untouched(text: str) -> bool:
    """Whether `text` is a schedule exactly as schedgen generated it."""
    lines = text.split("\n", 2)
    if len(lines) < 3 or not lines[1].startswith(_DIGEST):
        return False
    return lines[1][len(_DIGEST):].split(" ", 1)[0] == _digest(lines[0] + lines[2])


def render(plan: Plan) -> str:
    return _stamp(_render(plan))


def tiling_script(plan: Plan) -> str:
    """Only the memory-fit tiling of `plan`, as one @__transform_main (a CPU
    target's levels and lowering left out): what the planner's precise
    simulation applies to a nest, passed to it by whoever wires the stages."""
    return _render(plan.model_copy(update={"target": plan.target.model_copy(update={"cpu": None})}))


def _render(plan: Plan) -> str:
    template = environment().get_template(TEMPLATE)
    inner = {t.op: t for t in plan.inner if t.copy_in is None}
    untiled_inner = [_inner_view(plan, inner[u.op.index], _var(u.op.index), None) for u in plan.untiled
                     if u.op.index in inner]
    kernels = [_kernel_view(plan, k, i + 1) for i, k in enumerate(plan.kernels)]
    named = sorted(_cpu_named(plan))
    return template.render(plan=plan, version=__version__, groups=_groups(plan), cpu=plan.target.cpu,
                           untiled_inner=untiled_inner, named_ops=named, img2col=IMG2COL,
                           img2col_1x1=IMG2COL_1X1_RULE,
                           packs_panels=any(k.copies_panel or k.dot_column for k in plan.kernels),
                           dot_columns=any(k.dot_column for k in plan.kernels),
                           has_packs=any(o.name in ("linalg.pack", "linalg.unpack") for o in plan.ops)
                           or any(t.channel_block for t in plan.inner),
                           unrolled_pixels=any(t.unroll > 1 for t in plan.inner),
                           panel_packs=[p["pack"] for k in kernels for p in [k, *k["parts"]] if p["pack"]],
                           vectorize=not any(o.result_type.endswith("bf16>") for o in plan.ops),
                           nests=[_nest_view(plan, n, kernels) for n in plan.nests])
