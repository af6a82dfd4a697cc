"""KB105: a ``§`` reference to a section the document does not have."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from kb.lint.base import LintContext, Rule, Violation
from kb.lint.lines import mask_code_spans
from kb.night.doc_index import CHANGELOG_HEADINGS

_REF_RE = re.compile(r"§\s*(\d+(?:\.\d+)*)")


class DanglingSectionReference(Rule):
    """## What it does
    Finds references such as `§2.13` or `见 §3` in the text (headings, fenced code and inline
    code excepted) whose number no heading of the document carries.

    ## Why is this bad?
    Sections are renumbered when nodes move; a reference left behind sends the reader, and
    `kb digest`'s "suggested section", to a place that no longer exists.

    ## Example
    ```markdown
    ## §2 模型架构
    ### §2.12 端侧
    - 选型顺序见 §2.13 选型决策树。
    ```

    ## Use instead
    ```markdown
    ## §2 模型架构
    ### §2.12 端侧
    ### §2.13 选型决策树
    - 选型顺序见 §2.13 选型决策树。
    ```

    ## Options
    - `exclude_headings` (list of text, default `["版本记录", "版本历史", "changelog",
      "version history"]`): sections whose title contains one of these (case-insensitive),
      and their subsections, are not checked — a change log names sections as they were.

    ## References
    - [docs/kb-format.md](../kb-format.md): headings carry section numbers (`## §2 …`, `### §2.13 …`).
    - A real brief cited "选型决策树 §2.13" while the document had no §2.13.
    """

    code = "KB105"
    name = "dangling-section-reference"
    summary = "Section reference (§2.13) to a section the document does not have"
    severity = "error"
    tags = ("sections",)
    options = {"exclude_headings": list(CHANGELOG_HEADINGS)}  # the diff's change-log sections

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        numbers = {s.number for s in ctx.doc.sections if s.numbered}
        excluded = _excluded_ranges(ctx, [h.lower() for h in opts["exclude_headings"]])
        headings = ctx.index.heading_lines
        for n, text in ctx.index.prose("§"):
            if n in headings or any(a <= n <= b for a, b in excluded):
                continue
            for m in _REF_RE.finditer(mask_code_spans(text)):
                num = m.group(1)
                if num not in numbers:
                    near = _nearest(num, numbers)
                    hint = f" (the last at that level is §{near})" if near else ""
                    yield Violation(n, f"§{num} is not a section of this document{hint}: fix the number or add the section",
                                    m.start() + 1)


def _excluded_ranges(ctx: LintContext, names: list[str]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    if not names:
        return out
    sections = ctx.doc.sections
    for i, s in enumerate(sections):
        title = s.title.lower()
        if any(name in title for name in names):
            end = len(ctx.lines)
            for t in sections[i + 1:]:
                if t.level <= s.level:
                    end = t.line - 1
                    break
            out.append((s.line, end))
    return out


def _nearest(num: str, numbers: set[str]) -> str | None:
    parent = num.rsplit(".", 1)[0] if "." in num else None
    siblings = sorted((n for n in numbers if (n.rsplit(".", 1)[0] if "." in n else None) == parent),
                      key=lambda n: [int(p) for p in n.split(".")])
    return siblings[-1] if siblings else None
