"""(moved from kb.read.cards)"""

from __future__ import annotations

import json
import sqlite3
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from kb.extract.titles import normalize_title
from kb.perf.digest import code_digest
from kb.read.cards import _CARD_FIELDS, Card, card_from_row
from kb.store.db import Store
from kb.store.filerow import decoded_json
from kb.store.memos import decoded

_CACHE: "weakref.WeakKeyDictionary[Store, tuple[tuple[int, int], list[Card], list[str]]]" = weakref.WeakKeyDictionary()


def load_cards(store: Store) -> list[Card]:
    """Every card of the store, by path (also those whose ``arxiv`` is invalid: ``key`` None).

    Reads only the ``files`` rows of role ``card`` (front matter, not the card bodies), and
    caches the list per store until the store changes (this connection's ``total_changes``
    or SQLite's ``data_version`` for other writers), so every caller of one run shares one read;
    between runs the list is kept in the store (:func:`_kept_cards`).
    Cards are read at diff time: the parser never depends on them, so a new card re-parses
    only itself (docs/kb-format.md).
    """
    return _loaded(store)[0]


def card_titles(store: Store) -> list[str]:
    """:func:`normalize_title` of each card's title, in the order of :func:`load_cards`
    (``""`` for a card without one); kept with the cards, so a run normalises no title of an
    unchanged card (``kb verify``: the titles a mention's sentence may name)."""
    return _loaded(store)[1]


def _loaded(store: Store) -> tuple[list[Card], list[str]]:
    stamp = (store.db.total_changes, store.db.execute("PRAGMA data_version").fetchone()[0])
    hit = _CACHE.get(store)
    if hit is not None and hit[0] == stamp:
        return hit[1], hit[2]
    cards, titles = _kept_cards(store)
    _CACHE[store] = (store.db.total_changes, store.db.execute("PRAGMA data_version").fetchone()[0]), cards, titles
    return cards, titles


def _kept_cards(store: Store) -> tuple[list[Card], list[str]]:
    """The cards of :func:`load_cards` and their :func:`card_titles`, kept in the store between
    runs (``meta`` key ``cards``): built from the ``files`` rows by :func:`card_from_row` when the
    card rows or kb's card code changed since (:func:`_cards_stamp`), else read back as they were
    built (one JSON value: ~3× cheaper than reading 2,000 front matters). A store that cannot be
    written keeps nothing."""
    db = store.db
    stamp = _cards_stamp(store)
    row = db.execute("SELECT value FROM meta WHERE key='cards'").fetchone()
    kept = decoded(row[0]) if row is not None else None
    if isinstance(kept, list) and len(kept) == 3 and kept[0] == stamp:  # (another shape: another kb's)
        try:
            return [_kept_card(r) for r in kept[1]], list(kept[2])
        except (TypeError, ValueError, IndexError, KeyError):  # not what kb wrote: built again
            pass
    cards = [card_from_row(path, decoded_json(store.path, path, "front", front), written_at)
             for path, front, written_at in db.execute(
        "SELECT path, front, written_at FROM files WHERE role='card' ORDER BY path")]
    titles = [normalize_title(c.title) if c.title else "" for c in cards]
    if not db.in_transaction:
        try:
            value = json.dumps([stamp, [[getattr(c, f) for f in _CARD_FIELDS] for c in cards], titles],
                               ensure_ascii=False)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('cards', ?)", (value,))
        except sqlite3.OperationalError:  # read-only or busy: built again next time
            pass
    return cards, titles


_TUPLE_FIELDS = tuple(i for i, f in enumerate(_CARD_FIELDS) if str(Card.__dataclass_fields__[f].type).startswith("tuple"))


def _kept_card(row: list[Any]) -> Card:
    """The :class:`Card` of one row of the kept cards (its fields in :data:`_CARD_FIELDS` order,
    as :func:`_kept_cards` wrote it): the tuple fields made tuples again, no other field looked
    at (a night of the 12k KB reads 2,025 cards: a test of every field took ~half of it)."""
    for i in _TUPLE_FIELDS:
        row[i] = tuple(row[i])
    return Card(*row)


def _cards_stamp(store: Store) -> list[Any]:
    """What the kept cards depend on: kb's card code (:func:`_card_code`), the parser fingerprint
    (front matter as stored), and the write generation of the card rows (a card added, removed
    or changed raises it: :meth:`Store.cards_generation`; a count-and-highest-rowid stamp could
    come back after a card was removed, another changed and the first put back)."""
    return [_card_code(), store.meta("fingerprint"), store.cards_generation()]


def _card_code() -> str:
    """The digest of the code that builds a :class:`Card` (:mod:`kb.read.cards` and what it
    imports: :func:`kb.perf.digest.code_digest`)."""
    return code_digest("kb.read.cards")


@dataclass(slots=True)
class CardIndex:
    """Cards by the id in their front matter and by the id in their file name."""

    by_front: dict[str, list[Card]] = field(default_factory=dict)
    by_name: dict[str, list[Card]] = field(default_factory=dict)
    entries: list[Card] = field(default_factory=list)

    @classmethod
    def of(cls, cards: Iterable[Card]) -> CardIndex:
        """Index cards (:func:`load_cards`), by path."""
        index = cls()
        for card in sorted(cards, key=lambda c: c.path):
            index.entries.append(card)
            if card.arxiv_id:
                index.by_front.setdefault(card.arxiv_id, []).append(card)
            if card.name_id:
                index.by_name.setdefault(card.name_id, []).append(card)
        return index

    @classmethod
    def from_store(cls, store: Store) -> CardIndex:
        """Index every card of ``store``."""
        return cls.of(load_cards(store))

    def max_number(self) -> int:
        """Highest card number in use (front matter or file name), 0 when there is none."""
        numbers = [n for e in self.entries for n in (e.number, e.name_number) if n is not None]
        return max(numbers, default=0)


def duplicate_numbers(cards: Iterable[Card]) -> list[tuple[Card, Card]]:
    """``(card, first)`` for each card numbered as an earlier one (by path) is: two files
    numbered 681 (a hand copy, a race before numbering took the writer lock). A card's number is
    :attr:`Card.number` (its ``card:``, else its file name's). The one finding of both
    ``kb ingest`` (a warning when a card changed) and ``kb lint`` (KB119, an error)."""
    first: dict[int, Card] = {}
    out: list[tuple[Card, Card]] = []
    for card in sorted(cards, key=lambda c: c.path):
        if card.number is None:
            continue
        if card.number in first:
            out.append((card, first[card.number]))
        else:
            first[card.number] = card
    return out


def duplicate_message(card: Card, first: Card) -> str:
    """The message of a card numbered as ``first`` is (:func:`duplicate_numbers`), naming both."""
    return (f"card number {card.number} is also that of {first.path}; each card needs its own number "
            "(renumber one: its `card:` and file name)")


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON string syntax is valid YAML 1.2)."""
    return json.dumps(text, ensure_ascii=False)
