"""Command ``kb card new``: a new paper card from arXiv's metadata (cache, then arXiv)."""


from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from kb.cli.common import KbOption, Lang, TextOrJson, app, console, console_err, load, print_json
from kb.cli.verify_cmd import quiet_arxiv_logs
from kb.core.errors import SourceUnavailable, UsageError

if TYPE_CHECKING:  # the arXiv client and the cards are imported when the command runs
    from kb.core.records import SourceRecord


card_app = typer.Typer(name="card", help="Paper cards: kb card new ID.", no_args_is_help=True)
app.add_typer(card_app, name="card")


@card_app.command("new")
def card_new_cmd(
    arxiv_id: Annotated[str, typer.Argument(metavar="ID", help="arXiv id in any form; a version is kept.")],
    lang: Annotated[Lang, typer.Option("--lang", help="Body headings: zh (问题/方法/结果/局限) or en.")] = Lang.zh,
    category: Annotated[Optional[str], typer.Option(help="Main category (主分类); default arXiv's primary.")] = None,
    offline: Annotated[bool, typer.Option("--offline", help="Use only the cache.")] = False,
    refresh: Annotated[bool, typer.Option("--refresh", help="Ignore the cache; ask arXiv again.")] = False,
    fmt: Annotated[TextOrJson, typer.Option("--format", help="text or json ({path: the new card, KB-relative}).")] = TextOrJson.text,
    kb: KbOption = None,
) -> None:
    """Write a new paper card organized/paper_cards/<next no>-<YYMM>-<NNNNN>.md from arXiv metadata.

    The card number is the highest in use plus one, read from the cards folder while no other
    kb writes (two runs at once never share a number). Front matter: card, arxiv, title,
    authors, category, created (now, kb.yaml timezone); the body is an empty skeleton.
    Never overwrites; refuses when a card already names the paper. Prints the path.
    Exit code 1 when arXiv has no such paper, 2 for a bad id or an existing card, 3 when
    arXiv is unreachable and the id is not cached.

    Example:

    \b
        kb card new 2309.06180 --lang en --category inference-systems
    """
    from rich.text import Text

    from kb.store.cards import CardIndex
    from kb.verify.card_new import new_card
    from kb.verify.lookup import Lookup

    if offline and refresh:
        raise UsageError("--offline and --refresh contradict each other; pick one")
    if not offline:
        quiet_arxiv_logs()
    opened = load(kb, quiet=True)
    try:
        lookup = Lookup.for_kb(opened, offline=offline, refresh=refresh)

        def record_for(key: str) -> "SourceRecord | None":
            answer = lookup.answers([key])[key]
            if answer.state == "unverified":
                fix = ("run it again without --offline to fetch it" if offline
                       else "try again later, when arXiv answers")
                raise SourceUnavailable(f"{key}: {answer.note}; the card needs arXiv's metadata: {fix}")
            if answer.record is not None and answer.record.withdrawn:
                console_err.print(Text(f"warning: {key} is withdrawn on arXiv: {answer.record.comment}"))
            return answer.record

        path = new_card(opened.root, CardIndex.from_store(opened.store), arxiv_id, record_for,
                        now=datetime.now(opened.config.tzinfo), lang=lang.value, category=category)
        shown = path.relative_to(opened.root).as_posix()
        if fmt is TextOrJson.json:
            print_json({"path": shown})
        else:
            console.print(shown, markup=False, highlight=False)
    finally:
        opened.close()
