"""The package layout shows the data flow: each stage imports only the
stages before it, no module reaches into another's private names, and no
function runs over 60 lines."""

from __future__ import annotations

import ast

from conftest import ROOT

PACKAGE = ROOT / "schedgen"
# Stages in data-flow order; a module may import its own stage and those before it.
STAGES = ["base", "model", "ir", "analysis", "planning", "emit", "run", "check", "top"]
# Top-level modules: shared infrastructure (base) and the wiring (top).
TOP_LEVEL = {"errors": "base", "progress": "base", "template_env": "base", "child": "base", "cli": "top",
             "schedules": "top", "__init__": "base"}
MAX_LINES = 60


def _stage(module: str) -> str:
    parts = module.split(".")
    if len(parts) >= 3:
        return parts[1]
    return TOP_LEVEL[parts[1]]


def _modules() -> dict[str, ast.Module]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        out[name] = ast.parse(path.read_text(), str(path))
    return out


def _imports(tree: ast.Module) -> list[ast.ImportFrom]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
            and n.module.startswith("schedgen.") and n.level == 0]


def test_every_module_has_a_stage():
    for name in _modules():
        assert _stage(name) in STAGES, name


def test_stages_import_only_earlier_stages():
    wrong = []
    for name, tree in _modules().items():
        mine = STAGES.index(_stage(name))
        for node in _imports(tree):
            if node.module == "schedgen.templates":
                continue
            theirs = STAGES.index(_stage(node.module))
            if theirs > mine:
                wrong.append(f"{name} imports {node.module} (line {node.lineno})")
    assert not wrong, wrong


def test_model_does_not_touch_mlir():
    for name, tree in _modules().items():
        if _stage(name) == "model":
            assert not any(isinstance(n, (ast.Import, ast.ImportFrom)) and "mlir" in ast.unparse(n)
                           for n in ast.walk(tree)), name


def test_no_private_names_imported_across_modules():
    wrong = []
    trees = dict(_modules())
    for path in sorted((ROOT / "tests").glob("*.py")):
        trees[f"tests.{path.stem}"] = ast.parse(path.read_text())
    for name, tree in trees.items():
        for node in _imports(tree):
            wrong += [f"{name}: {node.module}.{a.name}" for a in node.names
                      if a.name.startswith("_") and not a.name.startswith("__")]
    assert not wrong, wrong


def test_no_function_is_longer_than_60_lines():
    long = [f"{name}.{n.name}: {n.end_lineno - n.lineno + 1} lines"
            for name, tree in _modules().items() for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.end_lineno - n.lineno + 1 > MAX_LINES]
    assert not long, long
