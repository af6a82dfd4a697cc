"""The timeline of a subject's values (``kb history``): every source's and every doc version's.

:func:`subject_history` reads a subject's values through the Attributor (the facts
``kb diff`` compares: :meth:`kb.facts.attributor.Attributor.view`), from the sources (inbox files,
cards) and from every version of each living doc (:func:`kb.read.versions.load_version`), and
groups them by :func:`kb.facts.values.same_value`. What the KB held at a date (``--as-of``)
is :class:`kb.history.held.Held`.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from kb.core.paths import doc_path, regular_file
from kb.extract.metrics import MetricVocab, lower_same_length, normalise
from kb.facts.near import NearIndex
from kb.facts.query import ClaimFilter, resolve_metric, resolve_subject, select_viewed
from kb.facts.values import same_value
from kb.history.held import Held
from kb.night.run import check_topic
from kb.read.livedoc import LivingDoc, load_living_doc, unknown_version_note, version_label
from kb.read.versions import conflicting_snapshots, git_versions, history_versions, load_version, skipped_snapshots

if TYPE_CHECKING:
    from kb.facts.attributor import Fact
    from kb.read.parse import Parser
    from kb.store.workspace import Kb


class SourceValue(BaseModel):
    """One value a source (inbox file, card, any file but a living doc) states about the subject."""

    at: str | None
    """When it was written (``written_at``: ISO with offset), None for a file without a stamp."""
    path: str
    line: int
    author: str | None
    kind: str
    role: str
    metric: str | None
    raw: str
    """The value as written (``2026-03-21``, ``1,300 万``)."""
    value: float | str | None
    """The ISO date (dates), else the number, else None (a range: see low/high)."""
    low: float | None = None
    high: float | None = None
    unit: str | None = None
    precision: str | None = None
    """For dates: ``year``, ``month``, ``day`` or ``minute``."""
    qualifier: str | None = None
    group: int
    """Index into :attr:`History.values`: sources stating the same value share it."""
    text: str
    start: int | None = Field(default=None, exclude=True)
    """Where ``raw`` is in ``text`` (characters, :attr:`kb.core.claims.Quantity.start`), else
    None; for showing the text around it on a long line (not in the JSON)."""


class DocValue(BaseModel):
    """A value one version of a living doc states about the subject (``value`` None: the line
    names the metric but gives no value, e.g. ``维护模式（日期待核）``)."""

    line: int
    section: str | None
    metric: str | None
    raw: str | None
    value: float | str | None
    low: float | None = None
    high: float | None = None
    unit: str | None = None
    precision: str | None = None
    group: int | None
    text: str


class DocVersion(BaseModel):
    """One version of a topic's living doc and what it held about the subject."""

    topic: str
    version: int | None
    """Its number (a snapshot's file name's when its front matter gives none); None: unknown."""
    updated: str | None
    path: str
    """Where kb read it: the current file, ``history/<topic>/vN.md`` or ``<doc>@<git rev>``."""
    current: bool
    values: list[DocValue] = Field(default_factory=list)


class ValueGroup(BaseModel):
    """Values that are the same (:func:`kb.facts.values.same_value`), with where and when they were said."""

    group: int
    metric: str | None
    raw: str
    """The first wording seen."""
    value: float | str | None
    first_at: str | None
    """Earliest stamp of a source or doc version stating it."""
    sources: list[str]
    """``path:line`` of each source stating it."""
    versions: list[str]
    """``<topic> vN`` of each doc version holding it."""


class History(BaseModel):
    """JSON of ``kb history`` (docs/history.md)."""

    subject: str
    label: str
    metric: str | None
    topics: list[str]
    as_of: str | None = None
    values: list[ValueGroup] = Field(default_factory=list)
    sources: list[SourceValue] = Field(default_factory=list)
    versions: list[DocVersion] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


def _names_metric(vocab: MetricVocab, text: str, metric: str) -> bool:
    """True when ``text`` holds a phrase the vocabulary gives ``metric`` (the vocabulary's own
    pattern and :meth:`~kb.extract.metrics.MetricVocab.phrase_metric`)."""
    return any(vocab.phrase_metric(m.group()) == metric
               for m in vocab.pattern.finditer(lower_same_length(normalise(text))))


def _value(f: Fact) -> float | str | None:
    return f.date if f.date is not None else f.value


