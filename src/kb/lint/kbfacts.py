"""What the lint rules need from a KB's store: card ids and the paper-fact numbers of cards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.core.config import KbConfig
from kb.core.paths import KNOWLEDGE_DIR
from kb.core.textio import Problem
from kb.facts.attributor import Attributor
from kb.facts.fact import is_fact
from kb.facts.query import attributor
from kb.facts.revised import latest_of
from kb.read.cards import CARD_NUMBER
from kb.store.cards import duplicate_message, duplicate_numbers, load_cards
from kb.store.db import Store


@dataclass(frozen=True, slots=True)
class PaperFact:
    """One number a paper card states (a ``paper-fact`` claim's quantity).

    :ivar value: the value, or None for a range (then ``low``/``high``).
    :ivar path: the card file; :ivar line: its line.
    """

    unit: str | None
    metric: str | None
    value: float | None
    low: float | None
    high: float | None
    path: str
    line: int


@dataclass(slots=True)
class KbFacts:
    """Facts of one KB, loaded once per ``kb lint`` run.

    :ivar root: the KB root folder.
    :ivar card_ids: canonical arXiv id (no version) -> KB-relative card path.
    :ivar facts: subject key (``arxiv:…``, ``entity:…``) -> numbers paper cards state about it;
        a card's numbers are filed under its own ``arxiv`` key and under the claim's subjects.
    """

    root: Path
    card_ids: dict[str, str] = field(default_factory=dict)
    facts: dict[str, list[PaperFact]] = field(default_factory=dict)
    cards: list[Any] = field(default_factory=list)
    """Every card with a valid id (:func:`kb.store.cards.load_cards`), for the one attribution."""
    card_problems: list[tuple[str, int, str]] = field(default_factory=list)
    """``(card path, line, message)``: a number two cards share (naming the other), a ``card:``
    that is no card number (as ``kb ingest`` warned: code ``card-number``) — KB119."""
    unread: list[tuple[str, int, int | None, str]] = field(default_factory=list)
    """``(path, line, column, message)`` of every file but a living doc whose front matter kb
    ignored (:meth:`kb.store.db.Store.unread_front_matter`) — KB120."""
    latest: dict[str, Any] = field(default_factory=dict)
    """Canonical id -> :class:`kb.facts.revised.Latest` (arXiv's cached latest version, else a
    card's), for every id the KB cites with a version (KB118)."""
    headings: list[str] = field(default_factory=list)
    """The heading texts of the KB's living docs (as the diff's Attributor knows them)."""
    _base: Attributor | None = None

    def attributor_for(self, config: KbConfig, doc_headings: Sequence[str]) -> Attributor:
        """An :class:`kb.facts.attributor.Attributor` for one linted doc, knowing what the diff's
        does (kb.yaml entities, every card, the living docs' headings): a fork of one built once
        per run (:meth:`~kb.facts.attributor.Attributor.fork`) when the doc's headings are the
        KB's (a doc in the store), else one built for it (docs × cards before: 61 of 80 s of
        ``kb lint`` on 1,600 topics)."""
        known = set(self.headings)
        if all(h in known for h in doc_headings):
            if self._base is None:
                self._base = attributor(None, config=config, cards=self.cards, headings=self.headings)
            return self._base.fork()
        return attributor(None, config=config, cards=self.cards, headings=[*self.headings, *doc_headings])


def load_facts(root: Path, store: Store) -> KbFacts:
    """Read card ids and card paper-facts from an up-to-date store.

    :param root: the KB root.
    :param store: the KB's store (``kb.store.workspace.open_kb`` brings it up to date).
    :returns: :class:`KbFacts`; cards whose ``arxiv`` is missing or invalid are left out.
    """
    out = KbFacts(root)
    card_key: dict[str, str] = {}
    out.cards = [c for c in load_cards(store) if c.key]
    out.headings = store.heading_texts_in(KNOWLEDGE_DIR, "living-doc")
    out.card_problems = [(p.path, p.line, p.message) for f in store.files(role="card") for p in map(_problem, f.problems)
                         if p.code == CARD_NUMBER]
    out.unread = [(p.path, p.line, p.column, p.message) for p in store.unread_front_matter()
                  if not p.path.startswith(KNOWLEDGE_DIR + "/") or p.path.count("/") > KNOWLEDGE_DIR.count("/") + 1]
    out.card_problems += [(card.path, _card_line(root, card.path), duplicate_message(card, first))
                          for card, first in duplicate_numbers(load_cards(store))]
    for card in load_cards(store):
        if card.key and card.arxiv_id:
            out.card_ids.setdefault(card.arxiv_id, card.path)
            card_key[card.path] = card.key
    card_versions: dict[str, list[tuple[int, str]]] = {}
    for card in out.cards:
        if card.arxiv_id and card.version:
            card_versions.setdefault(card.arxiv_id, []).append((card.version, card.path))
    pinned = {m.arxiv_id for m in store.mentions() if m.version} | set(card_versions)
    for arxiv_id in sorted(pinned):
        latest = latest_of(store, arxiv_id, card_versions.get(arxiv_id, ()))
        if latest is not None:
            out.latest[arxiv_id] = latest
    for c in store.claims(kind="paper-fact", role="card"):
        keys = set(c.subjects)
        own = card_key.get(c.provenance.path)
        if own:
            keys.add(own)
        for q in c.quantities:
            if not is_fact(c, q):
                continue  # a plan, a disputed quote, a count, a set-up: no fact of the paper (the diff's rule)
            fact = PaperFact(q.unit, q.metric, q.value, q.low, q.high, c.provenance.path, c.provenance.line)
            for k in keys | ({q.subject} if q.subject else set()):
                out.facts.setdefault(k, []).append(fact)
    return out


def _problem(stored: dict[str, Any]) -> Problem:
    """A stored problem of a file row (its keyword fields) as a :class:`Problem`."""
    return Problem(**stored)


def _card_line(root: Path, path: str) -> int:
    """The line of a card's ``card:`` key (its number), else 1: where KB119 places a finding."""
    try:
        lines = (root / path).read_text(encoding="utf-8", errors="replace").split("\n", 200)[:200]
    except OSError:
        return 1
    return next((n for n, text in enumerate(lines, 1) if text.startswith("card:")), 1)
