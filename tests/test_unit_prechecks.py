"""Quick tests before a scan (kb.extract.overflow.out_of_range's, kb.extract.unread.unread_numbers' odd forms): a
text they pass over holds nothing the scan finds."""

from __future__ import annotations

import random
from collections import Counter

from kb.core.config import KbConfig
from kb.extract.numbers import _EXPONENT_RE
from kb.extract.overflow import _EXPONENT_HINT_RE, in_range, out_of_range
from kb.extract.unread import _ODD_FORM_RE, unread_numbers
from kb.read.parse import Parser


def _may_be_out_of_range(text: str) -> bool:
    return "10" in text or _EXPONENT_HINT_RE.search(text) is not None


def test_every_number_out_of_range_passes_the_exponent_hint() -> None:
    rnd = random.Random(17)
    pieces = ["4", "7", "0", "1", "10", "９", "e", "E", "e-", "E+", "4e", "×", "x", "X", "*", " ", "\t", "^", "^-",
              "⁴⁰⁰", "⁻", ".", ",", "a", "的", "999", "309", "-", "e9999999"]
    reported = 0
    for _ in range(40000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 9)))
        scanned = [m.span() for m in _EXPONENT_RE.finditer(text) if not in_range(m.group())]
        assert out_of_range(text) == scanned, text  # the quick test never hides a number
        if scanned:
            reported += 1
            assert _may_be_out_of_range(text), text
    assert reported > 500  # the pieces make numbers out of range often


def test_units_with_and_without_an_exponent() -> None:
    assert not _may_be_out_of_range("吞吐 3.5 倍，延迟 42 ms，see the next release")
    assert _may_be_out_of_range("a budget of 3e12 FLOPs") and _may_be_out_of_range("7×10^8 次")
    parser = Parser(KbConfig())
    parsed = parser.parse_bytes("inbox/zoe/2026-08-02-exp.md",
                                "Overflow demo: 4e700 tokens, then 5×10^900 steps, and 2.5× faster.\n".encode())
    assert [(p.line, p.message) for p in parsed.problems if p.code == "number-unread"] == [
        (1, "number '4e700' is out of range; no quantity"), (1, "number '5×10^900' is out of range; no quantity")]


def test_every_odd_form_passes_its_hint() -> None:
    # unread_numbers scans for _ODD_FORM_RE only when the text holds /s, ⁄, 0.000, a zh magnitude or kk/MM
    rnd = random.Random(23)
    pieces = ["1", "5", "12", "1.5", ".", "0." + "0" * 300 + "1", ",", " ", "⁄", "/s", "/s/s", "tok", "GiB", "k",
              "K", "M", "T", "e3", "E-2", "万", "亿", "萬", "億", "的", "a", "x"]
    branches: Counter[str] = Counter()
    for _ in range(40000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 6)))
        found = [(*m.span(), m.lastgroup) for m in _ODD_FORM_RE.finditer(text)]
        branches.update(g for _, _, g in found)
        reported = {(a, b) for a, b, _ in unread_numbers(text)} if found else set()
        assert all((a, b) in reported for a, b, _ in found), text  # the quick test never hides one
    assert min(branches[g] for g in ("slash", "perper", "magps", "expmag", "twomag", "tiny")) > 20, branches


def test_odd_forms_behind_the_hint() -> None:
    assert [(a, b) for a, b, _ in unread_numbers("吞吐 1.2万k 次")] == [(3, 8)]
    assert [(a, b) for a, b, _ in unread_numbers("吞吐 1e3万 次")] == [(3, 7)]
    assert unread_numbers("吞吐 3.5 倍，延迟 42 ms") == []
