"""What an :class:`kb.facts.attributor.Attributor` knows by name, from its inputs alone: the names
of kb.yaml entities, living-doc headings, cards (title, short name, aliases) and known titles, the
groups they make, and the digest of the code that reads them (what keeps the built names valid)."""

from __future__ import annotations

from collections.abc import Sequence

from kb.core.config import KbConfig
from kb.extract.names import entity_key, entity_names, heading_labels, heading_names, short_name
from kb.perf.digest import code_digest
from kb.read.cards import Card


def known_names(config: KbConfig, cards: Sequence[Card], titles: Sequence[tuple[str, str]],
           headings: Sequence[str]) -> tuple[dict[str, str], dict[str, str], dict[str, str], dict[str, str], set[str]]:
    """What an :class:`Attributor` knows by name, from its inputs alone (``cards`` by path):
    ``(names: name -> key for the matcher, groups: entity key -> card key, titles: key -> a
    title, labels: key -> heading label or kb.yaml canonical name, card names: the names a
    matcher takes as written, :class:`kb.extract.names.NameMatcher` ``as_written``)``."""
    spelt: set[str] = set()
    names = entity_names(config)  # as written: a mixed-case name matches only as written
    lower: dict[str, str] = {}
    for n, k in names.items():
        lower.setdefault(n.lower(), k)

    def add(name: str, key: str) -> None:
        """``name`` as written for ``key``; a name another key has (any case) is passed over."""
        if lower.setdefault(name.lower(), key) == key:
            names.setdefault(name, key)

    for name, key in heading_names(headings):
        add(name, key)
    labels = {**heading_labels(headings), **{entity_key(c): c for c in config.entities}}
    known: dict[str, str] = {}
    group: dict[str, str] = {}
    for card in cards:
        for n in card.names():
            low = n.strip().lower()
            if len(low) < 3 or low.replace(".", "").isdigit():
                continue
            other = lower.get(low)
            if other is not None and other.startswith("entity:"):
                group.setdefault(other, card.key)  # type: ignore[arg-type]
            else:
                add(n.strip(), card.key)  # type: ignore[arg-type]
                spelt.add(n.strip())
    # a paper cited by title only is the same subject (DESIGN.md §3): link texts of the KB
    # and arXiv cache titles, whole titles only (12+ characters), never over a name above
    for key, title in titles:
        low = " ".join(title.strip().strip("*_.。 ").split()).lower()
        if title.strip():
            known.setdefault(key, " ".join(title.split()))
        if len(low) >= 12:
            add(low, key)
        if (short := short_name(title)) is not None and short.lower() not in lower:  # ``GPTQ-Lite: Accurate …``
            add(short, key)
            spelt.add(short)
    return names, group, known, labels, spelt


def names_code() -> str:
    """The digest of the code :func:`_names` reads names with (this module and what it imports:
    :func:`kb.perf.digest.code_digest`): the kept names of :class:`Attributor` are built again
    when any of it changes."""
    return code_digest("kb.facts.known")
