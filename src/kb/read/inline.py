"""Inline text of a unit: an inline token's plain text with its links, bold spans and line breaks
(inline HTML and struck-out text included: :func:`_inline_text`), and a paragraph's sentences
(:mod:`kb.read.walk` reads blocks with them)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from markdown_it.token import Token

from kb.core.textio import drop_invisible

#: A sentence's end mark and the spaces after it (a full stop only before spaces and a capital, a
#: CJK character or an opening bracket); the sentence ends right after the mark. (The mark is
#: matched, not looked behind at: re then finds the candidates at C speed, not by trying every
#: position; the matches are the old lookbehind pattern's, each one character earlier.)
_SENT_END_RE = re.compile(r"[。！？!?；;]\s*|\.\s+(?=[A-Z\u4e00-\u9fff【「“(（])")
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
    href_at: list[int] = field(default_factory=list)
    """Where each of ``hrefs`` stands in ``text`` (the start of its link text): a sentence of a
    paragraph takes the links written in it (``[TileScope: …](https://arxiv.org/abs/…)``)."""


#: HTML elements that break a line or a block where they stand (and comments): their tags part
#: the text on either side, as a line break would (``21 tok/s<br>ttft 22 ms``).
BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "br", "caption", "center", "dd", "details", "dialog", "div",
    "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
    "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td",
    "tfoot", "th", "thead", "tr", "ul", "img"})
