"""The demo KB's living document: exactly the planted findings of docs/demo-kb.md.

docs/demo-kb.md plants KB109 (line 5, real count 110), KB105 (line 25, §2.13), KB111 (TGI
date, lines 21 vs 228), KB107 (line 156, RAPID) and KB108 (line 229, C103). It does not list
KB104: the document cites about 55 older real papers (PagedAttention, Medusa …) that have no
card in the demo, each reported once as a warning; they are checked apart below, against the
cards on disk.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

PLANTED = [(5, "KB109"), (25, "KB105"), (156, "KB107"), (228, "KB111"), (229, "KB108")]


def test_demo_living_doc_reports_the_planted_findings(demo_kb: Path, run_kb) -> None:
    r = run_kb(["lint", "organized/knowledge/inference.md", "--format", "json"], cwd=demo_kb)
    assert r.exit_code == 1
    found = json.loads(r.stdout)
    assert [(f["line"], f["code"]) for f in found if f["code"] != "KB104"] == PLANTED
    by_line = {f["line"]: f for f in found if f["code"] != "KB104"}
    assert by_line[5]["message"].startswith("citations is 115 but the document cites 110 distinct sources")
    assert by_line[25]["message"].startswith("§2.13 is not a section of this document (the last at that level is §2.12)")
    assert by_line[156]["message"].startswith("'Q105', 'HF 票 212' are the only evidence here")
    assert by_line[228]["message"].startswith("TGI eol_date: 2026-01 here, but 2025-12 at line 21")
    assert by_line[229]["message"].startswith("'29%', '3.1×' in consensus section §8.1 have no paper-fact support")
    card_less = [f for f in found if f["code"] == "KB104"]
    assert all(f["severity"] == "warning" for f in card_less)
    text = (demo_kb / "organized" / "knowledge" / "inference.md").read_text(encoding="utf-8")
    cited = set(re.findall(r"(?<![\d.])(\d{4}\.\d{5})(?![\d])", text))
    carded = {m for p in (demo_kb / "organized" / "paper_cards").glob("*.md")
              for m in re.findall(r'(?m)^arxiv:\s*"?(\d{4}\.\d{5})', p.read_text(encoding="utf-8"))}
    [one] = card_less  # one finding for the document, its count and the first ten ids (docs/rules/KB104.md)
    assert one["message"].startswith(f"{len(cited - carded)} arXiv ids have no paper card: ")
    # kb lint --verbose (show_all): every id named (the library call: --verbose in-process would
    # leave the arxiv client's log handler on for the tests that follow)
    from kb.lint.run import lint_paths

    [every] = lint_paths([demo_kb / "organized/knowledge/inference.md"], select=["KB104"], show_all=True).findings
    named = re.findall(r"arXiv:(\d{4}\.\d{5})", every.message)
    assert sorted(named) == sorted(cited - carded)  # --verbose names every id
    assert "arXiv:2606.20295" not in {f["message"].split()[0] for f in card_less}


def test_demo_previous_version_has_its_own_stale_count(demo_kb: Path, run_kb) -> None:
    r = run_kb(["lint", "organized/knowledge/history/inference/v44.md", "--select", "KB109,KB102", "--format", "json"],
               cwd=demo_kb)
    found = json.loads(r.stdout)
    assert [(f["line"], f["code"]) for f in found] == [(5, "KB109")]
    assert found[0]["message"].startswith("citations is 98 but the document cites 102 distinct sources")


def test_demo_fix_sets_the_count_and_nothing_else(demo_kb: Path, run_kb) -> None:
    doc = demo_kb / "organized" / "knowledge" / "inference.md"
    before = doc.read_bytes()
    run_kb(["lint", "--fix", "organized/knowledge/inference.md"], cwd=demo_kb)
    assert doc.read_bytes() == before.replace(b"citations: 115\n", b"citations: 110\n", 1)
    r = run_kb(["lint", "organized/knowledge/inference.md", "--ignore", "KB104", "--format", "json"], cwd=demo_kb)
    assert [(f["line"], f["code"]) for f in json.loads(r.stdout)] == PLANTED[1:]
