"""The common front matter read without the YAML loader: flat ``key: value`` lines.

Most front matter is a few ``key: value`` lines (``card: 16``, ``arxiv: "2511.32564"``,
``aliases: [部署16]``, ``created: 2026-07-29T04:30:00+08:00``); ruamel spends ~0.4 ms on each
(its parser, resolver and constructor). :func:`flat_mapping` reads a front matter made only of
such lines, every value of a narrow form whose YAML 1.2 meaning is plain, and gives None for
anything else, which the caller hands to ruamel (:func:`kb.core.frontmatter.load_yaml`).

Exact by construction and checked: what it accepts is the mapping ruamel's safe loader gives,
equal value for value and of the same types (tests/test_flatyaml.py compares the two on every
front matter of the test KBs and on random ones built of the forms below and their near misses).
Accepted, one per line (no blank, comment, indented or continued line; no key twice):

* a key ``[A-Za-z_][A-Za-z0-9_-]*`` of at most 128 characters that is no YAML word (``true``, ``null``, ``yes`` …), then ``: ``;
* a value, with no space around it: a ``"double"`` (no ``\\`` or ``"`` inside) or ``'single'`` (no
  ``'``) quoted text; a plain decimal integer (``0``, ``16``, no sign or leading zero); a date
  ``YYYY-MM-DD`` or date-time ``YYYY-MM-DDTHH:MM:SS`` with ``Z`` or ``±HH:MM`` or no zone (built
  as ruamel's ``create_timestamp`` builds them: the zone named as written); a plain text that starts
  with a letter and holds no ``:`` or ``#`` and is no YAML word; a ``[flow, list]`` of such texts.

Every character must be printable (``str.isprintable``; a space): no tab, control, line or
paragraph separator, BOM. Whatever fails to build (``2026-02-30``, an offset of 99 hours) is None too,
so the loader reports it as before.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from typing import Any

#: (A key of at most 128 characters: YAML allows an implicit key 1,024, ruamel refuses a longer one.)
_LINE_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]{0,127}): (\S(?:.*\S)?)")
_INT_RE = re.compile(r"0|[1-9][0-9]{0,17}")
_STAMP_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})"
                       r"(?:T([0-9]{2}):([0-9]{2}):([0-9]{2})(Z|([-+])([0-9]{2}):([0-9]{2}))?)?")
#: Plain texts YAML 1.1 or 1.2 reads as a boolean or null (compared lower-cased): never read here.
_WORDS = frozenset(("true", "false", "yes", "no", "y", "n", "on", "off", "null", "~"))
#: Characters a plain text read here never holds (``:``/``#`` may start a key or a comment; the
#: flow indicators end a list item).
_PLAIN_STOP = frozenset(":#")
_ITEM_STOP = frozenset(":#,[]{}\"'")


def flat_mapping(src: str) -> dict[str, Any] | None:
    """The mapping of the front matter ``src`` (its lines between the ``---``), or None when it
    is not of the flat form above (the caller then loads it with ruamel)."""
    if not src.replace("\n", " ").isprintable():
        return None
    out: dict[str, Any] = {}
    for line in src.split("\n"):
        if not line:
            continue
        m = _LINE_RE.fullmatch(line)
        if m is None:
            return None
        key = m.group(1)
        if key in out or key.lower() in _WORDS:
            return None
        value = _value(m.group(2))
        if value is None:
            return None
        out[key] = value[0]
    return out or None


def _value(text: str) -> tuple[Any] | None:
    """``(value,)`` of one value as written, or None when it is of no form read here."""
    first = text[0]
    if first == '"':
        return (text[1:-1],) if len(text) >= 2 and text[-1] == '"' and '"' not in text[1:-1] \
            and "\\" not in text else None
    if first == "'":
        return (text[1:-1],) if len(text) >= 2 and text[-1] == "'" and "'" not in text[1:-1] else None
    if first == "[":
        if text[-1] != "]":
            return None
        inner = text[1:-1].strip(" ")
        if not inner:
            return ([],)
        items = [item.strip(" ") for item in inner.split(",")]
        if not all(_plain(item) and _ITEM_STOP.isdisjoint(item) for item in items):
            return None
        return (items,)
    if first.isdigit():
        if _INT_RE.fullmatch(text):
            return (int(text),)
        m = _STAMP_RE.fullmatch(text)
        return _stamp(m) if m is not None else None
    return (text,) if _plain(text) and _PLAIN_STOP.isdisjoint(text) else None


def _plain(text: str) -> bool:
    """A plain text read here: it starts with a letter and is no YAML word."""
    return bool(text) and text[0].isalpha() and text.lower() not in _WORDS


def _stamp(m: re.Match[str]) -> tuple[date | datetime] | None:
    """A date or date-time as ruamel's ``create_timestamp`` builds it, or None when it is none."""
    year, month, day, hour, minute, second, tz, sign, tz_hour, tz_minute = m.groups()
    try:
        if hour is None:
            return (date(int(year), int(month), int(day)),)
        zone = None
        if sign:
            delta = timedelta(hours=int(tz_hour), minutes=int(tz_minute))
            zone = timezone(-delta if sign == "-" else delta, name=tz)
        elif tz == "Z":
            zone = timezone(timedelta(hours=0), name=tz)
        return (datetime(int(year), int(month), int(day), int(hour), int(minute), int(second), 0, zone),)
    except (ValueError, OverflowError):
        return None
