"""English quotes of the doc's value in a dispute, to-do lines and the authors' talks.

A figure the living doc gives, named with words between it and the doc ("the 82% acceptance rate
that our doc gives"), is the disputed quote; the analyst's own figure after a dispute word is not
("the 82% … in our living doc does not match our 60%"). A unit led by ``next:`` is a plan. What
the authors say in a talk or a post is secondhand, not the paper's.
"""

from __future__ import annotations

from datetime import date

import pytest

from kb.core.config import KbConfig
from kb.core.window import night_window
from kb.night.rules import diff
from kb.read.livedoc import parse_living_doc
from kb.read.parse import Parser

CONFIG = KbConfig(topics={"specdec": ["specdec"]}, entities={"vLLM": [], "SGLang": []},
                  metrics={"acceptance_rate": ["accept rate", "acceptance rate"]})
INBOX = "inbox/ana/2026-11-20T0900-notes.md"
DOC = "organized/knowledge/specdec.md"
HEAD = "---\ntopic: specdec\nversion: 3\nupdated: 2026-11-19T05:00:00+08:00\n---\n"
DOC_TEXT = "# Specdec\n\n## §1 Engines\n\n- vLLM acceptance rate is 82% on H100.\n- vLLM TPOT is 12.5 ms on H100.\n"


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser(CONFIG)


def _figures(parser: Parser, text: str) -> list[tuple[str, str | None]]:
    [c] = parser.parse_text(INBOX, text + "\n").claims
    return [(q.raw, q.mood) for q in c.quantities]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- The 82% acceptance rate that our doc gives for vLLM looks off; the Reddit thread says 60% on H100.",
         [("82%", "disputed"), ("60%", None)]),
        ("- vLLM: the 82% acceptance rate in our living doc does not match our 60% on H100.",
         [("82%", "disputed"), ("60%", None)]),
        ("- The 2.4× speedup that the doc lists for vLLM does not match the blog's 2.1×.",
         [("2.4×", "disputed"), ("2.1×", None)]),
        ("- The 120 ms TTFT our doc gives for vLLM looks off.", [("120 ms", "disputed")]),
        # a comparison word between the figure and the doc: the figure is the analyst's own
        ("- vLLM reaches 2.1× speedup and the doc lists 2.4×, which does not match.",
         [("2.1×", None), ("2.4×", "disputed")]),
        # no dispute word: no mood
        ("- The 82% acceptance rate that our doc gives for vLLM holds on H100.", [("82%", None)]),
    ],
)
def test_an_english_quote_of_the_doc_is_the_disputed_figure(parser: Parser, text: str,
                                                            expected: list[tuple[str, str | None]]) -> None:
    assert _figures(parser, text) == expected


def test_the_quote_is_no_support_of_the_doc_value(parser: Parser) -> None:
    living = parse_living_doc(parser, DOC, HEAD + DOC_TEXT)
    window = "- The 82% acceptance rate that our doc gives for vLLM looks off on H100.\n"
    r = diff(parser.parse_text(INBOX, window).claims, living.claims, [], CONFIG,
             night_window(date(2026, 11, 20), CONFIG), "specdec", baseline={"path": DOC, "version": 3, "updated": None},
             doc_sections=[(s.line, s.label, s.title) for s in living.sections])
    assert r.conflicts == [] and r.secondhand_only == []
    [s] = r.subjects
    assert (s.key, s.outcome, s.rule) == ("entity:vllm", "covered", "doc-covered")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- next: re-run vLLM on H200 to confirm TPOT under 10 ms.", [("10 ms", "plan")]),
        ("- Next steps: re-run vLLM on H200, then confirm TPOT under 10 ms.", [("10 ms", "plan")]),
        ("- 下一步：在 H200 上复测 vLLM，确认 TPOT 低于 10 ms。", [("10 ms", "plan")]),
        # "next" not as a label: the measured figure stays one
        ("- vLLM TPOT is 9.6 ms on H200, next to SGLang's row.", [("9.6 ms", None)]),
    ],
)
def test_a_to_do_label_makes_the_line_a_plan(parser: Parser, text: str, expected: list[tuple[str, str | None]]) -> None:
    assert _figures(parser, text) == expected


@pytest.mark.parametrize(
    ("text", "kind", "reason"),
    [
        ("- On H200 the vLLM speedup rises to 2.9× according to the authors' talk.", "secondhand",
         "cue:according to the authors' talk"),
        ("- Per the authors’ blog post, vLLM reaches 2.9× on H200.", "secondhand", "cue:Per the authors’ blog post"),
        ("- According to the authors, the speedup is 2.9× on H200.", "paper-fact", "cue:According to the authors"),
    ],
)
def test_the_authors_talk_is_secondhand(parser: Parser, text: str, kind: str, reason: str) -> None:
    [c] = parser.parse_text(INBOX, text + "\n").claims
    assert (c.kind, c.kind_reason) == (kind, reason)
