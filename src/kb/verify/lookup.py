"""Cache-then-arXiv look-ups for one run: the store's ``arxiv_cache`` in front of :class:`ArxivSource`.

``--offline`` reads only the cache, ``--refresh`` asks arXiv again; a cached answer is only
ever improved (issue 12). docs/verify.md gives the rules; :class:`Lookup` holds them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Literal

from kb.core.paths import STORE_DIR, STORE_NAME
from kb.core.records import SourceRecord
from kb.store.db import Store
from kb.store.workspace import Kb
from kb.verify.arxiv import ArxivSettings, ArxivSource, ArxivUnavailable


@dataclass(slots=True)
class Answer:
    """What the cache or arXiv said about one key."""

    record: SourceRecord | None
    state: Literal["found", "not-found", "unverified"]
    fetched_at: str | None = None
    cached: bool = False
    note: str | None = None
    """Why the network was not used (offline, or arXiv failed and the cache answered)."""


CONFIRM_AFTER = timedelta(days=1)
"""A cached ``found`` becomes ``not-found`` only after two lone empty answers this far apart."""
ABSENT_SINCE = "absent_since"
"""Key, in a cached found record's JSON, of the first lone empty answer (not yet confirmed)."""


class Lookup:
    """Cache-then-arXiv lookups for one run: ONE :class:`ArxivSource` (so one ``arxiv.Client``).

    Rules: ``offline`` reads only the cache. Online, a cached found record is used unless
    ``refresh``; a cached not-found is asked again (ids are often cited before they are
    announced). After the first failed request no further request is sent in this run; the
    cache answers where it can, else the id is ``unverified`` with arXiv's failure as reason.
    Successful answers are cached with the time fetched; a failure writes nothing (C05).

    The cache only improves (issue 12): a found record never replaces a cached found of a
    higher version (arXiv's latest version only grows, issue 10), and a not-found never replaces a cached found unless
    arXiv answered that id on its own with a well-formed empty feed twice, at least
    :data:`CONFIRM_AFTER` apart (the first such answer is remembered under
    :data:`ABSENT_SINCE` in the found row). Until then the cached found answers, with its
    date, and the new answer is logged in :attr:`notes` as "unconfirmed".

    :param source: the arXiv source to use (tests); default one built from env and ``kb.yaml``.
    :param now: the clock (tests); default UTC now.
    """

    def __init__(self, store: Store, *, api_url: str | None = None, offline: bool = False,
                 refresh: bool = False, source: ArxivSource | None = None,
                 now: Callable[[], datetime] | None = None) -> None:
        self.store = store
        self.offline = offline
        self.refresh = refresh
        self.api_url = api_url
        self._source = source
        self._now = now or (lambda: datetime.now(timezone.utc))
        self.failure: ArxivUnavailable | None = None
        self.errors: list[str] = []
        """One message per failed request, naming its batch (for stderr)."""
        self.notes: list[str] = []
        """One message per unconfirmed not-found that left a cached found in place (for stderr)."""

    @classmethod
    def for_kb(cls, kb: Kb, *, offline: bool = False, refresh: bool = False) -> Lookup:
        """The look-ups of a command on the open KB ``kb``: its store's cache and its ``kb.yaml``
        ``arxiv.api_url`` (``kb verify``, ``kb card new``)."""
        return cls(kb.store, api_url=kb.config.arxiv.api_url, offline=offline, refresh=refresh)

    @property
    def source(self) -> ArxivSource:
        """The run's one :class:`ArxivSource`, built on first use."""
        if self._source is None:
            self._source = ArxivSource(ArxivSettings.from_env(self.api_url))
        return self._source

    def _cached(self, key: str) -> Answer | None:
        hit = self.store.cache_get(key)
        if hit is None:
            if key in self.store.cache_dropped:
                self.store.cache_dropped.discard(key)
                self.notes.append(f"{key}: its arXiv cache entry in {STORE_DIR}/{STORE_NAME} did not decode; dropped, "
                                  + ("unverified offline" if self.offline else "asked again"))
            return None
        fetched_at, status, data = hit
        if status == "found" and data:
            return Answer(SourceRecord.model_validate(data), "found", fetched_at, cached=True)
        return Answer(None, "not-found", fetched_at, cached=True)

    def answers(self, keys: list[str]) -> dict[str, Answer]:
        """An answer for every key (at most :data:`MAX_IDS`, no duplicates)."""
        out: dict[str, Answer] = {}
        need: list[str] = []
        for key in keys:
            hit = self._cached(key)
            if self.offline:
                out[key] = hit or Answer(None, "unverified", note="offline and not in the cache")
            elif hit is not None and hit.state == "found" and not self.refresh:
                out[key] = hit
            else:
                need.append(key)
        if need and self.failure is None:
            try:
                fetched = self.source.ask(need)
            except ArxivUnavailable as exc:
                self.failure = exc
                self.errors.append(f"{exc.message}; what was fetched before is cached, the rest is unverified")
            else:
                moment = self._now().astimezone(timezone.utc).replace(microsecond=0)
                for key, rec in fetched.records.items():
                    out[key] = self._store(key, rec, key in fetched.alone_empty, moment)
        for key in need:
            if key in out:
                continue
            reason = self.failure.reason if self.failure else "arXiv unavailable"
            hit = self._cached(key)
            if hit is not None:
                hit.note = f"{reason}; answered from the cache fetched {hit.fetched_at}"
                out[key] = hit
            else:
                out[key] = Answer(None, "unverified", note=reason)
        return out

    def _store(self, key: str, rec: SourceRecord | None, alone_empty: bool, moment: datetime) -> Answer:
        """Cache arXiv's answer for ``key`` unless it is a not-found that would replace a found."""
        now = moment.isoformat()
        old = self.store.cache_get(key)
        if rec is not None:
            kept = old[2] if old is not None and old[1] == "found" and old[2] else None
            if kept is not None and (kept.get("version") or 0) > (rec.version or 0):
                # arXiv never takes a version back: a lower latest version is a stale answer
                self.notes.append(f"{key}: arXiv answered v{rec.version} at {now}, below the cached latest "
                                  f"v{kept.get('version')} of {old[0]}; kept the cached record")
                return Answer(SourceRecord.model_validate(kept), "found", old[0], cached=True,
                              note=f"arXiv answered v{rec.version}, below the cached v{kept.get('version')}; "
                                   f"answered from the cache fetched {old[0]}")
            self.store.cache_put(key, now, "found", rec.to_cache())
            return Answer(rec, "found", now)
        if old is None or old[1] != "found" or not old[2]:
            self.store.cache_put(key, now, "not-found", None)
            return Answer(None, "not-found", now)
        fetched_at, _, data = old
        since = data.get(ABSENT_SINCE)
        if alone_empty and since and moment - datetime.fromisoformat(since) >= CONFIRM_AFTER:
            self.store.cache_put(key, now, "not-found", None)
            self.notes.append(f"{key}: arXiv answered not-found on its own since {since} and again {now}; "
                              f"the cached found of {fetched_at} is replaced")
            return Answer(None, "not-found", now)
        if alone_empty and not since:
            self.store.cache_put(key, fetched_at, "found", {**data, ABSENT_SINCE: now})
        how = "on its own" if alone_empty else "in a batch"
        self.notes.append(f"{key}: arXiv answered not-found {how} at {now} (unconfirmed); "
                          f"kept the cached found of {fetched_at}")
        return Answer(SourceRecord.model_validate(data), "found", fetched_at, cached=True,
                      note=f"arXiv answered not-found at {now}, unconfirmed; answered from the cache fetched {fetched_at}")
