"""Conflicts of a night: between the window and the living doc and between window files, with
what the paper itself states (a value the paper states is support, never a conflict).

Split from :mod:`kb.night.rules` (which calls :func:`find_conflicts`); pure, like it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from kb.core.claims import Claim
from kb.facts.attributor import Attributor, View
from kb.facts.fact import Fact
from kb.facts.near import NearIndex
from kb.facts.same import Grouped, comparable, disjoint_from, same_fact
from kb.facts.values import close, plain_point, same_value
from kb.night.doc_index import DocIndex
from kb.night.model import ConflictOut, SubjectOut, ValueOut
from kb.read.cards import Card


def uniq(items: Iterable[str]) -> list[str]:
    """``items`` without repeats, in first-seen order."""
    return list(dict.fromkeys(items))


class PaperEvidence:
    """What the paper itself states about a subject: the paper-facts of its card (any date), of
    the doc's ``论文报告`` lines and of the window. A window value the paper states is support,
    never a conflict with the doc (issue 20): the doc then lacks one of the paper's values."""

    def __init__(self, at: Attributor, views: Iterable[View], card_claims: Callable[[Card], Iterable[Claim]],
                 tol: float) -> None:
        self._at = at
        self._card_claims = card_claims
        self._tol = tol
        self._by_group: dict[str, list[Fact]] = defaultdict(list)
        self._seen: set[tuple[str, str, str]] = set()  # (claim, raw, group): a card in the window once
        for v in views:
            if v.claim.kind == "paper-fact":
                for f in v.facts:
                    self._add(f)
        self._cards_read: set[str] = set()

    def _add(self, f: Fact) -> None:
        if (f.claim_id, f.raw, f.group) not in self._seen:
            self._seen.add((f.claim_id, f.raw, f.group))
            self._by_group[f.group].append(f)

    def _facts(self, f: Fact) -> list[Fact]:
        card = self._at.card_of(f.subject) if f.subject else None
        if card is not None and card.path not in self._cards_read:
            self._cards_read.add(card.path)
            for c in self._card_claims(card):
                if c.kind == "paper-fact":
                    for g in self._at.view(c).facts:
                        self._add(g)
        return self._by_group.get(f.group, [])

    def states(self, f: Fact) -> Fact | None:
        """A paper-fact of another claim (a card, a ``论文报告`` line) stating ``f``'s value (:func:`same_fact`),
        else None: a window paper-fact is no support of itself ("the paper reports 45%" vs the doc's 30%)."""
        return next((p for p in self._facts(f) if p.claim_id != f.claim_id and same_fact(f, p, self._tol)), None)


def by_path(facts: Iterable[Fact]) -> dict[str, list[Fact]]:
    """Facts grouped by the file that states them, in order of appearance."""
    out: dict[str, list[Fact]] = defaultdict(list)
    for f in facts:
        out[f.path].append(f)
    return out


def find_conflicts(views: Sequence[View], doc: DocIndex, listed: Mapping[str, SubjectOut], tol: float,
                   papers: PaperEvidence | None = None, apart: Collection[str] = ()) -> list[ConflictOut]:
    """Conflicts against the doc and between window files, one record per subject/metric/qualifier
    (a window value the paper states is none against the doc: :class:`PaperEvidence`; the figures
    of ``apart``, claims whose author says they are not directly comparable, are in none).

    Between window files: :func:`kb.facts.same.disjoint_from` of every ordered pair of files,
    found from the distinct values (:func:`_window_conflicts`; 206 s for 1,200 files before)."""
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}

    def record(f: Fact, against: str, members: Iterable[tuple[Fact, str]]) -> None:
        entry = groups.setdefault((f.subject, f.metric or "", f.qualifier or ""),
                                  {"against": set(), "members": [], "seen": set()})
        entry["against"].add(against)
        for m in members:
            if (id(m[0]), m[1]) not in entry["seen"]:
                entry["seen"].add((id(m[0]), m[1]))
                entry["members"].append(m)

    by_subject: dict[str, list[Fact]] = defaultdict(list)
    for v in views:
        if apart and v.claim.id in apart:
            continue
        for f in v.facts:
            if f.metric and f.subject in listed:
                by_subject[f.subject].append(f)
    for subject in sorted(by_subject):
        paths = by_path(by_subject[subject])
        doc_facts = doc.facts.get(by_subject[subject][0].group, [])
        doc_grouped = Grouped(doc_facts)
        grouped = {path: Grouped(facts) for path, facts in paths.items()}
        for path in sorted(paths):
            for f in disjoint_from(grouped[path], doc_grouped, tol):
                if papers is not None and papers.states(f) is not None:
                    continue
                record(f, "living-doc", [(f, "window"), *((d, "living-doc") for d in doc_facts if comparable(f, d))])
        _window_conflicts(grouped, tol, record)
    _drop_contained(groups)
    return [ConflictOut(subject=subject, metric=metric, qualifier=qualifier or None, against=sorted(entry["against"]),
                        values=value_groups(entry["members"], tol)) for (subject, metric, qualifier), entry in sorted(groups.items())]


