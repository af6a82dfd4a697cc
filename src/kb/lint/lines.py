"""Raw-line helpers shared by rules: front-matter span, fenced code, headings, code spans,
and the text a fix must never change (code and HTML comments)."""

from __future__ import annotations

import re
import sys
from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache

from markdown_it import MarkdownIt

_FENCE_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$")
_CODE_SPAN_RE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
_INLINE_RE = re.compile(r"\\[\s\S]|`+|<!--")
_RAW_HTML_RE = re.compile(r"[ \t]*<(?:pre|script|style|textarea)(?:[\s>]|$)", re.IGNORECASE)
_WHOLE = sys.maxsize
Spans = dict[int, list[tuple[int, int]]]


class LineIndex:
    """Facts about a document's lines computed once (O(lines)) and shared by every rule.

    :param lines: the decoded lines (LF, BOM removed); ``lines[0]`` is line 1.
    :param heading_lines: 1-based lines of headings (from the markdown-it parse).
    """

    def __init__(self, lines: list[str], heading_lines: set[int]) -> None:
        self.lines = lines
        self.heading_lines = heading_lines
        self.front_end = _front_end(lines)
        """1-based line of the closing ``---`` of front matter, 0 when there is none."""
        self._code: list[bool] | None = None
        self._starts: list[int] | None = None
        self._protected: Spans | None = None

    @property
    def in_code(self) -> list[bool]:
        """``in_code[i]`` is True when line ``i + 1`` is a fence line or inside fenced code."""
        if self._code is None:
            flags = [False] * len(self.lines)
            fence: str | None = None
            for i, line in enumerate(self.lines):
                if fence is None:
                    if ("`" in line or "~" in line) and i >= self.front_end:
                        m = _FENCE_RE.match(line)
                        if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
                            fence = m.group(1)
                            flags[i] = True
                else:
                    flags[i] = True
                    s = line.strip()
                    if s and s[0] == fence[0] and len(s) >= len(fence) and s == s[0] * len(s):
                        fence = None
            self._code = flags
        return self._code

    def prose(self, needle: str | None = None) -> Iterator[tuple[int, str]]:
        """``(line_number, text)`` of body lines outside front matter and fenced code.

        :param needle: when given, only lines containing this substring (fast prefilter).
        """
        code = self.in_code
        for i in range(self.front_end, len(self.lines)):
            line = self.lines[i]
            if needle is not None and needle not in line:
                continue
            if not code[i]:
                yield i + 1, line

    def search(self, pattern: re.Pattern[str], text: str) -> Iterator[tuple[int, int, re.Match[str]]]:
        """Matches of ``pattern`` in the whole text, outside front matter and fenced code.

        One regex pass over the document instead of one per line: for patterns that are rare.

        :param text: the document text, ``"\\n".join(lines)``.
        :returns: ``(line, 0-based column, match)``; a match must not span lines.
        """
        if self._starts is None:
            starts = [0]
            for ln in self.lines[:-1]:
                starts.append(starts[-1] + len(ln) + 1)
            self._starts = starts
        code = self.in_code
        for m in pattern.finditer(text):
            i = bisect_right(self._starts, m.start()) - 1
            if i < self.front_end or code[i]:
                continue
            yield i + 1, m.start() - self._starts[i], m

    def locate(self, line: int, needle: str, end_line: int | None = None) -> tuple[int, int | None]:
        """Where ``needle`` is written, searching from ``line`` to ``end_line`` (default: line).

        :returns: ``(line, 1-based column)``; ``(line, None)`` when it is not found verbatim.
        """
        last = min(end_line or line, len(self.lines))
        for n in range(line, last + 1):
            col = self.lines[n - 1].find(needle)
            if col >= 0:
                return n, col + 1
        return line, None


    def protected(self, line: int, start: int, end: int) -> bool:
        """True when columns ``[start, end)`` of ``line`` touch code or an HTML comment.

        Code is fenced code, indented code, inline code spans (also across lines) and raw-text
        HTML blocks (``<pre>``, ``<script>``, ``<style>``, ``<textarea>``); a comment is
        ``<!-- … -->``, also across lines. Rules skip such text and fixes never change it. The
        spans are computed on first call (one markdown-it block pass, no inline parse).

        :param line: 1-based line. :param start: 0-based first column.
        :param end: 0-based column after the last; ``end == start`` (an insertion) counts as
            touching the character at ``start``.
        """
        if self._protected is None:
            self._protected = protected_spans(self.lines, self.front_end)
        spans = self._protected.get(line)
        if not spans:
            return False
        stop = max(end, start + 1)
        return any(a < stop and start < b for a, b in spans)


