"""Claim-kind signals: explicit tags, kind-column values and zh/en cue phrases (DESIGN.md §2),
moods (plans, disputes) and units that are no claim (bylines, titles). The words are data in
:mod:`kb.extract.vocab.kinds`."""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from kb.core.claims import Kind, Mood
from kb.core.config import CuesConfig
from kb.extract.bylines import BYLINE_RE, METADATA_RE, TITLE_WORD_RE
from kb.extract.doc_refs import names_doc, quotes_doc
from kb.extract.fold import lower_same_length
from kb.extract.vocab.kinds import (AUTHOR_MEDIA, BUILTIN_CUES, COLUMN_VALUES, DISPUTE_CUES, DOUBT_CUES,
                                    KIND_HEADERS, PLAN_CUES, TAGS, TITLE_HEADERS, WEAK_CUES)
from kb.perf.literals import first_char_guard, literal_hint

TAG_RE = re.compile(r"[\[【]\s*(" + "|".join(map(re.escape, TAGS)) + r")\s*[\]】]", re.IGNORECASE)
"""An explicit kind tag (:data:`~kb.extract.vocab.kinds.TAGS`) in brackets."""

# "据" alone ("据 X 报道") is a weak secondhand cue, but not inside 数据/根据/依据/证据/占据/票据.
_JU_RE = re.compile(r"(?<![数根依证占票收单字])据(?![悉称报])")
# A table or figure of the paper cited by number ("Table 3", "Fig. 7"): a weak paper-fact cue;
# "Portable", "Stable" or "Lookup Table Enables" are none (whole words and a number only).
_FIGURE_CUE_RE = (r"(?<![a-z0-9])(?:table|tab\.|fig\.|figure)\s*\d+"
                  # … unless it is a figure of a blog post, thread or article ("Fig. 7 of the Dynamo post")
                  r"(?!\s+(?:of|in|from)\s+(?:the|a|an|this|that)?\s*(?:[\w.-]+\s+){0,3}"
                  r"(?:post|blog|article|thread|tweet|newsletter|video|slides?|talk)s?(?![a-z]))")
# What the authors said outside their paper ("according to the authors' talk"): a strong
# secondhand cue (AUTHOR_MEDIA), so that "according to the authors" is no paper-fact there.
_AUTHOR_MEDIA_CUE_RE = (r"(?<![a-z0-9])(?:(?:according\s+to|per|from|in)\s+)?(?:the\s+|their\s+)?authors?(?:['’]s?|\s+own)\s+(?:own\s+)?(?:"
                        + "|".join(sorted(AUTHOR_MEDIA, key=len, reverse=True)) + r")s?(?![a-z])")
# A CJK cue right after a negation is none: "非原文" (not the original), "非转述", "未经论文报告".
_NEGATION = "非不未无没"
# (the look-behind sits after the letter, so that re skips to a C, Q or O: 5x faster than
# "(?<![A-Za-z0-9])[CQO]…", the same matches)
_INTERNAL_ID_RE = re.compile(r"[CQO](?<![A-Za-z0-9][CQO])\d{2,4}(?![A-Za-z0-9])")
#: Three or more whitespace characters (a blanked date and the spaces around it: :func:`non_claim`).
_WS_RUN_RE = re.compile(r"\s{3,}")
_WORD_START = r"(?<![a-z0-9])"  # before a cue that opens with an ASCII letter or digit: a word start
#: Characters that stand in for text that is no cue text (titles, quotes), see :func:`cue_masks`.
MASK = "\x01"


