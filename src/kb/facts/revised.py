"""Revised and withdrawn papers: the one place that says a citation is pinned to an older version.

A claim that cites ``arXiv:2607.26627v1`` keeps the version (:class:`kb.core.claims.ArxivRef`); a
card names the version it was written from (front-matter ``arxiv: "2607.26627v2"`` or
``arxiv_version: 2``, read by :func:`kb.read.cards.card_from_row`). The latest version the KB knows
of is arXiv's, as ``kb verify`` cached it for the bare id (the Atom entry's ``<id>`` ends in
``vN``, ``<updated>`` is that version's date), else the highest version a card names. A
citation of a version below that is *pinned to an older version*: "paper revised (v1 → v3,
2026-08-20): re-check". ``kb verify``, the brief's §6 and lint KB118 all ask here.

A paper is withdrawn when the cached latest record's ``<arxiv:comment>`` says so
(:attr:`kb.core.records.SourceRecord.withdrawn`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kb.core.records import SourceRecord
from kb.store.db import Store


@dataclass(frozen=True, slots=True)
class Latest:
    """The latest version of one paper the KB knows of.

    :ivar id: canonical id without version (``2607.26627``).
    :ivar version: the latest version number (3 for ``v3``).
    :ivar date: ``YYYY-MM-DD`` (UTC, as arXiv shows it) of that version's ``updated``; None
        when the version is known only from a card.
    :ivar source: ``arxiv`` (the cache) or the path of the card that names the version.
    :ivar withdrawn: arXiv's comment on the latest version says it is withdrawn.
    :ivar comment: that comment, else None.
    :ivar fetched_at: when the cached record was fetched (ISO), None for a card.
    """

    id: str
    version: int
    date: str | None
    source: str
    withdrawn: bool = False
    comment: str | None = None
    fetched_at: str | None = None


def from_record(rec: SourceRecord, fetched_at: str | None = None) -> Latest | None:
    """The :class:`Latest` of a record arXiv returned for a bare id (its latest version);
    None when the record states no version."""
    if rec.version is None:
        return None
    return Latest(rec.id, rec.version, rec.updated.date().isoformat(), "arxiv", rec.withdrawn, rec.comment, fetched_at)


def latest_of(store: Store, arxiv_id: str, card_versions: Iterable[tuple[int, str]] = ()) -> Latest | None:
    """The latest version of ``arxiv_id`` the KB knows of: the cached record of the bare id
    (what ``kb verify`` stored), or a card's higher version; None when neither states one.

    :param card_versions: ``(version, card path)`` of the cards naming the id with a version.
    """
    best: Latest | None = None
    hit = store.cache_get(arxiv_id)
    if hit is not None and hit[1] == "found" and hit[2]:
        best = from_record(SourceRecord.model_validate(hit[2]), hit[0])
    for version, path in card_versions:
        if best is None or version > best.version:
            best = Latest(arxiv_id, version, None, path)
    return best


def is_older(cited: int | None, latest: Latest | None) -> bool:
    """True when a citation of version ``cited`` is pinned to a version before ``latest``;
    an unversioned citation (the paper as a whole) never is."""
    return cited is not None and latest is not None and cited < latest.version


def revised_note(cited: int, latest: Latest, lang: str = "en") -> str:
    """``paper revised (v1 → v3, 2026-08-20): re-check`` (zh: ``论文已修订（v1 → v3，2026-08-20）：请重新核对``);
    without a date (a card's version): ``paper revised (v1 → v3): re-check``; when the latest
    version is a withdrawal: ``paper withdrawn (v1 → v2 withdrawn, 2026-08-18): re-check``."""
    if lang == "zh":
        when = f"，{latest.date}" if latest.date else ""
        if latest.withdrawn:
            return f"论文已撤回（v{cited} → v{latest.version} 撤回{when}）：请重新核对"
        return f"论文已修订（v{cited} → v{latest.version}{when}）：请重新核对"
    when = f", {latest.date}" if latest.date else ""
    if latest.withdrawn:
        return f"paper withdrawn (v{cited} → v{latest.version} withdrawn{when}): re-check"
    return f"paper revised (v{cited} → v{latest.version}{when}): re-check"


__all__ = ["Latest", "from_record", "is_older", "latest_of", "revised_note"]