def subject_history(kb: Kb, subject: str, *, metric: str | None = None, topic: str | None = None,
                    held: Held | None = None) -> History:
    """The timeline of ``subject``'s values: every source's and every doc version's.

    :param subject: as ``kb claims --subject`` takes it (:func:`kb.facts.query.resolve_subject`).
    :param metric: a metric key or phrase (:func:`kb.facts.query.resolve_metric`); None: every metric.
    :param topic: one topic's living doc; None: every topic with a living doc.
    :param held: only what the KB held then (``--as-of``): sources before the cut, versions
        updated before it.
    :raises UsageError: unknown subject, metric or topic.
    """
    from kb.read.parse import Parser

    keys = resolve_subject(kb, subject, "SUBJECT")
    wanted_metric = resolve_metric(kb, metric) if metric is not None else None  # '' is asked for: an error
    topics = [topic] if topic else sorted(PurePosixPath(f.path).stem for f in kb.store.files(role="living-doc"))
    for name in sorted({*topics, *kb.config.topic_names()}):  # a doc that is a pipe or a folder: an error
        regular_file(kb.root, doc_path(name))
    if topic:
        check_topic(kb, topic)
    at, claims = select_viewed(kb, ClaimFilter(subject=subject, held=held))
    wanted = set(keys) | {at.group(k) for k in keys}

    def ours(f: Fact) -> bool:
        return (f.subject in wanted or f.group in wanted) and (wanted_metric is None or f.metric == wanted_metric)

    out = History(subject=keys[0], label=at.label(at.group(keys[0])), metric=wanted_metric, topics=topics,
                  as_of=held.given if held else None)
    groups: list[tuple[Fact, ValueGroup]] = []
    tol = kb.config.tolerance
    # the first group whose first value is the same value, by index (comparing each value with
    # every group was N² on one line of thousands of values): same unit by magnitude, others scanned
    heads, units = NearIndex(tol), defaultdict(lambda: defaultdict(list))

    def group_of(f: Fact, when: str | None, where: str, version: str | None) -> int:
        near = [*heads.near(f, (f.metric, f.unit)),
                *(i for u, ids in units[f.metric].items() if u != f.unit for i in ids)]  # other units convert
        i = min((i for i in near if same_value(groups[i][0], f, tol)), default=None)
        if i is None:
            heads.add(f, len(groups), (f.metric, f.unit))
            units[f.metric][f.unit].append(len(groups))
            groups.append((f, ValueGroup(group=len(groups), metric=f.metric, raw=f.raw, value=_value(f), first_at=when,
                                         sources=[], versions=[])))
            i = len(groups) - 1
        home = groups[i]
        g = home[1]
        if when is not None and (g.first_at is None or datetime.fromisoformat(when) < datetime.fromisoformat(g.first_at)):
            g.first_at = when
        if version is None:
            g.sources.append(where)
        elif version not in g.versions:
            g.versions.append(version)
        return g.group

    # doc versions first, oldest first, so a group's first wording is the oldest doc's
    parser = Parser(kb.config)
    vocab = MetricVocab(kb.config.metrics)
    for t in topics:
        if held is None:  # (Held names them itself)
            out.notes.extend(skipped_snapshots(kb.root, t))
        out.notes.extend(conflicting_snapshots(kb.root, t))
        for doc, current, number in _versions(kb, t, parser, held):
            at.learn(doc.claims)
            if doc.version is None:
                out.notes.append(unknown_version_note(doc.path, number))
            dv = DocVersion(topic=t, version=number, path=doc.path, current=current,
                            updated=doc.updated.isoformat() if doc.updated else None)
            name = f"{t} {version_label(number)}"
            for c in doc.claims:
                view = at.view(c)
                facts = [f for f in view.facts if ours(f)]
                sec = doc.section_at(c.provenance.line)
                label = sec.label if sec else None
                for f in facts:
                    dv.values.append(DocValue(line=f.line, section=label, metric=f.metric, raw=f.raw, value=_value(f),
                                              low=f.low, high=f.high, unit=f.unit, precision=f.precision,
                                              group=group_of(f, dv.updated, f"{doc.path}:{f.line}", name), text=c.text))
                if not facts and wanted_metric and (wanted & {*view.subjects, *(f.subject for f in view.facts)}) \
                        and _names_metric(vocab, c.text, wanted_metric):
                    dv.values.append(DocValue(line=c.provenance.line, section=label, metric=wanted_metric, raw=None,
                                              value=None, group=None, text=c.text))
            out.versions.append(dv)
    rows = []
    for c in claims:
        if c.role == "living-doc" or c.provenance.path.startswith("organized/knowledge/"):
            continue  # the doc's lines are read per version above
        p = c.provenance
        for f in at.view(c).facts:
            if ours(f):
                rows.append((p.written_at or "", p.path, f.line, c, f))
    rows.sort(key=lambda r: (datetime.fromisoformat(r[0]) if r[0] else datetime.max.replace(tzinfo=kb.config.tzinfo),
                             r[1], r[2]))
    starts: dict[int, dict[str, int]] = {}  # claim -> raw -> its first place (no search of a long line per value)
    for _, path, line, c, f in rows:
        p = c.provenance
        if id(c) not in starts:
            starts[id(c)] = {}
            for q in c.quantities:
                starts[id(c)].setdefault(q.raw, q.start)
        out.sources.append(SourceValue(at=p.written_at, path=path, line=line, author=p.author, kind=c.kind, role=c.role,
                                       metric=f.metric, raw=f.raw, value=_value(f), low=f.low, high=f.high,
                                       unit=f.unit, precision=f.precision, qualifier=f.qualifier,
                                       group=group_of(f, p.written_at, f"{path}:{line}", None), text=c.text,
                                       start=starts[id(c)].get(f.raw)))
        if p.written_at is None:
            out.notes.append(f"{path}: no stamp; its value {f.raw} has no place in time")
    out.values = [g for _, g in groups]
    if held is not None:
        out.notes = held.notes + out.notes
    return out


def _versions(kb: Kb, topic: str, parser: Parser, held: Held | None) -> list[tuple[LivingDoc, bool, int | None]]:
    """Every version of ``topic``'s living doc kb finds (history snapshots, git, the current
    file: :func:`kb.read.versions.load_version`), oldest first, with "is the current file" and
    its number (a snapshot's file name's when its front matter gives none; None for a current
    file without one); with ``held``, only those updated before its cut (a version without
    ``updated`` is kept)."""
    try:
        current = load_living_doc(kb.root, topic, parser)
    except FileNotFoundError:
        return []
    numbers = set(history_versions(kb.root, topic)) | set(git_versions(kb.root, topic))  # (skipped ones: Held/notes)
    if current.version is not None:
        numbers.add(current.version)
    out: list[tuple[LivingDoc, bool, int | None]] = []
    for n in sorted(numbers):
        doc = current if n == current.version else load_version(kb.root, topic, n, parser)
        if held is None or doc.updated is None or held.holds(doc.updated):
            out.append((doc, n == current.version, n))
    if current.version is None and (held is None or current.updated is None or held.holds(current.updated)):
        out.append((current, True, None))
    return out
