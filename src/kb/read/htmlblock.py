"""HTML blocks as kb reads them (markdown-it ``html_block``: ``<table>…</table>``, ``<div>…</div>``):
the block's text as the paragraphs and table rows Markdown would give, as markdown-it tokens the
block walk (:mod:`kb.read.walk`) reads like its own.

The HTML is read with the standard library's :class:`html.parser.HTMLParser`. A table's rows are
a Markdown table's rows (its ``<thead>`` rows or a first row of ``<th>`` cells the header); the
text between other block elements (``<p>``, ``<div>``, ``<li>`` …) is a paragraph, its source
lines kept, and the text of an ``<h1>``–``<h6>`` a heading. Inline tags stay ``html_inline`` children, so that the one flattener,
:func:`kb.read.inline._inline_text`, makes text of them (``<br>`` parts, ``<del>`` is not read).
Comments, declarations and the text of ``<script>``, ``<style>``, ``<pre>`` (code, as a fenced
block is), ``<textarea>`` and ``<template>`` are not read.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from markdown_it.token import Token

from kb.read.inline import BLOCK_TAGS

#: Elements whose text is not read.
SKIPPED_TAGS = frozenset({"script", "style", "pre", "textarea", "template", "head", "title"})
_TABLE_TAGS = frozenset({"table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "colgroup", "col"})
#: Block elements that end a paragraph (the others of :data:`BLOCK_TAGS` only part its text).
_PARAGRAPH_ENDS = BLOCK_TAGS - _TABLE_TAGS - {"br", "img", "hr"}
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def _tok(kind: str, tag: str, nesting: int, level: int, line: int | None = None, end: int | None = None) -> Token:
    t = Token(kind, tag, nesting)
    t.level = level
    if line is not None:
        t.map = [line, end if end is not None else line + 1]
    return t


def _inline(children: list[Token], level: int) -> Token:
    t = _tok("inline", "", 0, level)
    t.children = children
    t.content = "".join(c.content if c.type != "softbreak" else "\n" for c in children)
    return t


class _Reader(HTMLParser):
    """Collects one HTML block's paragraphs and tables as token groups (:func:`html_tokens`)."""

    def __init__(self, first: int, level: int) -> None:
        super().__init__(convert_charrefs=True)
        self.first = first  # 0-based source line of the block's first line
        self.level = level
        self.out: list[Token] = []
        self.kids: list[Token] = []  # the open paragraph's children
        self.start = -1  # 0-based line of its first text (-1: none yet)
        self.skip = 0  # depth inside SKIPPED_TAGS
        self.depth = 0  # table nesting (only the outermost table has rows)
        self.rows: list[list[Any]] = []  # [line, in <thead>, only <th> cells, cells]
        self.cell: list[Token] | None = None
        self.in_head = False

    def _line(self) -> int:
        return self.first + self.getpos()[0] - 1

    def _target(self) -> list[Token]:
        return self.cell if self.cell is not None else self.kids

    def _tag_child(self, raw: str) -> None:
        target = self._target()
        if target is self.kids and self.start < 0:
            return  # a tag before any text: nothing to part
        child = Token("html_inline", "", 0)
        child.content = raw
        target.append(child)

    def flush(self, heading: str = "") -> None:
        """The open paragraph, if it holds text, as paragraph tokens (heading tokens when it is
        the text of ``heading``, an ``h1``–``h6``)."""
        kids = self.kids
        while kids and (kids[-1].type == "softbreak" or (kids[-1].type == "text" and not kids[-1].content.strip())):
            kids.pop()
        if kids and any(c.type == "text" and c.content.strip() for c in kids):
            end = self.start + 1 + sum(1 for c in kids if c.type == "softbreak")
            kind, tag = ("heading", heading) if heading else ("paragraph", "p")
            self.out += [_tok(kind + "_open", tag, 1, self.level, self.start, end),
                         _inline(kids, self.level + 1), _tok(kind + "_close", tag, -1, self.level)]
        self.kids, self.start = [], -1

    def _end_table(self) -> None:
        rows = self.rows
        self.rows, self.cell = [], None
        if not any(c.type == "text" and c.content.strip() for r in rows for cell in r[3] for c in cell):
            return
        lv = self.level
        # the header: the rows in <thead> (the first), else a first row of <th> cells only
        head = next((r for r in rows if r[1]), rows[0] if rows[0][2] and rows[0][3] else None)
        toks = [_tok("table_open", "table", 1, lv, rows[0][0])]
        for part, group in (("thead", [head] if head else []), ("tbody", [r for r in rows if r is not head])):
            toks.append(_tok(part + "_open", part, 1, lv + 1))
            cell_tag = "th" if part == "thead" else "td"
            for line, _, _, cells in group:
                toks.append(_tok("tr_open", "tr", 1, lv + 2, line))
                for cell in cells:
                    toks += [_tok(cell_tag + "_open", cell_tag, 1, lv + 3), _inline(cell, lv + 4),
                             _tok(cell_tag + "_close", cell_tag, -1, lv + 3)]
                toks.append(_tok("tr_close", "tr", -1, lv + 2))
            toks.append(_tok(part + "_close", part, -1, lv + 1))
        self.out += toks + [_tok("table_close", "table", -1, lv)]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED_TAGS:
            self.skip += 1
        if self.skip:
            return
        if tag == "table":
            self.depth += 1
            if self.depth == 1:
                self.flush()
                return
        if self.depth == 1 and tag in _TABLE_TAGS and tag != "table":
            if tag in ("thead", "tbody", "tfoot"):
                self.in_head = tag == "thead"
            elif tag == "tr" or (tag in ("td", "th") and not self.rows):
                self.rows.append([self._line(), self.in_head, True, []])
                self.cell = None
            if tag in ("td", "th"):
                row = self.rows[-1]
                row[2] = row[2] and tag == "th"
                self.cell = []
                row[3].append(self.cell)
            return
        if tag in _PARAGRAPH_ENDS and self.cell is None:
            self.flush()
            return
        self._tag_child(self.get_starttag_text() or f"<{tag}>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in SKIPPED_TAGS:
            self.skip -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED_TAGS:
            self.skip = max(0, self.skip - 1)
            return
        if self.skip:
            return
        if tag == "table" and self.depth:
            self.depth -= 1
            if self.depth == 0:
                self.flush()
                self._end_table()
                return
        if self.depth == 1 and tag in _TABLE_TAGS:
            if tag in ("thead", "tbody", "tfoot"):
                self.in_head = False
            elif tag in ("td", "th", "tr"):
                self.cell = None
            return
        if tag in _PARAGRAPH_ENDS and self.cell is None:
            self.flush(tag if tag in _HEADINGS else "")
            return
        self._tag_child(f"</{tag}>")

    def handle_comment(self, data: str) -> None:
        if not self.skip:
            self._tag_child("<!---->")  # parts the text around it

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self.cell is not None:
            text = " ".join(data.split("\n"))
            if text:
                t = Token("text", "", 0)
                t.content = text
                self.cell.append(t)
            return
        line = self._line()
        for k, piece in enumerate(data.split("\n")):
            if k:
                piece = piece.lstrip(" \t")
                if self.start >= 0:
                    self.kids.append(Token("softbreak", "br", 0))
            if not piece.strip() and self.start < 0:
                continue
            if self.start < 0:
                self.start = line + k
                piece = piece.lstrip()
            t = Token("text", "", 0)
            t.content = piece
            self.kids.append(t)

    def finish(self) -> list[Token]:
        """The token groups, after the block's end (open elements closed there; a comment never
        closed runs to it, as CommonMark and a browser read it, and is not read)."""
        rest = self.rawdata
        at = rest.find("<!--")
        if at >= 0 and "-->" not in rest[at:]:
            self.rawdata = rest[:at]
        self.close()
        self.skip = 0
        if self.depth:
            self.depth = 1
            self.handle_endtag("table")
        self.flush()
        return self.out


def html_tokens(block: Token) -> list[Token]:
    """The tokens of an ``html_block`` token's text: paragraphs (``paragraph_open``, ``inline``,
    ``paragraph_close``, ``map`` the lines of their text) and tables (``table_open`` …
    ``table_close`` as markdown-it gives a Markdown table, a row's ``tr_open`` ``map`` its
    ``<tr>`` line), at the block's level; ``[]`` for a block with no text (a comment, an image).
    Never raises: malformed HTML is read as far as it goes, as a browser would."""
    content = block.content
    if "<" not in content:
        return []
    reader = _Reader(block.map[0] if block.map else 0, block.level)
    try:
        reader.feed(content)
    except AssertionError:  # CPython's parser (before 3.13) raises on a marked section it cannot name
        reader = _Reader(block.map[0] if block.map else 0, block.level)  # (<![�CDATA[, <![x[): text, as a browser reads it
        reader.feed(content.replace("<![", "&lt;!["))
    return reader.finish()
