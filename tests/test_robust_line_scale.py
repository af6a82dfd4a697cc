"""One inbox line stating thousands of values of one subject: ``kb digest`` and ``kb history``
do a bounded amount of work per value (counted here, not timed; the times are
``benchmarks/bench_adversarial.py --kb-shapes --only one``), and give the answers the pairwise
comparisons they replace gave."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import kb.brief.shaping as shaping
import kb.history.timeline as timeline

KB_YAML = 'timezone: "+08:00"\ncutoff: "22:00"\ntopics:\n  t: [t]\nentities:\n  vLLM: []\nexecutor: x\n'
DOC = "---\ntopic: t\nversion: 1\nupdated: 2026-07-30T05:00:00+08:00\n---\n# t\n\n## 共识\n\n- vLLM throughput 1 tok/s\n"


def _kb(root: Path, line: str) -> Path:
    (root / "inbox/a").mkdir(parents=True)
    (root / "organized/knowledge").mkdir(parents=True)
    (root / "organized/paper_cards").mkdir(parents=True)
    (root / "kb.yaml").write_text(KB_YAML, encoding="utf-8")
    (root / "organized/knowledge/t.md").write_text(DOC, encoding="utf-8")
    (root / "inbox/a/2026-07-31-0900-x.md").write_text(line + "\n", encoding="utf-8")
    return root


def _line(n: int) -> str:
    return "- vLLM " + "，".join(f"throughput {i + 2} tok/s" for i in range(n))


def test_history_of_one_line_of_many_values_compares_each_value_with_few_groups(
        run_kb, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    calls = []
    real = timeline.same_value
    monkeypatch.setattr(timeline, "same_value", lambda a, b, tol: calls.append(1) or real(a, b, tol))
    root = _kb(tmp_path / "kb", _line(400))
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    r = run_kb(["history", "vLLM", "--format", "json"], cwd=root)
    assert r.exit_code == 0, r.stderr
    h = json.loads(r.stdout)
    assert len(h["sources"]) == 400
    # 2..401 tok/s at 2 % tolerance: 2..50 are each their own group, above that neighbours merge
    assert [s["raw"] for s in h["sources"]][:3] == ["2 tok/s", "3 tok/s", "4 tok/s"]
    assert len(calls) < 3 * 401  # pairwise against every group was ~ 400 * groups / 2


def test_history_groups_are_the_first_same_value_across_units(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _kb(tmp_path / "kb", "- vLLM TTFT 120 ms，TTFT 0.12 s，TTFT 121 ms，TTFT 200 ms，TTFT 0.2 s，TTFT 5 s")
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    r = run_kb(["history", "vLLM", "--format", "json"], cwd=root)
    assert r.exit_code == 0, r.stderr
    h = json.loads(r.stdout)
    assert [(s["raw"], s["group"]) for s in h["sources"]] == [
        ("120 ms", 1), ("0.12 s", 1), ("121 ms", 1), ("200 ms", 2), ("0.2 s", 2), ("5 s", 3)]
    assert [g["raw"] for g in h["values"]] == ["1 tok/s", "120 ms", "200 ms", "5 s"]


def test_digest_of_one_line_of_many_values_reads_the_line_once(
        run_kb, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    root = _kb(tmp_path / "kb", _line(300))
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    calls = []
    real = shaping.Reading.opinion_raws
    monkeypatch.setattr(shaping.Reading, "opinion_raws", lambda self, claims: calls.append(len(claims)) or real(self, claims))
    r = run_kb(["digest", "t", "--date", "2026-07-31", "--out", "-"], cwd=root)
    assert r.exit_code == 0, r.stderr
    assert "300 tok/s" in r.stdout
    assert len(calls) <= 3  # once per claim (settle_night) and per entry; it was once per value


def test_history_shows_each_row_around_its_own_value_without_searching_the_line(
        run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _kb(tmp_path / "kb", _line(400))
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    r = run_kb(["history", "vLLM"], cwd=root)
    assert r.exit_code == 0, r.stderr
    rows = r.stdout.splitlines()
    i = next(n for n, x in enumerate(rows) if "  401 tok/s  " in x)
    assert rows[i + 1].strip().startswith("…") and "throughput 401 tok/s" in rows[i + 1] and not rows[i + 1].endswith("…")
    assert "start" not in json.loads(run_kb(["history", "vLLM", "--format", "json"], cwd=root).stdout)["sources"][0]
