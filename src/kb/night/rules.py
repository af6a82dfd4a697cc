"""The outcome rules of DESIGN.md §3: one outcome per subject, conflicts, secondhand-only numbers.

Pure: claims, the doc's claims and the cards in, a :class:`~kb.night.model.DiffResult` out.
Which subject a number is about is decided by :mod:`kb.facts.attributor`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from kb.core.claims import Claim
from kb.core.config import KbConfig
from kb.core.window import Window
from kb.facts.attributor import Attributor, View
from kb.facts.fact import Fact
from kb.facts.firsthand import firsthand_facts
from kb.facts.query import attributor
from kb.facts.same import SameFacts, disjoint_from, same_setup
from kb.night.conflicts import PaperEvidence, by_path, find_conflicts, uniq
from kb.night.doc_index import DocIndex
from kb.night.model import (
    OUTCOMES,
    DiffResult,
    MismatchOut,
    SecondhandOut,
    SourceOut,
    SubjectOut,
)
from kb.night.placement import window_hint
from kb.perf.memo import PerObject
from kb.read.cards import Card


def diff(window_claims: Sequence[Claim], doc_claims: Sequence[Claim], cards: Sequence[Card],
         config: KbConfig, window: Window, topic: str, *, baseline: Mapping[str, Any],
         first_mention: Callable[[str], str | None] = lambda key: None,
         card_claims: Callable[[Card], Iterable[Claim]] = lambda card: (),
         files: Sequence[tuple[str, str]] | None = None,
         doc_sections: Sequence[tuple[int, str, str]] = (),
         topic_paths: Iterable[str] = (),
         title_citations: Mapping[str, Sequence[tuple[int, bool]]] | None = None,
         titles: Iterable[tuple[str, str]] = (), at: Attributor | None = None,
         doc_lines: Sequence[str] = (), apart: Collection[str] = (), demoted: Collection[str] = ()) -> DiffResult:
    """Diff the claims of a window against a living document.

    :param window_claims: claims of inbox files and cards written in the window (the caller
        has dropped the topic's own earlier briefs), by path and line.
    :param doc_claims: claims of the living document (``LivingDoc.claims``).
    :param cards: every paper card of the KB (:class:`kb.read.cards.Card`).
    :param window: the window; ``first_mention`` answers for times before ``window.since``.
    :param baseline: ``{"path", "version", "updated"}`` of the doc (copied to the result).
    :param first_mention: subject key -> earliest ISO ``written_at`` of any claim or
        arXiv mention about it in the store (history), else None.
    :param card_claims: claims of a card's file, any date: paper-facts of cards lend support
        whenever the card was written (a card is the paper; see docs/diff.md).
    :param files: ``(path, role)`` of every window file, also those without claims.
    :param doc_sections: ``(line, label, heading text)`` of each doc section, in line order.
    :param topic_paths: window files whose front matter names the topic (its name or a
        category); with the heading path, the file name and a row's cells, this is where "the
        topic is named around" a subject without a card (DESIGN.md §3).
    :param title_citations: subject key -> ``(line, is list item or table row)`` of the doc
        lines citing it by title only (:func:`kb.store.titles.cited_by_title`); the doc then holds
        that subject (a node of its own on an item or row).
    :param titles: ``(subject key, title)`` of papers known by title (:func:`kb.store.titles.known_titles`):
        a window claim naming one by its whole title is about that paper.
    :param at: the night's :class:`kb.facts.attributor.Attributor` (:func:`kb.facts.query.attributor`),
        shared with the brief; else one is built from ``cards``, ``titles`` and the doc's headings.
    :param doc_lines: the living document's lines: a secondhand-only number that a doc line citing a
        primary source states (:func:`kb.facts.firsthand.firsthand_facts`) carries that citation
        (``SecondhandOut.cited``): first-hand cited by the doc.
    :param apart: ids of window claims whose author says their figures are not directly
        comparable (:func:`kb.extract.caveats.apart_lines`): never a conflict, new values at most.
    :param demoted: ids of window claims on a table row their author keeps out of the doc
        (:func:`kb.night.apart.demoted_row_claims`): their figures are no new values (still
        secondhand-only numbers here; the brief does not ask to check them: :func:`kb.brief.shaping.secondhand_split`).
    :returns: :class:`DiffResult`, deterministic for the same inputs.
    """
    at = at if at is not None else attributor(None, config=config, cards=cards, titles=titles,
                                              headings=[title for _, _, title in doc_sections])
    at.learn([*window_claims, *doc_claims])
    cats = set(config.topic_categories(topic))
    tol = config.tolerance
    views = [at.view(c) for c in window_claims]
    doc_views = [at.view(c) for c in doc_claims]
    doc = DocIndex(at, doc_views, doc_sections, title_citations or {}, tol)
    typos = {m["cited"] for v in views for m in v.mismatches} - set(at.cards)
    named = _TopicNames(topic, cats, topic_paths)

    by_subject: dict[str, list[View]] = defaultdict(list)
    for v in views:
        # a claim is about each subject it names and each a fact of it belongs to (a table cell:
        # ``| 单请求解码 | 58.3 tok/s | 52.9 tok/s |`` under SGLang and vLLM columns)
        for s in dict.fromkeys([*v.subjects, *(f.subject for f in v.facts if f.subject)]):
            if s not in typos:  # a suspected typo is listed once, beside the card it probably means
                by_subject[s].append(v)
    papers = PaperEvidence(at, (*views, *doc_views), card_claims, tol)
    listed: dict[str, SubjectOut] = {}
    for key, vs in by_subject.items():
        out = _outcome(key, vs, at, doc, cats, window, first_mention, tol, named, papers, apart, demoted)
        if out is not None:
            listed[key] = out

    conflicts = find_conflicts(views, doc, listed, tol, papers, apart)
    for c in conflicts:
        if "window" in c.against and c.subject in listed:
            listed[c.subject].in_window_conflict = True
    # support: any paper-fact of the KB (window files, cards of any date, the doc's 论文报告 lines)
    support = [f for v in (*views, *doc_views) if v.claim.kind == "paper-fact" for f in v.facts]
    for key in sorted(listed):
        card = at.card_of(key)
        if card is not None:
            support.extend(f for c in card_claims(card) if c.kind == "paper-fact" for f in at.view(c).facts)
    secondhand = _secondhand_only(views, listed, support, tol, firsthand_facts(doc_claims, doc_lines, at))
    rank = {o: i for i, o in enumerate(OUTCOMES)}
    subjects = sorted(listed.values(), key=lambda s: (rank[s.outcome], s.key))
    return DiffResult(
        topic=topic,
        window={"since": window.since_iso, "until": window.until_iso},
        baseline=dict(baseline),
        subjects=subjects,
        conflicts=conflicts,
        secondhand_only=secondhand,
        sources_checked=_sources(views, listed, files),
        id_mismatches=_mismatches(views),
        counts={**{o: sum(1 for s in subjects if s.outcome == o) for o in OUTCOMES},
                "numbers": len({(f.subject, f.raw, f.source) for v in views if v.claim.kind != "internal-rating"
                                for f in v.facts if not f.is_date and f.subject in listed}),
                "secondhand_only": len(secondhand)},
    )


class _TopicNames:
    """Whether the topic is named around a claim: its heading path, file name, the file's front
    matter (``topic_paths``) or a cell of its table row (a direction column, a title cell:
    ``…for Efficient LLM Inference``) names the topic or one of its categories; ``-``, ``_`` and spaces alike, whole words, any case."""

    def __init__(self, topic: str, cats: Iterable[str], topic_paths: Iterable[str]) -> None:
        names = sorted({_fold(n) for n in (topic, *cats) if n.strip()}, key=len, reverse=True)
        self._re = re.compile(r"(?<![a-z0-9])(?:" + "|".join(re.escape(n) for n in names) + r")(?![a-z0-9])")
        self._paths = set(topic_paths)
        self._once = PerObject()  # a row under 4000 subjects (a cell of ids) is read once, not 4000 times

    def around(self, v: View) -> str | None:
        """Where the topic is named for ``v``'s claim (``heading``, ``file``, ``front matter``,
        ``row``), else None; answered once a claim."""
        return self._once.get("around", v.claim, self._around)

    def _around(self, claim: Claim) -> str | None:
        p = claim.provenance
        if any(self._re.search(_fold(h)) for h in p.heading):
            return "heading"
        if self._re.search(_fold(p.path.rsplit("/", 1)[-1])):
            return "file"
        if p.path in self._paths:
            return "front matter"
        if claim.unit == "table-row" and any(self._re.search(_fold(c)) for c in claim.text.split(" | ")):
            return "row"
        return None


def _fold(text: str) -> str:
    return re.sub(r"[-_\s]+", " ", text.lower()).strip()


def _outcome(key: str, vs: list[View], at: Attributor, doc: DocIndex, cats: set[str],
             window: Window, first_mention: Callable[[str], str | None], tol: float,
             named: _TopicNames, papers: PaperEvidence, apart: Collection[str] = (),
             demoted: Collection[str] = ()) -> SubjectOut | None:
    """One subject's outcome by the rules of DESIGN.md §3, first rule that applies wins."""
    card = at.card_of(key)
    facts = [f for v in vs for f in v.facts if f.subject == key]
    claims = uniq(v.claim.id for v in vs)
    hint = _hint([v for v in vs if v.subjects[:1] == [key]])
    base = dict(key=key, label=at.label(key), claims=claims, card=card.path if card else None)
    if doc.has(key):
        secs = doc.sections(key)
        doc_facts = doc.facts.get(at.group(key), [])
        clash = [f for fs in by_path([f for f in facts if f.claim_id not in apart]).values()
                 for f in disjoint_from(fs, doc_facts, tol) if papers.states(f) is None]
        if clash:
            why = "same subject and metric, different value than the living doc: " + ", ".join(
                uniq(f"{f.metric} {f.raw}" for f in clash))
            return SubjectOut(**base, outcome="conflict", section_hint=hint or _first(secs), reason=why, doc_sections=secs,
                              rule="doc-conflict", detail=", ".join(uniq(f.raw for f in clash)))
        # the value a change started from is no new value (the doc holding 3.1 or 4.4, the window 3.1 → 4.4)
        held = SameFacts(doc_facts, tol)
        new = [f for f in facts if f.transition != "from" and f.claim_id not in demoted and not held.holds(f)]
        if new:
            values = ", ".join(uniq(f.raw for f in new))
            settings = _other_settings(new, doc_facts)
            if any(f.claim_id in apart for f in new):
                settings = "; ".join(x for x in (settings, "the author: not directly comparable") if x)
            backed = uniq(f"{f.raw} ({p.source})" for f in new
                           if (p := papers.states(f)) is not None and p.path != f.path)
            if backed:
                settings = "; ".join(x for x in (settings, "stated by the paper: " + ", ".join(backed)) if x)
            why = "in the living doc, but not these values: " + values + (f" ({settings})" if settings else "")
            return SubjectOut(**base, outcome="update", section_hint=hint or _first(secs), reason=why,
                              doc_sections=secs, new_values=uniq(f.raw for f in new), rule="doc-new-values",
                              detail=values + (f" ({settings})" if settings else ""))
        if not doc.is_node(key):
            return SubjectOut(**base, outcome="update", section_hint=hint or _first(secs), doc_sections=secs,
                              reason="mentioned in the living doc only in passing, not a node of its own",
                              rule="doc-in-passing")
        return SubjectOut(**base, outcome="covered", section_hint=hint or _first(secs), doc_sections=secs,
                          reason="in the living doc with every value the window states", rule="doc-covered")
    in_cat = card is not None and card.category in cats
    in_also = card is not None and bool(cats & set(card.also))
    if card is not None and not in_cat and not in_also:
        return None  # out of the topic: not listed
    if card is not None and in_also and not in_cat:
        return SubjectOut(**base, outcome="adjacent", section_hint=hint,
                          reason=f"card's main category is {card.category}; the topic only under also",
                          rule="card-also", detail=card.category or "")
    first = first_mention(key)
    if first is not None and first < window.since_iso:
        return SubjectOut(**base, outcome="supplement", section_hint=hint,
                          reason=f"first mentioned {first[:16]}, before the window", rule="mentioned-before",
                          detail=first[:16].replace("T", " "))
    if in_cat:
        return SubjectOut(**base, outcome="net-new", section_hint=hint,
                          reason=f"not in the living doc, first seen in the window, card category {card.category}",
                          rule="card-category", detail=card.category or "")
    where = next((w for v in vs if (w := named.around(v))), None) if card is None else None
    if where is not None:
        return SubjectOut(**base, outcome="net-new", section_hint=hint,
                          reason=f"not in the living doc, first seen in the window, no card yet (topic named in its {where})",
                          rule="no-card-on-topic", detail=where)
    return SubjectOut(**base, outcome="adjacent", section_hint=hint, reason="no paper card", rule="no-card")


