"""Numbers and the metric each binds to (third wave): a metric named elsewhere in the sentence,
headline words that are no metric, counted nouns, bracketed ranges and scores, exponents written
with a power of ten. Fresh wording, exact values.

Each row: text -> [(raw, value or (low, high), unit, bound, metric, transition)].
"""

from __future__ import annotations

import pytest

from kb.core.config import KbConfig
from kb.extract.numbers import parse_number
from kb.extract.overflow import out_of_range
from kb.read.parse import parse_file
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


@pytest.mark.parametrize(("text", "expected"), [
    # English counted nouns: a plain integer before one is a count (no unit, no metric)
    ("Clip search with up to 48 frames reaches 9.5x cache speedup.",
     [("48", 48.0, None, "≤", None, None), ("9.5x", 9.5, "×", None, "speedup", None)]),
    ("we test 3 runtimes across 52 configurations and report", [("52", 52.0, None, None, None, None)]),
    ("a plain 52 alone", []),
    ("a lab where 7 LLM agents debate", [("7", 7.0, None, None, None, None)]),
    # a score with spaces around its slash
    ("新颖性： 3.5 / 5。方法简单", [("3.5 / 5", 3.5, None, None, None, None)]),
    ("占比为 3 / 4", []),
    # zh counters: 步 (steps), 星 (a rating on a star scale); words holding a numeral give none
    ("只需 250步 即可收敛", [("250步", 250.0, "步", None, None, None)]),
    ("点评网站给它“3.8 星”", [("3.8 星", 3.8, "星", None, None, None)]),
    ("进一步 一步步 五星级 5星级 第 3 步 一些 统一 一般 两岸 四川", []),
    # a counted number takes no metric from its clause (精度 here is the models' number format)
    ("在 4 种不同规模/精度的模型上验证", [("4 种", 4.0, "种", None, None, None)]),
    ("在 16 个并发请求下", [("16 个", 16.0, "个", None, "concurrency", None)]),
    # a decimal alone in brackets right after a score's name is that score
    ("其 ROUGE（41.7）与 F1（72.4）都更高", [("41.7", 41.7, None, None, None, None), ("72.4", 72.4, None, None, None, None)]),
    ("见第（2）点与（3.1）节", []),
    # a hyphenated token count is a token count, of a context when it is one's (contexts, prompts: plurals too)
    ("Serving 2M-Token Contexts on One Node", [("2M-Token", 2e6, "tokens", None, "context_length", None)]),
    ("with a 64K-token context window", [("64K-token", 64000.0, "tokens", None, "context_length", None)]),
])
def test_counts_scores_and_token_counts(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a power of ten written out is part of the number
    ("the step takes 4.5×10^-3 s", [("4.5×10^-3 s", 0.0045, "s", None, None, None)]),
    ("roughly 2.5 x 10^6 tokens", [("2.5 x 10^6 tokens", 2.5e6, "tokens", "~", None, None)]),
    ("只用了 6×10⁻² s", [("6×10⁻² s", 0.06, "s", None, None, None)]),
    ("we run 4×10 GPUs", []),
    # no float holds it: no quantity (the parser warns)
    ("TTFT of 7e888888 ms", []),
    ("a cache of 2e309 tokens", []),
    ("TTFT is 5e-500 s", []),
    ("a cache of 2e300 tokens", [("2e300 tokens", 2e300, "tokens", None, None, None)]),
])
def test_powers_of_ten_and_out_of_range(text: str, expected: list) -> None:
    assert _read(text) == expected


def test_parse_number_reads_a_power_of_ten() -> None:
    assert parse_number("4.5×10^-3") == 0.0045
    assert parse_number("2.5 x 10^6") == 2.5e6


def test_out_of_range_names_every_number_no_float_holds() -> None:
    text = "vals 7e888888, 2e309, 5e-500, 3×10^999 but 2e300 and 0e999999"
    assert [text[a:b] for a, b in out_of_range(text)] == ["7e888888", "2e309", "5e-500", "3×10^999"]


def test_the_parser_warns_of_a_number_out_of_range() -> None:
    parsed = parse_file(KbConfig(), "inbox/ana/2026-02-01-notes.md",
                        "- SGLang TTFT reads 7e888888 ms in the dump.\n".encode())
    assert [(p.line, p.severity, p.message) for p in parsed.problems] == [
        (1, "warning", "number '7e888888' is out of range; no quantity")]
    assert parsed.claims == []  # no number, no name kb.yaml knows: no claim, but never silent


def test_a_ratio_out_of_range_is_warned_like_any_other() -> None:
    text = "gain 3e-700x, then 4E999X; 6e-500xz and 2e-5x stay quiet"
    assert [text[a:b] for a, b in out_of_range(text)] == ["3e-700", "4E999"]
    parsed = parse_file(KbConfig(entities={"Quokka": []}), "inbox/ana/2026-02-01-notes.md",
                        "- Quokka speedup 8e-444x over the baseline\n".encode())
    assert [(p.line, p.severity, p.message) for p in parsed.problems] == [
        (1, "warning", "number '8e-444' is out of range; no quantity")]
    assert [c.quantities for c in parsed.claims] == [[]]
