"""Number forms a reader writes that kb read wrong or dropped in silence: an exponent glued to its
unit, a number in brackets before its unit, an exponent beside a magnitude letter, a unit raised to
a power, and a unit written once after a list of plain numbers with no metric word before them.
Each is read right, or read as no quantity with a warning naming it (docs/claims.md). Fresh wording,
exact values.

Rows of the finder: text -> [(raw, value or (low, high), unit, bound, metric, transition)].
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import write_files
from test_numbers_forms import _read  # the one row reader of the number tests

from kb.extract.unread import (
    _UNIT_POWER_HINT_RE,
    _UNIT_POWER_RE,
    _UNREAD_FORM_RE,
    _may_be_unread,
    unread_numbers,
)


@pytest.mark.parametrize(("text", "expected"), [
    # an exponent glued to its unit, as a plain number glued to it is read
    ("Quokka decode 1.2e3tok/s", [("1.2e3tok/s", 1200.0, "tok/s", None, "throughput", None)]),
    ("Quokka ttft 2.5e2ms", [("2.5e2ms", 0.25, "s", None, "ttft", None)]),
    ("Quokka KV 4e1GB", [("4e1GB", 4e10, "B", None, None, None)]),
    # a number alone in brackets before its unit: the brackets only set it apart
    ("Quokka throughput (1,200) tok/s", [("(1,200) tok/s", 1200.0, "tok/s", None, "throughput", None)]),
    ("Quokka ttft (85) ms", [("(85) ms", 0.085, "s", None, "ttft", None)]),
    ("Quokka 吞吐（1350）tok/s", [("（1350）tok/s", 1350.0, "tok/s", None, "throughput", None)]),
    ("Quokka speedup (2.5)x", [("(2.5)x", 2.5, "×", None, "speedup", None)]),
    ("call f(3) ms later", []),  # glued to a name: an argument, no quantity
])
def test_forms_read_right(text: str, expected: list) -> None:
    assert _read(text) == expected


BRACKETED_WHY = "is in brackets before a percentage or a currency (a negative, as accountants write one?)"


@pytest.mark.parametrize(("text", "expected"), [
    ("Quokka throughput 1e3k tok/s", [("1e3k", "has both an exponent and a magnitude (1e3k: 1e3 or 1.3k?)")]),
    ("Quokka throughput 2e2 M tok/s", [("2e2 M", "has both an exponent and a magnitude (1e3k: 1e3 or 1.3k?)")]),
    ("Quokka throughput 1200 tok/s^2", [("1200 tok/s^2", "has a unit raised to a power kb does not read")]),
    ("Quokka KV 5 GB²", [("5 GB²", "has a unit raised to a power kb does not read")]),
    ("Quokka rate 7 ms^-1", [("7 ms^-1", "has a unit raised to a power kb does not read")]),
    ("Quokka rate 1.5k tok/s**2", [("1.5k tok/s**2", "has a unit raised to a power kb does not read")]),
    ("Quokka margin (3.5)%", [("(3.5)%", BRACKETED_WHY)]),
    ("Quokka cost (1,200) 元", [("(1,200) 元", BRACKETED_WHY)]),
    # read, no warning: pint's own unit with its power, a footnote's mark, a price in brackets, a
    # percentage inside the brackets, a rate written as a power
    ("Quokka g 9.8 m/s^2", []),
    ("Quokka throughput 1200 tok/s^1 (a footnote)", []),
    ("the Pro tier ($20)", []),
    ("Quokka rose (12%)", []),
    ("Quokka 379 tokens s^-1", []),
])
def test_unclear_forms_are_named_with_why(text: str, expected: list) -> None:
    assert [(text[a:b], why) for a, b, why in unread_numbers(text)] == expected


def test_the_quick_test_never_hides_an_exponent_beside_a_magnitude() -> None:
    for text in ("1e3k tok/s", "2.5E-1 K tok/s", "3e2M tokens"):
        assert _UNREAD_FORM_RE.search(text) is not None, text
        assert _may_be_unread(text), text


def test_the_quick_test_never_hides_a_unit_raised_to_a_power() -> None:
    for text in ("9 tok/s^2", "9 GB²", "9 ms^-1", "9 tok/s**2", "吞吐 9 倍^2", "9 ‰³", "9 TB⁻¹"):
        assert _UNIT_POWER_RE.search(text) is not None, text
        assert _UNIT_POWER_HINT_RE.search(text) is not None, text
    assert _UNIT_POWER_HINT_RE.search("5 ms*2 and 2^10") is None


def test_a_glued_exponent_out_of_range_is_named() -> None:
    assert [(a, b, why) for a, b, why in unread_numbers("Quokka 9e999tok/s")] == [(7, 12, "is out of range")]
    assert _read("Quokka 9e999tok/s") == []


@pytest.mark.parametrize(("text", "expected"), [
    # the unit written once after a list reaches every plain number of it, whatever word is before
    ("Quokka and Wombat reach 502 and 602 tok/s respectively",
     [("502", 502.0, "tok/s", None, "throughput", None), ("602 tok/s", 602.0, "tok/s", None, "throughput", None)]),
    ("they reach 503 and 603 tok/s", [("503", 503.0, "tok/s", None, "throughput", None),
                                      ("603 tok/s", 603.0, "tok/s", None, "throughput", None)]),
    ("we saw 505, 605 and 705 tok/s", [("505", 505.0, "tok/s", None, "throughput", None),
                                       ("605", 605.0, "tok/s", None, "throughput", None),
                                       ("705 tok/s", 705.0, "tok/s", None, "throughput", None)]),
    ("we saw 506, 606, and 706 ms", [("506", 0.506, "s", None, None, None), ("606", 0.606, "s", None, None, None),
                                     ("706 ms", 0.706, "s", None, None, None)]),
    ("it hit 507 / 607 tok/s", [("507", 507.0, "tok/s", None, "throughput", None),
                                ("607 tok/s", 607.0, "tok/s", None, "throughput", None)]),
    # no unit reaches it: no figure; a decimal after a name is its version; a year is none
    ("between 2 and 4 GPUs", []),
    ("Wombat 0.4 and 600 tok/s", [("600 tok/s", 600.0, "tok/s", None, "throughput", None)]),
    ("in 2024 and 608 tok/s", [("608 tok/s", 608.0, "tok/s", None, "throughput", None)]),
    ("GPT-4 and 609 tok/s", [("609 tok/s", 609.0, "tok/s", None, "throughput", None)]),
    ("3.1 → 4.4，1.38×", [("1.38×", 1.38, "×", None, None, None)]),  # a bare comma joins no list
])
def test_a_unit_after_a_list_is_every_plain_numbers(text: str, expected: list) -> None:
    assert _read(text) == expected


KB_YAML = 'timezone: "+08:00"\nexecutor: ana\ntopics: {serving: [serving]}\nentities: {Quokka: [], Wombat: []}\n'
DOC = "---\ntopic: serving\nversion: 1\nupdated: 2026-01-01\n---\n# d\n\n## 1. Quokka\n\n- Quokka 吞吐 2.2×。\n"


def test_ingest_reads_or_warns_each_form_and_pairs_the_list(tmp_path: Path, run_kb) -> None:
    note = ("- Quokka throughput 1.2e3tok/s\n\n- Quokka throughput 1e3k tok/s\n\n- Quokka throughput (1,200) tok/s\n\n"
            "- Quokka throughput 1200 tok/s^2\n\n- Quokka and Wombat reach 502 and 602 tok/s respectively\n")
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "organized/knowledge/serving.md": DOC,
                                         "inbox/ana/2026-07-31T0900-n.md": note})
    res = run_kb(["ingest"], cwd=root)
    assert res.exit_code == 0
    assert [line for line in res.stderr.splitlines() if "0900-n.md" in line] == [
        ("warning: inbox/ana/2026-07-31T0900-n.md:3: number '1e3k' has both an exponent and a magnitude "
         "(1e3k: 1e3 or 1.3k?); no quantity"),
        ("warning: inbox/ana/2026-07-31T0900-n.md:7: number '1200 tok/s^2' has a unit raised to a power kb "
         "does not read; no quantity"),
    ]
    res = run_kb(["claims", "--format", "json", "--file", "inbox/ana/2026-07-31T0900-n.md"], cwd=root)
    got = [[(q["value"], q["unit"], q["bound"], q["subject"]) for q in c["quantities"]] for c in json.loads(res.stdout)]
    assert got == [[(1200.0, "tok/s", None, "entity:quokka")], [], [(1200.0, "tok/s", None, "entity:quokka")], [],
                   [(502.0, "tok/s", None, "entity:quokka"), (602.0, "tok/s", None, "entity:wombat")]]
