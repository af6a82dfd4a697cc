"""Command ``kb export bibtex``: BibTeX for the cards a living document cites (kb.verify.bibtex)."""


import sys
from typing import Annotated, Optional

import typer

from kb.cli.common import KbOption, app, console_err, counted, load
from kb.cli.complete import complete_topic
from kb.core.errors import UsageError

export_app = typer.Typer(name="export", help="Export what the KB holds: kb export bibtex [TOPIC].", no_args_is_help=True)
app.add_typer(export_app, name="export")


@export_app.command("bibtex")
def bibtex_cmd(
    topic: Annotated[Optional[str], typer.Argument(help="Topic whose living doc's cited cards to export (default: default_topic or the first of kb.yaml topics).", autocompletion=complete_topic)] = None,
    every: Annotated[bool, typer.Option("--all", help="Every card of the KB that names an arXiv id, not only those the doc cites.")] = False,
    kb: KbOption = None,
) -> None:
    """Print BibTeX (@misc, arXiv's export shape) for the paper cards a living doc cites.

    One entry per card the topic's living document cites (an arXiv id in it whose card
    exists), in the order of first mention: title from the card, authors, year and primary
    category from arXiv's metadata that kb cached (kb verify, kb card new), eprint, url.
    Nothing is fetched: run `kb verify --all --topic T` first for complete authors. Cited ids
    without a card are counted on stderr. Import the output into Zotero, papis or JabRef.
    Exit codes: 0 ok; 2 unknown topic or no living doc.

    Example:

    \b
        kb export bibtex inference > inference.bib

    \b
        kb export bibtex --all > refs.bib && \\
            papis bibtex read refs.bib import --all
    """
    from kb.verify.bibtex import all_cards, bib_entries, cited_cards, to_bibtex

    if every and topic is not None:
        raise UsageError("--all exports every card; leave out the topic, or leave out --all")
    opened = load(kb, quiet=True)
    try:
        if every:
            cards, missing = all_cards(opened), []
        else:
            cards, missing = cited_cards(opened, opened.config.first_topic() if topic is None else topic)
        items = bib_entries(opened, cards)
    finally:
        opened.close()
    sys.stdout.write(to_bibtex(items))
    without = sum(1 for e in items if "author" not in e.fields)
    console_err.print(f"{counted(len(items), 'entry', 'entries')}"
                      + (f"; {counted(len(missing), 'cited id')} without a card" if missing else "")
                      + (f"; {without} without authors (not in kb's arXiv cache: kb verify --all)" if without else ""),
                      markup=False)
