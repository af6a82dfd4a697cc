"""A fake arXiv API on 127.0.0.1 (random port) serving ``/api/query`` from Atom entries.

Entries come from Atom files (real ones from ``../shared/realdata/arxiv-atom`` or synthetic
ones under ``tests/fixtures/arxiv``) or from :func:`entry_xml`. A request's ``id_list`` is
answered like arXiv does: a versioned id gets that version's entry, a bare id the entry of
its highest known version, an unknown id nothing. Switches simulate trouble: a queue of
HTTP statuses (503 then success), a permanent status (429), malformed XML, a slow answer,
an answer dripped byte by byte, a gzip-compressed answer, bytes that are no HTTP response, an empty feed, arXiv's
short page (``totalResults`` counting every id asked, so the client's next page is empty), an "Error" entry. ``log`` records every request so tests can assert the id batches.
"""

from __future__ import annotations

import gzip
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

from lxml import etree

ATOM = "http://www.w3.org/2005/Atom"
NS = {"atom": ATOM, "arxiv": "http://arxiv.org/schemas/atom"}
_SHORT_RE = re.compile(r"(?P<base>.+?)(?:v(?P<v>\d+))?")

FEED_HEAD = (
    "<?xml version='1.0' encoding='UTF-8'?>\n"
    '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
    'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">\n'
    "  <id>https://arxiv.org/api/fake</id>\n"
    "  <title>arXiv Query: {query}</title>\n"
    "  <updated>2026-08-01T00:00:00Z</updated>\n"
    '  <link href="https://arxiv.org/api/query?{query}" type="application/atom+xml"/>\n'
    "  <opensearch:itemsPerPage>{per_page}</opensearch:itemsPerPage>\n"
    "  <opensearch:totalResults>{total}</opensearch:totalResults>\n"
    "  <opensearch:startIndex>{start}</opensearch:startIndex>\n"
)


def entry_xml(
    short_id: str,
    title: str,
    *,
    authors: tuple[str, ...] | list[str] = ("A. Author",),
    published: str = "2026-07-30T17:59:59Z",
    updated: str | None = None,
    primary: str = "cs.CL",
    comment: str | None = None,
    journal_ref: str | None = None,
    summary: str = "Synthetic abstract.",
) -> str:
    """One ``<entry>`` in the 2026 API format (element order as arXiv sends it since 2026)."""
    parts = [
        "  <entry>",
        f"    <id>http://arxiv.org/abs/{escape(short_id)}</id>",
        f"    <title>{escape(title)}</title>",
        f"    <updated>{updated or published}</updated>",
        f'    <link href="https://arxiv.org/abs/{escape(short_id)}" rel="alternate" type="text/html"/>',
        f'    <link href="https://arxiv.org/pdf/{escape(short_id)}" rel="related" type="application/pdf" title="pdf"/>',
        f"    <summary>{escape(summary)}</summary>",
        f'    <category term="{escape(primary)}" scheme="http://arxiv.org/schemas/atom"/>',
        f"    <published>{published}</published>",
    ]
    if comment is not None:
        parts.append(f"    <arxiv:comment>{escape(comment)}</arxiv:comment>")
    if journal_ref is not None:
        parts.append(f"    <arxiv:journal_ref>{escape(journal_ref)}</arxiv:journal_ref>")
    parts.append(f'    <arxiv:primary_category term="{escape(primary)}"/>')
    for name in authors:
        parts.append(f"    <author>\n      <name>{escape(name)}</name>\n    </author>")
    parts.append("  </entry>\n")
    return "\n".join(parts)


def error_entry_xml(asked: str) -> str:
    """arXiv's answer to an id it cannot use: an entry titled "Error" (the API's shape)."""
    anchor = f"http://arxiv.org/api/errors#incorrect_id_format_for_{escape(asked)}"
    return (f"  <entry>\n    <id>{anchor}</id>\n    <title>Error</title>\n"
            f"    <summary>incorrect id format for {escape(asked)}</summary>\n"
            "    <updated>2026-08-01T00:00:00-04:00</updated>\n"
            f'    <link href="{anchor}" rel="alternate" type="text/html"/>\n'
            "    <author>\n      <name>arXiv api core</name>\n    </author>\n  </entry>\n")


