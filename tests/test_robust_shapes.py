"""A night of many arXiv ids (one per line, no card, no value) is briefed in time linear in the
ids: §3's off-topic rows of one file are grouped by identity, never by comparing rows, and the
name written before an id is read with one pattern for every id. One line of many ids is one
claim under as many subjects: what the brief asks of it (its ids, whether it is a metadata row)
is read once (:class:`kb.perf.memo.PerObject`), not once per subject. So is one table cell of
many ids: the row's title cell, where a passing word stands and whether it names the topic."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import kb.brief.reading as reading
import kb.extract.qualifiers as qualifiers
import kb.night.rules as rules
from kb.brief.papers import collapse_offtopic
from kb.brief.reading import Reading
from kb.core.claims import ArxivRef


class _Row(dict):  # type: ignore[type-arg]
    """A §3 row that counts how often it is compared with another."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        _Row.compared += 1
        return dict.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]


def _row(i: int, path: str, outcome: str = "adjacent") -> dict[str, Any]:
    return _Row(id=f"2611.{20000 + i}", outcome=outcome, card=None, n=None,
                first={"path": path, "line": i + 1, "source": f"{path}:{i + 1}"})  # a §3 row's first line, as the brief makes it


def test_rows_of_one_file_are_grouped_without_comparing_rows() -> None:
    rows = [_row(i, "inbox/kai/2026-09-01-list.md") for i in range(3000)]
    rows.insert(1, _row(9, "inbox/kai/2026-09-01-one.md"))
    rows.append(_row(7, "inbox/kai/2026-09-01-list.md", outcome="increment"))
    _Row.compared = 0
    shown = collapse_offtopic(rows)
    assert _Row.compared == 0
    assert [(r["id"], len(r["ids"]), len(r["sources"])) for r in shown] == [
        ("2611.20000", 3000, 3000), ("2611.20009", 1, 1), ("2611.20007", 1, 1)]  # each paper's own line cited
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


class _Counted:
    """A compiled pattern that counts its searches."""

    def __init__(self, rx: Any) -> None:
        self.rx, self.searches = rx, 0

    def search(self, *args: Any) -> Any:
        self.searches += 1
        return self.rx.search(*args)

    def match(self, *args: Any) -> Any:
        return self.rx.match(*args)


def _ids_kb(tmp_path: Path, inbox: str) -> Path:
    """A KB of one inference doc (TGI 300 tok/s) and one inbox file of ``inbox``."""
    root = tmp_path / "kb"
    for d in ("inbox/jay", "organized/knowledge", "organized/paper_cards"):
        (root / d).mkdir(parents=True)
    (root / "kb.yaml").write_text('timezone: "+08:00"\ncutoff: "22:00"\ntopics: [inference]\nentities:\n  TGI: []\n'
                                  "executor: x\n", encoding="utf-8")
    (root / "organized/knowledge/inference.md").write_text(
        "---\ntopic: inference\nversion: 3\nupdated: 2026-07-30T05:00:00+08:00\n---\n# inference\n## §1 Overview\n"
        "- TGI throughput 300 tok/s.\n", encoding="utf-8")
    (root / "inbox/jay/2026-07-31T1735-a.md").write_text(inbox, encoding="utf-8")
    return root


def test_a_digest_of_one_line_of_many_ids_asks_each_question_of_the_line_once(
        run_kb, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    root = _ids_kb(tmp_path, "TGI " + " ".join(f"2607.{i:05d}" for i in range(400)) + "\n")
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    keys = []
    monkeypatch.setattr(ArxivRef, "key", property(lambda self: keys.append(1) or f"arxiv:{self.id}"))
    note = _Counted(reading._CARD_NOTE_RE)
    monkeypatch.setattr(reading, "_CARD_NOTE_RE", note)
    r = run_kb(["digest", "--date", "2026-07-31", "--out", "-"], cwd=root)
    assert r.exit_code == 0, r.stderr
    assert "已收 1 个（活文档已收，窗口内数值均已在文档中，不是增量）：TGI" in r.stdout
    assert "\n- arXiv:2607.00001、arXiv:2607.00002、" in r.stdout and "、arXiv:2607.00399【邻接】" in r.stdout  # (00000 is no id)
    assert len(keys) < 3 * 400  # the line's ids as keys: a few times each (was 160,398: the line's per subject)
    assert note.searches == 1  # is the line a card note: read once, not once per id (400)


def test_a_digest_of_one_table_cell_of_many_ids_reads_the_row_once(
        run_kb, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    root = _ids_kb(tmp_path, "| Engine | paper | tok/s |\n|---|---|---|\n| TGI | "
                   + " ".join(f"2607.{i:05d}" for i in range(400)) + " | 300 |\n")
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    passing = _Counted(qualifiers._PASSING_RE)
    monkeypatch.setattr(qualifiers, "_PASSING_RE", passing)
    folds: list[str] = []
    fold = rules._fold
    monkeypatch.setattr(rules, "_fold", lambda text: folds.append(text) or fold(text))
    cells: list[int] = []
    title_cell = Reading._title_cell
    monkeypatch.setattr(Reading, "_title_cell", lambda self, c: cells.append(c.provenance.line) or title_cell(self, c))
    r = run_kb(["digest", "--date", "2026-07-31", "--out", "-"], cwd=root)
    assert r.exit_code == 0, r.stderr
    assert "已收 1 个（活文档已收，窗口内数值均已在文档中，不是增量）：TGI" in r.stdout
    assert "\n- arXiv:2607.00001、arXiv:2607.00002、" in r.stdout and "、arXiv:2607.00399【邻接】" in r.stdout
    assert "| 2607.00001、2607.00002、" in r.stdout  # §3: the cell of ids is no title of any of them
    assert cells == [3]  # the row's title cell: found once (was split once per id it names)
    assert passing.searches == 2  # a passing word: one search of the row per view of it (was one per id)
    # the topic and its category, then around the row: its file name and 3 cells, folded once (was 4 folds per id)
    assert folds == ["inference", "inference", "2026-07-31T1735-a.md", "TGI",
                     " ".join(f"2607.{i:05d}" for i in range(400)), "300"]


def test_where_the_first_passing_word_ends_is_where_a_head_first_holds_one() -> None:
    texts = ["TGI 如 vLLM", "其他如 SGLang 与 vLLM", "an other such as e.g. TGI", "例如X", "nothing here",
             "LIKE TGI", "TGI 等 | 2607.00001 including 2607.00002", ""]
    for text in texts:  # the smallest k whose head text[:k] a search finds a passing word in, as _leads asked
        k = next((k for k in range(len(text) + 1) if qualifiers._PASSING_RE.search(text[:k])), -1)
        assert qualifiers._passing_end(text) == k, text
    assert [qualifiers._passing_end(t) for t in texts] == [5, 2, 8, 2, -1, 4, 5, -1]
