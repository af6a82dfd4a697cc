"""KB117: a NUL byte in a line of text."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from kb.lint.base import LintContext, Rule, Violation


class NulByteInLine(Rule):
    """## What it does
    Reports every line that holds a NUL byte (`\\x00`), at the column of its first one. The
    NUL bytes are read as spaces, so the other rules still check the rest of the line.

    ## Why is this bad?
    A NUL byte is not text: editors hide it, `kb ingest` skips the whole line (its claims are
    lost), and tools that read C strings stop at it. It comes from a broken copy and paste,
    a crashed editor or a file that was partly binary.

    ## Example
    ```markdown
    - 见 §9.9\\x00   (a NUL byte after the reference)
    ```

    ## Use instead
    ```markdown
    - 见 §9.9
    ```

    ## Options
    None.

    ## References
    - A line with NUL bytes was once dropped without a finding; `kb.core.textio.decode`.
    """

    code = "KB117"
    name = "nul-byte-in-line"
    summary = "NUL byte in a line of text"
    severity = "error"
    tags = ("encoding",)

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        for line, column, message in ctx.nul:
            yield Violation(line, f"{message} (first at column {column}); delete it — kb ingest skips this line",
                            column=column)
