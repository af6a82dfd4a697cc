"""arXiv API through the ``arxiv`` client: one Client per run, batched ``id_list``, SourceRecords out.

The only module of kb that imports ``arxiv``. Every ``arxiv.Result`` becomes a
:class:`~kb.sources.SourceRecord` at once; every failure becomes an
:class:`ArxivUnavailable` (a :class:`~kb.errors.SourceUnavailable`, exit code 3).

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
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Literal
from urllib.parse import urlsplit

import arxiv
import requests

from kb.errors import ConfigError, SourceUnavailable
from kb.sources import SourceRecord
from kb.store import Store

DEFAULT_API_URL = "https://export.arxiv.org/api/query"
DEFAULT_DELAY = 3.0
"""Seconds between two requests: arXiv API terms of use, https://info.arxiv.org/help/api/tou.html."""
DEFAULT_RETRIES = 3
DEFAULT_TIMEOUT = 30.0
MAX_IDS = 100
"""Ids per ``Search`` (one request each): the arxiv.py maintainer's advice in lukasschwab/arxiv.py #167."""

ENV_API, ENV_DELAY, ENV_RETRIES, ENV_TIMEOUT = "KB_ARXIV_API", "KB_ARXIV_DELAY", "KB_ARXIV_RETRIES", "KB_ARXIV_TIMEOUT"

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
            :class:`kb.errors.ConfigError` naming the variable.
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
        from kb.errors import ConfigError

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


class _CheckedSession(requests.Session):
    """The client's HTTP session with a timeout and a strict Atom check of each 200 response.

    arxiv 4.0.2 sends requests without a timeout and parses with lxml ``recover=True``, so a
    truncated body would read as "these ids do not exist"; here it raises instead.
    """

    def __init__(self, timeout: float) -> None:
        super().__init__()
        self.timeout = timeout
        self.sent = 0

    def request(self, method, url, *args, **kwargs):  # type: ignore[no-untyped-def,override]
        kwargs.setdefault("timeout", self.timeout)
        self.sent += 1
        resp = super().request(method, url, *args, **kwargs)
        if resp.status_code == 200:
            _check_feed(resp.content)
        return resp


def _check_feed(content: bytes) -> None:
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=False)
    try:
        root = etree.fromstring(content, parser=parser)
    except etree.XMLSyntaxError as exc:
        raise _MalformedFeed(f"not well-formed XML ({exc})") from None
    if root is None or root.tag != f"{_ATOM}feed":
        raise _MalformedFeed(f"not an Atom feed (root element {getattr(root, 'tag', None)!r})")


def wire_id(arxiv_id: str) -> str:
    """The id as arXiv knows it: an old-style id loses its subject class (``math.GT/0309136v2``
    -> ``math/0309136v2``); other ids are unchanged."""
    return _SUBJECT_CLASS_RE.sub(r"\1/", arxiv_id, count=1)


