"""Numbers as people write them (fifth wave): forms kb read wrongly or dropped without a word. Two
powers of ten in a chain, a unit per a unit of one kind (a time per time), a run of plain numbers
set apart by spaces, a time and a half in zh, binary and octal, two magnitude letters, a signed
number in brackets before a percentage, an integer no float holds; and forms already read, pinned
with exact values (grouping spaces, Arabic-Indic digits, vulgar fractions, a version).

Each row: text -> [(raw, value or (low, high), unit, bound, metric, transition)] and the warnings
the parser gives (text of the span, why).
"""

from __future__ import annotations

import pytest

from kb.extract.numbers import number_runs, per_unit
from kb.extract.unread import unread_numbers
from test_numbers_forms import _read  # the one row reader of the number tests

_RUN = "is a run of numbers set apart by spaces (which one is the figure?)"
_PER = "has a unit per a unit that kb does not read (h/s: a time per time is no time)"


def _warned(text: str) -> list[tuple[str, str]]:
    return [(text[a:b], why) for a, b, why in unread_numbers(text)]


@pytest.mark.parametrize(("text", "read", "warned"), [
    # two powers of ten in a chain: neither 1.2e3 × nor 1e3 tok/s, and said
    ("Numbat throughput 1.2 × 10^3 × 10^3 tok/s", [],
     [("1.2 × 10^3 × 10^3", "has more than one power of ten (1.2×10^3×10^3: kb reads one)")]),
    ("Numbat throughput 10^3×10^3 tok/s", [], [("10^3×10^3", "has more than one power of ten (1.2×10^3×10^3: kb reads one)")]),
    ("Numbat throughput 1.2 × 10^3 tok/s", [("1.2 × 10^3 tok/s", 1200.0, "tok/s", None, "throughput", None)], []),
    # a time per time is no time: no 10,800 s
    ("Numbat ttft 3 h/s", [], [("3 h/s", _PER)]),
    ("Numbat 首 token 延迟 3 小时/秒", [], [("3 小时/秒", _PER)]),
    ("Numbat uptime 7 h/day, decode 5 ms/GB", [], [("7 h/day", _PER), ("5 ms/GB", _PER)]),
    ("Numbat latency 2-4 min/h", [], [("4 min/h", _PER)]),
    # a unit per a unit that is one: its canonical unit; per a noun: the number's own unit
    ("Numbat throughput 3.6 GB/h", [("3.6 GB/h", 1000000.0, "B/s", None, "throughput", None)], []),
    ("Numbat TPOT 25 ms/token", [("25 ms", 0.025, "s", None, "tpot", None)], []),
    # a run of plain numbers set apart by spaces is no number
    ("Numbat throughput 1 2 3 tok/s", [], [("1 2 3", _RUN)]),
    ("Numbat throughput 40 50 60", [], []),
    ("Numbat on RTX 4090 24 GB", [("24 GB", 24000000000.0, "B", None, None, None)], []),  # two: read one by one
    ("Numbat throughput 1 000 000 tok/s", [("1 000 000 tok/s", 1000000.0, "tok/s", None, "throughput", None)], []),
    ("Numbat throughput 1\u202f000\u202f000 tok/s",
     [("1\u202f000\u202f000 tok/s", 1000000.0, "tok/s", None, "throughput", None)], []),
    ("Numbat throughput 2\u00a0500\u00a0000 tok/s",
     [("2\u00a0500\u00a0000 tok/s", 2500000.0, "tok/s", None, "throughput", None)], []),
    # binary, octal, hexadecimal before a unit: said; alone an identifier (no number, no warning)
    ("Numbat throughput 0b101 tok/s", [], [("0b101", "is binary")]),
    ("Numbat throughput 0o17 tok/s", [], [("0o17", "is octal")]),
    ("Numbat throughput 0x1F tok/s", [], [("0x1F", "is hexadecimal")]),
    ("Numbat flag 0x1F and mask 0b101", [], []),
    # two magnitude letters: a thousand thousands? said, with or without a unit
    ("Numbat throughput 1.5kk tok/s", [], [("1.5kk", "has two magnitudes (1.2万k, 1.5kk)")]),
    ("Numbat raised $2MM", [], [("2MM", "has two magnitudes (1.2万k, 1.5kk)")]),
    ("Numbat KV cache 2KB per token", [("2KB", 2000.0, "B", None, None, None)], []),  # KB is a unit, no magnitudes
    # a sign written inside brackets: no accountant's negative, the number as signed
    ("Numbat 吞吐下降 (−3.5)%", [("(−3.5)%", -3.5, "%", None, "throughput", None)], []),
    ("Numbat accuracy (+0.8)%", [("(+0.8)%", 0.8, "%", None, "accuracy", None)], []),
    ("Numbat accuracy (3.5)%", [],
     [("(3.5)%", "is in brackets before a percentage or a currency (a negative, as accountants write one?)")]),
    # an integer of 400 digits: no float holds it, said
    ("Numbat throughput " + "7" * 400 + " tok/s", [], [("7" * 400, "is out of range")]),
    ("Numbat throughput " + "7" * 300 + " tok/s", [("7" * 300 + " tok/s", 7.777777777777778e299, "tok/s", None, "throughput", None)], []),
    # underscores before a unit said; Arabic-Indic digits and vulgar fractions read; a version none
    ("Numbat throughput 1_000_000 tok/s", [], [("1_000_000", "is grouped with underscores")]),
    ("Numbat latency ٣٫٥ ms", [("٣٫٥ ms", 0.0035, "s", None, "latency", None)], []),
    ("Numbat latency 3½ ms", [("3½ ms", 0.0035, "s", None, "latency", None)], []),
    ("Numbat latency ½ and ttft 2 s", [("2 s", 2.0, "s", None, "ttft", None)], []),
    ("Numbat 1.2.3 shipped", [], []),
])
def test_forms_read_or_said(text: str, read: list, warned: list) -> None:
    assert _read(text) == read
    assert _warned(text) == warned