def _alternatives(phrases: Sequence[str]) -> list[str]:
    """Cue phrases (longest first) as patterns over lower-cased text: Latin ends match whole
    words only (``table`` is not in ``portable``), a CJK start not right after a negation
    (``非原文``). Phrases that share their guards share one group, so the guards are tested
    once per position (a guard per phrase made parsing 40% slower)."""
    buckets: dict[tuple[str, str], list[str]] = {}
    for p in phrases:
        head, tail = p[0], p[-1]
        lead = _WORD_START if head.isascii() and head.isalnum() else (
            f"(?<![{_NEGATION}])" if "\u2e80" <= head else "")
        trail = r"(?![a-z0-9])" if tail.isascii() and tail.isalnum() else ""
        buckets.setdefault((lead, trail), []).append(re.escape(p))
    return [f"{lead}(?:{'|'.join(body)}){trail}" for (lead, trail), body in buckets.items()]


def explicit_tag(text: str) -> tuple[Kind, str, tuple[int, int]] | None:
    """The first explicit kind tag in ``text``.

    :returns: ``(kind, tag_as_written, (start, end))`` or None.
    """
    m = TAG_RE.search(text)
    if not m:
        return None
    return TAGS[m.group(1).lower() if m.group(1).isascii() else m.group(1)], m.group(0), m.span()


def column_kind(value: str) -> Kind | None:
    """Kind named by a table kind-column cell (``论文事实``, ``secondhand``, ``评级`` …), else None."""
    v = value.strip().strip("[]【】").strip().lower()
    return COLUMN_VALUES.get(v) or next(
        (k for name, k in COLUMN_VALUES.items() if len(name) > 1 and name in v), None
    )


def is_kind_header(cell: str) -> bool:
    """True when a table header cell names the claim-kind column."""
    return cell.strip().lower() in KIND_HEADERS


def is_title_header(cell: str) -> bool:
    """True when a table header cell names a column of paper titles (``Title``, ``论文`` …)."""
    return cell.strip().strip("*_ ").lower() in TITLE_HEADERS


# Quoted text is someone else's words or a title, never the writer's own cue: “…”, "…", 「…」,
# 『…』 and 《…》 (a CJK title mark).
_QUOTE_RE = re.compile(r"“[^”\n]{1,300}”|\"[^\"\n]{1,300}\"|「[^」\n]{1,300}」|『[^』\n]{1,300}』|《[^》\n]{1,300}》")
_QUOTE_MARK_RE = re.compile(r"[“\"「『《]")
"""A character that opens a quote of :data:`_QUOTE_RE` (most texts hold none)."""
_LATIN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9'’-]*")


def looks_like_title(span: str) -> bool:
    """True when bold text reads as a paper title rather than an emphasised label.

    A title here is mostly Latin, of two words or more, starting with a capital or digit
    (``Sink-Aware Pruning for DLMs``); ``论文报告：`` or ``2.1×`` are labels, not titles.
    """
    s = span.strip(" :：*_-—")
    words = _LATIN_WORD_RE.findall(s)
    if len(words) < 2 or not (s[:1].isupper() or s[:1].isdigit()):
        return False
    latin = sum(len(w) for w in words)
    return latin >= 0.6 * len(s.replace(" ", ""))


def cue_masks(text: str, titles: Sequence[tuple[int, int]] = (), bold: Sequence[tuple[int, int]] = (),
              cues: CueMatcher | None = None) -> str:
    """``text`` with the spans that are no cue text replaced by :data:`MASK` (same length).

    No cue text (issue 8): link texts and title-column cells (``titles``, always), bold text
    that :func:`looks_like_title` (``bold``) unless a cue is most of it (``**The paper
    reports**``), and quoted text (:data:`_QUOTE_RE`). A cue word inside a paper's title
    ("Reportedly Fast Decoding", "… via Tree Attention") says nothing about who states the
    sentence's figures.

    :param titles: ``(start, end)`` offsets in ``text``.
    :param bold: ``(start, end)`` offsets of bold spans in ``text``.
    :param cues: the KB's cue matcher (built-ins when None).
    :returns: the masked text, for :meth:`CueMatcher.match` and :func:`moods`.
    """
    spans = list(titles)
    for a, b in bold:
        if looks_like_title(text[a:b]):
            cue = (cues or _default_cues()).match(text[a:b])
            if cue is None or 2 * len(cue[1]) < len(text[a:b].strip()):
                spans.append((a, b))
    if _QUOTE_MARK_RE.search(text):
        spans += [m.span() for m in _QUOTE_RE.finditer(text)]
    if not spans:
        return text
    chars = list(text)
    for a, b in spans:
        for i in range(max(a, 0), min(b, len(chars))):
            if not chars[i].isspace():
                chars[i] = MASK
    return "".join(chars)