def _other_settings(new: Sequence[Fact], doc_facts: Sequence[Fact]) -> str:
    """The new values that the doc states for the same metric only under another setting
    (:attr:`kb.facts.fact.Fact.setting`: ``64% 突发流量 vs the doc's 82% at steady load``) or
    set-up (qualifier: ``~11 tok/s m3ultra vs the doc's ~9 tok/s m3max``, issue 22), as
    the reason words: an update, no conflict (issue 20); empty when there are none."""
    doc_by: dict[tuple[str | None, str | None], list[Fact]] = defaultdict(list)
    for d in doc_facts:
        if d.metric is not None:
            doc_by[d.metric, d.unit].append(d)
    def where(x: Fact) -> str:
        parts = {p.replace(" ", ""): p for p in (x.qualifier, x.setting) if p}  # m3ultra once, as m3 ultra
        return " ".join(parts.values()) or "no setting stated"

    def alike(a: Fact, b: Fact) -> bool:
        return a.setting == b.setting and same_setup(a.qualifier, b.qualifier)

    out = []
    for f in new:
        others = [d for d in doc_by.get((f.metric, f.unit), ()) if not alike(d, f)] if f.metric else []
        if others and not any(alike(d, f) for d in doc_by[f.metric, f.unit]):
            d = others[0]
            out.append(f"{f.raw} {where(f)} vs the doc's {d.raw} {where(d)}")
    return "different setting: " + "; ".join(uniq(out)) if out else ""


