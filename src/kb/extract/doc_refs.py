"""Where a text names the living doc's own value (issue 8, issue 20): the figure a dispute word
quotes from the doc (``活文档的 2.03×``, ``文档 §2.3 那个 3.2×``, ``the 120 ms in our doc``), read by
:func:`kb.extract.kinds.moods` — that figure is the doc's, disputed; the others are the source's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: Words right before a figure that say it is the reference's value being disputed.
_DOC_REF_RE = re.compile(
    r"(?:活文档|文档|知识库|living[- ]doc(?:ument)?|the doc(?:ument)?|our doc(?:ument)?)"
    r"\s*(?:里|中|上|里面)?\s*(?:的|写的|记录的|给的|所写|'s|’s|says?|states?|has)?\s*[^\d\s]{0,8}\s*$",
    re.IGNORECASE)


#: … or right after it: "the 1.56× in our living doc", "2.03×（活文档）".
_DOC_REF_AFTER_RE = re.compile(
    # up to three words naming what the figure is between it and the doc ("the 82% acceptance rate
    # that our doc gives", "the 2.4× speedup that the doc lists"), none a word of a comparison
    r"(?:\s+(?!(?:than|vs|versus|and|or|but|while|whereas|says?|reports?|claims?)(?![\w-]))[A-Za-z][\w/-]*){0,3}?"
    r"\s*(?:[（(]\s*(?:活文档|文档)|(?:in|of|from)\s+(?:the|our)\s+(?:living[- ])?doc(?:ument)?\b|在活文档"
    # "the 2.4× that the doc lists", "the 85 ms our doc gives", "the 120 ms listed in our doc"
    r"|(?:(?:that|which|as)\s+)?(?:the|our)\s+(?:living[- ])?doc(?:ument)?\s+(?:gives?|lists?|states?|says?|has|"
    r"quotes?|cites?|reports?|records?|shows?|carries|holds)\b"
    r"|(?:that|which|as)\s+(?:the|our)\s+(?:living[- ])?doc(?:ument)?\b"
    r"|(?:listed|quoted|stated|given|recorded|written)\s+(?:in|by)\s+(?:the|our)\s+(?:living[- ])?doc(?:ument)?\b)",
    re.IGNORECASE)


#: The doc named before a figure further back: ``文档 §2.3 那个 3.2×``, ``our doc's ShardServe p99 of 120 ms``.
_DOC_WORD_RE = re.compile(r"活文档|文档|知识库|living[- ]doc(?:ument)?|(?<![a-z])(?:the|our)\s+doc(?:ument)?(?![a-z])",
                          re.IGNORECASE)
#: Words between the doc's name and a figure that make the figure another source's.
_OTHER_SOURCE_RE = re.compile(r"作者|论文|博客|专栏|官方|原文|报道|readme|blog|paper|author|post|column|article|"
                              r"newsletter|tweet|thread|benchmark|[，,；;。]", re.IGNORECASE)
_SECTION_NO_RE = re.compile(r"§\s*\d+(?:\.\d+)*")


def _doc_quote_before(text: str, lo: int, a: int, stops: Sequence[int] = ()) -> bool:
    """Whether the figure at ``a`` is the doc's value quoted with the doc named before it, a
    section number, a subject or a metric name between (no other figure, clause mark, other
    source's name or dispute word, at ``stops``): ``文档 §2.3 那个 ShardServe 命中率 82%``, ``our
    doc's ShardServe p99 of 120 ms``; not ``the 82% in our living doc does not match our 60%``
    (60% is the analyst's own figure, set against the quote)."""
    start = max(lo, a - 60)
    found = None
    for m in _DOC_WORD_RE.finditer(text, start, a):
        found = m
    if found is None or any(found.end() <= p < a for p in stops):
        return False
    between = _SECTION_NO_RE.sub("", text[found.end():a])
    return not any(ch.isdigit() for ch in between) and _OTHER_SOURCE_RE.search(between) is None


def names_doc(part: str) -> bool:
    """True when ``part`` names the living doc's value anywhere (then only that one is disputed)."""
    return re.search(r"活文档|文档|知识库|living[- ]doc|the doc\b|our doc\b", part, re.IGNORECASE) is not None


def quotes_doc(text: str, lo: int, hi: int, a: int, b: int, stops: Sequence[int] = ()) -> bool:
    """Whether the figure ``text[a:b]`` of the part ``text[lo:hi]`` is the doc's value quoted: the
    doc named right before it (:data:`_DOC_REF_RE`), right after it, up to three words naming the
    figure between (:data:`_DOC_REF_AFTER_RE`: ``the 82% acceptance rate that our doc gives``), or
    further back with only a section number, subject or metric between (:func:`_doc_quote_before`;
    ``stops``: where the part's dispute words start, which end a quote)."""
    return (_DOC_REF_RE.search(text[max(lo, a - 24):a]) is not None
            or _DOC_REF_AFTER_RE.match(text, b, min(hi, b + 64)) is not None
            or _doc_quote_before(text, lo, a, stops))
