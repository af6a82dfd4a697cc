"""What the KB held at a date (``--as-of``), and the timeline of a subject's values (``kb history``).

:class:`Held` is the one answer to "what did the KB hold at DATE" (docs/history.md): files
whose stamp (:attr:`kb.core.claims.Provenance.written_at`: front matter, the file-name stamp, a
card's ``created``) is before the cut, the cards created before it, and per topic the living
doc's version current then (:func:`kb.read.livedoc.baseline_for`, which reads ``history/<topic>/vN.md``
and the current file). ``kb claims --as-of``, ``kb diff --as-of`` and ``kb history --as-of``
all ask it. A file without a stamp is left out and named once, in :attr:`Held.notes`.

:func:`subject_history` reads a subject's values through the Attributor (the facts
``kb diff`` compares: :meth:`kb.facts.attributor.Attributor.view`), from the sources (inbox files,
cards) and from every version of each living doc (:func:`kb.read.livedoc.load_version`), and
groups them by :func:`kb.facts.values.same_value`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from kb.core.errors import UsageError
from kb.core.paths import doc_path
from kb.core.window import parse_moment, to_minute
from kb.read.livedoc import LivingDoc
from kb.read.versions import baseline_for, git_versions, history_versions, load_version

if TYPE_CHECKING:
    from kb.core.claims import Claim
    from kb.core.window import Window
    from kb.facts.fact import Fact
    from kb.read.cards import Card
    from kb.store.workspace import Kb


# -- as of -------------------------------------------------------------------------------------


def as_of_cut(value: str, kb: Kb) -> datetime:
    """The exclusive end of what ``--as-of VALUE`` holds, aware in the KB's zone.

    A date alone (``2026-07-30``) is the whole day: the cut is the next day at 00:00 local
    time, so a file stamped that day, at any hour, is held. A date-time
    (``2026-07-31T17:35``) holds what was written up to and including that moment.

    :raises UsageError: not an ISO date or date-time (see :func:`kb.core.window.parse_moment`).
    """
    if not value or not value.strip():
        raise UsageError("--as-of is empty; give a date such as 2026-07-30 or a date-time 2026-07-31T17:35")
    moment = parse_moment(value, kb.config, "--as-of")
    if len(value.strip()) == 10:
        return datetime.combine(moment.date() + timedelta(days=1), time(0, 0), kb.config.tzinfo)
    return moment + timedelta(microseconds=1)


@dataclass(slots=True)
class Held:
    """What the KB held at ``--as-of`` (see the module docstring); build it with :func:`held_at`.

    :ivar given: the option's value as typed (for messages).
    :ivar cut: exclusive end, aware: a stamp ``< cut`` is held.
    :ivar unstamped: KB-relative paths of inbox files and cards with no stamp (left out).
    :ivar notes: what a command prints once on stderr (the unstamped files, the doc versions).
    """

    kb: Kb
    given: str
    cut: datetime
    unstamped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    _docs: dict[str, LivingDoc | None] = field(default_factory=dict)

    @property
    def cut_iso(self) -> str:
        """:attr:`cut` as ISO text, comparable with stored ``written_at`` (the KB's zone)."""
        return self.cut.isoformat()

    def holds(self, written_at: str | datetime | None) -> bool:
        """True when a stamp is before the cut; a missing stamp is never held."""
        if written_at is None:
            return False
        dt = datetime.fromisoformat(written_at) if isinstance(written_at, str) else written_at
        return dt < self.cut

    def cards(self) -> list[Card]:
        """The cards created before the cut (:func:`kb.store.cards.load_cards`, by ``created``)."""
        from kb.store.cards import load_cards

        return [c for c in load_cards(self.kb.store) if self.holds(c.created)]

    def topics(self) -> list[str]:
        """Topics with a living document in the store (``organized/knowledge/<topic>.md``)."""
        return sorted(PurePosixPath(f.path).stem for f in self.kb.store.files(role="living-doc"))

    def doc(self, topic: str) -> LivingDoc | None:
        """The version of ``topic``'s living doc current at the cut
        (:func:`kb.read.livedoc.baseline_for`), else None when every version is newer; noted once."""
        if topic in self._docs:
            return self._docs[topic]
        from kb.read.parse import Parser

        try:
            doc: LivingDoc | None = baseline_for(self.kb.root, topic, Parser(self.kb.config), self.cut)
        except FileNotFoundError:
            doc = None
        if doc is not None and doc.updated is not None and not doc.updated < self.cut:
            self.notes.append(f"{doc_path(topic)}: no version kb finds (history/{topic}/vN.md, the current file) "
                              f"was updated before --as-of {self.given}")
            doc = None
        elif doc is not None and doc.updated is None:
            self.notes.append(f"{doc.path} has no `updated` in its front matter: kb cannot tell when it was "
                              "written; read as it is now")
        elif doc is not None:
            self.notes.append(f"{doc_path(topic)} as of {self.given}: v{doc.version} ({doc.path}, updated "
                              f"{to_minute(doc.updated)})")  # type: ignore[arg-type]
        self._docs[topic] = doc
        return doc

    def doc_claims(self) -> list[Claim]:
        """The claims of every topic's held doc version (an older version's claims carry the
        snapshot's path and lines, e.g. ``organized/knowledge/history/inference/v44.md:21``)."""
        return [c for t in self.topics() if (d := self.doc(t)) is not None for c in d.claims]

    def headings(self) -> list[str]:
        """Heading texts of the held doc versions (names they give are subjects: the Attributor)."""
        return [h.text for t in self.topics() if (d := self.doc(t)) is not None for h in d.headings]

    def default_night(self, topic: str) -> date | None:
        """The night holding the newest inbox file held (the topic's own briefs aside), else None:
        the default window of ``kb diff --as-of`` (as :func:`kb.night.run.newest_inbox_night` is today's)."""
        from kb.core.paths import is_own_brief
        from kb.core.window import night_of

        newest = None
        for path, written_at in self.kb.store.dated_files("inbox"):
            if self.holds(written_at) and not is_own_brief(path, topic):
                dt = datetime.fromisoformat(written_at)
                newest = dt if newest is None or dt > newest else newest
        return night_of(newest, self.kb.config) if newest else None

    def clip(self, window: Window) -> Window:
        """``window`` ending at the cut at the latest (the night's date is kept).

        :raises UsageError: the window starts at or after the cut.
        """
        from kb.core.window import Window

        if window.since >= self.cut:
            raise UsageError(f"the window {window.shown} starts after --as-of {self.given}; "
                             "pick an earlier --date/--since, or a later --as-of")
        if window.until <= self.cut:
            return window
        self.notes.append(f"window cut at --as-of {self.given}: {to_minute(window.since)} → {to_minute(self.cut)}")
        return Window(window.since, self.cut, window.night)


def held_at(kb: Kb, value: str) -> Held:
    """What the KB held at ``--as-of VALUE`` (:func:`as_of_cut`); the files without a stamp are
    named in one note.

    :raises UsageError: a bad date.
    """
    held = Held(kb, value.strip(), as_of_cut(value, kb))
    held.unstamped = kb.store.undated_files(("inbox", "card"))
    if held.unstamped:
        shown = ", ".join(held.unstamped[:10]) + (f" and {len(held.unstamped) - 10} more" if len(held.unstamped) > 10 else "")
        held.notes.append(f"{len(held.unstamped)} file(s) without a stamp (no date in the name, no front-matter "
                          f"date, no card `created`) left out of --as-of: {shown}")
    return held


def window_as_of(kb: Kb, topic: str, held: Held, *, since: str | None = None, until: str | None = None,
                 day: str | None = None, span: str | None = None) -> Window:
    """The window of ``kb diff --as-of``: the options' window (``--window`` ending at the cut),
    by default the night of the newest inbox file held; cut at the as-of moment.

    :raises UsageError: see :func:`kb.core.window.resolve_window` and :meth:`Held.clip`.
    """
    from kb.core.window import resolve_window

    default = None if (since or until or day or span) else held.default_night(topic)
    window = resolve_window(kb.config, since=since, until=until, day=day, span=span,
                            now=held.cut, default_night=default)
    return held.clip(window)


# -- history -----------------------------------------------------------------------------------


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
    version: int
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




def _names_metric(vocab: Any, text: str, metric: str) -> bool:
    """True when ``text`` holds a phrase the vocabulary gives ``metric`` (the vocabulary's own
    pattern and :meth:`~kb.extract.metrics.MetricVocab.phrase_metric`)."""
    from kb.extract.metrics import lower_same_length, normalise

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
    from kb.extract.metrics import MetricVocab
    from kb.facts.query import ClaimFilter, resolve_subject, select_viewed
    from kb.facts.values import same_value
    from kb.read.parse import Parser

    keys = resolve_subject(kb, subject)
    from kb.facts.query import resolve_metric

    wanted_metric = resolve_metric(kb, metric) if metric else None
    topics = [topic] if topic else sorted(PurePosixPath(f.path).stem for f in kb.store.files(role="living-doc"))
    if topic:
        from kb.night.run import check_topic

        check_topic(kb, topic)
    at, claims = select_viewed(kb, ClaimFilter(subject=subject, held=held))
    wanted = set(keys) | {at.group(k) for k in keys}

    def ours(f: Fact) -> bool:
        return (f.subject in wanted or f.group in wanted) and (wanted_metric is None or f.metric == wanted_metric)

    out = History(subject=keys[0], label=at.label(at.group(keys[0])), metric=wanted_metric, topics=topics,
                  as_of=held.given if held else None)
    groups: list[tuple[Fact, ValueGroup]] = []
    tol = kb.config.tolerance

    def group_of(f: Fact, when: str | None, where: str, version: str | None) -> int:
        home = next(((rep, g) for rep, g in groups if rep.metric == f.metric and same_value(rep, f, tol)), None)
        if home is None:
            home = (f, ValueGroup(group=len(groups), metric=f.metric, raw=f.raw, value=_value(f), first_at=when,
                                  sources=[], versions=[]))
            groups.append(home)
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
        for doc, current in _versions(kb, t, parser, held):
            at.learn(doc.claims)
            dv = DocVersion(topic=t, version=doc.version or 0, path=doc.path, current=current,
                            updated=doc.updated.isoformat() if doc.updated else None)
            name = f"{t} v{doc.version}"
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
    for _, path, line, c, f in rows:
        p = c.provenance
        out.sources.append(SourceValue(at=p.written_at, path=path, line=line, author=p.author, kind=c.kind, role=c.role,
                                       metric=f.metric, raw=f.raw, value=_value(f), low=f.low, high=f.high,
                                       unit=f.unit, precision=f.precision, qualifier=f.qualifier,
                                       group=group_of(f, p.written_at, f"{path}:{line}", None), text=c.text))
        if p.written_at is None:
            out.notes.append(f"{path}: no stamp; its value {f.raw} has no place in time")
    out.values = [g for _, g in groups]
    if held is not None:
        out.notes = held.notes + out.notes
    return out


def _versions(kb: Kb, topic: str, parser: Any, held: Held | None) -> list[tuple[LivingDoc, bool]]:
    """Every version of ``topic``'s living doc kb finds (history snapshots, git, the current
    file: :func:`kb.read.livedoc.load_version`), oldest first, with "is the current file"; with
    ``held``, only those updated before its cut (a version without ``updated`` is kept)."""
    from kb.read.livedoc import load_living_doc

    try:
        current = load_living_doc(kb.root, topic, parser)
    except FileNotFoundError:
        return []
    numbers = set(history_versions(kb.root, topic)) | set(git_versions(kb.root, topic))
    if current.version is not None:
        numbers.add(current.version)
    out: list[tuple[LivingDoc, bool]] = []
    for n in sorted(numbers):
        doc = current if n == current.version else load_version(kb.root, topic, n, parser)
        if held is None or doc.updated is None or held.holds(doc.updated):
            out.append((doc, n == current.version))
    if current.version is None and (held is None or current.updated is None or held.holds(current.updated)):
        out.append((current, True))
    return out
