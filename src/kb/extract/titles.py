"""How titles compare (:func:`normalize_title`, :func:`title_similarity`) and which headings are
paper titles (:func:`paper_title`, :func:`title_key`)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

# TeX accent commands (``\"o``, ``\'{e}``) -> the combining mark they stand for.
_TEX_ACCENTS = {"'": "\u0301", '"': "\u0308", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304", ".": "\u0307"}
_TEX_ACCENT_RE = re.compile(r"\\([" + re.escape("".join(_TEX_ACCENTS)) + r"])\s*\{?([A-Za-z])\}?")
_TEX_CMD_RE = re.compile(r"\\[A-Za-z]+\*?\s*")
_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_NON_WORD_RE = re.compile(r"[\W_]+")
_CJK_GAP_RE = re.compile(rf"(?<=[{_CJK}]) (?=[{_CJK}])")


@lru_cache(maxsize=1 << 16)
def normalize_title(text: str) -> str:
    r"""A title as compared everywhere (verify, lint, the diff's title citations); cached, as
    a night normalises every card's title more than once (known titles, the title index).

    Steps: TeX accents become the letter (``Schr\"odinger`` -> ``schrodinger``), other TeX
    commands are dropped with their ``{}``/``$`` kept as text (``$\mathcal{O}(n)$`` ->
    ``o n``, ``\textit{Fast}`` -> ``fast``); NFKC (full-width ``ＬＬＭ`` -> ``llm``); case-fold;
    accents on Latin letters dropped (``é`` -> ``e``; kana and hangul keep theirs); every run
    of punctuation, symbols, ``_`` and white space becomes one space (``--``, ``{Braces}``,
    ``：``); a space between two CJK characters is dropped. ``""`` for a title of punctuation only.
    """
    t = text
    if "\\" in t:
        t = _TEX_ACCENT_RE.sub(lambda m: m[2] + _TEX_ACCENTS[m[1]], t)
        t = _TEX_CMD_RE.sub(" ", t)
    if t.isascii():
        return " ".join(_NON_WORD_RE.sub(" ", t.lower()).split())
    t = unicodedata.normalize("NFKC", t).casefold()
    t = unicodedata.normalize("NFC", "".join(c for c in unicodedata.normalize("NFD", t) if c not in _LATIN_MARKS))
    t = " ".join(_NON_WORD_RE.sub(" ", t).split())
    return _CJK_GAP_RE.sub("", t)


_LATIN_MARKS = frozenset(chr(c) for c in range(0x0300, 0x0370))


def _head(title: str) -> str | None:
    """The part of ``title`` before its first colon (``Bole: Tree …`` -> ``Bole``), else None."""
    head = re.split(r"[:：]", title, maxsplit=1)[0].strip()
    return head if head and head != title.strip() else None


@lru_cache(maxsize=1)
def _ratio() -> Any:
    """The one score of two normalised titles (0..100): rapidfuzz's ``fuzz.ratio``, also the
    scorer of :class:`TitleIndex`; imported on first use (a look-up that compares no titles,
    ``kb claims --subject``, ``kb verify --offline`` of an uncached id, never loads rapidfuzz)."""
    from rapidfuzz import fuzz

    return fuzz.ratio


def normalized_ratio(a: str, b: str) -> float:
    """rapidfuzz ``ratio`` (0..100) of two already normalised titles (:func:`_ratio`)."""
    return float(_ratio()(a, b))


def title_similarity(a: str, b: str) -> float:
    """Similarity of two titles in 0..1, rounded to 3 places: rapidfuzz ``ratio`` of their
    :func:`normalize_title` forms / 100.

    When exactly one of them has a subtitle after a colon, the part before the colon is
    compared too and the higher score wins (a card titled ``Bole`` is the paper
    ``Bole: Tree Speculation …``). Used by ``kb verify`` (card vs arXiv, threshold
    ``arxiv.title_threshold``), the brief's arXiv table and the diff's title citations.
    """
    na, nb = normalize_title(a), normalize_title(b)
    score = normalized_ratio(na, nb)
    ha, hb = _head(a), _head(b)
    if (ha is None) != (hb is None):
        head, other = (normalize_title(ha), nb) if ha is not None else (normalize_title(hb or ""), na)
        score = max(score, normalized_ratio(head, other))
    return round(score / 100, 3)


#: Numbering before a heading's title: ``4.``, ``1️⃣``, ``#``, ``§2``, ``(3)``, bullets, emoji.
_TITLE_LEAD_RE = re.compile(r"^[\s#§*_>\-–—•·.、:：()（）\[\]0-9\ufe0f\u20e3\U0001F000-\U0001FAFF\u2600-\u27BF]*")
#: A heading numbered as an item: ``4. …``, ``(4) …``, ``1️⃣ …``.
_NUMBERED_RE = re.compile(r"^\s*(?:[(（]?\d{1,3}[.)）、:：]|\d\ufe0f?\u20e3|[\U0001F51F])")
#: Words that make a heading a digest's or section's name, not a paper's title.
_NOT_TITLE_WORDS = frozenset((
    "paper", "papers", "daily", "weekly", "week", "digest", "news", "updates", "update", "list",
    "readings", "top", "references", "appendix", "notes", "takeaways", "contents", "changelog", "todo", "related",
    "highlights", "briefing", "briefings", "brief", "roundup", "newsletter", "issue", "note",
    "feed", "feeds", "export", "keywords", "bookmarks", "links", "inbox",
))
#: Section names that papers also use in their titles (``… via Reading Comprehension``, ``phi-1.5
#: technical report``, ``Holistic Evaluation of …``): a heading's name only in a short heading
#: (fewer than :data:`_LONG_TITLE` Latin words: ``Evaluation Results``, ``Reading``, ``Summary``).
_SECTION_WORDS = frozenset((
    "reading", "introduction", "background", "summary", "conclusion", "conclusions", "results", "overview",
    "abstract", "method", "methods", "experiments", "evaluation", "discussion", "report", "reports",
))
_LONG_TITLE = 6


def paper_title(heading: str, *, numbered_only: bool = True) -> str | None:
    """The paper title a heading or a file's title is, else None (issue 20: daily reports list
    papers as ``### 4. <Paper Title>``; a note's ``# Title`` names its paper).

    A title here: numbering and emoji stripped, at most 40 words, at least four of them Latin
    words (three with a subtitle after a colon or in Title Case), no CJK character (``OpenAI GPT-5.6 的 GPU kernel 自优化`` is a note's heading; ``Sink-Aware Pruning for Diffusion Language Models``,
    ``SemShareKV: Efficient KVCache Sharing …``); no digest or section word (``Top ML Papers of
    the Week``, ``Related Work``; a section name such as ``Evaluation`` or ``Report`` only in a
    heading of fewer than six Latin words: ``… via Reading Comprehension`` is a title), no date. ``numbered_only``: the heading must be numbered as
    an item (``4.``, ``1️⃣``).

    :returns: the title as written, numbering stripped."""
    if numbered_only and not _NUMBERED_RE.match(heading):
        return None
    text = heading[_TITLE_LEAD_RE.match(heading).end():].strip().strip("*_ ")  # type: ignore[union-attr]
    if not 10 <= len(text) <= 250 or _CJK_RE.search(text) or _DATE_RE.search(text):
        return None  # (a CJK character: tested first, most headings of a zh KB have one)
    words = _LATIN_WORD_RE.findall(text)
    short = bool(_SUBTITLE_RE.search(text)) or all(w[0].isupper() for w in words)  # a subtitle, Title Case
    if len(words) < (3 if short else 4) or len(text.split()) > 40:
        return None
    lower = {w.lower() for w in words}
    if lower & _NOT_TITLE_WORDS or (len(words) < _LONG_TITLE and lower & _SECTION_WORDS):
        return None
    return text


_CJK_RE = re.compile(f"[{_CJK}]")


def numbered_item(heading: str) -> bool:
    """A heading numbered as a list's item (``### 40. <headline>``, ``(3) …``, ``1️⃣ …``): one
    entry of a digest, whatever its language (a paper's item when its section links one paper:
    :func:`kb.read.scopes.section_ids`)."""
    return _NUMBERED_RE.match(heading) is not None


_LATIN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9'+.-]*")
_SUBTITLE_RE = re.compile(r"\w[:：]\s")
_DATE_RE = re.compile(r"\b(?:19|20)\d\d[-./年]\s*\d{1,2}|\d{1,2}\s*月\s*\d{1,2}")


def title_key(title: str) -> str:
    """The subject key of a paper known only by its title: ``title:`` + :func:`normalize_title`
    (resolved to the paper's id at diff time when the KB knows the title)."""
    return "title:" + normalize_title(title)
