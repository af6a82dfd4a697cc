"""``kb verify``: arXiv ids checked against arXiv (cache, then API) and against the KB.

Issue 4 and docs/verify.md give the statuses, checks and JSON; CASES.md C01, C03, C05 and C07
the cases the rules below are built from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from kb.core.errors import ExitCode, UsageError
from kb.core.records import SourceRecord
from kb.extract.arxiv_ids import InvalidArxivId, parse_arxiv_id
from kb.extract.titles import normalize_title, title_similarity
from kb.facts.dependents import Dependent, OwnBriefs, dependents
from kb.read.cards import Card
from kb.store.cards import CardIndex, card_titles, load_cards
from kb.store.db import MentionRow
from kb.store.workspace import Kb
from kb.verify.arxiv import MAX_IDS, Answer, Lookup

Status = Literal["ok", "mismatch", "not-found", "invalid", "withdrawn", "unverified"]
STATUS_ORDER: tuple[Status, ...] = ("invalid", "not-found", "mismatch", "withdrawn", "unverified", "ok")
"""Worst first: the order of the summary table, and which status wins when several apply."""
Level = Literal["error", "warning", "info"]


class Check(BaseModel):
    """One finding about one id. ``error`` decides the status, ``warning`` fails only ``--strict``."""

    level: Level
    code: str
    """Stable short name: ``title-mismatch``, ``card-name``, ``latest-withdrawn``, ``unavailable`` …"""
    message: str
    status: Status | None = None
    """The status an ``error`` implies (``mismatch``, ``withdrawn`` …)."""


class ArxivInfo(BaseModel):
    """arXiv's metadata as used for the checks."""

    title: str
    authors: list[str]
    published: str
    updated: str
    version: int | None
    """Version of the entry arXiv returned."""
    latest_version: int | None
    """arXiv's latest version; None when a specific version was asked (the API answers for it only)."""
    primary_category: str
    comment: str | None
    journal_ref: str | None
    withdrawn: bool
    fetched_at: str
    cached: bool
    """True when the answer came from the store's cache, not from this run's request."""


class CardInfo(BaseModel):
    """The paper card whose front-matter ``arxiv`` names the id."""

    path: str
    card: int | None
    title: str | None
    similarity: float | None
    """Normalised title similarity card vs arXiv, 0..1 (rapidfuzz ratio / 100); None if unknown."""
    category: str | None


class MentionInfo(BaseModel):
    """One place in the KB that names the id."""

    path: str
    line: int
    column: int | None = None
    kind: str | None = None
    """Kind of the claim the mention is in; None in front matter or headings."""
    version: int | None = None
    raw: str = ""
    written_at: str | None = None


class Pin(BaseModel):
    """A place of the KB pinned to an older version of a revised paper (:mod:`kb.facts.revised`)."""

    path: str
    line: int
    version: int
    """The version it cites (a claim) or was written from (the card)."""
    kind: str | None = None
    """Kind of the claim; None for the card, front matter and headings."""
    card: bool = False
    """True for the paper card written from that version."""
    message: str
    """``paper revised (v1 → v3, 2026-08-20): re-check``."""


class Revised(BaseModel):
    """The paper has a later version than some places of the KB cite."""

    latest_version: int
    latest_date: str | None
    """``YYYY-MM-DD`` of the latest version's ``updated`` (UTC)."""
    pinned: list[Pin]
    """Every place pinned to an older version, the card first, then by path and line."""


class VerifyResult(BaseModel):
    """The verdict on one id: one object of ``kb verify --format json``."""

    input: str
    id: str | None
    version: int | None
    status: Status
    reasons: list[str]
    """Messages of the errors and warnings, most severe first."""
    checks: list[Check]
    arxiv: ArxivInfo | None
    card: CardInfo | None
    mentions: list[MentionInfo]
    revised: Revised | None = None
    """Set when arXiv (or its cached answer for the bare id) has a later version than the card
    or some claims cite; None otherwise."""
    dependents: list[Dependent] = []
    """For a withdrawn paper: every claim and line of the KB that depends on it, by path and line."""

    def warned(self) -> bool:
        """Any warning (what ``--strict`` turns into a failure)."""
        return any(c.level == "warning" for c in self.checks)

    def unavailable(self) -> bool:
        """arXiv was needed and neither it nor the cache could answer."""
        return any(c.code == "unavailable" for c in self.checks)


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
_TOKEN_RE = re.compile(r"\d{3,4}\.\d+(?:v\d+)?|(?<![A-Za-z-])[A-Za-z-]+(?:\.[A-Za-z-]+)?/\d+(?:v\d+)?")


