"""What a claim cites, for relay chains (rules 1 and 2 of :mod:`kb.facts.relay`): the KB files
it names and the shared sources it reads, resolved against the store's files.

1. **A citation of a KB file** is one of
   * a KB path the parser read into :attr:`kb.core.claims.Claim.sources`
     (:func:`kb.extract.refs.find_kb_paths`): ``inbox/spark/2026-07-31-llm-infra-e1prep.md``,
     ``organized/…md``, ``paper_cards/681``, ``paper_cards/681-2607-26627.md``;
   * an author's briefing by its time, ``<author> HHMM`` (``据 jay 1735 简报``, ``jay 1335 引用的``):
     the author's inbox file written at that minute on the citing file's day;
   * an author's E1 of a topic, ``<author> 的 <topic> E1`` / ``<author>'s <topic> E1``: the
     newest ``inbox/<author>/…-<topic>-e1prep.md`` written at or before the citing claim.
   A claim citing no URL and no KB path takes those of its section's ``来源：``/``source:`` line
   (the section: from its heading to the next). Authors are the folders under ``inbox/``. A
   reference that resolves to no file, or to several, is reported (:class:`Unresolved`), never
   guessed.
2. **A shared source** is a URL of the claim (its ``sources``, else its section's source line as
   above), compared without scheme, ``www.``, fragment and trailing ``/``; or a named site,
   ``<entity> 博客`` / ``<entity> 官方博客`` / ``<entity> blog`` (a kb.yaml entity), which a URL
   also cites when its host names the entity and its host or first path segment is ``blog``
   (``https://vllm.ai/blog``, ``https://blog.vllm.ai/…``). A claim that names a site but whose
   own URLs are of another site read it through them (a reprint): those URLs are its ``via``,
   not its source. arXiv ids and DOIs are subjects, never shared sources (the diff compares a
   paper's values).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from kb.core.claims import Claim
from kb.extract.names import entity_key
from kb.extract.refs import find_kb_paths, find_urls
from kb.facts.attributor import Attributor
from kb.store.lines import file_lines
from kb.store.workspace import Kb

_SOURCE_LINE_RE = re.compile(r"^\s*(?:来源|出处|sources?|引用|refs?)\s*[:：]", re.IGNORECASE)
"""A section's source line (the parser's own test of a ``来源：`` line, kb.read.parse)."""
_LIST_MARK_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])?\s*(?:\*\*|__)?")
_SITE_AFTER_RE = re.compile(r"^\s*(?:的\s*)?(?:官方\s*)?(?:博客|官博)|^(?:'s)?\s+(?:official\s+)?blog\b",
                            re.IGNORECASE)
_TIME_REF = (r"(?P<hh>[01]\d|2[0-3])(?P<mm>[0-5]\d)(?!\d|\s*年|[-/.:,]\d"
             # a count or a measure, not a time: "tom 1500 stars", "jay 1200 tok/s"
             r"|\s*(?:%|×|倍|万|亿|[kKMB]\b|x\b|tok|token|ms\b|s\b|秒|分钟|小时|个|条|篇|次|份|人|元|美元|GB|MB|TB"
             r"|stars?|commits?|votes?|票|行|words?|lines?|req|requests?|users?|pages?|papers?))")
_E1_REF = r"(?:的|'s)?\s*(?P<topic>[A-Za-z][A-Za-z0-9_-]*)\s*(?:E1|e1prep)(?![A-Za-z0-9])"


@dataclass(frozen=True, slots=True)
class Unresolved:
    """A reference to a KB file that names no file or several: ``source`` is ``path:line``."""

    source: str
    ref: str
    reason: str

    def to_json(self) -> dict[str, str]:
        """``{"source", "ref", "reason"}`` (docs/trace.md)."""
        return {"source": self.source, "ref": self.ref, "reason": self.reason}


@dataclass(slots=True)
class FileInfo:
    """What the resolver knows of one file of the store."""

    path: str
    role: str
    author: str | None
    written_at: str | None


class FileIndex:
    """The store's files, looked up by path or folder when a reference asks (a night reads a
    few rows, never all 12,000).

    :param db: the store (:class:`kb.store.db.Store`).
    """

    def __init__(self, db: Any) -> None:
        self.db = db
        self._under: dict[str, list[FileInfo]] = {}

    def get(self, path: str) -> FileInfo | None:
        """The file at ``path`` (KB-relative), else None."""
        r = self.db.file_info(path)
        return FileInfo(*r) if r else None

    def under(self, prefix: str) -> list[FileInfo]:
        """Files whose path starts with ``prefix``, by path (a range of the primary key)."""
        hit = self._under.get(prefix)
        if hit is None:
            rows = self.db.file_infos_under(prefix)
            hit = self._under[prefix] = [FileInfo(*r) for r in rows]
        return hit


def norm_url(url: str) -> str:
    """``url`` as relays compare it: host lower-cased without ``www.``, no scheme, fragment or
    trailing ``/`` (``https://www.InfoQ.cn/a/`` -> ``infoq.cn/a``)."""
    u = urlsplit(url.strip())
    host = (u.hostname or "").lower().removeprefix("www.")
    path = u.path.rstrip("/")
    return host + path + (f"?{u.query}" if u.query else "")


class Resolver:
    """Turns a claim's citations into KB paths and source keys (rules 1 and 2 of the module).

    :param files: the store's files.
    :param entities: kb.yaml canonical entity names (their keys name sites).
    :param at: the KB's Attributor (its name matcher finds named sites).
    :param text_of: path -> ``(lines of the file as stored, 1-based lines of its headings in
        ascending order)``, for a section's source lines; ``([], [])`` when the file cannot be read.
    """

    def __init__(self, files: FileIndex, entities: Iterable[str], at: Attributor,
                 text_of: Callable[[str], tuple[list[str], list[int]]]) -> None:
        self.files = files
        self.at = at
        self.text_of = text_of
        # any word before a time or an E1 may be an author: the folder decides (inbox/<author>/)
        self._ref_re = re.compile(rf"(?<![A-Za-z0-9_/.'-])(?P<author>[A-Za-z][A-Za-z0-9_-]{{0,31}})"
                                  rf"\s*(?:{_TIME_REF}|{_E1_REF})")
        self._site_names = {re.sub(r"[\s_-]", "", e.lower()): entity_key(e) for e in entities}
        self._sections: dict[tuple[str, int], list[str]] = {}
        # each claim read once a night: a subject's chains ask again for every subject of a line
        self._memo: dict[tuple[str, int], tuple[Claim, Any]] = {}

    # -- files -----------------------------------------------------------------------------------

    def file_refs(self, claim: Claim) -> tuple[list[str], list[Unresolved]]:
        """KB files ``claim`` cites (resolved paths, in text order) and references that resolve
        to none or several (read once per claim: a line of many subjects is not read again)."""
        files, bad = self._once("files", claim, self._file_refs)
        return list(files), list(bad)

    def _once(self, what: str, claim: Claim, read: Callable[[Claim], Any]) -> Any:
        key = (what, id(claim))
        if key not in self._memo or self._memo[key][0] is not claim:
            self._memo[key] = (claim, read(claim))
        return self._memo[key][1]

    def _file_refs(self, claim: Claim) -> tuple[list[str], list[Unresolved]]:
        found: list[str] = []
        bad: list[Unresolved] = []
        src = f"{claim.provenance.path}:{claim.provenance.line}"
        own = [s for s in claim.sources if not s.startswith(("http", "arxiv:", "doi:"))]
        if _cites_nothing(claim):  # it takes its section's source line
            own = [s for s in self._section_refs(claim) if not s.startswith("http")]
        for s in own:
            paths, why = self._path(s)
            if len(paths) == 1:
                found.append(paths[0])
            else:
                bad.append(Unresolved(src, s, why or f"{len(paths)} files match: {', '.join(paths[:4])}"))
        for m in self._ref_re.finditer(claim.text):
            mine = self._author_files(m.group("author"))
            if mine is not None:
                paths, why = self._briefing(m, claim, mine)
                if len(paths) == 1:
                    found.append(paths[0])
                else:
                    bad.append(Unresolved(src, m.group(0).strip(),
                                          why or f"{len(paths)} files match: {', '.join(paths[:4])}"))
        for ref, why in _outside_refs(claim.text):  # never followed, never dropped without a word (issue 24)
            bad.append(Unresolved(src, ref, why))
        here = claim.provenance.path
        if here in found:  # a file citing itself is no hop, and is said so
            bad.append(Unresolved(src, here, "the file cites itself: a citation of its own file is no source"))
        return [p for p in dict.fromkeys(found) if p != here], bad

    def _author_files(self, word: str) -> list[FileInfo] | None:
        """The inbox files of author ``word`` (its folder, as written or lower-cased), or None
        when no folder ``inbox/<word>/`` exists (the word is no author)."""
        for name in dict.fromkeys((word, word.lower())):
            mine = self.files.under(f"inbox/{name}/")
            if mine:
                return mine
        return None

    def _path(self, ref: str) -> tuple[list[str], str | None]:
        ref = ref.lstrip("./")
        for cand in (ref, "organized/" + ref):
            if self.files.get(cand) is not None:
                return [cand], None
        m = re.match(r"(?:organized/)?paper_cards/([^/]+?)(?:\.md)?$", ref)
        if m:
            stem = m.group(1)
            hits = [f.path for f in self.files.under(f"organized/paper_cards/{stem}")
                    if PurePosixPath(f.path).stem == stem or PurePosixPath(f.path).stem.startswith(stem + "-")]
            return hits, None if hits else f"no paper card {stem} in the KB"
        return [], "no such file in the KB"

    def _briefing(self, m: re.Match[str], claim: Claim, mine: list[FileInfo]) -> tuple[list[str], str | None]:
        author = m.group("author")
        at = claim.provenance.written_at or ""
        if m.group("hh"):
            day, hm = at[:10], f"{m.group('hh')}:{m.group('mm')}"
            hits = sorted(f.path for f in mine
                          if (f.written_at or "")[:10] == day and (f.written_at or "")[11:16] == hm)
            return hits, None if hits else f"no briefing by {author} written at {hm} on {day or 'that day'}"
        topic = m.group("topic")
        e1 = [f for f in mine if PurePosixPath(f.path).name.endswith(f"-{topic}-e1prep.md")
              and (not at or (f.written_at or "") <= at)]
        if not e1:
            return [], f"no {topic} E1 by {author} written before {at[:16].replace('T', ' ') or 'it'}"
        newest = max(f.written_at or "" for f in e1)
        return sorted(f.path for f in e1 if (f.written_at or "") == newest), None

    # -- shared sources --------------------------------------------------------------------------

    def source_refs(self, claim: Claim) -> tuple[list[str], list[str]]:
        """Source keys ``claim`` cites (``url:…``, ``site:…``) and the URLs it read a named site
        through (rule 2); read once per claim."""
        keys, via = self._once("sources", claim, self._source_refs)
        return list(keys), list(via)

    def _source_refs(self, claim: Claim) -> tuple[list[str], list[str]]:
        urls = [u for u in claim.sources if u.startswith("http")]
        if _cites_nothing(claim):
            urls = [u for u in self._section_refs(claim) if u.startswith("http")]
        sites = self._named_sites(claim.text)
        keys: list[str] = []
        via: list[str] = []
        for u in urls:
            site = self._url_site(u)
            if sites and site not in sites:
                via.append(u)
                continue
            keys.append("url:" + norm_url(u))
            if site:
                keys.append(site)
        keys += sites
        return list(dict.fromkeys(keys)), via

    def _section_refs(self, claim: Claim) -> list[str]:
        """URLs and KB paths of the ``来源：``/``Source:`` lines of the innermost section holding
        ``claim`` (from its heading to the next heading, or the whole file when it has none)."""
        p = claim.provenance
        lines, heads = self.text_of(p.path)
        # the headings are sorted: a bisection, not a scan of every heading per claim (a file of
        # thousands of sections, each holding a claim, was quadratic)
        i = bisect_right(heads, p.line)
        start = heads[i - 1] if i else 1
        end = heads[i] if i < len(heads) else len(lines) + 1
        key = (p.path, start)
        hit = self._sections.get(key)
        if hit is None:
            hit = []
            for line in lines[start - 1:end - 1]:
                if _SOURCE_LINE_RE.match(_LIST_MARK_RE.sub("", line)):
                    hit += [u for u, _, _ in find_urls(line)] + [k for k, _, _ in find_kb_paths(line)]
            self._sections[key] = hit
        return hit

    def _named_sites(self, text: str) -> list[str]:
        if "博客" not in text and "官博" not in text and "blog" not in text.lower():
            return []  # the name matcher is costly (every card title); most texts name no blog
        out = []
        for key, _, end in self.at.matcher.find(text):
            if key.startswith("entity:") and _SITE_AFTER_RE.match(text[end:end + 12]):
                out.append(f"site:{key}/blog")
        return list(dict.fromkeys(out))

    def _url_site(self, url: str) -> str | None:
        u = urlsplit(url)
        labels = (u.hostname or "").lower().split(".")
        first = u.path.strip("/").split("/")[0].lower()
        if "blog" not in labels and first != "blog":
            return None
        for label in labels[:-1]:
            key = self._site_names.get(label)
            if key:
                return f"site:{key}/blog"
        return None


_FILE_EXTS = "md|markdown|txt|text|pdf|docx?|odt|rtf|html?|csv|tsv|json|jsonl|ya?ml|toml|rst|org|tex|ipynb|pptx?|xlsx?|log"
_OUTSIDE_RE = re.compile(r"(?<![\w.\-/:%])(?P<path>(?:~|[A-Za-z]:)?(?:\.\./|\./|/|\\)[^\s，。；、（）()\[\]<>\"'`]*?"
                         rf"\.(?:{_FILE_EXTS})(?![\w-])"
                         r"|(?:\.\./)+[^\s，。；、（）()\[\]<>\"'`,;]*[^\s，。；、（）()\[\]<>\"'`,;.:!?])", re.IGNORECASE)
"""A file (Markdown, text, PDF, office, data: :data:`_FILE_EXTS`) named by an absolute path
(``/home/u/kb/inbox/…md``, ``C:/…``, ``~/…``), relative to the citing file (``./a.md``) or through ``../`` (``../notes.txt``,
``../x.pdf``), and any path through ``../`` (``../../etc/passwd``): outside the KB, or not a
KB path."""


def _outside_refs(text: str) -> list[tuple[str, str]]:
    """``(reference, reason)`` of the files ``text`` cites outside the KB's own paths (not in
    a URL): kb follows only KB-relative citations (rule 1), and says so."""
    if "/" not in text and "\\" not in text:
        return []
    urls = [(a, b) for _, a, b in find_urls(text)]
    out = []
    for m in _OUTSIDE_RE.finditer(text):
        if any(a <= m.start() < b for a, b in urls):
            continue
        ref = m.group("path")
        why = ("a path that leaves the KB (../); kb follows citations of KB files only (inbox/…, organized/…)"
               if ref.startswith("../") else
               "a path relative to the citing file (./); kb follows KB-relative citations only (inbox/…, organized/…)"
               if ref.startswith("./") else
               "an absolute path; kb follows KB-relative citations only (inbox/…, organized/…)")
        out.append((ref, why))
    return out


def _cites_nothing(claim: Claim) -> bool:
    """No URL and no KB path of its own (arXiv ids and DOIs are its subjects, not its sources):
    such a claim takes those of its section's source line (rule 2)."""
    return all(s.startswith(("arxiv:", "doi:")) for s in claim.sources)


def resolver_for(kb: Kb, at: Attributor) -> Resolver:
    """A :class:`Resolver` over an open KB (:class:`kb.store.workspace.Kb`): its store's files, its
    kb.yaml entities, claims of a file read from the store once."""
    cache: dict[str, tuple[list[str], list[int]]] = {}

    def text_of(path: str) -> tuple[list[str], list[int]]:
        if path not in cache:
            row = kb.store.file(path)
            lines, _ = file_lines(kb.root, path)  # none when it cannot be read any more
            cache[path] = (lines, sorted(int(h["line"]) for h in (row.headings if row else []) if h.get("line")))
        return cache[path]

    return Resolver(FileIndex(kb.store), kb.config.entities, at, text_of)
