"""Find dates and times in text (ISO, 年月日, month-day shorthand); parse file-name stamps."""

from __future__ import annotations

import datetime as dt
import re
from bisect import bisect_left
from collections.abc import Sequence

from kb.core.claims import DateRef
from kb.perf.models import built

_YEAR = r"(?:19|20)\d{2}"
# A time after a date: "16:30" or "16:30:05"; seconds are read but not kept (precision minute).
_TIME = r"(?P<{0}h>\d{{1,2}}):(?P<{0}mi>\d{{2}})(?::\d{{2}})?(?![\d:])"
# Units that make "a-b" a range or quantity, not a month-day ("3-6 个月", "2-3 天", "1-2 x").
_RANGE_UNIT = (
    r"(?:[ \t]*(?:个|月|周|天|日|年|小时|时|分钟|分|秒|倍|次|人|位|篇|张|条|项|层|块|卡|步|轮"
    r"|组|种|节|章|页|行|列|题|期|版|%|％|‰|×|[xX]\b"
    r"|(?i:days?|weeks?|months?|years?|hours?|hrs?|h|mins?|minutes?|s|secs?|seconds?|ms|times"
    r"|GPUs?|nodes?|layers?|steps?|tokens?|[kmbgt]b?|pp|points?)\b))"
)
_DATES_RE = re.compile(
    # every form starts with a digit: testing that first skips other positions fast (6x)
    r"(?=\d)(?:"
    # 1. YYYY-MM-DD / YYYY/MM/DD (1-2 digit parts), optional " HH:MM" or "THH:MM"
    rf"(?<![0-9A-Za-z_.])(?P<y>{_YEAR})(?P<sep>[-/])(?P<m>\d{{1,2}})(?P=sep)(?P<d>\d{{1,2}})"
    rf"(?![\d])(?:[ T]{_TIME.format('t')})?(?![\d]|[/.]\d)"
    # 2. YYYY.MM.DD (2-digit parts only: "2024.1.2" is a version string)
    rf"|(?<![0-9A-Za-z_.])(?P<dy>{_YEAR})\.(?P<dm>\d{{2}})\.(?P<dd>\d{{2}})(?![\d]|\.\d)"
    # 3. 2025 年 12 月 13 日 / 2025年12月 / 2026 年
    rf"|(?<!\d)(?P<cy>{_YEAR})[ \t]*年(?:[ \t]*(?P<cm>\d{{1,2}})[ \t]*月"
    r"(?:[ \t]*(?P<cd>\d{1,2})[ \t]*[日号])?)?"
    # 4. YYYY-MM (2-digit month), not followed by another -digit
    rf"|(?<![0-9A-Za-z_.])(?P<my>{_YEAR})-(?P<mm>\d{{2}})(?![\d]|[-/.]\d)"
    # 5. 8月13日 (month-day in Chinese), optional time
    r"|(?<![\d年.])(?P<zm>\d{1,2})[ \t]*月[ \t]*(?P<zd>\d{1,2})[ \t]*[日号]"
    rf"(?:[ \t]*{_TIME.format('z')})?"
    # 6. month-day shorthand 7-31 / 07-31 / 7/31, optional " HH:MM"; a one-digit day only
    #    with a time ("3-6" alone is a range)
    r"|(?<![0-9A-Za-z_.,:/\\\-\u2212+~≈§#第约])"
    r"(?P<sm>\d{1,2})(?P<ssep>[-/])(?P<sd>\d{2}|\d(?=[ \t]+\d{1,2}:\d{2}))"
    rf"(?![\d]|[-/.,]\d|[A-Za-z]|{_RANGE_UNIT})(?:[ \t]+{_TIME.format('s')})?"
    r")"
)

#: Text one of which every match of _DATES_RE holds (forms 1–6: ``6-0``/``6/0``, ``2026.07.31``,
#: ``2026 年``, ``8 月 1``, ``7-3``), led by a digit so that re skips to digits: a text without
#: any has no date, found in one fast scan.
_DATE_HINT = re.compile(r"\d(?:[-/]\d|[ \t]*月[ \t]*\d|(?<=(?:19|20)\d\d)(?:\.\d\d\.\d\d|[ \t]*年))")


