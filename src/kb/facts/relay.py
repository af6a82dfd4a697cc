"""Relay chains: which claims repeat a value from another file of the KB or from a shared source.

The one place kb decides what a claim relays (issue 10 part 1; docs/trace.md). Rules:

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
3. **Hops** are facts (:class:`kb.facts.fact.Fact`, through the Attributor: subject group,
   metric, qualifier, value) of one subject, with a metric. A hop that cites a file relays the
   fact of that file with the same metric (:func:`_relayed`): of a compatible qualifier
   (:func:`kb.facts.same.compatible`) and the same value (:func:`kb.facts.values.same_value`), else of the same
   value under another set-up, else the first of a compatible qualifier by line; hops that cite one source,
   metric by metric, relay it. Hops linked so form one chain; a hop citing nothing that nobody
   cites is a chain of its own: two sources stating the same value without citing are never
   linked.
4. **Order and change.** A chain's hops are ordered by written time (:attr:`Provenance.written_at`,
   then path and line), earliest first. A hop relaying a file is compared with the fact it
   relays. A hop relaying a source is compared with the hops of other files that cite one of
   its sources directly (no ``via``) and were written before it; a hop that read the source
   through a reprint, with those of any time (:func:`_references`). A hop whose value is the
   same as none of these is where the value *changed*; one with nothing to compare with did not
   change. Statements of one file are never compared with each other.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from kb.core.claims import Claim, is_derived
from kb.core.errors import KbError
from kb.extract.names import entity_key
from kb.extract.refs import find_kb_paths, find_urls
from kb.facts.attributor import Attributor
from kb.facts.fact import Fact
from kb.facts.same import compatible
from kb.facts.values import same_value

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
class Hop:
    """One statement of a value in a chain.

    :ivar files: KB paths the claim cites (resolved); ``origins``: source keys it cites
        (``url:…``, ``site:entity:vllm/blog``); ``via``: URLs it read a named site through.
    :ivar upstream: ``path:line`` of the hop it relays, a source key, or None (the first).
    :ivar changed: its value is not the same as its upstream's.
    """

    claim: Claim
    fact: Fact
    files: list[str] = field(default_factory=list)
    origins: list[str] = field(default_factory=list)
    via: list[str] = field(default_factory=list)
    upstream: str | None = None
    upstream_raw: str | None = None
    changed: bool = False

    @property
    def source(self) -> str:
        """``path:line`` of the claim."""
        return f"{self.claim.provenance.path}:{self.claim.provenance.line}"

    @property
    def order(self) -> tuple[str, str, int]:
        """Sort key: written time (ISO text; none sorts first), path, line."""
        p = self.claim.provenance
        return (p.written_at or "", p.path, p.line)

    def to_json(self) -> dict[str, Any]:
        """One hop of ``kb trace --format json`` (docs/trace.md)."""
        p = self.claim.provenance
        f = self.fact
        return {"source": self.source, "path": p.path, "line": p.line, "author": p.author,
                "written_at": p.written_at, "kind": self.claim.kind, "raw": f.raw, "value": f.value_out,
                "unit": f.unit, "qualifier": f.qualifier, "cites": {"files": self.files, "sources": self.origins},
                "via": self.via, "upstream": self.upstream, "changed": self.changed,
                "changed_from": self.upstream_raw if self.changed else None, "text": self.claim.text}


@dataclass(slots=True)
class Chain:
    """Hops of one value's relay, earliest first; ``sources``: the shared sources they cite."""

    subject: str
    metric: str
    hops: list[Hop]
    sources: list[str]

    @property
    def changed_at(self) -> list[str]:
        """``path:line`` of the hops where the value changed."""
        return [h.source for h in self.hops if h.changed]

    def to_json(self) -> dict[str, Any]:
        """One chain of ``kb trace --format json`` (docs/trace.md), without ``source_labels``."""
        return {"subject": self.subject, "metric": self.metric, "sources": self.sources,
                "first": self.hops[0].source, "value": _source_raw(self),
                "changed_at": self.changed_at, "hops": [h.to_json() for h in self.hops]}


