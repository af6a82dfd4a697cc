"""Numbers as reviewers and paper digests write them (issue 21, second wave): scores on the
writer's own scale, up-to words, decreases written after the number, model sizes before a model
word, batch sizes, change verbs ending in 为/至, a month cut short at a line's end. Fresh wording,
exact values.

Each row: text -> [(raw, value or (low, high), unit, bound, metric, transition)].
"""

from __future__ import annotations

import pytest

from test_numbers_forms import _read  # the one row reader of the number tests


@pytest.mark.parametrize(("text", "expected"), [
    # scores: a value on the writer's scale, no unit, no metric (docs/claims.md: no rating cue)
    ("可读性：3分。这篇", [("3分", 3.0, None, None, None, None)]),
    ("趣味性：3.5/5. 作者", [("3.5/5", 3.5, None, None, None, None)]),
    ("- **总体评分**: 7.25/10", [("7.25/10", 7.25, None, None, None, None)]),
    ("- 明细: 热度8 | 新颖性6", [("8", 8.0, None, None, None, None), ("6", 6.0, None, None, None, None)]),
    ("所以得分为 3.5 分", [("3.5 分", 3.5, None, None, None, None)]),
    ("可读性评分： 3", [("3", 3.0, None, None, None, None)]),
    ("新颖性：2.5分（方法", [("2.5分", 2.5, None, None, None, None)]),
    # up to, at most
    ("显存最多只增加了12%", [("12%", 12.0, "%", "≤", "memory", None)]),
    ("带宽高达 900 GB/s", [("900 GB/s", 9e11, "B/s", "≤", None, None)]),
    ("处理多达 32 帧的片段", [("32 帧", 32.0, "帧", "≤", None, None)]),
    ("吞吐高达每秒 300 个 token", [("300 个 token", 300.0, "tok/s", "≤", "throughput", None)]),
    ("it cuts TPOT by more than 25%", [("25%", -25.0, "%", ">", "tpot", None)]),
    # a decrease written after the number
    ("gives a 22% power reduction", [("22%", -22.0, "%", None, None, None)]),
    ("带来 15% 的显存降低", [("15%", -15.0, "%", None, "memory", None)]),
    # set-up sizes
    ("一个 13B 的大语言模型", [("13B", 1.3e10, None, None, "params", None)]),
    ("在 8B 规模的模型上", [("8B", 8e9, None, None, "params", None)]),
    ("包含30亿和90亿的参数", [("30亿", 3e9, None, None, "params", None), ("90亿", 9e9, None, None, "params", None)]),
    ("在 A100、batch 16 时", [("16", 16.0, None, None, "batch_size", None)]),
    ("batch size = 48", [("48", 48.0, None, None, "batch_size", None)]),
    # set-up sizes after a bracket or a highest-tested word; a name with a point keeps the clause
    ("批测的上下文长度（4k-32k）", [("4k-32k", (4000.0, 32000.0), None, None, "context_length", None)]),
    ("**上下文长度**：最高测试至 96K tokens。", [("96K tokens", 96000.0, "tokens", None, "context_length", None)]),
    ("参数规模（1.5B 到 14B）", [("1.5B 到 14B", (1.5e9, 1.4e10), None, None, "params", None)]),
    ("它的吞吐量比 `sglang.rt` 高出 12% 至 40%", [("12% 至 40%", (12.0, 40.0), "%", None, "throughput", None)]),
    ("reaches 2.1x throughput at 32 concurrent users",
     [("2.1x", 2.1, "×", None, "throughput", None), ("32", 32.0, None, None, "concurrency", None)]),
    # a metric word inside a Title-Cased paper name is no metric; a clock time is no quantity
    ("**Sparse Recall: Agent Memory Layers Scaling to 4M Tokens**", [("4M Tokens", 4e6, "tokens", None, None, None)]),
    ("After the 09:30 traffic spike, TTFT stays under 2.5 s",
     [("2.5 s", 2.5, "s", "<", "ttft", None)]),
    # a list's metric word given to every value; compression and size ratio words
    ("把日志压缩到原始大小的31.5%和12.5%，", [("31.5%", 31.5, "%", None, "compression_ratio", None),
                                    ("12.5%", 12.5, "%", None, "compression_ratio", None)]),
    ("做到了 3 倍的显存压缩", [("3 倍", 3.0, "×", None, "compression_ratio", None)]),
    ("gives 4x memory compression overall", [("4x", 4.0, "×", None, "compression_ratio", None)]),
    ("可与8倍大小的模型相比", [("8倍", 8.0, "×", None, "size_ratio", None)]),
    # metric words
    ("推理速度提高了3倍", [("3倍", 3.0, "×", None, "speedup", None)]),
    ("TTFT P99 为 1.2 s", [("1.2 s", 1.2, "s", None, "ttft", None)]),
    ("TPOT 的 P99 为 40 ms", [("40 ms", 0.04, "s", None, "tpot", None)]),
    # changes with a verb ending in 为/至, and to a bounded level
    ("首字延迟由 200 ms 更正为 180 ms", [("200 ms", 0.2, "s", None, "ttft", "from"),
                                     ("180 ms", 0.18, "s", None, "ttft", "to")]),
    ("把 8GB 缓存减小至 2GB", [("8GB", 8e9, "B", None, None, "from"), ("2GB", 2e9, "B", None, None, "to")]),
    ("latency went from 12.5 seconds to under 2 seconds",
     [("12.5 seconds", 12.5, "s", None, "latency", "from"), ("2 seconds", 2.0, "s", "<", "latency", "to")]),
])
def test_wave2_forms(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize("text", [
    "- **时间**: Wed, 4 Ma",  # a date cut short: no megayears
    "比例为 3/4",  # a fraction after 为 is no score of a scale
    "满分：7/5",  # above its scale
    "时间：10:30",
    "batch processing of 3 files",
    "全局编号：12",  # a bare number after a colon without a score word
])
def test_wave2_no_number(text: str) -> None:
    assert _read(text) == []
