"""The house (issue 19): one folder per stage, each importing only the stages below it.

Walks the AST of every module of ``src/kb`` and fails on:

* an import of a kb package to the right of the importer's in :data:`ORDER` (brief, verify,
  lint and history stand side by side and never import each other);
* ``sqlite3`` outside ``store/``; ``typer`` or ``rich`` outside ``cli/``;
* a function-level import outside ``cli/`` that is not one of :data:`LAZY` (heavy optional
  libraries, loaded only by the commands that use them): never one to dodge a cycle;
* a re-export (a name imported and not used) outside an ``__init__`` face of at most 40 lines;
* a module over :data:`MAX_LINES` lines.

A test plants each kind of fault in a copy of the tree and checks it is reported.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "kb"

#: The stages, lowest first; a package imports only packages before it (a tuple: side by side).
ORDER: tuple[str | tuple[str, ...], ...] = (
    "perf", "core", "extract", "read", "store", "facts", "night", ("brief", "verify", "lint", "history"), "cli")

#: Imports allowed inside a function outside ``cli/``: heavy optional libraries that only some
#: commands need (templates, fuzzy titles, units, plots, the arXiv client and its HTTP stack,
#: the YAML loader, the Markdown parser, the worker pool that loads logging, a withdrawn paper's
#: dependents that load the Attributor) and POSIX-only modules.
LAZY = frozenset({"jinja2", "rapidfuzz", "pint", "matplotlib", "arxiv", "requests", "urllib3", "lxml",
                  "ruamel", "markdown_it", "mdit_py_plugins", "concurrent", "fcntl", "kb.read.parse",
                  "kb.facts.dependents", "cn2an"})

#: The longest module, in lines (LAYOUT.md: no module over ~400 lines).
MAX_LINES = 400

#: The largest ``__init__`` face that may re-export names.
MAX_FACE = 40

_RANK = {pkg: i for i, stage in enumerate(ORDER) for pkg in (stage if isinstance(stage, tuple) else (stage,))}


def _module(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.Module, module: str, is_package: bool) -> list[tuple[ast.stmt, str, bool]]:
    """``(node, imported module, inside a function)`` for every import of ``tree``."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside.update(id(n) for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node, a.name, id(node) in inside) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[:len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append((node, name, id(node) in inside))
    return out


def _used_names(tree: ast.Module) -> set[str]:
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    for n in ast.walk(tree):  # names in string annotations and __all__
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.isidentifier():
            used.add(n.value)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            try:
                used.update(x.id for x in ast.walk(ast.parse(n.value, mode="eval")) if isinstance(x, ast.Name))
            except (SyntaxError, ValueError):  # (a string with a NUL byte: ValueError before Python 3.12)
                pass
    return used


def violations(root: Path = SRC) -> list[str]:
    """Every breach of the house rules under ``root`` (a ``kb`` package folder), as
    ``path:line: what`` strings, sorted."""
    out: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        module = _module(path, root)
        stage = rel.parts[0] if len(rel.parts) > 1 else None
        where = f"{rel.as_posix()}"
        lines = text.count("\n") + (not text.endswith("\n"))
        if lines > MAX_LINES:
            out.append(f"{where}:1: {lines} lines (at most {MAX_LINES})")
        for node, name, in_function in _imports(tree, module, path.name == "__init__.py"):
            top = name.split(".")[0]
            at = f"{where}:{node.lineno}"
            if top == "sqlite3" and stage != "store":
                out.append(f"{at}: sqlite3 outside store/")
            if top in ("typer", "rich", "click") and stage != "cli":
                out.append(f"{at}: {top} outside cli/")
            if in_function and stage != "cli" and top not in LAZY and name not in LAZY:
                out.append(f"{at}: function-level import of {name}")
            parts = name.split(".")
            if top == "kb" and len(parts) > 1 and stage in _RANK and parts[1] in _RANK and parts[1] != stage:
                if _RANK[parts[1]] >= _RANK[stage]:
                    out.append(f"{at}: {stage}/ imports {parts[1]}/ ({name})")
        if path.name != "__init__.py" or lines > MAX_FACE:
            used = _used_names(tree)
            for node in tree.body:
                if isinstance(node, ast.ImportFrom) and node.module != "__future__" and not (
                        stage == "cli" and (node.module or "").startswith("kb.cli")):  # (a command registers itself)
                    for a in node.names:
                        if (a.asname or a.name) not in used:
                            out.append(f"{where}:{node.lineno}: re-export of {a.asname or a.name}")
    return out


