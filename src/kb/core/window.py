"""Time windows of the nightly job: ``--since/--until``, ``--date`` (night at the cut-off), ``--window 24h``.

Rules (DESIGN.md §3, issue 3): a window is ``since ≤ written_at < until``; a night ``D``
is the 24 h ending at ``D`` at the ``cutoff`` of ``kb.yaml`` (local time of ``timezone``),
so the night of 2026-07-31 with cutoff 22:00 is 2026-07-30 22:00 → 2026-07-31 22:00.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone

from kb.core.config import KbConfig
from kb.core.errors import OptionError, UsageError

_SPAN_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([hdm])\s*$", re.IGNORECASE)
_UNIT = {"h": timedelta(hours=1), "d": timedelta(days=1), "m": timedelta(minutes=1)}

HISTORY_WINDOWS = 7
"""Earlier windows of the same length a window is compared with (claim density, ``kb digest``);
a window must leave room for them within the calendar (years 1–9999)."""


_CALENDAR = "kb computes with dates from 0001-01-01 to 9999-12-31 UTC"
_ROOM = f"the window and the {HISTORY_WINDOWS} windows of the same length before it must fall within years 1–9999"


@contextmanager
def _in_range(option: str | None, value: str, why: str = _ROOM) -> Iterator[None]:
    """Turn an :class:`OverflowError` of date arithmetic into an :class:`OptionError` naming the
    parameter (or option) that gave the value, else a :class:`UsageError`.

    :param option: the parameter or option that gave the value (``since``); None for a default.
    :param why: the limit, for the message.
    """
    try:
        yield
    except OverflowError as exc:
        if option:
            raise OptionError("{0} {value!r}: out of range ({why})", option, value=value, why=why) from exc
        raise UsageError(f"{value}: out of range ({why})") from exc


def to_minute(moment: datetime | str) -> str:
    """A time as kb prints it for people, to the minute with its offset:
    ``2026-07-30 22:00+08:00`` (never seconds or microseconds). Accepts ISO text."""
    dt = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
    zone = dt.strftime("%z")
    return dt.strftime("%Y-%m-%d %H:%M") + (f"{zone[:3]}:{zone[3:]}" if zone else "")


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
        raise UsageError(f"--window {text!r}: expected a length such as 24h, 2d or 90m")
    with _in_range("--window", text, "too long; " + _ROOM):
        return float(m.group(1)) * _UNIT[m.group(2).lower()]


def parse_moment(value: str, config: KbConfig, option: str) -> datetime:
    """An ISO date or date-time from the command line, aware in the KB's zone.

    A date alone means 00:00 local time (as a date-only file stamp does).

    :param option: the parameter that gave ``value`` (``since``, ``as_of``), named in an error
        (:class:`~kb.core.errors.OptionError`: the command line writes its option there).
    :raises OptionError: not ISO 8601 (the message shows an accepted form), or out of
        the calendar once converted to the KB's zone or to UTC (``0001-01-01`` at +08:00).
    """
    try:
        if len(value.strip()) == 10:
            dt = datetime.combine(date.fromisoformat(value.strip()), time(0, 0))
        else:
            dt = datetime.fromisoformat(value.strip())
    except ValueError as exc:
        raise OptionError("{0} {value!r}: expected an ISO date or date-time, e.g. 2026-07-31 or 2026-07-30T22:00",
                          option, value=value) from exc
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=config.tzinfo)
    with _in_range(option, value, _CALENDAR):
        dt.astimezone(timezone.utc)  # every later conversion (UTC ``Z``, other offsets) then fits
        return dt.astimezone(config.tzinfo)


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
    ways = [name for name, v in (("--date", day), ("--window", span)) if v]
    if since or until:
        ways.append("--since/--until")
    if len(ways) > 1:
        raise UsageError(f"give the window one way only, not {' and '.join(ways)}")
    now = (now or datetime.now(config.tzinfo)).astimezone(config.tzinfo)
    if now.second or now.microsecond:  # a window ending "now" ends at the next whole minute
        now = now.replace(second=0, microsecond=0) + timedelta(minutes=1)
    option: str | None
    if day:
        try:
            d = date.fromisoformat(day.strip())
        except ValueError as exc:
            raise UsageError(f"--date {day!r}: expected YYYY-MM-DD, e.g. 2026-07-31") from exc
        option, value = "--date", day
        with _in_range(option, value):
            window = night_window(d, config)
    elif span:
        option, value = "--window", span
        length = parse_span(span)
        with _in_range(option, value):
            window = Window(now - length, now)
    elif since or until:
        option, value = ("--since", since) if since else ("--until", until or "")
        end = parse_moment(until, config, "--until") if until else now
        if since:
            start = parse_moment(since, config, "--since")
        else:
            with _in_range(option, value):
                start = end - timedelta(days=1)
        if start >= end:
            raise UsageError(f"--since {start.isoformat()} is not before --until {end.isoformat()}")
        # A window that is exactly a night keeps its night date (for file names and density).
        night = end.date() if end - start == timedelta(days=1) and end.timetz().replace(tzinfo=None) == cutoff_time(config) else None
        window = Window(start, end, night)
    else:
        d = default_night or night_of(now, config)
        option, value = None, f"the night of {d.isoformat()}"
        with _in_range(option, value):
            window = night_window(d, config)
    with _in_range(option, value):
        window.previous(HISTORY_WINDOWS)  # the windows a night is compared with must exist too
    return window
