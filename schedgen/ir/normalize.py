"""Front-end IR made plannable: the few transform steps a schedule runs
before it tiles anything, for what torch-mlir and other front ends emit.

- `decompose`: `linalg.softmax` (an aggregate op without a tiling of its
  own that keeps sums in order) becomes its fills and generics;
- `decompose_concat`: `tensor.concat` (no TilingInterface) becomes an empty
  tensor and one `tensor.insert_slice` per operand: a placement in main
  memory that each operand's producer writes into;
- `fold_unit_dims`: a reduction that keeps its reduced dim as size 1 writes
  through a map like `(d0, d1, d2) -> (d0, d1, 0)`, which TilingInterface
  cannot tile (and `tile_reduction_using_for` aborts on); folding unit dims
  gives plain projected maps.
- `fold_kept_dims`: the same fold for those reductions alone, where no op
  reads their result back as a broadcast (a CNN's global average pool, not
  a LayerNorm's mean). Folded function-wide, the unit batch dim went from
  every elementwise op but not from the named convolutions and pools, so a
  reshape walled each convolution off from its bias and activation.
- `img2col` (CPU targets only): an NCHW convolution (torch's layout) becomes
  an im2col copy and a matmul. MLIR's vectorizer takes no strided window,
  and along a 14- or 28-wide output row no register kernel fills its
  vectors: a 3x3 stride-2 convolution ran scalar in 6.9 ms and takes 0.36
  ms so, a stride-1 one 1.13 ms and 0.82 ms. A 1x1 one of unit strides
  only onto a small plane, or onto 56x56 with many channels (`_img2col`).
  On a memory target the copy is traffic (nine times the input for 3x3),
  so the convolution stays.
- `pad_in_place` (CPU targets only): a `tensor.pad` of what a structured op
  computes (torch's padding before each convolution and max pool) becomes
  a fill of the padded tensor and the op's result placed into its interior
  (`tensor.insert_slice`), so that the op's nest writes there itself
  (bufferization's empty-tensor elimination) and no copy of the interior is
  made: tiled as pads, resnet18's took 1.27 ms of 41, its stem's 0.71 ms
  alone. Some pads stay (`placed_pads` says which and why): of an
  argument, of a result an op reads after the pad, and two more.
- `transpose_b` (CPU targets only): a matrix-vector product (one row: a
  classifier head) whose weight [n, k] torch transposes for it alone reads
  the weight in place instead, a dot product per output along the weight's
  contiguous rows (`transform.structured.transpose_matmul`, and the two
  transposes cancel on canonicalization). Transposed first, the weight was
  written out and read back: mobilenet_v2's 1280x1000 head took 1.47 ms for
  the transpose and 0.63 ms for the product (of a 26 ms model), 0.33 ms in
  place. With more rows the register kernel's outer products need the
  transposed panels, which it writes itself (cpu_levels' panel transposes).

schedgen applies the same steps (rendered from the same template) to its
copy of the payload before building the model, so the planner, the
schedule's matches and `check` all see the same ops. A payload that needs
none gets no step, and its schedule is what it always was.
"""

from __future__ import annotations

from pathlib import Path

from mlir import ir
from mlir.dialects.transform import interpreter

from schedgen.ir.queries import find_symbol, indexing_maps, iterator_kinds, nested_ops
from schedgen.template_env import environment

TEMPLATE = "normalize.mlir.j2"
AGGREGATES = ("linalg.softmax",)
# The convolution the img2col step converts (upstream's rewrite takes it with unit dilations).
IMG2COL = "linalg.conv_2d_nchw_fchw"
MATMUL = "linalg.matmul"
# A 1x1 convolution of unit strides is converted too onto the output planes IMG2COL_1X1_RULE names (_img2col),
# which the schedule's comment states.
IMG2COL_1X1_PLANE = 1024
IMG2COL_1X1_WIDE_PLANE = 4096
IMG2COL_1X1_CHANNELS = 64
IMG2COL_1X1_RULE = (f"onto planes under {IMG2COL_1X1_PLANE} pixels, or under {IMG2COL_1X1_WIDE_PLANE} with "
                    f"{IMG2COL_1X1_CHANNELS} channels or more in and out")


def _walk(op: ir.Operation) -> list[ir.Operation]:
    return [op, *nested_ops(op)]


def _keeps_unit_dim(op: ir.Operation) -> bool:
    """A linalg op whose init is indexed by a constant (a kept size-1 dim)."""
    if "indexing_maps" not in op.attributes or not op.name.startswith("linalg."):
        return False
    maps = indexing_maps(op)
    n_results = len(op.results)
    return any(isinstance(e, ir.AffineConstantExpr) for m in maps[len(maps) - n_results:] for e in m.results)


