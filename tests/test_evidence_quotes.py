"""Disputed quotes of the doc's value (issue 20, fault 8) and what is no claim at all (fault 9):
metadata lines, signatures; sentences keep ``?``/``!`` inside quotes and titles and a full stop
after an abbreviation. Parsed text, the real diff, exact values."""

from __future__ import annotations

from datetime import date

import pytest

from kb.core.config import KbConfig
from kb.core.window import night_window
from kb.night.rules import diff
from kb.read.inline import _split_sentences
from kb.read.livedoc import parse_living_doc
from kb.read.parse import Parser

CONFIG = KbConfig(topics={"serving": ["serving"]}, entities={"GridServe": [], "vLLM": []})
INBOX = "inbox/ana/2026-09-20T0900-notes.md"
DOC = "organized/knowledge/serving.md"
HEAD = "---\ntopic: serving\nversion: 4\nupdated: 2026-09-19T05:00:00+08:00\n---\n"
DOC_TEXT = "# Serving\n\n## §2 Engines\n\n### §2.4 GridServe\n\n- GridServe TTFT is 85 ms.\n- GridServe 吞吐提升 2.4×。\n"


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser(CONFIG)


def _moods(parser: Parser, text: str) -> list[tuple[str, str | None]]:
    [c] = parser.parse_text(INBOX, text + "\n").claims
    return [(q.raw, q.mood) for q in c.quantities]


# -- 8. a quote of the doc's value to dispute it ---------------------------------------------------

@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The 85 ms our doc gives for GridServe seems off against the vendor README.", [("85 ms", "disputed")]),
        ("the 85 ms quoted in our doc for GridServe looks wrong.", [("85 ms", "disputed")]),
        ("We could not reproduce the 2.4× that the doc lists for GridServe.", [("2.4×", "disputed")]),
        ("知识库 §2.4 里 GridServe 那个 2.4× 我怀疑是旧数。", [("2.4×", "disputed")]),
        ("文档 §2.4 写的 GridServe 吞吐 2.4× 跟官方博客对不上。", [("2.4×", "disputed")]),
        # the other source's value is its own, not a quote
        ("文档里 GridServe 吞吐写的是 2.4×，和作者博客的 1.7× 对不上。", [("2.4×", "disputed"), ("1.7×", None)]),
        ("Our doc's 85 ms for GridServe does not add up: the authors measure 130 ms.", [("85 ms", "disputed")]),
        # no doubt word: a plain statement
        ("GridServe TTFT is 85 ms in our setup.", [("85 ms", None)]),
        ("GridServe 的 KV 布局不对称，吞吐 2.4×。", [("2.4×", None)]),
    ],
)
def test_disputed_quotes(parser: Parser, text: str, expected: list[tuple[str, str | None]]) -> None:
    assert _moods(parser, text)[: len(expected)] == expected


@pytest.mark.parametrize(
    "window_text",
    ["- The 85 ms our doc gives for GridServe seems off next to the vendor README.\n",
     "- 文档 §2.4 那个 GridServe 的 2.4× 跟作者博客对不上。\n"],
    ids=["en", "zh"],
)
def test_a_disputed_quote_is_no_support_and_no_conflict(parser: Parser, window_text: str) -> None:
    living = parse_living_doc(parser, DOC, HEAD + DOC_TEXT)
    r = diff(parser.parse_text(INBOX, window_text).claims, living.claims, [], CONFIG,
             night_window(date(2026, 9, 20), CONFIG), "serving", baseline={"path": DOC, "version": 4, "updated": None},
             doc_sections=[(s.line, s.label, s.title) for s in living.sections])
    assert r.conflicts == [] and r.secondhand_only == []
    [s] = r.subjects
    # a mention of a doc subject with no value of its own: covered, never support of the doc's value
    assert (s.key, s.outcome, s.rule) == ("entity:gridserve", "covered", "doc-covered")


# -- 9. metadata lines and signatures are no claims --------------------------------------------

@pytest.mark.parametrize(
    "meta",
    [
        "采集时间：2026-09-20 06:40",
        "生成于: 2026-09-20T06:40:00+08:00",
        "generated_at: 2026-09-20T06:40:00Z",
        "Fetched on: 2026-09-20",
        "**Last updated**: 2026-09-20 (UTC+8)",
        "- crawled_at = 2026-09-20 06:40",
        "（整理：小周，09-20 早）",
        "— 阿敏 09-20 整理",
        "（记录：Ada，2026-09-20 夜）",
        "_Updated on 2026.09.20_",  # a list's generation stamp, no colon
        "- **发布时间**: Sun, 20 Sep",  # a feed export's truncated time ("20 Sep" no number of its own)
        "Published at: Sun, 20 Sep 2026 06:40:00 +0000",
    ],
)
def test_metadata_and_signatures_are_no_claims(parser: Parser, meta: str) -> None:
    text = f"GridServe 吞吐 2.4×。\n\n{meta}\n"
    assert [c.text for c in parser.parse_text(INBOX, text).claims] == ["GridServe 吞吐 2.4×。"]


def test_what_looks_like_metadata_but_is_a_claim(parser: Parser) -> None:
    text = ("vLLM 发布时间：2026-09-18\n\nGridServe · 2026-09-20\n\n采集时间：2026-09-20，共 37 条\n\n"
            "发布时间：2026-09-20，TTFT 85 ms\n")
    assert [c.text for c in parser.parse_text(INBOX, text).claims] == [
        "vLLM 发布时间：2026-09-18", "GridServe · 2026-09-20", "采集时间：2026-09-20，共 37 条",
        "发布时间：2026-09-20，TTFT 85 ms"]


# -- sentences keep ?/! inside quotes and titles, and a full stop after an abbreviation ------------

@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("《Is KV Reuse Free?》报告 GridServe 提速 1.9×。第二句 4 ms。", ["《Is KV Reuse Free?》报告 GridServe 提速 1.9×。", "第二句 4 ms。"]),
        ("「别再手调了！」一文称吞吐 2.2×。", ["「别再手调了！」一文称吞吐 2.2×。"]),
        ("“能不能更快？”作者答：TTFT 降 18%。", ["“能不能更快？”作者答：TTFT 降 18%。"]),
        ('The post "Why Batch at All?" reports 1.6x. Next 3 ms.', ['The post "Why Batch at All?" reports 1.6x.', "Next 3 ms."]),
        ("Engines, e.g. GridServe, gain 12%. Next 2 ms.", ["Engines, e.g. GridServe, gain 12%.", "Next 2 ms."]),
        ("Baselines (i.e. vLLM) trail by 9%.", ["Baselines (i.e. vLLM) trail by 9%."]),
        ("Chen et al. Report 2.2× on H100.", ["Chen et al. Report 2.2× on H100."]),
        ("As Fig. 4 shows, TTFT drops 30%. Then 5 ms.", ["As Fig. 4 shows, TTFT drops 30%.", "Then 5 ms."]),
        ("It works? Yes! Up 10%.", ["It works?", "Yes!", "Up 10%."]),
    ],
)
def test_sentence_splitting(text: str, sentences: list[str]) -> None:
    assert [text[a:b].strip() for a, b in _split_sentences(text)] == sentences


def test_a_question_in_a_title_keeps_the_claim_whole(parser: Parser) -> None:
    text = "《Can Draft Heads Verify Themselves?》报告 GridServe 吞吐 2.4×。\n"
    [c] = parser.parse_text(INBOX, text).claims
    assert (c.text, [q.raw for q in c.quantities], c.subjects) == (text.strip(), ["2.4×"], ["entity:gridserve"])
