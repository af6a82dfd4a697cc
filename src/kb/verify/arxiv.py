"""arXiv API through the ``arxiv`` client: one Client per run, batched ``id_list``, SourceRecords out.

The only module of kb that imports ``arxiv``. Every ``arxiv.Result`` becomes a
:class:`~kb.core.records.SourceRecord` at once; every failure becomes an
:class:`ArxivUnavailable` (a :class:`~kb.core.errors.SourceUnavailable`, exit code 3).

Settings (highest first): environment, then ``kb.yaml``, then the defaults here.

* ``KB_ARXIV_API`` / ``arxiv.api_url``: the query endpoint, e.g.
  ``http://127.0.0.1:8080/api/query``; kb appends ``?search_query=…&id_list=…``.
* ``KB_ARXIV_DELAY``: seconds between requests, default 3 (arXiv API terms of use: "no more
  than one request every three seconds"). A smaller value is honoured only when the API
  host is a loopback address (tests against a local fake server); real arXiv always gets 3 s.
* ``KB_ARXIV_RETRIES`` (default 3) and ``KB_ARXIV_TIMEOUT`` (seconds per request, default 30).

:class:`Lookup` puts the store's ``arxiv_cache`` in front of the source (``--offline``,
``--refresh``); docs/verify.md gives the rules.
"""

from __future__ import annotations

import ipaddress
import os
import re
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from kb.core.errors import ConfigError, SourceUnavailable
from kb.core.records import SourceRecord
from kb.store.db import Store

if TYPE_CHECKING:  # the client and requests are imported when kb asks arXiv (offline runs never do)
    import arxiv

DEFAULT_API_URL = "https://export.arxiv.org/api/query"
DEFAULT_DELAY = 3.0
"""Seconds between two requests: arXiv API terms of use, https://info.arxiv.org/help/api/tou.html."""
DEFAULT_RETRIES = 3
DEFAULT_TIMEOUT = 30.0
MAX_IDS = 100
"""Ids per ``Search`` (one request each): the arxiv.py maintainer's advice in lukasschwab/arxiv.py #167."""

ENV_API, ENV_DELAY, ENV_RETRIES, ENV_TIMEOUT = "KB_ARXIV_API", "KB_ARXIV_DELAY", "KB_ARXIV_RETRIES", "KB_ARXIV_TIMEOUT"


def _quiet_client() -> None:
    """The client's own log lines (skipped entries, whole 100-id URLs) stay out of stderr: with a
    handler of its own, Python's last-resort handler is never used; ``kb --verbose`` configures
    the root logger, which the ``arxiv`` logger still propagates to. Done where kb imports the
    client, before it can log (not at import: an offline run loads no :mod:`logging`)."""
    import logging

    logger = logging.getLogger("arxiv")
    if not any(getattr(h, "kb_quiet", False) for h in logger.handlers):
        handler = logging.NullHandler()
        handler.kb_quiet = True  # type: ignore[attr-defined]
        logger.addHandler(handler)

_SHORT_ID_RE = re.compile(r"(?P<id>.+?)(?:v(?P<v>\d+))?")
_ATOM = "{http://www.w3.org/2005/Atom}"
_SUBJECT_CLASS_RE = re.compile(r"^([a-z]+(?:-[a-z]+)?)\.[A-Za-z][A-Za-z-]*/")


class ArxivUnavailable(SourceUnavailable):
    """arXiv could not answer a batch: HTTP error after retries, unreachable, timeout, bad XML.

    :param reason: short human reason, e.g. ``arXiv HTTP 429 after retries``; it becomes the
        per-id reason of every id left unverified.
    :param batch: the ids of the request that failed.
    """

    def __init__(self, reason: str, batch: Sequence[str] = ()) -> None:
        self.reason = reason
        self.batch = list(batch)
        super().__init__(f"{reason} (batch of {len(self.batch)} ids: {describe_batch(self.batch)})")


def describe_batch(ids: Sequence[str]) -> str:
    """``2607.26627`` / ``2601.00001 … 2601.00100`` / ``a, b``: a batch named in one short phrase."""
    if len(ids) <= 3:
        return ", ".join(ids)
    return f"{ids[0]} … {ids[-1]}"


