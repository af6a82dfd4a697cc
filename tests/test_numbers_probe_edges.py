"""The edges of the number forms read since a public recogniser suite's probe, where a breaker found
values not in the text: a spaced magnitude letter that is a label's (``图 3 B``, ``3 B-tree``, ``3 B vs
5 A``), ``a second`` that is no rate (``a second time``), a rate word after a rate, the rest after
万/亿/千 that is none (``2.5千5``, ``3千5万``, ``1万2020年``), a range's dash after a numeral read as a
minus, a decimal with spaces round its point (``6 . 2 %``), and a currency sign set apart before a formula or a year.

Each row: text -> [(raw, value, low, high, unit, metric, bound)], in text order.
"""

from __future__ import annotations

import pytest

from kb.extract.quantities import find_quantities


def _read(text: str) -> list[tuple]:
    return [(q.raw, q.value, q.low, q.high, q.unit, q.metric, q.bound) for q in find_quantities(text)]


@pytest.mark.parametrize(("text", "read"), [
    # a spaced magnitude letter: a size only with a size word after it, or its metric word before it
    # and nothing of the clause after it
    ("图 3 B 吞吐", []),
    ("Figure 3 B throughput", []),
    ("吞吐 3 B 组", [("3", 3.0, None, None, None, "throughput", None)]),
    ("A/B test: throughput 3 B vs 5 A", [("3", 3.0, None, None, None, "throughput", None)]),
    ("throughput 1 B-tree lookups", [("1", 1.0, None, None, None, "throughput", None)]),
    ("TTFT 为 120 B / ms", [("120", 120.0, None, None, None, "ttft", None)]),
    ("吞吐 1.2 K。", [("1.2 K", 1200.0, None, None, None, "throughput", None)]),
    ("cost 1.2 M, latency 3 ms", [("1.2 M", 1200000.0, None, None, None, "cost", None),
                                  ("3 ms", 0.003, None, None, "s", "latency", None)]),
    ("8 K context", [("8 K", 8000.0, None, None, None, "context_length", None)]),
    # a time after a rate word that is no denominator; a rate word after a rate
    ("we freed 2 GB a second time", [("2 GB", 2e9, None, None, "B", None, None)]),
    ("We sent 200 tokens a second later", [("200 tokens", 200.0, None, None, "tokens", None, None)]),
    ("3 GB per hour-long run", [("3 GB", 3e9, None, None, "B", None, None)]),
    ("memory grows 3 GB/s per second", [("3 GB/s", 3e9, None, None, "B/s", "memory", None)]),
    ("throughput 3 Gbps a second", [("3 Gbps", 375000000.0, None, None, "B/s", "throughput", None)]),
    ("500 queries a second on H100", [("500 queries a second", 500.0, None, None, "req/s", None, None)]),
    # digits after a magnitude that are no rest of it: none, never the part before them
    ("吞吐 2.5千5", []), ("吞吐 1.2万3 tok/s", []), ("吞吐 3千5万", []), ("1千2万 tokens", []),
    ("1千3 万", []), ("价格 1万2020年", []),
    ("吞吐 3千5 tok/s", [("3千5 tok/s", 3500.0, None, None, "tok/s", "throughput", None)]),
    # a dash after a numeral is a range's, never a minus
    ("吞吐 100万三千-100万五千 tok/s", [("100万三千", 1003000.0, None, None, None, "throughput", None),
                                      ("100万五千 tok/s", 1005000.0, None, None, "tok/s", "throughput", None)]),
    ("增长-5%", [("-5%", -5.0, None, None, "%", None, None)]),
    # a decimal with spaces round its point (tokenised text): no number, never its last part alone
    ("sales rose 6 . 2 % to $ 1.45 billion .", [("$ 1.45 billion", 1.45e9, None, None, "$", "cost", None)]),
    ("latency 14 . 8 ms", []), ("throughput 1 . 6 k tok/s", []),
    ("it rose 6 %. 2 engines", [("6 %", 6.0, None, None, "%", None, None)]),
    # a currency sign set apart: not before a formula's number or a year
    ("where $ 3 < x $", []), ("$ 2 \\times 10^6 $ tokens", []), ("cost in $ 2024 prices", []),
    ("成本 $ 0.8，收入 $ 1.2", [("$ 0.8", 0.8, None, None, "$", "cost", None), ("$ 1.2", 1.2, None, None, "$", "cost", None)]),
])
def test_an_edge_of_a_new_form_reads_only_what_is_written(text: str, read: list[tuple]) -> None:
    assert _read(text) == read


def test_a_spaced_decimal_before_a_unit_is_warned_as_unread() -> None:
    from kb.extract.unread import unread_numbers

    assert unread_numbers("latency 14 . 8 ms", False) == [
        (8, 14, "is a run of numbers set apart by spaces (which one is the figure?)")]
