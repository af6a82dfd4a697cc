"""KB101: the living document's front matter is missing or invalid."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date, datetime
from pathlib import PurePosixPath
from typing import Any

from kb.lint.base import LintContext, Rule, Violation
from kb.lint.rules.kb102_version_not_bumped import history_snapshots
from kb.read.livedoc import add_version, version_problem


class FrontMatterInvalid(Rule):
    """## What it does
    Checks that the document opens with YAML front matter holding `topic` (text),
    `version` (a positive integer) and `updated` (a date-time with its time), and, when
    present, `citations` (a non-negative integer). YAML errors (duplicate keys, tabs) are
    reported at the line where they are.

    ## Why is this bad?
    `kb diff`, `kb digest` and `kb bump` read the version and the update time from the front
    matter. Without them a document cannot be compared with its history, and a date-only
    `updated` loses the 05:00 cut-off that decides which night a version belongs to.

    ## Example
    ```markdown
    ---
    topic: inference
    version: v45
    updated: 2026-07-31
    ---
    ```

    ## Use instead
    ```markdown
    ---
    topic: inference
    version: 45
    updated: 2026-07-31T05:00:00+08:00
    citations: 115
    ---
    ```

    ## Options
    None.

    ## References
    - [docs/kb-format.md](../kb-format.md): living documents carry front matter `topic`, `version`, `updated`.
    - Front matter written with a BOM or CRLF line ends, YAML scalars that are not text (`version: 1.0`), duplicate keys and tabs are read as everywhere in kb ([docs/kb-format.md](../kb-format.md)).
    """

    code = "KB101"
    name = "front-matter-invalid"
    summary = "Front matter missing, or topic/version/updated/citations missing or of the wrong type"
    severity = "error"
    tags = ("front-matter",)

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        doc = ctx.doc
        fm_problems = [p for p in doc.problems if "front matter" in p.message or "front-matter" in p.message]
        for p in fm_problems:
            yield Violation(p.line or 1, p.message, p.column)
        if not doc.front_present:
            if not fm_problems:
                yield Violation(1, "front matter missing: start the file with '---', then topic, "
                                   "version (integer) and updated (date-time), then '---'")
            return
        if fm_problems:
            return  # the YAML did not load; its own message says what to fix
        front, lines = doc.front, doc.front_lines
        end = ctx.index.front_end or 1

        def at(key: str) -> int:
            return lines.get(key, end)

        topic = front.get("topic")
        if topic is None:
            yield Violation(end, "front matter has no 'topic': add `topic: <name of this document>`")
        elif not isinstance(topic, str) or not topic.strip():
            yield Violation(at("topic"), f"'topic' must be text, got {topic!r}")
        version = front.get("version")
        if version is None:
            snaps = history_snapshots(ctx, PurePosixPath(ctx.path).stem) if "/history/" not in "/" + ctx.path else {}
            yield Violation(end, f"front matter has no 'version': {add_version(snaps)}")
        elif (why := version_problem(version)) is not None:
            yield Violation(at("version"), f"'version' {why}")
        updated = front.get("updated")
        if updated is None:
            yield Violation(end, "front matter has no 'updated': add e.g. `updated: 2026-07-31T05:00:00+08:00`")
        elif not _is_datetime(updated):
            shown = updated.isoformat() if isinstance(updated, date) else repr(updated)
            yield Violation(at("updated"), f"'updated' must be a date-time such as 2026-07-31T05:00:00+08:00, got {shown}")
        citations = front.get("citations")
        if "citations" in front and (isinstance(citations, bool) or not isinstance(citations, int) or citations < 0):
            yield Violation(at("citations"), f"'citations' must be a non-negative integer, got {citations!r}")


def _is_datetime(value: Any) -> bool:
    if isinstance(value, datetime):
        return True
    if isinstance(value, str) and value.strip()[10:11] in ("T", " "):
        try:
            datetime.fromisoformat(value.strip())
        except ValueError:
            return False
        return True
    return False