def _source_raw(chain: Chain) -> str:
    """The value a chain starts from: that of its first hop whose value did not change."""
    return next((h.fact.raw for h in chain.hops if not h.changed), chain.hops[0].fact.raw)


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

    :param db: the store's SQLite connection (:attr:`kb.store.db.Store.db`).
    """

    def __init__(self, db: Any) -> None:
        self.db = db
        self._under: dict[str, list[FileInfo]] = {}

    def get(self, path: str) -> FileInfo | None:
        """The file at ``path`` (KB-relative), else None."""
        r = self.db.execute("SELECT path, role, author, written_at FROM files WHERE path=?", (path,)).fetchone()
        return FileInfo(*r) if r else None

    def under(self, prefix: str) -> list[FileInfo]:
        """Files whose path starts with ``prefix``, by path (a range of the primary key)."""
        hit = self._under.get(prefix)
        if hit is None:
            rows = self.db.execute("SELECT path, role, author, written_at FROM files WHERE path >= ? AND path < ? "
                                   "ORDER BY path", (prefix, prefix + "\U0010ffff"))
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
    :param text_of: path -> ``(lines of the file as stored, 1-based lines of its headings)``,
        for a section's source lines; ``([], [])`` when the file cannot be read.
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

    # -- files -----------------------------------------------------------------------------------

    def file_refs(self, claim: Claim) -> tuple[list[str], list[Unresolved]]:
        """KB files ``claim`` cites (resolved paths, in text order) and references that resolve
        to none or several."""
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
        here = claim.provenance.path
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
        through (rule 2)."""
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
        start = max((h for h in heads if h <= p.line), default=1)
        end = min((h for h in heads if h > p.line), default=len(lines) + 1)
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


def _cites_nothing(claim: Claim) -> bool:
    """No URL and no KB path of its own (arXiv ids and DOIs are its subjects, not its sources):
    such a claim takes those of its section's source line (rule 2)."""
    return all(s.startswith(("arxiv:", "doi:")) for s in claim.sources)


def _references(h: Hop, members: Sequence[Hop]) -> list[Hop]:
    """What a hop relaying a source is compared with (rule 4): the hops of other files citing one
    of its sources directly (no ``via``) and written before it; for a hop that read the source
    through a reprint, those written at any time. Empty: nothing to compare with."""
    path = h.claim.provenance.path
    direct = [x for x in members if x is not h and not x.via and x.claim.provenance.path != path
              and set(x.origins) & set(h.origins)]
    earlier = [x for x in direct if x.order < h.order]
    return earlier or (direct if h.via else [])


def _relayed(h: Hop, cited: Sequence[Hop], tol: float) -> Hop | None:
    """The fact of a cited file that hop ``h`` relays (rule 3), first that applies: one of a
    compatible qualifier (:func:`kb.facts.same.compatible`) and the same value; one of the same metric and
    value under another set-up (the relay restates the figure, naming its conditions
    otherwise); the first of a compatible qualifier, by line (the value changed); else None."""
    same_metric = [x for x in cited if x.fact.metric == h.fact.metric]
    fits = [x for x in same_metric if compatible(x.fact, h.fact)]
    return (next((x for x in fits if same_value(x.fact, h.fact, tol)), None)
            or next((x for x in same_metric if same_value(x.fact, h.fact, tol)), None)
            or (fits[0] if fits else None))


