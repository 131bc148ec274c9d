"""The Jinja2 environment of every template shipped in schedgen.templates
(the schedule, its normalization steps, the CPU lowering, the plan graph)."""

from __future__ import annotations

import functools
from importlib import resources

import jinja2


@functools.cache
def environment() -> jinja2.Environment:
    loader = jinja2.FunctionLoader(
        lambda name: resources.files("schedgen.templates").joinpath(name).read_text())
    return jinja2.Environment(loader=loader, undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                              autoescape=False)
