"""KB103: id-shaped text that is not a valid arXiv id (impossible month, wrong digit count)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from kb.extract.arxiv_ids import scan_arxiv
from kb.lint.base import LintContext, Rule, Violation
from kb.lint.lines import mask_code_spans

_ARXIV_URL_RE = re.compile(r"(?i:(?:https?://)?(?:www\.|export\.)?arxiv\.org)/(?i:abs|pdf|html)/([^\s)\]>\"'<|`]*)")
_PREFIX_RE = re.compile(r"(?i)(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/|arxiv\s*[:：]\s*|arxiv\.")
_LOOKAHEAD = 12  # lines a multi-line unit may span after its first line


class ArxivIdMalformed(Rule):
    """## What it does
    Finds arXiv identifiers that cannot exist: an impossible month (`2313.00001`), a sequence
    of the wrong length for its era (`2608.1028`: four digits after 1412; `1412.00001`: five
    before 1501), new-style ids before 0704, and arxiv.org links whose path is no id at all
    (`https://arxiv.org/abs/203.05527`, a digit lost).

    ## Why is this bad?
    A malformed id is never queried, so `kb verify` cannot catch the paper it should name;
    readers following the link land on an error page or, worse, on another paper.

    ## Example
    ```markdown
    - GEAR: KV 量化误差补偿（来源：https://arxiv.org/abs/203.05527）。
    - 新方法（arXiv:2608.1028）。
    ```

    ## Use instead
    ```markdown
    - GEAR: KV 量化误差补偿（来源：https://arxiv.org/abs/2403.05527）。
    - 新方法（arXiv:2608.10288）。
    ```

    ## Options
    None.

    ## References
    - arXiv help, "Understanding the arXiv identifier".
    - Four- and five-digit sequence numbers (`2401.1234`, `2401.12345`) are both valid ids ([docs/claims.md](../claims.md)).
    - A public awesome-list cites GEAR as `203.05527` (a digit lost) in every version.
    """

    code = "KB103"
    name = "arxiv-id-malformed"
    summary = "Id-shaped text or arxiv.org link that is not a valid arXiv id"
    severity = "error"
    tags = ("arxiv",)

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        seen: set[tuple[int, int]] = set()
        lines = ctx.lines
        for line, _col, raw, reason in sorted(ctx.doc.parsed.invalid_ids):
            where = _locate(lines, line, raw, seen)
            if where is None:
                yield Violation(line, f"'{raw}' is not a valid arXiv id: {reason}")
                continue
            seen.add(where)
            prefix = _PREFIX_RE.match(raw)
            column = where[1] + (prefix.end() if prefix else 0) + 1
            seen.add((where[0], column - 1))
            yield Violation(where[0], f"'{raw}' is not a valid arXiv id: {reason}", column)
        for n, text in ctx.index.prose("arxiv.org/"):
            masked = mask_code_spans(text)
            for m in _ARXIV_URL_RE.finditer(masked):
                url = m.group(0)
                cands = scan_arxiv(url)
                if any(c.id is not None for c in cands):
                    continue
                key = (n, m.start(1))
                if key in seen:
                    continue
                seen.add(key)
                reason = next((c.error for c in cands if c.error), None) or "the path is not YYMM.NNNNN[vN] nor archive/YYMMNNN"
                tail = m.group(1) or "(nothing)"
                yield Violation(n, f"arxiv.org link to '{tail}', which is not a valid arXiv id: {reason}", m.start(1) + 1)


def _locate(lines: list[str], line: int, raw: str, seen: set[tuple[int, int]]) -> tuple[int, int] | None:
    """File position of ``raw`` at or after ``line`` not yet taken: ``(line, 0-based column)``."""
    for n in range(line, min(line + _LOOKAHEAD, len(lines)) + 1):
        text = lines[n - 1]
        start = text.find(raw)
        while start >= 0:
            if (n, start) not in seen:
                return n, start
            start = text.find(raw, start + 1)
    return None
