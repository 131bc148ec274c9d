"""The diagnostics the transform interpreter's bindings print, read back
(no MLIR import: schedgen.ir.isolated reads its child's output with it)."""

from __future__ import annotations

import re

# On success the bindings print the warnings and remarks the interpreter
# collected to file descriptor 2, under this heading.
WARNED = "Diagnostic generated while applying transform.named_sequence:"
_AT = re.compile(r'at loc\("([^"]*)":(\d+):(\d+)\): ')


def split_warnings(printed: str) -> tuple[str, list[str]]:
    """What an application printed on fd 2: (the rest, the warnings)."""
    head, _, tail = printed.partition(WARNED)
    return head, warnings_in(tail)


def warnings_in(text: str) -> list[str]:
    """One line per diagnostic: where, then what, without the 'see current
    operation' notes that repeat the whole op."""
    out: list[str] = []
    for m in _AT.finditer(text):
        end = text.find("\n", m.end())
        message = text[m.end():end if end >= 0 else len(text)].strip()
        if message.startswith("see current operation") or not message:
            continue
        line = f"{m.group(1)}:{m.group(2)}:{m.group(3)}: {message}"
        if line not in out:
            out.append(line)
    return out
