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

from schedgen.ir.queries import indexing_maps, nested_ops
from schedgen.template_env import environment

TEMPLATE = "normalize.mlir.j2"
AGGREGATES = ("linalg.softmax",)


def _walk(op: ir.Operation) -> list[ir.Operation]:
    return [op, *nested_ops(op)]


def _keeps_unit_dim(op: ir.Operation) -> bool:
    """A linalg op whose init is indexed by a constant (a kept size-1 dim)."""
    if "indexing_maps" not in op.attributes or not op.name.startswith("linalg."):
        return False
    maps = indexing_maps(op)
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
    """Apply `steps` to function @`func_name` of `module` in place (inside its context)."""
    if steps:
        run_steps(module.operation, steps, func_name)


def generalize(root: ir.Operation) -> None:
    """Every linalg op under `root` as linalg.generic, in place (op order kept)."""
    run_steps(root, ("generalize",))


def run_steps(root: ir.Operation, steps: tuple[str, ...], func_name: str | None = None) -> None:
    """The template's standalone sequence of `steps`, applied to `root` (the
    normalize steps need `func_name`; generalize and fold_empty do not)."""
    text = environment().get_template(TEMPLATE).render(standalone=True, steps=steps, func_name=func_name)
    schedule = ir.Module.parse(text)
    interpreter.apply_named_sequence(root, schedule.body.operations[0], schedule)