def _drop_contained(groups: dict[tuple[str, str, str], dict[str, Any]]) -> None:
    """Drop a conflict whose values are all in another conflict of the same subject and metric
    (its qualifier one set-up of the other's: ``gpus8+h100`` beside ``gpus8+h100+llama-3.1-70b``,
    the same 3,000 and 2,750 listed twice), its ``against`` joined to the one kept; of two with the
    same values, the one with the finer qualifier (more written) stays. Past 64
    qualifiers of one subject and metric, all are kept (the check is pairwise)."""
    by_metric: dict[tuple[str, str], list[tuple[str, str, str]]] = defaultdict(list)
    for key in groups:
        by_metric[key[:2]].append(key)
    for keys in by_metric.values():
        if not 1 < len(keys) <= 64:
            continue
        ids = {k: {(id(f), side) for f, side in groups[k]["members"]} for k in keys}
        for k in sorted(keys, key=lambda k: (len(ids[k]), len(k[2]), k[2])):  # of two alike, the finer set-up stays
            if k not in groups:
                continue
            wider = next((o for o in keys if o != k and o in groups and ids[k] <= ids[o]), None)
            if wider is not None:
                groups[wider]["against"] |= groups.pop(k)["against"]


def _window_conflicts(grouped: Mapping[str, Grouped], tol: float,
                      record: Callable[[Fact, str, Iterable[tuple[Fact, str]]], None]) -> None:
    """The conflicts between the window files of one subject (``grouped``: path -> its facts), as
    :func:`kb.facts.same.disjoint_from` of every ordered pair finds them (a file's facts conflict
    with another's when, per metric and qualifier, the other states a rival and the two share no
    value): which files share a value is read per distinct value (:class:`kb.facts.near.NearIndex`),
    so 1,200 files stating one subject cost sets of files, not 1.4M comparisons."""
    by_any: dict[tuple[Any, ...], list[str]] = defaultdict(list)
    for path in sorted(grouped):
        for key in grouped[path].by_any:
            by_any[key].append(path)
    for any_key, paths in by_any.items():
        if len(paths) < 2:
            continue
        # which files share a value: per distinct value, its files; per value, the values it is
        sigs: dict[tuple[Any, ...], int] = {}
        sig_fact: list[Fact] = []
        sig_paths: list[set[str]] = []
        path_sigs: dict[str, set[int]] = defaultdict(set)
        for path in paths:
            for g in grouped[path].by_any[any_key]:
                sid = sigs.setdefault((g.value, g.low, g.high, g.bound, g.date, g.precision), len(sigs))
                if sid == len(sig_fact):
                    sig_fact.append(g)
                    sig_paths.append(set())
                sig_paths[sid].add(path)
                path_sigs[path].add(sid)
        index = NearIndex(tol)
        for sid, g in enumerate(sig_fact):
            index.add(g, sid, key=0)
        plain = [plain_point(g) for g in sig_fact]  # two plain points of one unit: close() decides

        def alike(a: int, b: int) -> bool:
            pa, pb = plain[a], plain[b]
            if pa is not None and pb is not None and pa[0] == pb[0]:
                return close(pa[1], pb[1], tol)
            return same_value(sig_fact[a], sig_fact[b], tol)

        same = [[o for o in index.near(g, key=0) if alike(sid, o)] for sid, g in enumerate(sig_fact)]
        shares = {p: set().union(*(sig_paths[o] for sid in path_sigs[p] for o in same[sid])) for p in paths}
        # which files state a rival for each qualifier (as disjoint_from: exact only past 64 set-ups)
        quals = sorted({k[-1] for p in paths for k in grouped[p].by_key if k[:-1] == any_key}, key=str)
        tokens = {q: frozenset(q.split("+")) for q in quals if q}

        def setup(a: str | None, b: str | None) -> bool:
            return a == b or (bool(a) and bool(b) and (tokens[a] <= tokens[b] or tokens[b] <= tokens[a]))  # type: ignore[index]

        for qual in quals:
            key = (*any_key, qual)
            rivals = {p for p in paths if (key in grouped[p].by_key if len(grouped[p].quals[any_key]) > 64
                                          else any(setup(q, qual) for q in grouped[p].quals[any_key]))}
            if not rivals:
                continue
            head: Fact | None = None
            conflicting: list[str] = []  # files with a rival they share no value with (counted, no n² sets)
            for p in paths:
                peers = grouped[p].by_key.get(key)
                if not peers or len(rivals) - (p in rivals) - len(shares[p] & rivals) + (p in shares[p] and p in rivals) <= 0:
                    continue
                conflicting.append(p)
                head = head or peers[0]
                for f in peers:
                    record(f, "window", [(f, "window")])
            against = _against(rivals, conflicting, shares)
            for q in sorted(against):  # the other side: the facts of each file in conflict comparable to them
                comp = {id(g) for qq in grouped[q].quals[any_key] if setup(qq, qual) for g in grouped[q].by_key[(*any_key, qq)]}
                record(head, "window", [(g, "window") for g in grouped[q].facts if id(g) in comp])  # type: ignore[arg-type]


