"""kb.extract.kinds: the moods' one hint finds a place in every text where a plan, dispute or
doubt word is (a text it finds none in has no mood, and is not scanned twice)."""

from __future__ import annotations

import random

from kb.extract.kinds import _ANY_MOOD_HINT, _DOUBT_RE, _MOOD_RE, moods


def test_the_one_mood_hint_finds_every_mood_word() -> None:
    assert _ANY_MOOD_HINT is not None
    words = ["建议", "计划", "拟于", "将在", "目标", "目标模型", "looks off", "seems a bit wrong", "doesn't add up",
             "did not line up", "not consistent with", "out of line with", "we doubt", "对不上", "不一致", "有出入",
             "plans to", "expected", "forecast", "dubious", " ", "，", "x", "2.1×", "a"]
    rnd = random.Random(6)
    moody = 0
    for _ in range(20000):
        low = "".join(rnd.choice(words) for _ in range(rnd.randint(1, 5))).lower()
        if _MOOD_RE.search(low) or _DOUBT_RE.search(low):
            assert _ANY_MOOD_HINT.search(low) is not None, low
            moody += 1
    assert moody > 10000
    assert moods("建议排 3–6 个月", [(4, 10)]) == ["plan"]
    assert moods("throughput 2.1x on H100", [(11, 15)]) == [None]
