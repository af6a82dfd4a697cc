"""Numbers as people write them (fourth wave): a bound word between a direction verb and its
number, ranges opened by a word, binary byte prefixes, a simulation's length, lists that share a
bound written after their last value, metric words paired with values by 分别/respectively, a
change written with a rate on both ends. Fresh wording, exact values.

Each row: text -> [(raw, value or (low, high), unit, bound, metric, transition)].
"""

from __future__ import annotations

import pytest

from kb.extract.quantities import find_quantities
from test_numbers_forms import _read  # the one row reader of the number tests


@pytest.mark.parametrize(("text", "expected"), [
    # the direction verb gives the sign, the bound word the bound, the metric word still binds
    ("On GSM8K the pass rate falls by under 2% with the new kernel.",  # pass rate: no metric word of kb's
     [("2%", -2.0, "%", "<", None, None)]),
    ("With INT3 weights its accuracy slips, it drops by under 2% on ARC.",
     [("2%", -2.0, "%", "<", None, None)]),
    ("Its accuracy drops by under 2% on ARC.", [("2%", -2.0, "%", "<", "accuracy", None)]),
    ("Decode latency fell by less than 4% after the patch.", [("4%", -4.0, "%", "<", "latency", None)]),
    ("量化后 KV 显存降低逾 45%。", [("45%", -45.0, "%", ">", "memory", None)]),
    ("新内核让首 token 延迟下降不到 3%。", [("3%", -3.0, "%", "<", "ttft", None)]),
    ("吞吐下降超 12%。", [("12%", -12.0, "%", ">", "throughput", None)]),
    ("latency declined 7% week over week", [("7%", -7.0, "%", None, "latency", None)]),
    ("上线后吞吐下滑 6%，延迟回落了 11%",
     [("6%", -6.0, "%", None, "throughput", None), ("11%", -11.0, "%", None, "latency", None)]),
    ("准确率跌了 1.5%", [("1.5%", -1.5, "%", None, "accuracy", None)]),
    ("延迟降 35%", [("35%", -35.0, "%", None, "latency", None)]),
    ("延迟的升降 4% 以内", [("4%", 4.0, "%", "≤", "latency", None)]),  # 升降: a swing, no decrease
    ("exact-match accuracy degrades by less than 0.4% at W4", [("0.4%", -0.4, "%", "<", "accuracy", None)]),
    # a saving is a decrease of what is saved
    ("新调度让显存节省了近 35%", [("35%", -35.0, "%", "~", "memory", None)]),
    ("the fused kernel saves 18% of GPU memory", [("18%", -18.0, "%", None, "memory", None)]),
    ("a 12% saving in serving cost", [("12%", -12.0, "%", None, "cost", None)]),
    # a level word without "by" names the level reached, not the change
    ("Its accuracy falls below 85% at INT2.", [("85%", 85.0, "%", "<", "accuracy", None)]),
])
def test_bound_between_verb_and_number(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("The p90 TTFT of the staging pool hovers between 120 and 180 ms.",
     [("120 and 180 ms", (0.12, 0.18), "s", None, "ttft", None)]),
    ("between 3 GB and 5 GB of memory per replica", [("3 GB and 5 GB", (3e9, 5e9), "B", None, "memory", None)]),
    ("单卡功耗介于 300 和 350 W 之间", [("300 和 350 W", (300.0, 350.0), "W", None, None, None)]),
    ("TPOT 在 18 到 24 ms 之间波动", [("18 到 24 ms", (0.018, 0.024), "s", None, "tpot", None)]),
    ("decode speedup between 1.2 and 1.7x on every board", [("1.2 and 1.7x", (1.2, 1.7), "×", None, "speedup", None)]),
    ("吞吐介于 4 千和 6 千 tok/s 之间", [("4 千和 6 千 tok/s", (4000.0, 6000.0), "tok/s", None, "throughput", None)]),
    # a decrease word before the range makes both ends negative
    ("prefill latency drops by between 15% and 25%", [("15% and 25%", (-25.0, -15.0), "%", None, "latency", None)]),
    ("显存降低介于 30% 和 40% 之间", [("30% 和 40%", (-40.0, -30.0), "%", None, "memory", None)]),
    # no unit, or units that differ, or 在 with no 之间: no range
    ("between 2019 and 2022 the team grew", []),
    ("we ran between 4 and 8 replicas", []),
    ("在 3 和 5 之间选一个", []),
])
def test_ranges_opened_by_a_word(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("调度器的 scratch 显存为 48 MiB", [("48 MiB", 48 * 2.0 ** 20, "B", None, "memory", None)]),
    ("memory of 48MiB", [("48MiB", 48 * 2.0 ** 20, "B", None, "memory", None)]),
    ("memory of 3 mebibytes", [("3 mebibytes", 3 * 2.0 ** 20, "B", None, "memory", None)]),
    ("显存 256 KiB", [("256 KiB", 262144.0, "B", None, "memory", None)]),
    ("显存 3 TiB", [("3 TiB", 3298534883328.0, "B", None, "memory", None)]),
    ("显存 96 兆字节", [("96 兆字节", 9.6e7, "B", None, "memory", None)]),
])
def test_binary_byte_prefixes(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a simulation word right beside the time beats the clause's other metric word
    ("团队在 6 周的仿真里回放了全部请求流量。", [("6 周", 3628800.0, "s", None, "sim_length", None)]),
    ("回放流量的模拟 10 天", [("10 天", 864000.0, "s", None, "sim_length", None)]),
    ("They replayed live traffic in a 5-week simulation.", [("5-week", 3024000.0, "s", None, "sim_length", None)]),
    ("a 2-day outage of the cluster", []),  # a hyphenated time is read only before a simulation word
])
def test_simulation_length(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a device count in zh numerals, and a consumer card named by its number alone
    ("复现用了两张 L40S", [("两张", 2.0, "devices", None, "gpu_count", None)]),
    ("在 6 块 3090 上跑通", [("6 块", 6.0, "devices", None, "gpu_count", None)]),
    # a plain integer before an accelerator's model, not before its nodes
    ("TPOT 31 ms on 4 L40S GPUs", [("31 ms", 0.031, "s", None, "tpot", None), ("4", 4.0, "devices", None, "gpu_count", None)]),
    ("the run used 2 A100 nodes", []),
    # a numeral before a counter with no accelerator is no figure
    ("三张图说明了问题", []),
    ("值得读的是两张卡：402 和 417", []),  # 两张卡: paper cards, no device count
])
def test_device_counts(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a bound after the last value bounds every value of the list
    ("两个模型的准确率分别保持在 92% 和 88% 以上",
     [("92%", 92.0, "%", "≥", "accuracy", None), ("88%", 88.0, "%", "≥", "accuracy", None)]),
    ("显存 6 GB、9 GB 和 14 GB 左右",
     [("6 GB", 6e9, "B", "~", "memory", None), ("9 GB", 9e9, "B", "~", "memory", None),
      ("14 GB", 1.4e10, "B", "~", "memory", None)]),
    # 分别 / respectively pair the metric words with the values, in order
    ("TTFT 和 TPOT 分别控制在 250 ms 和 30 ms 以内",
     [("250 ms", 0.25, "s", "≤", "ttft", None), ("30 ms", 0.03, "s", "≤", "tpot", None)]),
    ("TTFT and throughput are 0.4 s and 900 tok/s, respectively",
     [("0.4 s", 0.4, "s", None, "ttft", None), ("900 tok/s", 900.0, "tok/s", None, "throughput", None)]),
    # one metric word for the list: every value is its own
    ("TPOT 分别下降 9% 和 4%", [("9%", -9.0, "%", None, "tpot", None), ("4%", -4.0, "%", None, "tpot", None)]),
    # a bound before the first value governs the list
    ("speed-ups of at least 2.5× and 1.8× on two boards",
     [("2.5×", 2.5, "×", "≥", "speedup", None), ("1.8×", 1.8, "×", "≥", "speedup", None)]),
])
def test_lists_share_bounds_and_pair_metrics(text: str, expected: list) -> None:
    assert _read(text) == expected