def chains(claims: Iterable[Claim], at: Attributor, resolver: Resolver, subject: str, *,
           metric: str | None = None, tol: float = 0.02) -> tuple[list[Chain], list[Unresolved]]:
    """The relay chains of ``subject`` (a key; its group counts) among ``claims`` (rules 3 and 4).

    :param claims: candidate claims (those about the subject; others are passed over).
    :param metric: only facts of this metric key; None: every fact with a metric.
    :returns: chains by (metric, first hop's time), and the unresolved references of the
        claims that state a fact of the subject.
    """
    group = at.group(subject)
    hops: list[Hop] = []
    unresolved: list[Unresolved] = []
    seen: set[tuple[str, str, int]] = set()
    for c in claims:
        facts = [f for f in at.view(c).facts if f.metric and (f.group == group or f.subject == subject)
                 and (metric is None or f.metric == metric)]
        if not facts:
            continue
        files, bad = resolver.file_refs(c)
        origins, via = resolver.source_refs(c)
        unresolved += bad
        for f in facts:
            if (c.id, f.raw, c.provenance.line) in seen:
                continue
            seen.add((c.id, f.raw, c.provenance.line))
            hops.append(Hop(c, f, list(files), list(origins), list(via)))
    hops.sort(key=lambda h: h.order)
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.get(x, x) != x:
            parent[x] = parent.get(parent[x], parent[x])
            x = parent[x]
        return x

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    ids = {id(h): f"h{i:06d}" for i, h in enumerate(hops)}
    # a source is shared per metric: one blog post's two figures are two chains
    okey = {id(h): [f"{h.fact.metric}|{o}" for o in h.origins] for h in hops}
    by_file: dict[str, list[Hop]] = defaultdict(list)
    for h in hops:
        by_file[h.claim.provenance.path].append(h)
    relayed: dict[int, Hop] = {}
    for h in hops:
        for o in okey[id(h)]:
            union(ids[id(h)], o)
        for path in h.files:
            up = _relayed(h, by_file.get(path, []), tol)
            if up is None:
                continue
            relayed[id(h)] = up
            union(ids[id(h)], ids[id(up)])
    groups: dict[str, list[Hop]] = defaultdict(list)
    for h in hops:
        groups[find(ids[id(h)])].append(h)
    out: list[Chain] = []
    for members in groups.values():
        members.sort(key=lambda h: h.order)
        sources = list(dict.fromkeys(o for h in members for o in h.origins))
        for h in members:
            up = relayed.get(id(h))
            if up is not None:
                h.upstream, h.upstream_raw = up.source, up.fact.raw
                h.changed = not same_value(up.fact, h.fact, tol)
            elif h.origins:
                h.upstream = h.origins[0]
                refs = _references(h, members)
                if refs:
                    same = next((r for r in refs if same_value(r.fact, h.fact, tol)), None)
                    h.upstream_raw = (same or refs[0]).fact.raw
                    h.changed = same is None
        out.append(Chain(subject, members[0].fact.metric or "", members, sources))
    out.sort(key=lambda ch: (ch.metric, ch.hops[0].order))
    return out, list(dict.fromkeys(unresolved))


def resolver_for(kb: Any, at: Attributor) -> Resolver:
    """A :class:`Resolver` over an open KB (:class:`kb.store.workspace.Kb`): its store's files, its
    kb.yaml entities, claims of a file read from the store once."""
    from kb.core.paths import read_inside
    from kb.core.textio import decode

    cache: dict[str, tuple[list[str], list[int]]] = {}

    def text_of(path: str) -> tuple[list[str], list[int]]:
        if path not in cache:
            row = kb.store.file(path)
            try:
                lines = decode(read_inside(kb.root, path), path).text.split("\n")
            except (OSError, KbError):
                lines = []
            cache[path] = (lines, sorted(int(h["line"]) for h in (row.headings if row else []) if h.get("line")))
        return cache[path]

    return Resolver(FileIndex(kb.store.db), kb.config.entities, at, text_of)


def changes(kb: Any, at: Attributor, claims: Sequence[Claim], wanted: Iterable[tuple[str, str | None]]
            ) -> dict[tuple[str, str | None], list[dict[str, str]]]:
    """Where values changed along relays, for the brief's rows.

    :param claims: the claims to trace among (a night's window and living-doc claims); claims
        of files they cite are read from the store.
    :param wanted: ``(subject key, metric or None)`` pairs.
    :returns: pair -> ``[{"source": "path:line", "raw": new value, "from": upstream value}]``.
    """
    wanted = list(dict.fromkeys(wanted))
    metrics = {m for _, m in wanted}
    # only a claim the parser gave a number or date of a wanted metric can state such a fact
    # (kb.extract.metrics decides metrics; the Attributor reads them): the rest are not viewed
    pool = [c for c in claims if any(x.metric and (None in metrics or x.metric in metrics)
                                     for x in (*c.quantities, *c.dates))]
    resolver = resolver_for(kb, at)
    have = {c.provenance.path for c in claims}
    extra: list[Claim] = []
    for c in pool:
        for p in resolver.file_refs(c)[0]:
            if p not in have:
                have.add(p)
                extra.extend(x for x in kb.store.claims(path=p) if any(
                    y.metric and (None in metrics or y.metric in metrics) for y in (*x.quantities, *x.dates)))
    pool += extra
    # each claim's facts once (Attributor views are cached), then each pair among its own claims
    by_pair: dict[tuple[str, str], list[Claim]] = defaultdict(list)
    for c in pool:
        pairs = (k for f in at.view(c).facts if f.metric for k in ((f.group, f.metric), (f.subject, f.metric)))
        for pair in dict.fromkeys(pairs):
            by_pair[pair].append(c)
    out: dict[tuple[str, str | None], list[dict[str, str]]] = {}
    for subject, metric in wanted:
        if metric is None:
            cands = [c for (s, _), cs in by_pair.items() if s in (subject, at.group(subject)) for c in cs]
        else:
            cands = by_pair.get((at.group(subject), metric), []) + by_pair.get((subject, metric), [])
        unique = list({(c.provenance.path, c.id): c for c in cands}.values())
        found, _ = chains(unique, at, resolver, subject, metric=metric, tol=kb.config.tolerance)
        out[(subject, metric)] = [{"source": h.source, "raw": h.fact.raw, "from": h.upstream_raw or ""}
                                  for ch in found for h in ch.hops if h.changed]
    return out


