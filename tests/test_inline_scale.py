"""One line of thousands of inline HTML tags (``1<br>1<br>…``, ``<b>1<b>1…``, ``<del>1<del>1…``)
is made text in time linear in its tags (:func:`kb.read.inline._inline_text`): what follows
each tag is found by one backward pass over the line's tokens, never by a scan (a copy) of the
rest of the line per tag; whether a struck tag is closed later by the last closing tag of its
name. Counted here, not timed (the times are ``benchmarks/bench_adversarial.py``)."""

from __future__ import annotations

from typing import Any

import pytest

import kb.read.inline as inline
from kb.read.inline import _inline_text
from kb.read.parse import _md


class _Children(list):  # type: ignore[type-arg]
    """An inline token's children that count how many elements their slices copy."""

    copied = 0

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, slice):
            _Children.copied += len(range(*k.indices(len(self))))
        return list.__getitem__(self, k)


def _inline(text: str) -> Any:
    tok = next(t for t in _md().parse(text) if t.type == "inline")
    tok.children = _Children(tok.children)
    _Children.copied = 0
    return tok


@pytest.fixture
def tags(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The raw tags :func:`kb.read.inline._tag` was asked about."""
    seen: list[str] = []
    real = inline._tag
    monkeypatch.setattr(inline, "_tag", lambda raw: seen.append(raw) or real(raw))
    return seen


def test_a_line_of_breaks_reads_each_tag_twice_and_copies_nothing(tags: list[str]) -> None:
    tok = _inline("TGI " + "1<br>" * 3000 + " tok/s")
    info = _inline_text(tok)
    assert info.text == "TGI " + "1 " * 2999 + "1 tok/s"
    assert info.breaks == []
    assert _Children.copied == 0
    assert len(tags) == 2 * 3000  # the backward pass and the tag's own turn


@pytest.mark.parametrize(("unit", "text"), [
    ("<b>1", "TGI " + "1" * 2000 + " tok/s"),  # two digits are one number (7<b>06</b> is 706)
    ("<sup>1", "TGI " + "^1" * 2000 + " tok/s"),
    ("<sub>1", "TGI " + "_1" * 2000 + " tok/s"),
    ("a<sup>nd</sup> ", "TGI " + "and " * 2000 + " tok/s"),  # (the text as written: two spaces)
])
def test_a_line_of_inline_tags_copies_nothing(tags: list[str], unit: str, text: str) -> None:
    info = _inline_text(_inline("TGI " + unit * 2000 + " tok/s"))
    assert info.text == text
    assert _Children.copied == 0
    assert len(tags) == 2 * 2000 * unit.count("<")


def test_struck_tags_never_closed_strike_nothing_and_each_is_read_twice(tags: list[str]) -> None:
    info = _inline_text(_inline("TGI " + "<del>1" * 2000 + " tok/s"))
    assert info.text == "TGI " + "1" * 2000 + " tok/s"  # (a <del> never closed strikes nothing)
    assert len(tags) == 2 * 2000  # was 2000 * 2001 / 2: every later tag per <del>


def test_a_struck_tag_closed_later_strikes_to_its_close(tags: list[str]) -> None:
    info = _inline_text(_inline("TGI <del>1 " + "<b>2 " * 500 + "</del> 3 <s>4</s> 5 tok/s"))
    assert info.text == "TGI 3 5 tok/s"
    assert len(tags) == 2 * 504  # the closers' pass, then each tag once (none is read past)
