"""Conflicts only on evidence (issue 20, fault 7): a 🔴 conflict needs the same subject, metric
and setting; memory sizes compare across decimal and binary prefixes; a value the paper states is
support; a change log is no location and no section to correct. Parsed text, the real diff."""

from __future__ import annotations

from datetime import date

import pytest

from kb.core.config import KbConfig
from kb.core.window import night_window
from kb.extract.settings import settings_of
from kb.facts.values import same_value
from kb.night.rules import diff
from kb.read.cards import Card
from kb.read.livedoc import parse_living_doc
from kb.read.parse import Parser

CONFIG = KbConfig(topics={"serving": ["serving"]}, entities={"PagedRoute": [], "vLLM": []})
INBOX = "inbox/ana/2026-09-20T0900-notes.md"
DOC = "organized/knowledge/serving.md"
CARD_PATH = "organized/paper_cards/310-2609-12345.md"
CARD = Card("arxiv:2609.12345", CARD_PATH, "LatticeKV: Paged Prefix Sharing", ("LatticeKV",), "serving", (),
            "2026-08-02T10:00:00+08:00", 310)
HEAD = "---\ntopic: serving\nversion: 4\nupdated: 2026-09-19T05:00:00+08:00\n---\n"


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser(CONFIG)


def _diff(parser: Parser, window_text: str, doc_text: str, card_text: str | None = None, *, card: bool = False):
    window = night_window(date(2026, 9, 20), CONFIG)
    living = parse_living_doc(parser, DOC, HEAD + doc_text)
    doc, sections = living.claims, [(s.line, s.label, s.title) for s in living.sections]
    card_claims = parser.parse_text(CARD_PATH, card_text).claims if card_text else []
    return diff(parser.parse_text(INBOX, window_text).claims, doc, [CARD] if card_text or card else [], CONFIG, window,
                "serving", baseline={"path": DOC, "version": 4, "updated": None},
                card_claims=lambda card: card_claims, doc_sections=sections)


def _outcome(r, key: str):
    [s] = [s for s in r.subjects if s.key == key]
    return s.outcome, s.rule, s.detail


# -- settings: a value under a setting the other side does not state ---------------------------

@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("高峰流量下 p99 延迟 310 ms。", ["高峰流量"]),
        ("p99 latency climbs to 310 ms under spiky traffic.", ["spiky traffic"]),
        ("Under a cold-start workload, the TTFT is 1.4 s.", ["cold start"]),
        ("TTFT is 1.4 s under a cold-start workload, and 95 ms at steady load.", ["cold start", "steady load"]),
        ("with the radix cache switched off, throughput is 3,100 tok/s", ["radix cache switched off"]),
        ("关闭前缀缓存时吞吐 3,100 tok/s", ["关闭前缀缓存"]),
        ("负载下降 30%，吞吐 2×", [None, None]),
        ("TTFT 42% lower than vLLM", [None]),
    ],
)
def test_settings_of_figures(text: str, expected: list[str | None]) -> None:
    import re

    spans = [m.span() for m in re.finditer(r"\d[\d,.]*\s*(?:ms|s|%|×|tok/s)", text)]
    assert settings_of(text, spans) == expected


@pytest.mark.parametrize(
    ("window_text", "doc_text"),
    [
        ("- 高峰流量下 PagedRoute 的 p99 延迟 310 ms。\n", "- PagedRoute 稳态负载下 p99 延迟 120 ms。\n"),
        ("- PagedRoute p99 latency climbs to 310 ms under spiky traffic.\n", "- PagedRoute p99 latency is 120 ms.\n"),
    ],
    ids=["zh-both-stated", "en-one-stated"],
)
def test_a_value_of_another_setting_is_an_update(parser: Parser, window_text: str, doc_text: str) -> None:
    r = _diff(parser, window_text, doc_text)
    assert r.conflicts == []
    outcome, rule, detail = _outcome(r, "entity:pagedroute")
    assert (outcome, rule) == ("update", "doc-new-values")
    assert detail.startswith("310 ms (different setting: 310 ms ")
    assert "vs the doc's 120 ms" in detail


def test_the_same_setting_still_conflicts(parser: Parser) -> None:
    r = _diff(parser, "- PagedRoute p99 latency is 310 ms under spiky traffic.\n",
              "- PagedRoute p99 latency is 120 ms under spiky traffic.\n")
    assert [(c.subject, c.metric, [v.raw for v in c.values]) for c in r.conflicts] == [
        ("entity:pagedroute", "latency", ["120 ms", "310 ms"])]


# -- memory sizes ----------------------------------------------------------------------------------

class _Size:
    def __init__(self, raw: str, value: float) -> None:
        self.raw, self.value, self.unit, self.low, self.high, self.bound = raw, value, "B", None, None, None


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (("1.5 GB", 1.5e9), ("1536 MB", 1536e6), True),      # both binary: 1.5 GiB = 1536 MiB
        (("0.25 TB", 0.25e12), ("256 GB", 256e9), True),     # 0.25 TiB = 256 GiB
        (("1.5 GB", 1.5e9), ("1.5 GiB", 1.5 * 2**30), False),  # a binary unit is exact: 7% apart
        (("40 GB", 40e9), ("37.25 GiB", 37.25 * 2**30), True),  # read as written: 40.0e9 both
        (("1.5 GB", 1.5e9), ("1200 MB", 1200e6), False),
        (("1500 MB", 1500e6), ("1536 MB", 1536e6), False),   # one prefix: 2.4% either way
    ],
)
def test_memory_sizes_across_prefixes(a: tuple[str, float], b: tuple[str, float], same: bool) -> None:
    assert same_value(_Size(*a), _Size(*b), 0.02) is same
    assert same_value(_Size(*b), _Size(*a), 0.02) is same


