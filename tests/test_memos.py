"""The one table of values kb keeps between runs (kb.store.memos.MEMOS): every memo a module of
src/kb keeps through ``Store.kept`` is named there, and an unnamed one is refused."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kb.store.db import Store
from kb.store.memos import MEMOS

SRC = Path(__file__).resolve().parents[1] / "src" / "kb"


def _kept_names() -> dict[str, str]:
    """Every string literal given as a memo name in src/kb: the first argument of a ``.kept(…)``
    call, and a ``memo=`` keyword (the Attributor's), with where it is written."""
    found: dict[str, str] = {}
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            values: list[ast.expr] = []
            if isinstance(node.func, ast.Attribute) and node.func.attr == "kept" and node.args:
                values.append(node.args[0])
            values.extend(k.value for k in node.keywords if k.arg == "memo")
            for value in values:
                for n in ast.walk(value):
                    if isinstance(n, ast.Constant) and isinstance(n.value, str):
                        found.setdefault(n.value, f"{path.relative_to(SRC)}:{n.lineno}")
    return found


def test_the_memo_table_lists_what_each_memo_holds() -> None:
    assert MEMOS, "the table is empty"
    for name, line in MEMOS.items():
        assert name and line.strip() and "\n" not in line, name
        assert "keyed by" in line, f"{name}: say what it is keyed by"


def test_every_kept_memo_in_src_is_in_the_table() -> None:
    found = _kept_names()
    assert {"title_index", "title_names", "newest_inbox", "attributor_names"} <= set(found)
    assert {name: where for name, where in found.items() if name not in MEMOS} == {}


def test_a_memo_not_in_the_table_is_refused(tmp_path: Path) -> None:
    store = Store(tmp_path, "fp")
    try:
        with pytest.raises(ValueError, match="not named in kb.store.memos.MEMOS"):
            store.kept("no_such_memo", [1], lambda: 1)
        assert store.kept("title_names", [1], lambda: [2]) == [2]
    finally:
        store.close()
