"""Tests for kb.extract.metrics: the built-in vocabulary, MetricVocab.metric_at, normalise."""

from __future__ import annotations

import pytest

from kb.extract.fold import lower_same_length, normalise
from kb.extract.metrics import DEFAULT_VOCAB, MetricVocab
from kb.extract.vocab.metrics import BUILTIN_METRICS, DATE_METRICS

REQUIRED = {
    "throughput": ["吞吐", "吞吐量", "throughput", "TPS", "tok/s", "tokens/s", "tokens/sec"],
    "ttft": ["TTFT", "首 token 延迟", "time to first token"],
    "tpot": ["TPOT", "ITL", "inter-token latency", "inter-token"],
    "latency": ["延迟", "时延", "latency", "p99", "p50", "尾延迟"],
    "accuracy": ["准确率", "精度", "accuracy", "acc"],
    "speedup": ["加速", "提速", "speedup", "faster"],
    "memory": ["显存", "内存", "memory", "VRAM"],
    "traffic": ["流量", "traffic", "Host→Device"],
    "commits": ["commits", "提交数"],
    "compression_ratio": ["压缩", "compression"],
    "size_ratio": ["模型小", "model size"],
    "call_count_ratio": ["调用次数", "calls"],
    "write_amplification": ["写放大", "write amplification"],
    "error_rate": ["错误率", "error rate"],
    "acceptance_rate": ["接受率", "acceptance rate"],
    "acceptance_length": ["接受长度", "accepted length"],
    "ci_job_minutes": ["job minutes", "CI 耗用"],
    "concurrency": ["并发", "concurrent"],
    "loc": ["LoC", "lines of code", "行代码"],
    "params": ["参数", "parameters", "params"],
    "cost": ["成本", "cost", "$"],
    "eol_date": ["维护模式", "maintenance mode", "EOL", "end of life", "停止维护"],
    "release_date": ["发布", "released", "release"],
    "votes": ["HF 票", "votes", "upvotes", "stars", "HN points", "HN"],
    "count": [],
}


@pytest.mark.parametrize("key", sorted(REQUIRED))
def test_builtin_phrases(key: str) -> None:
    assert key in BUILTIN_METRICS
    for phrase in REQUIRED[key]:
        assert phrase in BUILTIN_METRICS[key]
        assert DEFAULT_VOCAB.phrase_metric(phrase) == key


def test_builtin_phrases_are_unique() -> None:
    seen: dict[str, str] = {}
    for key, phrases in BUILTIN_METRICS.items():
        for p in phrases:
            folded = "".join(p.split()).lower()
            assert folded not in seen, f"{p!r} in {key} and {seen.get(folded)}"
            seen[folded] = key


def test_date_metrics() -> None:
    assert DATE_METRICS == {"eol_date", "release_date"}


def _at(text: str, number: str, unit: str | None, vocab: MetricVocab = DEFAULT_VOCAB) -> str | None:
    start = text.index(number)
    return vocab.metric_at(text, start, start + len(number), unit)


