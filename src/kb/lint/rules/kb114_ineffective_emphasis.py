"""KB114: ``**`` that markdown-it leaves literal because CommonMark flanking fails (CJK)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace

from kb.lint.base import LintContext, Rule, Violation

_ESCAPE_RE = re.compile(r"\\[!-/:-@\[-`{-~]")
_CODE_RE = re.compile(r"(`+)(?!`)(.*?)(?<!`)\1(?!`)")
_RUN_RE = re.compile(r"\*+")
_PIPE_RE = re.compile(r"(?<!\\)\|")
_BLOCK_START_RE = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|>|\|)")


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    return MarkdownIt("commonmark")


def _punct(ch: str) -> bool:
    return isMdAsciiPunct(ord(ch)) or isPunctChar(ch)


def _space(ch: str) -> bool:
    return isWhiteSpace(ord(ch))


def _unmatched(text: str) -> list[int]:
    """Offsets of ``**`` runs in ``text`` that CommonMark's delimiter rules cannot pair.

    Runs of exactly two ``*`` are paired as markdown-it's ``balance_pairs`` does (a closer
    takes the nearest opener); lines with longer runs are left to markdown-it alone.
    """
    masked = _ESCAPE_RE.sub("!!", text)
    if "`" in masked:
        masked = _CODE_RE.sub(lambda m: m.group(1) + "a" * len(m.group(2)) + m.group(1), masked)
    stack: list[int] = []
    lost: list[int] = []
    n = len(masked)
    for m in _RUN_RE.finditer(masked):
        if m.end() - m.start() != 2:
            continue
        last = masked[m.start() - 1] if m.start() else " "
        nxt = masked[m.end()] if m.end() < n else " "
        left = not _space(nxt) and (not _punct(nxt) or _space(last) or _punct(last))
        right = not _space(last) and (not _punct(last) or _space(nxt) or _punct(nxt))
        if right and stack:
            stack.pop()
        elif left:
            stack.append(m.start())
        else:
            lost.append(m.start())
    return sorted(lost + stack)


def _literal_in_markdown_it(text: str) -> bool:
    tokens = _md().parseInline(text)
    return any(t.type == "text" and "**" in t.content for tok in tokens for t in (tok.children or ()))


class IneffectiveEmphasis(Rule):
    """## What it does
    Finds `**` that markdown-it (CommonMark) shows as two literal asterisks instead of bold.
    Under the flanking rules a closing `**` with punctuation just inside it and a letter just
    outside (`**“引用”**后`, `**2.03×**加速`, `**−67.6%**以上`) cannot close, and an
    opening one mirrored the same way cannot open; CJK text has no spaces to rescue it.
    `×`, `−` and full-width punctuation count as punctuation. Table cells are checked one
    by one; fenced and inline code are skipped.

    ## Why is this bad?
    The rendered document shows `**2.03×**加速` with the asterisks, and the emphasis meant to
    mark the key figure is lost. GitHub, markdown-it and most renderers agree on this.

    ## Example
    ```markdown
    - 结论：**2.03×**加速
    - 延迟降低**−67.6%**以上
    ```

    ## Use instead
    ```markdown
    - 结论：**2.03×** 加速
    - 延迟降低 **−67.6%**，以上
    ```

    ## Options
    None.

    ## References
    - CJK emphasis that never closes (`**结果：**之后`) renders as literal asterisks in CommonMark.
    - commonmark/commonmark-spec #650; markdown-it/markdown-it #1080; eslint/markdown #395 "no-ineffective-emphasis".
    """

    code = "KB114"
    name = "ineffective-emphasis"
    summary = "Literal `**`: CommonMark emphasis that cannot open or close next to CJK text"
    severity = "warning"
    tags = ("markdown",)

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        lines = ctx.lines
        code = ctx.index.in_code
        done: set[int] = set()
        for n, text in ctx.index.prose("**"):
            if n in done:
                continue
            if text.lstrip().startswith("|"):
                for start, cell in _cells(text):
                    lost = _unmatched(cell)
                    if lost and _literal_in_markdown_it(cell):
                        yield self._violation(n, text, start + lost[0])
                continue
            if not _unmatched(text):
                continue
            first, last = _block(lines, code, n, ctx.index.front_end + 1)
            done.update(range(first, last + 1))
            joined = "\n".join(lines[first - 1:last])
            lost = _unmatched(joined)
            if not lost or not _literal_in_markdown_it(joined):
                continue
            offsets = [0]
            for ln in lines[first - 1:last - 1]:
                offsets.append(offsets[-1] + len(ln) + 1)
            reported: set[int] = set()
            for pos in lost:
                i = max(k for k, o in enumerate(offsets) if o <= pos)
                if i in reported:
                    continue
                reported.add(i)
                yield self._violation(first + i, lines[first - 1 + i], pos - offsets[i])

    def _violation(self, n: int, text: str, col: int) -> Violation:
        nxt = text.find("**", col + 2)
        if 0 <= nxt - col <= 40:
            shown = text[max(0, col - 1):nxt + 3].strip()
        else:
            shown = text[max(0, col - 3):col + 6].strip()
        return Violation(n, f"'**' in '{shown}' stays literal (CommonMark flanking fails next to punctuation): "
                            "put a space or punctuation outside the ** (`**2.03×** 加速`, `**2.03×**，`)", col + 1)


def _block(lines: list[str], code: list[bool], n: int, floor: int) -> tuple[int, int]:
    """1-based first and last line of the paragraph or list-item text holding line ``n``."""
    first = n
    while (first > floor and not _BLOCK_START_RE.match(lines[first - 1]) and lines[first - 2].strip()
           and not code[first - 2] and not lines[first - 2].lstrip().startswith(("#", "|"))):
        first -= 1
    last = n
    while last < len(lines) and lines[last].strip() and not code[last] and not _BLOCK_START_RE.match(lines[last]):
        last += 1
    return first, last


def _cells(line: str) -> Iterator[tuple[int, str]]:
    """``(offset, text)`` of each cell of a raw table row (split on unescaped pipes)."""
    start = 0
    for m in _PIPE_RE.finditer(line):
        yield start, line[start:m.start()]
        start = m.end()
    yield start, line[start:]
