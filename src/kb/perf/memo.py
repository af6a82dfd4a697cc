"""Answers about an object made once while a caller lives (:class:`PerObject`).

A line naming thousands of arXiv ids is one claim under as many subjects; each subject asks the
same questions of it (its ids as a set, whether it is a metadata row). Asked per subject, each
answer reads the whole line: quadratic in the line. The caller (one reader per night) keeps a
:class:`PerObject` and asks it instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class PerObject:
    """``read(obj)`` memoised per ``(what, obj)``: keyed by ``id(obj)`` with ``obj`` kept, so an
    id reused by another object after the first is freed is never answered for it (the entry
    keeps the first alive while the memo lives). Not thread-safe; raises what ``read`` raises."""

    def __init__(self) -> None:
        self._hits: dict[tuple[str, int], tuple[Any, Any]] = {}

    def get(self, what: str, obj: Any, read: Callable[[Any], T]) -> T:
        """``read(obj)``, computed on the first ask of ``what`` about ``obj`` and kept."""
        hit = self._hits.get((what, id(obj)))
        if hit is None or hit[0] is not obj:
            hit = self._hits[what, id(obj)] = (obj, read(obj))
        return hit[1]  # type: ignore[no-any-return]


class Substrings:
    """``s in text`` for many ``s`` of a few lengths: the substrings of ``text`` of each asked
    length are gathered once into a set, so n look-ups in a text of length m cost O(m) a length
    plus O(1) each, not O(m) each (a table cell of 16000 arXiv ids asked once per id)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._by_len: dict[int, set[str]] = {}

    def __contains__(self, s: str) -> bool:
        """Whether ``s`` occurs in the text, exactly as ``s in text`` (the empty string always)."""
        n = len(s)
        if n == 0 or n > len(self.text):
            return n == 0
        if n not in self._by_len:
            t = self.text
            self._by_len[n] = {t[i:i + n] for i in range(len(t) - n + 1)}
        return s in self._by_len[n]