@pytest.mark.parametrize(
    ("text", "number", "unit", "expected"),
    [
        # 1. directly before
        ("TTFT -67.6%", "-67.6%", "%", "ttft"),
        ("TPOT -49.9%", "-49.9%", "%", "tpot"),
        ("吞吐提升 2.03×", "2.03×", "×", "throughput"),
        ("准确率 73.6%", "73.6%", "%", "accuracy"),
        ("平均准确率仅下降 0.27 个百分点", "0.27 个百分点", "pp", "accuracy"),
        ("Host→Device 流量下降 73.6%–77.1%", "73.6%–77.1%", "%", "traffic"),
        ("FlashInfer(inter-token -29-69%)", "-29-69%", "%", "tpot"),
        ("延迟降低**−67.6%**以上", "−67.6%", "%", "latency"),
        ("Latency: 25 ms", "25 ms", "ms", "latency"),
        ("improves throughput by 2×", "2×", "×", "throughput"),
        # 2. inside the span
        ("DeepSeek-V4-Pro 383.7 tok/s", "383.7 tok/s", "tok/s", "throughput"),
        ("vLLM 2.5K TPS", "2.5K TPS", "tok/s", "throughput"),
        ("$0.5 per run", "$0.5", "$", "cost"),
        ("约 6.2k LoC", "6.2k LoC", "LoC", "loc"),
        # 3. directly after
        ("2.03× 吞吐", "2.03×", "×", "throughput"),
        ("结论：**2.03×**加速", "2.03×", "×", "speedup"),
        ("合并 1,918 commits 到 main", "1,918", None, "commits"),
        ("CI 耗用 1,300 万 job minutes", "1,300 万", None, "ci_job_minutes"),
        ("1,918 commits/月 + 13M CI job minutes", "13M", None, "ci_job_minutes"),
        ("峰值 1,400 并发 runner", "1,400", None, "concurrency"),
        ("Raschka 419 HN + LatentMoE", "419", None, "votes"),
        ("using 3.7× less memory", "3.7×", "×", "memory"),
        ("1.78× faster inference", "1.78×", "×", "speedup"),
        # 4. unit defaults: tok/s names throughput; a ratio names nothing (issue 8)
        ("（另一组 1.9x）", "1.9x", "×", None),
        ("另一组 1.9x", "1.9x", "x", None),
        ("2.4×", "2.4×", "×", None),
        ("全专家在显存时约 1.29×", "1.29×", "×", None),  # 显存时: a condition, not the metric
        ("SpecDec 5.08×（已知 latency 可解释模型）", "5.08×", "×", None),
        ("some 383.7 tok/s", "383.7", "tok/s", "throughput"),
        # 5. nearest phrase in the clause
        ("准确率近似保持在 95%", "95%", "%", "accuracy"),
        ("TGI 2026-03-21 正式进入维护模式", "2026-03-21", None, "eol_date"),
        ("发布于 2026-03-21", "2026-03-21", None, "release_date"),
        # nothing
        ("（另一组 1.9%）", "1.9%", "%", None),
        ("准确率很高。另一组 95%", "95%", "%", None),
        ("吞吐 1,918 ms 和 7 ms", "7 ms", "ms", None),  # the phrase belongs to the other number
        ("Kimi K3 2.8T MoE", "2.8T", None, None),
        ("1109 tokens/sec 13M", "13M", None, None),  # tokens/sec is 1109's unit
        ("acceptance rate 95%", "95%", "%", "acceptance_rate"),  # acc (accuracy) only as a word
        ("accessor cache hit 95%", "95%", "%", None),
        ("HNSW 95%", "95%", "%", None),
    ],
)
def test_metric_at(text: str, number: str, unit: str | None, expected: str | None) -> None:
    assert _at(text, number, unit) == expected


@pytest.mark.parametrize(
    ("text", "number", "expected"),
    [
        ("inter-token latency 25 ms", "25 ms", "tpot"),  # longest phrase, not "latency"
        ("首 token 延迟 120 ms", "120 ms", "ttft"),  # not 延迟
        ("首token延迟 120 ms", "120 ms", "ttft"),  # spaces in a CJK phrase are optional
        ("吞吐量 383 tok/s", "383 tok/s", "throughput"),
        ("尾延迟 25 ms", "25 ms", "latency"),
        ("ttft 25 ms", "25 ms", "ttft"),  # case-insensitive
        ("ＴＴＦＴ　２５ ms", "２５ ms", "ttft"),  # full-width
        ("HN points 419", "419", "votes"),
    ],
)
def test_metric_at_phrase_matching(text: str, number: str, expected: str) -> None:
    assert _at(text, number, None) == expected


def test_before_wins_over_after() -> None:
    assert _at("吞吐 2.03× 加速", "2.03×", "×") == "throughput"


def test_extra_phrases_extend_and_create() -> None:
    vocab = MetricVocab({"ci_job_minutes": ["CI 分钟"], "energy": ["功耗", "energy"]})
    assert _at("CI 分钟 1,300 万", "1,300 万", None, vocab) == "ci_job_minutes"
    assert _at("功耗降低 20%", "20%", "%", vocab) == "energy"
    assert _at("20% energy", "20%", "%", vocab) == "energy"
    assert "功耗" in vocab.phrases["energy"]
    assert vocab.phrases["ci_job_minutes"][-1] == "CI 分钟"
    # the builtins still work, the default vocabulary is untouched
    assert _at("TTFT 25 ms", "25 ms", "ms", vocab) == "ttft"
    assert DEFAULT_VOCAB.phrase_metric("功耗") is None


def test_extra_phrase_moves_a_builtin() -> None:
    vocab = MetricVocab({"token_rate": ["TPS"]})
    assert vocab.phrase_metric("tps") == "token_rate"
    assert _at("vLLM 2.5K TPS", "2.5K TPS", "tok/s", vocab) == "token_rate"


@pytest.mark.parametrize(
    "extra",
    [{"": ["x"]}, {"k": "abc"}, {"k": [""]}, {"k": ["  "]}, {"k": [3]}],
)
def test_bad_extra_raises(extra: dict) -> None:
    with pytest.raises(ValueError, match="metrics"):
        MetricVocab(extra)


