"""Numbers written in parts or with their sign first: a duration in parts, a vulgar fraction, a
ratio led by ×, a magnitude set apart before a unit, a rate per GPU, a rate with spaces around its
slash; and the forms kb names instead of reading (a power of another base, a decimal comma in a
number grouped by spaces). Fresh wording, exact values.

Each row: text -> [(raw, value or (low, high), unit, bound, metric, transition)].
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb.extract.unread import _UNREAD_FORM_RE, _may_be_unread, unread_numbers
from kb.extract.quantities import find_quantities
from test_numbers_forms import _read  # the one row reader of the number tests


@pytest.mark.parametrize(("text", "expected"), [
    # a duration in parts is one value (it was two: 3600 s and 1800 s, or none when glued)
    ("warm-up ttft 1 h 30 min on the cold pool", [("1 h 30 min", 5400.0, "s", None, "ttft", None)]),
    ("ttft 1h30m", [("1h30m", 5400.0, "s", None, "ttft", None)]),
    ("the job's latency was 2 min 30 s", [("2 min 30 s", 150.0, "s", None, "latency", None)]),
    ("latency 1 hour and 30 minutes", [("1 hour and 30 minutes", 5400.0, "s", None, "latency", None)]),
    ("首 token 延迟 1小时30分钟", [("1小时30分钟", 5400.0, "s", None, "ttft", None)]),
    ("latency 2m30s", [("2m30s", 150.0, "s", None, "latency", None)]),
    ("ttft 1小时30分", [("1小时30分", 5400.0, "s", None, "ttft", None)]),
    ("ttft 2分30秒", [("2分30秒", 150.0, "s", None, "ttft", None)]),
    ("ttft 1小时又30分钟", [("1小时又30分钟", 5400.0, "s", None, "ttft", None)]),
    ("ttft 2 s 500 ms", [("2 s 500 ms", 2.5, "s", None, "ttft", None)]),  # (was 2 s and 0.5 s: a false conflict with 2.5 s)
    ("ttft 2秒500毫秒", [("2秒500毫秒", 2.5, "s", None, "ttft", None)]),
    ("ttft 1 h 30 m", [("1 h 30 m", 5400.0, "s", None, "ttft", None)]),  # (30 m was 30 metres)
    ("1 week 2 days", [("1 week 2 days", 777600.0, "s", None, None, None)]),
    ("ttft 1 h 30 min 1 h 30 min", [("1 h 30 min", 5400.0, "s", None, "ttft", None), ("1 h 30 min", 5400.0, "s", None, None, None)]),
    # 时 alone is a clock time, never part of a duration
    ("下午3时30分开会", []),
    # parts not each smaller than the one before are separate values
    ("latency 5 min 10 min", [("5 min", 300.0, "s", None, "latency", None), ("10 min", 600.0, "s", None, None, None)]),
    # a vulgar fraction, alone or after a whole number
    ("ttft ½ s", [("½ s", 0.5, "s", None, "ttft", None)]),
    ("ttft 1½ h", [("1½ h", 5400.0, "s", None, "ttft", None)]),
    ("speedup 2¾×", [("2¾×", 2.75, "×", None, "speedup", None)]),
    # a Roman numeral of one character is unicodedata's value too; several are not composed
    ("throughput Ⅻ tok/s", [("Ⅻ tok/s", 12.0, "tok/s", None, "throughput", None)]),
    ("throughput ⅩⅢ tok/s", []),
    # a ratio led by its sign; after a number it is arithmetic, before a device a count
    ("speedup ×1.5 over vLLM", [("×1.5", 1.5, "×", None, "speedup", None)]),
    ("speedup x1.5 over vLLM", [("x1.5", 1.5, "×", None, "speedup", None)]),
    ("加速比×2", [("×2", 2.0, "×", None, "speedup", None)]),
    ("runs on x86 hosts", []),
    ("4 nodes ×8 GPUs", []),
    # a magnitude set apart from its number, before a unit
    ("throughput 1.2 k tok/s", [("1.2 k tok/s", 1200.0, "tok/s", None, "throughput", None)]),
    ("pre-trained on 2 T tokens", [("2 T tokens", 2e12, "tokens", None, None, None)]),
    ("a 7 B model", [("7 B", 7e9, None, None, "params", None)]),  # as a 7B model: a size beside its set-up word
    ("cost $3 M", [("$3 M", 3e6, "$", None, "cost", None)]),
    ("cost $1.2 k", [("$1.2 k", 1200.0, "$", None, "cost", None)]),
    # a spaced m is a million before kb's own unit, a metre before any other
    ("throughput 1.2 m tok/s", [("1.2 m tok/s", 1.2e6, "tok/s", None, "throughput", None)]),
    ("speed 100 m s-1", [("100 m s-1", 100.0, "m/s", None, None, None)]),
    # a magnitude letter is no part of a unit for pint (k/s was Boltzmann's constant per second)
    ("bandwidth 5 G/s", []),
    ("decode 1.2 K/s", []),
    ("throughput 2 kB/s", [("2 kB/s", 2000.0, "B/s", None, "throughput", None)]),
    # a rate per accelerator is a unit of its own
    ("throughput 369 tok/s/GPU", [("369 tok/s/GPU", 369.0, "tok/s/GPU", None, "throughput", None)]),
    ("370 tokens/s per GPU on H100", [("370 tokens/s per GPU", 370.0, "tok/s/GPU", None, "throughput", None)]),
    ("每卡吞吐 502 tok/s", [("502 tok/s", 502.0, "tok/s/GPU", None, "throughput", None)]),
    ("throughput 503 tok/s/卡", [("503 tok/s/卡", 503.0, "tok/s/GPU", None, "throughput", None)]),
    ("per-GPU throughput 506 tok/s", [("506 tok/s", 506.0, "tok/s/GPU", None, "throughput", None)]),
    ("throughput per GPU: 509 tok/s", [("509 tok/s", 509.0, "tok/s/GPU", None, "throughput", None)]),
    ("throughput 512 tok/s per accelerator", [("512 tok/s per accelerator", 512.0, "tok/s/GPU", None, "throughput", None)]),
    ("vLLM throughput 4000 tok/s on 8 GPUs, per GPU cost is low", [("4000 tok/s", 4000.0, "tok/s", None, "throughput", None)]),
    # a rate with spaces around its slash or written as a power
    ("throughput 500 tok / s", [("500 tok / s", 500.0, "tok/s", None, "throughput", None)]),
    ("376 tok/ s", [("376 tok/ s", 376.0, "tok/s", None, "throughput", None)]),
    ("378 tok·s⁻¹", [("378 tok·s⁻¹", 378.0, "tok/s", None, "throughput", None)]),
    ("379 tokens s^-1", [("379 tokens s^-1", 379.0, "tok/s", None, "throughput", None)]),
    # an ordinal's ending is no unit (2nd was 0.0001728 s, a nanoday; 3rd 15.09 m, a rod)
    ("the 2nd run's ttft was 5 s, the 3rd 4 s", [("5 s", 5.0, "s", None, "ttft", None), ("4 s", 4.0, "s", None, None, None)]),
])
def test_numbers_written_in_parts_or_sign_first(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("throughput 2^10 tok/s", [("2^10", "is a power kb does not read (only a power of ten is: 10^6)")]),
    ("throughput 2**10 tok/s", [("2**10", "is a power kb does not read (only a power of ten is: 10^6)")]),
    ("throughput 1 000,5 tok/s", [("1 000,5", "has a decimal comma or digits not grouped in threes")]),
    ("throughput 10^3 tok/s", []),
    ("throughput 0x10 tok/s", [("0x10", "is hexadecimal")]),
])
def test_forms_kb_names_instead_of_reading(text: str, expected: list) -> None:
    assert [(text[a:b], why) for a, b, why in unread_numbers(text)] == expected
    for a, b, _ in unread_numbers(text):
        assert _UNREAD_FORM_RE.search(text) is not None and _may_be_unread(text)
        assert [q.raw for q in find_quantities(text, skip=[(a, b)])] == []


def test_a_value_after_an_arxiv_id_and_a_dash_is_read() -> None:
    """``2607.26627 — 709 tok/s`` was read as a range from the id's digits and dropped with it."""
    text = "see arXiv:2607.26627 — 709 tok/s"
    assert [(q.raw, q.value, q.unit) for q in find_quantities(text, skip=[(4, 20)])] == [("709 tok/s", 709.0, "tok/s")]


