"""KB104: arXiv ids the document cites that have no paper card in the KB (one finding per document)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from kb.lint.base import LintContext, Rule, Violation


class ArxivIdWithoutCard(Rule):
    """## What it does
    Reports the arXiv ids the document mentions for which the KB has no paper card (a file
    under `organized/paper_cards/` whose front-matter `arxiv` is that id, any version). One
    finding per document, at the first such mention, with the count of ids and the first
    `show` of them (id, line of its first mention, how many mentions); `kb lint --verbose`
    lists every id. Runs only inside a KB; outside one it is skipped with a note.

    Why one finding per document: a living document that grew over months cites hundreds of
    older papers nobody will card (210 and 423 ids on two public paper lists), and one warning
    per id buried the findings that need action. The count still shows how far the document
    is from fully carded, and `group: false` gives one finding per id (for a team that cards
    every paper it cites, or to place an inline disable comment on each).

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

    An inline `disable-next-line KB104` leaves that line's ids out of the count.

    ## Options
    - `group` (default `true`): one finding per document; `false`: one per id, at its first
      mention.
    - `show` (default `10`): how many ids the grouped message names; `0` names all of them.

    ## References
    - [docs/kb-format.md](../kb-format.md): paper cards carry `arxiv`.
    - [docs/diff.md](../diff.md): an id with no card is `adjacent` at best.
    """

    code = "KB104"
    name = "arxiv-id-without-card"
    summary = "arXiv id cited without a paper card in the KB"
    severity = "warning"
    tags = ("arxiv", "kb")
    needs_kb = True
    options = {"group": True, "show": 10}

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

    def group(self, violations: list[Violation], opts: Mapping[str, Any]) -> list[Violation]:
        """One finding for the document (unless ``group`` is false): at the first id's line and
        column, ``14 arXiv ids have no paper card: arXiv:2401.10774 (line 5, 3 mentions), … and
        4 more; add cards …`` (the first ``show`` ids; 0 = all)."""
        if not opts.get("group", True) or len(violations) < 2:
            return violations
        show = int(opts.get("show", 10))
        named = []
        for v in violations:
            m = _ID_RE.match(v.message)
            more = int(m.group(2)) if m and m.group(2) else 0
            named.append(f"arXiv:{m.group(1) if m else '?'} (line {v.line}" + (f", {more + 1} mentions)" if more else ")"))
        listed = named if show <= 0 else named[:show]
        rest = len(named) - len(listed)
        text = (f"{len(named)} arXiv ids have no paper card: " + ", ".join(listed)
                + (f", … and {rest} more (kb lint --verbose lists them)" if rest else "")
                + "; add cards under organized/paper_cards/ (kb card new ID)")
        first = violations[0]
        return [Violation(first.line, text, first.column)]


_ID_RE = re.compile(r"arXiv:(\S+) has no paper card(?: \(mentioned (\d+) more times?\))?")
