"""A payload evaluated in f32 where it computes in f16 or bf16: the oracle
that tells which of two reorderings of a half-precision reduction is wrong.

A sum of K half-precision terms accumulated in half precision can be off by
a large share of its value (bf16 keeps 8 bits: past 256, adding anything
below 1 does nothing), and a tiled or vectorized order lands elsewhere in
that range. No fixed tolerance separates that from a wrong tile; the
distance to a wider evaluation of the same function does.
"""

from __future__ import annotations

from mlir import ir

from schedgen.ir.context import new_context
from schedgen.ir.queries import find_func, nested_ops

_HALF = ("f16", "bf16")


def _wide(t: ir.Type) -> ir.Type:
    if str(t) in _HALF:
        return ir.F32Type.get()
    if isinstance(t, ir.RankedTensorType) and str(t.element_type) in _HALF:
        return ir.RankedTensorType.get(t.shape, ir.F32Type.get(), t.encoding)
    # a transformed payload: buffers and vectors (a CPU schedule lowers to them)
    if isinstance(t, ir.VectorType) and str(t.element_type) in _HALF:
        return ir.VectorType.get(t.shape, ir.F32Type.get())
    if isinstance(t, ir.MemRefType) and str(t.element_type) in _HALF:
        return ir.MemRefType.get(t.shape, ir.F32Type.get(), t.layout, t.memory_space)
    if isinstance(t, ir.FunctionType):
        return ir.FunctionType.get([_wide(x) for x in t.inputs], [_wide(x) for x in t.results])
    return t


def _wide_constant(op: ir.Operation) -> bool:
    """Rewrite a half-precision constant's value; False if it cannot be."""
    value = op.attributes["value"]
    if isinstance(value, ir.FloatAttr) and str(value.type) in _HALF:
        op.attributes["value"] = ir.FloatAttr.get(ir.F32Type.get(), value.value)
    elif isinstance(value, ir.DenseElementsAttr) and str(value.type.element_type) in _HALF:
        if not value.is_splat:
            return False  # weights in half precision: no exact f32 copy without numpy's bf16 here
        splat = ir.FloatAttr(value.get_splat_value()).value
        op.attributes["value"] = ir.DenseElementsAttr.get_splat(
            _wide(value.type), ir.FloatAttr.get(ir.F32Type.get(), splat))
    return True


def widened(payload_text: str, func_name: str) -> str | None:
    """`func_name` of the payload with every f16/bf16 value, constant and
    signature widened to f32 (casts between the two become no-ops), or None
    where that is not possible (a half-precision dense weight, or IR the
    rewrite leaves invalid)."""
    ctx = new_context()
    with ctx, ir.Location.unknown():
        try:
            module = ir.Module.parse(payload_text)
        except ir.MLIRError:
            return None
        fn = find_func(module, func_name)
        if fn is None:
            return None
        fn.attributes["function_type"] = ir.TypeAttr.get(_wide(ir.TypeAttr(fn.attributes["function_type"]).value))
        dead: list[ir.Operation] = []
        for op in [fn.operation, *nested_ops(fn.operation)]:
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        arg.set_type(_wide(arg.type))
            if op.name == "arith.constant" and not _wide_constant(op):
                return None
            for r in op.results:
                r.set_type(_wide(r.type))
            if op.name in ("arith.extf", "arith.truncf") and op.operands[0].type == op.results[0].type:
                op.results[0].replace_all_uses_with(op.operands[0])
                dead.append(op)
        for op in dead:
            op.erase()
        try:
            module.operation.verify()
        except ir.MLIRError:
            return None
        return str(module)
