"""arXiv API through the ``arxiv`` client: one Client per run, batched ``id_list``, SourceRecords out.

The only module of kb that imports ``arxiv`` to ask it (:mod:`kb.verify.atom` reads what it
answers). Every ``arxiv.Result`` becomes a :class:`~kb.core.records.SourceRecord` at once;
every failure becomes an :class:`ArxivUnavailable` (a
:class:`~kb.core.errors.SourceUnavailable`, exit code 3).

Settings (highest first): environment, then ``kb.yaml``, then the defaults here.

* ``KB_ARXIV_API`` / ``arxiv.api_url``: the query endpoint, e.g.
  ``http://127.0.0.1:8080/api/query``; kb appends ``?search_query=…&id_list=…``.
* ``KB_ARXIV_DELAY``: seconds between requests, default 3 (arXiv API terms of use: "no more
  than one request every three seconds"). A smaller value is honoured only when the API
  host is a loopback address (tests against a local fake server); real arXiv always gets 3 s.
* ``KB_ARXIV_RETRIES`` (default 3) and ``KB_ARXIV_TIMEOUT`` (seconds per request, default 30:
  the whole answer, headers and body, must arrive within it, not each read).

:class:`kb.verify.lookup.Lookup` puts the store's ``arxiv_cache`` in front of the source.

The ``arxiv`` client logs skipped entries and whole request URLs; keeping them off stderr is
the command line's choice (``kb --verbose`` shows them), not this module's.
"""

from __future__ import annotations

import http.client
import ipaddress
import os
import re
import threading
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from kb.core.errors import ConfigError, SourceUnavailable
from kb.core.records import SourceRecord
from kb.verify.atom import MalformedFeed, check_feed, to_record, wire_id

if TYPE_CHECKING:  # the client and requests are imported when kb asks arXiv (offline runs never do)
    import arxiv

DEFAULT_API_URL = "https://export.arxiv.org/api/query"
DEFAULT_DELAY = 3.0
"""Seconds between two requests: arXiv API terms of use, https://info.arxiv.org/help/api/tou.html."""
DEFAULT_RETRIES = 3
DEFAULT_TIMEOUT = 30.0
MAX_IDS = 100
"""Ids per ``Search`` (one request each): the arxiv.py maintainer's advice in lukasschwab/arxiv.py #167."""
MAX_UNPACKED_MIB = 64
"""Largest answer kb reads, in MiB after gzip (100 entries are under 1 MiB): past it, a malformed response."""

ENV_API, ENV_DELAY, ENV_RETRIES, ENV_TIMEOUT = "KB_ARXIV_API", "KB_ARXIV_DELAY", "KB_ARXIV_RETRIES", "KB_ARXIV_TIMEOUT"


class ArxivUnavailable(SourceUnavailable):
    """arXiv could not answer a batch: HTTP error after retries, unreachable, timeout, bad XML.

    :param reason: short human reason, e.g. ``arXiv HTTP 429 after retries``; it becomes the
        per-id reason of every id left unverified.
    :param batch: the ids of the request that failed.
    """

    def __init__(self, reason: str, batch: Sequence[str] = ()) -> None:
        self.reason = reason
        self.batch = list(batch)
        super().__init__(f"{reason} (batch of {len(self.batch)} id{'' if len(self.batch) == 1 else 's'}: {describe_batch(self.batch)})")


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
        try:
            parts = urllib.parse.urlsplit(api)
            parts.port  # noqa: B018 -- a bad port or IPv6 bracket raises here, not on the first request
        except ValueError:
            parts = urllib.parse.urlsplit("")
        if parts.scheme not in ("http", "https") or not re.fullmatch(r"[A-Za-z0-9._:-]+", parts.hostname or ""):
            where = f"environment {ENV_API}" if os.environ.get(ENV_API) else "kb.yaml arxiv.api_url"
            raise ConfigError(f"{where}: {api!r} is not an http(s) URL of the arXiv query endpoint "
                              "(e.g. http://export.arxiv.org/api/query)")
        delay = _env_number(ENV_DELAY, DEFAULT_DELAY, most=MAX_DELAY)
        if delay < DEFAULT_DELAY and not _is_loopback(api):
            delay = DEFAULT_DELAY
        return cls(
            api_url=api,
            delay=max(delay, 0.0),
            retries=int(_env_number(ENV_RETRIES, DEFAULT_RETRIES, most=MAX_RETRIES)),
            timeout=max(_env_number(ENV_TIMEOUT, DEFAULT_TIMEOUT, most=MAX_TIMEOUT), 0.01),
        )


#: Largest ``KB_ARXIV_RETRIES``, ``KB_ARXIV_TIMEOUT`` and ``KB_ARXIV_DELAY`` (seconds) kb takes:
#: past them a server that keeps answering 429 or never answers, or a pause between batches,
#: would hold ``kb verify`` for hours.
MAX_RETRIES, MAX_TIMEOUT, MAX_DELAY = 20, 600.0, 60.0


def _env_number(name: str, default: float, *, most: float = float("inf")) -> float:
    """The number in environment variable ``name``, else ``default``.

    :raises ConfigError: (exit 2) naming the variable when its value is not a finite number
        from 0 to ``most``.
    """
    text = os.environ.get(name)
    if text is None or not text.strip():
        return default
    try:
        value = float(text)
    except ValueError:
        raise ConfigError(f"environment {name}={text!r}: expected a number") from None
    if not 0 <= value <= most:  # also false for nan
        wanted = "a number >= 0" if most == float("inf") else f"a number from 0 to {most:g}"
        raise ConfigError(f"environment {name}={text!r}: expected {wanted}")
    return value