class CueMatcher:
    """Cue phrases per kind: the built-ins plus ``kb.yaml`` ``cues:`` (case-insensitive; a
    phrase of ``kb.yaml`` is a strong cue).

    :param extra: kind -> extra phrases.
    """

    def __init__(self, extra: Mapping[Kind, Sequence[str]] | None = None) -> None:
        groups: list[str] = []
        self._group: dict[str, tuple[int, Kind]] = {}
        n = 0
        for strength, table in ((0, BUILTIN_CUES), (1, WEAK_CUES)):
            for kind, phrases in table.items():
                more = (extra or {}).get(kind, ()) if strength == 0 else ()
                # longest first; phrases of one length in their order, not the set's (which
                # changes with the hash seed): the same pattern, and the same guard group first, every run
                allp = sorted(sorted({p.lower() for p in (*phrases, *more) if p.strip()}), key=len, reverse=True)
                alts = _alternatives(allp)
                if strength == 0 and kind == "secondhand":
                    alts.append(_AUTHOR_MEDIA_CUE_RE)
                if strength == 1 and kind == "secondhand":
                    alts.append(_JU_RE.pattern)
                if strength == 1 and kind == "paper-fact":
                    alts.append(_FIGURE_CUE_RE)
                if alts:
                    groups.append(f"(?P<k{n}>" + "|".join(alts) + ")")
                    self._group[f"k{n}"] = (strength, kind)
                    n += 1
        # one pass over the lower-cased text finds every cue of every kind (a case-sensitive
        # pattern over lower-cased text is 2-3x faster than re.IGNORECASE here); strong groups
        # come first, so at one position a strong cue wins ("according to the blog")
        plain = re.compile("|".join(groups))
        # literals one of which every cue contains: a text without any has no cue (one quick scan)
        self._hint = literal_hint([plain])
        # led by the cues' first characters (the guards before them gave re none to skip to), then by a word
        # start where an ASCII letter or digit stands: a cue that may open with one opens a word (_WORD_START leads
        # it: _alternatives, _AUTHOR_MEDIA_CUE_RE, _FIGURE_CUE_RE; _JU_RE opens with 据): no match is lost
        guarded = first_char_guard(plain).pattern
        lead = guarded[:-len(plain.pattern) - 4] if guarded.endswith(f"(?:{plain.pattern})") else ""
        self._re = re.compile(lead + rf"(?:{_WORD_START}|(?![a-z0-9]))(?:{plain.pattern})")

    @classmethod
    def from_config(cls, cues: CuesConfig) -> CueMatcher:
        """The matcher of the built-in cues plus ``kb.yaml``'s ``cues:`` (the parser's and the
        night's title-only lines' one construction)."""
        return cls({"secondhand": cues.secondhand, "paper-fact": cues.paper_fact,
                    "internal-rating": cues.internal_rating})

    def match(self, text: str) -> tuple[Kind, str] | None:
        """The kind whose cue appears in ``text`` (priority: see
        :data:`~kb.extract.vocab.kinds.BUILTIN_CUES`).

        :param text: the unit's text, with no-cue spans replaced by :data:`MASK` (see
            :func:`cue_masks`).
        :returns: ``(kind, cue_as_written)`` or None.
        """
        found: dict[tuple[int, Kind], str] = {}
        low = lower_same_length(text)
        for m in self._re.finditer(low) if self._hint is None or self._hint.search(low) else ():
            strength, kind = self._group[m.lastgroup or ""]
            found.setdefault((strength, kind), text[m.start():m.end()].strip())
            if (strength, kind) == (0, "secondhand"):
                break
        for key in _PRIORITY if found else ():
            if key in found:
                return key[1], found[key]
        m = _INTERNAL_ID_RE.search(text) if ("C" in text or "Q" in text or "O" in text) else None  # (its ids open so)
        if m and not _has_other_anchor(text, m):
            return "internal-rating", m.group(0)
        return None