def _on_topic(kb: Any, chain: Chain, topic: str) -> bool:
    """A hop of ``chain`` is in a file of ``topic``: its living doc (or a version of it), a card
    of one of its categories, or an inbox file whose name or front matter names it."""
    cats = set(kb.config.topic_categories(topic)) | {topic}
    for h in chain.hops:
        p = h.claim.provenance.path
        if p == f"organized/knowledge/{topic}.md" or p.startswith(f"organized/knowledge/history/{topic}/"):
            return True
        row = kb.store.file(p)
        front = row.front if row else {}
        if h.claim.role == "card" and (front.get("category") in cats or cats & set(front.get("also") or [])):
            return True
        if h.claim.role == "inbox" and (f"-{topic}-" in PurePosixPath(p).name or front.get("topic") in cats):
            return True
    return False


def _candidates(kb: Any, at: Attributor, keys: Sequence[str], metric: str | None) -> list[Claim]:
    """Claims that may state a fact of ``keys``: filed under a key (or its group) or naming one of
    its names, as ``kb claims --subject`` takes them (:func:`kb.facts.query.select_claims`), and with a
    number or date of ``metric`` (any metric when None) — the parser's metric, in the stored JSON.
    Which of them are about the subject the Attributor decides (:func:`chains`)."""
    from kb.facts.query import candidates

    mark = f'"metric":"{metric}"' if metric else '"metric":"'
    return [c for c in candidates(kb, at, keys, json_has=mark) if not is_derived(c)]


def trace(kb: Any, subject: str, *, metric: str | None = None, topic: str | None = None) -> dict[str, Any]:
    """``kb trace``: every relay chain of a subject in an open KB, as the documented JSON shape
    (docs/trace.md).

    :param subject: what the user typed (:func:`kb.facts.query.resolve_subject`).
    :param metric: a metric key (built in or kb.yaml ``metrics``), or None for all.
    :param topic: keep only chains with a hop in a file of this topic.
    :raises UsageError: unknown subject, metric or topic.
    """
    from kb.core.errors import UsageError
    from kb.facts.query import attributor, resolve_metric, resolve_subject

    keys = resolve_subject(kb, subject)
    if metric is not None:
        metric = resolve_metric(kb, metric)
    if topic is not None and topic not in kb.config.topic_names():
        raise UsageError(f"--topic {topic!r}: not a topic of kb.yaml; known: {', '.join(kb.config.topic_names())}")
    at = attributor(kb)
    claims = _candidates(kb, at, keys, metric)
    at.learn(claims)
    resolver = resolver_for(kb, at)
    found: list[Chain] = []
    unresolved: list[Unresolved] = []
    for key in keys:
        ch, bad = chains(claims, at, resolver, key, metric=metric, tol=kb.config.tolerance)
        found += ch
        unresolved += bad
    if topic is not None:
        found = [c for c in found if _on_topic(kb, c, topic)]
    labels = {s: at.label(s.split(":", 1)[1].rsplit("/", 1)[0]) + " blog" for c in found for s in c.sources
              if s.startswith("site:")}
    return {
        "subject": keys[0], "label": at.label(keys[0]), "metric": metric, "topic": topic,
        "chains": [c.to_json() | {"source_labels": {s: labels.get(s, s[4:] if s.startswith("url:") else s)
                                                    for s in c.sources}} for c in found],
        "unresolved": [u.to_json() for u in dict.fromkeys(unresolved)],
    }