@pytest.mark.parametrize(("start", "end"), [(-1, 2), (3, 2), (0, 99)])
def test_metric_at_bad_span(start: int, end: int) -> None:
    with pytest.raises(ValueError, match="bad span"):
        DEFAULT_VOCAB.metric_at("TTFT 25 ms", start, end, None)


def test_metric_at_long_text_uses_a_window() -> None:
    text = "吞吐 " + "x" * 10_000 + "，TTFT 25 ms" + "y" * 10_000
    assert _at(text, "25 ms", "ms") == "ttft"


def test_pattern_is_one_regex_built_once() -> None:
    vocab = MetricVocab()
    assert vocab.pattern is vocab.pattern
    found = [m.group() for m in vocab.pattern.finditer(lower_same_length("the inter-token latency and ttft"))]
    assert found == ["inter-token latency", "ttft"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("４２％", "42%"),
        ("１，３００万", "1,300万"),
        ("−67.6", "-67.6"),
        ("（另一组 1.9ｘ）：", "(另一组 1.9x):"),
        ("73.6%–77.1%", "73.6%–77.1%"),  # en dash kept: a range, never a minus
        ("ascii only", "ascii only"),
    ],
)
def test_normalise(text: str, expected: str) -> None:
    assert normalise(text) == expected
    assert len(normalise(text)) == len(text)


def test_lower_same_length() -> None:
    assert lower_same_length("TTFT İx") == "ttft İx"
    assert len(lower_same_length("İİ")) == 2


def test_phrase_after_a_model_name_is_not_tied_to_it() -> None:
    from kb.extract.quantities import find_quantities

    qs = find_quantities("Llama-3.1-8B 并发 32 吞吐 | 1,460 tok/s")
    assert [(q.raw, q.metric) for q in qs] == [("32", "concurrency"), ("1,460 tok/s", "throughput")]


@pytest.mark.parametrize(
    ("text", "number", "unit", "expected"),
    [
        # issue 8: metrics only from words that name them
        ("2.4×", "2.4×", "×", None),
        ("SGLang 比 vLLM 快 2.4×", "2.4×", "×", None),
        ("410x KV cache compression", "410x", "×", "compression_ratio"),
        ("模型小了 60 倍", "60 倍", "×", "size_ratio"),
        ("调用次数减少 7 倍", "7 倍", "×", "call_count_ratio"),
        ("7× fewer calls", "7×", "×", "call_count_ratio"),
        ("写放大 1.8×", "1.8×", "×", "write_amplification"),
        ("错误率下降 30%", "30%", "%", "error_rate"),
        ("p99 延迟 30 ms，错误率 0.5%", "0.5%", "%", "error_rate"),
        ("error rate 2% and latency 30 ms", "2%", "%", "error_rate"),
        # speculative decoding: a draft's acceptance is no accuracy (a fresh KB's tester)
        ("EAGLE-3 keeps the acceptance rate above 80%", "80%", "%", "acceptance_rate"),
        ("接受率 85%，准确率 71.2%", "85%", "%", "acceptance_rate"),
        ("接受长度 3.1 → 4.4", "3.1", None, "acceptance_length"),
        ("提交 3 个 PR", "3 个", "个", None),  # 提交 alone is "submit"
        ("1.78× faster inference", "1.78×", "×", "speedup"),
        ("吞吐提升 2.03×", "2.03×", "×", "throughput"),
    ],
)
def test_metrics_only_from_words(text: str, number: str, unit: str | None, expected: str | None) -> None:
    assert _at(text, number, unit) == expected


