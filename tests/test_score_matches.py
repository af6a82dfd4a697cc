"""kb.extract.scores._score_matches gives the matches of ``_SCORE_RE.finditer`` (span and
every group), looking the pattern up only where one may start."""

from __future__ import annotations

import random

from kb.extract.scores import _SCORE_RE, _score_matches
from kb.extract.zh_quantities import _ZH_QTY_RE, _ZH_QTY_START
from kb.perf.led import led_matches

PIECES = list(":：为评得打分度性 \t5/10。，,；;|（()）\n一a") + ["评分", "得分", "打分", "3.5", "4.25", "100", "7", "92"]


def test_score_matches_are_finditers() -> None:
    rnd = random.Random(4)
    found = 0
    for _ in range(60000):
        text = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 12)))
        want = [(m.span(), m.groupdict()) for m in _SCORE_RE.finditer(text)]
        assert [(m.span(), m.groupdict()) for m in _score_matches(text)] == want, text
        found += len(want)
    assert found > 5000
    assert [m.group() for m in _score_matches("评分 4.5 分，稳定性4.2")] == ["评分 4.5 分", "4.2"]


def test_zh_numeral_matches_are_finditers() -> None:
    pieces = list("负零下百分之千翻了十一二两三四五六七八九〇点万亿萬億多余成番倍几数第a1 \t.0_5") + [
        "百分之", "零下", "翻了", "3.5", "2万", "12"]
    rnd = random.Random(8)
    found = 0
    for _ in range(60000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 12)))
        want = [(m.span(), m.groupdict()) for m in _ZH_QTY_RE.finditer(text)]
        assert [(m.span(), m.groupdict()) for m in led_matches(_ZH_QTY_START, _ZH_QTY_RE, text)] == want, text
        found += len(want)
    assert found > 50000
