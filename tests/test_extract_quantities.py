"""Tests for kb.extract.quantities: find_quantities (forms, signs, ranges, negatives, C12, C17) and parse_number."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kb.core.claims import Quantity
from kb.extract.metrics import MetricVocab
from kb.extract.numbers import parse_number
from kb.extract.quantities import find_quantities

SEEDS = sorted(Path("/work/shared/seeds").glob("*.txt"))


def _one(text: str, **kw: object) -> Quantity:
    qs = find_quantities(text, **kw)  # type: ignore[arg-type]
    assert len(qs) == 1, [q.raw for q in qs]
    q = qs[0]
    assert q.raw == text[q.start:q.end]
    return q


def _check(q: Quantity, raw: str, value: float | None, low: float | None, high: float | None,
           unit: str | None, metric: str | None) -> None:
    assert (q.raw, q.value, q.low, q.high, q.unit, q.metric) == (raw, value, low, high, unit, metric)


# text, raw, value, low, high, unit, metric
FORMS = [
    # ratios
    ("2.03×", "2.03×", 2.03, None, None, "×", None),  # a bare ratio names no metric (issue 8)
    ("2.03x", "2.03x", 2.03, None, None, "×", None),
    ("2.03X", "2.03X", 2.03, None, None, "×", None),
    ("2.03 倍", "2.03 倍", 2.03, None, None, "×", None),
    ("提升 3 倍以上", "3 倍", 3.0, None, None, "×", None),
    ("SGLang v0.6(ReplaySSM 6.4×/Inkling)", "6.4×", 6.4, None, None, "×", None),
    # percentages, signs
    ("-67.6%", "-67.6%", -67.6, None, None, "%", None),
    ("−49.9%", "−49.9%", -49.9, None, None, "%", None),
    ("42％", "42％", 42.0, None, None, "%", None),
    ("+0.276% PPL", "+0.276%", 0.276, None, None, "%", None),
    ("提速 15%+", "15%+", 15.0, None, None, "%", "speedup"),
    ("73.6±0.5%", "73.6±0.5%", 73.6, None, None, "%", None),
    # ranges
    ("73.6%–77.1%", "73.6%–77.1%", None, 73.6, 77.1, "%", None),
    ("73.6–77.1%", "73.6–77.1%", None, 73.6, 77.1, "%", None),
    ("73.6% - 77.1%", "73.6% - 77.1%", None, 73.6, 77.1, "%", None),
    ("73.6%~77.1%", "73.6%~77.1%", None, 73.6, 77.1, "%", None),
    ("1.29-2.06×", "1.29-2.06×", None, 1.29, 2.06, "×", None),
    ("inter-token -29-69%", "-29-69%", None, -69.0, -29.0, "%", "tpot"),
    ("-3--5%", "-3--5%", None, -5.0, -3.0, "%", None),
    ("-3-+5%", "-3-+5%", None, -3.0, 5.0, "%", None),
    ("3-6 个月", "3-6 个月", None, 7889400.0, 15778800.0, "s", None),  # pint: a month is 1/12 Julian year
    ("3 到 6 个月", "3 到 6 个月", None, 7889400.0, 15778800.0, "s", None),
    ("3 to 6 months", "3 to 6 months", None, 7889400.0, 15778800.0, "s", None),
    ("10-100 倍", "10-100 倍", None, 10.0, 100.0, "×", None),
    ("1-2 万", "1-2 万", None, 10000.0, 20000.0, None, None),
    ("from 400 million to 8B parameters", "400 million to 8B", None, 4e8, 8e9, None, "params"),
    # percentage points, decrease words
    ("0.27 个百分点", "0.27 个百分点", 0.27, None, None, "pp", None),
    ("0.27 pp", "0.27 pp", 0.27, None, None, "pp", None),
    ("0.27 percentage points", "0.27 percentage points", 0.27, None, None, "pp", None),
    ("下降 0.27 个百分点", "0.27 个百分点", -0.27, None, None, "pp", None),
    ("提升 0.27 个百分点", "0.27 个百分点", 0.27, None, None, "pp", None),
    ("增加 5%", "5%", 5.0, None, None, "%", None),
    ("up by 6.94%", "6.94%", 6.94, None, None, "%", None),
    ("dropped by 5%", "5%", -5.0, None, None, "%", None),
    ("down 5 pp", "5 pp", -5.0, None, None, "pp", None),
    ("降低延迟 30%", "30%", -30.0, None, None, "%", "latency"),
    ("reduces TTFT by 30%", "30%", -30.0, None, None, "%", "ttft"),
    ("HintServe cuts p99 TTFT by 27% on H100", "27%", -27.0, None, None, "%", "ttft"),  # a percentile before the metric
    ("reduces p99 latency by 30%", "30%", -30.0, None, None, "%", "latency"),
    # words that qualify the metric between the decrease word and the number (session 4 sizes helper)
    ("PyramidKV reportedly reduces decoding latency by 20%", "20%", -20.0, None, None, "%", "latency"),
    ("reduces the end-to-end decoding latency by 20%", "20%", -20.0, None, None, "%", "latency"),
    ("降低解码延迟 20%", "20%", -20.0, None, None, "%", "latency"),
    ("reduces memory and raises throughput by 20%", "20%", 20.0, None, None, "%", "throughput"),  # a verb between
    ("30% lower latency", "30%", -30.0, None, None, "%", "latency"),
    ("下降到 30%", "30%", 30.0, None, None, "%", None),  # a level, not a change
    ("reduced to 30%", "30%", 30.0, None, None, "%", None),
    ("延迟下降 −67.6%", "−67.6%", -67.6, None, None, "%", "latency"),  # the sign written wins
    ("延迟下降 2×", "2×", 2.0, None, None, "×", "latency"),  # × is never negated
    ("流量下降 73.6%–77.1%", "73.6%–77.1%", None, -77.1, -73.6, "%", "traffic"),
    # magnitudes
    ("6.2k", "6.2k", 6200.0, None, None, None, None),
    ("约 6.2k LoC", "6.2k LoC", 6200.0, None, None, "LoC", "loc"),
    ("Kimi K3 2.8T MoE", "2.8T", 2.8e12, None, None, None, None),
    ("13M", "13M", 1.3e7, None, None, None, None),
    ("2.5K TPS", "2.5K TPS", 2500.0, None, None, "tok/s", "throughput"),
    ("1.5B", "1.5B", 1.5e9, None, None, None, None),
    ("1,918", "1,918", 1918.0, None, None, None, None),
    ("1,300 万", "1,300 万", 1.3e7, None, None, None, None),
    ("1300万", "1300万", 1.3e7, None, None, None, None),
    ("１，３００万", "１，３００万", 1.3e7, None, None, None, None),
    ("3 亿", "3 亿", 3e8, None, None, None, None),
    ("400 million", "400 million", 4e8, None, None, None, None),
    ("128K tokens", "128K tokens", 128000.0, None, None, "tokens", None),
    ("25+", "25+", 25.0, None, None, "+", None),
    ("25+ engines", "25+", 25.0, None, None, "+", None),
    ("10k+ stars", "10k+", 10000.0, None, None, "+", "votes"),
    # rates and units
    ("383.7 tok/s", "383.7 tok/s", 383.7, None, None, "tok/s", "throughput"),
    ("1109 tokens/sec", "1109 tokens/sec", 1109.0, None, None, "tok/s", "throughput"),
    ("25ms", "25ms", 0.025, None, None, "s", None),  # canonical unit, value converted
    ("25 ms", "25 ms", 0.025, None, None, "s", None),
    ("1.5 s", "1.5 s", 1.5, None, None, "s", None),
    ("5 hours", "5 hours", 18000.0, None, None, "s", None),
    ("约 20 小时", "20 小时", 72000.0, None, None, "s", None),
    ("近3天", "3天", 259200.0, None, None, "s", None),
    ("80 GB", "80 GB", 8e10, None, None, "B", None),
    ("80GB", "80GB", 8e10, None, None, "B", None),
    ("18.6KB", "18.6KB", 18600.0, None, None, "B", None),
    ("$0.5", "$0.5", 0.5, None, None, "$", "cost"),
    ("419 HN", "419", 419.0, None, None, None, "votes"),
    ("HN 419", "419", 419.0, None, None, None, "votes"),
    ("1,400 并发 runner", "1,400", 1400.0, None, None, None, "concurrency"),
    ("64 个", "64 个", 64.0, None, None, "个", None),
    ("16 张新卡", "16 张", 16.0, None, None, "张", None),
    ("HF Daily 15件", "15件", 15.0, None, None, "件", None),
    ("已收 18 条", "18 条", 18.0, None, None, "条", None),
    ("TTFT 25", "25", 25.0, None, None, None, "ttft"),
    ("**2.03×**", "2.03×", 2.03, None, None, "×", None),
]


@pytest.mark.parametrize(("text", "raw", "value", "low", "high", "unit", "metric"), FORMS, ids=[f[0] for f in FORMS])
def test_forms(text: str, raw: str, value: float | None, low: float | None, high: float | None,
               unit: str | None, metric: str | None) -> None:
    _check(_one(text), raw, value, low, high, unit, metric)


def test_qualifier_glued_to_times() -> None:
    q = _one("FlashInfer B200 默认(31×PA)")
    _check(q, "31×", 31.0, None, None, "×", None)
    assert q.qualifier == "PA"
    qs = find_quantities("SGLang 29%/3.1×MLA；")
    assert [(q.raw, q.value, q.unit, q.qualifier) for q in qs] == [("29%", 29.0, "%", None), ("3.1×", 3.1, "×", "MLA")]
    assert _one("25+ engines").qualifier is None


NOT_QUANTITIES = [
    "vLLM 0.26.0", "v0.5.16", "DS v0.5.16", "SGLang v0.6", "v0.19.0/v0.25.1/MRV2", "GPT-5.6", "Qwen3-32B",
    "Llama-3.1-8B", "DeepSeek-V4-Pro", "GLM-5.2 DSA", "MXFP4/MXFP8", "§2.13", "§8.2", "§ 3", "C116", "O172",
    "Q105", "paper_cards/681", "paper_cards/666-681", "#15", "1. 下载", "增量 1", "2026", "Q2 2026", "H2",
    "B200", "RTX 5090", "RTX PRO 6000 Blackwell", "PA", "6→5 框架", "7-31", "HF 7-31 推", "2023-2024 年",
    "2026-03-21", "22:00", "第 24 类", "第3次", "4o-mini", "8x22B", "2×10", "8 x A100", "1.5 个", "x.xx",
    "10.1145/3803798", "MAS$^2$", "668 Memory for LLMs", "7 主线+3旁证+1警示", "Lean 4 形式化", "batch size 记为 1",
    "arXiv:2607.26627", "2606.20295v2", "- **“引用”**后的结论",
]


@pytest.mark.parametrize("text", NOT_QUANTITIES)
def test_not_quantities(text: str) -> None:
    assert find_quantities(text) == []


def test_from_to_with_units_is_two_values() -> None:
    qs = find_quantities("an increase of 6.17% (from 73.97% to 80.14%)")
    assert [(q.raw, q.value, q.low) for q in qs] == [("6.17%", 6.17, None), ("73.97%", 73.97, None), ("80.14%", 80.14, None)]


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit"),
    [
        ("结论：**2.03×**加速", "2.03×", 2.03, "×"),
        ("延迟降低**−67.6%**以上", "−67.6%", -67.6, "%"),
    ],
)
def test_c12_literal_emphasis(text: str, raw: str, value: float, unit: str) -> None:
    q = _one(text)
    assert (q.raw, q.value, q.unit) == (raw, value, unit)
    assert "*" not in q.raw


C17 = "延迟下降 −67.6%，吞吐提升 2.03×（另一组 1.9x），准确率 73.6%–77.1%，发布于 2026-03-21，见 2607.26627。"


def _c17_skip() -> list[tuple[int, int]]:
    d, i = C17.index("2026-03-21"), C17.index("2607.26627")
    return [(d, d + 10), (i, i + 10)]


def test_c17_signs_ranges_times_dates() -> None:
    qs = find_quantities(C17, skip=_c17_skip())
    got = [(q.raw, q.value, q.low, q.high, q.unit, q.metric) for q in qs]
    assert got == [
        ("−67.6%", -67.6, None, None, "%", "latency"),
        ("2.03×", 2.03, None, None, "×", "throughput"),
        # its own parenthesised clause names no metric: a bare ratio has none (issue 8)
        ("1.9x", 1.9, None, None, "×", None),
        ("73.6%–77.1%", None, 73.6, 77.1, "%", "accuracy"),
    ]
    for q in qs:
        assert q.raw == C17[q.start:q.end]


def test_c17_without_skip_spans_still_no_date_or_id_numbers() -> None:
    qs = find_quantities(C17)
    assert [q.raw for q in qs] == ["−67.6%", "2.03×", "1.9x", "73.6%–77.1%"]
    values = {v for q in qs for v in (q.value, q.low, q.high) if v is not None}
    assert -77.1 not in values and -3.0 not in values and -21.0 not in values and 2607.26627 not in values


# Numbers of the seed briefs, each in the sentence it is written in.
SEED_NUMBERS = [
    ("合并 1,918 commits 到 main", "1,918", 1918.0, None, None, None, "commits"),
    ("CI 耗用 1,300 万 job minutes，峰值 1,400 并发 runner", "1,300 万", 1.3e7, None, None, None, "ci_job_minutes"),
    ("（1,918 commits/月 + 13M CI job minutes）", "13M", 1.3e7, None, None, None, "ci_job_minutes"),
    ("DS v0.5.16（DeepSeek-V4-Pro 383.7 tok/s）", "383.7 tok/s", 383.7, None, None, "tok/s", "throughput"),
    ("FlashInfer arXiv:2606.20295(inter-token -29-69%)", "-29-69%", None, -69.0, -29.0, "%", "tpot"),
    ("Agent 工作负载下 TTFT -67.6%", "-67.6%", -67.6, None, None, "%", "ttft"),
    ("、TPOT -49.9%。", "-49.9%", -49.9, None, None, "%", "tpot"),
    ("Host→Device 流量下降 73.6%–77.1%。", "73.6%–77.1%", None, -77.1, -73.6, "%", "traffic"),
    ("平均准确率仅下降 0.27 个百分点；", "0.27 个百分点", -0.27, None, None, "pp", "accuracy"),
    ("约 6.2k LoC、2.03× 吞吐", "6.2k LoC", 6200.0, None, None, "LoC", "loc"),
    ("约 6.2k LoC、2.03× 吞吐", "2.03×", 2.03, None, None, "×", "throughput"),
    # no params phrase: a model size without one has no metric
    ("§2.1 已收 Kimi K3 2.8T MoE(Raschka 419 HN", "2.8T", 2.8e12, None, None, None, None),
    ("§2.1 已收 Kimi K3 2.8T MoE(Raschka 419 HN", "419", 419.0, None, None, None, "votes"),
    ("全专家在显存时约 1.29×，offload 到 RTX 5090 时约 2.06×", "1.29×", 1.29, None, None, "×", None),  # 显存时 is a condition
    ("全专家在显存时约 1.29×，offload 到 RTX 5090 时约 2.06×", "2.06×", 2.06, None, None, "×", None),
    ("需制定 3-6 个月迁移计划", "3-6 个月", None, 7889400.0, 15778800.0, "s", None),
    ("可作为 25+ engines、15+ optimization techniques", "15+", 15.0, None, None, "+", None),
    ("TGI 维护、vLLM 2.5K TPS、Muse", "2.5K TPS", 2500.0, None, None, "tok/s", "throughput"),
    ("+ TGI EOL + SGLang 29%/3.1×MLA", "29%", 29.0, None, None, "%", None),  # EOL is a date metric
    ("平均每天 64 个，与 PyTorch", "64 个", 64.0, None, None, "个", None),
]


@pytest.mark.parametrize(("text", "raw", "value", "low", "high", "unit", "metric"), SEED_NUMBERS)
def test_seed_numbers(text: str, raw: str, value: float | None, low: float | None, high: float | None,
                      unit: str | None, metric: str | None) -> None:
    matching = [q for q in find_quantities(text) if q.raw == raw]
    assert len(matching) == 1, [q.raw for q in find_quantities(text)]
    _check(matching[0], raw, value, low, high, unit, metric)


@pytest.mark.skipif(not SEEDS, reason="seed briefs not available")
@pytest.mark.parametrize("path", SEEDS, ids=[p.name for p in SEEDS])
def test_seed_briefs_spans_and_no_identifiers(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    qs = find_quantities(text)
    assert qs
    assert [q.start for q in qs] == sorted(q.start for q in qs)
    for q in qs:
        assert q.raw == text[q.start:q.end]
        assert "*" not in q.raw
        assert q.value is not None or (q.low is not None and q.high is not None and q.low <= q.high)
    raws = {q.raw for q in qs}
    assert not raws & {"0.26", "0.6", "5.6", "2.13", "8.2", "116", "172", "105", "681", "2026", "5090", "200", "1"}


def test_offsets_are_into_the_original_text() -> None:
    text = "ＴＴＦＴ　－６７．６％，吞吐 ２．０３×"
    qs = find_quantities(text)
    assert [(q.raw, q.value, q.unit, q.metric) for q in qs] == [
        ("－６７．６％", -67.6, "%", "ttft"),
        ("２．０３×", 2.03, "×", "throughput"),
    ]
    for q in qs:
        assert text[q.start:q.end] == q.raw


def test_skip_drops_only_overlapping_matches() -> None:
    text = "吞吐 2.03× 与 73.6%–77.1% 与 5 ms"
    r = text.index("77.1%")
    qs = find_quantities(text, skip=[(r, r + 2), (0, 2)])
    assert [q.raw for q in qs] == ["2.03×", "5 ms"]
    assert [q.raw for q in find_quantities(text, skip=[(text.index("5 ms") + 4, len(text))])] == [
        "2.03×", "73.6%–77.1%", "5 ms",
    ]


def test_custom_vocab() -> None:
    vocab = MetricVocab({"energy": ["功耗"]})
    q = _one("功耗降低 20%", vocab=vocab)
    assert (q.value, q.metric) == (-20.0, "energy")
    assert _one("功耗降低 20%").metric is None


def test_no_numbers_no_work() -> None:
    assert find_quantities("") == []
    assert find_quantities("纯叙述，没有任何数字。") == []


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1,300 万", 1.3e7), ("1300万", 1.3e7), ("−67.6", -67.6), ("-67.6", -67.6), ("+0.276", 0.276),
        ("６.２k", 6200.0), ("6.2k", 6200.0), ("2.8T", 2.8e12), ("13M", 1.3e7), ("1.5B", 1.5e9),
        ("2.5K", 2500.0), ("3 亿", 3e8), ("1,918", 1918.0), ("１，９１８", 1918.0), (" 42 ", 42.0),
        ("1.5 万亿", 1.5e12), ("2 million", 2e6), ("0", 0.0),
    ],
)
def test_parse_number(raw: str, expected: float) -> None:
    assert parse_number(raw) == expected


@pytest.mark.parametrize("raw", ["", "abc", "1,91", "2.03×", "1.2.3", "--5", "5 万 万", "12%", "v0.6", "1e", "一些", "万一", None])
def test_parse_number_rejects(raw: str) -> None:
    with pytest.raises(ValueError, match="number"):
        parse_number(raw)


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit", "qualifier", "metric"),
    [
        ("DeepSeek-V4-Pro MTP 383.7 tok/s，8×H200", "8×", 8.0, "devices", "H200", "gpu_count"),
        ("训练用 4×A100", "4×", 4.0, "devices", "A100", "gpu_count"),
        ("2×MI300X 上", "2×", 2.0, "devices", "MI300X", "gpu_count"),
        ("FlashInfer B200 默认(31×PA)", "31×", 31.0, "×", "PA", None),
    ],
)
def test_times_glued_to_an_accelerator_is_a_device_count(text, raw, value, unit, qualifier, metric) -> None:
    q = [q for q in find_quantities(text) if q.raw == raw][0]
    assert (q.value, q.unit, q.qualifier, q.metric) == (value, unit, qualifier, metric)


# Issue 8, item 7: bounds (text, raw, value, unit, bound); the bound word is not part of raw.
BOUNDS = [
    (">80%", "80%", 80.0, "%", ">"),
    ("<100 LoC", "100 LoC", 100.0, "LoC", "<"),
    ("超过 145%", "145%", 145.0, "%", ">"),
    ("至少 7 倍", "7 倍", 7.0, "×", "≥"),
    ("不到 5 ms", "5 ms", 0.005, "s", "<"),
    ("32K 以内", "32K", 32000.0, None, "≤"),
    ("约 3 千", "3 千", 3000.0, None, "~"),  # C22
    ("up to 2.4×", "2.4×", 2.4, "×", "≤"),
    ("at least 3 GB", "3 GB", 3e9, "B", "≥"),
    ("over 80%", "80%", 80.0, "%", ">"),
    ("under 100 ms", "100 ms", 0.1, "s", "<"),
    ("more than 10 s", "10 s", 10.0, "s", ">"),
    ("within 5%", "5%", 5.0, "%", "≤"),
    ("~3 h", "3 h", 10800.0, "s", "~"),
    ("≈ 2.5 GiB", "2.5 GiB", 2684354560.0, "B", "~"),
    ("≥ 90%", "90%", 90.0, "%", "≥"),
    ("3 倍以上", "3 倍", 3.0, "×", "≥"),
    ("20 ms 左右", "20 ms", 0.02, "s", "~"),
    ("2× 上下文", "2×", 2.0, "×", None),  # 上下文 is context, not 上下 "about"
    ("25+", "25+", 25.0, "+", "≥"),
    ("15%+", "15%+", 15.0, "%", "≥"),
    ("最近 3 天", "3 天", 259200.0, "s", None),  # 最近 is "recent", not 近 "nearly"
    ("80%", "80%", 80.0, "%", None),
]


@pytest.mark.parametrize(("text", "raw", "value", "unit", "bound"), BOUNDS, ids=[b[0] for b in BOUNDS])
def test_bounds(text: str, raw: str, value: float, unit: str | None, bound: str | None) -> None:
    q = _one(text)
    assert (q.raw, q.value, q.unit, q.bound) == (raw, value, unit, bound)


def test_years_are_never_range_ends() -> None:
    qs = find_quantities("from 3 days in 2014 to 36 days in 2018")
    assert [(q.raw, q.value, q.low, q.high, q.unit) for q in qs] == [
        ("3 days", 259200.0, None, None, "s"), ("36 days", 3110400.0, None, None, "s")]


@pytest.mark.parametrize(
    "text",
    ["Fig. 7 吞吐", "Figure 3 latency", "Table 3 吞吐", "表 2 吞吐", "图 5 吞吐", "§3.2 吞吐", "Sec. 4 吞吐",
     "Eq. (2) 吞吐", "Step 3 吞吐", "(Smith et al., 2023)", "(2024)", "1. 吞吐", "the 1990s", "the 80s", "'90s"],
)
def test_references_years_and_list_numbers_are_no_quantity(text: str) -> None:
    assert find_quantities(text) == []


def test_a_figure_number_leaves_the_figure_value() -> None:
    assert [(q.raw, q.value, q.unit) for q in find_quantities("Fig. 7: latency 20 ms")] == [("20 ms", 0.02, "s")]


# Issue 8, item 4: units from pint, stored in a canonical unit (text, raw, value/low/high, unit)
UNITS = [
    ("120 ms", "120 ms", 0.12, None, None, "s"),
    ("0.12 s", "0.12 s", 0.12, None, None, "s"),
    ("80 GB", "80 GB", 8e10, None, None, "B"),
    ("2 GiB", "2 GiB", 2147483648.0, None, None, "B"),
    ("700 W", "700 W", 700.0, None, None, "W"),
    ("25 °C", "25 °C", 25.0, None, None, "°C"),
    ("30 MPa", "30 MPa", 3e7, None, None, "Pa"),
    ("10 keV", "10 keV", 1.602176634e-15, None, None, "J"),
    ("200 km s−1", "200 km s−1", 200000.0, None, None, "m/s"),
    ("3.2 TB/s", "3.2 TB/s", 3.2e12, None, None, "B/s"),
    ("400 Gbps", "400 Gbps", 5e10, None, None, "B/s"),
    ("2.4 GHz", "2.4 GHz", 2.4e9, None, None, "Hz"),
    ("100 m", "100 m", 100.0, None, None, "m"),  # a metre when spaced
    ("3-5 GB", "3-5 GB", None, 3e9, 5e9, "B"),
    ("10–20 keV", "10–20 keV", None, 1.602176634e-15, 3.204353268e-15, "J"),
]


@pytest.mark.parametrize(("text", "raw", "value", "low", "high", "unit"), UNITS, ids=[u[0] for u in UNITS])
def test_units_from_pint(text: str, raw: str, value: float | None, low: float | None, high: float | None,
                         unit: str) -> None:
    q = _one(text)
    assert (q.raw, q.value, q.low, q.high, q.unit) == (raw, value, low, high, unit)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3 B params", [("3 B", 3e9, None)]),  # B is billions here, not bytes: as 3B params
        ("8 K context", [("8 K", 8000.0, None)]),  # 8K context, not kelvin
        ("8 A100", [("8", 8.0, "devices")]),  # eight accelerators, never amperes
        ("3 PR", []),  # not peta × gas constant
        ("3 ML models", [("3", 3.0, None)]),  # a count of models (COUNTED_NOUNS), never megalitres
        ("5 in the box", []),  # not inches
        ("3 papers", []),
        ("1000s of experts", []),  # thousands, not seconds
        ("30s timeout", [("30s", 30.0, "s")]),
        ("2bit quantization", []),  # a bit width, not a data amount
        ("width=250px", []),
        ("2 rare diseases", []),  # not ronto-are
        ("4 terabytes of code", [("4 terabytes", 4e12, "B")]),
        ("4×H200", [("4×", 4.0, "devices")]),
        ("5m users", [("5m", 5e6, None)]),  # glued m after a number: a million
        ("$5m", [("$5m", 5e6, "$")]),
    ],
)
def test_false_units(text: str, expected: list) -> None:
    assert [(q.raw, q.value, q.unit) for q in find_quantities(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3万4000", [("3万4000", 34000.0, None, None)]),
        ("25万6千", [("25万6千", 256000.0, None, None)]),
        ("1.2亿", [("1.2亿", 1.2e8, None, None)]),
        ("1亿5000万", [("1亿5000万", 1.5e8, None, None)]),
        ("约 3 千", [("3 千", 3000.0, None, "~")]),
        ("两倍", [("两倍", 2.0, "×", None)]),
        ("吞吐提升两倍", [("两倍", 2.0, "×", None)]),
        ("快了二十倍", [("二十倍", 20.0, "×", None)]),
        ("三十七倍", [("三十七倍", 37.0, "×", None)]),
        ("至少三倍", [("三倍", 3.0, "×", "≥")]),
        ("翻了一倍", [("一倍", 2.0, "×", None)]),  # doubled (issue 21: docs/claims.md)
        ("数倍", []),
    ],
)
def test_c22_mixed_chinese_number_forms(text: str, expected: list) -> None:
    assert [(q.raw, q.value, q.unit, q.bound) for q in find_quantities(text)] == expected
    for q in find_quantities(text):
        assert q.raw == text[q.start:q.end]


def test_c22_ratio_in_chinese_numerals_gets_its_metric() -> None:
    [q] = find_quantities("吞吐提升两倍")
    assert q.metric == "throughput"


# Issue 9: a change A → B is one shape, decided in one place (kb.extract.number_words._is_transition):
# two quantities, ``from`` A and ``to`` B, one metric and one unit, whichever end they are written on.
# text -> [(raw, value, unit, metric, bound, transition)]
ACC = [("3.1", 3.1, "tokens", "acceptance_length", None, "from")]
TRANSITIONS = [
    # zh prose: the unit on the second end only, the metric before 从
    ("宽松阈值把平均接受长度从 3.1 提到 4.4 个 token，端到端 1.38×。",
     [*ACC, ("4.4 个 token", 4.4, "tokens", "acceptance_length", None, "to"), ("1.38×", 1.38, "×", None, None, None)]),
    # a table cell, an arrow, no unit: acceptance length is counted in tokens (kb.extract.vocab.metrics.METRIC_UNITS);
    # a full-width comma ends the clause, it joins no digits ("4.4，1.38" is not 4.4 and 1.38)
    ("1 | 681：接受长度 3.1 → 4.4，1.38× | 论文事实 | paper_cards/681-2607-26627.md",
     [*ACC, ("4.4", 4.4, "tokens", "acceptance_length", None, "to"), ("1.38×", 1.38, "×", None, None, None)]),
    # en prose: a change word (raises) before from … to; "speed-up" names the ratio's metric
    ("The paper reports that a relaxed acceptance threshold raises the mean accepted length from 3.1 to 4.4 tokens, "
     "giving 1.38× end-to-end speed-up.",
     [*ACC, ("4.4 tokens", 4.4, "tokens", "acceptance_length", None, "to"), ("1.38×", 1.38, "×", "speedup", None, None)]),
    ("接受长度 3.1 -> 4.4 个 token", [*ACC, ("4.4 个 token", 4.4, "tokens", "acceptance_length", None, "to")]),
    ("接受长度 3.1➝4.4", [*ACC, ("4.4", 4.4, "tokens", "acceptance_length", None, "to")]),
    # the unit on the first end only, on both, or converted (120 ms is 0.12 s)
    ("TTFT 120 ms → 80", [("120 ms", 0.12, "s", "ttft", None, "from"), ("80", 0.08, "s", "ttft", None, "to")]),
    ("TTFT 120 ms → 80 ms", [("120 ms", 0.12, "s", "ttft", None, "from"), ("80 ms", 0.08, "s", "ttft", None, "to")]),
    ("TTFT 从 120 降到 80 ms", [("120", 0.12, "s", "ttft", None, "from"), ("80 ms", 0.08, "s", "ttft", None, "to")]),
    ("延迟由 120 ms 降至 0.08 s", [("120 ms", 0.12, "s", "latency", None, "from"), ("0.08 s", 0.08, "s", "latency", None, "to")]),
    ("吞吐由 1,200 tok/s 增至 1,500 tok/s",
     [("1,200 tok/s", 1200.0, "tok/s", "throughput", None, "from"), ("1,500 tok/s", 1500.0, "tok/s", "throughput", None, "to")]),
    ("cuts TTFT from 120 ms to 80 ms", [("120 ms", 0.12, "s", "ttft", None, "from"), ("80 ms", 0.08, "s", "ttft", None, "to")]),
    # the level reached after a decrease word is no negative change; bounds stay each end's own
    ("drops accuracy from 80% to 75%", [("80%", 80.0, "%", "accuracy", None, "from"), ("75%", 75.0, "%", "accuracy", None, "to")]),
    ("碎片率从约 4% 降到 1% 以下", [("4%", 4.0, "%", None, "~", "from"), ("1%", 1.0, "%", None, "≤", "to")]),
    ("胜率差距从 11.2 个百分点缩小到 3.4 个百分点",
     [("11.2 个百分点", 11.2, "pp", None, None, "from"), ("3.4 个百分点", 3.4, "pp", None, None, "to")]),
    ("an increase of 6.17% (from 73.97% to 80.14%)",
     [("6.17%", 6.17, "%", None, None, None), ("73.97%", 73.97, "%", None, None, "from"), ("80.14%", 80.14, "%", None, None, "to")]),
    # years between the ends: still the two values (and a change); a year is never an end
    ("from 3 days in 2014 to 36 days in 2018",
     [("3 days", 259200.0, "s", None, None, "from"), ("36 days", 3110400.0, "s", None, None, "to")]),
    # two bare numbers with no metric word: nothing (6→5 is no figure)
    ("6→5 框架", []),
    ("区域 IoU 0.41 → 0.63", []),
]


@pytest.mark.parametrize(("text", "expected"), TRANSITIONS, ids=[t[0][:40] for t in TRANSITIONS])
def test_transitions_are_two_ends_of_one_metric_and_unit(text: str, expected: list[tuple[Any, ...]]) -> None:
    qs = find_quantities(text)
    assert [(q.raw, q.value, q.unit, q.metric, q.bound, q.transition) for q in qs] == expected
    assert all(q.low is None and q.high is None for q in qs)  # a transition is no range
    assert all(q.raw == text[q.start:q.end] for q in qs)


@pytest.mark.parametrize(("text", "raw", "low", "high", "unit"), [
    ("from 400 million to 8B parameters", "400 million to 8B", 4e8, 8e9, None),  # no change word: a range
    ("迁移需要 3 到 6 个月", "3 到 6 个月", 7889400.0, 15778800.0, "s"),
    ("平均接受长度从 3.1 到 4.4 tokens", "3.1 到 4.4 tokens", 3.1, 4.4, "tokens"),  # from … to, no change word, one unit
    ("延迟 20–30 ms", "20–30 ms", 0.02, 0.03, "s"),
])
def test_a_range_is_no_transition(text: str, raw: str, low: float, high: float, unit: str | None) -> None:
    q = _one(text)
    assert (q.raw, q.value, q.low, q.high, q.unit, q.transition) == (raw, None, low, high, unit, None)


@pytest.mark.parametrize(("zh", "en", "metric"), [
    ("端到端 1.38×", "1.38× end-to-end", None),  # a bare ratio: 端到端 / end-to-end name no metric (docs/claims.md)
    ("端到端加速 1.38×", "1.38× end-to-end speed-up", "speedup"),
])
def test_a_ratio_gets_the_same_metric_in_zh_and_en(zh: str, en: str, metric: str | None) -> None:
    assert [(q.value, q.unit, q.metric) for q in find_quantities(zh)] == [(1.38, "×", metric)]
    assert [(q.value, q.unit, q.metric) for q in find_quantities(en)] == [(1.38, "×", metric)]


@pytest.mark.parametrize(("text", "folded"), [
    ("3.1 → 4.4，1.38×", "3.1 → 4.4;1.38×"),  # a full-width comma after an ASCII digit ends a clause
    ("１，３００万 tokens", "1,300万 tokens"),  # between full-width digits: a thousands separator
    ("吞吐（tok/s）：４２％，延迟 −67.6%", "吞吐(tok/s):42%;延迟 -67.6%"),
    ("，开头", ";开头"),
    ("plain ascii, 1,300", "plain ascii, 1,300"),
])
def test_one_fold_pass_is_the_comma_rule_then_normalise(text: str, folded: str) -> None:
    from kb.extract.numbers import _fold
    assert _fold(text) == folded
    assert len(_fold(text)) == len(text)  # offsets kept


def test_quantities_and_dates_as_built_are_the_validated_ones() -> None:
    """find_quantities and find_dates build their records unvalidated (kb.perf.models.built): every
    quantity and date of the demo KB's claims has the field values, and the value types, that
    validation gives them."""
    from kb.core.claims import DateRef
    from kb.core.config import load_config
    from kb.store.walk import iter_kb_files
    from kb.read.parse import Parser

    repo = Path(__file__).resolve().parents[1]
    parser = Parser(load_config(repo))
    n = n_dates = 0
    for rel, _ in iter_kb_files(repo):
        for c in parser.parse_bytes(rel, (repo / rel).read_bytes()).claims:
            for q in c.quantities:
                v = Quantity(**q.__dict__)
                assert type(q) is Quantity and q.__dict__ == v.__dict__
                assert {k: type(x) for k, x in q.__dict__.items()} == {k: type(x) for k, x in v.__dict__.items()}
                n += 1
            for d in c.dates:
                w = DateRef(**d.__dict__)
                assert type(d) is DateRef and d.__dict__ == w.__dict__
                assert {k: type(x) for k, x in d.__dict__.items()} == {k: type(x) for k, x in w.__dict__.items()}
                n_dates += 1
    assert n > 300 and n_dates > 30  # the demo KB's quantities and dates


def test_case_insensitive_units_start_with_a_letter() -> None:
    """_UNIT skips the case-insensitive units unless (?i:[a-z]) stands there: every one of them
    must start with an ASCII letter, and each is still read whatever its case."""
    import re

    from kb.extract.numbers import _unit_of
    from kb.extract.vocab.units import ASCII_UNITS_CI as _ASCII_UNITS_CI

    assert all(re.fullmatch("(?i:[a-z])", form[0]) for form in _ASCII_UNITS_CI)
    assert [(q.raw, q.unit) for q in find_quantities("3 PP, 2.5 Tok/S, 7 GiB, 4 HOURS, 9 p.p. and 5 Lines")] == [
        ("3 PP", "pp"), ("2.5 Tok/S", "tok/s"), ("7 GiB", "B"), ("4 HOURS", "s"), ("9 p.p.", "pp"), ("5 Lines", "LoC")]
    assert _unit_of(" Tok/S") == "tok/s"