def invalid_places(kb: Kb, text: str) -> list[MentionInfo]:
    """Where the KB writes an invalid id-shaped token equal to the one in ``text``
    (from the store's per-file invalid ids, with file line and column)."""
    m = _TOKEN_RE.search(text)
    if m is None:
        return []
    token = m.group(0)
    out = []
    for f in kb.store.files():
        for line, col, raw, _reason in f.invalid_ids:
            found = _TOKEN_RE.search(raw)
            if found and found.group(0) == token:
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
    :raises UsageError: unknown topic (the message lists the configured ones).
    """
    cats: set[str] = set()
    if topic is not None:
        if topic not in kb.config.topic_names():
            raise UsageError(f"--topic {topic!r}: not in kb.yaml topics ({', '.join(kb.config.topic_names())})")
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
            keep = f.path == f"organized/knowledge/{topic}.md"
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


def _chunks(targets: Iterable[Target], size: int) -> Iterator[list[Target]]:
    """Unique targets (by key) in chunks holding ``size`` valid ids (invalid ones ride along)."""
    chunk: list[Target] = []
    valid = 0
    seen: set[str] = set()
    for t in targets:
        if t.key in seen:
            continue
        seen.add(t.key)
        chunk.append(t)
        valid += t.id is not None
        if valid >= size:
            yield chunk
            chunk, valid = [], 0
    if chunk:
        yield chunk


class Verifier:
    """Verifies targets in batches of :data:`MAX_IDS`, streaming results (bounded memory).

    :param kb: the open KB (store up to date).
    :param lookup: how arXiv is asked; default :class:`Lookup` from the KB's config.
    """

    def __init__(self, kb: Kb, *, offline: bool = False, refresh: bool = False,
                 lookup: Lookup | None = None) -> None:
        self.kb = kb
        self.lookup = lookup or Lookup(kb.store, api_url=kb.config.arxiv.api_url, offline=offline, refresh=refresh)
        self.cards = CardIndex.from_store(kb.store)
        self.threshold = kb.config.arxiv.title_threshold
        self.tz = kb.config.tzinfo
        self._titles: list[tuple[str, Card]] | None = None
        """Normalised card titles of 12+ characters, made on first use (:meth:`_card_titles`)."""
        self._texts: dict[tuple[str, str], str | None] = {}
        """``(path, claim id)`` -> the claim's text (:meth:`_claim_text`)."""
        self._own = OwnBriefs(kb)

    def run(self, targets: Iterable[Target], progress: Callable[[int, int | None], None] | None = None,
            total: int | None = None) -> Iterator[VerifyResult]:
        """Verify ``targets`` (deduplicated by key), yielding one result each, in input order."""
        done = 0
        for chunk in _chunks(targets, MAX_IDS):
            answers = self.lookup.answers([t.key for t in chunk if t.id])
            for t in chunk:
                yield self.evaluate(t, answers.get(t.key))
            done += len(chunk)
            if progress:
                progress(done, total)

    # -- one id ----------------------------------------------------------------------------------

    def evaluate(self, t: Target, answer: Answer | None) -> VerifyResult:
        """The verdict on one target given what the cache or arXiv answered."""
        if t.id is None:
            if not t.places:
                t.places.extend(invalid_places(self.kb, t.input))
            where = "".join(f" ({p.path}:{p.line})" for p in t.places[:3])
            check = Check(level="error", code="invalid", status="invalid",
                          message=f"not a valid arXiv id: {t.error}{where}; not sent to arXiv")
            return _result(t, [check], None, None, t.places)
        assert answer is not None
        rows = [m for m in self.kb.store.mentions(t.id) if m not in self._own]
        mentions = [MentionInfo(path=m.path, line=m.line, column=m.column, kind=m.kind, version=m.version,
                                raw=m.raw, written_at=m.written_at) for m in rows]
        checks: list[Check] = []
        rec = answer.record
        if answer.state == "unverified":
            checks.append(Check(level="error", code="unavailable", status="unverified", message=answer.note or "unverified"))
        elif answer.note:
            checks.append(Check(level="warning", code="stale-cache", message=answer.note))
        if answer.state == "not-found":
            checks.append(Check(level="error", code="not-found", status="not-found",
                                message=f"arXiv has no paper {t.key}" + (f" (cached answer of {answer.fetched_at})" if answer.cached else "")))
        card_entry, card, card_checks = self._card(t, rec)
        checks += card_checks
        if rec is not None:
            checks += self._paper_checks(t, rec, card_entry, rows)
        checks += self._other_titles(t, rows)
        revised = self._revised(t, rec, answer, card_entry, rows)
        if revised is not None:
            checks += [Check(level="warning", code="paper-revised", message=f"{p.message}: {p.path}:{p.line}"
                             + (" (card written from it)" if p.card else "")) for p in revised.pinned]
        dependents = self._dependents(t.id) if rec is not None and rec.withdrawn else []
        info = None
        if rec is not None:
            info = ArxivInfo(
                title=rec.title, authors=rec.authors, published=rec.published.isoformat(),
                updated=rec.updated.isoformat(), version=rec.version,
                latest_version=rec.version if t.version is None else None,
                primary_category=rec.primary_category, comment=rec.comment, journal_ref=rec.journal_ref,
                withdrawn=rec.withdrawn, fetched_at=answer.fetched_at or "", cached=answer.cached,
            )
        result = _result(t, checks, info, card, mentions)
        result.revised = revised
        result.dependents = dependents
        return result

    def _revised(self, t: Target, rec: SourceRecord | None, answer: Answer, card: Card | None,
                 rows: list[MentionRow]) -> Revised | None:
        """Places pinned to a version before arXiv's latest (:mod:`kb.facts.revised`): the card written
        from one, and every mention citing one. The latest is the answer for a bare id, else
        the cached answer for the bare id."""
        from kb.facts.revised import from_record, is_older, latest_of, revised_note

        assert t.id is not None
        latest = (from_record(rec, answer.fetched_at) if rec is not None and t.version is None
                  else latest_of(self.kb.store, t.id))
        if latest is None or latest.withdrawn:
            return None  # a withdrawn latest version: the withdrawn checks and the dependents say it
        pins: list[Pin] = []
        if card is not None and is_older(card.version, latest):
            pins.append(Pin(path=card.path, line=self._front_line(card.path, rows), version=card.version or 0,
                            card=True, message=revised_note(card.version or 0, latest)))
        for m in rows:
            if card is not None and m.path == card.path and m.claim_id is None:
                continue  # the card's own front matter: the card pin above
            if is_older(m.version, latest):
                pins.append(Pin(path=m.path, line=m.line, version=m.version or 0, kind=m.kind,
                                message=revised_note(m.version or 0, latest)))
        if not pins:
            return None
        return Revised(latest_version=latest.version, latest_date=latest.date, pinned=pins)

    @staticmethod
    def _front_line(path: str, rows: list[MentionRow]) -> int:
        """The line of the card's front-matter id (its first mention without a claim), else 1."""
        return next((m.line for m in rows if m.path == path and m.claim_id is None), 1)

    def _dependents(self, arxiv_id: str | None) -> list[Dependent]:
        return dependents(self.kb, arxiv_id, self._own) if arxiv_id else []

    def _card(self, t: Target, rec: SourceRecord | None) -> tuple[Card | None, CardInfo | None, list[Check]]:
        checks: list[Check] = []
        entries = self.cards.by_front.get(t.id or "", [])
        if not entries:
            for e in self.cards.by_name.get(t.id or "", []):
                checks.append(Check(level="error", code="card-arxiv", status="mismatch",
                                    message=f"{e.path}: file name names {t.id} but front-matter arxiv is {e.arxiv_raw!r}"))
            if not checks:
                checks.append(Check(level="info", code="no-card", message=f"no paper card in organized/paper_cards/ names {t.id}"))
            return None, None, checks
        e = entries[0]
        if len(entries) > 1:
            checks.append(Check(level="warning", code="duplicate-card",
                                message="several cards name this id: " + ", ".join(x.path for x in entries)))
        if e.name_id is None:
            checks.append(Check(level="warning", code="card-name",
                                message=f"{e.path}: file name is not <card>-<YYMM>-<NNNNN>.md"))
        elif e.name_id != t.id:
            checks.append(Check(level="error", code="card-name", status="mismatch",
                                message=f"{e.path}: file name says {e.name_id} but front-matter arxiv is {t.id}"))
        if e.number is not None and e.name_number is not None and e.number != e.name_number:
            checks.append(Check(level="warning", code="card-number",
                                message=f"{e.path}: front-matter card {e.number} but file name number {e.name_number}"))
        similarity = None
        if rec is not None and e.title:
            similarity = title_similarity(e.title, rec.title)
            if similarity < self.threshold:
                checks.append(Check(level="error", code="title-mismatch", status="mismatch",
                                    message=f"ID/TITLE MISMATCH: card {e.title!r} vs arXiv {rec.title!r} "
                                            f"(similarity {similarity:.2f} < {self.threshold:g})"))
        elif not e.title:
            checks.append(Check(level="info", code="card-title", message=f"{e.path}: no title in front matter"))
        if rec is not None and e.category and rec.primary_category and e.category != rec.primary_category:
            checks.append(Check(level="info", code="category",
                                message=f"card category {e.category}; arXiv primary category {rec.primary_category}"))
        card = CardInfo(path=e.path, card=e.number, title=e.title or None, similarity=similarity, category=e.category)
        return e, card, checks

    def _paper_checks(self, t: Target, rec: SourceRecord, card: Card | None,
                      rows: list[MentionRow]) -> list[Check]:
        checks: list[Check] = []
        latest = rec.version if t.version is None else None
        if latest is not None:
            newer = [m for m in rows if m.version and m.version > latest]
            for m in newer[:3]:
                checks.append(Check(level="error", code="version-newer", status="mismatch",
                                    message=f"{m.path}:{m.line} cites v{m.version} but arXiv's latest is v{latest}"))
        if rec.withdrawn:
            cited = self._cited_version(card, rows)
            if latest is not None and cited is not None and cited < latest:
                checks.append(Check(level="warning", code="latest-withdrawn",
                                    message=f"cited v{cited}; latest v{latest} withdrawn ({rec.comment})"))
            else:
                which = f"v{rec.version}" if rec.version else "the paper"
                checks.append(Check(level="error", code="withdrawn", status="withdrawn",
                                    message=f"{which} withdrawn: {rec.comment}"))
        dated = [m for m in rows if m.written_at]
        if dated:
            first = min(dated, key=lambda m: m.written_at or "")
            first_day = datetime.fromisoformat(first.written_at or "").astimezone(self.tz).date()
            published_day = rec.published.astimezone(self.tz).date()
            if first_day < published_day:
                checks.append(Check(level="error", code="before-publication", status="mismatch",
                                    message=f"first mentioned {first_day} ({first.path}:{first.line}), before arXiv's "
                                            f"first publication {published_day}: wrong id?"))
        return checks

    @staticmethod
    def _cited_version(card: Card | None, rows: list[MentionRow]) -> int | None:
        """The version the KB cites: the card's, else the highest when every mention names one."""
        if card is not None and card.version:
            return card.version
        if rows and all(m.version for m in rows):
            return max(m.version or 0 for m in rows)
        return None

    def _other_titles(self, t: Target, rows: list[MentionRow]) -> list[Check]:
        """A mention whose sentence names another card's title (and not that card's id)."""
        checks: list[Check] = []
        for m in rows:
            if not m.claim_id:
                continue
            text = self._claim_text(m.path, m.claim_id)
            if not text:
                continue
            norm = normalize_title(text)
            for title, e in self._card_titles():
                if e.arxiv_id != t.id and title in norm and (e.arxiv_id or "") not in text:
                    checks.append(Check(level="error", code="other-title", status="mismatch",
                                        message=f"{m.path}:{m.line} names {e.title!r}, the title of "
                                                f"{e.path} ({e.arxiv_id}), next to {t.id}: mistyped id?"))
        return checks

    def _card_titles(self) -> list[tuple[str, Card]]:
        """``(normalised title, card)`` of every card with an id and a title of 12+ normalised
        characters, the titles a mention's sentence is searched for (:meth:`_other_titles`);
        normalised once per run, and only when a mention is in a claim."""
        if self._titles is None:
            self._titles = [(n, e) for e, n in zip(load_cards(self.kb.store), card_titles(self.kb.store))
                            if e.title and e.arxiv_id and len(n) >= 12]
        return self._titles

    def _claim_text(self, path: str, claim_id: str) -> str | None:
        """The text of the claim a mention is in, else None; only that claim is read (the
        most-mentioned id of the 12k KB: 4 claims instead of the 474 of their files)."""
        key = (path, claim_id)
        if key not in self._texts:
            if len(self._texts) > 4096:
                self._texts.clear()
            claim = self.kb.store.claim(path, claim_id)
            self._texts[key] = claim.text if claim is not None else None
        return self._texts[key]


