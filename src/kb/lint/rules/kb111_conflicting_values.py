"""KB111: one subject and metric stated with two different values in the same document."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from kb.facts.fact import Fact
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
    Groups the facts of the document (the values `kb diff` compares: no plan, disputed quote,
    count or set-up size such as `batch 32`) by subject, metric, unit, setting and qualifier,
    as the diff reads them (`kb.facts.fact.facts_of`, `kb.facts.same.comparable_key`)
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
        first: dict[tuple[Any, ...], tuple[Fact, int]] = {}
        for view in ctx.views():
            # the facts the diff compares (kb.facts.fact.facts_of): no plan, disputed quote, count or set-up size
            keyed = [((f.group, *comparable_key(f)), f) for f in view.facts if f.metric and f.metric not in ignore]
            seen = Counter(k for k, _ in keyed)
            p = view.claim.provenance
            for key, f in keyed:
                if seen[key] > 1:
                    continue  # two values of one thing in one sentence: a before/after or a comparison
                if key not in first:
                    first[key] = (f, p.line)
                    continue
                f0, line0 = first[key]
                if same_value(f0, f, tol):
                    continue
                line, col = ctx.index.locate(p.line, f.raw, p.end_line)
                yield Violation(line, f"{subject_label(f.subject, ctx.config.entities)} {f.metric}: {_show(f)} here, "
                                      f"but {_show(f0)} at line {line0}: settle on one value (or say what differs)", col)


def _show(f: Fact) -> str:
    return f.date if f.date is not None else f.raw