def _mismatches(views: Sequence[View]) -> list[MismatchOut]:
    """Suspected typos, once per (name, card, cited id): the first claim that shows each."""
    seen: dict[tuple[str, str, str], MismatchOut] = {}
    for v in views:
        for m in v.mismatches:
            seen.setdefault((m["name"], m["card_subject"], m["cited"]), MismatchOut(**m))
    return list(seen.values())


def _first(items: Sequence[str]) -> str | None:
    return items[0] if items else None


def _hint(vs: Sequence[View]) -> str | None:
    """The subject's section hint: :func:`kb.night.placement.window_hint` (the one place)."""
    return window_hint(vs)


def _secondhand_only(views: Sequence[View], listed: Mapping[str, SubjectOut], support: Sequence[Fact],
                     tol: float, cited: Sequence[tuple[Fact, str]] = ()) -> list[SecondhandOut]:
    """Numbers of secondhand claims about listed subjects that no paper-fact supports, each with
    the primary source of a doc line stating it (``cited``: :func:`kb.facts.firsthand.firsthand_facts`)."""
    grouped: dict[str, list[Fact]] = defaultdict(list)
    for f in support:
        grouped[f.group].append(f)
    by_group = {g: SameFacts(fs, tol) for g, fs in grouped.items()}  # looked up, not scanned, per number
    cited_by: dict[str, list[tuple[Fact, str]]] = defaultdict(list)
    for d, src in cited:
        cited_by[d.group].append((d, src))
    cited_in = {g: SameFacts([d for d, _ in ds], tol) for g, ds in cited_by.items()}
    out: list[SecondhandOut] = []
    seen: set[tuple[str, str, str]] = set()
    for v in views:
        if v.claim.kind != "secondhand":
            continue
        for f in v.facts:
            if f.is_date or f.subject not in listed or (f.subject, f.raw, f.source) in seen:
                continue
            if f.group in by_group and by_group[f.group].holds(f):
                continue
            seen.add((f.subject, f.raw, f.source))
            i = cited_in[f.group].first(f) if f.group in cited_in else None
            src = cited_by[f.group][i][1] if i is not None else None
            out.append(SecondhandOut(subject=f.subject, metric=f.metric, raw=f.raw, source=f.source, claim=f.claim_id,
                                     cited=src))
    return out


def _sources(views: Sequence[View], listed: Mapping[str, SubjectOut],
             files: Sequence[tuple[str, str]] | None) -> list[SourceOut]:
    """Every window file with its claim count and the outcomes of the subjects it speaks about."""
    per: dict[str, SourceOut] = {}
    for path, role in files or ():
        per[path] = SourceOut(path=path, claims=0, role=role)
    for v in views:
        p = v.claim.provenance.path
        src = per.setdefault(p, SourceOut(path=p, claims=0, role=v.claim.role))
        src.claims += 1
        keys = [s for s in v.subjects if s in listed]
        for k in keys:
            src.outcomes.setdefault(k, listed[k].outcome)
        if not keys:
            src.unlisted += 1
    return [per[p] for p in sorted(per)]
