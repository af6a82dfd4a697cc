"""English forms a probe of public number-recogniser suites found read wrong: a rate written with a
word (``3 GB per second``, ``188 miles an hour``), a magnitude letter set apart (``吞吐 1.2 K``), a
glued ``m`` million before a unit (``5m tokens``), a currency sign set apart (``$ 0.8``, ``10 €``) and
a unit hyphenated to its number (``a 10-ms SLO``); and the identifiers and widths that stay none.
Fresh wording, exact values.

Each row: text -> [(raw, value, low, high, unit, metric, bound)].
"""

from __future__ import annotations

import pytest

from kb.extract.quantities import find_quantities


def _read(text: str) -> list[tuple]:
    out = []
    for q in find_quantities(text):
        assert q.raw == text[q.start:q.end]
        out.append((q.raw, q.value, q.low, q.high, q.unit, q.metric, q.bound))
    return out


@pytest.mark.parametrize(("text", "expected"), [
    # a rate word before a time is the slash of /s, /h (kb.extract.numbers.per_unit)
    ("the link moves 3 GB per second", [("3 GB per second", 3e9, None, None, "B/s", None, None)]),
    ("throughput 3 GB a second", [("3 GB a second", 3e9, None, None, "B/s", "throughput", None)]),
    ("backups write 3 GB per hour", [("3 GB per hour", 833333.333333, None, None, "B/s", None, None)]),
    ("the disk reads 10 MB per sec", [("10 MB per sec", 1e7, None, None, "B/s", None, None)]),
    ("up to 2-4 GB per second", [("2-4 GB per second", None, 2e9, 4e9, "B/s", None, None)]),
    ("decode runs at 200 tokens a second", [("200 tokens a second", 200.0, None, None, "tok/s", "throughput", None)]),
    ("it streams 2.4k tokens per sec", [("2.4k tokens per sec", 2400.0, None, None, "tok/s", "throughput", None)]),
    ("the router handles 500 requests per second", [("500 requests per second", 500.0, None, None, "req/s", None, None)]),
    ("the API serves 1,200 queries a second", [("1,200 queries a second", 1200.0, None, None, "req/s", None, None)]),
    ("the router handles 500 requests/s", [("500 requests/s", 500.0, None, None, "req/s", None, None)]),
    ("the car drove 188 miles an hour", [("188 miles an hour", 84.04352, None, None, "m/s", None, None)]),
    ("a train at 60 km per hour", [("60 km per hour", 16.6666666667, None, None, "m/s", None, None)]),
    ("a train at 60 km / h", [("60 km / h", 16.6666666667, None, None, "m/s", None, None)]),
    # not a rate: a rate word before no time, a time per time, a glued m (a million)
    ("each shard holds 3 GB per GPU", [("3 GB", 3e9, None, None, "B", None, None)]),
    ("decode costs 25 ms per token", [("25 ms", 0.025, None, None, "s", None, None)]),
    ("the team works 8 hours a day", [("8 hours", 28800.0, None, None, "s", None, None)]),
    ("GC pauses 30 minutes an hour", [("30 minutes", 1800.0, None, None, "s", None, None)]),
    ("5m per second", [("5m", 5e6, None, None, None, None, None)]),
    ("it served 200 tokens an hour", [("200 tokens", 200.0, None, None, "tokens", None, None)]),
])
def test_a_rate_written_with_a_word(text: str, expected: list) -> None:
    assert _read(text) == expected


def test_a_rate_word_reads_as_the_slash() -> None:
    for worded, slashed in (("3 GB per second", "3 GB/s"), ("200 tokens a second", "200 tokens/s"),
                            ("500 requests per second", "500 req/s"), ("188 miles an hour", "188 miles/hour")):
        (a,), (b,) = find_quantities(worded), find_quantities(slashed)
        assert (a.value, a.unit) == (b.value, b.unit)