@pytest.mark.parametrize(
    ("window_text", "doc_text"),
    [
        ("- PagedRoute uses 1.5 GB of KV memory per replica.\n", "- PagedRoute uses 1536 MB of KV memory per replica.\n"),
        ("- PagedRoute 每副本 KV 内存 1536 MB。\n", "- PagedRoute 每副本 KV 内存 1.5 GB。\n"),
    ],
    ids=["en", "zh"],
)
def test_one_size_in_two_prefixes_is_covered(parser: Parser, window_text: str, doc_text: str) -> None:
    r = _diff(parser, window_text, doc_text)
    assert r.conflicts == []
    assert _outcome(r, "entity:pagedroute")[:2] == ("covered", "doc-covered")


# -- a value the paper states is support -------------------------------------------------------

CARD_TEXT = ("---\narxiv: 2609.12345\ntitle: \"LatticeKV: Paged Prefix Sharing\"\ncategory: serving\n"
             "created: 2026-08-02T10:00:00+08:00\n---\n# LatticeKV\n\n- 论文报告：prefill 吞吐 2.6×（H100）。\n")


@pytest.mark.parametrize(
    "window_text",
    ["- 据博主转述，LatticeKV 的 prefill 吞吐 2.6×。\n", "- A blog says LatticeKV lifts prefill throughput 2.6×.\n"],
    ids=["zh", "en"],
)
def test_a_window_value_the_card_states_is_no_conflict(parser: Parser, window_text: str) -> None:
    doc = "- LatticeKV（arXiv:2609.12345）：prefill 吞吐 1.8×。\n"
    r = _diff(parser, window_text, doc, CARD_TEXT)
    assert r.conflicts == []
    outcome, rule, detail = _outcome(r, "arxiv:2609.12345")
    assert (outcome, rule) == ("update", "doc-new-values")
    assert detail == f"2.6× (stated by the paper: 2.6× ({CARD_PATH}:9))"
    assert [s.raw for s in r.secondhand_only] == []
    # when the card does not state it, the same line is a conflict with the doc's 1.8×
    r = _diff(parser, window_text, doc, card=True)
    assert [(c.metric, [v.raw for v in c.values]) for c in r.conflicts] == [("throughput", ["1.8×", "2.6×"])]


def test_a_doc_paper_line_with_the_window_value_is_no_conflict(parser: Parser) -> None:
    doc = "- PagedRoute decode throughput is 4,000 tok/s.\n- 论文报告 PagedRoute 的另一组实验达到 5,200 tok/s。\n"
    r = _diff(parser, "- PagedRoute decode throughput hits 5,200 tok/s per a newsletter.\n", doc)
    assert r.conflicts == []


# -- a change log is no location and no section to correct -------------------------------------

CHANGELOG_DOC = ("# Serving\n\n## §1 Engines\n\n### §1.1 PagedRoute\n\n- PagedRoute TTFT is 95 ms.\n\n"
                 "## §9 变更记录\n\n- 2026-09-01：PagedRoute TTFT 从 140 ms 改为 95 ms；vLLM 吞吐 3,000 tok/s。\n")


def test_a_change_log_is_no_location_and_its_old_values_no_conflict(parser: Parser) -> None:
    r = _diff(parser, "- PagedRoute TTFT back at 140 ms after the rollback.\n- vLLM throughput 2,400 tok/s.\n",
              CHANGELOG_DOC)
    # 140 ms is only in the change log: a conflict with the body's 95 ms, cited at the body, never §9
    assert [(c.subject, [(v.raw, v.sources) for v in c.values]) for c in r.conflicts] == [
        ("entity:pagedroute", [("95 ms", [f"{DOC}:12"]), ("140 ms", [f"{INBOX}:1"])])]
    [route] = [s for s in r.subjects if s.key == "entity:pagedroute"]
    assert (route.doc_sections, route.section_hint) == (["§1.1"], "§1.1")
    # vLLM is named only in the change log: the doc does not hold it, its 3,000 tok/s is no doc value
    [vllm] = [s for s in r.subjects if s.key == "entity:vllm"]
    assert (vllm.outcome, vllm.doc_sections) == ("adjacent", [])


@pytest.mark.parametrize("title", ["## Changelog", "## 版本记录", "## §7 更新日志", "## Revision history"])
def test_change_log_titles(parser: Parser, title: str) -> None:
    doc = f"# Serving\n\n## §1 Engines\n\n- PagedRoute TTFT is 95 ms.\n\n{title}\n\n- PagedRoute TTFT 140 ms in v3.\n"
    r = _diff(parser, "- PagedRoute TTFT is 140 ms.\n", doc)
    assert [[v.raw for v in c.values] for c in r.conflicts] == [["95 ms", "140 ms"]]
    [route] = r.subjects
    assert route.doc_sections == ["§1"]
