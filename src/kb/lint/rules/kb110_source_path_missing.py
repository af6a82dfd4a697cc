"""KB110: a cited KB path (``inbox/…``, ``paper_cards/…``) that does not exist."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from kb.extract.refs import find_kb_paths
from kb.lint.base import LintContext, Rule, Violation
from kb.lint.lines import mask_code_spans

_ROOTS = ("inbox/", "paper_cards/", "organized/", "knowledge/")


def resolve_kb_path(root: Path, path: str) -> list[Path]:
    """Candidate files for a path as written (DESIGN.md §1 layout).

    ``inbox/…`` and ``organized/…`` are relative to the KB root; ``knowledge/…`` and
    ``paper_cards/…`` to ``organized/``; the card shorthand ``paper_cards/681`` (or
    ``paper_cards/681-2607-26627``) names the card whose file name starts with it.

    :returns: existing files the path names (empty when none).
    """
    if path.startswith(("knowledge/", "paper_cards/")):
        full = root / "organized" / path
    else:
        full = root / path
    if full.is_file():
        return [full]
    if path.startswith(("paper_cards/", "organized/paper_cards/")) and not path.endswith(".md"):
        folder, stem = full.parent, full.name
        if folder.is_dir():
            return sorted(p for p in folder.glob(f"{stem}-*.md") if p.is_file()) + \
                   ([folder / f"{stem}.md"] if (folder / f"{stem}.md").is_file() else [])
    return []


class SourcePathMissing(Rule):
    """## What it does
    Checks every KB path the document cites — `inbox/<author>/<stamp>-<slug>.md`,
    `organized/…`, `knowledge/…`, `paper_cards/<file>.md` and the card shorthand
    `paper_cards/681` — against the KB on disk. Runs only inside a KB.

    ## Why is this bad?
    The path is the provenance of a statement. A typo in the stamp, a renamed briefing or a
    card number that was never created leaves the statement without a source nobody can open.

    ## Example
    ```markdown
    - v0.26.0 支持 DGX Spark（来源：inbox/spark/2026-07-30-llm-infra-e1perp.md）。
    ```

    ## Use instead
    ```markdown
    - v0.26.0 支持 DGX Spark（来源：inbox/spark/2026-07-30-llm-infra-e1prep.md）。
    ```

    ## Options
    None.

    ## References
    - [docs/kb-format.md](../kb-format.md): the KB layout; cited sources include inbox paths on a "来源" line.
    """

    code = "KB110"
    name = "source-path-missing"
    summary = "Cited KB path (inbox/…, paper_cards/…) that does not exist"
    severity = "error"
    tags = ("sources", "kb")
    needs_kb = True

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        root = ctx.kb.root
        cache: dict[str, bool] = {}
        for n, text in ctx.index.prose("/"):
            if not any(r in text for r in _ROOTS):
                continue
            for path, start, _end in find_kb_paths(mask_code_spans(text)):
                if path not in cache:
                    cache[path] = bool(resolve_kb_path(root, path))
                if not cache[path]:
                    yield Violation(n, f"'{path}' does not exist in the KB: fix the path or remove the citation",
                                    start + 1)