def _date_hint(text: str) -> bool:
    """Whether :data:`_DATE_HINT` matches in ``text``, asked one form at a time: each form's
    pattern led by a literal (found fast, where the hint's digit class is a scan of every
    character: callgrind), and tried only when the text holds that literal."""
    return (("-" in text and _DASH_HINT.search(text) is not None)
            or ("/" in text and _SLASH_HINT.search(text) is not None)
            or ("." in text and _POINT_HINT.search(text) is not None)
            or ("月" in text and _MONTH_HINT.search(text) is not None)
            or ("年" in text and _YEAR_HINT.search(text) is not None))


# _DATE_HINT's forms: 6-0, 6/0, 2026.07.31, 8 月 1, 2026 年 (tests/test_number_prechecks.py checks they agree)
_DASH_HINT = re.compile(r"-(?<=\d-)\d")
_SLASH_HINT = re.compile(r"/(?<=\d/)\d")
_POINT_HINT = re.compile(r"\.(?<=(?:19|20)\d\d\.)\d\d\.\d\d")
_MONTH_HINT = re.compile(r"\d[ \t]*月[ \t]*\d")
_YEAR_HINT = re.compile(r"(?:19|20)\d\d[ \t]*年")


def _day(year: int, month: int, day: int) -> dt.date | None:
    """The calendar date, or None when it does not exist (2026-02-30, month 13)."""
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _time(hour: str | None, minute: str | None) -> dt.time | None:
    """The time of day, or None when absent or invalid (25:00, 12:61)."""
    if hour is None or minute is None:
        return None
    h, mi = int(hour), int(minute)
    return dt.time(h, mi) if h <= 23 and mi <= 59 else None


def _resolve(m: re.Match[str], ref: dt.date | None) -> tuple[str, str, int] | None:
    """(value, precision, end) of one match, or None when it is not a valid date."""
    g = m.groupdict()
    if g["cy"] is not None:
        if g["cm"] is None:
            return g["cy"], "year", m.end()
        if g["cd"] is None:
            if not 1 <= int(g["cm"]) <= 12:
                return None
            return f"{g['cy']}-{int(g['cm']):02d}", "month", m.end()
        year, month, mday, hour_group = g["cy"], g["cm"], g["cd"], None
    elif g["my"] is not None:
        if not 1 <= int(g["mm"]) <= 12:
            return None
        return f"{g['my']}-{g['mm']}", "month", m.end()
    elif g["y"] is not None:
        year, month, mday, hour_group = g["y"], g["m"], g["d"], "t"
    elif g["dy"] is not None:
        year, month, mday, hour_group = g["dy"], g["dm"], g["dd"], None
    elif ref is None:
        return None
    elif g["zm"] is not None:
        year, month, mday, hour_group = str(ref.year), g["zm"], g["zd"], "z"
    else:
        year, month, mday, hour_group = str(ref.year), g["sm"], g["sd"], "s"
    day = _day(int(year), int(month), int(mday))
    if day is None:
        return None
    end = m.end()
    if hour_group is not None and g[hour_group + "h"] is not None:
        clock = _time(g[hour_group + "h"], g[hour_group + "mi"])
        if clock is not None:
            return f"{day.isoformat()}T{clock.hour:02d}:{clock.minute:02d}", "minute", end
        end = m.start(hour_group + "h")  # invalid time: keep the date alone
        while m.string[end - 1] in " \tT":
            end -= 1
    return day.isoformat(), "day", end