def test_the_house_keeps_its_rules() -> None:
    assert violations() == []


@pytest.mark.parametrize(("file", "planted", "expected"), [
    ("core/claims.py", "from kb.store.db import Store\nStore\n", "core/ imports store/ (kb.store.db)"),
    ("lint/engine.py", "from kb.brief.render import render\nrender\n", "lint/ imports brief/ (kb.brief.render)"),
    ("facts/values.py", "import sqlite3\nsqlite3\n", "sqlite3 outside store/"),
    ("brief/render.py", "import rich\nrich\n", "rich outside cli/"),
    ("extract/dates.py", "def _planted():\n    from kb.core import paths\n    return paths\n",
     "function-level import of kb.core"),
    ("read/livedoc.py", "from kb.core.paths import doc_path as _again\n", "re-export of _again"),
])
def test_a_planted_fault_is_reported(tmp_path: Path, file: str, planted: str, expected: str) -> None:
    root = tmp_path / "kb"
    shutil.copytree(SRC, root, ignore=shutil.ignore_patterns("__pycache__"))
    before = set(violations(root))
    target = root / file
    target.write_text(target.read_text(encoding="utf-8") + "\n" + planted, encoding="utf-8")
    found = [v for v in violations(root) if v not in before]
    assert found and all(v.startswith(file) for v in found) and any(expected in v for v in found), found


def test_a_long_module_is_reported(tmp_path: Path) -> None:
    root = tmp_path / "kb"
    (root / "core").mkdir(parents=True)
    (root / "core" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    assert violations(root) == [f"core/long.py:1: {MAX_LINES + 1} lines (at most {MAX_LINES})"]


DECISIONS = SRC.parents[1] / "docs" / "decisions.md"


def _top_level_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def decision_homes(text: str) -> list[tuple[str, list[str], list[str]]]:
    """``(decision, modules, names)`` per row of docs/decisions.md's table: the ``kb.…`` modules and
    the other code names of its "the one place" cell."""
    import re

    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("decision", "---"):
            continue
        codes = re.findall(r"`([^`]+)`", cells[1])
        modules = [c for c in codes if c.startswith("kb.")]
        names = [re.split(r"[.(]", c)[0] for c in codes if not c.startswith("kb.")]
        rows.append((cells[0], modules, [n for n in names if n.isidentifier()]))
    return rows


def test_each_decision_has_one_home_and_no_second_definition() -> None:
    """docs/decisions.md names the one module of each decision; each name it gives is defined
    at the top level of one of those modules and of no other module of kb."""
    defined: dict[str, list[str]] = {}
    for path in SRC.rglob("*.py"):
        for name in _top_level_names(path):
            defined.setdefault(name, []).append(_module(path, SRC))
    rows = decision_homes(DECISIONS.read_text(encoding="utf-8"))
    assert len(rows) >= 15
    problems = []
    for decision, modules, names in rows:
        assert modules, f"{decision}: names no module"
        for m in modules:
            assert (SRC.parent / (m.replace(".", "/") + ".py")).is_file() or (
                SRC.parent / m.replace(".", "/") / "__init__.py").is_file(), f"{decision}: no module {m}"
        for name in names:
            homes = sorted(defined.get(name, []))
            if not homes or not set(homes) & set(modules):
                problems.append(f"{decision[:40]}: {name} is not defined in {modules} (found in {homes})")
            elif len(homes) > 1:
                problems.append(f"{decision[:40]}: {name} is defined in {homes}")
    assert problems == []
