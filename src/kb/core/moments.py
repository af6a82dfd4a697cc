"""Moments written on the command line or in a file: an ISO date or date-time read in the KB's
zone (:func:`parse_moment`, the one parser of ``--since``, ``--until``, ``--as-of`` …) and shown
to the minute (:func:`to_minute`); date arithmetic kept inside the calendar (:func:`in_range`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, time, timezone

from kb.core.config import KbConfig
from kb.core.errors import OptionError, UsageError

CALENDAR = "kb computes with dates from 0001-01-01 to 9999-12-31 UTC"
"""The calendar kb computes in, for an out-of-range message."""


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
    with in_range(option, value):
        dt.astimezone(timezone.utc)  # every later conversion (UTC ``Z``, other offsets) then fits
        return dt.astimezone(config.tzinfo)