@dataclass(frozen=True, slots=True)
class ArxivSettings:
    """Where and how politely to ask arXiv."""

    api_url: str = DEFAULT_API_URL
    delay: float = DEFAULT_DELAY
    retries: int = DEFAULT_RETRIES
    timeout: float = DEFAULT_TIMEOUT

    @classmethod
    def from_env(cls, config_api_url: str | None = None) -> ArxivSettings:
        """Settings from the environment, else ``config_api_url`` (``kb.yaml``), else defaults.

        :raises SourceUnavailable: never; a non-numeric env value raises
            :class:`kb.core.errors.ConfigError` naming the variable.
        """
        api = os.environ.get(ENV_API) or config_api_url or DEFAULT_API_URL
        parts = urllib.parse.urlsplit(api)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            where = f"environment {ENV_API}" if os.environ.get(ENV_API) else "kb.yaml arxiv.api_url"
            raise ConfigError(f"{where}: {api!r} is not an http(s) URL of the arXiv query endpoint "
                              "(e.g. http://export.arxiv.org/api/query)")
        delay = _env_number(ENV_DELAY, DEFAULT_DELAY)
        if delay < DEFAULT_DELAY and not _is_loopback(api):
            delay = DEFAULT_DELAY
        return cls(
            api_url=api,
            delay=max(delay, 0.0),
            retries=max(int(_env_number(ENV_RETRIES, DEFAULT_RETRIES)), 0),
            timeout=max(_env_number(ENV_TIMEOUT, DEFAULT_TIMEOUT), 0.01),
        )


def _env_number(name: str, default: float) -> float:
    text = os.environ.get(name)
    if text is None or not text.strip():
        return default
    try:
        return float(text)
    except ValueError:
        from kb.core.errors import ConfigError

        raise ConfigError(f"environment {name}={text!r}: expected a number") from None


def _is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _MalformedFeed(Exception):
    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


@lru_cache(maxsize=1)
def _session_class() -> type:
    """The client's HTTP session class, built on first use (``requests`` is imported only when
    kb asks arXiv; ``kb verify --offline`` never does)."""
    import requests

    class _CheckedSession(requests.Session):
        """The client's HTTP session with a timeout and a strict Atom check of each 200 response.

        arxiv 4.0.2 sends requests without a timeout and parses with lxml ``recover=True``, so a
        truncated body would read as "these ids do not exist"; here it raises instead.
        """

        def __init__(self, timeout: float) -> None:
            super().__init__()
            self.timeout = timeout
            self.sent = 0
            self.last_entries: int | None = None
            """``<entry>`` elements in the last well-formed 200 response (before any is judged)."""

        def request(self, method, url, *args, **kwargs):  # type: ignore[no-untyped-def,override]
            kwargs.setdefault("timeout", self.timeout)
            self.sent += 1
            self.last_entries = None
            resp = super().request(method, url, *args, **kwargs)
            if resp.status_code == 200:
                self.last_entries = _check_feed(resp.content)
            return resp

    return _CheckedSession


def _check_feed(content: bytes) -> int:
    """The number of ``<entry>`` elements of a well-formed Atom feed.

    :raises _MalformedFeed: not well-formed XML, or not an Atom ``<feed>``.
    """
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=False)
    try:
        root = etree.fromstring(content, parser=parser)
    except etree.XMLSyntaxError as exc:
        raise _MalformedFeed(f"not well-formed XML ({exc})") from None
    if root is None or root.tag != f"{_ATOM}feed":
        raise _MalformedFeed(f"not an Atom feed (root element {getattr(root, 'tag', None)!r})")
    return len(root.findall(f"{_ATOM}entry"))


def wire_id(arxiv_id: str) -> str:
    """The id as arXiv knows it: an old-style id loses its subject class (``math.GT/0309136v2``
    -> ``math/0309136v2``); other ids are unchanged."""
    return _SUBJECT_CLASS_RE.sub(r"\1/", arxiv_id, count=1)


