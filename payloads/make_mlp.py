"""Export a small PyTorch MLP block to linalg-on-tensors MLIR (payloads/mlp.mlir).

Model (weights seeded with ``torch.manual_seed(0)``, ``model.eval()``)::

    x   : (64, 256) f32
    h   = relu(Linear(256, 512)(x))
    y   = Linear(512, 256)(h)
    out = LayerNorm(256)(x + y)

The exported function is ``@mlp(%x: tensor<64x256xf32>) -> tensor<64x256xf32>``;
weights are embedded as ``dense_resource`` constants. By default the export is
post-processed with ``linalg-fold-unit-extent-dims,canonicalize,cse`` (torch-mlir's
own bundled MLIR passes) so the LayerNorm statistics are ``tensor<64xf32>``
with projected-permutation maps instead of ``tensor<64x1xf32>`` with the
untileable result map ``(d0, d1) -> (d0, 0)``; ``--raw`` skips this. The
LayerNorm variance is computed in f64 as torch-mlir decomposes it;
``--f32-stats`` keeps it in f32. The output is deterministic (same bytes on
every run).

torch and torch-mlir are DEVELOPMENT-ONLY dependencies: they are needed only to
regenerate ``payloads/mlp.mlir``, never by schedgen itself or its tests (which
read the checked-in .mlir with the project's own MLIR bindings). Install them
in a separate venv, NOT the project's .venv (torch-mlir bundles its own copy
of the MLIR bindings as ``torch_mlir.ir``; keep the environments apart)::

    python3 -m venv /work/torchenv
    /work/torchenv/bin/pip install torch==2.13.0          # CPU wheel (2.13.0+cpu)
    /work/torchenv/bin/pip install torch-mlir==20261001   # adds numpy, packaging
    /work/torchenv/bin/python payloads/make_mlp.py -o payloads/mlp.mlir

Versions used to produce the checked-in file: torch 2.13.0+cpu,
torch-mlir 20261001, numpy 2.4.6, Python 3.11. Do not install an unpinned
``torch``: newer versions pull in the CUDA stack (gigabytes).
"""

import argparse
import sys
from importlib import metadata

import torch
from torch import nn
from torch_mlir import fx

BATCH, D_MODEL, D_HIDDEN = 64, 256, 512


class MLPBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(D_MODEL, D_HIDDEN)
        self.fc2 = nn.Linear(D_HIDDEN, D_MODEL)
        self.norm = nn.LayerNorm(D_MODEL)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        y = self.fc2(h)
        return self.norm(x + y)


def build_model():
    torch.manual_seed(0)
    model = MLPBlock()
    model.eval()
    return model


def _var_mean_f32(a, dim=None, *, correction=None, keepdim=False):
    """aten.var_mean.correction computed in the input's dtype (f32).

    torch-mlir's own decomposition of var_mean upcasts f32 to f64 (an extf to
    64x256xf64, f64 reductions, a truncf back) and computes the mean twice.
    """
    aten = torch.ops.aten
    n = 1
    for d in dim:
        n *= a.shape[d]
    mean = aten.sum.dim_IntList(a, dim, True) / n
    centered = a - mean
    var = aten.sum.dim_IntList(centered * centered, dim, keepdim)
    var = var / (n - (1 if correction is None else correction))
    if not keepdim:
        mean = aten.squeeze.dims(mean, dim)
    return var, mean


# Post-export cleanup, run with torch-mlir's own bundled MLIR passes. torch-mlir
# keeps reduced dims as size 1 (`sum(..., keepdim=True)` -> tensor<64x1xf32>)
# and broadcasts them back with the non-projected map (d0, d1) -> (d0, 0).
# TilingInterface cannot tile a linalg.generic whose RESULT uses such a map
# ("unhandled tiled implementation generation when result is not accessed
# using a permuted projection"), so the LayerNorm reductions could not be fused
# into a row loop. Folding the unit dims turns them into tensor<64xf32> with
# maps (d0, d1) -> (d0); canonicalize + cse then remove the reshapes.
CLEANUP_PIPELINE = "builtin.module(linalg-fold-unit-extent-dims,canonicalize,cse)"


def export(model, f32_stats=False, fold_unit_dims=True):
    example = torch.zeros(BATCH, D_MODEL, dtype=torch.float32)
    decomposition_table = None  # torch-mlir's default table
    if f32_stats:
        from torch_mlir.extras.fx_decomp_util import get_decomposition_table

        decomposition_table = get_decomposition_table()
        decomposition_table[torch.ops.aten.var_mean.correction] = _var_mean_f32
    module = fx.export_and_import(
        model,
        example,
        output_type="linalg-on-tensors",
        func_name="mlp",
        decomposition_table=decomposition_table,
    )
    if fold_unit_dims:
        from torch_mlir import passmanager

        with module.context:
            passmanager.PassManager.parse(CLEANUP_PIPELINE).run(module.operation)
    return str(module)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default="payloads/mlp.mlir",
                        help="output .mlir path (default: %(default)s)")
    parser.add_argument("--f32-stats", action="store_true",
                        help="compute the LayerNorm mean/variance in f32 (custom "
                             "var_mean decomposition) instead of torch-mlir's "
                             "default f64 upcast")
    parser.add_argument("--raw", action="store_true",
                        help="skip the unit-dim folding cleanup (keep torch-mlir's "
                             "tensor<64x1x..> stats and (d0, 0) broadcast maps)")
    args = parser.parse_args(argv)
    with torch.no_grad():
        text = export(build_model(), f32_stats=args.f32_stats,
                      fold_unit_dims=not args.raw)
    header = (
        "// Generated by payloads/make_mlp.py (torch %s, torch-mlir %s):\n"
        "// out = LayerNorm(256)(x + Linear(512,256)(relu(Linear(256,512)(x)))),\n"
        "// x: 64x256 f32, weights from torch.manual_seed(0), LayerNorm stats in %s.\n"
        "// %s. Do not edit by hand.\n"
        % (torch.__version__, metadata.version("torch-mlir"),
           "f32 (--f32-stats)" if args.f32_stats else "f64 (torch-mlir default)",
           "Raw export (--raw)" if args.raw
           else "Unit dims folded: " + CLEANUP_PIPELINE)
    )
    with open(args.output, "w") as f:
        f.write(header)
        f.write(text)
    print(f"wrote {args.output} ({len(header) + len(text)} chars)", file=sys.stderr)


if __name__ == "__main__":
    main()
