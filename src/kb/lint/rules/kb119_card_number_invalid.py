"""KB119: a paper card's number taken twice, or written as no card number."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from kb.lint.base import LintContext, Rule, Violation


class CardNumberInvalid(Rule):
    """## What it does
    Checks the KB's paper cards (`organized/paper_cards/*.md`) once per `kb lint` run inside a
    KB, whatever documents are linted: reports a card whose number another card has too (two
    files numbered 681: a hand copy, or two cards made at once before numbering took the
    KB's lock), naming both files, and a card whose front-matter `card:` is no card number —
    not a whole number from 1 to 999,999 (`"x"`, `1e400`, `null`, `[682]`, `-1`,
    `99999999999999999999999`) — at the line of `card:`. `kb ingest` warns of the same when it
    reads a card.

    ## Why is this bad?
    A card's number is how the living document, the brief and `kb card new` name it. Two cards
    with one number are told apart by nobody; a `card:` that is no number is read as the file
    name's number without a word, and a huge one made `kb card new` number the next card
    10^23.

    ## Example
    ```yaml
    # organized/paper_cards/681-2607-30009.md (a copy of 681-2607-26627.md)
    card: 681
    ```

    ## Use instead
    ```yaml
    # organized/paper_cards/682-2607-30009.md
    card: 682
    ```

    ## Options
    None.

    ## References
    - [docs/kb-format.md](../kb-format.md): paper cards, `card:` and file names.
    - `kb.read.cards.card_number_problem` (what a `card:` may be) and
      `kb.store.cards.duplicate_numbers` (two cards, one number).
    """

    code = "KB119"
    name = "card-number-invalid"
    summary = "paper card number taken twice or not a card number"
    severity = "error"
    tags = ("cards", "kb")
    needs_kb = True
    scope = "kb"

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        return iter(())  # the KB's cards, not a document: check_kb

    def check_kb(self, kb: Any, opts: Mapping[str, Any]) -> Iterator[tuple[str, Violation]]:
        """``(card path, violation)`` of every card problem the KB's facts hold
        (:attr:`kb.lint.kbfacts.KbFacts.card_problems`)."""
        for path, line, message in kb.card_problems:
            yield path, Violation(line, message)
