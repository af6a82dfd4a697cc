"""Literal hints that ignore case, searched in lower-cased text without ignoring case
(kb.perf.caseless): the same places as the hint itself, and the window rules that use them
(kb.extract.number_words._bound, _decreased, _ref_before) answer as the plain searches did."""

from __future__ import annotations

import random
import re
import sys

from kb.extract.fold import lower_same_length
from kb.extract.metrics import DEFAULT_VOCAB
from kb.extract.number_words import (
    _BOUND_BEFORE,
    _BOUND_HINT,
    _BOUND_HINT_LOW,
    _DECREASE_HINT,
    _DECREASE_HINT_LOW,
    _DECREASE_WORD,
    _REF_BEFORE,
    _REF_HINT,
    _REF_HINT_LOW,
    _bound,
    _decreased,
    _ref_before,
)
from kb.perf.caseless import ODD_CASE, lowered, may_lower

_PIECES = ["Up To ", "AT LEAST ", "at most", "约", "超过", "≥", "~", "Drops ", "REDUCED", "降低", "下降", "cut", "Fig. ",
           "TABLE ", "表 ", "Sec", "by ", "TTFT ", "latency ", " ", "\t", "*", "(", "的", "a", "S", "K", "ſ", "ı", "İ",
           "\u212a", "3", "42", "1.5", "%", " ms", ",", "。", "吞吐"]


def _texts(n: int, seed: int) -> list[str]:
    rnd = random.Random(seed)
    return ["".join(rnd.choice(_PIECES) for _ in range(rnd.randint(1, 12))) for _ in range(n)]


def test_odd_case_is_every_character_outside_ascii_an_ascii_letter_matches_ignoring_case() -> None:
    letter = re.compile("[a-z]", re.IGNORECASE)
    found = "".join(c for c in map(chr, range(0x80, sys.maxunicode + 1)) if letter.match(c))
    assert found == ODD_CASE == "\u0130\u0131\u017f\u212a"  # İ ı ſ and the Kelvin sign


def test_lowered_refuses_what_it_cannot_search_the_same() -> None:
    assert lowered(None) is None
    assert lowered(re.compile("up to|约")) is None  # does not ignore case
    assert lowered(re.compile("Up to", re.IGNORECASE)) is None  # an upper-case letter
    assert lowered(re.compile(r"\S+", re.IGNORECASE)) is None
    assert lowered(re.compile("straße", re.IGNORECASE)) is None  # a letter outside ASCII
    got = lowered(re.compile(r"up\ to|约|≥", re.IGNORECASE))
    assert got is not None and got.flags & re.IGNORECASE == 0 and got.pattern == r"up\ to|约|≥"
    assert not may_lower("a \u212a b") and not may_lower("ſ") and may_lower("TTFT 降低 30%") and may_lower("Up to 3×")


def test_the_lowered_hints_find_what_their_hints_find() -> None:
    rnd = random.Random(3)
    pairs = [(_BOUND_HINT, _BOUND_HINT_LOW), (_DECREASE_HINT, _DECREASE_HINT_LOW), (_REF_HINT, _REF_HINT_LOW)]
    assert all(h is not None and low is not None for h, low in pairs)
    odd = found = 0
    for text in _texts(20000, 11):
        if not may_lower(text):
            odd += 1
            continue
        low = lower_same_length(text)
        lo = rnd.randint(0, len(text))
        s = rnd.randint(lo, len(text))
        for hint, low_hint in pairs:
            a, b = hint.search(text, lo, s), low_hint.search(low, lo, s)  # type: ignore[union-attr]
            assert (a and a.span()) == (b and b.span()), text
            found += a is not None
    assert (odd, found) == (9462, 4496)  # (the seed's texts: many hold ſ, ı, İ or the Kelvin sign, searched as before)


def test_the_window_rules_answer_as_the_plain_searches(monkeypatch) -> None:
    import kb.extract.number_words as words

    rnd = random.Random(5)
    texts = _texts(6000, 13)
    cases = [(text, s, min(len(text), s + rnd.randint(0, 3))) for text in texts for s in {rnd.randint(0, len(text)) for _ in range(3)}]
    got = [(_bound(t, s, e), _decreased(t, s, e, DEFAULT_VOCAB), _ref_before(t, s)) for t, s, e in cases]
    for name in ("_BOUND_HINT", "_DECREASE_HINT", "_REF_HINT"):
        monkeypatch.setattr(words, name, None)  # no hint: the patterns themselves searched in every window
    assert got == [(_bound(t, s, e), _decreased(t, s, e, DEFAULT_VOCAB), _ref_before(t, s)) for t, s, e in cases]
    assert (sum(b is not None for b, _, _ in got), sum(d for _, d, _ in got), sum(r for _, _, r in got)) == (1517, 1513, 1109)
    monkeypatch.undo()
    assert _bound("吞吐至少提升 3 倍", 7, 10) == "≥" and _decreased("TTFT drops BY 30%", 14, 17, DEFAULT_VOCAB)
    assert _ref_before("see Fig. 7", 9) and _decreased("降低延迟 30%", 5, 8, DEFAULT_VOCAB)
    assert _bound("\u212aeep it up to 3×", 14, 16) == "≤" and _bound("Keep it UP TO 3×", 14, 16) == "≤"