@lru_cache(maxsize=1)
def _block_parser() -> MarkdownIt:
    """kb's markdown-it configuration (:mod:`kb.read.parse`) with the inline pass turned off."""
    return MarkdownIt("commonmark", {"html": True}).enable("table").disable("inline")


def protected_spans(lines: list[str], front_end: int = 0) -> Spans:
    """Where code and HTML comments are: 1-based line -> 0-based ``(start, end)`` column spans.

    Block structure comes from markdown-it (as kb parses documents): fences and indented code
    are whole lines, wherever they sit (lists, block quotes). Inside each paragraph, heading
    or table row, code spans (a backtick run closed by a run of the same length, ``\\``
    escapes respected) and comments are found in the raw text, so a span may cross lines.
    Comments in HTML blocks count too; an unclosed ``<!--`` runs to the end of its block.

    :param lines: the decoded lines (LF, no BOM). :param front_end: closing line of the front
        matter (0 without); front matter is never code.
    """
    out: Spans = {}
    body = [""] * front_end + lines[front_end:]
    seen: set[tuple[int, int]] = set()
    for tok in _block_parser().parse("\n".join(body)):
        if tok.map is None:
            continue
        a, b = tok.map
        if tok.type in ("fence", "code_block") or (tok.type == "html_block" and _RAW_HTML_RE.match(lines[a])):
            for i in range(a, b):
                out.setdefault(i + 1, []).append((0, _WHOLE))
        elif tok.type in ("inline", "html_block") and (a, b) not in seen:
            seen.add((a, b))
            _scan_inline(lines, a, b, tok.type == "html_block", out)
    return out


def _scan_inline(lines: list[str], a: int, b: int, html: bool, out: Spans) -> None:
    """Add the code spans (not in HTML) and comments of lines ``[a, b)`` (0-based) to ``out``."""
    text = "\n".join(lines[a:b])
    if "`" not in text and "<!--" not in text:
        return
    starts = [0]
    for ln in lines[a:b - 1]:
        starts.append(starts[-1] + len(ln) + 1)
    pos = 0
    while (m := _INLINE_RE.search(text, pos)) is not None:
        tok = m.group()
        if html and tok[0] != "<":
            pos = m.start() + 1  # raw HTML: no escapes, no code spans
            continue
        if tok[0] == "\\":
            pos = m.end()
            continue
        if tok[0] == "`":
            close = _closing_run(len(tok)).search(text, m.end())
            if close is None:
                pos = m.end()  # no closing run: literal backticks
                continue
            end = close.end()
        else:
            found = text.find("-->", m.end())
            end = len(text) if found < 0 else found + 3
        _add(out, starts, a, m.start(), end)
        pos = end


@lru_cache(maxsize=32)
def _closing_run(n: int) -> re.Pattern[str]:
    return re.compile(r"(?<!`)`{%d}(?!`)" % n)


def _add(out: Spans, starts: list[int], first: int, start: int, end: int) -> None:
    """Record ``[start, end)`` of a text whose lines begin at ``starts`` (line ``first`` + 1)."""
    i = bisect_right(starts, start) - 1
    j = bisect_right(starts, max(end - 1, start)) - 1
    for k in range(i, j + 1):
        lo = start - starts[k] if k == i else 0
        hi = end - starts[k] if k == j else _WHOLE
        out.setdefault(first + k + 1, []).append((lo, hi))


def mask_code_spans(line: str) -> str:
    """``line`` with inline code spans (and ``\\``-escaped characters) blanked, offsets kept."""
    if "`" not in line:
        return line
    return _CODE_SPAN_RE.sub(lambda m: " " * len(m.group(0)), line)


def _front_end(lines: list[str]) -> int:
    """Closing line of front matter as :func:`kb.core.frontmatter.split` finds it, else 0."""
    if not lines or lines[0].rstrip() != "---":
        return 0
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return i + 1
    return 0
