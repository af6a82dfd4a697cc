"""Where a subject belongs in the living document, with the evidence that says so (issue 22).

The one place deciding the section the brief suggests for a subject (docs/decisions.md).
:func:`window_hint` is the diff's own choice (``SubjectOut.section_hint``: kb.night.rules
delegates to it); :func:`place` adds the evidence the brief cites, first that applies:

1. ``hint``: a window line first about the subject says where it goes (``建议把 X 归入 §3 投机解码``,
   ``file under §2.3``) — the most frequent such hint (:func:`window_hint`); else a hint line
   naming no subject in the heading block of a window line about it (``## KVTide`` … ``- 建议归入
   §2，顺带回答 O45。``: ``block_hints``), the C/O ids it names in ``detail``;
2. ``open-entry``: an open candidate or question of the doc (``C116 …``, ``O12 …``) names it
   (its subject, or one of ``names``: the name a window line writes with the id, ``ShardSpec
   （arXiv:2609.06031）``; ``open_lines`` are the doc's entry lines that hold no claim)
   and the section it belongs in (``O12 AcceptMoE … 能否并入 §3？``): that section;
3. ``doc``: the living doc already holds it (its first section holding it, besides its open
   entries), else an open entry naming it: the entry's own section;
4. ``heading``: a window line about it sits under a heading naming a section (``## §3 投机解码``);
5. ``category``: its card's category (main, then also) names a doc section's title word
   (``rag`` → ``§4 RAG 推理``): the category's section;
6. ``metric`` (a subject without a paper card: a vendor, a price, an engine): a doc section's
   title names the metric of one of its window values (a title word
   of :data:`kb.extract.vocab.sections.SECTION_METRIC_WORDS`: ``$1.49/GPU·h`` is a cost,
   ``§6.1 GPU 租赁价格``); among several, the title sharing most words
   with the window lines, then the deepest, then the first:

else None (the brief prints ``—``). Pure: views, sections and the card in, a :class:`Placement` out.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kb.extract.sections import hinted_section, section_number
from kb.extract.vocab.sections import SECTION_METRIC_WORDS
from kb.facts.attributor import View
from kb.read.cards import Card

#: An open entry of a living doc: a candidate or question number at the start of a line
#: (``- C116 …``, ``O171 …``, ``1. O172：…``).
OPEN_ENTRY_RE = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?\**(?P<id>[CO]\d{2,4})\b")


@dataclass(frozen=True, slots=True)
class Placement:
    """A section suggestion and its evidence.

    :ivar section: ``§3``, ``§2.8``; None when nothing in the KB says.
    :ivar why: ``hint``, ``doc``, ``open-entry``, ``heading``, ``category``, ``metric`` (see the module), or None.
    :ivar source: ``path:line`` of the evidence (a window line, a doc line), None for ``category``.
    :ivar detail: what the evidence names: the entry id (``O171``), the heading, the category.
    """

    section: str | None
    why: str | None = None
    source: str | None = None
    detail: str | None = None


def window_hint(vs: Sequence[View]) -> str | None:
    """Most frequent section hint among ``vs`` (a subject's window views), earliest on a tie;
    None when none has one. ``SubjectOut.section_hint`` is this, else the doc's first section."""
    hints = [v.hint for v in vs if v.hint]
    if not hints:
        return None
    counts = Counter(hints)
    best = max(counts.values())
    return next(h for h in hints if counts[h] == best)


def _src(v: View) -> str:
    return f"{v.claim.provenance.path}:{v.claim.provenance.line}"


def place(key: str, views: Sequence[View], doc_views: Sequence[View],
          doc_sections: Sequence[tuple[int, str, str]], doc_held: Sequence[str] = (),
          card: Card | None = None, skip_words: Iterable[str] = (),
          block_hints: Sequence[tuple[str, str, str]] = (), names: Iterable[str] = (),
          open_lines: Sequence[tuple[str, str]] = ()) -> Placement:
    """Where ``key`` belongs and why (the order of the module docstring).

    :param views: the night's window views (any subject; those naming ``key`` are read).
    :param doc_views: the living doc's views.
    :param doc_sections: ``(line, label, heading text)`` of the doc's sections, in line order.
    :param doc_held: the doc's sections holding ``key`` (``SubjectOut.doc_sections``), first first.
    :param card: the subject's paper card, if any.
    :param skip_words: category words that name no section (the topic's own name and categories).
    :param block_hints: ``(section, path:line, named C/O ids)`` of hint lines without a subject
        in the heading blocks of the subject's window lines (see 1.).
    :param names: names the window writes with the subject's id (``ShardSpec``), for 2.
    :param open_lines: ``(path:line, text)`` of the doc's open entries that hold no claim, for 2.
    """
    mine = [v for v in views if key in v.subjects]
    first = [v for v in mine if v.subjects[:1] == [key]]
    best = window_hint(first)
    if best is not None:
        v = next(v for v in first if v.hint == best)
        if hinted_section(v.claim.text) is None:  # the parser's hint from the heading it sits under
            h = next((h for h in reversed(v.claim.provenance.heading) if section_number(h)), None)
            if h is not None:
                return Placement(best, "heading", _src(v), h.strip())
        return Placement(best, "hint", _src(v))
    if block_hints:
        sec, src, ids = Counter(block_hints).most_common(1)[0][0]
        return Placement(sec, "hint", src, ids or None)
    labels = {label for _, label, _ in doc_sections}
    entries = [(v, m) for v in doc_views if key in v.subjects and (m := OPEN_ENTRY_RE.match(v.claim.text))]
    for v, m in entries:  # an open entry naming where it goes (``O12 … 能否并入 §3？``) outranks where it stands
        named = section_number(v.claim.text)
        if named and f"§{named}" in labels:
            return Placement(f"§{named}", "open-entry", _src(v), m.group("id"))
    pats = [re.compile(rf"(?<![\w-]){re.escape(n)}(?![\w-])", re.IGNORECASE) for n in names if len(n) >= 3]
    for src, text in open_lines:  # an entry without a claim naming it by a name the window gives its id
        m = OPEN_ENTRY_RE.match(text)
        named = section_number(text)
        if m and named and f"§{named}" in labels and any(p.search(text) for p in pats):
            return Placement(f"§{named}", "open-entry", src, m.group("id"))
    only_entries = {_section_of(v, doc_sections) for v, _ in entries}
    if doc_held and not set(doc_held) <= only_entries:
        held = next(s for s in doc_held if s not in only_entries)
        at = next((v for v in doc_views if key in v.subjects and _section_of(v, doc_sections) == held), None)
        return Placement(held, "doc", _src(at) if at else None)
    for v, m in entries:
        sec = _section_of(v, doc_sections)
        if sec:
            return Placement(sec, "open-entry", _src(v), m.group("id"))
    for v in mine:
        for h in reversed(v.claim.provenance.heading):
            named = section_number(h)
            if named and (hinted_section(h) or f"§{named}" in labels):
                return Placement(f"§{named}", "heading", _src(v), h.strip())
    if card is not None:
        skip = {w.lower() for s in skip_words for w in re.split(r"[-_\s]+", s) if w}
        for cat in (card.category, *card.also):
            for word in re.split(r"[-_\s]+", (cat or "").lower()):
                if len(word) < 3 or word in skip:
                    continue
                pat = re.compile(rf"(?<![a-z]){re.escape(word)}(?![a-z])", re.IGNORECASE)
                hit = next((label for _, label, title in doc_sections if label and pat.search(title)), None)
                if hit:
                    return Placement(hit, "category", None, cat)
    return _by_metric(key, mine, doc_sections) if card is None else Placement(None)


def _by_metric(key: str, mine: Sequence[View], doc_sections: Sequence[tuple[int, str, str]]) -> Placement:
    """Step 6 of the module: the doc section whose title names the metric of a window value of ``key``."""
    metrics: dict[str, View] = {}
    for v in mine:
        for f in v.facts:
            if f.subject == key and f.metric:
                metrics.setdefault(f.metric, v)  # the first line stating it is the evidence
    best: tuple[tuple[int, int, int], str, str, str] | None = None
    for metric, v in metrics.items():
        words = SECTION_METRIC_WORDS.get(metric, ())
        pats = [re.compile(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", re.IGNORECASE) for w in words]
        text = " ".join(x.claim.text for x in mine).lower()
        for line, label, title in doc_sections:
            if not label or not any(p.search(title) for p in pats):
                continue
            shared = sum(1 for w in re.split(r"[\s§.\d]+", title.lower()) if len(w) >= 2 and w in text)
            score = (shared, label.count("."), -line)
            if best is None or score > best[0]:
                best = (score, label, _src(v), metric)
    return Placement(best[1], "metric", best[2], best[3]) if best else Placement(None)


def _section_of(v: View, doc_sections: Sequence[tuple[int, str, str]]) -> str | None:
    """The label of the doc section holding ``v``'s line, else None."""
    lines = [line for line, _, _ in doc_sections]
    i = bisect_right(lines, v.claim.provenance.line) - 1
    return doc_sections[i][1] if i >= 0 else None
