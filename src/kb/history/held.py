"""What the KB held at a date (``--as-of``): :class:`Held`, the one answer, and its window.

:class:`Held` is the one answer to "what did the KB hold at DATE" (docs/history.md): files
whose stamp (:attr:`kb.core.claims.Provenance.written_at`: front matter, the file-name stamp, a
card's ``created``) is before the cut, the cards created before it, and per topic the living
doc's version current then (:func:`kb.read.versions.baseline_for`, which reads ``history/<topic>/vN.md``
and the current file). ``kb claims --as-of``, ``kb diff --as-of`` and ``kb history --as-of``
all ask it. A file without a stamp is left out and named once, in :attr:`Held.notes`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from kb.core.errors import OptionError
from kb.core.paths import doc_path, is_own_brief
from kb.core.window import Window, night_of, resolve_window
from kb.core.moments import parse_moment, to_minute
from kb.read.livedoc import LivingDoc, version_label
from kb.read.versions import baseline_for, conflicting_snapshots, skipped_snapshots
from kb.store.cards import load_cards

if TYPE_CHECKING:
    from kb.core.claims import Claim
    from kb.read.cards import Card
    from kb.store.workspace import Kb


def as_of_cut(value: str, kb: Kb) -> datetime:
    """The exclusive end of what ``--as-of VALUE`` holds, aware in the KB's zone.

    A date alone (``2026-07-30``) is the whole day: the cut is the next day at 00:00 local
    time, so a file stamped that day, at any hour, is held. A date-time
    (``2026-07-31T17:35``) holds what was written up to and including that moment.

    :raises OptionError: empty, or not an ISO date or date-time (see
        :func:`kb.core.moments.parse_moment`); the parameter named is ``as_of``.
    """
    if not value or not value.strip():
        raise OptionError("{0} is empty; give a date such as 2026-07-30 or a date-time 2026-07-31T17:35", "as_of")
    moment = parse_moment(value, kb.config, "as_of")
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
        return [c for c in load_cards(self.kb.store) if self.holds(c.created)]

    def topics(self) -> list[str]:
        """Topics with a living document in the store (``organized/knowledge/<topic>.md``)."""
        return sorted(PurePosixPath(f.path).stem for f in self.kb.store.files(role="living-doc"))

    def doc(self, topic: str) -> LivingDoc | None:
        """The version of ``topic``'s living doc current at the cut
        (:func:`kb.read.versions.baseline_for`), else None when every version is newer; noted once."""
        if topic in self._docs:
            return self._docs[topic]
        from kb.read.parse import Parser

        self.notes.extend(skipped_snapshots(self.kb.root, topic))  # one bad snapshot is passed over, said once
        self.notes.extend(conflicting_snapshots(self.kb.root, topic))
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
            self.notes.append(f"{doc_path(topic)} as of {self.given}: {version_label(doc.version)} ({doc.path}, updated "
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
        newest = None
        for path, written_at in self.kb.store.dated_files("inbox"):
            if self.holds(written_at) and not is_own_brief(path, topic):
                dt = datetime.fromisoformat(written_at)
                newest = dt if newest is None or dt > newest else newest
        return night_of(newest, self.kb.config) if newest else None

    def clip(self, window: Window) -> Window:
        """``window`` ending at the cut at the latest (the night's date is kept).

        :raises OptionError: the window starts at or after the cut (naming ``as_of``, ``day``
            and ``since``).
        """
        if window.since >= self.cut:
            raise OptionError("the window {shown} starts after {0} {given}; pick an earlier {1}/{2}, or a later {0}",
                              "as_of", "day", "since", shown=window.shown, given=self.given)
        if window.until <= self.cut:
            return window
        self.notes.append(f"window cut at --as-of {self.given}: {to_minute(window.since)} → {to_minute(self.cut)}")
        return Window(window.since, self.cut, window.night)


def held_at(kb: Kb, value: str) -> Held:
    """What the KB held at ``--as-of VALUE`` (:func:`as_of_cut`); the files without a stamp are
    named in one note.

    :raises OptionError: a bad date.
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
    default = None if (since or until or day or span) else held.default_night(topic)
    window = resolve_window(kb.config, since=since, until=until, day=day, span=span,
                            now=held.cut, default_night=default)
    return held.clip(window)
