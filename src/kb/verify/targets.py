"""What ``kb verify`` checks: ids from arguments or stdin, or every id a scope of the KB mentions (``--all``).

A :class:`Target` is a valid id (with the version asked) or an invalid token with the places
that write it; :mod:`kb.verify.verifier` gives each its verdict.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from kb.core.errors import OptionError
from kb.core.paths import doc_path
from kb.extract.arxiv_ids import InvalidArxivId, fold_id_text, parse_arxiv_id
from kb.store.cards import load_cards
from kb.store.own_briefs import OwnBriefs
from kb.store.workspace import Kb
from kb.verify.model import MentionInfo


@dataclass(slots=True)
class Target:
    """One thing to verify: a valid id (``version`` as asked) or an invalid token."""

    input: str
    id: str | None
    version: int | None = None
    error: str | None = None
    places: list[MentionInfo] = field(default_factory=list)
    """Where an invalid token was written (``--all``)."""

    @property
    def key(self) -> str:
        """Request and cache key: the id, with ``vN`` when a version was asked (C01)."""
        return (self.id or self.input) + (f"v{self.version}" if self.version else "")


# A name starts where no letter or dash precedes: a start inside a run finds nothing the run's
# first letter does not (searches are leftmost), and one start per run keeps a long run linear.
_TOKEN_RE = re.compile(r"\d{3,4}\.\d+(?:v\d+)?|(?<![A-Za-z-])[A-Za-z-]+(?:\.[A-Za-z-]+)?/\d+(?:v\d+)?",
                       re.ASCII | re.IGNORECASE)


def _token(text: str) -> str | None:
    """The id-shaped token of ``text`` as kb compares it: folded as the parser folds ids
    (:func:`~kb.extract.arxiv_ids.fold_id_text`, full-width forms), in lower case."""
    m = _TOKEN_RE.search(fold_id_text(text))
    return m.group(0).lower() if m else None


def invalid_places(kb: Kb, text: str) -> list[MentionInfo]:
    """Where the KB writes an invalid id-shaped token equal to the one in ``text``
    (from the store's per-file invalid ids, with file line and column; compared folded and in
    any case, as the parser reads ids)."""
    token = _token(text)
    if token is None:
        return []
    out = []
    for f in kb.store.files():
        for line, col, raw, _reason in f.invalid_ids:
            if _token(raw) == token:
                out.append(MentionInfo(path=f.path, line=line, column=col or None, raw=raw, written_at=f.written_at))
    return out


def targets_from_inputs(texts: Iterable[str]) -> Iterator[Target]:
    """Targets from command-line arguments or stdin lines (blank lines skipped), lazily."""
    for text in texts:
        if not text.strip():
            continue
        try:
            ref = parse_arxiv_id(text)
        except InvalidArxivId as exc:
            yield Target(input=text.strip(), id=None, error=exc.reason)
            continue
        yield Target(input=text.strip(), id=ref.id, version=ref.version)


def scope_targets(kb: Kb, *, topic: str | None = None, since: str | None = None,
                  until: str | None = None) -> list[Target]:
    """Every id mentioned in a scope of the KB (``kb verify --all``), invalid tokens first.

    Scope: without ``topic``, every file whose ``written_at`` is in ``[since, until)`` (all
    files without a window). With ``topic``: its living doc ``organized/knowledge/<topic>.md``
    (always), cards whose ``category`` or ``also`` is one of the topic's categories and whose
    ``created`` is in the window, and inbox files in the window (inbox files carry no topic).

    :param since: ISO, inclusive; :param until: ISO, exclusive (both in the KB's time zone).
    :raises OptionError: unknown ``topic`` (the message lists the configured ones).
    """
    cats: set[str] = set()
    if topic is not None:
        if topic not in kb.config.topic_names():
            raise OptionError("{0} {topic!r}: not in kb.yaml topics ({known})", "topic",
                              topic=topic, known=", ".join(kb.config.topic_names()))
        cats = set(kb.config.topic_categories(topic))
    selected = []
    card_of = {c.path: c for c in load_cards(kb.store)} if topic is not None else {}
    for f in kb.store.files():
        in_window = (since is None and until is None) or (
            f.written_at is not None and (since is None or f.written_at >= since) and (until is None or f.written_at < until)
        )
        if topic is None:
            keep = in_window
        elif f.role == "living-doc":
            keep = f.path == doc_path(topic)
        elif f.role == "card":
            card = card_of[f.path]
            keep = in_window and bool(({card.category} | set(card.also)) & cats)
        else:
            keep = in_window and f.role == "inbox"
        if keep:
            selected.append(f)
    paths = {f.path for f in selected}
    own = OwnBriefs(kb)
    ids = sorted({m.arxiv_id for m in kb.store.mentions() if m.path in paths and m not in own})
    invalid: dict[str, Target] = {}
    for f in selected:
        for line, col, raw, reason in f.invalid_ids:
            t = invalid.setdefault(raw, Target(input=raw, id=None, error=reason))
            t.places.append(MentionInfo(path=f.path, line=line, column=col or None, raw=raw, written_at=f.written_at))
    return [invalid[k] for k in sorted(invalid)] + [Target(input=i, id=i) for i in ids]