#: ``(strength, kind)`` in the order they win (0 strong, 1 weak).
_PRIORITY: tuple[tuple[int, Kind], ...] = ((0, "secondhand"), (0, "paper-fact"), (1, "secondhand"), (1, "paper-fact"), (0, "internal-rating"))


def kind_by_cue(cues: CueMatcher, text: str, role: str) -> tuple[Kind, str]:
    """The kind of a claim no tag, quote stamp or card decides (DESIGN.md §2): its cue's kind
    (reason ``cue:<phrase>``), else ``secondhand`` (reason ``default:<role>``)."""
    cue = cues.match(text)
    return (cue[0], f"cue:{cue[1]}") if cue is not None else ("secondhand", f"default:{role}")


def _has_other_anchor(text: str, internal: re.Match[str]) -> bool:
    """An internal id is only a cue when the sentence has nothing else to stand on."""
    rest = text[: internal.start()] + text[internal.end() :]
    return bool(re.search(r"\d{4}\.\d{4,5}|\d", rest))


def internal_ids(text: str) -> list[str]:
    """Internal ids (``C116``, ``O172``, ``Q105``) in ``text``: never evidence (DESIGN.md §1)."""
    return _INTERNAL_ID_RE.findall(text)


# -- moods: figures that are no statement of fact ------------------------------------------

_MOOD_PLAIN = re.compile("(?P<plan>" + "|".join(PLAN_CUES) + ")|(?P<disputed>" + "|".join(DISPUTE_CUES) + ")")
#: Literals one of which every plan or dispute word contains (a text without any has no mood).
_MOOD_HINT = literal_hint([_MOOD_PLAIN])
#: _MOOD_PLAIN led by the characters its words start with (kb.perf.literals.first_char_guard).
_MOOD_RE = first_char_guard(_MOOD_PLAIN)
#: Doubt words (:data:`~kb.extract.vocab.kinds.DOUBT_CUES`), more words of the ``disputed`` mood.
_DOUBT_HINT, _DOUBT_RE = literal_hint([re.compile("|".join(DOUBT_CUES))]), first_char_guard(re.compile("|".join(DOUBT_CUES)))
#: One hint for both (most texts hold no mood word: one scan, not two).
_ANY_MOOD_HINT = literal_hint([_MOOD_PLAIN, re.compile("|".join(DOUBT_CUES))]) if _MOOD_HINT and _DOUBT_HINT else None
#: Clause ends: a plan word governs its clause only ("论文报告 2.1×，建议排 3–6 个月" keeps 2.1×).
_CLAUSE_RE = re.compile(r"[。；;！？!?，|]|,(?!\d{3})|\.(?=\s)")
#: Ends of the part of a unit a dispute word governs: a sentence or a table cell, commas
#: included ("专栏写的 2.31×，和活文档的 2.03× 对不上"), not the next sentence of a list item
#: ("TGI 于 2026-03-21 进入维护模式；活文档里写的日期与此对不上" keeps 2026-03-21).
_PART_RE = re.compile(r"[。；;！？!?|]|\.(?=\s)")


