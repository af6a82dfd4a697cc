"""English quotes of the doc's value in a dispute, to-do lines and the authors' talks.

A figure the living doc gives, named with words between it and the doc ("the 82% acceptance rate
that our doc gives"), is the disputed quote; the analyst's own figure after a dispute word is not
("the 82% … in our living doc does not match our 60%"). A unit led by ``next:`` is a plan. What
the authors say in a talk or a post is secondhand, not the paper's. An engine written before the
method it runs owns their figures, as a table row's first cell owns the row.
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


# -- who owns a number when a line names an engine and the method it runs ----------------------

OWN_CONFIG = KbConfig(topics={"specdec": ["specdec"]},
                      entities={"vLLM": [], "SGLang": [], "TensorRT-LLM": ["TRT-LLM"], "EAGLE3": [], "Medusa": [],
                                "DeepSeek-V4-Pro": []},
                      metrics={"acceptance_rate": ["accept rate", "acceptance rate", "接受率"]})


@pytest.fixture(scope="module")
def own_parser() -> Parser:
    return Parser(OWN_CONFIG)


@pytest.mark.parametrize(
    ("text", "subjects", "owners"),
    [
        ("- vLLM with EAGLE3 gets a 2x speedup on H100.", ["entity:vllm", "entity:eagle3"], [("2x", "entity:vllm")]),
        ("- vLLM EAGLE3 speedup is only 1.3× at batch 32.", ["entity:vllm", "entity:eagle3"],
         [("1.3×", "entity:vllm"), ("32", "entity:vllm")]),
        ("- TensorRT-LLM v1.4 cuts Medusa TPOT from 10.9 to 9.6 ms.", ["entity:tensorrt-llm", "entity:medusa"],
         [("10.9", "entity:tensorrt-llm"), ("9.6 ms", "entity:tensorrt-llm")]),
        ("- Someone on HN claims TRT-LLM with Medusa hits 3× speedup.", ["entity:tensorrt-llm", "entity:medusa"],
         [("3×", "entity:tensorrt-llm")]),
        ("- SGLang 的 EAGLE3 接受率从 80% 提升到 83%。", ["entity:sglang", "entity:eagle3"],
         [("80%", "entity:sglang"), ("83%", "entity:sglang")]),
        # the first one named owns, whichever it is (a row | EAGLE3 | vLLM | … | is EAGLE3's too)
        ("- EAGLE3 with vLLM reaches 2.1×.", ["entity:eagle3", "entity:vllm"], [("2.1×", "entity:eagle3")]),
        # a list, a figure or a comparison between the names: the nearest one, as before
        ("- vLLM and SGLang with EAGLE3 reach 2.1×.", ["entity:vllm", "entity:sglang", "entity:eagle3"],
         [("2.1×", "entity:sglang")]),
        ("- vLLM reaches 2.0× and SGLang 2.2×.", ["entity:vllm", "entity:sglang"],
         [("2.0×", "entity:vllm"), ("2.2×", "entity:sglang")]),
        ("- EAGLE3 beats Medusa by 1.2×.", ["entity:eagle3"], [("1.2×", None)]),  # the claim's first subject
        # a model after 的 leads; hardware joins no engine
        ("- SGLang v0.5.16 的 DeepSeek-V4-Pro 单请求 383.7 tok/s。", ["entity:deepseek-v4-pro", "entity:sglang"],
         [("383.7 tok/s", "entity:deepseek-v4-pro")]),
    ],
)
def test_an_engine_owns_the_figures_of_the_method_it_runs(own_parser: Parser, text: str, subjects: list[str],
                                                           owners: list[tuple[str, str]]) -> None:
    [c] = own_parser.parse_text(INBOX, text + "\n").claims
    assert (c.subjects, [(q.raw, q.subject) for q in c.quantities]) == (subjects, owners)


ENGINE_DOC = ("# Specdec\n\n## §1 Engines\n\n| Engine | Method | GPU | Speedup (×) | Accept rate (%) |\n|---|---|---|---|---|\n"
              "| vLLM | EAGLE3 | H100 | 2.0 | 78 |\n| SGLang | EAGLE3 | H100 | 2.2 | 80 |\n"
              "| TensorRT-LLM | Medusa | H100 | 1.9 | 70 |\n\n## §2 Methods\n\n### EAGLE3\n\n- EAGLE3 drafts from features.\n\n"
              "### Medusa\n\n- Medusa adds heads.\n")


def _night(parser: Parser, window: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    living = parse_living_doc(parser, DOC, HEAD + ENGINE_DOC)
    r = diff(parser.parse_text(INBOX, window).claims, living.claims, [], OWN_CONFIG,
             night_window(date(2026, 11, 20), OWN_CONFIG), "specdec", baseline={"path": DOC, "version": 3, "updated": None},
             doc_sections=[(s.line, s.label, s.title) for s in living.sections])
    return {s.key: s.outcome for s in r.subjects}, [(c.subject, c.metric) for c in r.conflicts]


def test_a_line_restating_a_row_has_the_row_s_owner(own_parser: Parser) -> None:
    outcomes, conflicts = _night(own_parser, "- vLLM with EAGLE3 gets a 2x speedup on H100.\n")
    assert (outcomes, conflicts) == ({"entity:vllm": "covered", "entity:eagle3": "covered"}, [])


def test_the_engine_s_figure_conflicts_with_its_row(own_parser: Parser) -> None:
    outcomes, conflicts = _night(own_parser, "- Someone on HN claims TensorRT-LLM with Medusa hits 3× speedup on H100.\n")
    assert (outcomes, conflicts) == ({"entity:tensorrt-llm": "conflict", "entity:medusa": "covered"},
                                     [("entity:tensorrt-llm", "speedup")])


def test_a_change_of_the_engine_s_value_is_no_conflict(own_parser: Parser) -> None:
    window = ("- SGLang 的 EAGLE3 接受率从 80% 提升到 83%，H100。\n\n| Engine | Method | GPU | Accept rate (%) |\n|---|---|---|---|\n"
              "| SGLang | EAGLE3 | H100 | 83 |\n")
    outcomes, conflicts = _night(own_parser, window)
    assert (outcomes, conflicts) == ({"entity:sglang": "update", "entity:eagle3": "covered"}, [])
