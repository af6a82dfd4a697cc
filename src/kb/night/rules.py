"""The outcome rules of DESIGN.md §3: one outcome per subject, conflicts, secondhand-only numbers.

Pure: claims, the doc's claims and the cards in, a :class:`~kb.night.model.DiffResult` out.
Which subject a number is about is decided by :mod:`kb.facts.attributor`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from kb.core.claims import Claim
from kb.core.config import KbConfig
from kb.core.window import Window
from kb.facts.attributor import Attributor, View
from kb.facts.fact import Fact
from kb.facts.near import NearIndex
from kb.facts.query import attributor
from kb.facts.same import comparable, disjoint_from, Grouped, same_fact
from kb.facts.values import same_value
from kb.night.doc_index import DocIndex
from kb.night.model import (
    OUTCOMES,
    ConflictOut,
    DiffResult,
    MismatchOut,
    SecondhandOut,
    SourceOut,
    SubjectOut,
    ValueOut,
)
from kb.night.placement import window_hint
from kb.read.cards import Card


def diff(window_claims: Sequence[Claim], doc_claims: Sequence[Claim], cards: Sequence[Card],
         config: KbConfig, window: Window, topic: str, *, baseline: Mapping[str, Any],
         first_mention: Callable[[str], str | None] = lambda key: None,
         card_claims: Callable[[Card], Iterable[Claim]] = lambda card: (),
         files: Sequence[tuple[str, str]] | None = None,
         doc_sections: Sequence[tuple[int, str, str]] = (),
         topic_paths: Iterable[str] = (),
         title_citations: Mapping[str, Sequence[tuple[int, bool]]] | None = None,
         titles: Iterable[tuple[str, str]] = (), at: Attributor | None = None) -> DiffResult:
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
        for s in v.subjects:
            if s not in typos:  # a suspected typo is listed once, beside the card it probably means
                by_subject[s].append(v)
    papers = _PaperEvidence(at, (*views, *doc_views), card_claims, tol)
    listed: dict[str, SubjectOut] = {}
    for key, vs in by_subject.items():
        out = _outcome(key, vs, at, doc, cats, window, first_mention, tol, named, papers)
        if out is not None:
            listed[key] = out

    conflicts = _conflicts(views, doc, listed, tol, papers)
    for c in conflicts:
        if "window" in c.against and c.subject in listed:
            listed[c.subject].in_window_conflict = True
    # support: any paper-fact of the KB (window files, cards of any date, the doc's 论文报告 lines)
    support = [f for v in (*views, *doc_views) if v.claim.kind == "paper-fact" for f in v.facts]
    for key in sorted(listed):
        card = at.card_of(key)
        if card is not None:
            support.extend(f for c in card_claims(card) if c.kind == "paper-fact" for f in at.view(c).facts)
    secondhand = _secondhand_only(views, listed, support, tol)
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


def _uniq(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


class _TopicNames:
    """Whether the topic is named around a claim: its heading path, file name, the file's front
    matter (``topic_paths``) or a cell of its table row (a direction column) names the topic or
    one of its categories; ``-``, ``_`` and spaces alike, whole words, any case."""

    def __init__(self, topic: str, cats: Iterable[str], topic_paths: Iterable[str]) -> None:
        names = sorted({_fold(n) for n in (topic, *cats) if n.strip()}, key=len, reverse=True)
        self._re = re.compile(r"(?<![a-z0-9])(?:" + "|".join(re.escape(n) for n in names) + r")(?![a-z0-9])")
        self._paths = set(topic_paths)

    def around(self, v: View) -> str | None:
        """Where the topic is named for ``v``'s claim (``heading``, ``file``, ``front matter``,
        ``row``), else None."""
        p = v.claim.provenance
        if any(self._re.search(_fold(h)) for h in p.heading):
            return "heading"
        if self._re.search(_fold(p.path.rsplit("/", 1)[-1])):
            return "file"
        if p.path in self._paths:
            return "front matter"
        if v.claim.unit == "table-row" and any(self._re.fullmatch(_fold(c.strip())) for c in v.claim.text.split(" | ")):
            return "row"
        return None


def _fold(text: str) -> str:
    return re.sub(r"[-_\s]+", " ", text.lower()).strip()


class _PaperEvidence:
    """What the paper itself states about a subject: the paper-facts of its card (any date), of
    the doc's ``论文报告`` lines and of the window. A window value the paper states is support,
    never a conflict with the doc (issue 20): the doc then lacks one of the paper's values."""

    def __init__(self, at: Attributor, views: Iterable[View], card_claims: Callable[[Card], Iterable[Claim]],
                 tol: float) -> None:
        self._at = at
        self._card_claims = card_claims
        self._tol = tol
        self._by_group: dict[str, list[Fact]] = defaultdict(list)
        self._seen: set[tuple[str, str, str]] = set()  # (claim, raw, group): a card in the window once
        for v in views:
            if v.claim.kind == "paper-fact":
                for f in v.facts:
                    self._add(f)
        self._cards_read: set[str] = set()

    def _add(self, f: Fact) -> None:
        if (f.claim_id, f.raw, f.group) not in self._seen:
            self._seen.add((f.claim_id, f.raw, f.group))
            self._by_group[f.group].append(f)

    def _facts(self, f: Fact) -> list[Fact]:
        card = self._at.card_of(f.subject) if f.subject else None
        if card is not None and card.path not in self._cards_read:
            self._cards_read.add(card.path)
            for c in self._card_claims(card):
                if c.kind == "paper-fact":
                    for g in self._at.view(c).facts:
                        self._add(g)
        return self._by_group.get(f.group, [])

    def states(self, f: Fact) -> Fact | None:
        """A paper-fact of another claim (a card, a ``论文报告`` line) stating ``f``'s value (:func:`same_fact`),
        else None: a window paper-fact is no support of itself ("the paper reports 45%" vs the doc's 30%)."""
        return next((p for p in self._facts(f) if p.claim_id != f.claim_id and same_fact(f, p, self._tol)), None)


