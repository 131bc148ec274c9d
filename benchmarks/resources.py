"""Resource limits of generate, apply and verify: time and peak memory as the
op count grows (chains of 1250 to 10,000 tileable ops), and on a model whose
weights are 100 MB of constants.

    .venv/bin/python benchmarks/resources.py [--ops 1250,2500,5000,10000]
        [--weights-mb 100] [--target npu-256k] [--skip-verify-above 2500]

Each verb runs in a child process of its own (`--measure`); its resident set
and that of the processes it starts (the proof's xtc-opt, the apply worker,
execution) are sampled from /proc every 20 ms and their peaks printed apart. The growth columns divide each
figure by the one of the previous op count, against the ratio of op counts:
linear growth prints the same number twice. For the weights, "RSS / weights"
is the peak resident set of the verb's own process, above that of the same
verb on a 4-op payload, over the weights' bytes: a verb that holds the
weights once shows about 1, each further copy adds 1 (the payload text
holds them as hex: 2 bytes per byte, so a copy of the text adds 2).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate_speed import chain_payload  # noqa: E402


def measure_here(argv: list[str]) -> None:
    """The child's side: run one schedgen verb and print its time as JSON."""
    from schedgen.cli import main

    t0 = time.perf_counter()
    code = main(argv)
    print(json.dumps({"code": code, "seconds": time.perf_counter() - t0}))


