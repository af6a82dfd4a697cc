"""Owners and Qualifiers answer every number of a unit at once (issue 11: no input is
super-linear): their answers must equal the one-number definitions they replaced, which are
written out here as the reference (the nearest own anchor before the number in its clause, or the
first of the subjects joined to it; the
number's clause conditions + set-up sizes in it + the conditions of clauses stating no figure)."""

from __future__ import annotations

import random
import re

import pytest

from kb.core.config import KbConfig
from kb.extract.subjects import Anchor, Owners, _clause_marks, _joined, clause_bounds
from kb.extract.qualifiers import Qualifiers, _conditions, _norm_qual, setup_token
from kb.extract.metrics import SETUP_METRICS
from kb.read.parse import Parser


def _owner_reference(own: list[Anchor], text: str, start: int, end: int) -> str | None:
    cs, _ = clause_bounds(text, start, end)
    inside = [(a.start, a.key) for a in own if cs <= a.start < start]
    if not inside:
        return None
    # then back to the first of the subjects joined to it in the clause (an engine before its method)
    ordered = sorted((a.start, a.end, a.key) for a in own)
    i = max(j for j, (s, _, k) in enumerate(ordered) if (s, k) == max(inside))
    while i > 0 and ordered[i - 1][0] >= cs and _joined(text, ordered[i - 1], ordered[i]):
        i -= 1
    return ordered[i][2]


def _qualifier_reference(claim, q) -> str | None:
    text = claim.text
    if q.qualifier:
        return _norm_qual(q.qualifier)
    if q.metric in SETUP_METRICS:
        return None
    sizes = [(x.start, t) for x in claim.quantities
             if (t := setup_token(x.metric, x.value, x.low, x.high, x.bound)) is not None]
    if claim.unit == "table-row":
        found = set((_conditions(text) or "").split("+")) | {t for _, t in sizes}
        found.discard("")
        return _norm_qual("+".join(sorted(found))) if found else None
    cs, ce = clause_bounds(text, q.start, q.end)
    found = set((_conditions(text[cs:ce]) or "").split("+")) - {""}
    found |= {t for n, t in sizes if cs <= n < ce}
    starts, ends = _clause_marks(text)
    numbers = [x.start for x in claim.quantities if x.metric not in SETUP_METRICS]
    for a, b in zip([0, *ends], [*starts, len(text)]):
        if not any(a <= n < b for n in numbers):
            found |= set((_conditions(text[a:b]) or "").split("+")) - {""}
            found |= {t for n, t in sizes if a <= n < b}
    return _norm_qual("+".join(sorted(found))) if found else None


def test_owners_pick_the_last_anchor_in_the_clause_then_the_larger_key() -> None:
    text = "vLLM 1.5×，SGLang 与 TGI 2.0×；3.0×"
    own = [Anchor(0, 4, "entity:vllm", False), Anchor(10, 16, "entity:sglang", False),
           Anchor(19, 22, "entity:tgi", False), Anchor(19, 22, "entity:aaa", False)]
    who = Owners(own, text)
    assert [who.of(s, s + 4) for s in (5, 23, 29)] == ["entity:vllm", "entity:tgi", None]
    assert [_owner_reference(own, text, s, s + 4) for s in (5, 23, 29)] == ["entity:vllm", "entity:tgi", None]


_PARTS = ["vLLM", "SGLang", "TGI", "在 H100 上", "on 8×A100", "batch 32", "128K 上下文", "8B 模型", "FP8",
          "吞吐 2,400 tok/s", "TTFT 0.5 s", "1.5×", "-35%", "32K 以内", "，", "；", "。", ", ", " | ", "offload",
          "Llama-3-70B", "准确率 71.2%", "from 3.1 to 4.4", "单请求"]


_PARSER = Parser(KbConfig(entities={"vLLM": [], "SGLang": [], "TGI": []}))


