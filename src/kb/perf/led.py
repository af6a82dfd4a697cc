"""``finditer`` of a pattern re cannot skip through, led by a pattern it can (:func:`led_matches`).

:mod:`re` searches fast only for a pattern whose first step is a character or a class: it skips
in C to the next place that character stands. A pattern that starts with a look-behind, a group
of alternatives or a look-ahead is instead tried at every position of the text, each try a full
start of its program. A cheap *leading* pattern (one class, its look-behinds after it) finds the
places a match can start; the full pattern is then matched there only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator


def led_matches(start: re.Pattern[str], pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a pattern that never matches empty and whose every match
    starts where ``start`` matches: ``pattern`` matched at each such place, left to right, the
    next place looked for after a match (the same leftmost, non-overlapping matches).

    Exact when those two conditions hold (the caller's pattern says why they do): ``finditer``
    tries every position left to right and takes the first that matches, then goes on from its
    end; a position where ``start`` does not match cannot match, so skipping it changes nothing.
    ``pattern.match(text, i)`` reads the text before ``i`` for its look-behinds as ``finditer``
    does (a position argument is no slice)."""
    pos = 0
    while (at := start.search(text, pos)) is not None:
        m = pattern.match(text, at.start())
        if m is None:
            pos = at.start() + 1
            continue
        yield m
        pos = m.end()
