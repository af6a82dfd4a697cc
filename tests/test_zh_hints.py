"""The cheap tests of kb.extract.zh_quantities change no result: ZH_HINT says yes exactly where
its documented forms are, kb.extract.scores._SCORE_HINT where a score may be, and _zh_forms, looking only where
_ZH_FORM_START matches, reads what it reads looking at every start of _ZH_QTY_START."""

from __future__ import annotations

import random
import re

from kb.extract import scores as sc
from kb.extract import zh_quantities as zq
from kb.extract.zh_numerals import ZH_DIGITS

# The hint as its comment states it: a numeral character, a magnitude after a digit (a space or
# tab between them or not), doubl / tripl / quadrupl (either case of the first letter).
_PLAIN_HINT = re.compile(rf"[{ZH_DIGITS}十负成番倍分]|\d[ \t]?[万亿萬億千百十零余多]|[Dd]oubl|[Tt]ripl|[Qq]uadrupl")

PIECES = list("负零下百分之千翻了十一二两三四五六七八九〇点万亿萬億多余成番倍几数第a1 \t.0_5个度性：:为评得打/|。") + [
    "百分之", "零下", "翻了", "3.5", "2万", "12", "٣", "２", "tok/s", "%", "成员", "Doubl", "tripl", "uadrupl",
    "Q", "评分", "4.25", "100", "2603.18642", "arXiv:"]


SCORE_PIECES = list(":：为评得打分度性 \t5/10。，,；;|（()）\n一a٣") + [
    "评分", "得分", "打分", "3.5", "4.25", "100", "7", "92", "2603.18642", "arXiv:"]


def _texts(seed: int, n: int, pieces: list[str] = PIECES) -> list[str]:
    rnd = random.Random(seed)
    return ["".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 12))) for _ in range(n)]


def _zh_forms_everywhere(norm: str, read: dict[int, int]) -> list[dict]:
    """_zh_forms with every start of _ZH_QTY_START looked at."""
    saved = zq._ZH_FORM_START
    zq._ZH_FORM_START = zq._ZH_QTY_START
    try:
        return zq._zh_forms(norm, read)
    finally:
        zq._ZH_FORM_START = saved


def _scores_everywhere(norm: str) -> list[dict]:
    """_scores with no hint first."""
    saved = sc._SCORE_HINT
    sc._SCORE_HINT = re.compile("")
    try:
        return sc.find_scores(norm)
    finally:
        sc._SCORE_HINT = saved


def _outcome(fn, *args):  # type: ignore[no-untyped-def]
    """fn(*args), or the name of the error it raised (the same either way)."""
    try:
        return fn(*args)
    except ArithmeticError as e:
        return type(e).__name__


def test_zh_hint_is_its_forms() -> None:
    texts = _texts(11, 40000)
    assert sum(1 for t in texts if zq.ZH_HINT.search(t)) > 20000
    for t in texts:
        assert (zq.ZH_HINT.search(t) is None) == (_PLAIN_HINT.search(t) is None), t
    assert zq.ZH_HINT.search("3 千") and zq.ZH_HINT.search("x doubled") and not zq.ZH_HINT.search("3 tok/s")


def test_score_hint_misses_no_score() -> None:
    texts = _texts(12, 40000, SCORE_PIECES)
    found = 0
    for t in texts:
        want = _scores_everywhere(t)
        assert sc.find_scores(t) == want, t
        found += len(want)
    assert found > 2000
    assert sc._SCORE_HINT.search("arXiv:2603.18642 在 LMDeploy 上") is None
    assert sc.find_scores("评分：4.5 分") == [{"start": 3, "end": 8, "value": 4.5, "unit": None, "score": True}]


def test_zh_forms_skip_only_plain_digits() -> None:
    rnd = random.Random(13)
    found = 0
    for t in _texts(13, 40000):
        read = {0: rnd.randint(0, 6)} if rnd.random() < 0.3 else {}
        want, got = _outcome(_zh_forms_everywhere, t, read), _outcome(zq._zh_forms, t, read)
        assert got == want, t
        if not isinstance(want, list):
            continue
        found += len(want)
    assert found > 5000
    # ASCII digits before another digit (not folded: ٣) are looked at: their match holds the 4 after ٣,
    # which is no start then (a start looked at alone would read 4.5余 as more than 4.5)
    assert zq._zh_forms("4.5٣4.5余", {}) == [] == _zh_forms_everywhere("4.5٣4.5余", {})
    assert [f["start"] for f in zq._zh_forms("负2.4%，3万2千", {})] == [0, 6]
