"""zh number forms found by a probe on public test suites of number readers, that kb read as a
value not in the text or without its sign or bound: the place after 万/亿 (``1万2`` is 12,000),
traditional ``點`` and ``兩``, a list of shares in 成 written in numerals, a sign inside 百分之, a
grouped or magnitude number after 百分之, and a bound word before 了/有 (and ``最少``). Words that
hold numeral characters still give no number.

Each row: text -> [(raw, value, low, high, unit, metric, bound)], in text order.
"""

from __future__ import annotations

import pytest

from kb.extract.numbers import parse_number
from kb.extract.quantities import find_quantities


def _read(text: str) -> list[tuple]:
    return [(q.raw, q.value, q.low, q.high, q.unit, q.metric, q.bound) for q in find_quantities(text)]


@pytest.mark.parametrize(("text", "read"), [
    # a single digit after 万/亿 with no magnitude after it is the place below (一万二, 一亿二)
    ("吞吐 1万2 tok/s", [("1万2 tok/s", 12000.0, None, None, "tok/s", "throughput", None)]),
    ("2万4 个 token", [("2万4 个 token", 24000.0, None, None, "tokens", None, None)]),
    ("1亿2 tokens", [("1亿2 tokens", 120000000.0, None, None, "tokens", None, None)]),
    ("大约1万2千元", [("1万2千元", 12000.0, None, None, "¥", None, "~")]),
    # numerals after digits and a magnitude: the places below it (一百万三千)
    ("100万三千美元", [("100万三千美元", 1003000.0, None, None, "$", None, None)]),
    ("1亿两千万 tokens", [("1亿两千万 tokens", 120000000.0, None, None, "tokens", None, None)]),
    ("吞吐 1万零五百 tok/s", [("1万零五百 tok/s", 10500.0, None, None, "tok/s", "throughput", None)]),
    ("吞吐 3万零五 tok/s", [("3万零五 tok/s", 30005.0, None, None, "tok/s", "throughput", None)]),
    # as before: more digits, or a magnitude after them
    ("吞吐 3万4000 tok/s", [("3万4000 tok/s", 34000.0, None, None, "tok/s", "throughput", None)]),
    ("吞吐 25万6千 tok/s", [("25万6千 tok/s", 256000.0, None, None, "tok/s", "throughput", None)]),
    ("1亿5000万 tokens", [("1亿5000万 tokens", 150000000.0, None, None, "tokens", None, None)]),
    ("吞吐 3千5 tok/s", [("3千5 tok/s", 3500.0, None, None, "tok/s", "throughput", None)]),
    ("售价 5万一台", [("5万", 50000.0, None, None, None, None, None)]),  # 50,000 each, never 51,000
    # either end of a range: its place after 万/亿/千 (was 10,000–12,000 and a 5 tok/s not written)
    ("吞吐 1万2-1万5 tok/s", [("1万2-1万5 tok/s", None, 12000.0, 15000.0, "tok/s", "throughput", None)]),
    ("1万2到1万5 tok/s", [("1万2到1万5 tok/s", None, 12000.0, 15000.0, "tok/s", "throughput", None)]),
    ("3千5-4千 tok/s", [("3千5-4千 tok/s", None, 3500.0, 4000.0, "tok/s", "throughput", None)]),
    ("3千-4千5 tok/s", [("3千-4千5 tok/s", None, 3000.0, 4500.0, "tok/s", "throughput", None)]),
    ("3万4000-3万5000 tok/s", [("3万4000-3万5000 tok/s", None, 34000.0, 35000.0, "tok/s", "throughput", None)]),
    ("吞吐 3千5百 tok/s", [("3千5百 tok/s", 3500.0, None, None, "tok/s", "throughput", None)]),
    # a list of zh numerals each with its unit: every item (was the last alone: 和 after 美元 read as a word)
    ("成本降低五美元和三美元", [("五美元", 5.0, None, None, "$", "cost", None), ("三美元", 3.0, None, None, "$", "cost", None)]),
    ("五公里与三公里", [("五公里", 5000.0, None, None, "m", None, None), ("三公里", 3000.0, None, None, "m", None, None)]),
    ("三元和四元组", []),  # the last item is a word (四元组): no list, no figure
    ("五美元和他", []),
    # the rest of a number kb does not read is no number of its own (were 2 $, 123 $, 5 ×, 9.592e11 ¥)
    ("廿二美元", []), ("卅五美元", []), ("一百点123美元", []), ("提升3点5倍", []), ("四十九兆九千五百九十二億元", []),
    ("第一点 3 倍加速", [("3 倍", 3.0, None, None, "×", "speedup", None)]),  # 第一点, a space: the item's own
    ("成本从1万2降到9千5", [("1万2", 12000.0, None, None, None, "cost", None),
                          ("9千5", 9500.0, None, None, None, "cost", None)]),
    # traditional 點 (the point) and 兩 (two)
    ("快了三點五倍", [("三點五倍", 3.5, None, None, "×", None, None)]),
    ("快了三点五倍", [("三点五倍", 3.5, None, None, "×", None, None)]),
    ("百分之十二點五", [("百分之十二點五", 12.5, None, None, "%", None, None)]),
    ("百分之一百二十點五", [("百分之一百二十點五", 120.5, None, None, "%", None, None)]),
    ("吞吐提升兩倍", [("兩倍", 2.0, None, None, "×", "throughput", None)]),
    ("兩成", [("兩成", 20.0, None, None, "%", None, None)]),
    # a list of shares in 成: every value, and the decrease before the first
    ("TTFT 降低两成和三成", [("两成", -20.0, None, None, "%", "ttft", None), ("三成", -30.0, None, None, "%", "ttft", None)]),
    ("命中率七成和八成", [("七成", 70.0, None, None, "%", "hit_rate", None), ("八成", 80.0, None, None, "%", "hit_rate", None)]),
    ("命中率七成与八成", [("七成", 70.0, None, None, "%", "hit_rate", None), ("八成", 80.0, None, None, "%", "hit_rate", None)]),
    ("降低 3 成和 4 成", [("3 成", -30.0, None, None, "%", None, None), ("4 成", -40.0, None, None, "%", None, None)]),
    ("降低 7成和8成", [("7成", -70.0, None, None, "%", None, None), ("8成", -80.0, None, None, "%", None, None)]),
    ("七成、八成和九成的请求命中", [("七成", 70.0, None, None, "%", None, None), ("八成", 80.0, None, None, "%", None, None),
                          ("九成", 90.0, None, None, "%", None, None)]),
    # a sign with 百分之
    ("百分之负十", [("百分之负十", -10.0, None, None, "%", None, None)]),
    ("百分之-10.1", [("百分之-10.1", -10.1, None, None, "%", None, None)]),
    ("负百分之十", [("负百分之十", -10.0, None, None, "%", None, None)]),
    ("降低百分之负五", [("百分之负五", -5.0, None, None, "%", None, None)]),  # the sign written wins
    ("负百分之负十", []),  # two signs: a slip, no figure
    # a grouped or magnitude number after 百分之 stays a percentage
    ("吞吐提升百分之1,200", [("百分之1,200", 1200.0, None, None, "%", "throughput", None)]),
    ("吞吐提升百分之3.2k", [("百分之3.2k", 3200.0, None, None, "%", "throughput", None)]),
    ("吞吐提升百分之12,000.5", [("百分之12,000.5", 12000.5, None, None, "%", "throughput", None)]),
    ("吞吐提升百分之1200", [("百分之1200", 1200.0, None, None, "%", "throughput", None)]),
    # a bound word before 了/有 bounds as it does alone; 最少 is at least
    ("吞吐提升超过了 30%", [("30%", 30.0, None, None, "%", "throughput", ">")]),
    ("吞吐提升超过 30%", [("30%", 30.0, None, None, "%", "throughput", ">")]),
    ("超过了 1000 tok/s", [("1000 tok/s", 1000.0, None, None, "tok/s", "throughput", ">")]),
    ("至少有 8 张 A100", [("8 张", 8.0, None, None, "devices", "gpu_count", "≥")]),
    ("至少 8 张 A100", [("8 张", 8.0, None, None, "devices", "gpu_count", "≥")]),
    ("显存占用最少 40 GB", [("40 GB", 4e10, None, None, "B", "memory", "≥")]),
    ("至少有三成", [("三成", 30.0, None, None, "%", None, "≥")]),
    ("约有 30% 的请求超时", [("30%", 30.0, None, None, "%", None, "~")]),
    ("有 30% 的请求", [("30%", 30.0, None, None, "%", None, None)]),  # 有 alone is no bound
    ("约了 3 个人", [("3 个", 3.0, None, None, "个", None, None)]),  # 约了: made a date, no bound
])
def test_a_zh_form_reads_the_value_written(text: str, read: list[tuple]) -> None:
    assert _read(text) == read


@pytest.mark.parametrize("text", [
    "一些", "统一", "一般", "两岸", "四川", "一点点", "两点钟", "兩岸", "一點點", "兩點鐘",
    "八成和他有关", "八成是他", "一成不变和十成不变",
])
def test_a_word_holding_numerals_gives_no_number(text: str) -> None:
    assert _read(text) == []


@pytest.mark.parametrize(("raw", "value"), [("三點五", 3.5), ("兩", 2.0), ("兩千", 2000.0), ("负三點五", -3.5)])
def test_parse_number_reads_the_traditional_point_and_two(raw: str, value: float) -> None:
    assert parse_number(raw) == value