@pytest.mark.parametrize(("text", "expected"), [
    ("训练耗时1个半小时", [("1个半小时", 5400.0, "s", None, None, None)]),
    ("TTFT 一个半小时", [("一个半小时", 5400.0, "s", None, "ttft", None)]),
    ("项目用了两个半月", [("两个半月", 6574500.0, "s", None, None, None)]),  # a month: 1/12 of a Julian year
    ("集群训练了一年半", [("一年半", 47336400.0, "s", None, None, None)]),
    ("压测跑了三天半", [("三天半", 302400.0, "s", None, None, None)]),
    ("模拟 2年半 的负载", [("2年半", 78894000.0, "s", None, "sim_length", None)]),
    # a point in time, a schedule, an idiom: no duration
    ("三天半后上线", []),
    ("每两个半小时发一次", []),
    ("一年半载都没更新", []),
    # words holding numeral characters: nothing
    ("一些团队统一用一般配置，两岸四川万一出问题", []),
    ("减少了一半的请求和一半的请求", [("一半", -50.0, "%", None, None, None)]),
])
def test_a_time_and_a_half_in_zh(text: str, expected: list) -> None:
    assert _read(text) == expected


def test_runs_and_per_units_are_one_place_each() -> None:
    assert number_runs("a 1 2 3 b 4 5 c 6 000 000") == [(2, 7)]
    assert number_runs("1 1/2 hours, v 1 2 3.4.5") == []
    assert per_unit("3 h/s", 3, "h") == (None, 5)
    assert per_unit("3 ms/token", 4, "ms") is None
    got = per_unit("3 GB/h", 4, "GB")
    assert got is not None and got[0] is not None and (got[0].unit, got[0].apply(3.6), got[1]) == ("B/s", 1000000.0, 6)


def test_the_parser_says_each_new_unread_form_with_its_line() -> None:
    from kb.core.config import KbConfig
    from kb.read.parse import Parser

    text = ("Numbat ttft 3 h/s.\n\nNumbat throughput 1 2 3 tok/s.\n\nNumbat throughput 1.2×10^3×10^3 tok/s.\n\n"
            "Numbat 吞吐 1.5kk tok/s，训练耗时 1个半小时。\n")
    parsed = Parser(KbConfig()).parse_bytes("inbox/zoe/2026-08-02-forms.md", text.encode())
    assert [(p.line, p.message) for p in parsed.problems if p.code == "number-unread"] == [
        (1, f"number '3 h/s' {_PER}; no quantity"),
        (3, f"number '1 2 3' {_RUN}; no quantity"),
        (5, "number '1.2×10^3×10^3' has more than one power of ten (1.2×10^3×10^3: kb reads one); no quantity"),
        (7, "number '1.5kk' has two magnitudes (1.2万k, 1.5kk); no quantity")]
    assert [[(q.raw, q.value, q.unit) for q in c.quantities] for c in parsed.claims] == [[("1个半小时", 5400.0, "s")]]
