"""PyTorch eager on a corpus entry, the module corpus/make_corpus.py exports
(same seeds, same inputs): the median seconds of one forward call, printed.
Run by benchmarks/model_speed.py with the corpus environment's Python
(`make corpus` makes .venv-corpus; torch is never in schedgen's own).

    .venv-corpus/bin/python benchmarks/torch_eager.py NAME THREADS MIN_SECONDS
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "corpus"))


def main() -> int:
    name, threads, min_seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    import torch
    from make_corpus import CASES, _import_torchvision

    torch.set_num_threads(threads)
    _import_torchvision()  # before transformers, which imports it too
    case = next(c for c in CASES if c.name == name)
    module, inputs = case.build()
    module.eval()
    with torch.inference_mode():
        module(*inputs)  # warm-up: first-call allocations and dispatch caches
        times, start = [], time.perf_counter()
        while len(times) < 5 or time.perf_counter() - start < min_seconds:
            t = time.perf_counter()
            module(*inputs)
            times.append(time.perf_counter() - t)
    print(statistics.median(times))
    return 0


if __name__ == "__main__":
    sys.exit(main())
