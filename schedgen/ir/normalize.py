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

schedgen applies the same steps (rendered from the same template) to its
copy of the payload before building the model, so the planner, the
schedule's matches and `check` all see the same ops. A payload that needs
none gets no step, and its schedule is what it always was.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects.transform import interpreter

from schedgen.emit.template_env import environment

TEMPLATE = "normalize.mlir.j2"
AGGREGATES = ("linalg.softmax",)


def _walk(op: ir.Operation):
    out: list[ir.Operation] = []

    def visit(o: ir.Operation) -> ir.WalkResult:
        out.append(o)
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return out


def _keeps_unit_dim(op: ir.Operation) -> bool:
    """A linalg op whose init is indexed by a constant (a kept size-1 dim)."""
    if "indexing_maps" not in op.attributes or not op.name.startswith("linalg."):
        return False
    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
    n_results = len(op.results)
    return any(isinstance(e, ir.AffineConstantExpr) for m in maps[len(maps) - n_results:] for e in m.results)


def needed_steps(func: ir.Operation) -> tuple[str, ...]:
    ops = _walk(func)
    steps = []
    if any(o.name in AGGREGATES for o in ops):
        steps.append("decompose")
    if any(o.name == "tensor.concat" for o in ops):
        steps.append("decompose_concat")
    if any(_keeps_unit_dim(o) for o in ops):
        steps.append("fold_unit_dims")
    return tuple(steps)


def has_packs(func: ir.Operation) -> bool:
    return any(o.name in ("linalg.pack", "linalg.unpack") for o in _walk(func))


def normalize(module: ir.Module, func_name: str, steps: tuple[str, ...]) -> None:
    """Apply `steps` to `module` in place (inside its context)."""
    if not steps:
        return
    text = environment().get_template(TEMPLATE).render(standalone=True, steps=steps, func_name=func_name)
    schedule = ir.Module.parse(text)
    interpreter.apply_named_sequence(module.operation, schedule.body.operations[0], schedule)
