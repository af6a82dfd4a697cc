"""KB119: a paper card's number taken twice, written as no card number, or disagreeing with its
file name."""

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
    `99999999999999999999999`) — at the line of `card:`. Also a `card:` that YAML reads as a number
    though it is not written as plain decimal digits (`0x2AA`, `6_82`, `0o1252`, `0682`: all 682),
    a `card:` that disagrees with the number its file name starts with (`card: 700` in
    `681-2607-26627.md`; the `card:` is the card's number), a file name that is not
    `<card>-<YYMM>-<NNNNN>.md` (`2607-30009.md`, `notes.md`: it states no number, and a card with
    neither has none) and a file name's number over 999,999. `kb ingest` warns of the same when it
    reads a card.

    ## Why is this bad?
    A card's number is how the living document, the brief and `kb card new` name it. Two cards
    with one number are told apart by nobody; a `card:` that is no number is read as the file
    name's number without a word, and a huge one made `kb card new` number the next card
    10^23. A `card:` and a file name that disagree name two numbers for one card, and `kb card
    new` numbers past both (`card: 700` in `681-…` makes the next card 701); a name of the arXiv
    id only (`2607-30009.md`) was read as card 2607.

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
    - `kb.read.cards.card_number_problems` (what a `card:` and a card's file name may be) and
      `kb.store.cards.duplicate_numbers` (two cards, one number).
    """

    code = "KB119"
    name = "card-number-invalid"
    summary = "paper card number taken twice, not a card number, or not its file name's"
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
