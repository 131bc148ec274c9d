"""Convolution cost against shape: ResNet-18's NCHW convolutions and three of
ResNet-50's 1x1 ones, one by one, schedgen's cpu-host schedule (or
--target's: another machine's plan, timed here) next to
PyTorch eager, interleaved in one run (the convolution-kernel half of
issue 16's "80% of peak").

    .venv/bin/python benchmarks/conv_sizes.py [--threads 1 2] [--rounds 3] [--shapes stem l4 ...] [--target T]

Each payload is one `linalg.conv_2d_nchw_fchw` of batch 1 on an input
already padded (as torch-mlir emits it after its `tensor.pad`), onto a
zero-filled result: what a whole model's nest times count as the
convolution, its im2col copy included. Per shape and thread count, each
round times schedgen (`schedgen.run.bench`: the median of runs adding up
to --min-time) and then `torch.nn.functional.conv2d` on the same padded
input in a child of its own (.venv-corpus, `make corpus`; `torch.set_num_threads`).
Repeated calls keep the weights in cache: in a whole model each layer's
weights come from main memory (resnet18's layer 4 convolutions run some 5%
slower there; benchmarks/model_speed.py times the models).

It prints ms, GFLOP/s, % of the measured peak (`schedgen peak`, per core
times the threads), the % of peak of schedgen's fastest tenth of runs
(kernels.median_and_fast), and schedgen's speed over torch's. A measurement during
which other processes used the CPU is taken again (benchmarks/idle.py);
one that never ran alone is marked `~`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from idle import alone  # noqa: E402
from kernels import median_and_fast, onto_zeros, planned, sweep_options, sweep_target  # noqa: E402
from machine import print_machine  # noqa: E402

from schedgen.run.bench import bench  # noqa: E402

TORCH = ROOT / ".venv-corpus" / "bin" / "python"

# name: (input channels, padded input size, output channels, window, stride, output size)
SHAPES = {
    "stem": (3, 229, 64, 7, 2, 112),  # conv1: 7x7 stride 2 onto 112x112
    "l1": (64, 58, 64, 3, 1, 56),
    "l2": (128, 30, 128, 3, 1, 28),
    "l2_down": (64, 58, 128, 3, 2, 28),  # each layer's first convolution: stride 2
    "l3": (256, 16, 256, 3, 1, 14),
    "l3_down": (128, 30, 256, 3, 2, 14),
    "l4": (512, 9, 512, 3, 1, 7),
    "l4_down": (256, 16, 512, 3, 2, 7),
    # resnet50's 1x1 convolutions 256 -> 64 (layer1): onto 56x56 (an im2col matmul, normalize._img2col) and onto
    # the 64x64 of a 256x256 image, whose input rows (channels) are 16 KiB apart, one L1 set
    # (cpu_levels._evicts_itself)
    "r50_1x1": (256, 56, 64, 1, 1, 56),
    "r50_1x1_64": (256, 64, 64, 1, 1, 64),
    # its 1x1 convolutions 64 -> 256 (each block's last, and the downsample): a reduction of only 64
    "r50_1x1_up": (64, 56, 256, 1, 1, 56),
    # densenet121's 3x3 128 -> 32 (growth rate 32) onto 56x56: an im2col matmul of only 32 rows
    "dn_3x3": (128, 58, 32, 3, 1, 56),
    # its 1x1 convolutions onto 56x56 (the bottleneck, 4 x 32 channels out) of its first and last dense layer
    "dn_1x1_64": (64, 56, 128, 1, 1, 56),
    "dn_1x1_224": (224, 56, 128, 1, 1, 56),
}

_TORCH = """
import statistics, sys, time
import torch
c, h, f, k, s, threads = (int(a) for a in sys.argv[1:7])
min_s = float(sys.argv[7])
torch.set_num_threads(threads)
g = torch.Generator().manual_seed(0)
x, w = torch.randn(1, c, h, h, generator=g), torch.randn(f, c, k, k, generator=g)
with torch.inference_mode():
    torch.nn.functional.conv2d(x, w, stride=s)
    times, start = [], time.perf_counter()
    while len(times) < 5 or time.perf_counter() - start < min_s:
        t = time.perf_counter(); torch.nn.functional.conv2d(x, w, stride=s); times.append(time.perf_counter() - t)
