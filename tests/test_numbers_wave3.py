"""Numbers and the metric each binds to (third wave): a metric named elsewhere in the sentence,
headline words that are no metric, counted nouns, bracketed ranges and scores, exponents written
with a power of ten. Fresh wording, exact values.

Each row: text -> [(raw, value or (low, high), unit, bound, metric, transition)].
"""

from __future__ import annotations

import pytest

from test_numbers_forms import _read  # the one row reader of the number tests


@pytest.mark.parametrize(("text", "expected"), [
    # the one metric of the sentence, outside the number's clause
    ("Our canary ITL climbs with every replica added, roughly -4% per step.",
     [("-4%", -4.0, "%", "~", "tpot", None)]),
    ("The vendor blog quotes 90 ms TTFT on L40S, which is far from the 130 ms we measured.",
     [("90 ms", 0.09, "s", None, "ttft", None), ("130 ms", 0.13, "s", None, "ttft", None)]),
    # not: an unsigned percentage, another metric's number between, two metrics, another unit
    ("Our canary ITL climbs with every replica added, roughly 4% per step.", [("4%", 4.0, "%", "~", None, None)]),
    ("It gives 2.5x throughput at 30% lower power.",
     [("2.5x", 2.5, "×", None, "throughput", None), ("30%", -30.0, "%", None, None, None)]),
    ("TTFT and memory both move, the new build adds 12 ms.", [("12 ms", 0.012, "s", None, None, None)]),
])
def test_sentence_metric(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a Title-Cased headline: its capitalised words and a currency sign name no metric
    ("Startup Signs $40M Deal With Cloud Vendor", [("$40M", 4e7, "$", None, None, None)]),
    ("Layered Agent Memory: 7x Token Savings for Long Chats", [("7x", 7.0, "×", None, None, None)]),
    # but a label and its value, and a price in a sentence, keep theirs
    ("Memory: 7 GB per replica", [("7 GB", 7e9, "B", None, "memory", None)]),
    ("The hosted plan costs $3 per hour.", [("$3", 3.0, "$", None, "cost", None)]),
])
def test_headline_words_are_no_metric(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # set-up sizes: a kind word between (多种), an example word in brackets, a plural phrase
    ("覆盖了从 2K 到 96K 的多种上下文长度", [("2K 到 96K", (2000.0, 96000.0), None, None, "context_length", None)]),
    ("若再测更大的模型（如 34B）会更好", [("34B", 3.4e10, None, None, "params", None)]),
    ("across prompt sets and context lengths (4k-32k), three loads",
     [("4k-32k", (4000.0, 32000.0), None, None, "context_length", None)]),
    # a range of plain numbers after a concurrency or batch word; years are none
    ("覆盖并发数（2 到 32）的扩展", [("2 到 32", (2.0, 32.0), None, None, "concurrency", None)]),
    ("we sweep batch size 1-128 on one node", [("1-128", (1.0, 128.0), None, None, "batch_size", None)]),
    ("并发 2023-2024 两年", []),
    # a card's model number between the metric word and the figure is a name, no figure
    ("B200 的吞吐量比 4090 Ti 高出 2.2-3.1 倍", [("2.2-3.1 倍", (2.2, 3.1), "×", None, "throughput", None)]),
])
def test_setups_and_names_between(text: str, expected: list) -> None:
    assert _read(text) == expected