def to_record(result: arxiv.Result) -> SourceRecord | None:
    """A :class:`SourceRecord` from one ``arxiv.Result``; None for an entry that is no paper.

    (arXiv answers some bad queries with an "Error" entry whose id is not an abs URL.)
    """
    if "arxiv.org/abs/" not in result.entry_id:
        return None
    short = result.get_short_id()
    m = _SHORT_ID_RE.fullmatch(short)
    if m is None:
        return None
    return SourceRecord(
        id=m.group("id"),
        version=int(m.group("v")) if m.group("v") else None,
        short_id=short,
        title=(result.title or "").strip(),
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
        self._session: _CheckedSession | None = None

    @property
    def client(self) -> arxiv.Client:
        """The run's one ``arxiv.Client`` (page size 100, the configured delay and retries)."""
        if self._client is None:
            s = self.settings
            client = arxiv.Client(page_size=MAX_IDS, delay_seconds=s.delay, num_retries=s.retries)
            client.query_url_format = s.api_url.replace("{", "{{").replace("}", "}}") + (
                "&{}" if "?" in s.api_url else "?{}"
            )
            self._session = _CheckedSession(s.timeout)
            if hasattr(client, "_session"):  # arxiv >= 2.1 exposes no public hook for a timeout
                client._session = self._session
            self._client = client
        return self._client

    @property
    def requests_sent(self) -> int:
        """HTTP requests sent so far (retries included)."""
        return self._session.sent if self._session else 0

    def fetch_batch(self, ids: Sequence[str]) -> dict[str, SourceRecord | None]:
        """Look up to :data:`MAX_IDS` ids in one ``Search``.

        :param ids: valid ids, each bare (``2607.26627``: latest version) or versioned
            (``2607.26627v2``: sent as is, CASES.md C01), no duplicates. An old-style id's
            subject class is dropped on the wire (``math.GT/0309136`` -> ``math/0309136``, the
            form arXiv answers with).
        :returns: every asked id -> its record, or None when arXiv returned no entry for it.
            A versioned id matches only an entry whose ``get_short_id()`` is exactly that id.
        :raises ArxivUnavailable: HTTP error after the client's retries, connection failure,
            timeout, or a response that is not a well-formed Atom feed; nothing is returned
            for the batch.
        :raises ValueError: more than :data:`MAX_IDS` ids.
        """
        ids = list(ids)
        if len(ids) > MAX_IDS:
            raise ValueError(f"at most {MAX_IDS} ids per request, got {len(ids)}")
        out: dict[str, SourceRecord | None] = dict.fromkeys(ids)
        if not ids:
            return out
        wire = {wire_id(i): i for i in ids}
        search = arxiv.Search(id_list=list(wire), max_results=len(ids))
        try:
            records = [r for r in (to_record(x) for x in self.client.results(search)) if r is not None]
        except arxiv.HTTPError as exc:
            raise ArxivUnavailable(f"arXiv HTTP {exc.status} after retries", ids) from None
        except _MalformedFeed as exc:
            raise ArxivUnavailable(f"malformed response from arXiv: {exc.detail}", ids) from None
        except requests.exceptions.Timeout:
            raise ArxivUnavailable(f"arXiv did not answer within {self.settings.timeout:g} s", ids) from None
        except requests.exceptions.ConnectionError:
            raise ArxivUnavailable(f"arXiv unreachable at {self.settings.api_url}", ids) from None
        except (requests.exceptions.RequestException, arxiv.ArxivError) as exc:
            raise ArxivUnavailable(f"arXiv request failed: {exc}", ids) from None
        for rec in records:
            if rec.short_id in wire:
                out[wire[rec.short_id]] = rec
            if rec.id in wire:
                prev = out[wire[rec.id]]
                if prev is None or (rec.version or 0) > (prev.version or 0):
                    out[wire[rec.id]] = rec
        return out


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


class Lookup:
    """Cache-then-arXiv lookups for one run: ONE :class:`ArxivSource` (so one ``arxiv.Client``).

    Rules: ``offline`` reads only the cache. Online, a cached found record is used unless
    ``refresh``; a cached not-found is asked again (ids are often cited before they are
    announced). After the first failed request no further request is sent in this run; the
    cache answers where it can, else the id is ``unverified`` with arXiv's failure as reason.
    Successful answers (found and not-found) are cached with the time fetched; a failure
    writes nothing (C05).

    :param source: the arXiv source to use (tests); default one built from env and ``kb.yaml``.
    """

    def __init__(self, store: Store, *, api_url: str | None = None, offline: bool = False,
                 refresh: bool = False, source: ArxivSource | None = None) -> None:
        self.store = store
        self.offline = offline
        self.refresh = refresh
        self.api_url = api_url
        self._source = source
        self.failure: ArxivUnavailable | None = None
        self.errors: list[str] = []
        """One message per failed request, naming its batch (for stderr)."""

    @property
    def source(self) -> ArxivSource:
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
                fetched = self.source.fetch_batch(need)
            except ArxivUnavailable as exc:
                self.failure = exc
                self.errors.append(f"{exc.message}; what was fetched before is cached, the rest is unverified")
            else:
                now = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
                for key, rec in fetched.items():
                    self.store.cache_put(key, now, "found" if rec else "not-found", rec.to_cache() if rec else None)
                    out[key] = Answer(rec, "found" if rec else "not-found", now)
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
