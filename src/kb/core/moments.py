"""Moments written on the command line or in a file: an ISO date or date-time read in the KB's
zone (:func:`parse_moment`, the one parser of ``--since``, ``--until``, ``--as-of`` …) and shown
to the minute (:func:`to_minute`); date arithmetic kept inside the calendar (:func:`in_range`);
the one range of dates kb accepts, from the command line or a file (:func:`accepted`,
:data:`FIRST`, :data:`LAST`).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, time, timezone
from typing import TYPE_CHECKING, Any

from kb.core.errors import OptionError, UsageError

if TYPE_CHECKING:  # kb.core.config reads front matter, which asks accepted(): no import cycle
    from kb.core.config import KbConfig

CALENDAR = "kb computes with dates from 0001-01-01 to 9999-12-31 UTC"
"""The calendar kb computes in, for an out-of-range message."""

FIRST = datetime(1000, 1, 1, tzinfo=timezone.utc)
"""The earliest moment kb accepts (command line, file-name stamps, front-matter dates)."""
LAST = datetime(9000, 12, 31, 23, 59, 59, tzinfo=timezone.utc)
"""The latest moment kb accepts. Far enough inside Python's calendar (9999-12-31) that every
window, night, history step or offset kb computes from an accepted moment still fits (issue 24:
``--as-of 9999-12-31`` and a file stamped 9999-12-31 ended in tracebacks)."""
ACCEPTED = "kb accepts dates from 1000-01-01 to 9000-12-31"
"""The range of :func:`accepted`, as messages name it."""


def accepted(moment: Any) -> bool:
    """Whether a date or datetime is within the range kb accepts (:data:`FIRST` to :data:`LAST`;
    a naive datetime or a date is read as UTC, which is within a day of any zone's reading).
    The one clamp: the command line (:func:`parse_moment`), file-name stamps and front-matter
    dates (:func:`kb.core.frontmatter.as_datetime`) all ask it."""
    if isinstance(moment, datetime):
        try:
            dt = moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
            return FIRST <= dt <= LAST
        except OverflowError:  # an offset that pushes it out of Python's calendar
            return False
    if isinstance(moment, date):
        return FIRST.date() <= moment <= LAST.date()
    return False


@contextmanager
def in_range(option: str | None, value: str, why: str = CALENDAR) -> Iterator[None]:
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


_YMD_RE = re.compile(r"\s*(\d{4})-(\d{2})-(\d{2})(?=$|[Tt ])")


def calendar_problem(value: str) -> str | None:
    """What of a value written as ``YYYY-MM-DD…`` is off the calendar (``2026-13-01``: ``month 13
    is out of range (01-12)``; ``2026-02-30``: ``day 30 is out of range for 2026-02 (01-28)``),
    else None (another form, or a real date): the one wording of ``--date`` and of every
    command-line date (:func:`parse_moment`), so an error never says "expected YYYY-MM-DD" of a
    value written so."""
    m = _YMD_RE.match(value)
    if m is None:
        return None
    year, month, day = map(int, m.groups())
    if not 1 <= month <= 12:
        return f"month {month:02d} is out of range (01-12)"
    last = calendar.monthrange(year, month)[1] if year >= 1 else 31
    if not 1 <= day <= last:
        return f"day {day:02d} is out of range for {year:04d}-{month:02d} (01-{last:02d})"
    return None


def parse_moment(value: str, config: KbConfig, option: str) -> datetime:
    """An ISO date or date-time from the command line, aware in the KB's zone.

    A date alone means 00:00 local time (as a date-only file stamp does).

    :param option: the parameter that gave ``value`` (``since``, ``as_of``), named in an error
        (:class:`~kb.core.errors.OptionError`: the command line writes its option there).
    :raises OptionError: not ISO 8601 (the message shows an accepted form; a month or day off
        the calendar is named: :func:`calendar_problem`), or outside the
        range kb accepts (:func:`accepted`: ``--as-of 9999-12-31``).
    """
    try:
        if len(value.strip()) == 10:
            dt = datetime.combine(date.fromisoformat(value.strip()), time(0, 0))
        else:
            dt = datetime.fromisoformat(value.strip())
    except ValueError as exc:
        if (why := calendar_problem(value)) is not None:
            raise OptionError("{0} {value!r}: {why}", option, value=value, why=why) from exc
        raise OptionError("{0} {value!r}: expected an ISO date or date-time, e.g. 2026-07-31 or 2026-07-30T22:00",
                          option, value=value) from exc
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=config.tzinfo)
    if not accepted(dt):
        raise OptionError("{0} {value!r}: out of range ({why})", option, value=value, why=ACCEPTED)
    with in_range(option, value):
        dt.astimezone(timezone.utc)  # every later conversion (UTC ``Z``, other offsets) then fits
        return dt.astimezone(config.tzinfo)