def find_dates(
    text: str,
    *,
    ref: dt.date | None = None,
    skip: Sequence[tuple[int, int]] = (),
    invalid: list[tuple[int, int, str]] | None = None,
) -> list[DateRef]:
    """Dates and times stated in ``text``, each at the precision written (DESIGN.md §2).

    Forms: ``2026-03-21``, ``2026/03/21``, ``2026.03.21`` (day); with `` 16:30`` or
    ``T16:30`` (minute); ``2025 年 12 月`` and ``2026-03`` (month); ``2026年8月13日`` (day);
    ``2026 年`` (year; a bare 4-digit number is never a date). Month-day shorthand
    ``7-31``, ``07-31``, ``7/31``, ``8月13日``, ``7-30 22:00`` takes its year from ``ref``
    and is skipped when ``ref`` is None. Shorthand is not read as a date when it is a range
    or quantity: followed by a unit (``3-6 个月``, ``2-3 天``, ``10-12 层``, ``1-2x``), after
    a minus or inside a longer number, or with a one-digit day and no time (``3-6``, ``1/2``).
    Invalid calendar dates are dropped, never clamped; an invalid time leaves the date alone.

    :param text: any text.
    :param ref: date whose year resolves month-day shorthand (the file's written-at date).
    :param skip: ``(start, end)`` spans to ignore, e.g. arXiv ids from ``find_arxiv``;
        a match overlapping one is dropped.
    :param invalid: when given, receives ``(start, end, reason)`` for each date written in full
        with its year that is no calendar date (``2026-02-30``, ``2026.13.01``, ``2026年2月30日``)
        or whose year is outside 1900–2099 (``9999-12-31``), for the parser to warn of (a
        month-day shorthand such as ``2-30`` may be a range: none). Not in text order.
    :returns: :class:`~kb.core.claims.DateRef` in text order; ``value`` is ISO at its precision
        (``2026``, ``2025-12``, ``2026-03-21``, ``2026-07-31T16:30``); ``metric`` is None.
    """
    if not _date_hint(text):
        return []  # most texts hold no date: one fast scan, then nothing else to do
    if invalid is not None and _OTHER_YEAR_HINT.search(text) is not None:
        invalid += [(*m.span(), "is outside the years read in text (1900 to 2099)")
                    for m in _OTHER_YEAR_RE.finditer(text) if not _overlaps(skip, *m.span())]
    starts: list[int] | None = None
    reach: list[int] = []  # reach[i] = max end of spans[: i + 1]
    out: list[DateRef] = []
    for m in _DATES_RE.finditer(text):
        resolved = _resolve(m, ref)
        if resolved is None:
            if invalid is not None and (m["y"] or m["dy"] or m["cd"]) and not _overlaps(skip, m.start(), m.end()):
                invalid.append((*m.span(), "is no calendar date"))
            continue
        value, precision, end = resolved
        start = m.start()
        if starts is None:  # the skip spans, sorted, at the first date
            spans = sorted(skip)
            starts = [s for s, _ in spans]
            for _, e in spans:
                reach.append(max(e, reach[-1]) if reach else e)
        i = bisect_left(starts, end)  # spans[:i] start before this match ends
        if i and reach[i - 1] > start:
            continue
        out.append(built(DateRef, raw=text[start:end], value=value, precision=precision, metric=None, subject=None,
                         start=start, end=end, mood=None))  # (unvalidated: kb built every value)
    return out


# 9999-12-31, 1850/01/02: a full date whose year is outside the years text dates are read in
# (_YEAR); no date, and the parser says so
_OTHER_YEAR_RE = re.compile(r"(?<![0-9A-Za-z_.])(?!19|20)\d{4}([-/])(?:0[1-9]|1[0-2])\1(?:0[1-9]|[12]\d|3[01])(?![\d]|[/.]\d)")
#: What every match of _OTHER_YEAR_RE holds: a separator after four digits that open with neither 19 nor 20,
#: then a month and a separator (led by the separator class: re skips to one in C, where _OTHER_YEAR_RE,
#: led by a look-behind, is tried at every position; tests/test_unread_prechecks.py checks they agree)
_OTHER_YEAR_HINT = re.compile(r"[-/](?<=\d\d\d\d[-/])(?<!19\d\d[-/])(?<!20\d\d[-/])(?:0[1-9]|1[0-2])[-/]")