def moods(text: str, spans: Sequence[tuple[int, int]], cues: CueMatcher | None = None) -> list[Mood | None]:
    """The mood of each figure at ``spans`` of ``text``: ``"plan"``, ``"disputed"`` or None.

    * ``plan``: a plan, advice or forecast word (:data:`~kb.extract.vocab.kinds.PLAN_CUES`) in the
      figure's clause, or a to-do label leading the unit (``next:``, ``todo:``, ``下一步：``: every figure).
    * ``disputed``: a dispute or doubt word (:data:`~kb.extract.vocab.kinds.DISPUTE_CUES`,
      :data:`~kb.extract.vocab.kinds.DOUBT_CUES`) in the figure's sentence or table
      cell (:data:`_PART_RE`: it quotes values to say they disagree). When the part names the
      living doc, only the doc's value is disputed ("专栏写的 2.31× 和活文档的 2.03× 对不上":
      2.03× is the quote, 2.31× is what the column reports and may conflict); a figure whose
      own clause has a paper-fact cue and no dispute word is never disputed ("论文报告 2.1×，与
      活文档的 2.03× 不一致" keeps 2.1×). A dispute outranks a plan.

    :param text: the unit's text, masked by :func:`cue_masks` (same offsets as the figures).
    :param spans: ``(start, end)`` of each quantity or date in ``text``.
    :param cues: the KB's cue matcher (for the paper-fact exemption); built-ins when None.
    :returns: one mood per span, in order.
    """
    low = lower_same_length(text) if spans else ""
    if spans and _ANY_MOOD_HINT is not None and _ANY_MOOD_HINT.search(low) is None:
        return [None] * len(spans)  # no plan, dispute or doubt word
    matches = list(_MOOD_RE.finditer(low)) if spans and (_MOOD_HINT is None or _MOOD_HINT.search(low)) else []
    found = [(m.start(), m.lastgroup) for m in matches]
    # a to-do label leading the unit ("next: …", "下一步：…") makes all of it a plan, commas included
    todo = any(m.lastgroup == "plan" and m.start() < 4 and low[m.end() - 1] in ":：" for m in matches)
    if spans and (_DOUBT_HINT is None or _DOUBT_HINT.search(low)):
        found = sorted(found + [(m.start(), "disputed") for m in _DOUBT_RE.finditer(low)])
    if not found:
        return [None] * len(spans)
    ends = [m.start() for m in _CLAUSE_RE.finditer(text)]
    has_dispute = any(g == "disputed" for _, g in found)
    part_ends = [m.start() for m in _PART_RE.finditer(text)] if has_dispute else []
    # where the plan and dispute words are (in text order), so that each figure counts those of
    # its clause or part by bisection: linear in the text, however many figures and words
    plans = [pos for pos, g in found if g == "plan"]
    disputes = [pos for pos, g in found if g == "disputed"]
    doc_ref: dict[tuple[int, int], bool] = {}  # part -> names_doc (figures of one part share it)
    clause_cue: dict[tuple[int, int], tuple[Kind, str] | None] = {}  # clause -> its cue
    out: list[Mood | None] = []
    for a, b in spans:
        lo, hi = _around(ends, a, b, len(text))
        disputed = False
        if has_dispute:
            plo, phi = _around(part_ends, a, b, len(text))
            # the value quoted to be disputed is the reference's ("活文档的 2.03×", "the doc's
            # 2.03×"); the other one is what the source now reports, a value of its own
            if _any_in(disputes, plo, phi):
                if quotes_doc(text, plo, phi, a, b, disputes):
                    disputed = True
                else:
                    if (plo, phi) not in doc_ref:
                        doc_ref[plo, phi] = names_doc(text[plo:phi])
                    disputed = not doc_ref[plo, phi]
        if disputed and not _any_in(disputes, lo, hi):
            if (lo, hi) not in clause_cue:
                clause_cue[lo, hi] = (cues or _default_cues()).match(text[lo:hi])
            cue = clause_cue[lo, hi]
            if cue is None or cue[0] != "paper-fact":
                out.append("disputed")
                continue
        elif disputed:
            out.append("disputed")
            continue
        out.append("plan" if todo or _any_in(plans, lo, hi) else None)
    return out


