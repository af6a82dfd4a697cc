"""Substring tests before a class scan (kb.extract.dates._date_hint, kb.extract.overflow.has_exponent_hint,
kb.extract.unread._has_superscript, the zh-magnitude and two-magnitude tests of unread_numbers): a text they
pass over holds no match of the pattern they guard, and the per-unit memos answer as the functions they keep."""

from __future__ import annotations

import datetime
import random

from kb.extract.dates import _DATE_HINT, _date_hint, find_dates
from kb.extract.fold import normalise
from kb.extract.numbers import _EXPONENT_RE, _FOLD_RE, _fold, _fold_one, normalised, number_runs
from kb.extract.overflow import _EXPONENT_HINT_RE, has_exponent_hint, in_range, out_of_range
from kb.extract.unread import (
    _TWO_MAG_HINT,
    _UNIT_POWER_HINT_RE,
    _UNREAD_HINT_RE,
    _has_superscript,
    _unread_hint,
    unread_numbers,
)


def _texts(pieces: list[str], n: int, seed: int) -> list[str]:
    rnd = random.Random(seed)
    return ["".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 10))) for _ in range(n)]


def test_the_date_precheck_never_hides_a_date_hint() -> None:
    pieces = ["2026", "19", "20", "1", "07", "-", "/", ".", " ", "年", "月", "日", "a", "号", "．", "－", "３"]
    hinted = 0
    for text in _texts(pieces, 30000, 5):
        hint = _DATE_HINT.search(text) is not None
        hinted += hint
        assert _date_hint(text) == hint, text
    assert hinted == 2846  # (the seed's texts: many hold a date)
    assert not _date_hint("吞吐 3.5 倍，延迟 42 ms，2026.7 版") and _date_hint("2026 年") and _date_hint("1/2") and not _date_hint("1 / 2")
    assert [d.value for d in find_dates("2026.07.31 发布")] == ["2026-07-31"]
    assert [d.value for d in find_dates("发布于 2026 年")] == ["2026"]
    assert [d.value for d in find_dates("8月13日上线", ref=datetime.date(2026, 1, 5))] == ["2026-08-13"]


def test_the_exponent_and_power_prechecks_agree_with_their_patterns() -> None:
    pieces = ["4", "1e", "E", "e", "e3", "2", " ", "tok/s", "²", "³", "⁻", "^", "**", "万", "kk", "MM", "K", "k", "M"]
    for text in _texts(pieces, 30000, 9):
        assert has_exponent_hint(text) == (_EXPONENT_HINT_RE.search(text) is not None), text
        if _TWO_MAG_HINT.search(text) is not None:
            assert any(b in text for b in ("kk", "kK", "Kk", "KK", "MM")), text
        if _UNIT_POWER_HINT_RE.search(text) is not None and "^" not in text and "*" not in text:
            assert _has_superscript(text), text
    assert not has_exponent_hint("ease of use") and has_exponent_hint("3e5 steps")


def test_the_kept_fold_and_runs_answer_as_computed_afresh() -> None:
    for text in ["吞吐 1 2 3 tok/s，延迟 4 5 6 ms", "１，３００万 tok/s；3.1 → 4.4，1.38×", "plain 1 2 3 ms", "ａ 7 8 9 ｂ"]:
        assert normalised(text) == normalise(text)
        assert normalised(text) is normalised(text)  # kept: the same string for the next asker
        assert _fold(text) == _FOLD_RE.sub(_fold_one, text)  # the shortcut through normalised() reads the same
        runs = number_runs(_fold(text))
        assert runs == number_runs(_fold(text)) and runs is not number_runs(_fold(text))  # a copy each time
    assert number_runs("吞吐 1 2 3 tok/s") == [(3, 8)]
    assert [w for _, _, w in unread_numbers("吞吐 1 2 3 tok/s")] == ["is a run of numbers set apart by spaces (which one is the figure?)"]


def test_the_split_unread_hint_and_the_exponent_gate_agree_with_the_scans_they_replace() -> None:
    pieces = ["1", "23", "456", ".", ",", "_", "a", " ", "1,234", "1.2.3", ".5", "x.", "10", "10^", "⁶", "⁻", "10⁶",
              "e", "e9", "1e999", "×", "的", "999", "3"]
    hinted = reported = 0
    for text in _texts(pieces, 40000, 21):
        hint = _UNREAD_HINT_RE.search(text) is not None
        hinted += hint
        assert _unread_hint(text) == hint, text
        scanned = [m.span() for m in _EXPONENT_RE.finditer(text) if not in_range(m.group())]
        reported += bool(scanned)
        assert out_of_range(text) == scanned, text
    assert (hinted, reported) == (17595, 4904)  # (the seed's texts: both kinds often)


def test_the_run_hint_by_a_space_or_a_tab_agrees_with_the_class_scan() -> None:
    from kb.extract.numbers import _RUN_HINT, _RUN_HINT_SPACE, _RUN_HINT_TAB

    hinted = 0
    for text in _texts(["1", "22", ".5", " ", "\t", "a", "的", "3 ", " 4"], 30000, 33):
        hint = _RUN_HINT.search(text) is not None
        hinted += hint
        assert hint == (_RUN_HINT_SPACE.search(text) is not None or _RUN_HINT_TAB.search(text) is not None), text
    assert hinted == 2554  # (the seed's texts: runs by spaces and by tabs)
