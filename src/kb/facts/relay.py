"""Relay chains: which claims repeat a value from another file of the KB or from a shared source.

The one place kb decides what a claim relays (issue 10 part 1; docs/trace.md). Rules:

1. **A citation of a KB file** and 2. **a shared source**: what a claim cites
   (:mod:`kb.facts.cites`, which states the two rules; :class:`kb.facts.cites.Resolver`).
3. **Hops** are facts (:class:`kb.facts.fact.Fact`, through the Attributor: subject group,
   metric, qualifier, value) of one subject, with a metric. A hop that cites a file relays the
   fact of that file with the same metric (:func:`_relayed`): of a compatible qualifier
   (:func:`kb.facts.same.compatible`) and the same value (:func:`kb.facts.values.same_value`), else of the same
   value under another set-up, else the first of a compatible qualifier by line; hops that cite one source,
   metric by metric, relay it; a citation no relay can be (a later file, a cycle) links nothing
   (:func:`_odd_citations`). Hops linked so form one chain; a hop citing nothing that nobody
   cites is a chain of its own: two sources stating the same value without citing are never
   linked.
4. **Order and change.** A chain's hops are ordered by written time (:attr:`Provenance.written_at`,
   then path and line), earliest first. A hop relaying a file is compared with the fact it
   relays. A hop relaying a source is compared with the hops of other files that cite one of
   its sources directly (no ``via``) and were written before it; a hop that read the source
   through a reprint, with those of any time; one citing a primary source itself, with none (a first-hand
   reading: :class:`kb.facts.earlier.References`). A hop whose value is the
   same as none of these is where the value *changed*; one with nothing to compare with did not
   change. Statements of one file are never compared with each other.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any

from kb.core.claims import Claim, is_derived
from kb.core.errors import OptionError
from kb.facts.attributor import Attributor
from kb.facts.cites import Resolver, Unresolved, resolver_for
from kb.facts.earlier import References
from kb.facts.fact import Fact
from kb.facts.query import attributor, candidates, resolve_metric, resolve_subject
from kb.facts.same import compatible
from kb.facts.values import same_value
from kb.store.workspace import Kb


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
    odd, impossible = _odd_citations(hops, resolver)
    unresolved += odd
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
            if (id(h), path) in impossible:  # named above; no hop: the line is a first statement
                continue
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
        refs = References(members, tol)  # what a hop relaying a source is compared with (rule 4)
        for h in members:
            up = relayed.get(id(h))
            if up is not None:
                h.upstream, h.upstream_raw = up.source, up.fact.raw
                h.changed = not same_value(up.fact, h.fact, tol)
            elif h.origins:
                h.upstream = h.origins[0]
                found = refs.compare(h)
                if found is not None:
                    same, first = found
                    h.upstream_raw = (same or first).fact.raw
                    h.changed = same is None
        out.append(Chain(subject, members[0].fact.metric or "", members, sources))
    out.sort(key=lambda ch: (ch.metric, ch.hops[0].order))
    return out, list(dict.fromkeys(unresolved))


def _odd_citations(hops: Sequence[Hop], resolver: Resolver) -> tuple[list[Unresolved], set[tuple[int, str]]]:
    """Citations a relay cannot be, named and never drawn as a hop: ``(named, impossible)``.
    Named: a file citing one written after it; files citing each other (each cycle once, from
    its first hop). Impossible, ``(id(hop), cited path)``: a citation of a later file, and one
    within a cycle left without those (files of one time: none is first); its citing line is a
    first statement. A cycle the later-file rule breaks keeps the later file's citation."""
    out: list[Unresolved] = []
    impossible: set[tuple[int, str]] = set()
    cites: dict[str, set[str]] = defaultdict(set)
    possible: dict[str, set[str]] = defaultdict(set)
    first: dict[str, Hop] = {}
    for h in hops:
        here = h.claim.provenance.path
        first.setdefault(here, h)
        for path in h.files:
            cites[here].add(path)
            info = resolver.files.get(path)
            mine = h.claim.provenance.written_at
            if info is not None and info.written_at and mine and _later(info.written_at, mine):
                impossible.add((id(h), path))
                out.append(Unresolved(h.source, path, f"written {info.written_at[:16].replace('T', ' ')}, after the "
                                                      f"citing file ({mine[:16].replace('T', ' ')}): a relay cannot repeat it"))
            else:
                possible[here].add(path)
    for cycle in _cycles(cites):
        start = min((first[p] for p in cycle if p in first), key=lambda h: h.order, default=None)
        if start is not None:
            out.append(Unresolved(start.source, " → ".join([*cycle, cycle[0]]),
                                  "the files cite each other (a citation cycle): no file of it is the first"))
    within = {p: set(cycle) for cycle in _cycles(possible) for p in cycle}
    impossible |= {(id(h), path) for h in hops for path in h.files if path in within.get(h.claim.provenance.path, ())}
    return out, impossible


def _later(a: str, b: str) -> bool:
    """ISO time ``a`` is after ``b`` (offsets compared; text order when either does not read)."""
    try:
        return datetime.fromisoformat(a) > datetime.fromisoformat(b)
    except (TypeError, ValueError):
        return a > b


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The cycles of a citation graph: each strongly connected set of two or more files, in
    path order from its first path (Tarjan's algorithm, iterative: linear in files and citations)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def changes(kb: Kb, at: Attributor, claims: Sequence[Claim], wanted: Iterable[tuple[str, str | None]]
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


def _on_topic(kb: Kb, chain: Chain, topic: str) -> bool:
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


def _candidates(kb: Kb, at: Attributor, keys: Sequence[str], metric: str | None) -> list[Claim]:
    """Claims that may state a fact of ``keys``: filed under a key (or its group) or naming one of
    its names, as ``kb claims --subject`` takes them (:func:`kb.facts.query.select_claims`), and with a
    number or date of ``metric`` (any metric when None) — the parser's metric, in the stored JSON.
    Which of them are about the subject the Attributor decides (:func:`chains`)."""
    mark = f'"metric":"{metric}"' if metric else '"metric":"'
    return [c for c in candidates(kb, at, keys, json_has=mark) if not is_derived(c)]


def trace(kb: Kb, subject: str, *, metric: str | None = None, topic: str | None = None) -> dict[str, Any]:
    """``kb trace``: every relay chain of a subject in an open KB, as the documented JSON shape
    (docs/trace.md).

    :param subject: what the user typed (:func:`kb.facts.query.resolve_subject`).
    :param metric: a metric key (built in or kb.yaml ``metrics``), or None for all.
    :param topic: keep only chains with a hop in a file of this topic.
    :raises UsageError: unknown subject, metric or topic.
    """
    keys = resolve_subject(kb, subject, "SUBJECT")
    if metric is not None:
        metric = resolve_metric(kb, metric)
    if topic is not None and topic not in kb.config.topic_names():
        raise OptionError("{0} {topic!r}: not a topic of kb.yaml; known: {known}", "topic", topic=topic,
                          known=", ".join(kb.config.topic_names()))
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
        "chains": [c.to_json() | {"source_labels": {s: labels.get(s, s.removeprefix("url:"))
                                                    for s in c.sources}} for c in found],
        "unresolved": [u.to_json() for u in dict.fromkeys(unresolved)],
    }
