"""KB106: section numbers duplicated, out of order or skipped."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from kb.lint.base import LintContext, Rule, Violation


class SectionNumbering(Rule):
    """## What it does
    Walks the `§` numbers of the headings in document order. Each number must be new, its
    parent (`§2` for `§2.13`) must come before it, and it must be the next one under that
    parent: `§2.1`, `§2.2`, … (a first child may be numbered 0 or 1).

    ## Why is this bad?
    A duplicated number makes `§2.7` mean two things, so references, suggested sections and
    `kb diff`'s section changes point at the wrong node. A gap or a step back usually means a
    node was moved or deleted without renumbering.

    ## Example
    ```markdown
    ## §2 架构
    ### §2.1 Kimi K3
    ### §2.3 KV cache
    ### §2.3 FlashInfer
    ```

    ## Use instead
    ```markdown
    ## §2 架构
    ### §2.1 Kimi K3
    ### §2.2 KV cache
    ### §2.3 FlashInfer
    ```

    ## Options
    None.

    ## References
    - [docs/kb-format.md](../kb-format.md): headings carry section numbers.
    - A real brief: "原 §7.1 改号为 §7.2" — renumbering done by hand.
    """

    code = "KB106"
    name = "section-numbering"
    summary = "Section numbers duplicated, out of order or skipped"
    severity = "error"
    tags = ("sections",)

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        first_line: dict[str, int] = {}
        last_child: dict[str, int] = {}  # parent number ("" for top level) -> last child index
        for s in ctx.doc.sections:
            if not s.numbered:
                continue
            num = s.number
            if num in first_line:
                yield Violation(s.line, f"§{num} is used twice (first at line {first_line[num]}): renumber one of them")
                continue
            first_line[num] = s.line
            parts = num.split(".")
            parent = ".".join(parts[:-1])
            k = int(parts[-1])
            if parent and parent not in first_line:
                yield Violation(s.line, f"§{num} comes before any §{parent} heading: add §{parent} or renumber")
            prev = last_child.get(parent)
            if prev is None:
                if k > 1:
                    missing = f"§{parent}.1" if parent else "§1"
                    yield Violation(s.line, f"§{num} skips {missing}: number sections from 1")
            elif k <= prev:
                yield Violation(s.line, f"§{num} comes after §{_join(parent, prev)}: renumber in document order")
            elif k > prev + 1:
                gap = _join(parent, prev + 1) if k == prev + 2 else f"{_join(parent, prev + 1)}–§{_join(parent, k - 1)}"
                yield Violation(s.line, f"§{num} follows §{_join(parent, prev)}: §{gap} is missing")
            last_child[parent] = max(k, prev if prev is not None else k)


def _join(parent: str, k: int) -> str:
    return f"{parent}.{k}" if parent else str(k)
