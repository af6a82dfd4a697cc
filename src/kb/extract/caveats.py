"""The mood of a whole line (issue 22): an author's caveat or request about the item it is
about, apart from the figure moods of :func:`kb.extract.kinds.moods`.

* ``demote``: the author keeps the item out of tonight's increments, by kind: not for the doc
  (``暂不进活文档``, ``不建议入文档``, ``don't promote yet``), only a trend or relative positions
  (``这组数只能看个趋势``, ``只能看相对位置``, ``just a trend``), set-up missing (``博文没有给模型和
  并发配置``, ``no model or concurrency given``), not comparable (``SLA 与主流云不可比``,
  ``not comparable``; not when the line names the living doc: ``两者不可直接比较`` beside
  ``与活文档 §1.3 的 M3 Max 不同`` says the doc's value has another set-up, no demotion), an
  unsure source (``仓库地址待确认``);
* ``lead``: only a lead (``仅作线索``, ``lead only``);
* ``hold``: the rating stays where it is (``先别升级评级``, ``暂不升档``): about the rating only,
  the item stays an increment;
* ``evaluate``: a request to judge (``值不值得升档请晚班判断``, ``please judge whether …``).

The words are :data:`kb.extract.vocab.kinds.DEMOTE_CUES`, ``NO_SETUP_CUES``,
``INCOMPARABLE_CUES``, ``LEAD_CUES``, ``HOLD_CUES`` and ``EVALUATE_CUES``.

Apart from the moods, an author may say that an item's figures are not comparable with the
other side's (``配置与活文档的不同，两者不可直接比较``; words ``APART_CUES``): :func:`apart_lines`
gives the lines of the heading block such a note covers (the diff never makes their figures a
conflict). :func:`heading_block` is the one heading block of a line. A demotion naming one table
row by its words (``并发 32 那一行…不建议入文档``; words ``ROW_REF_CUES``) demotes that row's
figures only: :func:`demoted_rows`.

:func:`is_opinion`: a heading or a line's lead saying what follows is the author's opinion
(``选型指南（作者观点）``, ``我的判断：``; words ``OPINION_CUES``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from kb.extract.doc_refs import names_doc
from kb.extract.vocab.kinds import (
    APART_CUES,
    DEMOTE_CUES,
    EVALUATE_CUES,
    HOLD_CUES,
    INCOMPARABLE_CUES,
    LEAD_CUES,
    NO_SETUP_CUES,
    OPINION_CUES,
    ROW_REF_CUES,
)

LineMood = Literal["demote", "lead", "hold", "evaluate"]

_LINE_MOOD_RE = re.compile("|".join(
    f"(?P<{name}>{'|'.join(words)})" for name, words in
    (("demote", DEMOTE_CUES + NO_SETUP_CUES), ("incomparable", INCOMPARABLE_CUES), ("lead", LEAD_CUES),
     ("hold", HOLD_CUES), ("evaluate", EVALUATE_CUES))))
_OPINION_RE = re.compile("|".join(OPINION_CUES))
#: How far into a line its lead may start (``- 我的判断：``, ``Frankly, in my view,``), in characters.
_LEAD_SPAN = 3
_APART_RE = re.compile("|".join(APART_CUES))
_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s")
_ROW_REF_RES = [re.compile(p) for p in ROW_REF_CUES]


def is_heading(line: str) -> bool:
    """True when ``line`` is an ATX heading (``## …``): where a heading block starts and ends."""
    return bool(_HEADING_RE.match(line))


def line_mood(text: str) -> tuple[LineMood, str] | None:
    """The mood of ``text`` (one line) and the words that say it, else None. A demotion
    outranks a lead, a lead a rating hold, a hold a request (``先别升级评级，值不值得升档请晚班判断``
    holds the rating; only ``demote`` and ``lead`` move an item out of the increments). A
    not-comparable caveat is a demotion unless the line names the living doc
    (:func:`kb.extract.doc_refs.names_doc`).

    >>> line_mood("这组数只能看个趋势，暂不进活文档")
    ('demote', '只能看个趋势')
    >>> line_mood("Lead only; please judge whether it is worth a card.")
    ('lead', 'Lead only')
    >>> line_mood("社区算力池的价格，SLA 与主流云不可比")
    ('demote', '不可比')
    >>> line_mood("配置与活文档的不同，两者不可直接比较") is None
    True
    """
    low = text.lower()
    found: dict[str, str] = {}
    for m in _LINE_MOOD_RE.finditer(low):
        name = m.lastgroup or ""
        found.setdefault(name, text[m.start():m.end()])
    if "incomparable" in found and "demote" not in found and not names_doc(text):
        found["demote"] = found["incomparable"]
    for name in ("demote", "lead", "hold", "evaluate"):
        if name in found:
            return name, found[name]  # type: ignore[return-value]
    return None


def heading_block(lines: Sequence[str], line: int) -> tuple[int, int]:
    """``(lo, hi)``: the 0-based line range of the heading block holding 1-based ``line`` (from
    the line after the heading above it up to, not including, the next heading)."""
    lo = line - 1
    while lo > 0 and not is_heading(lines[lo - 1]):
        lo -= 1
    hi = line
    while hi < len(lines) and not is_heading(lines[hi]):
        hi += 1
    return lo, hi


def apart_lines(lines: Sequence[str]) -> set[int]:
    """The 1-based lines of ``lines`` (a file's) that an author's "not directly comparable" note
    covers: every line of the heading block holding a line with one of ``APART_CUES``
    (``两者不可直接比较``, ``not directly comparable``); empty when there is none.

    >>> sorted(apart_lines(["# a", "- x 9 tok/s", "- 两者不可直接比较", "# b", "- y 3 tok/s"]))
    [2, 3]
    """
    out: set[int] = set()
    for n, text in enumerate(lines, 1):
        if n not in out and _APART_RE.search(text.lower()):
            lo, hi = heading_block(lines, n)
            out.update(range(lo + 1, hi + 1))
    return out


def row_named(text: str) -> str | None:
    """The words by which a demoting line (:func:`line_mood` ``demote``) names one table row of
    its file (``并发 32 那一行…不建议入文档`` → ``并发 32``), whitespace folded; else None (no
    demotion, or no row named: the demotion is about the line's item)."""
    mood = line_mood(text)
    if mood is None or mood[0] != "demote":
        return None
    low = text.lower().lstrip(" -*>\t")
    for pattern in _ROW_REF_RES:
        if m := pattern.search(low):
            return " ".join(m.group("row").split()) or None
    return None


def demoted_rows(lines: Sequence[str], at: Sequence[int]) -> set[int]:
    """The 1-based table rows (``| … |`` lines) of ``lines`` (a file's) that the demoting lines
    ``at`` (1-based) name by their words (:func:`row_named`; case and whitespace folded): their
    figures are kept out of the doc. A name matching no row, or more than one, demotes none.

    >>> sorted(demoted_rows(["| a | b |", "| 单请求 | 58 tok/s |", "| 并发 32 吞吐 | 1,460 tok/s |",
    ...                      "- 并发 32 那一行只有单次测量，不建议入文档。"], [4]))
    [3]
    """
    rows = {n: " ".join(x.lower().split()) for n, x in enumerate(lines, 1) if x.lstrip().startswith("|")}
    out: set[int] = set()
    for n in at:
        name = row_named(lines[n - 1]) if 0 < n <= len(lines) else None
        hits = [r for r, text in rows.items() if name and name in text]
        if len(hits) == 1:
            out.update(hits)
    return out


def is_opinion(text: str, heading: bool = False) -> bool:
    """True when ``text`` says what it heads or leads is the author's opinion, not a finding: a
    ``heading`` naming it anywhere (``3. 选型指南（作者观点）``), else a line whose first words do
    (``我的判断：六大框架…``, ``In my view, …``).

    >>> is_opinion("3. 选型指南（作者观点）", heading=True), is_opinion("我的判断：TGI 只剩历史价值。")
    (True, True)
    >>> is_opinion("论文报告：作者的判断与我们一致，吞吐 1.7×。")
    False
    """
    low = text.lower().lstrip(" -*>\t")
    if heading:
        return _OPINION_RE.search(low) is not None
    # a lead starts within the span: match there only (a search of a long line for every claim on it was N²)
    return any(_OPINION_RE.match(low, i) for i in range(min(_LEAD_SPAN, len(low)) + 1))
