"""Scores as reviewers write them (``实用性：5分``, ``创新性：4.5/5``, ``综合评分: 6.05/10``): a value on
the writer's own scale, no unit and no metric (docs/claims.md); read for
:func:`kb.extract.zh_quantities.more_quantities`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kb.perf.led import led_matches

# A score as reviewers write it (the feeds' 实用性：5分, 创新性：4.5/5, 综合评分: 6.05/10,
# 推荐度为 4.5 分, 实用性评分： 4, 创新性： 5 / 5, 评分明细 传播度7 | 权威性5): a value on the feed's own scale, no
# metric and no unit (docs/claims.md: no rating cue, so a secondhand number). Precision first:
# after a colon, 为 or a score word: N分 closed by punctuation, N/5, N/10 or N/100 (``4.5 / 5`` too; N within the
# scale); after a quality word ending in 度 or 性 and a space only with its scale (推荐度 4/5); a bare N only right after 评分/得分/打分; a number glued after a quality word ending in
# 度 or 性 only when a list bar, punctuation or the line's end closes it.
_SCORE_RE = re.compile(
    r"(?:[:：为]|评分|得分|打分|[度性](?=[ \t]+\d{1,3}(?:\.\d{1,2})?[ \t]?/))[ \t]*(?P<n>\d{1,3}(?:\.\d{1,2})?)"
    r"(?:[ \t]?(?P<fen>分)(?=[\s。，,；;:：（()）|]|$)|[ \t]?/[ \t]?(?P<d>5|10|100)(?![\d/]|\.\d)|(?=[ \t]*(?:[\s。，,；;（()）|]|$)))"
    r"|(?<=[\u4e00-\u9fff])(?<=[度性])(?P<g>\d{1,2}(?:\.\d)?)(?=[ \t]*(?:[|｜,，;；。]|$))", re.M)
_SCORE_WORD_BEFORE = re.compile(r"(?:评分|得分|打分)[ \t]*[:：]?[ \t]*$")

#: Where a match of :data:`_SCORE_RE` may start (its words' first characters; a digit right after
#: 度 or 性), led by one class: re skips to one in C, where _SCORE_RE, an alternation led by a
#: group and look-behinds, gives it no first character.
_SCORE_START = re.compile(r"[:：为评得打度性\d](?:(?<=[:：为评得打])|(?<=[度性]\d)|(?<=[度性])(?=[ \t]))")
#: What a text holds where :data:`_SCORE_RE` may match (a cheap test, one scan led by one class):
#: ``:``, ``：``, ``为`` or the ``分`` ending 评分/得分/打分, spaces, then a run of 1-3 digits (a score's
#: whole part is its run: a digit after it matches none of the endings), or 度/性 right before a run of
#: 1-2. Most units have a colon and no score (``arXiv:2603.18642``): no Python step per colon for them.
_SCORE_HINT = re.compile(r"[:：为分度性](?:(?<=[度性])\d{1,2}|(?<=[:：为分])[ \t]*\d{1,3}|(?<=[度性])[ \t]+\d{1,3}(?=[.\d]*[ \t]?/))(?!\d)")


def _score_matches(norm: str) -> Iterator[re.Match[str]]:
    """``_SCORE_RE.finditer(norm)`` (:func:`~kb.perf.led.led_matches`)."""
    return led_matches(_SCORE_START, _SCORE_RE, norm)


def find_scores(norm: str) -> list[dict]:
    """The scores in ``norm`` (text folded as :func:`kb.extract.numbers._fold` folds it; :data:`_SCORE_RE`):
    ``{"start", "end", "value", "unit": None, "score": True}`` each, the value on the writer's scale."""
    got: list[dict] = []
    if _SCORE_HINT.search(norm) is None:
        return got
    for m in _score_matches(norm):
        if m["g"] is not None:
            got.append({"start": m.start("g"), "end": m.end("g"), "value": float(m["g"]), "unit": None, "score": True})
            continue
        v = float(m["n"])
        if m["d"] is not None:
            if v > int(m["d"]):
                continue  # 7/5 is no score out of 5
            e = m.end("d")
        elif m["fen"] is not None:
            e = m.end("fen")
        elif _SCORE_WORD_BEFORE.search(norm, max(0, m.start("n") - 8), m.start("n")):
            e = m.end("n")
        else:
            continue  # a bare number after a colon: a score only after a score word
        got.append({"start": m.start("n"), "end": e, "value": v, "unit": None, "score": True})
    return got
