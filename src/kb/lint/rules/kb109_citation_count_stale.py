"""KB109: the front-matter ``citations`` figure differs from the distinct sources cited."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from kb.lint.base import Edit, LintContext, Rule, Violation

_VALUE_RE = re.compile(r"^(citations[ \t]*:[ \t]*)(\d+)(?=[ \t]*(?:#.*)?$)")


class CitationCountStale(Rule):
    """## What it does
    Compares the front-matter `citations` figure with the number of distinct sources the
    document cites anywhere in its body: arXiv ids (any version, any form; an arxiv.org link
    counts as its id), DOIs, other URLs and KB paths (`inbox/…`, `paper_cards/…`). What kb
    does not read as text does not count: code (fenced, indented), HTML comments and the
    text of `<pre>`, `<script>`, `<style>` (the living doc's `cited_sources`, as `kb diff
    --from/--to` counts them). `kb lint --fix` writes the count.

    ## Why is this bad?
    The header figure is what a reader checks first to see whether a version grew. Updated
    by hand it goes stale, and the version log then claims growth that did not happen, or
    hides a removal.

    ## Example
    ```markdown
    ---
    topic: inference
    version: 45
    updated: 2026-07-31T05:00:00+08:00
    citations: 115
    ---
    - MLA（来源：arXiv:2405.04434）。
    ```

    ## Use instead
    ```markdown
    ---
    topic: inference
    version: 45
    updated: 2026-07-31T05:00:00+08:00
    citations: 1
    ---
    - MLA（来源：arXiv:2405.04434）。
    ```

    ## Options
    None.

    ## References
    - [docs/kb-format.md](../kb-format.md): living documents carry `topic`, `version`, `updated`, optionally `citations`.
    - Fix: only the digits of the `citations:` line change (`kb lint --fix`, preview with `--diff`).
    """

    code = "KB109"
    name = "citation-count-stale"
    summary = "Front-matter citations figure differs from the distinct sources cited"
    severity = "error"
    tags = ("front-matter", "fixable")
    fixable = True

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        stated = ctx.doc.citations
        if stated is None or isinstance(stated, bool):
            return
        count = len(ctx.doc.cited_sources())
        if count == stated:
            return
        line = ctx.doc.front_lines.get("citations", 1)
        text = ctx.lines[line - 1] if 0 < line <= len(ctx.lines) else ""
        m = _VALUE_RE.match(text)
        fix = (Edit(line, m.start(2), m.end(2), str(count)),) if m else None
        yield Violation(line, f"citations is {stated} but the document cites {count} distinct sources: "
                              f"set `citations: {count}` (kb lint --fix)", m.start(2) + 1 if m else None, fix)
