"""Which subject a claim and each of its numbers are about, on top of the parser's claims.

The parser knows arXiv ids, DOIs and ``kb.yaml`` entities. The diff also needs card titles
and aliases (``Bole``, ``Lossy Verification``), hosts and baselines that are not the subject
(``集成 SGLang``, ``比 vLLM 低 21%``: DESIGN.md §3), subjects from the enclosing heading,
and the qualifier a number is conditional on (``offload 到 RTX 5090 时 2.06×``). Rules:

* A card's own claims are about the card's paper (its body rarely repeats the id).
* Names: kb.yaml entities and card names (title, title before ``:``, aliases), matched
  case-insensitively, longest first, ASCII names on word boundaries. A card name equal to an
  entity name makes the two keys one *group* (``entity:flashinfer`` ~ ``arxiv:2606.20295``)
  for comparing values; both keys stay subjects.
* A name right after a host/baseline word is a host, never the subject.
* A number belongs to its owner in its clause (:func:`kb.extract.subjects.owner`), else (a table row whose first
  cell names no subject) its column's entity (:func:`kb.read.tables._by_column`), else the claim's first.
* A claim with no subject of its own takes the parser's inherited ids, else (list items and
  table rows only) the names in its innermost heading that has any.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from kb.core.claims import Claim
from kb.core.config import KbConfig
from kb.extract.arxiv_ids import find_arxiv
from kb.extract.names import (
    NameMatcher, _fold, entity_key, id_names,
)
from kb.extract.qualifiers import Qualifiers, _leads
from kb.extract.refs import find_dois
from kb.extract.sections import hinted_section
from kb.extract.subjects import _ID_GAP_RE, Anchor, Attribution, Owners, attribute, is_host, is_role
from kb.extract.titles import paper_title, title_key
from kb.facts.fact import Fact, facts_of
from kb.facts.known import known_names, names_code
from kb.read.cards import Card
from kb.store.db import Store
from kb.store.titles import TitleIndex

#: Subject keys that name a paper (an arXiv id, a DOI, a title: :func:`kb.extract.titles.title_key`).
_PAPERS = ("arxiv:", "doi:", "title:")


@dataclass(slots=True)
class View:
    """A claim as the diff sees it: subjects (first = primary), hosts, facts, section hint."""

    claim: Claim
    subjects: list[str]
    hosts: list[str]
    facts: list[Fact]
    hint: str | None
    mismatches: list[dict[str, str]] = field(default_factory=list)
    qualifiers: list[str | None] = field(default_factory=list)
    """Per quantity of the claim: what it is conditional on (:func:`qualifier`)."""
    owners: list[str | None] = field(default_factory=list)
    """Per quantity of the claim, then per date: the subject named before it in its clause
    (:func:`owner`), else None (then: the claim's first subject)."""
    leads: list[str] = field(default_factory=list)
    """Subjects the claim's text starts with (a node of its own: ``- vLLM：…``, a row's first
    cell), not those named in passing (``其他如 llama.cpp``, ``such as llama.cpp``)."""
    subject_keys: frozenset[str] = field(init=False, repr=False, compare=False)
    """``subjects`` as a set: whether a view names a key is asked once per subject, and a line
    naming thousands of arXiv ids is under each of them (a scan of ``subjects`` was quadratic)."""

    def __post_init__(self) -> None:
        self.subject_keys = frozenset(self.subjects)


class Attributor:
    """Subject attribution for one KB (config entities + cards); see the module docstring.

    The rules themselves are :func:`attribute` and :func:`owner`, which the parser also uses
    (with kb.yaml entities only, since a parse must not depend on cards); the Attributor adds
    card names, the enclosing heading and the parser's inherited subjects.

    :param config: the KB config (entities, tolerance).
    :param cards: every paper card of the KB.
    :param titles: ``(subject key, title)`` of papers known by title
        (:func:`kb.store.titles.known_titles`: cards, arXiv link texts, the arXiv cache).
    :param headings: the living docs' heading texts: the names they give a node of their own
        are known subjects too (:func:`heading_names`; DESIGN.md §2: "living-doc headings").
    :param store: when given, what the Attributor knows by name (:func:`kb.facts.known.known_names`) is kept in it
        between runs (:meth:`kb.store.db.Store.kept`, keyed by the entities, every card's key,
        title and aliases, the titles, the headings and the code): a night on a KB of
        thousands of cards reads it back instead of building it; any changed input builds it.
    :param memo: the ``meta`` key it is kept under: callers whose inputs differ (a night adds
        its baseline's headings) keep theirs apart, so they do not build each other's again.
    """

    def __init__(self, config: KbConfig, cards: Iterable[Card], titles: Iterable[tuple[str, str]] = (),
                 headings: Iterable[str] = (), *, store: Store | None = None,
                 memo: str = "attributor_names") -> None:
        headings = list(headings)
        cards = sorted(cards, key=lambda c: c.path)
        titles = list(titles)
        self._named: dict[str, str] = {}  # id -> the name written before it in brackets (learn)
        self._spoken: dict[str, str] = {}  # a name no input knows, written with its id -> the id (learn)
        self._spoken_matcher: NameMatcher | None = None
        self.cards: dict[str, Card] = {}
        self.by_path: dict[str, Card] = {}
        for card in cards:
            self.cards.setdefault(card.key, card)  # type: ignore[arg-type]
            self.by_path[card.path] = card
        built: list[NameMatcher] = []

        def build() -> list[object]:
            names, group, known, labels, spelt = known_names(config, cards, titles, headings)
            built.append(NameMatcher(names, spelt))
            return [built[0].state(), group, known, labels]

        if store is None:
            _, group, known, labels = build()
        else:  # kept between runs, keyed by every input (a changed card, alias, title or heading builds it again)
            inputs = [names_code(), {k: list(v) for k, v in config.entities.items()},
                      [[c.key, c.title, c.aliases] for c in cards], titles, headings]
            matcher_state, group, known, labels = store.kept(memo, inputs, build)
        self.labels: dict[str, str] = labels  # type: ignore[assignment]
        self._entities = frozenset(entity_key(n) for n in config.entities)
        self._titles: dict[str, str] = known  # type: ignore[assignment]  # id -> a title the KB knows it by
        self._group: dict[str, str] = group  # type: ignore[assignment]
        self.matcher = built[0] if built else NameMatcher.from_state(matcher_state)
        self._views: dict[tuple[str, str], View] = {}
        self._atts: dict[tuple[str, str], tuple[list[Anchor], Attribution]] = {}
        self._names_in: dict[str, list[str]] = {}
        self._heading_anchors: dict[str, list[Anchor]] = {}
        self._learnt: set[tuple[str, str]] = set()
        self._title_pairs = titles  # built into a TitleIndex at the first ``title:`` subject
        self._threshold = config.diff.title_threshold
        self._index: TitleIndex | None = None
        self._resolved: dict[str, str] = {}

    def fork(self) -> Attributor:
        """A copy that shares what this one knows by name (the matcher, labels, titles: built once)
        and learns on its own: what :meth:`learn` adds to the copy (name–id groups, names) and its
        caches stay in it. ``kb lint`` forks one Attributor per document instead of building the
        KB's names again for each (docs × cards before)."""
        other = copy.copy(self)
        other._group, other._named, other._learnt = dict(self._group), dict(self._named), set(self._learnt)
        other._spoken = dict(self._spoken)
        other._views, other._atts, other._names_in, other._heading_anchors = {}, {}, {}, {}
        other._resolved = dict(self._resolved)
        return other

    def group(self, key: str) -> str:
        """The key values of ``key`` are compared under (an entity named like a card, or written
        with its id in brackets -> the paper)."""
        return self._group.get(key, key)

    def card_of(self, key: str) -> Card | None:
        return self.cards.get(key)

    def label(self, key: str) -> str:
        """How every output names subject ``key`` (the one decision; issue 8), first that
        applies: the card's title; the kb.yaml canonical name (an entity) or the name a living
        doc's heading gives the id (:func:`heading_labels`); the name written right before the
        id in brackets in a claim :meth:`learn` read — a kb.yaml entity's canonical name
        (``Mooncake（来源：arXiv:2407.00079）``) or a name-like token (:func:`id_names`,
        ``CacheGen（arXiv:2310.07240）``); else the key without its prefix (``2310.07240``)."""
        card = self.cards.get(key)
        if card and card.title:
            return card.title
        return self.labels.get(key) or self._named.get(key) or key.split(":", 1)[1]

    def _known(self, token: str) -> str | None:
        """The canonical name of the kb.yaml entity ``token`` names (any alias), else None."""
        key = self.matcher.key_of.get(_fold(token.strip()))
        return self.labels.get(key) if key and key.startswith("entity:") else None

    def title(self, key: str) -> str | None:
        """The title of paper ``key``: its card's, else the first the KB knows
        (:func:`kb.store.titles.known_titles`: link texts ``[Title](https://arxiv.org/abs/…)``, the
        arXiv cache), else None."""
        card = self.cards.get(key)
        return card.title if card and card.title else self._titles.get(key)

    def anchors(self, text: str, claim: Claim | None = None) -> list[Anchor]:
        """Ids, DOIs and names written in ``text`` (a claim's spans when given), no overlaps."""
        if claim is not None:
            out = [Anchor(r.start, r.end, r.key, True) for r in claim.arxiv if r.start >= 0]
            low = text.lower()
            for s in claim.subjects:
                if s.startswith("doi:") and (pos := low.find(s[4:])) >= 0:
                    out.append(Anchor(pos, pos + len(s) - 4, s, True))
        else:
            out = [Anchor(r.start, r.end, r.key, True) for r in find_arxiv(text)]
            out += [Anchor(a, b, f"doi:{d}", True) for d, a, b in find_dois(text)]
        taken = [(a.start, a.end) for a in out]
        for key, a, b in self.matcher.find(text):
            if not any(a < y and x < b for x, y in taken) and not (claim is not None and self._inside_name(claim, key, a, b)):
                out.append(Anchor(a, b, key, False))
        if self._spoken:
            if self._spoken_matcher is None:
                self._spoken_matcher = NameMatcher(self._spoken, self._spoken)
            taken = [(a.start, a.end) for a in out]
            out += [Anchor(a, b, key, False) for key, a, b in self._spoken_matcher.find(text)
                    if not any(a < y and x < b for x, y in taken)]
        return sorted(out, key=lambda x: x.start)

    def _inside_name(self, claim: Claim, key: str, start: int, end: int) -> bool:
        """A kb.yaml entity the parser left out of the claim's subjects after a capitalised word:
        a longer name of the file holds it (``Fast KVzip``: :meth:`kb.read.walk._FileCtx.learn_scope_name`)."""
        return (key in self._entities and claim.role != "card" and bool(claim.subjects) and key not in claim.subjects
                and _CAP_WORD_BEFORE_RE.search(claim.text, 0, start) is not None
                and not is_host(claim.text, start, end) and not is_role(claim.text, start, end))

    def names_in(self, text: str) -> list[str]:
        """Subject keys ``text`` is about (ids, DOIs, names; hosts and baselines left out);
        cached per text (every claim under a heading asks about the same heading)."""
        hit = self._names_in.get(text)
        if hit is None:
            hit = self._names_in[text] = attribute(text, self.anchors(text)).keys
        return hit

    def _claim_anchors(self, claim: Claim) -> tuple[list[Anchor], Attribution]:
        """A claim's anchors and their :func:`attribute`, computed once (``learn`` and ``view``)."""
        key = (claim.id, claim.text)
        hit = self._atts.get(key)
        if hit is None:
            anchors = self.anchors(claim.text, claim)
            scoped = claim.role != "card" and any(s.startswith(_PAPERS) for s in claim.subjects)
            hit = self._atts[key] = (anchors, attribute(claim.text, anchors, scoped))
        return hit

    def _heading_mismatches(self, heading: str, claim: Claim) -> list[dict[str, str]]:
        """:meth:`_mismatches` of one heading text, its anchors found once per heading."""
        anchors = self._heading_anchors.get(heading)
        if anchors is None:
            anchors = self._heading_anchors[heading] = self.anchors(heading)
        return self._mismatches(heading, anchors, claim) if anchors else []

    def learn(self, claims: Iterable[Claim]) -> None:
        """Group each name written with its own id (``Mooncake（来源：arXiv:2407.00079）``) with
        that id, so the name and the id are one subject everywhere, and let the name label the
        id (:meth:`label`; also a name no kb.yaml entity has, :func:`id_names`); call before
        :meth:`view`. The first claim to name an id, in the order given, names it. A claim
        learnt once is passed over (the diff, the brief's baseline snapshot and its ledger each
        learn the same night's claims)."""
        for c in claims:
            key = (c.id, c.text)
            if key in self._learnt:
                continue
            self._learnt.add(key)
            if "arxiv" in c.text.lower() or any(ch.isdigit() for ch in c.text):
                for name, paper in self._claim_anchors(c)[1].pairs:
                    if not name.startswith("arxiv:"):
                        self._group.setdefault(name, paper)
                if c.arxiv:
                    for paper, name in id_names(c.text, ((r.key, r.start) for r in c.arxiv), self._known):
                        self._named.setdefault(paper, name)
                        self._speak(name, paper)

    def _speak(self, name: str, paper: str) -> None:
        """A name no input knows, first written with its id in some claim (``RingComm
        (arXiv:2611.38520)``), names that paper in every claim viewed after (docs/diff.md: "the
        name is grouped with the id wherever else it appears"), matched as written (a mixed-case
        name never as an ordinary word). Anchors found before are found again."""
        if len(name) < 3 or not any(ch.isupper() or ch.isdigit() for ch in name) \
                or self.matcher.key_of.get(_fold(name)) is not None or name in self._spoken:
            return
        self._spoken[name] = paper
        self._spoken_matcher = None
        self._atts.clear()
        self._names_in.clear()
        self._heading_anchors.clear()

    def view(self, claim: Claim) -> View:
        """Attribute one claim (see the module docstring for the rules); cached per claim id and text."""
        hit = self._views.get((claim.id, claim.text))
        if hit is not None:
            return hit
        text = claim.text
        anchors, att = self._claim_anchors(claim)
        self._atts.pop((claim.id, claim.text), None)  # the view is cached instead
        mismatches = self._mismatches(claim.text, anchors, claim)
        for h in claim.provenance.heading:  # "## RetroSpec: …（arXiv:2612.00771）" over its bullets
            if "arxiv" in h.lower() or any(ch.isdigit() for ch in h):
                mismatches += [m for m in self._heading_mismatches(h, claim)
                               if m["cited"] not in {x["cited"] for x in mismatches}]
        fixed = {m["cited"]: m["card_subject"] for m in mismatches if m["cited"] not in self.cards}
        typos = set(fixed)
        own = [a for a in att.own if a.key not in typos]
        own_keys = list(dict.fromkeys(a.key for a in own))
        card = self.by_path.get(claim.provenance.path) if claim.role == "card" else None
        scope = None  # the paper a scope gives the claim (a heading, the note's top), when its text names none
        if card is not None:
            subjects, own = [card.key], []
        else:
            in_text = {a.key for a in anchors} | {n for n, _ in att.pairs}
            context = list(dict.fromkeys(fixed.get(s, s) for s in claim.subjects
                                         if s not in in_text and s not in att.hosts))
            papers = [s for s in context if s.startswith(_PAPERS)]
            if papers and not any(k.startswith(_PAPERS) for k in own_keys):
                subjects = list(dict.fromkeys(papers + own_keys))
                scope = papers[0] if own_keys else None
            elif own_keys:
                subjects = own_keys
            elif context:
                subjects = context
            elif claim.unit in ("list-item", "table-row"):  # bullets under "## 2. HydraServe（arXiv:…）"
                subjects = next((ks for h in reversed(claim.provenance.heading) if (ks := self.names_in(h))), [])
            else:
                subjects = []
        if any(k.startswith("title:") for k in subjects):
            subjects = list(dict.fromkeys(self._by_title(k, claim) for k in subjects))
        who = Owners(own, text)
        owners: list[str | None] = [who.of(x.start, x.end) for x in (*claim.quantities, *claim.dates)]
        label_end = text.find(" | ")  # where a table row's first cell ends: found once, not once a name
        if claim.unit == "table-row" and not any(a.start < label_end for a in own):  # its label names no one:
            owners[:len(claim.quantities)] = [o or q.subject for o, q in zip(owners, claim.quantities)]  # column's
        if scope is not None:  # a number whose clause names no one is the scope's paper's (issue 20)
            owners = [o or self._by_title(scope, claim) for o in owners]
        qual = Qualifiers(claim)
        quals = [qual.of(q) for q in claim.quantities]
        facts = facts_of(claim, [o or subjects[0] for o in owners], quals, self.group) if subjects else []
        hint = None
        if claim.role == "inbox":
            hint = claim.section_hint or hinted_section(text)
        elif claim.role == "living-doc":
            hint = claim.section_hint
        v = View(claim, subjects, att.hosts, facts, hint, mismatches, quals, owners, _item_leads(claim, own))
        self._views[(claim.id, claim.text)] = v
        return v

    def attributed(self, claim: Claim) -> Claim:
        """``claim`` with the subjects :meth:`view` gives it, and each quantity's and date's
        ``subject`` (what ``kb claims`` prints, so it says what ``kb diff`` uses)."""
        v = self.view(claim)
        n = len(claim.quantities)
        return claim.model_copy(update={
            "subjects": v.subjects,
            "quantities": [q.model_copy(update={"subject": v.owners[i], "qualifier": v.qualifiers[i]})
                           for i, q in enumerate(claim.quantities)],
            "dates": [d.model_copy(update={"subject": v.owners[n + i]}) for i, d in enumerate(claim.dates)],
        })

    def _by_title(self, key: str, claim: Claim) -> str:
        """A ``title:…`` subject (a paper the parser knew by title only: a paper-title heading, a
        paper note's title; :func:`kb.extract.titles.title_key`) as the paper the KB knows by that
        title (:class:`kb.store.titles.TitleIndex`, the one title lookup: cards, link texts, the
        arXiv cache), else itself, labelled with the title as the file writes it. Read at diff
        time, so a card or a cached title added later resolves it without re-parsing the KB."""
        if not key.startswith("title:"):
            return key
        hit = self._resolved.get(key)
        if hit is None:
            if self._index is None:
                self._index = TitleIndex(self._title_pairs, self._threshold)
            hit = self._resolved[key] = self._index.match(key[6:]) or key
        if hit == key and key not in self._named:
            written = next((h for h in (*claim.provenance.heading, claim.text) if title_key(h).endswith(key[6:])), None)
            if written is not None:
                self._named[key] = paper_title(written) or paper_title(written, numbered_only=False) or written
        return hit

    def _mismatches(self, text: str, anchors: Sequence[Anchor], claim: Claim) -> list[dict[str, str]]:
        """A card name followed by a different arXiv id (``Lossy Verification（arXiv:2607.26672）``)
        in ``text`` (the claim's or one of its headings): a suspected typo of the card's id; the
        cited id, when it has no card, is then no subject of its own and stands for the card."""
        out = []
        for i, a in enumerate(anchors):
            if a.is_id or not a.key.startswith("arxiv:"):
                continue
            nxt = next((x for x in anchors[i + 1:] if x.key.startswith("arxiv:")), None)
            if nxt and nxt.is_id and nxt.key != a.key and _ID_GAP_RE.match(text[a.end:nxt.start]):
                out.append({"claim": claim.id, "source": f"{claim.provenance.path}:{claim.provenance.line}",
                            "name": text[a.start:a.end], "card_subject": a.key, "cited": nxt.key})
        return out


#: A capitalised word right before a name (``Fast KVzip``): the name may be part of a longer one.
_CAP_WORD_BEFORE_RE = re.compile(r"(?:^|[^\w])[A-Z][A-Za-z0-9]+ $")


def _item_leads(claim: Claim, own: Sequence[Anchor]) -> list[str]:
    """The subjects an item or row is a node of (:func:`kb.extract.qualifiers._leads`); a living
    doc's item that opens with a paper title and links that one paper only is its node (issue 20)."""
    leads = _leads(claim.text, own) if claim.unit != "sentence" else []
    if leads or claim.role != "living-doc" or claim.unit != "list-item" or not claim.arxiv:
        return leads
    linked = {r.key for r in claim.arxiv}
    if len(linked) == 1 and all(r.start < 0 for r in claim.arxiv) \
            and paper_title(claim.text.split(". ", 1)[0], numbered_only=False) is not None:
        return list(linked)
    return leads
