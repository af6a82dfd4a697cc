"""A rate per accelerator (``tok/s/GPU``, its own unit) compares with a rate per accelerator
exactly as ``tok/s`` compares with ``tok/s``, and never with a system's ``tok/s``. Parsed text,
the real diff (``kb.facts.same.comparable`` decides, by unit)."""

from __future__ import annotations

from datetime import date

import pytest

from kb.core.config import KbConfig
from kb.core.window import night_window
from kb.night.rules import diff
from kb.read.livedoc import parse_living_doc
from kb.read.parse import Parser

CONFIG = KbConfig(topics={"t": ["t"]}, entities={"vLLM": [], "SGLang": []})
INBOX = "inbox/a/2026-07-31-0900-a.md"
OTHER = "inbox/b/2026-07-31-1000-b.md"
DOC = "organized/knowledge/t.md"
HEAD = "---\ntopic: t\nversion: 1\nupdated: 2026-07-30T05:00:00+08:00\n---\n# t\n\n## 共识\n\n"


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser(CONFIG)


def _diff(parser: Parser, doc_text: str, *windows: tuple[str, str]):
    living = parse_living_doc(parser, DOC, HEAD + doc_text)
    claims = [c for path, text in windows for c in parser.parse_text(path, text).claims]
    return diff(claims, living.claims, [], CONFIG, night_window(date(2026, 7, 31), CONFIG), "t",
                baseline={"path": DOC, "version": 1, "updated": None},
                doc_sections=[(s.line, s.label, s.title) for s in living.sections])


def _seen(r):
    return ({s.key: (s.outcome, s.rule, s.detail) for s in r.subjects},
            [(c.subject, c.metric, c.against, [(v.raw, v.origin) for v in c.values]) for c in r.conflicts])


def _per_gpu(text: str) -> str:
    return text.replace("tok/s", "tok/s/GPU")


@pytest.mark.parametrize("per_gpu", [False, True], ids=["tok/s", "tok/s/GPU"])
def test_two_rates_of_one_unit_conflict_with_the_doc(parser: Parser, per_gpu: bool) -> None:
    unit = _per_gpu if per_gpu else str
    r = _diff(parser, unit("- vLLM throughput 600 tok/s\n"), (INBOX, unit("- vLLM throughput 300 tok/s\n")))
    u = "tok/s/GPU" if per_gpu else "tok/s"
    assert _seen(r) == (
        {"entity:vllm": ("conflict", "doc-conflict", f"300 {u}")},
        [("entity:vllm", "throughput", ["living-doc"], [(f"600 {u}", ["living-doc"]), (f"300 {u}", ["window"])])])


@pytest.mark.parametrize("form", ["300 tok/s per GPU", "300 tokens/s per GPU", "300 tokens/sec/card", "300 tok/s/GPU"])
def test_every_written_per_gpu_form_conflicts_with_the_docs_per_gpu_rate(parser: Parser, form: str) -> None:
    r = _diff(parser, "- vLLM throughput 600 tok/s/GPU\n", (INBOX, f"- vLLM throughput {form}\n"))
    assert _seen(r) == (
        {"entity:vllm": ("conflict", "doc-conflict", form)},
        [("entity:vllm", "throughput", ["living-doc"], [("600 tok/s/GPU", ["living-doc"]), (form, ["window"])])])


@pytest.mark.parametrize("per_gpu", [False, True], ids=["tok/s", "tok/s/GPU"])
def test_two_window_files_conflict_per_gpu_as_per_system(parser: Parser, per_gpu: bool) -> None:
    unit = _per_gpu if per_gpu else str
    r = _diff(parser, "- vLLM 的迁移指南\n", (INBOX, unit("- vLLM throughput 300 tok/s\n")),
              (OTHER, unit("- vLLM throughput 600 tok/s\n")))
    u = "tok/s/GPU" if per_gpu else "tok/s"
    subjects, conflicts = _seen(r)
    assert subjects["entity:vllm"][0] == "update"
    assert conflicts == [("entity:vllm", "throughput", ["window"], [(f"300 {u}", ["window"]), (f"600 {u}", ["window"])])]


def test_a_per_gpu_rate_never_conflicts_with_a_systems_rate(parser: Parser) -> None:
    r = _diff(parser, "- SGLang throughput 4000 tok/s\n- vLLM throughput 600 tok/s/GPU\n",
              (INBOX, "- SGLang throughput 500 tok/s/GPU\n- vLLM throughput 4000 tok/s\n"))
    assert _seen(r) == (
        {"entity:sglang": ("update", "doc-new-values", "500 tok/s/GPU"),
         "entity:vllm": ("update", "doc-new-values", "4000 tok/s")}, [])


@pytest.mark.parametrize("per_gpu", [False, True], ids=["tok/s", "tok/s/GPU"])
def test_a_file_that_also_states_the_docs_value_reports_two_conditions(parser: Parser, per_gpu: bool) -> None:
    """docs/diff.md: a file stating several values, one of which the doc states, is no conflict —
    per GPU as per system (the window states 300 and 600, the doc 600: 300 is a value to add)."""
    unit = _per_gpu if per_gpu else str
    r = _diff(parser, unit("- vLLM throughput 600 tok/s\n"),
              (INBOX, unit("- vLLM throughput 300 tok/s\n- vLLM throughput 600 tok/s\n")))
    u = "tok/s/GPU" if per_gpu else "tok/s"
    assert _seen(r) == ({"entity:vllm": ("update", "doc-new-values", f"300 {u}")}, [])
