"""KB115: a table row whose raw cell count differs from its header's."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from markdown_it.rules_block.table import escapedSplit

from kb.lint.base import LintContext, Rule, Violation

_DELIM_CELL_RE = re.compile(r"^:?-+:?$")
_DELIM_LINE_RE = re.compile(r"^ {0,3}[|:-][|:\- \t]*$")
# Lines that end a table body (markdown-it's blockquote terminators): fence, quote, rule,
# list item, HTML block, heading.
_TERMINATOR_RE = re.compile(
    r"^ {0,3}(?:```|~~~|>|(?:[-*_][ \t]*){3,}$|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|<[A-Za-z/!?]|#{1,6}(?:[ \t]|$))"
)


def _cells(line: str) -> list[str]:
    cols = escapedSplit(line.strip())
    if cols and cols[0].strip() == "":
        cols.pop(0)
    if cols and cols[-1].strip() == "":
        cols.pop()
    return cols


def _delimiter_count(line: str) -> int | None:
    """Number of columns of a GFM delimiter row (``|---|:-:|``), else None."""
    s = line.strip()
    if not _DELIM_LINE_RE.match(line) or (s.startswith("-") and s[1:2] in (" ", "\t")):
        return None
    parts = s.split("|")
    n = 0
    for i, p in enumerate(parts):
        t = p.strip()
        if not t:
            if i in (0, len(parts) - 1):
                continue
            return None
        if not _DELIM_CELL_RE.match(t):
            return None
        n += 1
    return n or None


class TableRowCellCount(Rule):
    """## What it does
    Counts the cells of every table row from the raw line, splitting on unescaped `|` as GFM
    does — a `|` inside inline code splits too — and compares the count with the header's.
    A row with more cells loses the extra ones silently (markdown-it drops them); a row
    with fewer gets empty cells.

    ## Why is this bad?
    The last column of a living document's tables is usually the source. A `|` written in a
    command or a formula shifts the cells, the source falls off the row, and the statement
    is kept with no provenance.

    ## Example
    ```markdown
    | 方法 | 命令 | 来源 |
    |---|---|---|
    | B | `grep b | wc` | paper |
    ```

    ## Use instead
    ```markdown
    | 方法 | 命令 | 来源 |
    |---|---|---|
    | B | `grep b \\| wc` | paper |
    ```

    ## Options
    None.

    ## References
    - A `|` inside a table cell splits it; GFM spec, "Tables (extension)": cells beyond the header's count are ignored.
    """

    code = "KB115"
    name = "table-row-cell-count"
    summary = "Table row whose raw cell count differs from the header's"
    severity = "error"
    tags = ("markdown", "tables")

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        lines = ctx.lines
        code = ctx.index.in_code
        n_lines = len(lines)
        i = ctx.index.front_end + 1  # 0-based index of the delimiter candidate
        while i < n_lines:
            line = lines[i]
            if "-" not in line or code[i] or "|" not in lines[i - 1] or code[i - 1]:
                i += 1
                continue
            width = _delimiter_count(line)
            header = _cells(lines[i - 1]) if width else None
            if not width or not header or len(header) != width or lines[i - 1].startswith(("    ", "\t")):
                i += 1
                continue
            j = i + 1
            while j < n_lines and lines[j].strip() and not code[j] and not _TERMINATOR_RE.match(lines[j]) \
                    and not lines[j].startswith(("    ", "\t")):
                cells = _cells(lines[j])
                if len(cells) > width:
                    lost = " | ".join(c.strip() for c in cells[width:])
                    yield Violation(j + 1, f"{len(cells)} cells, header has {width}: markdown-it drops '{lost}'; "
                                           "escape a | inside a cell as \\|", 1)
                elif len(cells) < width:
                    yield Violation(j + 1, f"{len(cells)} cells, header has {width}: the missing cells render empty; "
                                           "add them", 1)
                j += 1
            i = j