def _overlaps(spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    """Whether a span of ``spans`` overlaps ``[start, end)`` (a linear test: for the rare invalid date)."""
    return any(a < end and start < b for a, b in spans)


_STAMP_RE = re.compile(
    r"(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})"
    r"(?:T(?P<th>\d{2}):?(?P<tmi>\d{2})(?!\d)|-(?P<h>\d{2})(?P<mi>\d{2})(?=-|\.|$))?(?!\d)"
)


def parse_stamp(name: str) -> tuple[dt.date, dt.time | None] | None:
    """Date and time from a file name's stamp prefix (DESIGN.md §1: ``<stamp>-<slug>.md``).

    ``2026-07-31T1735-jay-briefing.md`` → (2026-07-31, 17:35);
    ``2026-07-31-0900-hf-daily.md`` → (2026-07-31, 09:00): four digits after ``-`` are a
    time when they form a valid HHMM followed by ``-``, ``.`` or the end;
    ``2026-07-31-csdn-weekly.md`` → (2026-07-31, None). An invalid time leaves the time None.

    :param name: a file name; a POSIX path is reduced to its last component (a ``\\`` is a
        character of a name, never a separator: ``2026-07-31-0905-a\\]b.md`` is dated).
    :returns: (date, time or None), or None when the name has no valid date stamp prefix.
    """
    base = name.rsplit("/", 1)[-1]
    m = _STAMP_RE.match(base)
    if m is None:
        return None
    day = _day(int(m["y"]), int(m["m"]), int(m["d"]))
    if day is None:
        return None
    if m["th"] is not None:
        return day, _time(m["th"], m["tmi"])
    return day, _time(m["h"], m["mi"])


def invalid_stamp(name: str) -> str | None:
    """The stamp prefix of a file name, as written, when it is no real date or time
    (``2026-02-30-x.md`` → ``2026-02-30``, ``2026-07-31T2460-x.md`` → ``2026-07-31T2460``), else
    None. Four digits after ``-`` that are no valid time (``2026-07-31-2599-x.md``) are a slug, not a
    time (:func:`parse_stamp`), so they are no invalid stamp.
    """
    m = _STAMP_RE.match(name.rsplit("/", 1)[-1])
    if m is None:
        return None
    if _day(int(m["y"]), int(m["m"]), int(m["d"])) is None:
        return m[0][:10]
    return m[0] if m["th"] is not None and _time(m["th"], m["tmi"]) is None else None


# 2026-7-31-x, 20260731-x, 2026_07_31-x, 2026.07.31-x: a name that starts with a date written other
# than as a stamp (a date of 8 digits, or of 1-2 digit month and day, or other separators)
_NEAR_STAMP_RE = re.compile(r"(?:19|20)\d{2}(?:[-_.]\d{1,2}[-_.]\d{1,2}|(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))(?![\d])")


def stamp_warning(name: str) -> str | None:
    """What is wrong with a file name's stamp that kb can still read around, as the end of a
    warning, or None. ``2026-07-31-2599-x.md``: the four digits are no time of day, so they are
    part of the name and the file is dated with no time; ``2026-7-31-x.md``, ``20260731-x.md``: a
    date not written as a stamp (``YYYY-MM-DD``), so the file is undated. (A stamp that is no
    date at all is :func:`invalid_stamp`'s.)
    """
    base = name.rsplit("/", 1)[-1]
    m = _STAMP_RE.match(base)
    if m is not None:
        if m["h"] is not None and _time(m["h"], m["mi"]) is None:
            return (f"'{m['h']}{m['mi']}' after the date is no time of day (HHMM): read as part of the name; "
                    f"the file is dated {m[0][:10]} with no time")
        return None
    near = _NEAR_STAMP_RE.match(base)
    if near is not None:
        return (f"file name starts with '{near[0]}', a date not written as a stamp (YYYY-MM-DD, "
                "e.g. 2026-07-31-0900-notes.md); the file is read as undated")
    return None
