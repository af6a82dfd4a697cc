"""KB104: an arXiv id the document cites has no paper card in the KB."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from kb.lint.base import LintContext, Rule, Violation


class ArxivIdWithoutCard(Rule):
    """## What it does
    Reports each arXiv id the document mentions for which the KB has no paper card (a file
    under `organized/paper_cards/` whose front-matter `arxiv` is that id, any version). One
    finding per id, at its first mention; the message counts the other mentions. Runs only
    inside a KB; outside one it is skipped with a note.

    ## Why is this bad?
    A card is where a paper's own numbers are written down from the paper. An id without a
    card means every number the document attaches to it came from somewhere else, and
    `kb digest` cannot tell the paper's category, so it cannot place it.

    ## Example
    ```markdown
    - Medusa：多解码头并行预测（来源：arXiv:2401.10774）。
    ```
    with no card for 2401.10774.

    ## Use instead
    Create the card (`kb card new 2401.10774`), or mark a deliberate exception:
    ```markdown
    <!-- kb-lint disable-next-line KB104 -->
    - Medusa：多解码头并行预测（来源：arXiv:2401.10774）。
    ```

    ## Options
    None.

    ## References
    - DESIGN.md §1 (paper cards carry `arxiv`), §3 (an id with no card is `adjacent` at best).
    """

    code = "KB104"
    name = "arxiv-id-without-card"
    summary = "arXiv id cited without a paper card in the KB"
    severity = "warning"
    tags = ("arxiv", "kb")
    needs_kb = True

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        cards = ctx.kb.card_ids
        first: dict[str, tuple[int, str]] = {}
        count: dict[str, int] = {}
        for m in ctx.doc.parsed.mentions:
            if m.id in cards:
                continue
            count[m.id] = count.get(m.id, 0) + 1
            if m.id not in first or m.line < first[m.id][0]:
                first[m.id] = (m.line, m.raw)
        for aid, (line, _raw) in sorted(first.items(), key=lambda kv: (kv[1][0], kv[0])):
            at, col = ctx.index.locate(line, aid, line + 12)
            more = count[aid] - 1
            also = f" (mentioned {more} more time{'s' if more > 1 else ''})" if more else ""
            yield Violation(at, f"arXiv:{aid} has no paper card{also}: add one under organized/paper_cards/", col)