def _tree(root: int) -> dict[int, int]:
    """Resident MB of `root` and of every process below it, from /proc."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            status = (entry / "status").read_text()
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        kb = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
        rss[int(entry.name)] = kb // 1024
    inside = {root}
    for _ in range(8):  # descendants, a few generations deep
        inside |= {pid for pid, parent in parents.items() if parent in inside}
    return {pid: rss.get(pid, 0) for pid in inside}


def measure(argv: list[str]) -> dict:
    """Run one verb in a child; its peak resident set and the peak of the
    processes it starts (sampled from /proc every 20 ms: ru_maxrss would
    count the parent's pages at fork time)."""
    proc = subprocess.Popen([sys.executable, __file__, "--measure", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    own = others = 0
    while proc.poll() is None:
        tree = _tree(proc.pid)
        own = max(own, tree.pop(proc.pid, 0))
        others = max(others, sum(tree.values()))
        time.sleep(0.02)
    out, err = proc.communicate()
    lines = out.strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"{' '.join(argv[:2])}: exit {proc.returncode}\n{err[-2000:]}")
    result = json.loads(lines[-1])
    if result["code"] not in (0, 1):
        raise SystemExit(f"{' '.join(argv[:2])}: schedgen exit {result['code']}\n{err[-2000:]}")
    return {**result, "rss_mb": own, "children_rss_mb": others}


def weights_payload(megabytes: int, rows: int = 8) -> tuple[str, int]:
    """An MLP on `rows` tokens whose square f32 weight matrices (as
    dense_resource blobs, as torch-mlir writes parameters) add up to about
    `megabytes`; returns the text and the weights' bytes."""
    layers = 4
    n = int((megabytes * 1e6 / layers / 4) ** 0.5) // 64 * 64
    rng = np.random.default_rng(0)
    t, w = f"tensor<{rows}x{n}xf32>", f"tensor<{n}x{n}xf32>"
    lines = [f"func.func @mlp(%x: {t}) -> {t} {{", "  %zero = arith.constant 0.0 : f32",
             f"  %empty = tensor.empty() : {t}"]
    blobs, cur = [], "%x"
    for k in range(layers):
        lines += [f"  %w{k} = arith.constant dense_resource<w{k}> : {w}",
                  f"  %f{k} = linalg.fill ins(%zero : f32) outs(%empty : {t}) -> {t}",
                  f"  %m{k} = linalg.matmul ins({cur}, %w{k} : {t}, {w}) outs(%f{k} : {t}) -> {t}"]
        cur = f"%m{k}"
        data = (rng.standard_normal((n, n), dtype=np.float32) / n ** 0.5).tobytes()
        blobs.append(f'      w{k}: "0x04000000{data.hex()}"')  # the leading word: 4-byte alignment
    lines += [f"  return {cur} : {t}", "}", "{-#", "  dialect_resources: {", "    builtin: {",
              ",\n".join(blobs), "    }", "  }", "#-}"]
    return "\n".join(lines) + "\n", layers * n * n * 4


def run_verbs(payload: Path, where: list[str], work: Path, verify: bool) -> list[tuple[str, dict]]:
    schedule, applied = work / "schedule.mlir", work / "applied.mlir"
    rows = [("generate", measure(["generate", str(payload), *where, "-o", str(schedule)])),
            ("apply", measure(["apply", str(payload), str(schedule), "-o", str(applied)]))]
    if verify:
        rows.append(("verify", measure(["verify", str(payload), str(schedule)])))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", default="1250,2500,5000,10000")
    ap.add_argument("--weights-mb", type=int, default=100)
    ap.add_argument("--target", default="npu-256k", help="for the weights")
    ap.add_argument("--chain-memory", type=int, default=8192,
                    help="budget of the chains (32x32 f32 tiles: every op is its own or a fused nest)")
    ap.add_argument("--skip-verify-above", type=int, default=10_000, help="op counts above this are not verified")
    args = ap.parse_args()
    counts = [int(x) for x in args.ops.split(",") if x]
    print(f"schedgen generate / apply / verify, chains of 32x32 f32 ops at --memory {args.chain_memory}, "
          "one child process per verb")
    print(f"{'payload':<26} {'verb':<9} {'s':>8} {'RSS MB':>8} {'exec RSS':>9} {'s growth':>9} "
          f"{'RSS growth':>11} {'op ratio':>9}")
    last: dict[str, dict] = {}
    previous = None
    with tempfile.TemporaryDirectory(prefix="schedgen-resources-") as tmp:
        work = Path(tmp)
        for n in counts:
            payload = work / f"chain{n}.mlir"
            payload.write_text(chain_payload(n, size=32))
            for verb, r in run_verbs(payload, ["--memory", str(args.chain_memory)], work, n <= args.skip_verify_above):
                old = last.get(verb)
                growth = (f"{r['seconds'] / old['seconds']:>9.2f} {r['rss_mb'] / old['rss_mb']:>11.2f} "
                          f"{n / previous:>9.2f}") if old else f"{'':>9} {'':>11} {'':>9}"
                print(f"{f'chain of {n} ops':<26} {verb:<9} {r['seconds']:>8.2f} {r['rss_mb']:>8.0f} "
                      f"{r['children_rss_mb']:>9.0f} {growth}", flush=True)
                last[verb] = r
            previous = n
        if args.weights_mb:
            weights_table(args.weights_mb, args.target, work)


def weights_table(megabytes: int, target: str, work: Path) -> None:
    """Each verb on the MLP with weights, next to the same verb on a tiny
    payload (the base every resident set is measured from)."""
    tiny = work / "tiny.mlir"
    tiny.write_text(chain_payload(4, size=32))
    base = dict(run_verbs(tiny, ["--target", target], work, True))
    text, nbytes = weights_payload(megabytes)
    payload = work / "weights.mlir"
    payload.write_text(text)
    del text
    mb = nbytes / 1e6
    print(f"\nMLP with {mb:.0f} MB of f32 weights (payload text {payload.stat().st_size / 1e6:.0f} MB); "
          "copies = (RSS - RSS on a 4-op payload) / weights")
    print(f"{'verb':<9} {'s':>8} {'RSS MB':>8} {'copies':>7} {'exec RSS':>9} {'copies':>7}")
    for verb, r in run_verbs(payload, ["--target", target], work, True):
        b = base[verb]
        print(f"{verb:<9} {r['seconds']:>8.2f} {r['rss_mb']:>8.0f} {(r['rss_mb'] - b['rss_mb']) / mb:>7.2f} "
              f"{r['children_rss_mb']:>9.0f} {(r['children_rss_mb'] - b['children_rss_mb']) / mb:>7.2f}", flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--measure":
        measure_here(sys.argv[2:])
    else:
        main()
