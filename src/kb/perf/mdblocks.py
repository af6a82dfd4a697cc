"""markdown-it's block loop, forked to hand out one top-level block's tokens at a time (issue 12).

Speed and memory machinery under the parser (:mod:`kb.read.parse`), no domain rule: the same
tokens as ``MarkdownIt.parse`` (:func:`_blocks`), a long top-level list cut and a long table
read in pieces (:func:`_list_cuts`, :func:`_table_pieces`), a big text's lines without a
string per line (:class:`_Lines`), and the lines no block token covers when markdown-it hit its
nesting limit (:func:`_cover`, :func:`_unread_lines`).
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Iterator, Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import mdTrim
from markdown_it.rules_block.table import escapedSplit, getLine
from markdown_it.rules_core.state_core import StateCore
from markdown_it.token import Token

from kb.perf.mdtokens import BlockState, new_token

_LEAF_BLOCKS = frozenset({"paragraph_open", "heading_open", "table_open", "fence", "code_block", "html_block", "hr"})
# possessive runs: the two mark runs cannot trade characters, so a long run is one pass, not n²
_MARKS_ONLY_RE = re.compile(r"^[\s>*+\-]*+(?:\d+[.)])?[\s>*+\-]*+$")

#: From this many characters, a text's lines are sliced from it when asked (:class:`_Lines`).
_LAZY_LINES_MIN = 1_000_000


class _Lines(Sequence[str]):
    """``text.split("\\n")`` without a string per line (a big file: issue 12): the offsets of
    the lines (8 bytes each), each line sliced from ``text`` when asked."""

    __slots__ = ("text", "starts")

    def __init__(self, text: str) -> None:
        self.text = text
        starts = array("q", [0])
        find = text.find
        at = find("\n")
        while at >= 0:
            starts.append(at + 1)
            at = find("\n", at + 1)
        starts.append(len(text) + 1)
        self.starts = starts

    def __len__(self) -> int:
        return len(self.starts) - 1

    def __getitem__(self, i: int) -> str:  # type: ignore[override]
        n = len(self.starts) - 1
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return self.text[self.starts[i] : self.starts[i + 1] - 1]

    def __iter__(self) -> Iterator[str]:
        return (self[i] for i in range(len(self)))


def _cover(tokens: list[Token], covered: bytearray) -> int:
    """Mark in ``covered`` (one byte per 0-based line) the lines a leaf block token covers;
    returns the deepest nesting ``level`` of ``tokens`` (0 for none), found in the same pass."""
    n = len(covered) - 1
    deepest = 0
    for t in tokens:
        if t.level > deepest:
            deepest = t.level
        if t.type in _LEAF_BLOCKS and t.map:
            a, b = t.map[0], min(t.map[1], n)
            if b > a:
                covered[a:b] = b"\x01" * (b - a)
    return deepest


def _unread_lines(covered: bytearray, lines: list[str]) -> list[int]:
    """1-based lines with text that no block token covers (markdown-it hit its nesting limit)."""
    return [i + 1 for i, line in enumerate(lines) if not covered[i] and not _MARKS_ONLY_RE.match(line)]


def _blocks(md: MarkdownIt, src: str) -> Iterator[list[Token]]:
    """The tokens of ``src``, one top-level block at a time (issue 12: memory bound).

    The same tokens, in the same order, as ``md.parse(src)``: markdown-it's own core chain
    (normalize, block, inline, text_join) and its block loop (``ParserBlock.tokenize``), except
    that each top-level block's tokens are handed out, inline-parsed, as soon as its rule has
    matched, so only one block's tokens are alive at a time (made field by field:
    :mod:`kb.perf.mdtokens`). Link reference definitions apply
    to the whole document (also above them): when ``src`` may hold one (``]:``), a first pass
    collects them without keeping any token.
    """
    core = [r for r in md.core.ruler.__rules__ if r.enabled]
    if [r.name for r in core[:2]] != ["normalize", "block"]:  # pragma: no cover - another markdown-it
        yield md.parse(src)
        return
    env: dict[str, Any] = {}
    state = StateCore(src, md, env)
    if "\r" in src or "\0" in src:  # else normalize would only copy the text
        core[0].fn(state)  # normalize: line ends and NUL as markdown-it does them
        src = state.src
    if not src:
        return
    if "]:" in src:
        for _ in _block_loop(BlockState(src, md, env, [])):
            pass
    rest = core[2:]  # inline, text_join (as enabled)
    if [r.name for r in rest[:2]] == ["inline", "text_join"] and _shortcut_ok(md):
        after = [_plain_first(md, rest[1].fn)] + [r.fn for r in rest[2:]]
    else:
        after = [r.fn for r in rest]
    for tokens in _block_loop(BlockState(src, md, env, [])):
        state.tokens = tokens
        for fn in after:
            fn(state)
        yield state.tokens


#: Every character at which one of CommonMark's inline rules (markdown-it's ``newline``,
#: ``escape``, ``backticks``, ``emphasis``, ``link``, ``image``, ``autolink``, ``html_inline``,
#: ``entity``) or ``strikethrough`` can start: an inline text without any is one text token,
#: whatever else it holds.
_INLINE_SYNTAX_RE = re.compile(r"[\n\\`*_\[\]!<&~]")
_INLINE_RULES = frozenset({"text", "newline", "escape", "backticks", "emphasis", "link", "image", "autolink",
                           "html_inline", "entity", "strikethrough"})
_INLINE_RULES2 = frozenset({"balance_pairs", "emphasis", "fragments_join", "strikethrough"})


def _shortcut_ok(md: MarkdownIt) -> bool:
    """Whether ``md`` reads inline text with CommonMark's rules only (no plugin rule, no extra
    terminator character): then :func:`_plain_first` gives its own tokens."""
    inline = md.inline
    return ({r.name for r in inline.ruler.__rules__ if r.enabled} <= _INLINE_RULES
            and {r.name for r in inline.ruler2.__rules__ if r.enabled} <= _INLINE_RULES2
            and not getattr(inline, "_extra_terminator_chars", None))


def _plain_first(md: MarkdownIt, join: Any = None) -> Any:
    """markdown-it's ``inline`` core rule, except that an inline token whose content holds no
    character an inline rule starts at (:data:`_INLINE_SYNTAX_RE`) gets its one ``text`` child
    directly: what the inline parser would make of it (its ``text`` rule and pending text,
    level 0; none for an empty content), without starting an inline state. On the synthetic
    KB 99 % of inline tokens are such plain text, and their inline parse was ~30 % of
    markdown-it's time (tests/test_mdblocks_inline.py checks the tokens equal markdown-it's).

    :param join: the ``text_join`` core rule that comes right after ``inline``, or None: run
        here over the tokens the inline parser read (one text child has nothing to join)."""
    parse = md.inline.parse
    plain = _INLINE_SYNTAX_RE.search

    def inline(state: StateCore) -> None:
        parsed: list[Token] = []
        for token in state.tokens:
            if token.type == "inline":
                if token.children is None:
                    token.children = []
                content = token.content
                if plain(content) is None:
                    if content:
                        text = new_token("text", "", 0)
                        text.content = content
                        token.children.append(text)
                else:
                    parse(content, state.md, state.env, token.children)
                    parsed.append(token)
        if join is not None and parsed:
            whole, state.tokens = state.tokens, parsed
            try:
                join(state)
            finally:
                state.tokens = whole

    return inline


#: In a text of more than this many lines, a long top-level list or table is read in pieces
#: (:func:`_list_cuts`, :func:`_table_pieces`), so that a file that is one long list or table
#: does not hold all its tokens (and all their claims, until the block ends) at once.
LONG_TEXT_LINES = 2000
#: Lines of each list a long top-level list is read as (cut before one of its own items).
LIST_CUT_LINES = 250
#: Rows of each table a long top-level table is read as (:func:`_table_pieces`; a row is ~30
#: tokens, a list line ~5).
TABLE_CUT_ROWS = 200
_ITEM_START_RE = re.compile(r"^(?:[-+*]|\d{1,9}[.)])[ \t]+\S", re.M)


def _list_cuts(state: Any) -> tuple[Sequence[int], bytes] | None:
    """Lines (0-based, sorted) where an item of a top-level list may start a new list, and the
    marker each is written with (one byte each: ``-``, ``+``, ``*``, ``.`` or ``)``); None for a
    text of at most :data:`LONG_TEXT_LINES` lines.

    Such a line starts at column 0 with a list marker and text. Where a top-level list goes on
    to it, it is the start of one of that list's own items (every item's content is indented
    at least 2, and an item line ends any paragraph), so a list cut there has the same
    tokens, except for one more pair of list open/close tokens, the tight/loose marks
    (``hidden``) of the paragraphs and an ordered list's ``start``; kb reads none of them.
    """
    if state.lineMax <= LONG_TEXT_LINES:
        return None
    marks = state.bMarks
    lines = array("q")  # 8 bytes a line, not an int object each
    markers = bytearray()
    line = 0
    for m in _ITEM_START_RE.finditer(state.src):
        line = bisect.bisect_right(marks, m.start(), line) - 1
        if marks[line] == m.start():
            lines.append(line)
            text = m.group()
            markers.append(ord(text[0] if text[0] in "-+*" else text[len(text.split(None, 1)[0]) - 1]))
    return lines, bytes(markers)


def _list_end(state: Any, line: int, end: int, cuts: tuple[Sequence[int], bytes], rules: dict[str, Any]) -> int:
    """``end``, or an earlier line at which the top-level list starting at ``line`` is cut
    (the first of :func:`_list_cuts` at least :data:`LIST_CUT_LINES` on, written with the same
    marker, where no table or thematic break starts instead)."""
    src = state.src
    at = state.bMarks[line] + state.tShift[line]
    first = src[at : at + 1]
    if not first or (first not in "-+*" and not first.isdigit()):
        return end  # no list starts here (the common case: one look at a character)
    if (state.sCount[line] >= 4 or rules["table"](state, line, end, True) or rules["hr"](state, line, end, True)
            or not rules["list"](state, line, end, True)):
        return end
    if first in "-+*":
        marker = first
    else:
        while src[at].isdigit():
            at += 1
        marker = src[at]
    lines, markers = cuts
    for k in range(bisect.bisect_left(lines, line + LIST_CUT_LINES), len(lines)):
        cut = lines[k]
        if cut >= end:
            break
        if markers[k] == ord(marker) and not rules["table"](state, cut, end, True) and not rules["hr"](state, cut, end, True):
            return cut
        if cut > line + 4 * LIST_CUT_LINES:
            break
    return end


def _cells(state: Any, line: int) -> int:
    """Cells of a table line as markdown-it's table rule counts them (escapedSplit, without
    the empty first and last parts)."""
    t = mdTrim(getLine(state, line))
    if "\\" in t or len(t) < 2:
        cols = escapedSplit(t)
        if cols and cols[0] == "":
            cols.pop(0)
        if cols and cols[-1] == "":
            cols.pop()
        return len(cols)
    return t.count("|") + 1 - t.startswith("|") - t.endswith("|")


def _table_pieces(state: Any, start: int, end: int, table: Any) -> Iterator[list[Token]]:
    """The tokens of the top-level table at ``start``, as tables of :data:`TABLE_CUT_ROWS`
    rows each (issue 12: a file that is one long table).

    Each piece after the first is read by markdown-it's own table rule with the table's header
    and delimiter lines in place of the two lines above it (the line arrays are put back after),
    so its rows give the same tokens; each piece has its own ``table_open``/``thead``/
    ``table_close`` (kb reads the header of each, the same). A table is cut only while every row
    before the cut has the header's number of cells, so the rule's limit on autocompleted cells
    (counted from the table's start) stops the table where it would have.
    """
    arrays = (state.bMarks, state.eMarks, state.tShift, state.sCount, state.bsCount)
    columns = _cells(state, start)
    at = start  # the piece's header line (the real one, then the two lines above a cut)
    while True:
        upto = end
        cut = at + 2 + TABLE_CUT_ROWS
        if cut < end and all(_cells(state, r) == columns for r in range(at + 2, cut)):
            upto = cut
        if at == start:
            ok = table(state, start, upto, False)
        else:
            saved = [(a[at], a[at + 1]) for a in arrays]
            for a in arrays:
                a[at], a[at + 1] = a[start], a[start + 1]
            try:
                ok = table(state, at, upto, False)
            finally:
                for a, (x, y) in zip(arrays, saved):
                    a[at], a[at + 1] = x, y
        if not ok:  # pragma: no cover - the rule read these lines as a table before
            return
        yield state.tokens
        state.tokens = []
        if upto == end or state.line < upto:
            return
        at = upto - 2


def _block_loop(state: Any) -> Iterator[list[Token]]:
    """``ParserBlock.tokenize(state, 0, lineMax)`` of markdown-it-py, yielding (and dropping)
    the tokens of each top-level block as it is done; in a long text a long list is cut
    (:func:`_list_cuts`) and a long table read in pieces (:func:`_table_pieces`)."""
    md = state.md
    rules = md.block.ruler.getRules("")
    line = state.line
    end = state.lineMax
    max_nesting = md.options.maxNesting
    empty_before = False
    cuts = _list_cuts(state)
    named = {r.name: r.fn for r in md.block.ruler.__rules__ if r.enabled}
    while line < end:
        state.line = line = state.skipEmptyLines(line)
        if line >= end:
            break
        if state.sCount[line] < state.blkIndent:
            break
        if state.level >= max_nesting:
            state.line = end
            break
        ok = False
        long = cuts is not None and end - line > 2 * min(LIST_CUT_LINES, TABLE_CUT_ROWS)
        if long and named["table"](state, line, end, True):
            yield from _table_pieces(state, line, end, named["table"])
            ok = True
        else:
            upto = _list_end(state, line, end, cuts, named) if long and cuts is not None else end
            for rule in rules:
                ok = rule(state, line, upto, False)
                if ok:
                    if state.line <= line:
                        raise RuntimeError("block rule didn't increment state.line")
                    break
        if not ok:
            raise RuntimeError("none of the block rules matched")
        state.tight = not empty_before
        line = state.line
        if (line - 1) < end and state.isEmpty(line - 1):
            empty_before = True
        if line < end and state.isEmpty(line):
            empty_before = True
            line += 1
            state.line = line
        if state.tokens:
            yield state.tokens
            state.tokens = []

