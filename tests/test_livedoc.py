"""Living documents: sections by §, the baseline of a past night, cited sources."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

from kb.config import KbConfig
from kb.livedoc import baseline_for, citations_of, parse_living_doc
from kb.parse import Parser

TZ = timezone(timedelta(hours=8))


def test_past_night_is_diffed_against_the_version_of_that_night(demo_kb: Path, run_kb) -> None:
    parser = Parser(KbConfig())
    assert baseline_for(demo_kb, "inference", parser, datetime(2026, 7, 31, 22, 0, tzinfo=TZ)).version == 45
    old = baseline_for(demo_kb, "inference", parser, datetime(2026, 7, 30, 22, 0, tzinfo=TZ))
    assert (old.version, old.path) == (44, "organized/knowledge/history/inference/v44.md")
    r = run_kb(["diff", "inference", "--date", "2026-07-30", "--format", "json"], cwd=demo_kb)
    out = json.loads(r.stdout)
    assert out["baseline"]["version"] == 44
    outcomes = {s["key"]: s["outcome"] for s in out["subjects"]}
    assert outcomes["arxiv:2607.19712"] == "net-new"  # RLHF C++: in v45, not yet in v44


def test_sections_and_claims_by_section() -> None:
    text = "---\ntopic: t\nversion: 3\n---\n# Doc\n\n## §1 引擎\n\n- vLLM 2.03×\n\n### §1.1 TGI\n\n- TGI 于 2025 年 12 月进入维护模式\n\n## 附录\n\n- 3.1×\n"
    doc = parse_living_doc(Parser(KbConfig(entities={"TGI": [], "vLLM": []})), "organized/knowledge/t.md", text)
    assert [(s.number, s.line, s.end_line, s.numbered) for s in doc.sections] == [
        ("#1", 5, 6, False), ("1", 7, 10, True), ("1.1", 11, 14, True), ("#4", 15, 18, False),
    ]
    assert [[c.text for c in s.claims] for s in doc.sections] == [[], ["vLLM 2.03×"], ["TGI 于 2025 年 12 月进入维护模式"], ["3.1×"]]
    assert doc.section_at(13).number == "1.1" and doc.section("§1.1").title == "§1.1 TGI"
    assert doc.notes == ["organized/knowledge/t.md: 1 heading(s) without a § number, numbered by position (#n)"]


def test_citations_of_counts_each_source_once() -> None:
    text = (
        "见 arXiv:2607.26627v2 与 https://arxiv.org/abs/2607.26627、https://doi.org/10.1145/3803798、"
        "DOI 10.1145/3803798、https://vllm.ai/blog/ 与 https://vllm.ai/blog，inbox/jay/2026-07-31-a.md。"
    )
    assert citations_of(text) == {"arxiv:2607.26627", "doi:10.1145/3803798", "https://vllm.ai/blog", "inbox/jay/2026-07-31-a.md"}
