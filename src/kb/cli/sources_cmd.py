"""Command ``kb sources``: the source ledger, per author and per cited site (kb.night.ledger)."""


import json
import sys
from typing import Annotated, Optional

import typer

from kb.cli.complete import complete_topic
from kb.cli.common import (
    Column,
    KbOption,
    TextOrJson,
    app,
    blocks_wanted,
    console,
    load,
    print_rows,
)


@app.command("sources")
def sources_cmd(
    topic: Annotated[Optional[str], typer.Option(help="One topic (default: every kb.yaml topic with a living doc).", autocompletion=complete_topic)] = None,
    since: Annotated[Optional[str], typer.Option(help="Count numbers written at or after this ISO date/time.")] = None,
    until: Annotated[Optional[str], typer.Option(help="Count numbers written before this ISO date/time "
                                                      "(the living doc is the version of that time).")] = None,
    fmt: Annotated[TextOrJson, typer.Option("--format", help="text or json.")] = TextOrJson.text,
    kb: KbOption = None,
) -> None:
    """The source ledger: per author and per cited site, what became of its secondhand numbers.

    Each number of a secondhand claim about a subject of the topic is counted for its author
    (the inbox folder) and for each site its claim cites (the host of a URL), with its fate
    in the topic's diff over every dated file: backed (a paper-fact states the same value),
    contradicted (a conflict whose other side is a paper-fact or the living doc), in-doc (the
    living doc states it) or unsettled. By default every dated file counts; --since/--until
    bound the files (the cost grows with the files and the values they state).
    Exit code 0; 2 for an unknown topic or a bad date.
    Details: docs/sources.md.

    Example:

    \b
        kb sources --topic inference

    \b
        kb sources --since 2026-07-01 --until 2026-08-01

    \b
        kb sources --format json
    """
    from rich.text import Text

    from kb.core.moments import parse_moment
    from kb.night.ledger import all_time, build_ledger

    opened = load(kb, quiet=True)
    try:
        window = None
        if since or until:
            window = all_time(opened, parse_moment(since, opened.config, "since") if since else None,
                              parse_moment(until, opened.config, "until") if until else None)
        ledger = build_ledger(opened, topic, window)
    finally:
        opened.close()
    if fmt is TextOrJson.json:
        sys.stdout.write(json.dumps(ledger.as_dict(), ensure_ascii=False, indent=2) + "\n")
        return
    columns = (Column("source", options={"no_wrap": True}), Column("type"),
               Column("numbers", options={"justify": "right"}), Column("backed", options={"justify": "right"}),
               Column("contradicted", options={"justify": "right"}), Column("in doc", options={"justify": "right"}),
               Column("unsettled", options={"justify": "right"}),
               Column("contradicted at", body=True, options={"ratio": 2, "overflow": "fold"}))
    blocks = blocks_wanted()

    def n(value: int, label: str) -> Text:  # one block per row: each count says what it counts
        return Text(f"{value} {label}" if blocks else str(value))

    rows = [(Text(r.source), Text(r.type), n(r.numbers, "numbers"), n(r.backed, "backed"),
             n(r.contradicted, "contradicted"), n(r.in_doc, "in doc"), n(r.unsettled, "unsettled"),
             Text("\n".join(r.contradicted_at))) for r in ledger.records]
    if not rows:
        console.print(f"no secondhand numbers in {', '.join(ledger.topics) or 'any topic'}", markup=False)
        return
    print_rows(columns, rows, title=f"source ledger · {', '.join(ledger.topics)}")
