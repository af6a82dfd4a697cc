"""KB116: an arXiv id written with a non-canonical prefix (``arXiv：``, ``ARXIV:``, ``arxiv.``)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from kb.lint.base import Edit, LintContext, Rule, Violation

_PREFIX_RE = re.compile(
    r"(?<![A-Za-z0-9/._\-])(?i:arxiv)(?:[ \t\u00a0\u3000]*[:：][ \t\u00a0\u3000]*|\.)"
    r"(?=\d{4}\.\d{4,5}(?![\d])|[a-z]+(?:-[a-z]+)?(?:\.[A-Z]{2})?/\d{7}(?!\d))"
)
CANONICAL = "arXiv:"


class ArxivIdNoncanonical(Rule):
    """## What it does
    Finds arXiv ids written with a prefix other than `arXiv:` — a full-width colon
    (`arXiv：2607.26627`), spaces around the colon, another case (`ARXIV:`, `arxiv:`) or a
    dot (`arXiv.2607.26627`) — outside code (fenced, indented or inline) and HTML comments,
    which are left as written. `kb lint --fix` rewrites the prefix to `arXiv:` and touches
    nothing else; the id and its version are kept.

    ## Why is this bad?
    kb reads every form, but people and other tools search for `arXiv:2607.26627`. Mixed
    forms make a text search miss mentions and make diffs noisy when someone normalises by hand.

    ## Example
    ```markdown
    - Lossy Verification（arXiv：2607.26627v2）。
    ```

    ## Use instead
    ```markdown
    - Lossy Verification（arXiv:2607.26627v2）。
    ```

    ## Options
    None.

    ## References
    - [docs/claims.md](../claims.md): every mention normalises to one id; CJK punctuation around ids is not part of them.
    - arXiv help, "Understanding the arXiv identifier" (`arXiv:YYMM.NNNNN`).
    """

    code = "KB116"
    name = "arxiv-id-noncanonical"
    summary = "arXiv id with a non-canonical prefix (arXiv：, ARXIV:, arxiv.)"
    severity = "info"
    tags = ("arxiv", "fixable")
    fixable = True

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        for n, col, m in ctx.index.search(_PREFIX_RE, ctx.doc.text):
            written = m.group(0)
            if written == CANONICAL:
                continue
            if ctx.index.protected(n, col, col + len(written)):
                continue  # code or a comment: quoted as written, never rewritten
            fix = (Edit(n, col, col + len(written), CANONICAL),)
            yield Violation(n, f"'{written}' before an arXiv id: write '{CANONICAL}' (kb lint --fix)", col + 1, fix)
