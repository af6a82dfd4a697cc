"""``kb verify`` on the demo KB (docs/demo-kb.md): offline listing, and ``--all --topic inference``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest_arxiv import FIXTURES, fake_arxiv  # noqa: F401
from fake_arxiv import FakeArxiv

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(
    not (REPO / "docs/demo-kb.md").is_file() or not (REPO / "inbox").is_dir(), reason="demo KB not present"
)

PLANTED = {
    "arXiv:2608.1028": ("invalid", ["invalid"]),
    "2607.25941": ("mismatch", ["card-name"]),
    "2607.26203": ("mismatch", ["title-mismatch"]),
    "2607.26672": ("mismatch", ["other-title"]),
}


def test_offline_lists_card_and_mentions_with_kinds(run_kb, demo_kb: Path, fake_arxiv: FakeArxiv) -> None:
    res = run_kb(["verify", "2607.26627", "--offline", "--format", "json", "--kb", str(demo_kb)])
    assert res.exit_code == 3  # nothing cached yet
    [item] = json.loads(res.stdout)
    assert item["card"] == {"path": "organized/paper_cards/681-2607-26627.md", "card": 681,
                            "title": "Revisiting Lossy Verification in Speculative Decoding",
                            "similarity": None, "category": "inference-systems"}
    assert [(m["path"], m["line"], m["kind"]) for m in item["mentions"]] == [
        ("inbox/spark/2026-07-31-llm-infra-e1prep.md", 49, "secondhand"),
        ("inbox/spark/2026-07-31-llm-infra-e1prep.md", 71, "internal-rating"),
        ("inbox/tom/2026-07-31-0900-hf-daily-2026-07-31.md", 11, "internal-rating"),  # its HF 票 row
        ("organized/paper_cards/681-2607-26627.md", 3, None),
        ("organized/paper_cards/681-2607-26627.md", 13, "paper-fact"),
    ]
    text = run_kb(["verify", "2607.26627", "--offline", "--kb", str(demo_kb)]).stdout
    assert "2607.26627: UNVERIFIED (offline and not in the cache)" in text
    assert "card      organized/paper_cards/681-2607-26627.md" in text
    assert "inbox/tom/2026-07-31-0900-hf-daily-2026-07-31.md:11  internal-rating" in text
    assert "organized/paper_cards/681-2607-26627.md:13  paper-fact" in text
    assert fake_arxiv.log == []


def test_all_topic_inference_reports_the_planted_problems(run_kb, demo_kb: Path, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add_dir(FIXTURES)
    res = run_kb(["verify", "--all", "--topic", "inference", "--format", "json", "--kb", str(demo_kb)])
    assert res.exit_code == 1
    items = json.loads(res.stdout)
    assert len(items) == 89
    problems = {i["input"]: (i["status"], [c["code"] for c in i["checks"] if c["level"] != "info"])
                for i in items if i["status"] != "ok" or i["reasons"]}
    assert problems == {k: (s, codes) for k, (s, codes) in PLANTED.items()}
    assert len(fake_arxiv.log) == 1 and len(fake_arxiv.id_lists[0]) == 88
    by_input = {i["input"]: i for i in items}
    assert by_input["2607.26203"]["arxiv"]["title"].startswith("Pass the Baton")
    assert by_input["2607.26203"]["card"]["similarity"] < 0.85
    assert by_input["arXiv:2608.1028"]["mentions"][0]["path"] == "inbox/tom/2026-07-31-agent-rag-longcontext-radar.md"
    assert by_input["2607.24870"]["card"]["path"] == "organized/paper_cards/670-2607-24870.md"  # not the float
    # the table (in a pipe: one block per id): worst first, and the summary on stderr
    table = run_kb(["verify", "--all", "--topic", "inference", "--offline", "--kb", str(demo_kb)])
    assert table.exit_code == 1 and len(fake_arxiv.log) == 1  # all answered from the cache
    rows = [ln for ln in table.stdout.splitlines() if not ln.startswith(" ")]
    assert len(rows) == 89
    assert [r.split()[0] for r in rows[:5]] == ["invalid", "mismatch", "mismatch", "mismatch", "ok"]
    assert "89 ids: 1 invalid, 3 mismatch, 85 ok" in table.stderr


def test_all_with_a_window_leaves_older_inbox_files_out(run_kb, demo_kb: Path, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add_dir(FIXTURES)
    res = run_kb(["verify", "--all", "--topic", "inference", "--since", "2026-07-30T22:00",
                  "--until", "2026-07-31T22:00", "--format", "json", "--kb", str(demo_kb)])
    inputs = {i["input"] for i in json.loads(res.stdout)}
    assert len(inputs) == 88 and "2607.24533" not in inputs  # only in the 07-30 HF daily
    assert "2607.24410" in inputs


def test_an_invalid_id_given_alone_still_lists_where_it_is_written(run_kb, demo_kb: Path, fake_arxiv: FakeArxiv) -> None:
    res = run_kb(["verify", "arXiv:2608.1028", "--offline", "--format", "json", "--kb", str(demo_kb)])
    [out] = json.loads(res.stdout)
    assert out["status"] == "invalid"
    assert [(m["path"], m["line"]) for m in out["mentions"]] == [
        ("inbox/tom/2026-07-31-agent-rag-longcontext-radar.md", 10)]
    assert fake_arxiv.log == []


def test_offline_all_with_findings_exits_1_not_3(run_kb, demo_kb: Path, fake_arxiv: FakeArxiv) -> None:
    """Definite findings (invalid id, file-name mismatch) beat 'could not check the rest'."""
    res = run_kb(["verify", "--all", "--topic", "inference", "--offline", "--format", "json", "--kb", str(demo_kb)])
    statuses = {r["status"] for r in json.loads(res.stdout)}
    assert "invalid" in statuses and "unverified" in statuses
    assert res.exit_code == 1


def test_kb_own_brief_is_not_a_mention(run_kb, demo_kb: Path, fake_arxiv: FakeArxiv) -> None:
    """After `kb digest` wrote tonight's brief into the KB, its quotes, kb lines and headings
    do not add mentions (as `kb claims` leaves them out); an analyst's brief still counts."""
    wrote = run_kb(["digest", "--date", "2026-07-31", "--kb", str(demo_kb)])
    assert wrote.exit_code == 0, wrote.stderr
    brief = demo_kb / wrote.stdout.strip()
    assert brief.read_text(encoding="utf-8").count("2607.26627") > 5  # the brief names the id often
    res = run_kb(["verify", "2607.26627", "--offline", "--format", "json", "--kb", str(demo_kb)])
    [item] = json.loads(res.stdout)
    assert [(m["path"], m["line"]) for m in item["mentions"]] == [
        ("inbox/spark/2026-07-31-llm-infra-e1prep.md", 49), ("inbox/spark/2026-07-31-llm-infra-e1prep.md", 71),
        ("inbox/tom/2026-07-31-0900-hf-daily-2026-07-31.md", 11),
        ("organized/paper_cards/681-2607-26627.md", 3), ("organized/paper_cards/681-2607-26627.md", 13)]
    every = run_kb(["verify", "--all", "--offline", "--format", "json", "--kb", str(demo_kb)])
    assert all(m["path"] != wrote.stdout.strip() for r in json.loads(every.stdout) for m in r["mentions"])
