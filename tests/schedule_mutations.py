"""Hand edits of generated schedules, made the way a person makes them, for
benchmarks/fuzz.py --mutate-schedules and tests/test_fuzz.py.

A case is a random payload (tests/random_payloads.py) and a seed. Its
schedule is generated, one edit is made to it, and `apply`, `check` and
`verify` each run on the edited schedule through the CLI's entry point.
Each must answer with a verdict (exit 0 or 1) or with one line
"schedgen: error: ..." (exit 2), and leave no output file behind on an
error and the inputs untouched. Anything else is a failure of schedgen.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import signal
import tempfile
from dataclasses import dataclass
from pathlib import Path

from random_payloads import FuzzConfig, Outcome, RandomPayload, generate

MUTATIONS = ("tile-0", "tile-1", "tile-nondivisor", "tile-huge", "delete-line", "duplicate-line", "swap-lines",
             "wrong-handle", "drop-cleanup")
# Clean answers first: a verdict, a one-line error naming a schedule line,
# one naming only a file, and an example whose schedule was refused unedited.
ANSWERS = ("verdict", "error", "no schedule", "error without line", "stray output", "traceback", "internal error", "crash", "hang",
           "partial output", "input changed")
CLEAN = ("verdict", "error", "no schedule")
_SECONDS = 300  # per command; a hang is a failure


@dataclass(frozen=True)
class MutationCase:
    example: RandomPayload
    seed: int

    @property
    def text(self) -> str:
        return self.example.text


@dataclass
class MutationOutcome(Outcome):
    mutation: str = ""
    schedule: str = ""  # the edited schedule


# -- the edits -----------------------------------------------------------------

_TILES = re.compile(r"(tile_sizes|vector_sizes) \[([^\]]*)\]")
_HANDLE = re.compile(r"%[A-Za-z_][\w$.]*")


def _body(lines: list[str]) -> list[int]:
    """Indices of the op lines of the sequence bodies (not comments, blanks or the closing lines)."""
    out = []
    inside = False
    for i, line in enumerate(lines):
        s = line.strip()
        if "transform.named_sequence" in s:
            inside = True
            continue
        if inside and s and not s.startswith("//") and s not in ("}", "transform.yield"):
            out.append(i)
    return out


def _statements(lines: list[str]) -> list[tuple[int, int]]:
    """[start, end) line ranges of the ops of the bodies: an op and its
    continuation lines (the `: (...) -> ...` type line, a pattern block)."""
    body = _body(lines)
    spans: list[tuple[int, int]] = []
    for i in body:
        s = lines[i].strip()
        if spans and (s.startswith((":", "->", "}")) or _open(lines, spans[-1])):
            spans[-1] = (spans[-1][0], i + 1)
        else:
            spans.append((i, i + 1))
    return spans


def _open(lines: list[str], span: tuple[int, int]) -> bool:
    text = "\n".join(lines[span[0]:span[1]])
    return text.count("{") > text.count("}") or text.count("(") > text.count(")")


def _edit_tiles(text: str, kind: str, rng: random.Random) -> str | None:
    hits = list(_TILES.finditer(text))
    if not hits:
        return None
    hit = rng.choice(hits)
    sizes = [s.strip() for s in hit.group(2).split(",") if s.strip()]
    if not sizes:
        return None
    which = range(len(sizes)) if rng.random() < 0.4 else [rng.randrange(len(sizes))]
    for i in which:
        if kind == "tile-0":
            sizes[i] = "0"
        elif kind == "tile-1":
            sizes[i] = "1"
        elif kind == "tile-nondivisor":
            old = int(sizes[i]) if sizes[i].isdigit() else 8
            sizes[i] = str(rng.choice([3, 5, 7, 13, 97, 127, 197, max(2, old - 1), old + 1]))
        else:  # tile-huge: larger than any dim of the payloads
            sizes[i] = str(rng.choice([5000, 65536, 1 << 20]))
    return text[:hit.start()] + f"{hit.group(1)} [{', '.join(sizes)}]" + text[hit.end():]


def _edit_lines(text: str, kind: str, rng: random.Random) -> str | None:
    lines = text.splitlines()
    # a person edits whole ops more often than single physical lines
    spans = _statements(lines) if rng.random() < 0.75 else [(i, i + 1) for i in _body(lines)]
    if kind == "drop-cleanup":
        spans = [s for s in spans if re.search(r"transform\.apply_(cse|dce)\b", lines[s[0]])]
    if len(spans) < (2 if kind == "swap-lines" else 1):
        return None
    k = rng.randrange(len(spans) - (1 if kind == "swap-lines" else 0))
    a, b = spans[k]
    if kind in ("delete-line", "drop-cleanup"):
        lines[a:b] = []
    elif kind == "duplicate-line":
        lines[b:b] = lines[a:b]
    else:  # swap with the next op
        c, d = spans[k + 1]
        lines[a:d] = lines[c:d] + lines[b:c] + lines[a:b]
    return "\n".join(lines) + "\n"


def _wrong_handle(text: str, rng: random.Random) -> str | None:
    lines = text.splitlines()
    defined = sorted({h for i in _body(lines) for h in _HANDLE.findall(lines[i].split("=", 1)[0])
                      if "=" in lines[i]})
    uses = [(i, m) for i in _body(lines) for m in _HANDLE.finditer(lines[i])
            if "=" not in lines[i] or m.start() > lines[i].index("=")]
    if not uses or len(defined) < 2:
        return None
    i, m = rng.choice(uses)
    other = rng.choice([h for h in defined if h != m.group(0)])
    lines[i] = lines[i][:m.start()] + other + lines[i][m.end():]
    return "\n".join(lines) + "\n"


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """(mutation, edited schedule): a random edit that applies to this schedule."""
    kinds = list(MUTATIONS)
    rng.shuffle(kinds)
    for kind in kinds:
        if kind.startswith("tile-"):
            edited = _edit_tiles(text, kind, rng)
        elif kind == "wrong-handle":
            edited = _wrong_handle(text, rng)
        else:
            edited = _edit_lines(text, kind, rng)
        if edited is not None and edited != text:
            return kind, edited
    return "none", text


# -- running the CLI on an edit ----------------------------------------------------


class _Hang(BaseException):
    """Raised by the alarm: not an Exception, so the CLI's own handler cannot take it."""


