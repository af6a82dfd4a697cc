"""A night of many arXiv ids (one per line, no card, no value) is briefed in time linear in the
ids: §3's off-topic rows of one file are grouped by identity, never by comparing rows, and the
name written before an id is read with one pattern for every id."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from kb.brief.papers import collapse_offtopic
from kb.brief.reading import Reading


class _Row(dict):  # type: ignore[type-arg]
    """A §3 row that counts how often it is compared with another."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        _Row.compared += 1
        return dict.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]


def _row(i: int, path: str, outcome: str = "adjacent") -> dict[str, Any]:
    return _Row(id=f"2611.{20000 + i}", outcome=outcome, card=None, n=None, first={"path": path, "line": i + 1})


def test_rows_of_one_file_are_grouped_without_comparing_rows() -> None:
    rows = [_row(i, "inbox/kai/2026-09-01-list.md") for i in range(3000)]
    rows.insert(1, _row(9, "inbox/kai/2026-09-01-one.md"))
    rows.append(_row(7, "inbox/kai/2026-09-01-list.md", outcome="increment"))
    _Row.compared = 0
    shown = collapse_offtopic(rows)
    assert _Row.compared == 0
    assert [(r["id"], len(r["ids"])) for r in shown] == [
        ("2611.20000", 3000), ("2611.20009", 1), ("2611.20007", 1)]
    assert shown[0]["ids"][:3] == ["2611.20000", "2611.20001", "2611.20002"]


def test_the_name_written_before_each_id_is_read(tmp_path: Path) -> None:
    path = "inbox/kai/2026-09-01T0900-ids.md"
    (tmp_path / "inbox/kai").mkdir(parents=True)
    (tmp_path / path).write_text("---\nnote: TideKV（arXiv:2611.30002）\n---\n"
                                 "- TideKV（arXiv:2611.30001）把 KV 放进 CXL；另见 Ebb-Cache (arxiv: 2611.30001v2)\n"
                                 + "".join(f"- arXiv:2611.{31000 + i} 又一篇\n" for i in range(2000)), encoding="utf-8")
    claim = SimpleNamespace(provenance=SimpleNamespace(path=path, line=4, end_line=4))
    night = SimpleNamespace(claims={"c": claim}, doc=SimpleNamespace(claims=[]), kb=SimpleNamespace(root=tmp_path))
    reading = Reading(night)  # type: ignore[arg-type]
    assert reading.id_names("arxiv:2611.30001") == ["TideKV", "Ebb-Cache"]
    assert reading.id_names("arxiv:2611.30002") == []  # front matter is no window text
    assert reading.id_names("arxiv:2611.31999") == []
    assert reading.id_names("title:tidekv") == []
