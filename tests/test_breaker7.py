"""A breaker's seventh round: what a set-up column holds that kb does not read is said, never
dropped without a word, and a bare count under a GPU header is that count."""

from __future__ import annotations

import pytest

from kb.core.config import KbConfig
from kb.read.parse import parse_file

CONFIG = KbConfig.model_validate({"entities": {"vLLM": []}})
TABLE = """# bench

| Engine | Batch | GPU | tok/s |
|---|---|---|---|
| vLLM | 8 | 8 | 1200 |
| vLLM | NaN | 4 | 1300 |
| vLLM | 0x10 | inf | 1400 |
| vLLM | 1_000 | ½ | 1500 |
| vLLM | — | n/a | 1600 |
| vLLM | 0 | TBD | 1700 |
"""


def test_every_set_up_cell_kb_does_not_read_is_warned() -> None:
    parsed = parse_file(CONFIG, "inbox/ann/2026-11-30T1000-bench.md", TABLE.encode())
    assert [(p.line, p.message) for p in parsed.problems] == [
        (6, "set-up cell 'NaN' is no set-up size kb reads (batch_size); no set-up"),
        (7, "set-up cell '0x10' is no set-up size kb reads (batch_size); no set-up"),
        (7, "set-up cell 'inf' is no set-up size kb reads (gpu_count); no set-up"),
        (8, "set-up cell '1_000' is no set-up size kb reads (batch_size); no set-up"),
        (8, "set-up cell '½' is no set-up size kb reads (gpu_count); no set-up"),
        (10, "set-up cell '0' is not a whole number from 1 up to 1,000,000 (batch_size); no set-up"),
    ]  # a dash, n/a and TBD state no value: no word


def test_a_bare_count_under_a_gpu_header_is_that_count() -> None:
    parsed = parse_file(CONFIG, "inbox/ann/2026-11-30T1000-bench.md", TABLE.encode())
    first = parsed.claims[0]
    assert [(q.raw, q.value, q.unit, q.metric) for q in first.quantities] == [
        ("8", 8.0, None, "batch_size"), ("8", 8.0, "devices", "gpu_count"), ("1200", 1200.0, "tok/s", "throughput")]


def test_text_kb_does_not_read_but_a_writer_may_have_meant_is_said() -> None:
    doc = ("# brief\n\n    TGI 301 tok/s in an indented block\n\n<?php TGI 319 tok/s ?>\n\n<![CDATA[ TGI 320 tok/s ]]>\n\n"
           "<!DOCTYPE TGI 321 tok/s>\n\n```\nTGI 323 tok/s in a fence\n```\n\n    x = 1\n")
    parsed = parse_file(CONFIG, "inbox/ann/2026-11-30T1000-md.md", doc.encode())
    assert [(p.line, p.message) for p in parsed.problems] == [
        (3, "an indented code block (four spaces; outdent it to make it text) is not read: its numbers are no claims"),
        (5, "an HTML processing instruction, CDATA section or declaration is not read: its numbers are no claims"),
        (7, "an HTML processing instruction, CDATA section or declaration is not read: its numbers are no claims"),
        (9, "an HTML processing instruction, CDATA section or declaration is not read: its numbers are no claims"),
    ]  # a fence is code on purpose, and "x = 1" holds no figure


def test_a_pipe_written_in_a_cell_keeps_the_columns() -> None:
    doc = "# t\n\n| Engine | tok/s |\n|---|---|\n| TGI \\| HF | 307 |\n"
    (claim,) = parse_file(CONFIG, "inbox/ann/2026-11-30T1000-t.md", doc.encode()).claims
    assert (claim.text, [(q.value, q.unit) for q in claim.quantities]) == ("TGI ¦ HF | 307", [(307.0, "tok/s")])


def test_like_input_gets_like_answers(tmp_path, run_kb) -> None:  # noqa: ANN001
    """--file ../ was every claim's filter of none (exit 0); doi:, entity:, arXiv: and an empty --metric
    were read as asking for nothing: each is a usage error, exit 2, as /etc/passwd and a bad metric are."""
    from conftest import write_files

    root = write_files(tmp_path / "kb", {
        "kb.yaml": 'timezone: "+08:00"\ntopics: {inference: [inference-systems]}\nexecutor: ann\nentities: {TGI: []}\n',
        "organized/knowledge/inference.md": "---\ntopic: inference\nversion: 1\nupdated: 2026-11-28\n---\n# inference\n\n## 1. 引擎\n\n- TGI 吞吐 300 tok/s。\n",
        "inbox/ann/2026-11-30T1000-a.md": "# a\n\n- TGI 吞吐 310 tok/s。\n",
    })
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    got = {args: run_kb(list(args), cwd=root) for args in [
        ("claims", "--file", "../"), ("claims", "--file", "inbox/../../"), ("claims", "--subject", "doi:"),
        ("claims", "--subject", "entity:"), ("history", "doi:"), ("history", "TGI", "--metric", "")]}
    assert {a: r.exit_code for a, r in got.items()} == dict.fromkeys(got, 2)
    assert got[("claims", "--file", "../")].stderr.strip() == f"error: --file ../: not inside the knowledge base {root}"
    assert got[("history", "TGI", "--metric", "")].stderr.strip() == (
        "error: --metric is empty; give a metric key or phrase, or leave the option out")
    assert "'entity:': names no subject" in got[("claims", "--subject", "entity:")].stderr
    assert run_kb(["claims", "--file", "./inbox/ann/", "--format", "json"], cwd=root).exit_code == 0


