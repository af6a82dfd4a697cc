"""KB118: a line of the document cites an older version of a paper than the latest the KB knows."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from kb.facts.revised import is_older, revised_note
from kb.lint.base import LintContext, Rule, Violation


class ArxivVersionOutdated(Rule):
    """## What it does
    Reports each place the document cites a paper at a version (`arXiv:2608.01234v1`,
    `https://arxiv.org/abs/2608.01234v1`) older than the latest version the KB knows of:
    arXiv's latest, as `kb verify` cached it for the bare id, else the highest version a paper
    card names (`arxiv: "2608.01234v3"` or `arxiv_version: 3`). The message gives both
    versions and the latest version's date: `paper revised (v1 → v3, 2026-08-20): re-check`.
    A citation without a version (the paper as a whole) is never reported. Runs only inside a
    KB; outside one it is skipped with a note. Run `kb verify --all --topic T` first so the
    cache knows arXiv's latest versions.

    ## Why is this bad?
    A number taken from v1 may be gone from v3: papers are revised, retitled, their tables
    corrected. A line pinned to an old version states what the paper *said*, and nobody has
    checked that it still says so.

    ## Example
    ```markdown
    - 论文报告吞吐提升 2.1×（来源：arXiv:2608.01234v1）。
    ```
    while arXiv's latest is v3 of 2026-08-20.

    ## Use instead
    Re-read the line against the latest version and cite it:
    ```markdown
    - 论文报告吞吐提升 2.1×（来源：arXiv:2608.01234v3）。
    ```
    or keep the old version on purpose:
    ```markdown
    <!-- kb-lint disable-next-line KB118 -->
    - v1 曾报告 2.4×，v2 更正为 2.1×（来源：arXiv:2608.01234v1）。
    ```

    ## Options
    None.

    ## References
    - [docs/verify.md](../verify.md), "Revised and withdrawn papers": version-pinned facts.
    - [docs/claims.md](../claims.md): a versioned id is the same paper, at one version.
    """

    code = "KB118"
    name = "arxiv-version-outdated"
    summary = "line cites an older version of a paper than arXiv's latest"
    severity = "warning"
    tags = ("arxiv", "kb")
    needs_kb = True

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        latest = ctx.kb.latest
        for m in sorted(ctx.doc.parsed.mentions, key=lambda m: (m.line, m.column or 0)):
            known = latest.get(m.id)
            if not is_older(m.version, known):
                continue
            token = f"{m.id}v{m.version}"
            line, col = ctx.index.locate(m.line, token, m.line + 12)
            whence = "" if known.source == "arxiv" else f" (v{known.version} named by {known.source})"
            yield Violation(line, f"arXiv:{token}: {revised_note(m.version or 0, known)}{whence}", col)
