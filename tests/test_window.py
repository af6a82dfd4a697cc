"""Windows of the nightly job: --date at the cut-off, --since/--until, --window, edges (issue 3)."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from kb.core.config import KbConfig
from kb.core.errors import UsageError
from kb.core.window import Window, night_of, night_window, parse_span, resolve_window

TZ = timezone(timedelta(hours=8))
CFG = KbConfig()
NOW = datetime(2026, 7, 31, 12, 0, tzinfo=TZ)


def test_date_is_the_24h_ending_at_the_cutoff() -> None:
    w = resolve_window(CFG, day="2026-07-31", now=NOW)
    assert w.since_iso == "2026-07-30T22:00:00+08:00"
    assert w.until_iso == "2026-07-31T22:00:00+08:00"
    assert w.night == date(2026, 7, 31)
    assert w.hours == 24.0


def test_cutoff_and_timezone_come_from_config() -> None:
    cfg = KbConfig(timezone="-04:00", cutoff="06:30")
    w = night_window(date(2026, 3, 1), cfg)
    assert (w.since_iso, w.until_iso) == ("2026-02-28T06:30:00-04:00", "2026-03-01T06:30:00-04:00")


@pytest.mark.parametrize(
    ("stamp", "inside"),
    [
        ("2026-07-30T22:00:00+08:00", True),   # exactly at since: in
        ("2026-07-30T21:59:59+08:00", False),
        ("2026-07-31T21:59:59+08:00", True),
        ("2026-07-31T22:00:00+08:00", False),  # exactly at until: out
        ("2026-07-31T14:00:00+00:00", False),  # 22:00 +08:00 in UTC
        ("2026-07-31T00:00:00+08:00", True),   # a date-only stamp means 00:00 local
    ],
)
def test_window_is_half_open(stamp: str, inside: bool) -> None:
    assert night_window(date(2026, 7, 31), CFG).contains(stamp) is inside


def test_night_of_a_moment_after_the_cutoff_is_the_next_day() -> None:
    assert night_of("2026-07-31T21:59:00+08:00", CFG) == date(2026, 7, 31)
    assert night_of("2026-07-31T22:00:00+08:00", CFG) == date(2026, 8, 1)
    assert night_of("2026-07-31T15:00:00+00:00", CFG) == date(2026, 8, 1)  # 23:00 local


def test_window_span_ends_now() -> None:
    w = resolve_window(CFG, span="24h", now=NOW)
    assert (w.since, w.until, w.night) == (NOW - timedelta(hours=24), NOW, None)
    assert parse_span("2d") == timedelta(days=2)
    assert parse_span("90m") == timedelta(minutes=90)


def test_a_window_ending_now_is_printed_to_the_minute() -> None:
    """`--window 24h` used to print microseconds: a window ending now ends at the next whole minute."""
    w = resolve_window(CFG, span="24h", now=NOW.replace(minute=7, second=31, microsecond=123456))
    assert (w.since_iso, w.until_iso) == ("2026-07-30T12:08:00+08:00", "2026-07-31T12:08:00+08:00")
    assert w.shown == "2026-07-30 12:08+08:00 → 2026-07-31 12:08+08:00"


@pytest.mark.parametrize("bad", ["24", "h", "-3h", "0h", "1w"])
def test_bad_span_is_a_usage_error(bad: str) -> None:
    with pytest.raises(UsageError, match="24h"):
        parse_span(bad)


def test_since_until_in_the_kb_zone() -> None:
    w = resolve_window(CFG, since="2026-07-30T22:00", until="2026-07-31T22:00", now=NOW)
    assert w.since_iso == "2026-07-30T22:00:00+08:00"
    assert w.night == date(2026, 7, 31)  # exactly a night keeps its date
    w = resolve_window(CFG, since="2026-07-31", now=NOW)
    assert (w.since_iso, w.until, w.night) == ("2026-07-31T00:00:00+08:00", NOW, None)
    w = resolve_window(CFG, until="2026-07-31T10:00:00+00:00", now=NOW)
    assert (w.since_iso, w.until_iso) == ("2026-07-30T18:00:00+08:00", "2026-07-31T18:00:00+08:00")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"day": "2026-07-31", "span": "24h"}, "one way only"),
        ({"day": "2026-07-31", "since": "2026-07-30"}, "one way only"),
        ({"day": "31/07/2026"}, "YYYY-MM-DD"),
        ({"since": "yesterday"}, "ISO"),
        ({"since": "2026-07-31", "until": "2026-07-30"}, "not before"),
    ],
)
def test_bad_windows(kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        resolve_window(CFG, now=NOW, **kwargs)


def test_default_is_the_given_night_else_the_night_holding_now() -> None:
    assert resolve_window(CFG, now=NOW, default_night=date(2026, 7, 30)).night == date(2026, 7, 30)
    assert resolve_window(CFG, now=datetime(2026, 7, 31, 23, 0, tzinfo=TZ)).night == date(2026, 8, 1)


def test_previous_night() -> None:
    w = night_window(date(2026, 7, 31), CFG).previous(7)
    assert (w.since_iso, w.night) == ("2026-07-23T22:00:00+08:00", date(2026, 7, 24))
    assert Window(NOW, NOW + timedelta(hours=3)).label_date == date(2026, 7, 31)


def test_bad_cutoff_hour_is_refused_with_the_config() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="cutoff must be a local time from 00:00 to 23:59"):
        KbConfig(cutoff="24:00")