def _against(rivals: set[str], conflicting: list[str], shares: Mapping[str, set[str]]) -> set[str]:
    """The rivals some file of ``conflicting`` shares no value with (the union of ``rivals −
    shares[p] − {p}``), in time of the rivals plus the smallest share: a rival is left out only
    when every such file is it or shares with it, so only the smallest share's files need a look."""
    if not conflicting:
        return set()
    first = min(conflicting, key=lambda p: len(shares[p]))
    out = rivals - shares[first]
    out.discard(first)
    for q in (shares[first] | {first}) & rivals:
        if any(q != p and q not in shares[p] for p in conflicting):
            out.add(q)
    return out


def value_groups(members: Sequence[tuple[Fact, str]], tol: float) -> list[ValueOut]:
    """Cluster facts by value (within tolerance / at shared date precision), doc values first."""
    clusters: list[list[tuple[Fact, str]]] = []
    seen: set[tuple[str, str]] = set()
    heads, units = NearIndex(tol), defaultdict(list)  # the first cluster whose head is the same value, by index
    for f, origin in sorted(members, key=lambda m: (m[1] != "living-doc", m[0].path, m[0].line, m[0].raw)):
        if (f.source, f.raw) in seen:
            continue
        seen.add((f.source, f.raw))
        near = [*heads.near(f), *(i for u, ids in units.items() if u != f.unit for i in ids)]  # other units convert
        home = min((i for i in near if same_value(clusters[i][0][0], f, tol)), default=None)
        if home is None:
            heads.add(f, len(clusters))
            units[f.unit].append(len(clusters))
            clusters.append([(f, origin)])
        else:
            clusters[home].append((f, origin))
    return [ValueOut(raw=c[0][0].raw, value=c[0][0].value_out, high=c[0][0].high, kinds=sorted({f.kind for f, _ in c}),
                     sources=uniq(f.source for f, _ in c), origin=sorted({o for _, o in c})) for c in clusters]
