"""KB111: one subject and metric stated with two different values in the same document."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from kb.core.claims import Claim, DateRef, Quantity
from kb.facts.same import comparable_key
from kb.facts.values import same_value
from kb.lint.base import LintContext, Rule, Violation


def subject_label(key: str, entities: Mapping[str, Any] | None = None) -> str:
    """``entity:tgi`` -> ``TGI`` (the canonical name in ``kb.yaml``); ``arxiv:…`` -> ``arXiv:…``."""
    if key.startswith("arxiv:"):
        return "arXiv:" + key[6:]
    if key.startswith("entity:"):
        name = key[7:]
        return next((canon for canon in entities or {} if canon.strip().lower() == name), name)
    return key


class ConflictingValues(Rule):
    """## What it does
    Groups the numbers and dates of the document by subject, metric, unit and qualifier
    (the subject is the one the parser attached to the value, else the claim's only subject)
    and reports each statement that disagrees with the first one of its group: two values
    further apart than `tolerance` of `kb.yaml`, a value outside a stated range, two ranges
    with different ends, a value a stated bound excludes (`>80%` vs `70%`), or two dates that differ at the precision both state (`2025 年
    12 月` vs `2026 年 1 月`; `2026-03` and `2026-03-21` agree). Values within one sentence
    are never compared: a sentence stating two values of one group (before → after, or two
    settings) is left out of that group. Sameness is `kb.facts.values.same_value` (units
    converted, signs as magnitudes), the one definition the diff uses too.

    ## Why is this bad?
    A living document edited by several people over months ends up stating the old and the
    new value of the same fact in two sections; readers take whichever they find first. The
    seeds found the TGI maintenance-mode date written two ways.

    ## Example
    ```markdown
    | TGI | 维护模式 | Hugging Face TGI 已于 2025 年 12 月进入维护模式 |
    - C102 TGI EOL：TGI 自 2026 年 1 月起进入维护模式。
    ```

    ## Use instead
    ```markdown
    | TGI | 维护模式 | Hugging Face TGI 已于 2026 年 1 月进入维护模式 |
    - C102 TGI EOL：TGI 自 2026 年 1 月起进入维护模式。
    ```

    ## Options
    - `ignore_metrics` (list of metric keys, default `["speedup", "votes"]`): metrics whose
      values legitimately differ by workload or over time and are not compared.

    ## References
    - [docs/diff.md](../diff.md): conflict is the same subject and metric with a different value (beyond `tolerance`).
    - A real brief: "TGI EOL 日期核实行动：… 确认是 2025-12 还是 2026-03-21".
    """

    code = "KB111"
    name = "conflicting-values"
    summary = "Same subject and metric stated with two different values"
    severity = "warning"
    tags = ("values",)
    options = {"ignore_metrics": ["speedup", "votes"]}

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        ignore = set(opts["ignore_metrics"])
        tol = ctx.config.tolerance
        first: dict[tuple[Any, ...], tuple[Quantity | DateRef, Claim]] = {}
        for c in ctx.claims():
            keyed: list[tuple[tuple[Any, ...], Quantity | DateRef]] = []
            for v in (*c.quantities, *c.dates):
                if not v.metric or v.metric in ignore or v.mood is not None:
                    continue  # a plan or a disputed quote states no value of the doc
                subj = v.subject or (c.subjects[0] if len(c.subjects) == 1 else None)
                if subj is None:
                    continue
                keyed.append(((subj, *comparable_key(v)), v))
            seen = Counter(k for k, _ in keyed)
            for key, v in keyed:
                if seen[key] > 1:
                    continue  # two values of one thing in one sentence: a before/after or a comparison
                subj = key[0]
                if key not in first:
                    first[key] = (v, c)
                    continue
                v0, c0 = first[key]
                if same_value(v0, v, tol):
                    continue
                p0 = c0.provenance.line
                line, col = ctx.index.locate(c.provenance.line, v.raw, c.provenance.end_line)
                yield Violation(line, f"{subject_label(subj, ctx.config.entities)} {v.metric}: {_show(v)} here, but {_show(v0)} "
                                      f"at line {p0}: settle on one value (or say what differs)", col)


def _show(v: Quantity | DateRef) -> str:
    if isinstance(v, DateRef):
        return v.value
    return v.raw