# -- set-up sizes (issue 8) ---------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "number", "unit", "expected"),
    [
        # a size next to a set-up phrase is that size, whatever result phrase is near it
        ("TurboKV 把 Llama-3.1-8B 128K 上下文的 KV 显存从 16.4 GB 降到 4.1 GB", "128K", None, "context_length"),
        ("LMCache 在 32K 上下文下 TTFT 为 380 ms", "32K", None, "context_length"),
        ("TTFT 在 32K 上下文下为 0.5 s", "32K", None, "context_length"),  # before: TTFT, yet a context
        # the result beyond a set-up size still takes the phrase: a size is a condition, not another figure
        ("TTFT 在 32K 上下文下为 0.5 s", "0.5 s", "s", "ttft"),
        ("TTFT at 32K context is 0.5 s", "0.5 s", "s", "ttft"),
        ("吞吐 在 8 张卡 上为 1,200 tok/s", "1,200 tok/s", "tok/s", "throughput"),
        ("TTFT 为 32 ms 和 0.5 s", "0.5 s", "s", None),  # another figure between: no metric by the clause rule
        ("KVQuant needs 37.25 GiB of KV memory for 1M context", "1M", None, "context_length"),
        ("serves 1M tokens of context", "1M tokens", "tokens", "context_length"),
        ("with a 32K-token context window", "32K", None, "context_length"),
        ("在 32K 以内上下文几乎无损", "32K", None, "context_length"),
        ("上下文 32K 以内精度无损", "32K", None, "context_length"),
        ("2-bit KV 量化在 8B 级模型上精度损失可控", "8B", None, "params"),
        ("2-bit 在 70B 以上模型是否仍然无损", "70B", None, "params"),
        ("运行 235B 参数的 MoE", "235B", None, "params"),
        ("8 张卡上吞吐 3,000 tok/s", "8 张", "张", "gpu_count"),
        ("共 3 个模型", "3 个", "个", None),  # a count of models, not a model size (no magnitude)
        # set-up phrases name no ratio, percentage or unit's value, and never by the clause rule
        ("Medusa 在 32K 以内的上下文里 2.4×", "2.4×", "×", None),
        ("长上下文 TTFT 降低 41%", "41%", "%", "ttft"),
        ("模型吞吐 2×", "2×", "×", "throughput"),
        ("KV 显存从 16.4 GB", "16.4 GB", "B", "memory"),
        ("the 8B model is 2.1× faster", "2.1×", "×", "speedup"),
    ],
)
def test_setup_sizes(text: str, number: str, unit: str | None, expected: str | None) -> None:
    assert _at(text, number, unit) == expected


def test_setup_metrics_and_tokens() -> None:
    from kb.extract.metrics import SETUP_METRICS, SIZE_METRICS
    from kb.extract.qualifiers import setup_token

    assert SIZE_METRICS == {"params", "context_length", "batch_size", "gpu_count"}
    assert SETUP_METRICS == SIZE_METRICS | {"concurrency", "sim_length"}
    assert setup_token("context_length", 128000.0) == "ctx128k"
    assert setup_token("context_length", 32000.0, bound="≤") == "ctx≤32k"
    assert setup_token("params", 8e9) == "params8b"
    assert setup_token("context_length", 1e6) == "ctx1m"
    assert setup_token("batch_size", 32.0) == "batch32"  # what the qualifier reads from "batch 32"
    assert setup_token("params", None, 4e8, 8e9) == "params400m-8b"
    assert setup_token("memory", 16.4e9) is None
    assert setup_token("context_length", None) is None


# -- table metric columns (issue 8) ------------------------------------------------------------

@pytest.mark.parametrize(
    ("header", "cells", "expected"),
    [
        (["对象", "指标", "数值", "来源"], ["TurboKV", "KV 显存", "16.4 GB → 4.1 GB", "arXiv:2611.04512"],
         ["memory", None, "memory", "memory"]),
        (["对象", "指标", "数值", "来源"], ["LMCache", "TTFT", "0.38 s（32K 上下文）", "https://lmcache.ai/blog"],
         ["ttft", None, "ttft", "ttft"]),
        (["System", "Metric", "Value"], ["vLLM", "throughput", "4,100"], ["throughput", None, "throughput"]),
        (["system", "MEASURE", "value"], ["vLLM", "TTFT", "120 ms"], ["ttft", None, "ttft"]),
        (["#", "Paper", "arXiv", "HF votes"], ["1", "TurboKV: 2-bit …", "2611.04512", "96"], [None, None, None, "votes"]),
        (["#", "arXiv", "标题（简写）", "方向", "HF 票"], ["3", "2607.26627", "Revisiting …", "inference", "118"],
         [None, None, None, None, "votes"]),
        # a header naming a metric wins over the row's metric column for its own column
        (["对象", "指标", "数值", "upvotes"], ["X", "TTFT", "0.4 s", "12"], ["ttft", None, "ttft", "votes"]),
        # a metric cell naming two metrics, or none, gives none
        (["对象", "指标", "数值"], ["X", "吞吐 / 延迟", "2×"], [None, None, None]),
        (["对象", "指标", "数值"], ["X", "见上文", "—"], [None, None, None]),
        # no metric column and no metric header: nothing; set-up and date headers are no metrics
        (["周次", "主题", "阅读"], ["第 1 周", "KV cache 基础", "PagedAttention、vLLM"], [None, None, None]),
        (["模型", "上下文", "发布"], ["Llama", "128K", "2026-03-21"], [None, None, None]),
        ([], ["a", "b"], [None, None]),
    ],
)
def test_table_metrics(header: list[str], cells: list[str], expected: list[str | None]) -> None:
    assert DEFAULT_VOCAB.table_metrics(header, cells) == expected