def _is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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
            """One request whose whole answer (connect, headers, body) arrives within
            ``timeout`` seconds, else :class:`requests.exceptions.ReadTimeout`: ``requests``
            bounds each read, so a server sending a byte a second would never time out."""
            kwargs.setdefault("timeout", self.timeout)
            self.sent += 1
            self.last_entries = None
            box: dict[str, Any] = {}

            def send() -> None:
                try:
                    kwargs["stream"] = True  # the body is read here, within the deadline and the size bound
                    box["resp"] = _read_bounded(super(_CheckedSession, self).request(method, url, *args, **kwargs))
                except BaseException as exc:  # noqa: BLE001 -- handed to the asking thread
                    box["error"] = exc

            worker = threading.Thread(target=send, name="kb-arxiv-request", daemon=True)
            worker.start()
            worker.join(self.timeout)
            if worker.is_alive():  # left to end with the server (a daemon: it never holds kb up)
                raise requests.exceptions.ReadTimeout(f"no whole answer within {self.timeout:g} s")
            if "error" in box:
                raise box["error"]
            resp = box["resp"]
            if resp.status_code == 200:
                self.last_entries = check_feed(resp.content)
            return resp

    return _CheckedSession


def _read_bounded(resp: Any) -> Any:
    """``resp`` (streamed) with its body read into ``resp.content``, unpacked a chunk at a time
    (urllib3 undoes gzip one chunk per read, so memory stays near :data:`MAX_UNPACKED_MIB`).
    :raises MalformedFeed: the body passes :data:`MAX_UNPACKED_MIB` MiB unpacked (the rest is never read)."""
    parts: list[bytes] = []
    size = 0
    for part in resp.iter_content(1 << 16):
        size += len(part)
        if size > MAX_UNPACKED_MIB << 20:
            resp.close()
            raise MalformedFeed(f"answer larger than {MAX_UNPACKED_MIB} MiB unpacked")
        parts.append(part)
    resp._content = b"".join(parts)  # what ``Response.content`` would have read, kept for it
    return resp


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
        batch of 100 costs one extra request, not the run (issue 12). A batch of several ids
        that comes back whole and empty is no answer: :class:`ArxivUnavailable` (the ids are
        unverified, nothing is cached; issue 24). One id alone answered with an empty feed is
        not found.

        :param ids: valid ids, each bare (``2607.26627``: latest version) or versioned
            (``2607.26627v2``: sent as is, CASES.md C01); duplicates are asked once. An
            old-style id's subject class is dropped on the wire (``math.GT/0309136`` ->
            ``math/0309136``, the form arXiv answers with).
        :returns: every asked id -> its record, or None when arXiv returned no entry for it,
            plus the ids arXiv answered alone with a well-formed empty feed. A versioned id
            matches only an entry whose ``get_short_id()`` is exactly that id; records are
            de-duplicated by short id.
        :raises ArxivUnavailable: HTTP error after the client's retries, connection failure,
            timeout, a response that is not a well-formed Atom feed, or an empty feed for
            several ids; nothing is returned for the batch.
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
            if len(batch) > 1 and whole and entries == 0:
                # arXiv answers a batch with an entry per id it knows and an "Error" entry or a
                # totalResults for the rest: a whole feed with nothing for several ids is no answer
                # about them (issue 24: it was cached as not-found for each)
                raise ArxivUnavailable(f"arXiv answered an empty feed for a batch of {len(batch)} ids", batch)
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
        except MalformedFeed as exc:
            raise ArxivUnavailable(f"malformed response from arXiv: {exc.detail}", batch) from None
        except requests.exceptions.Timeout:
            raise ArxivUnavailable(f"arXiv did not answer within {self.settings.timeout:g} s", batch) from None
        except requests.exceptions.ConnectionError as exc:
            raise ArxivUnavailable(_connection_reason(exc, self.settings.api_url), batch) from None
        except (requests.exceptions.RequestException, arxiv.ArxivError) as exc:
            raise ArxivUnavailable(f"arXiv request failed: {exc}", batch) from None
        entries = self._session.last_entries if self._session else None
        return records, whole, entries


def _connection_reason(exc: Exception, api_url: str) -> str:
    """The reason of a failed connection: a server that answered bytes that are no HTTP
    response (no status line, bad headers) sent a malformed response; one that closed the
    connection without a byte, or was never reached, is unreachable."""
    seen: list[object] = [exc]
    done: set[int] = set()
    while seen:
        cause = seen.pop()
        if id(cause) in done:
            continue
        done.add(id(cause))
        if isinstance(cause, http.client.RemoteDisconnected):
            return f"arXiv closed the connection at {api_url} without an answer"
        if isinstance(cause, http.client.HTTPException):
            return f"malformed response from arXiv: not an HTTP response ({type(cause).__name__}: {str(cause)[:80]!r})"
        if isinstance(cause, BaseException):
            seen += [a for a in cause.args if isinstance(a, BaseException)]
            seen += [c for c in (cause.__cause__, cause.__context__) if c is not None]
    return f"arXiv unreachable at {api_url}"


@dataclass(slots=True)
class BatchAnswer:
    """What arXiv said about a batch: a record or None per id, and which ids it answered
    alone with a well-formed empty feed (the only "not found" that may overwrite a cached
    "found", see :class:`kb.verify.lookup.Lookup`)."""

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