def _result(t: Target, checks: list[Check], info: ArxivInfo | None, card: CardInfo | None,
            mentions: list[MentionInfo]) -> VerifyResult:
    implied = [c.status for c in checks if c.level == "error" and c.status]
    status = min(implied, key=STATUS_ORDER.index) if implied else "ok"
    rank = {"error": 0, "warning": 1, "info": 2}
    ordered = sorted(checks, key=lambda c: (rank[c.level], STATUS_ORDER.index(c.status) if c.status else 9))
    reasons = [c.message for c in ordered if c.level != "info"]
    return VerifyResult(input=t.input, id=t.id, version=t.version, status=status, reasons=reasons,
                        checks=ordered, arxiv=info, card=card, mentions=mentions)


@dataclass(slots=True)
class Tally:
    """Counts over a run, for the exit code and the summary line."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUS_ORDER, 0))
    warned: int = 0
    unavailable: int = 0

    def add(self, r: VerifyResult) -> None:
        self.counts[r.status] += 1
        self.warned += r.status == "ok" and r.warned()
        self.unavailable += r.unavailable()

    def exit_code(self, strict: bool = False) -> ExitCode:
        """1 when any id has a definite finding (``invalid``, ``not-found``, ``mismatch``,
        ``withdrawn``; with ``strict``, a warning too): a problem was found and must be fixed
        whatever the rest says; else 3 when any id could not be checked for want of arXiv
        and cache (CASES.md C05); else 0."""
        definite = sum(n for s, n in self.counts.items() if s not in ("ok", "unverified"))
        if definite or (strict and self.warned):
            return ExitCode.FINDINGS
        if self.unavailable or self.counts.get("unverified"):
            return ExitCode.UNAVAILABLE
        return ExitCode.OK

    def summary(self) -> str:
        """``3 ids: 1 ok, 1 mismatch, 1 not-found (1 with warnings)``."""
        total = sum(self.counts.values())
        parts = [f"{n} {s}" for s, n in self.counts.items() if n]
        s = f"{total} ids: " + ", ".join(parts) if total else "0 ids"
        return s + (f" ({self.warned} ok with warnings)" if self.warned else "")


def sort_worst_first(results: list[VerifyResult]) -> list[VerifyResult]:
    """Results by status (:data:`STATUS_ORDER`), warnings before clean ``ok``, then id/input."""
    return sorted(results, key=lambda r: (STATUS_ORDER.index(r.status), not r.warned(), r.id or "", r.input))


__all__ = ["Check", "Lookup", "Tally", "Target", "VerifyResult", "Verifier", "scope_targets",
           "sort_worst_first", "targets_from_inputs", "title_similarity"]
