"""KB112: the same paper is a node of its own in two sections."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from kb.core.claims import Claim
from kb.lint.base import LintContext, Rule, Violation

# A source cue before an id inside the same bracket makes it a citation, not the node's paper.
_PREFIX_RE = re.compile(r"(?i)(?:https?://)?(?:www\.)?(?:arxiv\.org/(?:abs|pdf|html)/|arxiv\s*[:：.]?\s*)$")
_CLAUSE_RE = re.compile(r"[：:，,；;。+＋、]|\s[-–—]\s")
_CITE_RE = re.compile(r"(?:来源|出处|引用|参见|见|source[s]?|refs?|cf\.|via|see)\s*[:：]?", re.IGNORECASE)


class PaperNodeDuplicated(Rule):
    """## What it does
    Finds papers (arXiv ids) that are a node of their own in more than one section. A paper
    is a node of a section when the section's heading names it, or when a list item or table
    row of the section is about it: its first subject, not written as a citation
    (`（来源：arXiv:…）`, `see …`), and — in a list item — named before the item's first
    clause (`- arXiv:2606.20295 FlashInfer：…`, `- [Title](https://arxiv.org/abs/…)`).
    Mentions in passing do not count. Reported at the node in each section after the first.

    ## Why is this bad?
    A paper filed twice gets two diverging descriptions; the next update edits one of them,
    and `kb diff` reports the paper as both present and changed. Cross-references (`见 §2.4`)
    keep one node.

    ## Example
    ```markdown
    ### §2.4 FlashInfer（arXiv:2606.20295）
    ### §3.1 Kernels
    - arXiv:2606.20295 FlashInfer：token 为中心的 KV 抽象。
    ```

    ## Use instead
    ```markdown
    ### §2.4 FlashInfer（arXiv:2606.20295）
    ### §3.1 Kernels
    - FlashInfer 见 §2.4。
    ```

    ## Options
    None.

    ## References
    - [docs/diff.md](../diff.md): a subject only mentioned in passing is not a node of its own.
    - A public awesome-list holds DeepSeek-V2 `2405.04434` as the identical row in three sections.
    """

    code = "KB112"
    name = "paper-node-duplicated"
    summary = "Same paper as its own node in two sections"
    severity = "warning"
    tags = ("sections", "arxiv")

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        nodes: dict[str, list[tuple[int, int, str]]] = {}  # key -> [(section line, node line, label)]

        def add(key: str, sec_line: int, line: int, label: str) -> None:
            lst = nodes.setdefault(key, [])
            if not any(s == sec_line for s, _, _ in lst):
                lst.append((sec_line, line, label))

        for s in ctx.doc.sections:
            for key in s.heading_subjects:
                if key.startswith("arxiv:"):
                    add(key, s.line, s.line, s.label)
        for c in ctx.doc.claims:
            key = _leading_paper(c)
            if key is None:
                continue
            sec = ctx.section_at(c.provenance.line)
            if sec is None:
                continue
            add(key, sec.line, c.provenance.line, sec.label)
        for key, lst in sorted(nodes.items()):
            if len(lst) < 2:
                continue
            lst.sort()
            _, line0, label0 = lst[0]
            for _, line, label in lst[1:]:
                at, col = ctx.index.locate(line, key[6:])
                yield Violation(at, f"arXiv:{key[6:]} is a node here ({label}) and in {label0} (line {line0}): "
                                    "keep one node and refer to it", col)


def _leading_paper(c: Claim) -> str | None:
    """The arXiv key a list item or table row leads with, unless it is only cited."""
    if c.unit not in ("list-item", "table-row") or not c.subjects or not c.subjects[0].startswith("arxiv:"):
        return None
    key = c.subjects[0]
    ref = next((r for r in c.arxiv if r.key == key), None)
    if ref is None:
        return None  # inherited from a heading or parent item: not this item's own node
    if ref.start < 0:
        return key  # only in a link target: the item's title links to the paper
    before = _PREFIX_RE.sub("", c.text[: ref.start])
    opened = max(before.rfind("("), before.rfind("（"))
    closed = max(before.rfind(")"), before.rfind("）"))
    scope = before[opened + 1:] if opened > closed else before[-16:]
    if _CITE_RE.search(scope):
        return None
    if c.unit == "list-item" and (_CLAUSE_RE.search(before) or len(before.strip()) > 40):
        return None  # named in the middle of a sentence: mentioned in passing
    return key
