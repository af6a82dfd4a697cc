"""Where a subject belongs in the living document, with the evidence that says so (issue 22).

The one place deciding the section the brief suggests for a subject (docs/decisions.md).
:func:`window_hint` is the diff's own choice (``SubjectOut.section_hint``: kb.night.rules
delegates to it); :func:`place` adds the evidence the brief cites, first that applies:

1. ``hint``: a window line first about the subject says where it goes (``建议把 X 归入 §3 投机解码``,
   ``file under §2.3``) — the most frequent such hint (:func:`window_hint`); else the first hint
   line naming no subject in the heading blocks of the window lines about it (``## KVTide`` …
   ``- 建议归入 §2，顺带回答 O45。``: ``block_hint``), the C/O ids it names in ``detail``;
2. ``open-entry``: an open candidate or question of the doc (``C116 …``, ``O12 …``) names it
   (its subject, or one of ``names``: the name a window line writes with the id, ``ShardSpec
   （arXiv:2609.06031）``; :attr:`DocOutline.entries` are the doc's entry lines that hold no claim)
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
from dataclasses import dataclass, field

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


@dataclass(frozen=True, slots=True)
class DocOutline:
    """The living doc as :func:`place` reads it, built once a night (:meth:`of`): every subject's
    placement looks sections and entries up here instead of scanning the doc again.

    :ivar sections: ``(line, label, heading text)`` of the doc's sections, in line order.
    :ivar labels: the sections' labels.
    :ivar lines: the sections' first lines (for :func:`bisect.bisect_right`).
    :ivar entries: ``(path:line, text, entry id, "§n")`` of the open entries holding no claim that
        name a section of the doc (step 2's ``open_lines``: no other line can place a subject).
    """

    sections: tuple[tuple[int, str, str], ...]
    labels: frozenset[str]
    lines: tuple[int, ...]
    entries: tuple[tuple[str, str, str, str], ...]
    _titled: dict[str, str | None] = field(default_factory=dict, compare=False)
    _metric: dict[str, tuple[tuple[int, str, str], ...]] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, doc_sections: Sequence[tuple[int, str, str]],
           open_lines: Sequence[tuple[str, str]] = ()) -> DocOutline:
        """The outline of ``doc_sections`` (``(line, label, heading text)``, in line order) and
        ``open_lines`` (``(path:line, text)`` of the doc's lines holding no claim)."""
        labels = frozenset(label for _, label, _ in doc_sections)
        entries = []
        for src, text in open_lines:
            m = OPEN_ENTRY_RE.match(text)
            named = section_number(text) if m else None
            if m and named and f"§{named}" in labels:
                entries.append((src, text, m.group("id"), f"§{named}"))
        return cls(tuple(doc_sections), labels, tuple(line for line, _, _ in doc_sections), tuple(entries))

    def titled(self, word: str) -> str | None:
        """The first labelled section whose title holds the category word ``word`` (lower case), else None."""
        if word not in self._titled:
            pat = re.compile(rf"(?<![a-z]){re.escape(word)}(?![a-z])", re.IGNORECASE)
            self._titled[word] = next((label for _, label, title in self.sections if label and pat.search(title)), None)
        return self._titled[word]

    def metric_sections(self, metric: str) -> tuple[tuple[int, str, str], ...]:
        """The labelled sections whose title names ``metric`` (a word of
        :data:`kb.extract.vocab.sections.SECTION_METRIC_WORDS`), in line order."""
        if metric not in self._metric:
            words = SECTION_METRIC_WORDS.get(metric, ())
            pats = [re.compile(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", re.IGNORECASE) for w in words]
            self._metric[metric] = tuple(x for x in self.sections if x[1] and any(p.search(x[2]) for p in pats))
        return self._metric[metric]

    def section_of(self, line: int) -> str | None:
        """The label of the doc section holding ``line``, else None."""
        i = bisect_right(self.lines, line) - 1
        return self.sections[i][1] if i >= 0 else None


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


def place(key: str, views: Sequence[View], doc_views: Sequence[View], outline: DocOutline,
          doc_held: Sequence[str] = (), card: Card | None = None, skip_words: Iterable[str] = (),
          block_hint: tuple[str, str, str] | None = None, names: Iterable[str] = ()) -> Placement:
    """Where ``key`` belongs and why (the order of the module docstring).

    :param views: the night's window views (any subject; those naming ``key`` are read).
    :param doc_views: the living doc's views (any subject; those naming ``key`` are read: the
        caller may pass only those, in doc order).
    :param outline: the doc's sections and open entries (:meth:`DocOutline.of`, once a night).
    :param doc_held: the doc's sections holding ``key`` (``SubjectOut.doc_sections``), first first.
    :param card: the subject's paper card, if any.
    :param skip_words: category words that name no section (the topic's own name and categories).
    :param block_hint: ``(section, path:line, named C/O ids)`` of the first hint line without a
        subject in the heading blocks of the subject's window lines (see 1.), else None.
    :param names: names the window writes with the subject's id (``ShardSpec``), for 2.
    """
    mine = [v for v in views if key in v.subject_keys]
    first = [v for v in mine if v.subjects[:1] == [key]]
    best = window_hint(first)
    if best is not None:
        v = next(v for v in first if v.hint == best)
        if hinted_section(v.claim.text) is None:  # the parser's hint from the heading it sits under
            h = next((h for h in reversed(v.claim.provenance.heading) if section_number(h)), None)
            if h is not None:
                return Placement(best, "heading", _src(v), h.strip())
        return Placement(best, "hint", _src(v))
    if block_hint:
        sec, src, ids = block_hint
        return Placement(sec, "hint", src, ids or None)
    labels = outline.labels
    entries = [(v, m) for v in doc_views if key in v.subject_keys and (m := OPEN_ENTRY_RE.match(v.claim.text))]
    for v, m in entries:  # an open entry naming where it goes (``O12 … 能否并入 §3？``) outranks where it stands
        named = section_number(v.claim.text)
        if named and f"§{named}" in labels:
            return Placement(f"§{named}", "open-entry", _src(v), m.group("id"))
    pats = [re.compile(rf"(?<![\w-]){re.escape(n)}(?![\w-])", re.IGNORECASE) for n in names if len(n) >= 3]
    for src, text, ident, named_at in outline.entries if pats else ():  # an entry without a claim naming
        if any(p.search(text) for p in pats):  # it by a name the window gives its id
            return Placement(named_at, "open-entry", src, ident)
    only_entries = {outline.section_of(v.claim.provenance.line) for v, _ in entries}
    if doc_held and not set(doc_held) <= only_entries:
        held = next(s for s in doc_held if s not in only_entries)
        at = next((v for v in doc_views if key in v.subject_keys and outline.section_of(v.claim.provenance.line) == held), None)
        return Placement(held, "doc", _src(at) if at else None)
    for v, m in entries:
        sec = outline.section_of(v.claim.provenance.line)
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
                if hit := outline.titled(word):
                    return Placement(hit, "category", None, cat)
    return _by_metric(key, mine, outline) if card is None else Placement(None)


def _by_metric(key: str, mine: Sequence[View], outline: DocOutline) -> Placement:
    """Step 6 of the module: the doc section whose title names the metric of a window value of ``key``."""
    metrics: dict[str, View] = {}
    for v in mine:
        for f in v.facts:
            if f.subject == key and f.metric:
                metrics.setdefault(f.metric, v)  # the first line stating it is the evidence
    best: tuple[tuple[int, int, int], str, str, str] | None = None
    for metric, v in metrics.items():
        text = " ".join(x.claim.text for x in mine).lower()
        for line, label, title in outline.metric_sections(metric):
            shared = sum(1 for w in re.split(r"[\s§.\d]+", title.lower()) if len(w) >= 2 and w in text)
            score = (shared, label.count("."), -line)
            if best is None or score > best[0]:
                best = (score, label, _src(v), metric)
    return Placement(best[1], "metric", best[2], best[3]) if best else Placement(None)

