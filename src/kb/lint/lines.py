"""Raw-line helpers shared by rules: front-matter span, fenced code, headings, code spans."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

_FENCE_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$")
_CODE_SPAN_RE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")


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


def mask_code_spans(line: str) -> str:
    """``line`` with inline code spans (and ``\\``-escaped characters) blanked, offsets kept."""
    if "`" not in line:
        return line
    return _CODE_SPAN_RE.sub(lambda m: " " * len(m.group(0)), line)


def _front_end(lines: list[str]) -> int:
    """Closing line of front matter as :func:`kb.frontmatter.split` finds it, else 0."""
    if not lines or lines[0].rstrip() != "---":
        return 0
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return i + 1
    return 0