def feed_xml(entries: list[str], query: str = "", start: int = 0, per_page: int = 100, total: int | None = None) -> str:
    """A whole feed around ``entries`` (strings from :func:`entry_xml`)."""
    head = FEED_HEAD.format(query=escape(query), per_page=per_page, total=len(entries) if total is None else total,
                            start=start)
    return head + "".join(entries) + "</feed>\n"


@dataclass
class Request:
    """One request the server saw."""

    path: str
    query: str
    """The query string as sent (still URL-encoded: ``hep-ex%2F0406020v1``)."""
    params: dict[str, str]
    id_list: list[str]
    status: int


@dataclass
class FakeArxiv:
    """The server state; use :meth:`start`/:meth:`stop` (or the pytest fixture ``fake_arxiv``)."""

    entries: dict[str, str] = field(default_factory=dict)
    """Versioned short id (or bare id, when the entry has no version) -> entry XML."""
    statuses: list[int] = field(default_factory=list)
    """Statuses to answer the next requests with, one popped per request (then normal)."""
    always_status: int | None = None
    """Answer every request with this HTTP status (e.g. 429)."""
    malformed_from: int | None = None
    """Answer request number N (1-based) and later with truncated XML."""
    delay: float = 0.0
    """Seconds to wait before answering (a slow server / client timeout)."""
    empty: bool = False
    """Answer every request with an empty feed (totalResults 0)."""
    verbatim: dict[str, bytes] = field(default_factory=dict)
    """``id_list`` parameter (as decoded) -> a response body served byte for byte."""
    count_asked: bool = False
    """``totalResults`` counts every id asked, known or not (what arXiv does, issue 12): a
    batch holding an unknown id gets a short first page and an empty second one."""
    errors: set[str] = field(default_factory=set)
    """Ids answered with arXiv's "Error" entry (id not an abs URL, no ``published``)."""
    raw: bytes | None = None
    """Answer every request with these bytes and nothing else (no status line, no headers)."""
    drip: float = 0.0
    """Send the whole answer (status line, headers, body) one byte every this many seconds."""
    gzip: bool = False
    """Send every body gzip-compressed with ``Content-Encoding: gzip`` (with :attr:`verbatim`, a gzip bomb)."""
    synthesize: bool = False
    """Invent an entry for any new-style id not otherwise known (bulk tests)."""
    log: list[Request] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # -- content -------------------------------------------------------------------------------

    def add_entry(self, xml: str) -> str:
        """Register one entry (XML text of an ``<entry>``); returns its short id."""
        root = etree.fromstring(
            f'<feed xmlns="{ATOM}" xmlns:arxiv="{NS["arxiv"]}">{xml}</feed>'.encode()
        )
        return self._register(root.find("atom:entry", NS))

    def add(self, short_id: str, title: str, **kw: object) -> str:
        """Register a synthetic entry (arguments of :func:`entry_xml`)."""
        return self.add_entry(entry_xml(short_id, title, **kw))  # type: ignore[arg-type]

    def add_file(self, path: Path) -> list[str]:
        """Register every entry of an Atom feed file; returns their short ids."""
        root = etree.fromstring(path.read_bytes())
        return [self._register(e) for e in root.iterfind("atom:entry", NS)]

    def add_dir(self, folder: Path) -> list[str]:
        """Register every ``*.xml`` feed of a folder (sorted)."""
        return [sid for p in sorted(folder.glob("*.xml")) for sid in self.add_file(p)]

    def _register(self, entry: etree._Element) -> str:
        short = entry.findtext("atom:id", namespaces=NS).split("arxiv.org/abs/")[-1]
        self.entries[short] = etree.tostring(entry, encoding="unicode")
        return short

    def lookup(self, asked: str) -> str | None:
        """The entry arXiv would return for one id of an ``id_list``."""
        if asked in self.entries:
            return self.entries[asked]
        m = _SHORT_RE.fullmatch(asked)
        if m and m.group("v") is None:
            versions = []
            for short in self.entries:
                sm = _SHORT_RE.fullmatch(short)
                if sm and sm.group("base") == asked and sm.group("v"):
                    versions.append((int(sm.group("v")), short))
            if versions:
                return self.entries[max(versions)[1]]
        if self.synthesize and re.fullmatch(r"\d{4}\.\d{4,5}", asked):
            return entry_xml(asked + "v1", f"Synthetic paper {asked}")
        return None

    # -- serving -------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The query endpoint, for ``KB_ARXIV_API``."""
        assert self._server is not None, "server not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}/api/query"

    @property
    def id_lists(self) -> list[list[str]]:
        """The ``id_list`` of every request, in order."""
        return [r.id_list for r in self.log]

    def start(self) -> FakeArxiv:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            wbufsize = 1 << 16  # headers and body leave in one segment (no delayed-ACK stall)
            disable_nagle_algorithm = True

            def log_message(self, *args: object) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # noqa: N802
                fake._handle(self)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._server.handle_error = lambda *a: None  # type: ignore[method-assign]  # client gave up (timeout)
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(h.path)
        params = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        id_list = [x for x in params.get("id_list", "").split(",") if x]
        with self._lock:
            number = len(self.log) + 1
            if parts.path != "/api/query":
                status = 404
            elif self.statuses:
                status = self.statuses.pop(0)
            else:
                status = self.always_status or 200
            self.log.append(Request(parts.path, parts.query, params, id_list, status))
        if self.delay:
            time.sleep(self.delay)
        if self.raw is not None:
            h.close_connection = True
            h.wfile.write(self.raw)
            return
        if status != 200:
            body = f"HTTP {status}\n".encode()
            ctype = "text/plain"
        elif self.malformed_from is not None and number >= self.malformed_from:
            body = (FEED_HEAD.format(query="x", per_page=100, total=1, start=0) + "  <entry>\n    <id>http://arx").encode()
            ctype = "application/atom+xml"
        elif params.get("id_list", "") in self.verbatim:
            body = self.verbatim[params.get("id_list", "")]
            ctype = "application/atom+xml; charset=utf-8"
        else:
            start = int(params.get("start", "0") or 0)
            per_page = int(params.get("max_results", "100") or 100)
            found = [] if self.empty else [e for e in (self.lookup(i) for i in id_list) if e is not None]
            found += [error_entry_xml(i) for i in id_list if i in self.errors]
            page = found[start : start + per_page]
            total = len(id_list) if self.count_asked and not self.empty else len(found)
            body = feed_xml(page, query=parts.query, start=start, per_page=per_page, total=total).encode()
            ctype = "application/atom+xml; charset=utf-8"
        if self.drip:
            self._drip(h, status, ctype, body)
            return
        if self.gzip:
            body = gzip.compress(body)
        try:
            h.send_response(status)
            h.send_header("Content-Type", ctype)
            if self.gzip:
                h.send_header("Content-Encoding", "gzip")
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            h.wfile.write(body)
        except OSError:  # the client timed out and closed the connection
            pass

    def _drip(self, h: BaseHTTPRequestHandler, status: int, ctype: str, body: bytes) -> None:
        """The answer one byte at a time, :attr:`drip` seconds apart (until the server stops)."""
        h.close_connection = True
        whole = (f"HTTP/1.1 {status} OK\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
        try:
            for i in range(len(whole)):
                if self._server is None:
                    return
                h.wfile.write(whole[i : i + 1])
                h.wfile.flush()
                time.sleep(self.drip)
        except OSError:  # the client gave up
            pass