def test_no_part_of_a_number_kb_names_is_read_as_another(tmp_path: Path, run_kb) -> None:
    """The ``1`` of ``1 000,5 tok/s`` and the ``2`` of ``2^10 tok/s`` were read as throughputs of 1
    and 2 while the warning named the rest."""
    (tmp_path / "kb.yaml").write_text("timezone: \"+08:00\"\ntopics:\n  t: [t]\nentities:\n  vLLM: []\n",
                                      encoding="utf-8")
    inbox = tmp_path / "inbox" / "a"
    inbox.mkdir(parents=True)
    (inbox / "2026-07-31-0900-x.md").write_text(
        "- vLLM throughput 1 000,5 tok/s\n- vLLM throughput 2^10 tok/s\n- vLLM throughput 1.2 k tok/s\n",
        encoding="utf-8")
    (tmp_path / "organized" / "knowledge").mkdir(parents=True)
    r = run_kb(["ingest"], cwd=tmp_path)
    assert r.exit_code == 0, r.stderr
    assert "inbox/a/2026-07-31-0900-x.md:1: number '1 000,5' has a decimal comma" in r.stderr
    assert "inbox/a/2026-07-31-0900-x.md:2: number '2^10' is a power kb does not read" in r.stderr
    r = run_kb(["claims", "--subject", "vLLM", "--format", "json"], cwd=tmp_path)
    claims = json.loads(r.stdout)
    assert [[(q["raw"], q["value"]) for q in c["quantities"]] for c in claims] == [[], [], [("1.2 k tok/s", 1200.0)]]
