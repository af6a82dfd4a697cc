"""A front matter kb cannot read: ignored with a warning at the fault's line, the body still
read, and said again by every command until the file is fixed (kb.core.frontmatter
FRONT_MATTER_UNREAD, kb.store.db Store.unread_front_matter, lint KB120, the brief's §4)."""

from __future__ import annotations

import json
from pathlib import Path

from kb.core.frontmatter import FRONT_MATTER_UNREAD, split

QUOTE = ('---\ncard: 3\narxiv: "2611.09999\ntitle: Broken\ncategory: inference-systems\n'
         'created: 2026-07-31T12:00:00+08:00\n---\n# 3 · Broken\n\n- 论文报告：吞吐提升 1.5×。\n')
OPEN = ('---\ncard: 5\narxiv: "2611.07777"\ntitle: "No closing"\ncategory: inference-systems\n'
        'created: 2026-07-31T12:00:00+08:00\n\n# 5\n\n- 论文报告：延迟降低 25%。\n')
QUOTE_MSG = ("invalid front matter: a quoted scalar opened here is never closed (found unexpected end of stream); "
             "front matter ignored")
OPEN_MSG = ("front matter opened with '---' at line 1 is never closed: no '---' after its last key (this line); "
            "lines 1-6 ignored, body read from line 7: add '---' after line 6")


def test_an_unclosed_quote_is_reported_where_the_quote_opens() -> None:
    fm, body = split(QUOTE, "c.md")
    assert [(p.line, p.column, p.message, p.code) for p in fm.problems] == [(3, 8, QUOTE_MSG, FRONT_MATTER_UNREAD)]
    assert fm.data == {} and fm.raw["arxiv"] == "2611.09999"
    assert body.split("\n")[9] == "- 论文报告：吞吐提升 1.5×。"


def test_a_front_matter_never_closed_is_ignored_and_its_keys_are_no_prose() -> None:
    fm, body = split(OPEN, "c.md")
    assert [(p.line, p.message, p.code) for p in fm.problems] == [(6, OPEN_MSG, FRONT_MATTER_UNREAD)]
    assert fm.data == {} and fm.present is False and fm.body_line == 7
    assert body.split("\n")[:6] == [""] * 6
    assert body.split("\n")[7:] == ["# 5", "", "- 论文报告：延迟降低 25%。", ""]


def test_a_rule_above_prose_stays_body() -> None:
    fm, body = split("---\nJust prose after a rule.\n", "n.md")
    assert body == "---\nJust prose after a rule.\n"
    assert [(p.line, p.message) for p in fm.problems] == [
        (1, "front matter opened with '---' but never closed; read as body")]


def test_broken_cards_are_said_by_every_command_until_fixed(run_kb, demo_kb: Path) -> None:
    cards = demo_kb / "organized" / "paper_cards"
    (cards / "900-2611-09999.md").write_text(QUOTE.replace("card: 3", "card: 900"), encoding="utf-8")
    (cards / "901-2611-07777.md").write_text(OPEN.replace("card: 5", "card: 901"), encoding="utf-8")
    res = run_kb(["ingest", "--kb", str(demo_kb)])
    assert res.exit_code == 0
    said = (f"warning: organized/paper_cards/900-2611-09999.md:3:8: {QUOTE_MSG}\n",
            f"warning: organized/paper_cards/901-2611-07777.md:6: {OPEN_MSG}\n")
    assert all(s in res.stderr for s in said)
    res = run_kb(["claims", "--kb", str(demo_kb), "--file", "organized/paper_cards/901-2611-07777.md",
                  "--format", "json"])
    assert [(c["text"], c["kind"], c["subjects"]) for c in json.loads(res.stdout)] == [
        ("论文报告：延迟降低 25%。", "paper-fact", ["arxiv:2611.07777"])]  # no claim of its front matter
    for args in (["diff"], ["digest", "--out", "-"]):
        res = run_kb([*args, "--kb", str(demo_kb)])
        assert res.exit_code == 0, res.stderr
        assert all(s in res.stderr for s in said), args
    assert ("前置元数据未能读取的文件 2 个（正文已读，卡片编号、标题、分类等未读；修好前每晚列出）："
            f"organized/paper_cards/900-2611-09999.md:3（{QUOTE_MSG}）；"
            f"organized/paper_cards/901-2611-07777.md:6（{OPEN_MSG}）\n") in res.stdout
    res = run_kb(["lint", "--kb", str(demo_kb), "--select", "KB120", "--format", "json"])
    assert res.exit_code == 1
    assert [(f["path"], f["line"], f["code"], f["message"]) for f in json.loads(res.stdout)] == [
        ("organized/paper_cards/900-2611-09999.md", 3, "KB120", QUOTE_MSG),
        ("organized/paper_cards/901-2611-07777.md", 6, "KB120", OPEN_MSG)]
    (cards / "900-2611-09999.md").write_text(QUOTE.replace("card: 3", "card: 900").replace('09999\n', '09999"\n'),
                                             encoding="utf-8")
    res = run_kb(["lint", "--kb", str(demo_kb), "--select", "KB120", "--format", "json"])
    assert [f["path"] for f in json.loads(res.stdout)] == ["organized/paper_cards/901-2611-07777.md"]
