"""The nights of every topic over one window, for the source ledger (``kb sources`` without a
topic): each topic's diff reads only the claims whose numbers it can settle otherwise than the
topics before it, so the work grows with topics x (claims of each topic), not topics x claims.

A number's fate (:mod:`kb.night.ledger`) is the best over the topics' nights, the first night
giving it kept. In a night of topic *t*, the fate of a number about subject *S* (its facts'
group *g*) depends on *t* only through: whether *S* is listed (the doc mentions it, else it
has no card or its card's category is one of *t*'s), *t*'s doc facts of *g* and whether the
doc mentions *S*, *g* or a card whose paper-facts state values of *g* (that card's listing
decides its support), and which of those cards are listed. So per topic:

* *touched* subjects (the doc mentions *S* or *g*, states values of *g*, or mentions such a
  card) are diffed, unless no number of *S* can get a better fate there: each is backed
  already, or contradicted and nothing (a paper-fact of the window, of a card or of this doc)
  states a value of *g*;
* any other listed subject is diffed in the first topic with the same listed cards of *g*
  (none, for a subject without cards around it: once): the other topics give the same fates.

The diff of a topic reads the claims about those subjects (and about the cards of their
groups, the paper-facts of their groups, the claims with a suspected typo), with the
Attributor all topics share. A doc that writes a name with an id the window's claims did not
group (``LMCache（arXiv:…）``: :meth:`kb.facts.attributor.Attributor.learn`) moves that name's
values into the id's group in its own night only: that night reads with an Attributor of its
own (taught the window's name–id pairs, then the doc's), and every subject of the two groups
counts as touched. A topic's own briefs (sources of the other topics) are left out of its
night, and the subjects they speak of count as touched there, their numbers kept apart from
the ones of the whole window. A topic whose night could read a claim otherwise is diffed
whole, as :func:`kb.night.run.run_night` (topics x claims): its baseline has headings the
stored docs do not, or leaving its briefs out drops a suspected typo or regroups a name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

from kb.core.claims import Claim
from kb.core.paths import KNOWLEDGE_DIR, is_own_brief
from kb.core.window import Window
from kb.extract.subjects import attribute
from kb.facts.attributor import Attributor, View
from kb.facts.query import attributor
from kb.night.apart import apart_claims
from kb.night.doc_index import DocIndex
from kb.night.rules import diff
from kb.night.run import (
    Night, doc_title_citations, first_mention_before, night_cards, night_doc, title_claims, window_claims, window_files,
)
from kb.night.share import NightShare, topic_paths
from kb.read.cards import Card
from kb.store.titles import TitleIndex, known_titles
from kb.store.workspace import Kb

N = TypeVar("N")

#: Subject keys that name a paper (as :mod:`kb.facts.attributor` scopes a claim by them).
_PAPERS = ("arxiv:", "doi:", "title:")


class _Claims:
    """The window's claims as the shared Attributor views them, indexed by subject and group."""

    def __init__(self, at: Attributor, claims: list[Claim], card_claims: Callable[[Card], list[Claim]]) -> None:
        self.claims = claims
        self.views: list[View] = [at.view(c) for c in claims]
        cards = set(at.cards)
        self.typos = {m["cited"] for v in self.views for m in v.mismatches} - cards
        self.flagged = [i for i, v in enumerate(self.views) if v.mismatches]  # every diff reads them (typos)
        self.listing: dict[str, list[int]] = defaultdict(list)  # subject -> claims listing it
        self.stating: dict[str, list[int]] = defaultdict(list)  # subject -> claims with a fact of it
        self.papers: dict[str, list[int]] = defaultdict(list)  # group -> paper-fact claims stating it
        numbered: set[str] = set()
        for i, v in enumerate(self.views):
            for s in dict.fromkeys(v.subjects):
                if s not in self.typos:
                    self.listing[s].append(i)
            for s in dict.fromkeys(f.subject for f in v.facts):
                self.stating[s].append(i)
            if v.claim.kind == "paper-fact":
                for g in dict.fromkeys(f.group for f in v.facts):
                    self.papers[g].append(i)
            if v.claim.kind == "secondhand":
                numbered.update(f.subject for f in v.facts if not f.is_date)
        self.subjects = [s for s in self.listing if s in numbered]  # subjects that have numbers
        self.numbered = set(self.subjects)
        self.group = {s: at.group(s) for s in self.listing}
        # cards a diff may list whose paper-facts support a group (diff(): support of listed cards)
        self.cards_of: dict[str, set[str]] = defaultdict(set)
        for key in self.listing:
            card = at.card_of(key)
            if card is not None:
                for c in card_claims(card):
                    if c.kind == "paper-fact":
                        for f in at.view(c).facts:
                            self.cards_of[f.group].add(key)
        self.near: dict[str, list[str]] = defaultdict(list)  # doc key -> subjects it touches
        self.members: dict[str, list[str]] = defaultdict(list)  # group -> its subjects
        for s in self.subjects:
            g = self.group[s]
            self.members[g].append(s)
            keys = {s, g}
            for k in self.cards_of.get(g, ()):
                keys.update((k, self.group[k]))
            for k in keys:
                self.near[k].append(s)
        # the claims that group a name with its id (all a doc's night must learn again), and
        # per name the claims pairing it, in order (the first one groups it: Attributor.learn)
        self.pairs_of = {i: p for i, c in enumerate(claims) if (p := _pairs(at, c))}
        self.pairing = [claims[i] for i in self.pairs_of]
        self.paired: dict[str, list[tuple[int, str]]] = defaultdict(list)
        for i, p in self.pairs_of.items():
            for name, paper in p:
                self.paired[name].append((i, paper))
        self.at_path: dict[str, list[int]] = defaultdict(list)
        for i, c in enumerate(claims):
            self.at_path[c.provenance.path].append(i)

    def left_out(self, idx: set[int]) -> set[str] | None:
        """The subjects whose night changes when the claims ``idx`` (a topic's own briefs) are
        left out: those the claims list or state, of the groups they state, or whose group's
        cards they list; None when leaving them out changes more (a suspected typo goes, or a
        name is grouped with another id or none: the night is then diffed whole)."""
        if idx & set(self.flagged):
            return None
        for i in idx & self.pairs_of.keys():
            for name, _ in self.pairs_of[i]:
                rest = next((p for j, p in self.paired[name] if j not in idx), None)
                if rest != self.paired[name][0][1]:
                    return None
        keys: set[str] = set()
        for i in idx:
            v = self.views[i]
            keys.update(v.subjects)
            keys.update(k for f in v.facts for k in (f.subject, f.group))
        return {s for k in keys for s in self.near.get(k, ())}

    def around(self, subjects: Iterable[str], moved: dict[str, str], out: set[int]) -> list[Claim]:
        """The claims a diff needs to settle the numbers of ``subjects`` as the whole window
        would: those listing or stating them or a card of their groups, the paper-facts of their
        groups, the claims with a suspected typo; in the window's order, ``out`` left out (the
        topic's own briefs). ``moved``: name -> the id whose group it joins in this night (its
        group's claims count for both)."""
        into: dict[str, set[str]] = defaultdict(set)
        for name, paper in moved.items():
            into[paper].add(name)

        def groups(s: str) -> set[str]:
            g = moved.get(s, self.group.get(s, s))
            return {g, *into.get(g, ())}

        want = set(subjects)
        for s in list(want):
            for g in groups(s):
                want.update(self.cards_of.get(g, ()))
        idx = set(self.flagged)
        for s in want:
            idx.update(self.listing.get(s, ()))
            idx.update(self.stating.get(s, ()))
            for g in groups(s):
                idx.update(self.papers.get(g, ()))
        return [self.claims[i] for i in sorted(idx - out)]