@pytest.mark.parametrize("row", ["| TGI |  | 409 |", "| TGI | a  b | 409 |", "| TGI | `` | 409 |", "| TGI | &nbsp; | 409 |"])
def test_an_empty_cell_keeps_the_rows_figures(row: str) -> None:
    """A row with an empty cell (or one of only spaces) lost every figure in it, with no word."""
    doc = f"# t\n\n| Engine | Batch | tok/s |\n|---|---|---|\n{row}\n"
    (claim,) = parse_file(CONFIG, "inbox/ann/2026-11-30T1000-t.md", doc.encode()).claims
    assert [(q.value, q.unit, q.metric) for q in claim.quantities] == [(409.0, "tok/s", "throughput")]


def test_a_cell_of_a_unit_column_with_numbers_kb_does_not_read_is_said() -> None:
    doc = ("# t\n\n| Engine | tok/s |\n|---|---|\n| TGI | 308 \\| 309 |\n| TGI | 328 / 329 |\n| TGI | 400 |\n"
           "| TGI | v0.6 |\n")
    parsed = parse_file(CONFIG, "inbox/ann/2026-11-30T1000-t.md", doc.encode())
    assert [(p.line, p.message) for p in parsed.problems] == [
        (5, "cell '308 ¦ 309' of a tok/s column holds numbers kb does not read; no quantity"),
        (6, "cell '328 / 329' of a tok/s column holds numbers kb does not read; no quantity")]
    assert [[q.value for q in c.quantities] for c in parsed.claims] == [[400.0]]  # TGI is no entity here: rows with no figure are no claims


def test_a_front_matter_after_blank_lines_is_said() -> None:
    parsed = parse_file(CONFIG, "inbox/jay/2026-07-31-lead.md", b"\n---\nauthor: bob\n---\n# t\n\n- vLLM 400 tok/s\n")
    assert [(p.line, p.message) for p in parsed.problems] == [
        (2, "front matter must start on line 1: this '---' follows blank lines, so its keys are read as text, "
            "not as front matter")]
    assert parsed.claims[-1].provenance.author == "jay"  # the folder's: bob's front matter is not read


def test_a_set_up_cell_with_a_magnitude_is_that_size_or_said() -> None:
    doc = "# t\n\n| Engine | Batch | tok/s |\n|---|---|---|\n| vLLM | 8k | 400 |\n| vLLM | 2M | 410 |\n"
    parsed = parse_file(CONFIG, "inbox/ann/2026-11-30T1000-t.md", doc.encode())
    assert [(p.line, p.message) for p in parsed.problems] == [
        (6, "set-up cell '2M' is not a whole number from 1 up to 1,000,000 (batch_size); no set-up")]
    assert [[(q.value, q.metric) for q in c.quantities] for c in parsed.claims] == [
        [(8000.0, "batch_size"), (400.0, "throughput")], [(410.0, "throughput")]]


def test_a_number_before_another_numbers_unit_is_said() -> None:
    doc = "# t\n\n- vLLM 338 \\| 339 tok/s\n- vLLM 358 / 359 tok/s\n- vLLM 400 tok/s / 8 GPUs\n"
    parsed = parse_file(CONFIG, "inbox/ann/2026-11-30T1000-t.md", doc.encode())
    why = "stands before another number's unit with none of its own (which unit is it in?); no quantity"
    assert [(p.line, p.message) for p in parsed.problems] == [(3, f"number '338' {why}")]
    # a list read with the unit written once is no unread number: 358 and 359 tok/s
    assert [[q.value for q in c.quantities] for c in parsed.claims] == [[339.0], [358.0, 359.0], [400.0]]



@pytest.mark.parametrize("doc, problems", [
    # a GPU column naming the GPU (the demo's own price table) is the row's hardware: no warning;
    # a word that is neither a count nor a name still is
    ("# prices\n\n| GPU | 按需价格（$/GPU·h） |\n|---|---|\n| H100 SXM | 2.0–3.5 |\n| NVIDIA L40S | 1.1 |\n"
     "| MI300X | 2.9 |\n| many | 3.0 |\n", [(8, "set-up cell 'many' is no set-up size kb reads (gpu_count); no set-up")]),
    # an accelerator is the set-up only in a GPU column
    ("# b\n\n| Batch | tok/s |\n|---|---|\n| H100 | 1234 |\n",
     [(5, "set-up cell 'H100' is no set-up size kb reads (batch_size); no set-up")]),
])
def test_an_accelerator_named_in_a_set_up_column(doc: str, problems: list[tuple[int, str]]) -> None:
    parsed = parse_file(CONFIG, "inbox/ann/2026-11-30T1000-prices.md", doc.encode())
    assert [(p.line, p.message) for p in parsed.problems] == problems
