"""KB109: the front-matter ``citations`` figure differs from the distinct sources cited."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from kb.extract.arxiv_ids import scan_arxiv
from kb.extract.refs import find_dois, find_kb_paths, find_urls
from kb.lint.base import Edit, LintContext, Rule, Violation
from kb.lint.lines import LineIndex

_VALUE_RE = re.compile(r"^(citations[ \t]*:[ \t]*)(\d+)(?=[ \t]*(?:#.*)?$)")
_DOI_HINT_RE = re.compile(r"10\.\d{4,9}/")
_ARXIV_URL_RE = re.compile(r"(?i)arxiv\.org/(?:abs|pdf|html)/(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})")
_DOI_URL_RE = re.compile(r"(?i)^https?://(?:dx\.)?doi\.org/(10\.\d{4,9}/\S+)$")


def distinct_sources(lines: list[str], index: LineIndex) -> set[str]:
    """The document's distinct cited sources, as KB109 counts them.

    Every unit counts, not only claims: the body outside front matter and fenced code is
    scanned for arXiv ids (any form; an arxiv.org URL counts as its id, any version), DOIs
    (a doi.org URL counts as its DOI), other http(s) URLs (a trailing ``/`` ignored) and KB
    paths (``inbox/…``, ``paper_cards/…``).

    :param lines: the document's decoded lines.
    :param index: their :class:`~kb.lint.lines.LineIndex`.
    :returns: source keys: ``arxiv:<id>``, ``doi:<doi>``, URLs, KB paths.
    """
    code = index.in_code
    start = index.front_end
    if any(code):
        body = "\n".join("" if code[i] else lines[i] for i in range(start, len(lines)))
    else:
        body = "\n".join(lines[start:])
    out: set[str] = {f"arxiv:{c.id}" for c in scan_arxiv(body) if c.id}
    if _DOI_HINT_RE.search(body):
        out.update(f"doi:{d}" for d, _, _ in find_dois(body))
    for url, _, _ in find_urls(body):
        if "rxiv.org/" in url and _ARXIV_URL_RE.search(url):
            continue
        m = _DOI_URL_RE.match(url)
        if m:
            out.add(f"doi:{m.group(1).lower()}")
            continue
        out.add(url.rstrip("/"))
    if "/" in body:
        out.update(p for p, _, _ in find_kb_paths(body))
    return out


class CitationCountStale(Rule):
    """## What it does
    Compares the front-matter `citations` figure with the number of distinct sources the
    document cites anywhere in its body: arXiv ids (any version, any form; an arxiv.org link
    counts as its id), DOIs, other URLs and KB paths (`inbox/…`, `paper_cards/…`). Fenced
    code does not count. `kb lint --fix` writes the count.

    ## Why is this bad?
    The header figure is what a reader checks first to see whether a version grew. Updated
    by hand it goes stale, and the version log then claims growth that did not happen, or
    hides a removal.

    ## Example
    ```markdown
    ---
    topic: inference
    version: 45
    updated: 2026-07-31T05:00:00+08:00
    citations: 115
    ---
    - MLA（来源：arXiv:2405.04434）。
    ```

    ## Use instead
    ```markdown
    ---
    topic: inference
    version: 45
    updated: 2026-07-31T05:00:00+08:00
    citations: 1
    ---
    - MLA（来源：arXiv:2405.04434）。
    ```

    ## Options
    None.

    ## References
    - DESIGN.md §1, "Living documents carry front matter topic, version, updated, optionally citations".
    - Fix: only the digits of the `citations:` line change (`kb lint --fix`, preview with `--diff`).
    """

    code = "KB109"
    name = "citation-count-stale"
    summary = "Front-matter citations figure differs from the distinct sources cited"
    severity = "error"
    tags = ("front-matter", "fixable")
    fixable = True

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        stated = ctx.doc.citations
        if stated is None or isinstance(stated, bool):
            return
        count = len(distinct_sources(ctx.lines, ctx.index))
        if count == stated:
            return
        line = ctx.doc.front_lines.get("citations", 1)
        text = ctx.lines[line - 1] if 0 < line <= len(ctx.lines) else ""
        m = _VALUE_RE.match(text)
        fix = (Edit(line, m.start(2), m.end(2), str(count)),) if m else None
        yield Violation(line, f"citations is {stated} but the document cites {count} distinct sources: "
                              f"set `citations: {count}` (kb lint --fix)", m.start(2) + 1 if m else None, fix)
