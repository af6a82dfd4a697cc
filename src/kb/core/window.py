"""Time windows of the nightly job: ``--since/--until``, ``--date`` (night at the cut-off), ``--window 24h``.

Rules (DESIGN.md §3, issue 3): a window is ``since ≤ written_at < until``; a night ``D``
is the 24 h ending at ``D`` at the ``cutoff`` of ``kb.yaml`` (local time of ``timezone``),
so the night of 2026-07-31 with cutoff 22:00 is 2026-07-30 22:00 → 2026-07-31 22:00.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from kb.core.config import KbConfig
from kb.core.errors import OptionError, UsageError
from kb.core.moments import ACCEPTED, accepted, calendar_problem, in_range, parse_moment, to_minute

_SPAN_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([hdm])\s*$", re.IGNORECASE)
_UNIT = {"h": timedelta(hours=1), "d": timedelta(days=1), "m": timedelta(minutes=1)}

HISTORY_WINDOWS = 7
"""Earlier windows of the same length a window is compared with (claim density, ``kb digest``);
a window must leave room for them within the calendar (years 1–9999)."""


_ROOM = f"the window and the {HISTORY_WINDOWS} windows of the same length before it must fall within years 1–9999"


@dataclass(frozen=True, slots=True)
class Window:
    """A half-open time window ``[since, until)`` with aware datetimes in the KB's zone.

    :ivar night: the night date when the window is a night (``--date`` or the digest
        default), else None.
    """

    since: datetime
    until: datetime
    night: date | None = None

    @property
    def since_iso(self) -> str:
        """``since`` as ISO text with offset, comparable with stored ``written_at``."""
        return self.since.isoformat()

    @property
    def until_iso(self) -> str:
        """``until`` as ISO text with offset."""
        return self.until.isoformat()

    @property
    def shown(self) -> str:
        """The window for people, to the minute: ``2026-07-30 22:00+08:00 → 2026-07-31 22:00+08:00``."""
        return f"{to_minute(self.since)} → {to_minute(self.until)}"

    @property
    def hours(self) -> float:
        """Length in hours (24.0 for a night)."""
        return (self.until - self.since).total_seconds() / 3600

    @property
    def label_date(self) -> date:
        """The date that names the window: the night, else the local date just before ``until``."""
        return self.night or (self.until - timedelta(microseconds=1)).date()

    def contains(self, written_at: str | datetime | None) -> bool:
        """True when ``since ≤ written_at < until``; None is never inside.

        :param written_at: aware datetime or ISO text with offset.
        """
        if written_at is None:
            return False
        dt = datetime.fromisoformat(written_at) if isinstance(written_at, str) else written_at
        return self.since <= dt < self.until

    def previous(self, n: int = 1) -> Window:
        """The window of the same length ``n`` lengths earlier (the previous night for n=1)."""
        step = self.until - self.since
        night = self.night - timedelta(days=n) if self.night and step == timedelta(days=1) else None
        return Window(self.since - n * step, self.until - n * step, night)


def cutoff_time(config: KbConfig) -> time:
    """The configured cut-off as a :class:`datetime.time` (``"24:00"`` is not allowed).

    :raises UsageError: hour above 23 or minute above 59.
    """
    h, m = (int(x) for x in config.cutoff.split(":"))
    if h > 23 or m > 59:
        raise UsageError(f"kb.yaml: cutoff {config.cutoff!r} is not a time of day (00:00–23:59)")
    return time(h, m)


def night_window(day: date, config: KbConfig) -> Window:
    """The night ``day``: the 24 h ending at ``day`` at the cut-off, local time."""
    until = datetime.combine(day, cutoff_time(config), config.tzinfo)
    return Window(until - timedelta(days=1), until, day)


def night_of(moment: datetime | str, config: KbConfig) -> date:
    """The night whose window holds ``moment``: its local date, or the next day from the cut-off on.

    :param moment: aware datetime or ISO text with offset.
    """
    dt = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
    local = dt.astimezone(config.tzinfo)
    return local.date() + timedelta(days=1) if local.time() >= cutoff_time(config) else local.date()


def parse_span(text: str) -> timedelta:
    """A ``--window`` length: ``24h``, ``2d``, ``90m``.

    :raises UsageError: anything else, naming the forms accepted.
    """
    m = _SPAN_RE.match(text)
    if not m or float(m.group(1)) <= 0:
        raise OptionError("{0} {text!r}: expected a length such as 24h, 2d or 90m", "span", text=text)
    with in_range("span", text, "too long; " + _ROOM):
        return float(m.group(1)) * _UNIT[m.group(2).lower()]


def resolve_window(config: KbConfig, *, since: str | None = None, until: str | None = None,
                   day: str | None = None, span: str | None = None,
                   now: datetime | None = None, default_night: date | None = None) -> Window:
    """The window meant by the command-line options (at most one way of giving it).

    * ``--date D``: the night ``D`` (see :func:`night_window`).
    * ``--window 24h``: the span ending ``now``.
    * ``--since/--until``: either or both; a missing ``--until`` is ``now``, a missing
      ``--since`` is 24 h before ``--until``.
    * none of them: the night ``default_night`` (the digest default), else the night
      holding ``now``.

    :param now: the current time (tests pass it); default: the clock, in the KB's zone.
    :raises UsageError: options combined, malformed, ``since ≥ until``, or a window (or
        the :data:`HISTORY_WINDOWS` before it) outside the calendar; the option is named.
    """
    params = [p for p, v in (("day", day), ("span", span)) if v]
    ways = [f"{{{i}}}" for i in range(len(params))]
    if since or until:
        ways.append(f"{{{len(params)}}}/{{{len(params) + 1}}}")
        params += ["since", "until"]
    if len(ways) > 1:
        raise OptionError("give the window one way only, not " + " and ".join(ways), *params)
    now = (now or datetime.now(config.tzinfo)).astimezone(config.tzinfo)
    if now.second or now.microsecond:  # a window ending "now" ends at the next whole minute
        now = now.replace(second=0, microsecond=0) + timedelta(minutes=1)
    option: str | None
    if day:
        try:
            d = date.fromisoformat(day.strip())
        except ValueError as exc:
            if (why := calendar_problem(day)) is not None:
                raise OptionError("{0} {day!r}: {why}", "day", day=day, why=why) from exc
            raise OptionError("{0} {day!r}: expected YYYY-MM-DD, e.g. 2026-07-31", "day", day=day) from exc
        if not accepted(d):
            raise OptionError("{0} {day!r}: out of range ({why})", "day", day=day, why=ACCEPTED)
        option, value = "day", day
        with in_range(option, value, _ROOM):
            window = night_window(d, config)
    elif span:
        option, value = "span", span
        length = parse_span(span)
        with in_range(option, value, _ROOM):
            window = Window(now - length, now)
    elif since or until:
        option, value = ("since", since) if since else ("until", until or "")
        first = parse_moment(since, config, "since") if since else None  # named first when both are out of range
        end = parse_moment(until, config, "until") if until else now
        if first is not None:
            start = first
        else:
            with in_range(option, value, _ROOM):
                start = end - timedelta(days=1)
        if start >= end:
            raise OptionError("{0} {start} is not before {1} {end}", "since", "until", start=start.isoformat(),
                              end=end.isoformat())
        # A window that is exactly a night keeps its night date (for file names and density).
        night = end.date() if end - start == timedelta(days=1) and end.timetz().replace(tzinfo=None) == cutoff_time(config) else None
        window = Window(start, end, night)
    else:
        d = default_night or night_of(now, config)
        option, value = None, f"the night of {d.isoformat()}"
        with in_range(option, value, _ROOM):
            window = night_window(d, config)
    with in_range(option, value, _ROOM):
        window.previous(HISTORY_WINDOWS)  # the windows a night is compared with must exist too
    return window
