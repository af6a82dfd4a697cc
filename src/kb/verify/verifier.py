"""``kb verify``: arXiv ids checked against arXiv (cache, then API) and against the KB.

Issue 4 and docs/verify.md give the statuses, checks and JSON (:mod:`kb.verify.model`);
CASES.md C01, C03, C05 and C07 the cases the rules below are built from. The targets come
from :mod:`kb.verify.targets`, arXiv's answers from :class:`kb.verify.lookup.Lookup`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import datetime

from kb.core.claims import is_derived
from kb.core.paths import CARDS_DIR
from kb.core.records import Dependent, SourceRecord
from kb.extract.titles import normalize_title, title_similarity
from kb.facts.attributor import Attributor
from kb.facts.query import about, attributor
from kb.facts.revised import from_record, is_older, latest_of, revised_note
from kb.read.cards import Card
from kb.store.cards import CardIndex, card_titles, load_cards
from kb.store.db import MentionRow
from kb.store.own_briefs import OwnBriefs
from kb.store.workspace import Kb
from kb.verify.arxiv import MAX_IDS
from kb.verify.lookup import Answer, Lookup
from kb.verify.model import (
    STATUS_ORDER,
    ArxivInfo,
    CardInfo,
    Check,
    MentionInfo,
    Pin,
    Revised,
    VerifyResult,
)
from kb.verify.targets import Target, invalid_places


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
                 lookup: Lookup | None = None, named: bool = False) -> None:
        self.kb = kb
        self.named = named
        """Also list the claims that name each paper without its id (:meth:`_named`)."""
        self._attributor: Attributor | None = None
        self.lookup = lookup or Lookup.for_kb(kb, offline=offline, refresh=refresh)
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
        if self.named:
            result.named = self._named(t.id, rows, card_entry.path if card_entry is not None else None)
        result.revised = revised
        result.dependents = dependents
        return result

    def _revised(self, t: Target, rec: SourceRecord | None, answer: Answer, card: Card | None,
                 rows: list[MentionRow]) -> Revised | None:
        """Places pinned to a version before arXiv's latest (:mod:`kb.facts.revised`): the card written
        from one, and every mention citing one. The latest is the answer for a bare id, else
        the cached answer for the bare id."""
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

    def _named(self, arxiv_id: str, rows: list[MentionRow], card: str | None) -> list[MentionInfo]:
        """Claims about ``arxiv_id`` (:func:`kb.facts.query.about`, the KB's one attributor, built
        once) on no line that mentions the id and outside its own ``card`` (a path): the lines
        naming the paper by title or alias."""
        if self._attributor is None:
            self._attributor = attributor(self.kb)
        at = {(m.path, m.line) for m in rows}
        return [MentionInfo(path=c.provenance.path, line=c.provenance.line, kind=c.kind,
                            written_at=c.provenance.written_at)
                for c in about(self.kb, self._attributor, [f"arxiv:{arxiv_id}"], {})
                if (c.provenance.path, c.provenance.line) not in at and c.provenance.path != card
                and not is_derived(c)]

    @staticmethod
    def _front_line(path: str, rows: list[MentionRow]) -> int:
        """The line of the card's front-matter id (its first mention without a claim), else 1."""
        return next((m.line for m in rows if m.path == path and m.claim_id is None), 1)

    def _dependents(self, arxiv_id: str | None) -> list[Dependent]:
        # (lazy: the Attributor and its names are loaded only for a withdrawn paper, not by a look-up)
        from kb.facts.dependents import dependents

        return dependents(self.kb, arxiv_id, self._own) if arxiv_id else []

    def _card(self, t: Target, rec: SourceRecord | None) -> tuple[Card | None, CardInfo | None, list[Check]]:
        checks: list[Check] = []
        entries = self.cards.by_front.get(t.id or "", [])
        if not entries:
            for e in self.cards.by_name.get(t.id or "", []):
                checks.append(Check(level="error", code="card-arxiv", status="mismatch",
                                    message=f"{e.path}: file name names {t.id} but front-matter arxiv is {e.arxiv_raw!r}"))
            if not checks:
                checks.append(Check(level="info", code="no-card", message=f"no paper card in {CARDS_DIR}/ names {t.id}"))
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