def test_rate_on_both_ends_is_a_change_after_from() -> None:
    """``from $A per X to $B per X`` is a change A → B; without from it stays one range."""
    got = [(q.value, q.low, q.high, q.unit, q.transition)
           for q in find_quantities("spot rent climbed from $0.9 per GPU-hour to $1.4 per GPU-hour")]
    assert got == [(0.9, None, None, "$", "from"), (1.4, None, None, "$", "to")]
    got = [(q.value, q.low, q.high, q.unit, q.transition)
           for q in find_quantities("spot rent is $0.9 per GPU-hour to $1.4 per GPU-hour")]
    assert got == [(None, 0.9, 1.4, "$", None)]


@pytest.mark.parametrize("text", ["一些团队统一了配置", "两岸的一般做法", "四川的机房"])
def test_words_with_numeral_characters_give_none(text: str) -> None:
    assert find_quantities(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("prefill is 4-fold faster with the fused kernel", [("4-fold", 4.0, "×", None, "speedup", None)]),
    ("a 1.8 fold gain in throughput", [("1.8 fold", 1.8, "×", None, "throughput", None)]),
    # a ratio verb beside its metric word is that ratio; a verb with no metric word, an adjective, none
    ("Decode throughput roughly doubled after the upgrade.", [("doubled", 2.0, "×", "~", "throughput", None)]),
    ("Peak memory tripled on the long prompts.", [("tripled", 3.0, "×", None, "memory", None)]),
    ("The reading group doubled in size.", []),
    ("double precision accuracy holds", []),
])
def test_ratio_words(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a change verb with 到 joins a change; a set-up word before 从 gives both ends its metric
    ("批量上下文从 16K 延长到 64K", [("16K", 16000.0, None, None, "context_length", "from"),
                                 ("64K", 64000.0, None, None, "context_length", "to")]),
    # 改为 / 调整为 / 下调到: a change as a changelog writes it
    ("§3.2 预填吞吐由 1.8× 改为 2.2×", [("1.8×", 1.8, "×", None, "throughput", "from"),
                                    ("2.2×", 2.2, "×", None, "throughput", "to")]),
    ("解码吞吐由 1.2× 调成 1.5×", [("1.2×", 1.2, "×", None, "throughput", "from"),
                               ("1.5×", 1.5, "×", None, "throughput", "to")]),
    ("TTFT 目标由 800 ms 调整为 500 ms", [("800 ms", 0.8, "s", None, "ttft", "from"),
                                    ("500 ms", 0.5, "s", None, "ttft", "to")]),
    ("TTFT 从 900 ms 下调到 600 ms", [("900 ms", 0.9, "s", None, "ttft", "from"),
                                     ("600 ms", 0.6, "s", None, "ttft", "to")]),
    ("TPOT 由 42 ms 回落到 35 ms", [("42 ms", 0.042, "s", None, "tpot", "from"), ("35 ms", 0.035, "s", None, "tpot", "to")]),
    ("the M3 box decodes at 38 tok/sec", [("38 tok/sec", 38.0, "tok/s", None, "throughput", None)]),
    ("about 2.4k tokens/second per replica", [("2.4k tokens/second", 2400.0, "tok/s", "~", "throughput", None)]),
    # 每秒 before a token count makes it a rate
    ("解码吞吐稳定在每秒 1,450 个 token", [("1,450 个 token", 1450.0, "tok/s", None, "throughput", None)]),
    ("一次请求生成了 1,450 个 token", [("1,450 个 token", 1450.0, "tokens", None, None, None)]),
])
def test_changes_and_rates_in_words(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a range word before from A to B keeps it one range, a unit on both ends or not
    ("speedups ranging from 1.4x to 2.6x across models", [("1.4x to 2.6x", (1.4, 2.6), "×", None, "speedup", None)]),
    ("TTFT varies from 90 ms to 140 ms by prompt", [("90 ms to 140 ms", (0.09, 0.14), "s", None, "ttft", None)]),
    ("TTFT fell from 90 ms to 70 ms", [("90 ms", 0.09, "s", None, "ttft", "from"), ("70 ms", 0.07, "s", None, "ttft", "to")]),
    # false units: pct is percent, pts and fps are no pint units (pints, feet per second)
    ("p99 latency is 9 pct lower", [("9 pct", -9.0, "%", None, "latency", None)]),
    ("accuracy fell 3 pts on GSM8K", [("3", 3.0, None, None, "accuracy", None)]),
    ("the demo renders at 24 fps", []),
])
def test_range_words_and_false_units(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("命中后吞吐提升 4 成", [("4 成", 40.0, "%", None, "throughput", None)]),
    ("团队里有 2 成员请假", []),  # 成员 is a word, not 20 %
])
def test_tenths_with_a_space(text: str, expected: list) -> None:
    assert _read(text) == expected