def _any_in(positions: list[int], lo: int, hi: int) -> bool:
    """Whether the sorted ``positions`` hold one in ``[lo, hi)``."""
    i = bisect.bisect_left(positions, lo)
    return i < len(positions) and positions[i] < hi


def _around(ends: list[int], a: int, b: int, n: int) -> tuple[int, int]:
    """``[lo, hi)`` of the segment between the separators ``ends`` that holds ``[a, b)``."""
    i = bisect.bisect_left(ends, a)
    j = bisect.bisect_left(ends, b)
    return (ends[i - 1] + 1 if i > 0 else 0), (ends[j] if j < len(ends) else n)


@lru_cache(maxsize=1)
def _default_cues() -> CueMatcher:
    return CueMatcher()


# -- units that carry an anchor but are no claim -------------------------------------------

def non_claim(text: str, dates: Sequence[tuple[int, int]], *, first: bool,
              names: Sequence[tuple[int, int]] = (), loose: Sequence[tuple[int, int]] = ()) -> str | None:
    """Why a unit whose only anchors are dates is no claim, else None (issue 8).

    * ``byline``: a name and a date and nothing else, with a byline's mark — a label
      (``执行人：``, ``Author:``, ``by``), a signature dash (``— jay, 2026-07-31 17:35``) or a
      separator between name and date (``lin · 2026-11-30 09:30``) when the name is no known
      entity (``TGI · 2026-03-21`` stays a claim).
    * ``title``: the first line of a file's body, one line without a sentence end, naming a
      brief or briefing (``llm-infra · E1 预消化简报（2026-07-30）``).
    * ``metadata``: fetch/generation/update labels and times only, no entity (``抓取时间：…``,
      ``generated_at: …``; issue 20); a signature's date may end with 晚/整理 (``（整理：阿杰，12-01 晚）``).

    The caller passes only sentences and list items with no id, quantity or DOI (a table
    row ``| Colibri | 2026-07-30 |`` is a row of dates, not a byline).

    :param dates: ``(start, end)`` of the dates found in ``text``.
    :param first: the unit is the first block of the file's body and a single line.
    :param names: ``(start, end)`` of known entities in ``text``.
    :param loose: numbers with no metric (a time misread as ``12 Ma``): only a metadata line drops them.
    :returns: ``"byline"``, ``"title"``, ``"metadata"`` or None.
    """
    if loose:
        chars = list(text)
        for a, b in (*dates, *loose):
            chars[a:b] = " " * (b - a)
        return "metadata" if not names and METADATA_RE.match("".join(chars)) else None
    if not dates:
        return None
    if first and len(text) <= 100 and text.rstrip()[-1:] not in "。.!?！？；;" and TITLE_WORD_RE.search(text):
        return "title"
    chars = list(text)
    for a, b in dates:
        chars[a:b] = " " * (b - a)
    blank = "".join(chars)
    if not names and METADATA_RE.match(blank):
        return "metadata"
    # BYLINE_RE takes a run of two or more whitespace characters only into its \s* and separator loops (its
    # single spaces stand between other characters): the blank with each longer run cut to two spaces matches
    # iff the blank does, and fails in a few steps where a blanked date's ten-odd spaces split among three loops
    if BYLINE_RE.match(_WS_RUN_RE.sub("  ", blank)) is None:
        return None
    m = BYLINE_RE.match(blank)
    if m is None or not (m.group("name") or m.group("label")):
        return None
    name_at = m.start("name")
    known = m.group("name") is not None and any(a < m.end("name") and name_at < b for a, b in names)
    if m.group("label") or m.group("lead") or (m.group("label2") and not known):
        return "byline"  # "vLLM 发布时间：2026-09-18" names a known entity: a claim
    if m.group("name") and " " not in m.group("name") and (m.group("sep").strip() or m.group("when")) \
            and not known:
        return "byline"
    return None