#: HTML elements whose text is struck out (a corrected value), not read, like ``~~…~~``.
STRUCK_TAGS = frozenset({"del", "s", "strike"})
_BOLD_TAGS = frozenset({"b", "strong"})
_EMPHASIS = frozenset({"strong_open", "strong_close", "em_open", "em_close"})
_TAG_RE = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)")
#: What a ``<sup>`` or ``<sub>`` stands for when its text does not join the word before it.
_SCRIPT_MARKS = {"sup": "^", "sub": "_"}
_SEPARATING = BLOCK_TAGS | {"!"}
_HREF_RE = re.compile(r"""\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.IGNORECASE)


def _tag(raw: str) -> tuple[str, bool]:
    """``(name, closing)`` of one inline HTML tag as markdown-it isolated it (``<br/>`` is
    ``("br", False)``); a comment, declaration or processing instruction is ``("!", False)``."""
    m = _TAG_RE.match(raw)
    return (m.group(2).lower(), m.group(1) == "/") if m else ("!", False)


def _glued(before: str, after: str) -> bool:
    """Whether dropping a tag between ``before`` and ``after`` (the characters on either side)
    would join two words into one (``tok/s<span>ttft``); two CJK characters are never parted by
    a space, nor two digits (``7<b>06</b>`` is the one number 706, as a viewer shows it), nor is
    anything next to a space or a mark."""
    if not (before.isalnum() and after.isalnum()) or (before.isdecimal() and after.isdecimal()):
        return False
    return not (before >= "\u2e80" and after >= "\u2e80")


def _next_chars(children: list[Token]) -> list[str]:
    """For each child ``k``, the first character of the text after it (over tags that add none);
    ``" "`` for a line break, a block tag or the end. One backward pass (a scan forward from
    each tag was quadratic on a line of ``1<br>`` repeated)."""
    out = [" "] * len(children)
    nxt = " "
    for k in range(len(children) - 1, -1, -1):
        out[k] = nxt
        child = children[k]
        t = child.type
        if t in ("text", "code_inline") and child.content:
            nxt = child.content[0]
        elif t in ("softbreak", "hardbreak") or (t == "html_inline" and _tag(child.content)[0] in _SEPARATING):
            nxt = " "
    return out


def _closed_later(children: list[Token]) -> dict[str, int]:
    """The index of the last closing tag of each struck-out element (:data:`STRUCK_TAGS`) among
    ``children``: a ``<del>`` at ``k`` is closed when its name's index is above ``k``."""
    last: dict[str, int] = {}
    for k, child in enumerate(children):
        if child.type == "html_inline":
            name, closing = _tag(child.content)
            if closing and name in STRUCK_TAGS:
                last[name] = k
    return last


def _inline_text(tok: Token) -> _Inline:
    """The plain text of an inline token as kb reads it (the one place markup becomes text).

    Links, bold and line breaks are recorded (:class:`_Inline`). Inline HTML
    (markdown-it ``html_inline``): a tag of :data:`BLOCK_TAGS` (``<br>``, ``</p><p>``, ``<hr>``)
    or a comment parts the text around it with a space; any other tag is dropped, with a space
    only where it would join two words (``31 tok/s<span>ttft`` is ``31 tok/s ttft``,
    ``<b>360</b> tok/s`` is ``360 tok/s``; two digits are one number: ``7<b>06</b>`` is ``706``); ``<a href>`` gives its href and link span and ``<b>``/``<strong>``
    a bold span. A ``<sup>`` that opens with a digit or sign is ``^`` (``10<sup>3</sup>`` is
    ``10^3``, read as 1000 by :mod:`kb.extract.numbers`; ``1<sup>3</sup>`` is ``1^3``, never 13; a
    footnote ``throughput<sup>1</sup> 500`` is ``throughput^1 500``), one of letters stays part of
    the word (``2<sup>nd</sup>``); ``<sub>`` is ``_``. Struck-out
    text (``~~354 tok/s~~``, ``<del>``, ``<s>``, ``<strike>``) is a corrected value and is not
    read. ``**`` between two digits is a power (``2**10`` is ``2^10``, also when CommonMark paired
    it with another as bold), never dropped so that the digits join (:func:`_drop_markers`). The invisible and
    direction characters a character reference stands for (``4&#8203;09``, ``&#x202E;``) are
    removed as :func:`kb.core.textio.decode` removes them written as they are
    (:func:`kb.core.textio.drop_invisible`)."""
    children = tok.children
    if children and len(children) == 1 and children[0].type in ("text", "code_inline"):
        text = drop_invisible(children[0].content)  # one run of plain text (most table cells and list items)
        if "**" not in text and "__" not in text:
            return _Inline(text, [], [], [], [])
    children = children or []
    parts: list[str] = []
    hrefs: list[str] = []
    href_at: list[int] = []
    breaks: list[int] = []
    links: list[tuple[int, int]] = []
    bold: list[tuple[int, int]] = []
    link_at: int | None = None
    bold_at: int | None = None
    struck = 0  # depth of struck-out text
    pos = 0
    after: list[str] = []  # _next_chars, made when a tag or emphasis first needs it
    closers: dict[str, int] | None = None
    for k, child in enumerate(children):
        t = child.type
        last = parts[-1][-1] if parts and parts[-1] else " "
        if t in ("s_open", "s_close"):
            struck = max(0, struck + (1 if t == "s_open" else -1))
            continue
        if t in ("softbreak", "hardbreak"):
            breaks.append(pos)
            s = " "
        elif struck and t != "html_inline":
            continue
        elif t == "text" or t == "code_inline":
            s = drop_invisible(child.content)
            if parts and s[:1].isspace() and last.isspace():
                s = s[1:]  # after struck-out text or a separator: one space, not two
        elif t == "html_inline":
            name, closing = _tag(child.content)
            if name in STRUCK_TAGS:
                if closers is None:
                    closers = _closed_later(children)
                if closing or closers.get(name, -1) > k:
                    struck = max(0, struck + (-1 if closing else 1))  # (a <del> never closed strikes nothing)
                continue
            if struck or name == "wbr":
                continue  # (<wbr>: where a long word may wrap, no break in it)
            s = ""
            after = after or _next_chars(children)
            nxt = after[k]
            if name in BLOCK_TAGS or name == "!":
                s = "" if last.isspace() or nxt.isspace() else " "
            elif name in _SCRIPT_MARKS and not closing:
                if nxt.isdigit() or nxt in "+-\u2212" or name == "sub":
                    s = _SCRIPT_MARKS[name]  # 10<sup>3</sup> is 10^3; a footnote's number is kept apart
                else:
                    continue  # 2<sup>nd</sup>: a word's ending
            elif name == "a" and not closing:
                if m := _HREF_RE.search(child.content):
                    hrefs.append(next(g for g in m.groups() if g is not None))
                    href_at.append(pos)
                link_at = pos
            elif name == "a":
                if link_at is not None and pos > link_at:
                    links.append((link_at, pos))
                link_at = None
            elif name in _BOLD_TAGS:
                if not closing:
                    bold_at = pos
                elif bold_at is not None and pos > bold_at:
                    bold.append((bold_at, pos))
                    bold_at = None
            if not s and _glued(last, nxt):
                s = " "
            if not s:
                continue
        elif t == "link_open":
            href = child.attrs.get("href")
            if href:
                hrefs.append(str(href))
                href_at.append(pos)
            link_at = pos
            continue
        elif t == "link_close":
            if link_at is not None and pos > link_at:
                links.append((link_at, pos))
            link_at = None
            continue
        elif t in _EMPHASIS and last.isdigit() and (after := after or _next_chars(children))[k].isdigit():
            s = child.markup  # 2**10 tok/s and 10**6: no emphasis between two digits (_drop_markers)
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
        text, breaks, (links, bold, at) = _drop_markers(text, breaks, (links, bold, [(p, p) for p in href_at]))
        href_at = [p for p, _ in at]
    return _Inline(text, hrefs, breaks, links, bold, href_at)


def _drop_markers(text: str, breaks: list[int], spans: tuple[list[tuple[int, int]], ...] = ()
                  ) -> tuple[str, list[int], tuple[list[tuple[int, int]], ...]]:
    """``text`` without its literal ``**``/``__`` markers; line breaks and spans moved along.
    A marker between two digits is no emphasis: ``2**10`` is the power ``2^10``, ``2__10`` is
    ``2 10`` (two numbers), never ``210``."""
    out: list[str] = []
    at: list[int] = []  # where each marker started
    gone: list[int] = []  # characters removed up to and with each marker
    removed = 0
    last = 0
    for m in _EMPH_RE.finditer(text):
        a, b = m.span()
        out.append(text[last:a])
        between = 0 < a and b < len(text) and text[a - 1].isdigit() and text[b].isdigit()
        keep = ("^" if m.group() == "**" else " ") if between else ""
        out.append(keep)
        removed += 2 - len(keep)
        at.append(a)
        gone.append(removed)
        last = b
    out.append(text[last:])

    def shift(p: int) -> int:
        k = bisect.bisect_left(at, p)
        return p - (gone[k - 1] if k else 0)

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
        end = m.start() + 1  # right after the mark
        if end <= start or (text[end - 1] in "；;" and _QUALIFIES_RE.match(text, m.end())):
            continue
        if quoted and any(a < end < b for a, b in quoted):
            continue  # an end mark inside a quote or title
        if text[end - 1] == "." and _ABBREV_RE.search(text, max(0, end - 8), end - 1):
            continue  # e.g. / et al. / Fig.
        spans.append((start, end))
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
