"""Who a number belongs to when one sentence compares two subjects: each side's own figure is its
own (``vLLM 501 tok/s vs SGLang 601 tok/s``), a list of values is paired in order with a list of
names by ``respectively``/``分别``/``各自`` or two slash lists, and a baseline's relative figure
stays the subject's (``比 vLLM 低 21%``). Parsed text (``kb.extract.subjects``), and the diff."""

from __future__ import annotations

from datetime import date

import pytest

from kb.core.config import KbConfig
from kb.core.window import night_window
from kb.extract.subjects import Anchor, Owners, is_host
from kb.night.rules import diff
from kb.read.livedoc import parse_living_doc
from kb.read.parse import Parser

CONFIG = KbConfig(topics={"t": ["t"]}, entities={"vLLM": [], "SGLang": []})
INBOX = "inbox/a/2026-07-31-0900-a.md"
DOC = "organized/knowledge/t.md"
V, S = "entity:vllm", "entity:sglang"


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser(CONFIG)


def _owned(parser: Parser, text: str) -> list[tuple[float | None, str, str | None]]:
    [claim] = parser.parse_text(INBOX, f"- {text}\n").claims
    return [(q.value, q.unit, q.subject) for q in claim.quantities]


@pytest.mark.parametrize(("text", "expected"), [
    ("vLLM 501 tok/s vs SGLang 601 tok/s", [(501.0, "tok/s", V), (601.0, "tok/s", S)]),
    ("vLLM 501 tok/s versus SGLang 601 tok/s", [(501.0, "tok/s", V), (601.0, "tok/s", S)]),
    ("SGLang TTFT 52 ms vs vLLM 61 ms", [(0.052, "s", S), (0.061, "s", V)]),
    ("SGLang reaches 700 tok/s, 40% higher than vLLM's 500 tok/s",
     [(700.0, "tok/s", S), (40.0, "%", None), (500.0, "tok/s", V)]),
    ("vLLM and SGLang reach 502 tok/s and 602 tok/s, respectively", [(502.0, "tok/s", V), (602.0, "tok/s", S)]),
    ("vLLM and SGLang reach 502 ms and 602 ms respectively", [(0.502, "s", V), (0.602, "s", S)]),
    ("vLLM 和 SGLang 的吞吐分别为 502 tok/s 和 602 tok/s", [(502.0, "tok/s", V), (602.0, "tok/s", S)]),
    ("vLLM、SGLang 吞吐分别是 502 tok/s、602 tok/s", [(502.0, "tok/s", V), (602.0, "tok/s", S)]),
    ("吞吐：vLLM 为 503 tok/s，SGLang 为 603 tok/s", [(503.0, "tok/s", V), (603.0, "tok/s", S)]),
    # no word pairs the lists: the nearest name before each number, as before
    ("vLLM and SGLang reach 502 tok/s and 602 tok/s", [(502.0, "tok/s", S), (602.0, "tok/s", S)]),
])
def test_each_side_of_a_comparison_owns_its_figure(parser: Parser, text: str, expected: list) -> None:
    assert _owned(parser, text) == expected


@pytest.mark.parametrize("text", [
    "SGLang 比 vLLM 低 21%", "SGLang 在 MLA 上领先 vLLM 29%", "SGLang is 1.5× faster vs vLLM", "SGLang beats vLLM 2×",
    "built on top of vLLM: 58.3 tok/s", "SGLang 吞吐比 vLLM 的 500 tok/s 高 40%",
])
def test_a_baseline_before_a_relative_figure_stays_a_baseline(text: str) -> None:
    start = text.index("vLLM")
    assert is_host(text, start, start + 4)


def test_a_slash_list_of_values_pairs_with_a_slash_list_of_names() -> None:
    text = "throughput (vLLM / SGLang): 504 / 604 tok/s"
    who = Owners([Anchor(12, 16, V, False), Anchor(19, 25, S, False)], text)
    assert [who.of(text.index(n), text.index(n) + len(n)) for n in ("504", "604 tok/s")] == [V, S]
    text = "vLLM and SGLang reach 502 and 602 tok/s respectively"
    who = Owners([Anchor(0, 4, V, False), Anchor(9, 15, S, False)], text)
    assert [who.of(text.index(n), text.index(n) + len(n)) for n in ("502", "602 tok/s")] == [V, S]
    # as many numbers as names, or no pairing (a range, a chip's number)
    text = "vLLM and SGLang on H100 reach 502 tok/s and 602 tok/s respectively"
    who = Owners([Anchor(0, 4, V, False), Anchor(9, 15, S, False)], text)
    assert who.of(text.index("502"), text.index("502") + 9) == S


def test_the_diff_gives_each_side_its_own_value(parser: Parser) -> None:
    head = "---\ntopic: t\nversion: 1\nupdated: 2026-07-30T05:00:00+08:00\n---\n# t\n\n## 共识\n\n"
    living = parse_living_doc(parser, DOC, head + "- vLLM throughput 501 tok/s\n- SGLang throughput 601 tok/s\n")
    window = parser.parse_text(INBOX, "- vLLM 501 tok/s vs SGLang 601 tok/s\n"
                                      "- vLLM and SGLang reach 501 tok/s and 601 tok/s, respectively\n").claims
    r = diff(window, living.claims, [], CONFIG, night_window(date(2026, 7, 31), CONFIG), "t",
             baseline={"path": DOC, "version": 1, "updated": None},
             doc_sections=[(s.line, s.label, s.title) for s in living.sections])
    assert ({s.key: s.outcome for s in r.subjects}, r.conflicts) == ({S: "covered", V: "covered"}, [])


@pytest.mark.parametrize(("text", "expected"), [
    ("vLLM TTFT 300 and 400 ms", [(0.3, "s", "ttft"), (0.4, "s", "ttft")]),
    ("vLLM 吞吐 300 和 400 tok/s", [(300.0, "tok/s", "throughput"), (400.0, "tok/s", "throughput")]),
    ("vLLM throughput 300 / 400 tok/s", [(300.0, "tok/s", "throughput"), (400.0, "tok/s", "throughput")]),
    ("vLLM 显存 1,024 和 2,048 MB", [(1.024e9, "B", "memory"), (2.048e9, "B", "memory")]),
])
def test_a_lists_unit_written_once_is_every_values(parser: Parser, text: str, expected: list) -> None:
    [claim] = parser.parse_text(INBOX, f"- {text}\n").claims
    assert [(q.value, q.unit, q.metric) for q in claim.quantities] == expected


def test_a_list_of_values_with_one_unit_pairs_with_a_list_of_names(parser: Parser) -> None:
    assert _owned(parser, "vLLM and SGLang throughput 502 and 602 tok/s respectively") == [
        (502.0, "tok/s", V), (602.0, "tok/s", S)]
