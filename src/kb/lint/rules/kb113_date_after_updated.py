"""KB113: a date later than the document's ``updated`` time."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from kb.facts.values import date_prefix
from kb.lint.base import LintContext, Rule, Violation


class DateAfterUpdated(Rule):
    """## What it does
    Compares every date in the document's claims with the front-matter `updated` time, in the
    KB's time zone and at the precision the date is written (`2026-08` is later than
    `updated: 2026-07-31T05:00:00+08:00`; `2026-07` is not). Month-day shorthand such as
    `7-31` takes its year from `updated`.

    ## Why is this bad?
    A document cannot report what happened after it was written. A later date is a typo
    (`2026-08-13` for `2025-08-13`), a wrong year inferred from `7-31`, or an `updated` that
    was not moved forward.

    ## Example
    ```markdown
    ---
    updated: 2026-07-31T05:00:00+08:00
    ---
    - TGI 于 2026-08-13 进入维护模式。
    ```

    ## Use instead
    ```markdown
    ---
    updated: 2026-07-31T05:00:00+08:00
    ---
    - TGI 于 2025-08-13 进入维护模式。
    ```

    ## Options
    None.

    ## References
    - [docs/claims.md](../claims.md): dates compare at the precision both state; [docs/kb-format.md](../kb-format.md): `timezone`.
    """

    code = "KB113"
    name = "date-after-updated"
    summary = "Date later than the document's updated time"
    severity = "warning"
    tags = ("dates",)

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        updated = ctx.doc.updated
        if updated is None:
            return
        local = updated.astimezone(ctx.config.tzinfo)
        stamp = local.strftime("%Y-%m-%dT%H:%M")
        shown = local.isoformat(timespec="minutes")
        for c in ctx.doc.claims:
            for d in c.dates:
                n = len(date_prefix(d.value, d.precision))
                if d.value[:n] > stamp[:n]:
                    line, col = ctx.index.locate(c.provenance.line, d.raw, c.provenance.end_line)
                    yield Violation(line, f"{d.raw} is later than updated {shown}: fix the date, "
                                          "or move updated forward", col)