@pytest.mark.parametrize("seed", range(40))
def test_owners_and_qualifiers_equal_the_one_number_definitions(seed: int) -> None:
    rng = random.Random(seed)
    lines = [" ".join(rng.choice(_PARTS) for _ in range(rng.randint(3, 18))) for _ in range(6)]
    table = ["| 系统 | 吞吐 | 备注 |", "| --- | --- | --- |",
             f"| vLLM | {rng.randint(1, 9)}.{rng.randint(0, 9)}× | {rng.choice(_PARTS)} {rng.choice(_PARTS)} |"]
    text = "# t\n\n" + "\n".join(f"- {line}" for line in lines) + "\n\n" + "\n".join(table) + "\n"
    claims = _PARSER.parse_text("inbox/ana/2026-07-31-t.md", text).claims
    assert claims
    checked = 0
    for claim in claims:
        qual = Qualifiers(claim)
        assert [qual.of(q) for q in claim.quantities] == [_qualifier_reference(claim, q) for q in claim.quantities]
        anchors = [Anchor(m.start(), m.end(), f"entity:{m.group(0).lower()}", False)
                   for name in ("vLLM", "SGLang", "TGI") for m in re.finditer(name, claim.text)]
        who = Owners(anchors, claim.text)
        spans = [(x.start, x.end) for x in (*claim.quantities, *claim.dates)]
        assert [who.of(a, b) for a, b in spans] == [_owner_reference(anchors, claim.text, a, b) for a, b in spans]
        checked += len(spans)
    assert checked > 0


@pytest.mark.parametrize("clause, conditions", [
    ("在 H100 上跑 Llama-3-70B", "h100+llama-3-70b"),
    ("Qwen2.5-Coder-32B on 8×A100", "a100+qwen2.5-coder-32b"),
    ("DeepSeek-R1-Distill-Qwen-7B，batch 32", "batch32+deepseek-r1-distill-qwen-7b"),
    ("Meta-Llama-3.1-8B-Instruct", "meta-llama-3.1-8b"),
    ("a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-7B", "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-7b"),  # 16 segments: still one name
])
def test_model_size_conditions_with_a_bounded_run_of_segments(clause: str, conditions: str | None) -> None:
    assert _conditions(clause) == conditions


@pytest.mark.parametrize("line, figure, qual", [
    # issue 21: set-up counts are qualifiers of the figure, never figures of their own
    ("在 4 张 A100 上吞吐 2,400 tok/s", "2,400 tok/s", "a100+gpus4"),
    ("32 卡训练，吞吐 1.5×", "1.5×", "gpus32"),
    ("Qwen2.5 72B 上 TTFT 0.5 s", "0.5 s", "params72b"),
])
def test_setup_counts_qualify_the_figure(line: str, figure: str, qual: str) -> None:
    claim = _PARSER.parse_text("inbox/ana/2026-07-31-t.md", f"# t\n\n- {line}\n").claims[0]
    qs = {q.raw: q for q in claim.quantities}
    assert Qualifiers(claim).of(qs[figure]) == qual
    assert all(q.metric in SETUP_METRICS for raw, q in qs.items() if raw != figure)


@pytest.mark.parametrize("clause, conditions", [
    ("P75 TTFT 120 ms", "p75"),  # every two-digit percentile is a set-up, not only P50/P90/P95/P99
    ("p99.99 latency", "p99.99"),
    ("P999 尾延迟", "p999"),
    ("中位数 TTFT", "p50"),  # the median is P50
    ("p995 延迟", "p995"),
    ("p128 heads", None),  # p and three digits is a percentile only as 99.x (p995, p999)
    ("group p99x", None),
])
def test_a_percentile_word_is_one_condition(clause: str, conditions: str | None) -> None:
    assert _conditions(clause) == conditions


def test_p75_and_p99_of_one_metric_are_two_setups() -> None:
    claim = _PARSER.parse_text("inbox/ana/2026-07-31-t.md", "# t\n\n- vLLM 的 P75 TTFT 120 ms，P99 TTFT 480 ms\n").claims[0]
    qs = {q.raw: q for q in claim.quantities}
    assert [(q.metric, q.value) for q in claim.quantities] == [("ttft", 0.12), ("ttft", 0.48)]  # (seconds)
    quals = Qualifiers(claim)
    assert (quals.of(qs["120 ms"]), quals.of(qs["480 ms"])) == ("p75", "p99")


@pytest.mark.parametrize("line, value", [
    ("vLLM lowers P99.95 TTFT 7%.", -7.0),  # the percentile is part of the metric phrase after the decrease word
    ("vLLM 降低中位数 TTFT 7%。", -7.0),
    ("vLLM 降低p995约三成。", -30.0),
])
def test_a_percentile_between_a_decrease_word_and_its_number_keeps_the_sign(line: str, value: float) -> None:
    claim = _PARSER.parse_text("inbox/ana/2026-07-31-t.md", f"# t\n\n- {line}\n").claims[0]
    assert [q.value for q in claim.quantities] == [value]
