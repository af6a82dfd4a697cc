"""Inline text of a unit: an inline token's plain text with its links, bold spans and line breaks,
and a paragraph's sentences (:mod:`kb.read.walk` reads blocks with them)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from markdown_it.token import Token

_SENT_END_RE = re.compile(r"(?<=[。！？!?；;])\s*|(?<=[.])\s+(?=[A-Z\u4e00-\u9fff【「“(（])")
#: Quoted text and titles a sentence end inside does not end the sentence (issue 20: a ``?`` in
#: 《Can Draft Models Verify?》 or "Is Prefill Enough?" cut the claim in two).
_QUOTED_RE = re.compile(r"《[^《》\n]{1,300}》|「[^「」\n]{1,300}」|『[^『』\n]{1,300}』|“[^“”\n]{1,300}”"
                        r"|\"[^\"\n]{1,300}\"")
_QUOTE_CHARS = frozenset("《「『“\"")
#: Abbreviations a full stop ends without ending the sentence (``e.g.``, ``i.e.``, ``et al.``,
#: ``Fig.``): the text right before a ``.`` end (case-insensitive).
_ABBREV_RE = re.compile(r"(?<![A-Za-z])(?:e\.g|i\.e|et al|al|figs?|eqs?|tabs?|secs?|refs?|vs|cf|approx|"
                        r"resp|incl|viz|ca|vol|pp|ch|app)$", re.IGNORECASE)
_EMPH_RE = re.compile(r"\*\*|__")
#: A clause that qualifies the one before it: a ``；``/``;`` before it ends no sentence (issue 22:
#: "吞吐 2.03×；但只在单 GPU 上测过" is one claim, its caveat kept).
_QUALIFIES_RE = re.compile(r"(?:但|不过|然而|可是|只|仅|尚|还没|没有|未|需|待|须|前提|局限|(?i:however|but|only|though|not|yet)\b)")


@dataclass(slots=True)
class _Inline:
    """Plain text of an inline token, the hrefs in it, the offsets of its line breaks and the
    ``(start, end)`` spans of its link texts and bold texts (no cue text when titles)."""

    text: str
    hrefs: list[str]
    breaks: list[int]
    links: list[tuple[int, int]] = field(default_factory=list)
    bold: list[tuple[int, int]] = field(default_factory=list)


def _inline_text(tok: Token) -> _Inline:
    children = tok.children
    if children and len(children) == 1 and children[0].type in ("text", "code_inline"):
        text = children[0].content  # one run of plain text (most table cells and list items): no parts to join
        if "**" not in text and "__" not in text:
            return _Inline(text, [], [], [], [])
    parts: list[str] = []
    hrefs: list[str] = []
    breaks: list[int] = []
    links: list[tuple[int, int]] = []
    bold: list[tuple[int, int]] = []
    link_at: int | None = None
    bold_at: int | None = None
    pos = 0
    for child in tok.children or ():
        t = child.type
        if t == "text" or t == "code_inline":
            s = child.content
        elif t in ("softbreak", "hardbreak"):
            breaks.append(pos)
            s = " "
        elif t == "link_open":
            href = child.attrs.get("href")
            if href:
                hrefs.append(str(href))
            link_at = pos
            continue
        elif t == "link_close":
            if link_at is not None and pos > link_at:
                links.append((link_at, pos))
            link_at = None
            continue
        elif t == "strong_open":
            bold_at = pos
            continue
        elif t == "strong_close":
            if bold_at is not None and pos > bold_at:
                bold.append((bold_at, pos))
            bold_at = None
            continue
        elif t == "image":
            s = child.content
        else:
            continue
        parts.append(s)
        pos += len(s)
    text = "".join(parts)
    if "**" in text or "__" in text:
        # C12: emphasis that CommonMark could not close stays literal; drop the markers.
        text, breaks, (links, bold) = _drop_markers(text, breaks, (links, bold))
    return _Inline(text, hrefs, breaks, links, bold)


def _drop_markers(text: str, breaks: list[int], spans: tuple[list[tuple[int, int]], ...] = ()
                  ) -> tuple[str, list[int], tuple[list[tuple[int, int]], ...]]:
    """``text`` without its literal ``**``/``__`` markers; line breaks and spans moved along."""
    out: list[str] = []
    removed_before: list[int] = []
    last = 0
    for m in _EMPH_RE.finditer(text):
        out.append(text[last : m.start()])
        removed_before.append(m.start())
        last = m.end()
    out.append(text[last:])

    def shift(b: int) -> int:
        return b - 2 * bisect.bisect_left(removed_before, b)

    new_spans = tuple([(shift(a), shift(b)) for a, b in group] for group in spans)
    return "".join(out), [shift(b) for b in breaks], new_spans


def _split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans of a paragraph's text (zh and en end marks; decimals are not ends, nor
    an end mark inside a quote or title, :data:`_QUOTED_RE`, nor a full stop after an
    abbreviation, :data:`_ABBREV_RE`)."""
    spans: list[tuple[int, int]] = []
    start = 0
    quoted = [m.span() for m in _QUOTED_RE.finditer(text)] if not _QUOTE_CHARS.isdisjoint(text) else []
    for m in _SENT_END_RE.finditer(text):
        if m.start() <= start or (text[m.start() - 1] in "；;" and _QUALIFIES_RE.match(text, m.end())):
            continue
        if quoted and any(a < m.start() < b for a, b in quoted):
            continue  # an end mark inside a quote or title
        if text[m.start() - 1] == "." and _ABBREV_RE.search(text, max(0, m.start() - 8), m.start() - 1):
            continue  # e.g. / et al. / Fig.
        spans.append((start, m.start()))
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def _clip(spans: list[tuple[int, int]], a: int, b: int) -> list[tuple[int, int]]:
    """``spans`` inside ``[a, b)``, as offsets from ``a`` (a sentence of a paragraph)."""
    return [(max(x, a) - a, min(y, b) - a) for x, y in spans if x < b and y > a]


_HREF_ID_RE = re.compile(r"(\d{4}\.\d{4,5})")


def _href_key(href: str) -> str:
    m = _HREF_ID_RE.search(href)
    return m.group(1) if m else href