def _broadcast_back(op: ir.Operation) -> bool:
    """Whether a linalg op reads `op`'s result, or what linalg.generics
    compute from it, through a constant index: a kept dim broadcast back
    (`x - mean` after a LayerNorm's mean, perhaps divided first)."""
    pending, seen = [op], set()
    while pending:
        cur = pending.pop()
        for result in cur.results:
            for use in result.uses:
                reader = use.owner
                if "indexing_maps" not in reader.attributes or not reader.name.startswith("linalg."):
                    continue
                if any(isinstance(e, ir.AffineConstantExpr) for e in indexing_maps(reader)[use.operand_number].results):
                    return True
                if reader.name == "linalg.generic" and reader not in seen:
                    seen.add(reader)
                    pending.append(reader)
    return False


def _folds_alone(op: ir.Operation) -> bool:
    """A kept-dim reduction the fold_kept_dims step takes: a linalg.generic
    whose first loop is parallel (the step wraps it in a one-trip forall
    along it) and whose result nothing reads back as a broadcast."""
    return op.name == "linalg.generic" and iterator_kinds(op)[0] == "parallel" and not _broadcast_back(op)


def _img2col(op: ir.Operation) -> bool:
    """An NCHW convolution worth an im2col copy. A 1x1 one of unit strides
    only onto a plane of fewer than IMG2COL_1X1_PLANE pixels: its register
    kernel runs along one output row, whose 7, 13, 14, 27 or 28 pixels fill
    its vectors badly, while the matmul's runs along the whole plane; with
    its copy (scalar) and its epilogue no longer fused, each such
    convolution ran 1.1-2.9x faster (squeezenet's 512->1000 classifier onto
    13x13: 6.3 -> 3.2 ms; mobilenet_v2 whole 1.31x on 1 thread, 1.07x on 2).
    Onto 112x112 the copy and the unfused epilogue cost more than the plane
    gains (16 -> 96 channels: 0.93 -> 2.8 ms). Onto 56x56 (under
    IMG2COL_1X1_WIDE_PLANE) only with IMG2COL_1X1_CHANNELS channels or more
    in and out, where the matmul packs its panels and sums enough products
    per output to pay for the epilogue's pass of its own. Interleaved on
    AVX2 with a bias and ReLU, 1 / 2 threads: 256 -> 64 1.39x / 1.26x,
    224 -> 128 1.14-1.20x / 1.25-1.28x; resnet50_layer1 1.20x / 1.14-1.20x,
    googlenet 1.01-1.03x, densenet_block 1.00x / 1.04-1.07x. With fewer
    channels the pass costs what the kernel gains: 24 -> 144 0.88x at 2
    threads, mobilenet_v2 (projections 144 -> 24 and 96 -> 24 converted)
    0.89-0.96x at 2 threads."""
    if op.name != IMG2COL:
        return False

    def ones(name: str) -> bool:  # absent: the default, 1
        return name not in op.attributes or all(v == 1 for v in ir.DenseIntElementsAttr(op.attributes[name]))
    f, c, *taps = ir.RankedTensorType(op.operands[1].type).shape
    oh, ow = ir.RankedTensorType(op.results[0].type).shape[2:]
    if not ones("dilations"):
        return False
    if taps != [1, 1] or not ones("strides"):
        return True
    plane = oh * ow
    return plane < IMG2COL_1X1_PLANE or (plane < IMG2COL_1X1_WIDE_PLANE and min(f, c) >= IMG2COL_1X1_CHANNELS)


def placed_pads(func: ir.Operation) -> tuple[bool, ...]:
    """Per tensor.pad of `func`, in order, whether the pad_in_place step
    takes it (the step matches pads by position): a pad of a structured
    op's result (not of a convolution that img2col rewrites, whose result
    is a reshape then) that no op reads after the pad. A later reader would
    read the result after the pad's insert_slice wrote over it, which
    bufferization counts as a conflict: it copied the interior out and
    back (resnet18's residual inputs)."""
    ops = _walk(func)
    position = {op: i for i, op in enumerate(ops)}

    def placed(pad: ir.Operation) -> bool:
        source = pad.operands[0]
        if not isinstance(source, ir.OpResult) or not source.owner.name.startswith("linalg.") \
                or source.owner.name in ("linalg.pack", "linalg.unpack") or _img2col(source.owner):
            return False
        return _init_is_own(source) and \
            all(position.get(use.owner, len(ops)) <= position[pad] for use in source.uses)
    return tuple(placed(op) for op in ops if op.name == "tensor.pad")


def _init_is_own(result: ir.OpResult) -> bool:
    """Whether the init tied to `result` comes from a tensor.empty through
    ops (a fill) that nothing else reads: empty-tensor elimination makes
    that empty the padded tensor's interior, and a fill shared with another
    op (equal fills merged: googlenet's pools) would have that op write
    there too."""
    while True:
        op = result.owner
        value = op.operands[len(op.operands) - len(op.results) + result.result_number]
        if not isinstance(value, ir.OpResult) or value.owner.name == "tensor.empty":
            return isinstance(value, ir.OpResult)
        if len(list(value.uses)) != 1 or not value.owner.name.startswith("linalg."):
            return False
        result = value