def _pairs(at: Attributor, c: Claim) -> list[tuple[str, str]]:
    """The ``(name, id)`` pairs :meth:`Attributor.learn` reads in claim ``c`` (``Name（arXiv:…）``,
    :func:`attribute`), names that are no arXiv id."""
    scoped = c.role != "card" and any(s.startswith(_PAPERS) for s in c.subjects)
    return [(n, p) for n, p in attribute(c.text, at.anchors(c.text, c), scoped).pairs if not n.startswith("arxiv:")]


def _moved(at: Attributor, claims: Sequence[Claim]) -> dict[str, str]:
    """name -> id of the names that learning ``claims`` (a doc's) after the window's would
    group, first pair first (names the window grouped already stay as they are)."""
    out: dict[str, str] = {}
    for c in claims:
        for name, paper in _pairs(at, c):
            if at.group(name) == name:
                out.setdefault(name, paper)
    return out


def sweep(kb: Kb, topics: list[str], window: Window, share: NightShare, *,
          numbers: Callable[[Night], list[N]], whole: Callable[[str], list[N]],
          key: Callable[[N], Hashable], subject: Callable[[N], str], rank: Callable[[N], int],
          best: int, held_fate: int) -> list[N]:
    """The numbers of every topic's night over ``window``, topic by topic, each night's
    numbers of the subjects it diffed (see the module docstring): what the nights diffed whole
    would give, as far as the best fate of each number and the first night giving it go.

    :param numbers: a night's numbers (:func:`kb.night.ledger.night_numbers`).
    :param whole: a topic's numbers from its whole night (:func:`kb.night.ledger.topic_numbers`).
    :param key: a number's identity; :param subject: its subject; :param rank: its fate's rank
        (lower is better); :param best: the rank no night improves (``backed``);
        :param held_fate: the rank only a stated paper value improves (``contradicted``).
    """
    cfg = kb.config
    lived = set(kb.store.heading_texts_in(KNOWLEDGE_DIR, "living-doc"))
    briefs = [p for p, *_ in share.once(("files", window.since_iso, window.until_iso), lambda: kb.store.files_written(
        window.since_iso, window.until_iso, ("inbox", "card"))) if p.endswith("-e1prep.md")]
    own: dict[str, list[str]] = {t: [] for t in topics}
    for p in briefs:  # ``…-<topic>-e1prep.md``: the topics its name may end with (a topic may hold ``-``)
        stem = p.rsplit("/", 1)[-1]
        for t in {stem[i + 1:].removesuffix("-e1prep.md") for i, ch in enumerate(stem) if ch == "-"} & own.keys():
            if is_own_brief(p, t):
                own[t].append(p)
    files = window_files(kb, window, None, share)
    claims = window_claims(kb, window, None, share)
    cards = night_cards(kb)
    titles = known_titles(kb.store, cards)
    claims = sorted([*claims, *title_claims(kb, files, claims, titles)], key=lambda c: (c.provenance.path, c.provenance.line))
    at = attributor(kb, None, cards=cards, titles=titles)
    at.learn(claims)
    read: dict[str, list[Claim]] = {}

    def card_claims(card: Card) -> list[Claim]:
        if card.path not in read:
            read[card.path] = list(kb.store.claims(path=card.path, kind="paper-fact"))
        return read[card.path]

    ix = _Claims(at, claims, card_claims)
    title_index = TitleIndex.kept(kb.store, titles, cfg.diff.title_threshold)
    apart = apart_claims(kb, claims, share.apart)
    stated = set(ix.papers) | set(ix.cards_of)  # groups a paper-fact of the window or of a card states
    roles = {f.path: f.role for f in files}
    best_rank: dict[Hashable, int] = {}
    of_subject: dict[str, set[Hashable]] = {}  # numbers of a subject, from a night that listed it
    tally: dict[str, list[int]] = {}  # subject -> its numbers not backed, worse than contradicted
    done: set[tuple[str, frozenset[str]]] = set()
    carded = [s for s in ix.subjects if at.card_of(s) is not None or ix.cards_of.get(ix.group[s])]
    pending = set(ix.subjects) - set(carded)
    out: list[N] = []

    def matches(card_key: str, cats: set[str]) -> bool:
        card = at.card_of(card_key)
        return card is not None and (card.category in cats or bool(cats & set(card.also)))

    for t in topics:
        doc = night_doc(kb, t, window)
        out_idx = {i for p in own[t] for i in ix.at_path.get(p, ())}
        partial = ix.left_out(out_idx) if out_idx else set()
        if partial is None or not {s.title for s in doc.sections} <= lived:
            found = whole(t)
            listed = set()
        else:
            listed = set()
            found = []
            cats = set(cfg.topic_categories(t))
            moved = _moved(at, doc.claims)
            at_t = at
            if moved:  # this night's own Attributor: the window's pairs, then the doc's (diff() learns those)
                at_t = attributor(kb, None, cards=cards, titles=titles)
                at_t.learn(ix.pairing)
                at_t.learn(doc.claims)
            doc_views = [at_t.view(c) for c in doc.claims]
            titled = doc_title_citations(kb, doc, cards, titles, title_index)
            sections = [(s.line, s.label, s.title) for s in doc.sections]
            index = DocIndex(at_t, doc_views, sections, titled, cfg.tolerance)
            doc_papers = {f.group for v in doc_views if v.claim.kind == "paper-fact" for f in v.facts}
            touched = {s for k in (*index.mentioned, *index.facts, *doc_papers) for s in ix.near.get(k, ())}
            shaken = {s for name, paper in moved.items()  # every subject of both groups, the name itself
                      for s in (*ix.members.get(paper, ()), *ix.members.get(name, ()), name) if s in ix.numbered}
            shaken |= partial  # subjects the topic's own briefs speak of: their numbers differ here
            touched |= shaken
            wanted: list[str] = []
            for s in touched:
                if not (index.has(s) or at.card_of(s) is None or matches(s, cats)):
                    continue
                left = tally.get(s)  # its numbers not backed, and worse than contradicted
                backable = ix.group[s] in stated or ix.group[s] in doc_papers
                if left is None or s in shaken or not (left[0] == 0 or (left[1] == 0 and not backable)):
                    wanted.append(s)
            calm = [s for s in pending if s not in touched]  # no card around: one night for all
            wanted.extend(calm)
            pending.difference_update(calm)
            for s in carded:
                if s not in touched and (at.card_of(s) is None or matches(s, cats)):
                    sig = (s, frozenset(k for k in ix.cards_of.get(ix.group[s], ()) if matches(k, cats)))
                    if sig not in done:
                        done.add(sig)
                        wanted.append(s)
            if wanted:
                sub = ix.around(wanted, moved, out_idx)
                paths = list(dict.fromkeys(c.provenance.path for c in sub))
                result = diff(
                    sub, doc.claims, cards, cfg, window, t, at=at_t,
                    baseline={"path": doc.path, "version": doc.version,
                              "updated": doc.updated.isoformat() if doc.updated else None, "citations": doc.citations},
                    first_mention=first_mention_before(kb, window.since_iso, titles, t), card_claims=card_claims,
                    files=[(p, roles.get(p, "inbox")) for p in paths], doc_sections=sections,
                    topic_paths=topic_paths(kb, paths, [t, *cfg.topic_categories(t)], share.fronts),
                    title_citations=titled, titles=titles, doc_lines=doc.text.splitlines(), apart=apart)
                night = Night(kb=kb, topic=t, window=window, doc=doc, result=result,
                              claims={c.id: c for c in sub}, cards={c.key: c for c in cards}, files=[],
                              attributor=at_t)
                keep = set(wanted)
                found = [n for n in numbers(night) if subject(n) in keep]
                listed = (keep - partial) & {r.key for r in result.subjects}  # whole numbers only
        for n in found:
            k, r, s = key(n), rank(n), subject(n)
            old = best_rank.get(k)
            if old is None or r < old:
                best_rank[k] = r
                if old is not None and k in of_subject.get(s, ()):
                    tally[s][0] -= old > best >= r
                    tally[s][1] -= old > held_fate >= r
        for s in listed:  # a subject's numbers, as a night that listed it found them
            tally.setdefault(s, [0, 0])
        for n in found:
            k, s = key(n), subject(n)
            if s in listed and k not in of_subject.setdefault(s, set()):
                of_subject[s].add(k)
                tally[s][0] += best_rank[k] > best
                tally[s][1] += best_rank[k] > held_fate
        out.extend(found)
    return out


__all__ = ["sweep"]