def _outcome(key: str, vs: list[View], at: Attributor, doc: DocIndex, cats: set[str],
             window: Window, first_mention: Callable[[str], str | None], tol: float,
             named: _TopicNames, papers: _PaperEvidence) -> SubjectOut | None:
    """One subject's outcome by the rules of DESIGN.md §3, first rule that applies wins."""
    card = at.card_of(key)
    facts = [f for v in vs for f in v.facts if f.subject == key]
    claims = _uniq(v.claim.id for v in vs)
    hint = _hint([v for v in vs if v.subjects[:1] == [key]])
    base = dict(key=key, label=at.label(key), claims=claims, card=card.path if card else None)
    if doc.has(key):
        secs = doc.sections(key)
        doc_facts = doc.facts.get(at.group(key), [])
        clash = [f for fs in _by_path(facts).values() for f in disjoint_from(fs, doc_facts, tol)
                 if papers.states(f) is None]
        if clash:
            why = "same subject and metric, different value than the living doc: " + ", ".join(
                _uniq(f"{f.metric} {f.raw}" for f in clash))
            return SubjectOut(**base, outcome="conflict", section_hint=hint or _first(secs), reason=why, doc_sections=secs,
                              rule="doc-conflict", detail=", ".join(_uniq(f.raw for f in clash)))
        # the value a change started from is no new value (the doc holding 3.1 or 4.4, the window 3.1 → 4.4)
        new = [f for f in facts if f.transition != "from" and not any(same_fact(f, d, tol) for d in doc_facts)]
        if new:
            values = ", ".join(_uniq(f.raw for f in new))
            settings = _other_settings(new, doc_facts)
            backed = _uniq(f"{f.raw} ({p.source})" for f in new
                           if (p := papers.states(f)) is not None and p.path != f.path)
            if backed:
                settings = "; ".join(x for x in (settings, "stated by the paper: " + ", ".join(backed)) if x)
            why = "in the living doc, but not these values: " + values + (f" ({settings})" if settings else "")
            return SubjectOut(**base, outcome="update", section_hint=hint or _first(secs), reason=why,
                              doc_sections=secs, new_values=_uniq(f.raw for f in new), rule="doc-new-values",
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
    (:attr:`kb.facts.fact.Fact.setting`: ``64% 突发流量 vs the doc's 82% at steady load``), as
    the reason words: an update, no conflict (issue 20); empty when there are none."""
    doc_by: dict[tuple[str | None, str | None], list[Fact]] = defaultdict(list)
    for d in doc_facts:
        if d.metric is not None:
            doc_by[d.metric, d.unit].append(d)
    out = []
    for f in new:
        others = [d for d in doc_by.get((f.metric, f.unit), ()) if d.setting != f.setting] if f.metric else []
        if others and not any(d.setting == f.setting for d in doc_by[f.metric, f.unit]):
            d = others[0]
            out.append(f"{f.raw} {f.setting or 'no setting stated'} vs the doc's {d.raw} {d.setting or 'no setting stated'}")
    return "different setting: " + "; ".join(_uniq(out)) if out else ""


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


def _by_path(facts: Iterable[Fact]) -> dict[str, list[Fact]]:
    out: dict[str, list[Fact]] = defaultdict(list)
    for f in facts:
        out[f.path].append(f)
    return out


def _conflicts(views: Sequence[View], doc: DocIndex, listed: Mapping[str, SubjectOut], tol: float,
               papers: _PaperEvidence) -> list[ConflictOut]:
    """Conflicts against the doc and between window files, one record per subject/metric/qualifier
    (a window value the paper states is none against the doc: :class:`_PaperEvidence`).

    Between window files: :func:`kb.facts.same.disjoint_from` of every ordered pair of files,
    found from the distinct values (:func:`_window_conflicts`; 206 s for 1,200 files before)."""
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}

    def record(f: Fact, against: str, members: Iterable[tuple[Fact, str]]) -> None:
        entry = groups.setdefault((f.subject, f.metric or "", f.qualifier or ""),
                                  {"against": set(), "members": [], "seen": set()})
        entry["against"].add(against)
        for m in members:
            if (id(m[0]), m[1]) not in entry["seen"]:
                entry["seen"].add((id(m[0]), m[1]))
                entry["members"].append(m)

    by_subject: dict[str, list[Fact]] = defaultdict(list)
    for v in views:
        for f in v.facts:
            if f.metric and f.subject in listed:
                by_subject[f.subject].append(f)
    for subject in sorted(by_subject):
        paths = _by_path(by_subject[subject])
        doc_facts = doc.facts.get(by_subject[subject][0].group, [])
        doc_grouped = Grouped(doc_facts)
        grouped = {path: Grouped(facts) for path, facts in paths.items()}
        for path in sorted(paths):
            for f in disjoint_from(grouped[path], doc_grouped, tol):
                if papers.states(f) is not None:
                    continue
                record(f, "living-doc", [(f, "window"), *((d, "living-doc") for d in doc_facts if comparable(f, d))])
        _window_conflicts(grouped, tol, record)
    return [ConflictOut(subject=subject, metric=metric, qualifier=qualifier or None, against=sorted(entry["against"]),
                        values=_value_groups(entry["members"], tol)) for (subject, metric, qualifier), entry in sorted(groups.items())]


def _window_conflicts(grouped: Mapping[str, Grouped], tol: float,
                      record: Callable[[Fact, str, Iterable[tuple[Fact, str]]], None]) -> None:
    """The conflicts between the window files of one subject (``grouped``: path -> its facts), as
    :func:`kb.facts.same.disjoint_from` of every ordered pair finds them (a file's facts conflict
    with another's when, per metric and qualifier, the other states a rival and the two share no
    value): which files share a value is read per distinct value (:class:`kb.facts.near.NearIndex`),
    so 1,200 files stating one subject cost sets of files, not 1.4M comparisons."""
    by_any: dict[tuple[Any, ...], list[str]] = defaultdict(list)
    for path in sorted(grouped):
        for key in grouped[path].by_any:
            by_any[key].append(path)
    for any_key, paths in by_any.items():
        if len(paths) < 2:
            continue
        # which files share a value: per distinct value, its files; per value, the values it is
        sigs: dict[tuple[Any, ...], int] = {}
        sig_fact: list[Fact] = []
        sig_paths: list[set[str]] = []
        path_sigs: dict[str, set[int]] = defaultdict(set)
        for path in paths:
            for g in grouped[path].by_any[any_key]:
                sid = sigs.setdefault((g.value, g.low, g.high, g.bound, g.date, g.precision), len(sigs))
                if sid == len(sig_fact):
                    sig_fact.append(g)
                    sig_paths.append(set())
                sig_paths[sid].add(path)
                path_sigs[path].add(sid)
        index = NearIndex(tol)
        for sid, g in enumerate(sig_fact):
            index.add(g, sid, key=0)
        same = [[o for o in index.near(g, key=0) if same_value(g, sig_fact[o], tol)] for g in sig_fact]
        shares = {p: set().union(*(sig_paths[o] for sid in path_sigs[p] for o in same[sid])) for p in paths}
        # which files state a rival for each qualifier (as disjoint_from: exact only past 64 set-ups)
        quals = sorted({k[-1] for p in paths for k in grouped[p].by_key if k[:-1] == any_key}, key=str)
        tokens = {q: frozenset(q.split("+")) for q in quals if q}

        def setup(a: str | None, b: str | None) -> bool:
            return a == b or (bool(a) and bool(b) and (tokens[a] <= tokens[b] or tokens[b] <= tokens[a]))  # type: ignore[index]

        for qual in quals:
            key = (*any_key, qual)
            rivals = {p for p in paths if (key in grouped[p].by_key if len(grouped[p].quals[any_key]) > 64
                                          else any(setup(q, qual) for q in grouped[p].quals[any_key]))}
            if not rivals:
                continue
            against: set[str] = set()
            head: Fact | None = None
            for p in paths:
                peers = grouped[p].by_key.get(key)
                if not peers:
                    continue
                others = rivals - shares[p]
                others.discard(p)
                if not others:
                    continue
                against |= others
                head = head or peers[0]
                for f in peers:
                    record(f, "window", [(f, "window")])
            for q in sorted(against):  # the other side: the facts of each file in conflict comparable to them
                comp = {id(g) for qq in grouped[q].quals[any_key] if setup(qq, qual) for g in grouped[q].by_key[(*any_key, qq)]}
                record(head, "window", [(g, "window") for g in grouped[q].facts if id(g) in comp])  # type: ignore[arg-type]


def _value_groups(members: Sequence[tuple[Fact, str]], tol: float) -> list[ValueOut]:
    """Cluster facts by value (within tolerance / at shared date precision), doc values first."""
    clusters: list[list[tuple[Fact, str]]] = []
    seen: set[tuple[str, str]] = set()
    heads, units = NearIndex(tol), defaultdict(list)  # the first cluster whose head is the same value, by index
    for f, origin in sorted(members, key=lambda m: (m[1] != "living-doc", m[0].path, m[0].line, m[0].raw)):
        if (f.source, f.raw) in seen:
            continue
        seen.add((f.source, f.raw))
        near = [*heads.near(f), *(i for u, ids in units.items() if u != f.unit for i in ids)]  # other units convert
        home = min((i for i in near if same_value(clusters[i][0][0], f, tol)), default=None)
        if home is None:
            heads.add(f, len(clusters))
            units[f.unit].append(len(clusters))
            clusters.append([(f, origin)])
        else:
            clusters[home].append((f, origin))
    return [ValueOut(raw=c[0][0].raw, value=c[0][0].value_out, high=c[0][0].high, kinds=sorted({f.kind for f, _ in c}),
                     sources=_uniq(f.source for f, _ in c), origin=sorted({o for _, o in c})) for c in clusters]


def _secondhand_only(views: Sequence[View], listed: Mapping[str, SubjectOut], support: Sequence[Fact],
                     tol: float) -> list[SecondhandOut]:
    """Numbers of secondhand claims about listed subjects that no paper-fact supports."""
    by_group: dict[str, list[Fact]] = defaultdict(list)
    for f in support:
        by_group[f.group].append(f)
    out: list[SecondhandOut] = []
    seen: set[tuple[str, str, str]] = set()
    for v in views:
        if v.claim.kind != "secondhand":
            continue
        for f in v.facts:
            if f.is_date or f.subject not in listed or (f.subject, f.raw, f.source) in seen:
                continue
            if any(same_fact(f, s, tol) for s in by_group.get(f.group, ())):
                continue
            seen.add((f.subject, f.raw, f.source))
            out.append(SecondhandOut(subject=f.subject, metric=f.metric, raw=f.raw, source=f.source, claim=f.claim_id))
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