print(statistics.median(times))
"""


def payload(name: str, c: int, h: int, f: int, k: int, s: int, o: int) -> str:
    x, w, y = f"tensor<1x{c}x{h}x{h}xf32>", f"tensor<{f}x{c}x{k}x{k}xf32>", f"tensor<1x{f}x{o}x{o}xf32>"
    return onto_zeros(name, {"x": x, "w": w}, y,
                      f"linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<{s}> : "
                      f"vector<2xi64>}} ins(%x, %w : {x}, {w}) outs(%f : {y}) -> {y}")


def torch_seconds(c: int, h: int, f: int, k: int, s: int, threads: int, min_seconds: float) -> float:
    out = subprocess.run([str(TORCH), "-c", _TORCH, *map(str, (c, h, f, k, s, threads)), str(min_seconds)],
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", nargs="*", default=list(SHAPES), choices=list(SHAPES))
    sweep_options(ap)
    args = ap.parse_args()
    peak = print_machine()
    target = sweep_target(args.target)
    peers = ["schedgen"] + (["torch"] if TORCH.exists() else [])
    if not TORCH.exists():
        print("no .venv-corpus (make corpus): schedgen alone")
    with tempfile.TemporaryDirectory(prefix="schedgen-convs-") as tmp:
        cases = []
        for name in args.shapes:
            cases.append((name, *planned(Path(tmp), name, payload(name, *SHAPES[name]), target)))
        got: dict[tuple[str, int, str], list[tuple[list[float], bool]]] = {}
        for r in range(args.rounds):
            for name, path, schedule, model in cases:
                c, h, f, k, s, _ = SHAPES[name]
                for t in args.threads:
                    got.setdefault((name, t, "schedgen"), []).append(alone(lambda: bench(
                        path, schedule, threads=t, min_seconds=args.min_time, model=model).times_s))
                    if "torch" in peers:
                        got.setdefault((name, t, "torch"), []).append(
                            alone(lambda: [torch_seconds(c, h, f, k, s, t, args.min_time)]))
            print(f"  round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    print(f"{'shape':<9} {'C>F':>9} {'out':>7} {'thr':>3} "
          + " ".join(f"{who + ' ms':>11} {'GFLOP/s':>8} {'% peak':>7}" + (f" {'p10 %':>6}" if who == "schedgen" else "")
                     for who in peers)
          + (f" {'schedgen/torch speed':>21}" if "torch" in peers else ""))
    for name, *_ in cases:
        c, h, f, k, s, o = SHAPES[name]
        flop = 2 * f * c * k * k * o * o
        for t in args.threads:
            cells, seconds = [], []
            for who in peers:
                sec, fast, ok = median_and_fast(got[(name, t, who)])
                mark = "" if ok else "~"
                pct = f"{100 * flop / sec / 1e9 / (peak * t):.0f}%" if peak else "-"
                p10 = f" {f'{100 * flop / fast / 1e9 / (peak * t):.0f}%' if peak else '-':>6}" if who == "schedgen" else ""
                cells.append(f"{mark + f'{sec * 1e3:.3f}':>11} {flop / sec / 1e9:>8.1f} {pct:>7}{p10}")
                seconds.append(sec)
            ratio = f" {seconds[1] / seconds[0]:>21.2f}" if len(seconds) > 1 else ""
            print(f"{name:<9} {f'{c}>{f}':>9} {f'{o}x{o}':>7} {t:>3} " + " ".join(cells) + ratio)


if __name__ == "__main__":
    main()
