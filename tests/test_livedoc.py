"""Living documents: sections by §, the baseline of a past night, cited sources."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from kb.core.config import KbConfig
from kb.read.livedoc import citations_of, parse_living_doc
from kb.read.parse import Parser
from kb.read.versions import baseline_for

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


def _doc_fields(doc) -> dict:  # noqa: ANN001 - a LivingDoc
    p = doc.parsed
    return {
        "sections": [(s.number, s.title, s.level, s.line, s.end_line, s.numbered, s.heading_subjects, s.subjects,
                      [c.model_dump() for c in s.claims]) for s in doc.sections],
        "claims": [c.model_dump() for c in doc.claims],
        "headings": [(h.level, h.text, h.line, h.section, h.subjects) for h in doc.headings],
        "mentions": [(m.id, m.version, m.raw, m.line, m.column, m.claim_id, m.kind) for m in p.mentions],
        "problems": [str(x) for x in doc.problems], "invalid": [tuple(x) for x in p.invalid_ids],
        "front": doc.front, "front_lines": doc.front_lines, "front_end": p.front_end, "role": p.role,
        "author": p.author, "written_at": p.written_at, "version": doc.version, "updated": doc.updated,
        "citations": doc.citations, "notes": doc.notes, "text": doc.text,
    }


NIGHTS = Path(__file__).parent / "nights"


@pytest.mark.parametrize("kb_dir", ["demo", *sorted(p.name for p in NIGHTS.iterdir() if (p / "kb.yaml").is_file())])
def test_a_living_doc_read_from_the_store_is_the_parse_of_it(kb_dir: str, demo_kb: Path, tmp_path: Path) -> None:
    """The nightly run reads the living doc (and its snapshots) back from the store instead of
    parsing it again: every field must be what the parser gives for the same bytes."""
    import shutil

    from kb.read.livedoc import LazyParser, load_living_doc
    from kb.read.versions import history_versions
    from kb.store.workspace import open_kb

    if kb_dir == "demo":
        root = demo_kb
    else:
        from ruamel.yaml import YAML

        root = tmp_path / kb_dir
        shutil.copytree(NIGHTS / kb_dir, root)
        realdata = YAML(typ="safe").load((NIGHTS / kb_dir / "expected.yaml").read_text(encoding="utf-8")).get("realdata")
        for dest, name in (realdata or {}).items():  # real public files, copied at test time
            source = Path(__file__).resolve().parents[2] / "shared" / "realdata" / name
            if not source.is_file():
                pytest.skip("optional real-data fixtures: ../shared/realdata is absent (docs/testing.md)")
            (root / dest).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, root / dest)
    kb = open_kb(root)
    topics = [p.stem for p in (root / "organized" / "knowledge").glob("*.md")]
    assert topics
    parser = Parser(kb.config)
    for topic in topics:
        lazy = LazyParser(kb.config)
        stored = load_living_doc(root, topic, lazy, store=kb.store)
        assert lazy._parser is None  # read back, not parsed
        assert _doc_fields(stored) == _doc_fields(load_living_doc(root, topic, parser))
        for rel in history_versions(root, topic).values():
            data = (root / rel).read_bytes()
            assert _doc_fields(parse_living_doc(lazy, rel, data, store=kb.store)) == _doc_fields(
                parse_living_doc(parser, rel, data))
    # a doc edited after the ingest is parsed, not read from the stale store
    doc = root / "organized" / "knowledge" / f"{topics[0]}.md"
    doc.write_text(doc.read_text(encoding="utf-8") + "\n- 新增一行：vLLM 9.99×\n", encoding="utf-8")
    lazy = LazyParser(kb.config)
    fresh = load_living_doc(root, topics[0], lazy, store=kb.store)
    assert lazy._parser is not None and fresh.claims[-1].text.endswith("9.99×")
    kb.store.close()