def _alarm(signum, frame):  # noqa: ANN001
    raise _Hang


def _answer(command: list[str], schedule: Path, output: Path | None) -> tuple[str, str]:
    from schedgen.cli import main

    err, out = io.StringIO(), io.StringIO()
    before = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(_SECONDS)
    # MLIR prints its diagnostics to file descriptor 2, past sys.stderr: the user sees them too
    raw = tempfile.TemporaryFile(mode="w+b")
    saved = os.dup(2)
    os.dup2(raw.fileno(), 2)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            code = main(command)
    except _Hang:
        from schedgen.ir.isolated import stop_worker

        stop_worker()  # it may still be applying the schedule
        return "hang", f"{command[0]} ran over {_SECONDS} s"
    except BaseException as exc:  # noqa: BLE001  anything escaping main() is a traceback for the user
        return "traceback", f"{command[0]}: {type(exc).__name__}: {exc}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
        os.dup2(saved, 2)
        os.close(saved)
    raw.seek(0)
    stray = raw.read().decode(errors="replace").strip()
    if stray:
        return "stray output", f"{command[0]} printed past its own messages: {stray[:2000]}"
    # warnings are said a line each before the answer ("schedgen: warning: ...: MLIR warned at ...")
    message = "\n".join(ln for ln in err.getvalue().strip().splitlines() if not ln.startswith("schedgen: warning: "))
    if "Traceback" in message or "Traceback" in out.getvalue():
        return "traceback", message
    if code == 3 or "internal error" in message:
        return "internal error", message
    if code in (0, 1):
        verdict = output is None or output.exists() if code == 0 else "verdict:" in out.getvalue()
        return ("verdict", "") if verdict else ("crash", f"{command[0]} exit {code} without a verdict: {message}")
    lines = message.splitlines()
    if code != 2 or len(lines) != 1 or not lines[0].startswith("schedgen: error: "):
        return "crash", f"{command[0]} exit {code}: {message}"
    if output is not None and output.exists():
        return "partial output", f"{command[0]} left {output} behind: {message}"
    named = re.search(re.escape(str(schedule)) + r":\d+", message)
    return ("error" if named else "error without line"), f"{command[0]}: {message}"


def run_mutation(case: MutationCase, config: FuzzConfig, directory: Path | None = None) -> MutationOutcome:
    """Generate the case's schedule, edit it, and run apply, check and verify
    on the edit; the outcome is the worst answer of the three."""
    with contextlib.ExitStack() as stack:
        where = directory or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="schedgen-mut-")))
        code, message, payload, schedule = generate(case.example, where, config)
        if code != 0:
            return MutationOutcome("no schedule", message)
        mutation, edited = mutate(schedule.read_text(), random.Random(case.seed))
        schedule.write_text(edited)
        output = where / "applied.mlir"
        worst, detail = "verdict", ""
        for command, out in ((["apply", str(payload), str(schedule), "-o", str(output)], output),
                             (["check", str(payload), str(schedule)], None),
                             (["verify", str(payload), str(schedule)], None)):
            output.unlink(missing_ok=True)
            kind, said = _answer(command, schedule, out)
            if schedule.read_text() != edited or payload.read_text() != case.text:
                kind, said = "input changed", f"{command[0]} changed its inputs"
            if ANSWERS.index(kind) > ANSWERS.index(worst):
                worst, detail = kind, said
            elif kind == worst and not detail:
                detail = said
        return MutationOutcome(worst, detail, mutation=mutation, schedule=edited)