@pytest.mark.parametrize(("text", "expected"), [
    # a magnitude letter set apart reads as the glued one, beside a metric or set-up word
    ("吞吐 1.2 K", [("1.2 K", 1200.0, None, None, None, "throughput", None)]),
    ("吞吐 1.2K", [("1.2K", 1200.0, None, None, None, "throughput", None)]),
    ("training cost 1.2 M", [("1.2 M", 1.2e6, None, None, None, "cost", None)]),
    ("cost is 2.5 B", [("2.5 B", 2.5e9, None, None, None, "cost", None)]),
    ("the cost is 2.5 B.", [("2.5 B", 2.5e9, None, None, None, "cost", None)]),
    ("8 K context", [("8 K", 8000.0, None, None, None, "context_length", None)]),
    ("8K context", [("8K", 8000.0, None, None, None, "context_length", None)]),
    ("3 B params", [("3 B", 3e9, None, None, None, "params", None)]),
    ("3B params", [("3B", 3e9, None, None, None, "params", None)]),
    ("budget $ 3 M", [("$ 3 M", 3e6, None, None, "$", "cost", None)]),
    ("budget $3 M.", [("$3 M", 3e6, None, None, "$", "cost", None)]),
    # no metric word beside it: no figure (a panel, a temperature, users)
    ("see Fig. 3 B", []),
    ("see Figure 3 B for the setup", []),
    ("cooled to 300 K", []),
    ("5 M users", []),
    # a spaced m alone is a metre
    ("a 100 m track", [("100 m", 100.0, None, None, "m", None, None)]),
])
def test_a_magnitude_set_apart(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a glued m is a million, and a unit of kb's words after it is the number's
    ("pre-trained on 5m tokens", [("5m tokens", 5e6, None, None, "tokens", None, None)]),
    ("a corpus of 48m tokens", [("48m tokens", 4.8e7, None, None, "tokens", None, None)]),
    ("5M tokens", [("5M tokens", 5e6, None, None, "tokens", None, None)]),
    ("a 5m-token context", [("5m-token", 5e6, None, None, "tokens", "context_length", None)]),
    ("5m users", [("5m", 5e6, None, None, None, None, None)]),
    ("raised $5m", [("$5m", 5e6, None, None, "$", "cost", None)]),
])
def test_a_glued_million_keeps_its_unit(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a currency sign set apart from its number, or € after it
    ("成本 $ 0.8", [("$ 0.8", 0.8, None, None, "$", "cost", None)]),
    ("price $ 2.75", [("$ 2.75", 2.75, None, None, "$", "cost", None)]),
    ("a $ 75 million round", [("$ 75 million", 7.5e7, None, None, "$", "cost", None)]),
    ("cost 10 €", [("10 €", 10.0, None, None, "€", "cost", None)]),
    ("cost 10€", [("10€", 10.0, None, None, "€", "cost", None)]),
    ("cost € 10", [("€ 10", 10.0, None, None, "€", "cost", None)]),
    ("fees of 10–20 €", [("10–20 €", None, 10.0, 20.0, "€", None, None)]),
    # a $ closing a formula is no currency sign of the number after it
    ("where $$ 3", []),
    ("where $x = 10$", []),
    ("with $f(x)$ 3 tokens", [("3 tokens", 3.0, None, None, "tokens", "cost", None)]),
])
def test_a_currency_sign_set_apart(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a unit of kb's words hyphenated to its number
    ("a 10-ms SLO", [("10-ms", 0.01, None, None, "s", None, None)]),
    ("an 80-GB card", [("80-GB", 8e10, None, None, "B", None, None)]),
    ("a 4-KB page", [("4-KB", 4000.0, None, None, "B", None, None)]),
    ("a 100-Gbps link", [("100-Gbps", 1.25e10, None, None, "B/s", None, None)]),
    ("latency 10-ms", [("10-ms", 0.01, None, None, "s", "latency", None)]),
    ("10-ms to 20-ms", [("10-ms to 20-ms", None, 0.01, 0.02, "s", None, None)]),
    ("10- to 20-ms", [("10- to 20-ms", None, 0.01, 0.02, "s", None, None)]),
    # a hyphenated time of a second or longer is an event's length: read before a simulation word only
    ("a 2-day outage of the cluster", []),
    ("a 30-second timeout", []),
    ("a 5-week simulation", [("5-week", 3024000.0, None, None, "s", "sim_length", None)]),
    # a bit width is an adjective
    ("16-bit", []),
    ("4-bit weights", []),
    ("8-bit quantization", []),
])
def test_a_hyphenated_unit(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize("text", [
    "GPT-5.6", "Qwen3-32B", "v0.5.16", "A100", "H100", "B200", "a 3-way split", "1-shot prompting", "8-bit",
    "H100-80GB", "A100-40GB card", "Llama-3-8B", "ISO-8601", "Qwen3-32B per second", "vLLM v0.5.16 a second",
])
def test_identifiers_give_no_quantity(text: str) -> None:
    assert _read(text) == []