def to_record(result: arxiv.Result) -> SourceRecord | None:
    """A :class:`SourceRecord` from one ``arxiv.Result``; None for an entry that is no paper.

    No paper: an entry without an abs-URL id, without a title or ``published``, or titled
    "Error" (arXiv answers some bad queries with such an entry, issue 12).
    """
    if "arxiv.org/abs/" not in (result.entry_id or ""):
        return None
    title = (result.title or "").strip()
    if not title or title == "Error" or result.published is None:
        return None
    short = result.get_short_id()
    m = _SHORT_ID_RE.fullmatch(short)
    if m is None:
        return None
    return SourceRecord(
        id=m.group("id"),
        version=int(m.group("v")) if m.group("v") else None,
        short_id=short,
        title=title,
        authors=[a.name for a in result.authors],
        published=result.published,
        updated=result.updated,
        primary_category=result.primary_category or "",
        categories=list(result.categories),
        comment=result.comment or None,
        journal_ref=result.journal_ref or None,
        doi=result.doi or None,
    )


class ArxivSource:
    """Asks arXiv about ids, at most :data:`MAX_IDS` per request, through ONE ``arxiv.Client``.

    The client is built on first use (an offline run builds none) and kept for the run, so
    its politeness delay spans every batch (CASES.md C05: a client per id skips the throttle).

    :param settings: where and how; default :meth:`ArxivSettings.from_env`.
    """

    def __init__(self, settings: ArxivSettings | None = None) -> None:
        self.settings = settings or ArxivSettings.from_env()
        self._client: arxiv.Client | None = None
        self._session: Any = None

    @property
    def client(self) -> arxiv.Client:
        """The run's one ``arxiv.Client`` (page size 100, the configured delay and retries)."""
        import arxiv

        _quiet_client()

        if self._client is None:
            s = self.settings
            client = arxiv.Client(page_size=MAX_IDS, delay_seconds=s.delay, num_retries=s.retries)
            client.query_url_format = s.api_url.replace("{", "{{").replace("}", "}}") + (
                "&{}" if "?" in s.api_url else "?{}"
            )
            self._session = _session_class()(s.timeout)
            if hasattr(client, "_session"):  # arxiv >= 2.1 exposes no public hook for a timeout
                client._session = self._session
            self._client = client
        return self._client

    @property
    def requests_sent(self) -> int:
        """HTTP requests sent so far (retries included)."""
        return self._session.sent if self._session else 0

    def fetch_batch(self, ids: Sequence[str]) -> dict[str, SourceRecord | None]:
        """Look up to :data:`MAX_IDS` ids; the records of :meth:`ask`."""
        return self.ask(ids).records

    def ask(self, ids: Sequence[str]) -> BatchAnswer:
        """Look up to :data:`MAX_IDS` ids: one ``Search`` first, then the missing ids again.

        arXiv answers a batch holding an id it lacks with ``totalResults`` counting every id
        asked (so the client's next page comes back empty and it raises
        ``UnexpectedEmptyPageError``), or with a short page. Either way the entries that
        arrived are kept and the ids still missing are asked again in halves, down to one id
        per request, each request after the client's politeness delay: one unknown id in a
        batch of 100 costs one extra request, not the run (issue 12). A batch asked for the
        first time that comes back whole and empty is not split (every id in it is not found).

        :param ids: valid ids, each bare (``2607.26627``: latest version) or versioned
            (``2607.26627v2``: sent as is, CASES.md C01); duplicates are asked once. An
            old-style id's subject class is dropped on the wire (``math.GT/0309136`` ->
            ``math/0309136``, the form arXiv answers with).
        :returns: every asked id -> its record, or None when arXiv returned no entry for it,
            plus the ids arXiv answered alone with a well-formed empty feed. A versioned id
            matches only an entry whose ``get_short_id()`` is exactly that id; records are
            de-duplicated by short id.
        :raises ArxivUnavailable: HTTP error after the client's retries, connection failure,
            timeout, or a response that is not a well-formed Atom feed; nothing is returned
            for the batch.
        :raises ValueError: more than :data:`MAX_IDS` ids.
        """
        ids = list(dict.fromkeys(ids))
        if len(ids) > MAX_IDS:
            raise ValueError(f"at most {MAX_IDS} ids per request, got {len(ids)}")
        answer = BatchAnswer(dict.fromkeys(ids), set())
        pending: list[tuple[list[str], bool]] = [(ids, False)] if ids else []
        while pending:
            batch, retry = pending.pop(0)
            records, whole, entries = self._search(batch)
            _match(batch, records, answer.records)
            missing = [i for i in batch if answer.records[i] is None]
            if not missing:
                continue
            if len(batch) == 1:
                if whole and entries == 0:
                    answer.alone_empty.add(batch[0])
            elif retry or not whole or len(missing) < len(batch):
                half = (len(missing) + 1) // 2
                pending += [(part, True) for part in (missing[:half], missing[half:]) if part]
        return answer

    def _search(self, batch: list[str]) -> tuple[list[SourceRecord], bool, int | None]:
        """One ``Search`` of ``batch``: ``(records that are papers, whole, entries in the feed)``;
        ``whole`` is False when the client raised after a first page (what arrived is kept)."""
        import arxiv
        import requests

        _quiet_client()
        search = arxiv.Search(id_list=[wire_id(i) for i in batch], max_results=len(batch))
        records: list[SourceRecord] = []
        whole = True
        client = self.client
        try:
            if hasattr(client, "_parse_feed") and hasattr(client, "_format_url"):
                # the first page only: arXiv's totalResults counts unknown ids too, so the
                # client's next page would be empty (UnexpectedEmptyPageError after retries)
                results = client._parse_feed(client._format_url(search, 0, MAX_IDS), first_page=True).results
            else:  # pragma: no cover - another arxiv release
                results = client.results(search)
            for result in results:
                rec = to_record(result)
                if rec is not None:
                    records.append(rec)
        except arxiv.UnexpectedEmptyPageError:
            whole = False
        except arxiv.HTTPError as exc:
            raise ArxivUnavailable(f"arXiv HTTP {exc.status} after retries", batch) from None
        except _MalformedFeed as exc:
            raise ArxivUnavailable(f"malformed response from arXiv: {exc.detail}", batch) from None
        except requests.exceptions.Timeout:
            raise ArxivUnavailable(f"arXiv did not answer within {self.settings.timeout:g} s", batch) from None
        except requests.exceptions.ConnectionError:
            raise ArxivUnavailable(f"arXiv unreachable at {self.settings.api_url}", batch) from None
        except (requests.exceptions.RequestException, arxiv.ArxivError) as exc:
            raise ArxivUnavailable(f"arXiv request failed: {exc}", batch) from None
        entries = self._session.last_entries if self._session else None
        return records, whole, entries


