"""markdown-it's block rules behind a look at the line's first character (start-up of each block).

markdown-it tries its block rules one by one at the start of every block, and again at every
line of a paragraph (twice: ``lheading`` and ``paragraph`` each ask the rules that may end a
paragraph): ~10 calls a line, each logging a debug record and asking ``is_code_block`` before it
looks at the line's first character and returns False. :func:`guard_rules` puts each rule that
needs a given first character behind that one test (``code`` behind its indent test, ``hr``
behind a line of its marker and spaces only, ``table`` behind the first character of its
delimiter row, the line below), so a line that cannot open the block costs one call. A rule passes the test exactly when it would go
on past its own first look (the characters are the rule's own), so every parse gives the same
tokens (tests/test_mdrules.py). Speed machinery only: which blocks Markdown has is markdown-it's.

The inline ``link`` and ``image`` rules are put behind one test too (:func:`_closable`): a ``]``
between the rule's ``[`` and the end of the text, and a ``](`` when no reference is defined.
Without it, each ``[`` of a text with none after it scanned on to the end of the text, recursing
``maxNesting`` deep (a 200 KB paragraph of ``[`` or ``![`` took ~8 s to parse, ~100 rule calls a
character).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import blockquote, code, fence, heading, hr, html_block, list_block, reference, table
from markdown_it.rules_inline import image, link
from markdown_it.utils import OptionsDict

from kb.perf.mdtokens import Options

Rule = Callable[[Any, int, int, bool], bool]

#: markdown-it's own rules (these very functions) -> the first characters they go on at (the
#: character at ``bMarks + tShift``; each rule returns False at once for any other). ``fence``
#: is the rule of ``make_fence_rule()``'s default markers.
FIRST_CHARS: dict[Rule, str] = {
    fence: "`~",
    blockquote: ">",
    hr: "*-_",
    list_block: "*+-0123456789",
    reference: "[",
    html_block: "<",
    heading: "#",
}


def _first_char(rule: Rule, chars: str) -> Rule:
    """``rule`` asked only where the line's first character is one of ``chars`` (or the line
    has none: then the rule itself decides, as before)."""

    def guarded(state: Any, start: int, end: int, silent: bool) -> bool:
        at = state.bMarks[start] + state.tShift[start]
        if state.src[at:at + 1] not in chars:  # ("" is in every string: the rule decides)
            return False
        return rule(state, start, end, silent)

    guarded.__wrapped__ = rule  # type: ignore[attr-defined]
    return guarded


def _indented(rule: Rule) -> Rule:
    """The ``code`` rule asked only where the line is indented 4 or more past the block
    (``is_code_block``'s test, with which it returns False)."""

    def guarded(state: Any, start: int, end: int, silent: bool) -> bool:
        if state.sCount[start] - state.blkIndent < 4:
            return False
        return rule(state, start, end, silent)

    guarded.__wrapped__ = rule  # type: ignore[attr-defined]
    return guarded


def _marks_only(rule: Rule) -> Rule:
    """The ``hr`` rule asked only where the line is one of its markers (``*``, ``-``, ``_``) with
    only that marker, spaces and tabs after it: for any other character the rule returns False
    (a list item's ``- text`` line asked it at every item: ~0.7 % of an ingest). An empty line,
    the rule decides."""

    def guarded(state: Any, start: int, end: int, silent: bool) -> bool:
        at = state.bMarks[start] + state.tShift[start]
        line = state.src[at:state.eMarks[start]]
        if line and (line[0] not in "*-_" or line.strip(" \t" + line[0])):
            return False
        return rule(state, start, end, silent)

    guarded.__wrapped__ = rule  # type: ignore[attr-defined]
    return guarded


#: How a table's delimiter row starts, as the ``table`` rule's first look reads it: ``|`` or ``:``
#: then ``|``, ``-``, ``:``, a space or a tab; ``-`` then ``|``, ``-`` or ``:`` (``- `` is a list item).
_DELIMITER_START_RE = re.compile(r"[|:][-|: \t]|-[-|:]")


def _delimited(rule: Rule) -> Rule:
    """The ``table`` rule asked only where the line below ``start`` may be its delimiter row
    (``|---|:-:|``): it starts as :data:`_DELIMITER_START_RE` says. The rule returns False,
    having changed nothing, for two lines or fewer before ``end`` and for any other start of that
    line (a line of fewer than two characters included: its line end is no cell character), so
    a list item's next ``- item`` line no longer asks it."""

    def guarded(state: Any, start: int, end: int, silent: bool) -> bool:
        if start + 2 > end:
            return False
        if _DELIMITER_START_RE.match(state.src, state.bMarks[start + 1] + state.tShift[start + 1]) is None:
            return False
        return rule(state, start, end, silent)

    guarded.__wrapped__ = rule  # type: ignore[attr-defined]
    return guarded


_CLOSE_RE = re.compile(r"\]")
_INLINE_LINK_RE = re.compile(r"\]\(")
#: The last inline text asked about, the offsets of its ``]`` and of its ``](`` (one slot: the
#: inline parser asks about one text at a time; the text is held, so ``is`` cannot match another one).
_closes: list[Any] = [None, [], []]


def _after(offsets: list[int], pos: int, below: int) -> bool:
    """Whether one of the sorted ``offsets`` is above ``pos`` and below ``below``."""
    i = bisect.bisect_right(offsets, pos)
    return i < len(offsets) and offsets[i] < below


def _closable(rule: Callable[[Any, bool], bool]) -> Callable[[Any, bool], bool]:
    """The inline ``rule`` (``link`` or ``image``) asked only where it can succeed. Its label scan
    (``parseLinkLabel``) ends only at a ``]`` before the end of the text being read
    (``state.posMax``), so without one the rule returns False anyway. And with no reference
    defined (``state.env["references"]``), the rule succeeds only as an inline link, whose label's
    ``]`` is followed by ``(`` before that end: without such a ``](`` it returns False too (a
    paragraph of ``[`` closed by one ``]`` scanned ~maxNesting positions a bracket: ~60 ms a KB).

    Skipping a call that returns False leaves out only what the call would have cached for the
    label scans after it (``state.cache``, offsets past the call's own), and those scans are all
    of calls past the last ``](``, skipped too, or of calls whose label runs past it, which
    return False however they scan. markdown-it's tokens stay the same (tests/test_mdrules.py)."""

    def guarded(state: Any, silent: bool) -> bool:
        src = state.src
        if _closes[0] is not src:
            _closes[:] = src, [m.start() for m in _CLOSE_RE.finditer(src)], [m.start() for m in _INLINE_LINK_RE.finditer(src)]
        if not _after(_closes[1], state.pos, state.posMax):
            return False
        if not state.env.get("references") and not _after(_closes[2], state.pos, state.posMax - 1):
            return False
        return rule(state, silent)

    guarded.__wrapped__ = rule  # type: ignore[attr-defined]
    return guarded


def guard_rules(md: MarkdownIt) -> MarkdownIt:
    """``md`` with each of markdown-it's own block rules (:data:`FIRST_CHARS`, ``code``, ``table``,
    ``hr``: :func:`_marks_only`) behind its first test and its inline ``link`` and ``image`` rules
    behind :func:`_closable`, in place (names, order, enabled state and alternatives kept); a rule
    of another function (a plugin's, one replaced) is left as it is; its options an
    :class:`kb.perf.mdtokens.Options` (the same, read faster). Returns ``md``."""
    if type(md.options) is OptionsDict:
        md.options = Options(md.options._options)
    ruler = md.block.ruler
    for r in list(ruler.__rules__):
        if r.fn is code:
            ruler.at(r.name, _indented(r.fn), {"alt": list(r.alt)})
        elif r.fn is hr:
            ruler.at(r.name, _marks_only(r.fn), {"alt": list(r.alt)})
        elif r.fn is table:
            ruler.at(r.name, _delimited(r.fn), {"alt": list(r.alt)})
        elif r.fn in FIRST_CHARS:
            ruler.at(r.name, _first_char(r.fn, FIRST_CHARS[r.fn]), {"alt": list(r.alt)})
    inline = md.inline.ruler
    for r in list(inline.__rules__):
        if r.fn is link or r.fn is image:
            inline.at(r.name, _closable(r.fn), {"alt": list(r.alt)})
    return md
