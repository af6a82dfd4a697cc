"""KB120: a KB file (a paper card, a briefing) whose front matter kb could not read and ignored."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from kb.lint.base import LintContext, Rule, Violation


class FrontMatterIgnored(Rule):
    """## What it does
    Checks the KB's own files (`organized/paper_cards/*.md`, `inbox/**.md`) once per `kb lint`
    run inside a KB, whatever documents are linted: reports every file whose front matter kb
    ignored, at the line of the fault — invalid YAML (an unclosed quote, at the line where
    the quote opens; a tab; a duplicate key) or a front matter opened with `---` and never
    closed. The file's body is still read; its front matter is not. `kb ingest` warns of the
    same once; the store keeps it, so `kb digest`, `kb diff` and the brief's §4 say so too
    every night until the file is fixed.

    ## Why is this bad?
    A card's front matter is its number, paper, title, category and `created` time: without
    it the card is in no night's window, counts in no brief's §4 and gets no number, and
    nothing but one warning of one ingest said so.

    ## Example
    ```yaml
    ---
    card: 3
    arxiv: "2611.09999
    title: Broken Card
    ---
    ```

    ## Use instead
    ```yaml
    ---
    card: 3
    arxiv: "2611.09999"
    title: Broken Card
    ---
    ```

    ## Options
    None.

    ## References
    - [docs/kb-format.md](../kb-format.md): front matter of cards and briefings.
    - `kb.core.frontmatter` (how front matter is read, and `FRONT_MATTER_UNREAD`, the code of a
      front matter it ignored) and `kb.store.db.Store.unread_front_matter` (the files the store
      holds so).
    """

    code = "KB120"
    name = "front-matter-ignored"
    summary = "a KB file's front matter is invalid or never closed, so kb ignored it"
    severity = "error"
    tags = ("front-matter", "cards", "kb")
    needs_kb = True
    scope = "kb"

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        return iter(())  # the KB's files, not a document: check_kb

    def check_kb(self, kb: Any, opts: Mapping[str, Any]) -> Iterator[tuple[str, Violation]]:
        """``(path, violation)`` of every KB file whose front matter the store says kb ignored
        (:attr:`kb.lint.kbfacts.KbFacts.unread`), living documents aside (KB101 reports those)."""
        for path, line, column, message in kb.unread:
            yield path, Violation(line, message, column)