@dataclass(slots=True)
class BatchAnswer:
    """What arXiv said about a batch: a record or None per id, and which ids it answered
    alone with a well-formed empty feed (the only "not found" that may overwrite a cached
    "found", see :class:`Lookup`)."""

    records: dict[str, SourceRecord | None]
    alone_empty: set[str]


def _match(batch: list[str], records: list[SourceRecord], out: dict[str, SourceRecord | None]) -> None:
    """Give each asked id of ``batch`` its record: the exact short id, else the latest version."""
    wire = {wire_id(i): i for i in batch}
    seen: set[str] = set()
    for rec in records:
        if rec.short_id in seen:
            continue
        seen.add(rec.short_id)
        if rec.short_id in wire:
            out[wire[rec.short_id]] = rec
        if rec.id in wire:
            prev = out[wire[rec.id]]
            if prev is None or (rec.version or 0) > (prev.version or 0):
                out[wire[rec.id]] = rec


def fetch(ref: str) -> SourceRecord | None:
    """One id looked up with settings from the environment (the ``SOURCES`` entry point).

    :raises ArxivUnavailable: see :meth:`ArxivSource.fetch_batch`.
    """
    return ArxivSource().fetch_batch([ref])[ref]


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

    @property
    def source(self) -> ArxivSource:
        """The run's one :class:`ArxivSource`, built on first use."""
        if self._source is None:
            self._source = ArxivSource(ArxivSettings.from_env(self.api_url))
        return self._source

    def _cached(self, key: str) -> Answer | None:
        hit = self.store.cache_get(key)
        if hit is None:
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
