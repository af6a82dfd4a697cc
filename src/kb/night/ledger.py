"""The source ledger (``kb sources``): per author and per cited site, what became of its numbers.

The one place that decides a source's record. A *number* is a fact (a value with a metric or
unit, never a date: the diff's ``numbers``) of a ``secondhand`` claim about a subject of the
topic, as :class:`kb.facts.attributor.Attributor` attributes it; one per (subject, raw, path:line).
Its *source* is the claim's author (the inbox folder) and each site (host of a URL in
``Claim.sources``, ``www.`` dropped) the claim cites. Its fate, from the diff of the topic over
every dated file of the KB (:func:`kb.night.run.run_night`, the nightly diff itself), first that
applies:

1. ``backed``: a paper-fact of the KB states the same value (not among the diff's
   ``secondhand_only``);
2. ``contradicted``: the diff lists it in a conflict in which another value is stated by a
   paper-fact or by the living doc;
3. ``in-doc``: the living doc states the same value (the diff's own same-fact rule,
   ``kb.facts.same.same_fact``: "taken into the living doc");
4. ``unsettled``: anything else (only other secondhand sources agree or disagree).

The fates are as the KB stands now: whether the backing came before or after the number
is not looked at. Without a topic, every topic of ``kb.yaml`` that has a living document is
diffed, and a number seen by several keeps its best fate in the order above.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal
from urllib.parse import urlsplit

from kb.core.errors import OptionError
from kb.core.paths import doc_path, regular_file
from kb.core.window import HISTORY_WINDOWS, Window
from kb.facts.attributor import Fact
from kb.facts.same import SameFacts
from kb.night.doc_index import changelog_ranges
from kb.night.model import ConflictOut, ValueOut
from kb.night.run import Night, check_topic, run_night
from kb.night.share import NightShare
from kb.night.sweep import sweep
from kb.store.workspace import Kb

Fate = Literal["backed", "contradicted", "in-doc", "unsettled"]
FATES: tuple[Fate, ...] = ("backed", "contradicted", "in-doc", "unsettled")
"""The fates, in the order that decides (the first that applies wins)."""


@dataclass(slots=True)
class Number:
    """One number of a secondhand claim and its fate.

    :ivar subject: subject key; :ivar metric: metric key or None; :ivar raw: as written.
    :ivar source: ``path:line``; :ivar author: the claim's author, or None.
    :ivar sites: hosts of the URLs the claim cites. :ivar against: for a contradicted number,
        the ``path:line`` of every statement of the other values that a paper-fact or the
        living doc states (the diff's value groups).
    """

    subject: str
    metric: str | None
    raw: str
    source: str
    author: str | None
    sites: tuple[str, ...]
    fate: Fate
    against: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Record:
    """One source's record: ``jay: 41 numbers, 3 contradicted by the doc or a paper``.

    :ivar source: author name or site host; :ivar type: ``author`` or ``site``.
    :ivar contradicted_at: ``path:line`` of each of its contradicted numbers.
    """

    source: str
    type: Literal["author", "site"]
    numbers: int = 0
    backed: int = 0
    contradicted: int = 0
    in_doc: int = 0
    unsettled: int = 0
    contradicted_at: list[str] = field(default_factory=list)

    def add(self, n: Number) -> None:
        """Count one number."""
        self.numbers += 1
        attr = n.fate.replace("-", "_")
        setattr(self, attr, getattr(self, attr) + 1)
        if n.fate == "contradicted" and n.source not in self.contradicted_at:
            self.contradicted_at.append(n.source)

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of one record (docs/sources.md)."""
        return {"source": self.source, "type": self.type, "numbers": self.numbers, "backed": self.backed,
                "contradicted": self.contradicted, "in_doc": self.in_doc, "unsettled": self.unsettled,
                "contradicted_at": list(self.contradicted_at)}


@dataclass(slots=True)
class Ledger:
    """Every source's record and the numbers behind them."""

    topics: list[str]
    records: list[Record]
    numbers: list[Number]

    def record(self, source: str, type: str = "author") -> Record | None:
        """The record of one author (or site), else None."""
        return next((r for r in self.records if r.source == source and r.type == type), None)

    def as_dict(self) -> dict[str, Any]:
        """What ``kb sources --format json`` prints."""
        return {"topics": self.topics, "sources": [r.as_dict() for r in self.records]}


def site_of(url: str) -> str | None:
    """``https://www.example-news.com/a`` -> ``example-news.com``; None for what is no http(s) URL."""
    if not url.lower().startswith(("http://", "https://")):
        return None
    host = (urlsplit(url).hostname or "").lower()
    return host.removeprefix("www.") or None


def ledger_topics(kb: Kb, topic: str | None) -> list[str]:
    """The topics a ledger diffs: ``topic`` (checked), else every ``kb.yaml`` topic with a
    living document.

    :raises UsageError: ``topic`` is unknown (the message lists the configured ones).
    """
    if topic is not None:
        check_topic(kb, topic)
        return [topic]
    return [t for t in kb.config.topic_names() if regular_file(kb.root, doc_path(t))]


def all_time(kb: Kb, since: datetime | None = None, until: datetime | None = None) -> Window:
    """The window holding every dated file of the KB: from the earliest ``written_at`` (or
    ``since``) to one minute after the latest (or ``until``).

    :raises UsageError: ``since`` is not before ``until``.
    """
    lo, hi = kb.store.written_span()
    tz = kb.config.tzinfo
    now = datetime.now(tz).replace(second=0, microsecond=0)
    start = since or (datetime.fromisoformat(lo).astimezone(tz) if lo else now - timedelta(minutes=1))
    end = until or (datetime.fromisoformat(hi).astimezone(tz) + timedelta(minutes=1) if hi else now)
    if start >= end:
        raise OptionError("{0} {start} is not before {1} {end}", "since", "until", start=start.isoformat(),
                          end=end.isoformat())
    return Window(start, end)


BRIEF_NIGHTS = 0
"""Earlier nights a brief's record also counts (:func:`brief_ledger`). 0: the night's own
numbers, from the diff the brief already ran (no second diff). Each earlier night costs a
diff of more files: on the 12,000-file synthetic KB (benchmarks/gen_kb.py) a night's diff takes
0.9 s, a ledger of the night and the 7 before it 11.4 s (measured before issue 24, when
``kb.night.conflicts.find_conflicts`` compared every pair of files stating a subject), so the brief stays
on its own night."""


def history_window(night_window: Window, nights: int | None = None) -> Window:
    """The night and the ``nights`` windows of the same length before it (default
    :data:`kb.core.window.HISTORY_WINDOWS`, the nights the density compares)."""
    step = night_window.until - night_window.since
    back = HISTORY_WINDOWS if nights is None else nights
    return Window(night_window.since - back * step, night_window.until)


def brief_ledger(night: Night, nights: int = BRIEF_NIGHTS) -> Ledger:
    """The ledger behind a brief's records: the night's own numbers (``nights`` 0, from its
    diff), else those of the night and the ``nights`` before it (:func:`history_window`)."""
    if nights <= 0:
        return ledger_of([night.topic], night_numbers(night))
    return build_ledger(night.kb, night.topic, history_window(night.window, nights))


def topic_numbers(kb: Kb, topic: str, window: Window | None = None, share: NightShare | None = None) -> list[Number]:
    """The numbers of secondhand claims about ``topic``'s subjects, each with its fate, from
    the topic's diff over ``window`` (default :func:`all_time`: every dated file) by
    :func:`kb.night.run.run_night` (``share``: the per-file work of the other topics' nights)."""
    return night_numbers(run_night(kb, topic, window if window is not None else all_time(kb), share=share))


def night_numbers(night: Night) -> list[Number]:
    """The numbers of a :class:`kb.night.run.Night`'s secondhand claims with their fates, from
    that night's own diff result and its Attributor (the brief reuses its diff: no second diff)."""
    kb, r = night.kb, night.result
    listed = {s.key for s in r.subjects}
    unsupported = {(s.subject, s.raw, s.source) for s in r.secondhand_only}
    claims = sorted(night.claims.values(), key=lambda c: (c.provenance.path, c.provenance.line))
    at = night.attributor
    at.learn([*claims, *night.doc.claims])
    doc_facts: dict[str, list[Fact]] = {}
    logs = changelog_ranges([(x.line, x.label, x.title) for x in night.doc.sections])
    for c in night.doc.claims:
        if any(a <= c.provenance.line <= b for a, b in logs):
            continue  # a value only the change log states is no value of the doc (DocIndex, the diff's rule)
        for f in at.view(c).facts:
            doc_facts.setdefault(f.group, []).append(f)
    tol = kb.config.tolerance
    in_doc = {g: SameFacts(fs, tol) for g, fs in doc_facts.items()}  # looked up per number, not scanned
    firm = _firm_values(r.conflicts)
    out: list[Number] = []
    seen: set[tuple[str, str, str]] = set()
    for c in claims:
        if c.kind != "secondhand":
            continue
        sites = tuple(dict.fromkeys(s for u in c.sources if (s := site_of(u))))
        for f in at.view(c).facts:
            key = (f.subject, f.raw, f.source)
            if f.is_date or f.subject not in listed or key in seen:
                continue
            seen.add(key)
            against = _against(firm, f.subject, f.metric, f.source)
            if key not in unsupported:
                fate: Fate = "backed"
            elif against:
                fate = "contradicted"
            elif f.group in in_doc and in_doc[f.group].holds(f):
                fate = "in-doc"
            else:
                fate = "unsettled"
            out.append(Number(f.subject, f.metric, f.raw, f.source, c.provenance.author, sites, fate,
                              against if fate == "contradicted" else []))
    return out


_Firm = dict[tuple[str, str], list[tuple[dict[str, int], list[tuple[int, ValueOut]]]]]


def _firm_values(conflicts: Iterable[ConflictOut]) -> _Firm:
    """Per ``(subject, metric)``, each conflict's value by source (the first value holding it)
    and its paper-fact or living-doc values, indexed once: a night of thousands of numbers of
    one subject looks each up, never scans every value of the conflict for each number."""
    out: _Firm = {}
    for c in conflicts:
        where: dict[str, int] = {}
        for i, v in enumerate(c.values):
            for s in v.sources:
                where.setdefault(s, i)
        firm = [(i, v) for i, v in enumerate(c.values) if "paper-fact" in v.kinds or "living-doc" in v.origin]
        out.setdefault((c.subject, c.metric), []).append((where, firm))
    return out


def _against(firm: _Firm, subject: str, metric: str | None, source: str) -> list[str]:
    """Sources of the paper-fact or living-doc values of the diff's conflicts that hold the
    value ``source`` states (subject and metric as the conflict's), other than that value."""
    out: list[str] = []
    for where, values in firm.get((subject, metric or ""), ()):
        mine = where.get(source)
        if mine is None:
            continue
        for i, v in values:
            if i != mine:
                out.extend(s for s in v.sources if s not in out)
    return out


def build_ledger(kb: Kb, topic: str | None = None, window: Window | None = None) -> Ledger:
    """The ledger of ``topic`` (else of every topic with a living doc), records sorted: authors
    before sites, then most numbers first, then by name.

    :param window: the files whose numbers count (default: every dated file of the KB).
    :raises UsageError: unknown topic.
    """
    topics = ledger_topics(kb, topic)
    window = window if window is not None else all_time(kb)
    share = NightShare()  # every topic's night reads the same files: read once (not once per topic)
    if len(topics) < 2:
        return ledger_of(topics, (n for t in topics for n in topic_numbers(kb, t, window, share)))
    # several topics: each night diffs the claims whose fates it can change (kb.night.sweep)
    rank = {f: i for i, f in enumerate(FATES)}
    return ledger_of(topics, sweep(
        kb, topics, window, share, numbers=night_numbers, whole=lambda t: topic_numbers(kb, t, window, share),
        key=lambda n: (n.subject, n.raw, n.source), subject=lambda n: n.subject, rank=lambda n: rank[n.fate],
        best=rank["backed"], held_fate=rank["contradicted"]))


def ledger_of(topics: list[str], found: Iterable[Number]) -> Ledger:
    """The :class:`Ledger` of numbers (a number found by several topics keeps its best fate,
    in the order of :data:`FATES`)."""
    best: dict[tuple[str, str, str], Number] = {}
    for n in found:
        key = (n.subject, n.raw, n.source)
        if key not in best or FATES.index(n.fate) < FATES.index(best[key].fate):
            best[key] = n
    numbers = [best[k] for k in sorted(best, key=lambda k: (k[2].rsplit(":", 1)[0], int(k[2].rsplit(":", 1)[1]), k[1]))]
    records: dict[tuple[str, str], Record] = {}
    for n in numbers:
        owners = ([("author", n.author)] if n.author else []) + [("site", s) for s in n.sites]
        for type_, name in owners:
            records.setdefault((type_, name), Record(name, type_)).add(n)  # type: ignore[arg-type]
    ordered = sorted(records.values(), key=lambda r: (r.type != "author", -r.numbers, r.source))
    return Ledger(topics, ordered, numbers)


def record_line(r: Record, lang: str = "en") -> str:
    """``jay: 41 numbers, 3 contradicted by the doc or a paper`` (zh ``jay：41 个数字，3 个与活文档/论文不符``);
    with none: ``jay: 41 numbers, none contradicted by the doc or a paper`` (zh ``jay：41 个数字，无与活文档/论文不符``).

    The words say what ``contradicted`` counts (the module docstring, fate 2): a conflict in
    which the living doc or a paper-fact states another value, settled or not; not that the
    number was later overturned (tester5's ``mira：11 个数字，1 个后被推翻`` was H2O's 10×
    against the doc's 5×, which nobody had settled)."""
    if lang == "zh":
        tail = f"{r.contradicted} 个与活文档/论文不符" if r.contradicted else "无与活文档/论文不符"
        return f"{r.source}：{r.numbers} 个数字，{tail}"
    noun = "number" if r.numbers == 1 else "numbers"
    tail = f"{r.contradicted or 'none'} contradicted by the doc or a paper"
    return f"{r.source}: {r.numbers} {noun}, {tail}"


__all__ = ["BRIEF_NIGHTS", "FATES", "Ledger", "Number", "Record", "brief_ledger", "build_ledger", "history_window", "ledger_of", "night_numbers",
           "record_line", "site_of", "topic_numbers"]
