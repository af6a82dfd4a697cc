"""The one §-hint rule: the section numbers a text writes (``§2.13``, ``§ 3``) and the section a
claim says it belongs in (``建议归入 §2.3``, ``file under §4``). The parser and the diff read both
from here; the hint words are data in :mod:`kb.extract.vocab.sections`.
"""

from __future__ import annotations

import re

from kb.extract.vocab.sections import HINT_WORDS

_SECTION_RE = re.compile(r"§\s*(\d+(?:\.\d+)*)")
"""A section number as written: ``§`` then dotted digits (the number is group 1)."""

_HINT_RE = re.compile(
    "(?:" + "|".join(HINT_WORDS) + r")\s*[:：]?\s*[^§\n]{0,16}?§\s*(\d+(?:\.\d+)*)",
    re.IGNORECASE,
)
"""A filing hint: a hint word, an optional colon and at most 16 other characters on the line,
then a section number (group 1)."""


def section_number(text: str) -> str | None:
    """The first section number written in ``text`` (``## §2.3 Medusa`` → ``"2.3"``), else None."""
    m = _SECTION_RE.search(text) if "§" in text else None
    return m.group(1) if m else None


def section_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every section number written in ``text`` (``§2.13``): no quantity or
    date is read inside one."""
    return [m.span() for m in _SECTION_RE.finditer(text)] if "§" in text else []


def hinted_section(text: str) -> str | None:
    """The section ``text`` says it belongs in, as ``§N.N``, or None.

    ``建议归入 §2.3`` → ``"§2.3"``, ``file under: §4`` → ``"§4"``, ``建议补到 § 1.2`` → ``"§1.2"``;
    a ``§`` number without a hint word (``见 §2.13``) is none.

    :param text: one claim's text.
    """
    m = _HINT_RE.search(text) if "§" in text else None
    return "§" + m.group(1) if m else None