def _weight_transposed_gemv(op: ir.Operation) -> bool:
    """A linalg.matmul of one row with plain maps whose B is a [1, 0]
    linalg.transpose that it alone reads (the transpose_b step). Not of a
    square B: rewritten, the matmul would have the same operand types, and
    `check` applies the schedule to the payload as normalized, where the
    step's match would take it again (transpose_matmul refuses a matmul
    that is transposed already)."""
    if op.name != MATMUL or indexing_maps(op) != _plain_matmul_maps() or \
            ir.RankedTensorType(op.operands[0].type).shape[0] != 1:
        return False
    b = op.operands[1]
    return isinstance(b, ir.OpResult) and b.owner.name == "linalg.transpose" and len(list(b.uses)) == 1 \
        and list(ir.DenseI64ArrayAttr(b.owner.attributes["permutation"])) == [1, 0] \
        and b.type != b.owner.operands[0].type


def _plain_matmul_maps() -> list[ir.AffineMap]:
    m, n, k = (ir.AffineDimExpr.get(i) for i in range(3))
    return [ir.AffineMap.get(3, 0, list(r)) for r in ((m, k), (k, n), (m, n))]


def transpose_b_matmuls(func: ir.Operation) -> tuple[str, ...]:
    """The operand types of the matmuls the transpose_b step rewrites (how
    it matches them), without repeats: only types that no other matmul has,
    which the step would give a transpose of its own."""
    types = {}
    for o in _walk(func):
        if o.name == MATMUL:
            key = ", ".join(str(v.type) for v in o.operands)
            types[key] = types.get(key, True) and _weight_transposed_gemv(o)
    return tuple(k for k, ok in types.items() if ok)


def img2col_convs(func: ir.Operation) -> tuple[str, ...]:
    """The operand types of each convolution the img2col step converts (how
    the step matches them), in order, without repeats."""
    found = [", ".join(str(v.type) for v in o.operands) for o in _walk(func) if _img2col(o)]
    return tuple(dict.fromkeys(found))


def needed_steps(func: ir.Operation, cpu: bool = False) -> tuple[str, ...]:
    """The steps `func` needs; `cpu`: for a CPU target's schedule (img2col)."""
    ops = _walk(func)
    steps = []
    if cpu and any(_img2col(o) for o in ops):
        steps.append("img2col")
    if cpu and transpose_b_matmuls(func):
        steps.append("transpose_b")
    if cpu and any(placed_pads(func)):
        steps.append("pad_in_place")
    if any(o.name in AGGREGATES for o in ops):
        steps.append("decompose")
    if any(o.name == "tensor.concat" for o in ops):
        steps.append("decompose_concat")
    kept = [o for o in ops if _keeps_unit_dim(o)]
    if kept:
        steps.append("fold_kept_dims" if all(_folds_alone(o) for o in kept) else "fold_unit_dims")
    return tuple(steps)


def runs_cpu_steps(schedule: Path | str) -> bool:
    """Whether the schedule runs the CPU targets' steps (img2col,
    transpose_b, pad_in_place): `check` and `verify` then model the payload as rewritten,
    as the schedule sees it.
    Read off its lines (comments aside) before it is parsed, since the
    payload is loaded first, into the context the schedule is parsed in."""
    try:
        lines = Path(schedule).read_text(errors="replace").splitlines()
    except OSError:
        return False  # the parse reports the unreadable file
    # (the pad_in_place step is the only one that turns empties into allocations)
    ops = ("transform.structured.convert_conv2d_to_img2col", "transform.structured.transpose_matmul",
           "transform.bufferization.empty_tensor_to_alloc_tensor")
    return any(op in line.split("//", 1)[0] for line in lines for op in ops)


def has_packs(func: ir.Operation) -> bool:
    return any(o.name in ("linalg.pack", "linalg.unpack") for o in _walk(func))


def normalize(module: ir.Module, func_name: str, steps: tuple[str, ...], convs: tuple[str, ...] = (),
              gemvs: tuple[str, ...] = (), pads: tuple[bool, ...] = ()) -> None:
    """Apply `steps` to function @`func_name` of `module` in place (inside its
    context); `convs`, `gemvs`, `pads`: img2col_convs, transpose_b_matmuls
    and placed_pads of the function."""
    if steps:
        run_steps(module.operation, steps, func_name, convs, gemvs, pads)


def generalize(root: ir.Operation) -> None:
    """Every linalg op under `root` as linalg.generic, in place (op order kept)."""
    run_steps(root, ("generalize",))


def run_steps(root: ir.Operation, steps: tuple[str, ...], func_name: str | None = None,
              convs: tuple[str, ...] = (), gemvs: tuple[str, ...] = (), pads: tuple[bool, ...] = ()) -> None:
    """The template's standalone sequence of `steps`, applied to `root` (the
    normalize steps need `func_name`; generalize and fold_empty do not)."""
    text = environment().get_template(TEMPLATE).render(standalone=True, steps=steps, func_name=func_name,
                                                       img2col=IMG2COL, img2col_1x1=IMG2COL_1X1_RULE,
                                                       img2col_convs=convs, transpose_b_matmuls=gemvs,
                                                       placed_pads=pads)
    schedule = ir.Module.parse(text)
    interpreter.apply_named_sequence(root, find_symbol(schedule, "transform.named_sequence", "__transform_main"),
                                     schedule)
