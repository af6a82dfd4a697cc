"""Command ``kb verify``: arXiv ids checked against arXiv and against the KB."""


import sys
from collections.abc import Iterator
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from kb.cli.complete import complete_topic
from kb.cli.common import (
    counted,
    Column,
    KbOption,
    app,
    blocks_wanted,
    console,
    console_err,
    load,
    print_rows,
    progress_bar,
)
from kb.core.errors import InputError, UsageError

if TYPE_CHECKING:  # the verifier and the arXiv client are imported when a command runs
    from kb.verify.model import Tally, VerifyResult

DETAIL_MAX = 20
"""``kb verify ID…`` prints a detail block per id (card, mentions, checks) up to this many ids."""


class VerifyFormat(str, Enum):
    table = "table"
    json = "json"


def quiet_arxiv_logs() -> None:
    """The ``arxiv`` client's own log lines (skipped entries, whole 100-id URLs) stay out of
    stderr: with a handler of its own, Python's last-resort handler is never used; ``kb
    --verbose`` adds one that shows them. Called by a command before it may ask arXiv (not at
    import, and not with ``--offline``: an offline run loads no :mod:`logging`)."""
    import logging

    logger = logging.getLogger("arxiv")
    if not any(getattr(h, "kb_quiet", False) for h in logger.handlers):
        handler = logging.NullHandler()
        handler.kb_quiet = True  # type: ignore[attr-defined]
        logger.addHandler(handler)


def _inputs(args: list[str]) -> Iterator[str]:
    """Arguments, with ``-`` replaced by the whitespace-separated tokens of stdin (streamed).

    :raises InputError: standard input cannot be read (a folder, an I/O error) or is not
        text in its encoding, naming ``<stdin>`` and the line.
    """
    for arg in args:
        if arg == "-":
            yield from _stdin_tokens()
        else:
            yield arg


def _stdin_tokens() -> Iterator[str]:
    stdin = sys.stdin
    binary = getattr(stdin, "buffer", None)  # lines decoded one by one: a bad byte's line is exact
    encoding = getattr(stdin, "encoding", None) or "utf-8"
    line_no = 0
    try:
        for line_no, line in enumerate(binary if binary is not None else stdin, 1):
            yield from (line.decode(encoding) if isinstance(line, bytes) else line).split()
    except UnicodeDecodeError as exc:
        raise InputError(f"not {encoding} text ({exc.reason}); pipe the ids as plain text", "<stdin>", line_no) from exc
    except OSError as exc:
        raise InputError(f"cannot read standard input: {exc.strerror or exc}", "<stdin>") from exc


@app.command("verify")
def verify_cmd(
    ids: Annotated[Optional[list[str]], typer.Argument(
        help="arXiv ids in any form (bare, vN, arXiv: prefix, abs/pdf/html URL, old-style); '-' reads stdin.",
        show_default=False)] = None,
    all_ids: Annotated[bool, typer.Option("--all", help="Every id mentioned in the KB (or in --topic / the window).")] = False,
    topic: Annotated[Optional[str], typer.Option(help="With --all: the topic's living doc, its cards, inbox files.", autocompletion=complete_topic)] = None,
    since: Annotated[Optional[str], typer.Option(help="With --all: files written at or after this ISO date/time.")] = None,
    until: Annotated[Optional[str], typer.Option(help="With --all: files written before this ISO date/time.")] = None,
    offline: Annotated[bool, typer.Option("--offline", help="Never touch the network: cache and KB only.")] = False,
    refresh: Annotated[bool, typer.Option("--refresh", help="Ignore the cache; ask arXiv again.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings (e.g. latest version withdrawn) fail too.")] = False,
    fmt: Annotated[VerifyFormat, typer.Option("--format", help="table or json.")] = VerifyFormat.table,
    kb: KbOption = None,
) -> None:
    """Check arXiv ids against arXiv (title, authors, versions, withdrawn) and against the KB.

    For each id: its form, arXiv's metadata (batched, 100 ids per request, 3 s apart,
    cached in .kb/), the paper card (file name, title similarity, category) and every
    mention in the KB with the kind of its claim. Status: ok, mismatch, not-found, invalid,
    withdrawn or unverified. Exit code 0 all ok; 1 any mismatch, not-found, invalid or
    withdrawn (with --strict also warnings); 2 usage error; 3 otherwise, when arXiv was
    needed, unreachable, and nothing was cached.
    Details: docs/verify.md.

    Example:

    \b
        kb verify 2607.26627 arXiv:2607.26203v1 \\
            https://arxiv.org/pdf/2607.24410v2

    \b
        kb verify --all --topic inference --since 2026-07-30T22:00 --format json

    \b
        grep -ho '2607\\.[0-9]*' notes/*.md | kb verify - --offline
    """
    if all_ids and ids:
        raise UsageError("give ids or --all, not both")
    if not all_ids and not ids:
        raise UsageError("nothing to verify: give ids (or '-' for stdin), or --all")
    for number, arg in enumerate(ids or [], 1):
        if not arg.strip():
            raise UsageError("argument {number} is {arg}: an empty id; give an arXiv id (e.g. 2607.26627) "
                             "or '-' to read ids from stdin", number=number, arg=repr(arg))
    if not all_ids and (topic or since or until):
        raise UsageError("--topic, --since and --until go with --all")
    if offline and refresh:
        raise UsageError("--offline and --refresh contradict each other; pick one")
    if "-" in (ids or []) and sys.stdin is None:
        raise UsageError("'-': no standard input to read ids from (it is closed); pipe ids in or give them as arguments")
    from rich.text import Text

    from kb.verify.model import Tally, sort_worst_first
    from kb.verify.targets import scope_targets, targets_from_inputs
    from kb.verify.verifier import Verifier

    if not offline:
        quiet_arxiv_logs()
    opened = load(kb, quiet=True)
    tally = Tally()
    kept: list[VerifyResult] = []
    try:
        verifier = Verifier(opened, offline=offline, refresh=refresh, named=not all_ids)
        if all_ids:
            from kb.core.moments import parse_moment

            targets = scope_targets(
                opened, topic=topic,
                since=parse_moment(since, opened.config, "since").isoformat() if since else None,
                until=parse_moment(until, opened.config, "until").isoformat() if until else None,
            )
            total: int | None = len(targets)
        else:
            targets = targets_from_inputs(_inputs(ids or []))  # type: ignore[assignment]
            total = None if "-" in (ids or []) else len(ids or [])
        with progress_bar("verifying") as progress:
            results = verifier.run(targets, progress=progress, total=total)
            if fmt is VerifyFormat.json:
                _stream_json(results, tally)
            else:
                for r in results:
                    tally.add(r)
                    kept.append(r)
    finally:
        opened.close()
    for message in verifier.lookup.notes:
        console_err.print(Text(f"note: {message}"))
    for message in verifier.lookup.errors:
        console_err.print(Text(f"error: {message}", style="bold red"))
    if fmt is VerifyFormat.table:
        _print_table(sort_worst_first(kept))
        if not all_ids and len(kept) <= DETAIL_MAX:
            for r in sort_worst_first(kept):
                _print_detail(r)
    console_err.print(tally.summary(), markup=False)
    raise typer.Exit(int(tally.exit_code(strict)))


def _stream_json(results: "Iterator[VerifyResult]", tally: "Tally") -> None:
    out = sys.stdout
    out.write("[")
    first = True
    for r in results:
        tally.add(r)
        out.write("\n" if first else ",\n")
        out.write(r.model_dump_json())
        first = False
    out.write("\n]\n" if not first else "]\n")
    out.flush()


def _headline(r: "VerifyResult") -> str:
    label = r.id + (f"v{r.version}" if r.version else "") if r.id else r.input
    line = f"{label}: {r.status.upper()}"
    return line + (f" ({'; '.join(r.reasons)})" if r.reasons else "")


def _print_table(results: "list[VerifyResult]") -> None:
    """One row per id: a table on a wide terminal, else one block per id (:func:`print_rows`)."""
    columns = (Column("status", pad=10), Column("id", options={"no_wrap": True}),
               Column("arXiv title", body=True, options={"ratio": 2, "overflow": "fold"}),
               Column("card", options={"overflow": "fold"}), Column("sim", options={"justify": "right"}),
               Column("mentions", options={"justify": "right"}),
               Column("reasons", body=True, options={"ratio": 3, "overflow": "fold"}))
    from rich.text import Text

    style = {"ok": "green", "unverified": "yellow", "withdrawn": "magenta"}
    rows = []
    for r in results:
        label = (r.id + (f"v{r.version}" if r.version else "")) if r.id else r.input
        rows.append((
            Text(r.status, style=style.get(r.status, "red")),
            Text(label),
            Text(r.arxiv.title if r.arxiv else ""),
            Text(r.card.path.rsplit("/", 1)[-1] if r.card else ""),
            Text(f"{r.card.similarity:.2f}" if r.card and r.card.similarity is not None else ""),
            Text(counted(len(r.mentions), "mention") if blocks_wanted() else str(len(r.mentions))),
            Text("; ".join(r.reasons)),
        ))
    print_rows(columns, rows)


def _print_detail(r: "VerifyResult") -> None:
    from rich.text import Text

    console.print()
    console.print(Text(_headline(r), style="bold"))
    if r.arxiv:
        a = r.arxiv
        origin = f"cache {a.fetched_at}" if a.cached else f"fetched {a.fetched_at}"
        latest = f"latest v{a.latest_version}" if a.latest_version else f"v{a.version}"
        console.print(Text(f"  arXiv     {a.title!r} · {latest} · {a.primary_category} · published "
                           f"{a.published[:10]} · updated {a.updated[:10]} · {origin}"))
        if a.authors:
            console.print(Text("  authors   " + ", ".join(a.authors)))
        if a.comment:
            console.print(Text(f"  comment   {a.comment}"))
    if r.card:
        sim = f" · similarity {r.card.similarity:.2f}" if r.card.similarity is not None else ""
        console.print(Text(f"  card      {r.card.path} · {r.card.title!r}{sim}"))
    console.print(Text(f"  mentions  {len(r.mentions)}"))
    for m in r.mentions:
        version = f" v{m.version}" if m.version else ""
        console.print(Text(f"    {m.path}:{m.line}  {m.kind or '-'}{version}"))
    if r.named:
        console.print(Text(f"  by name   {len(r.named)} (title or alias, no id)"))
        for m in r.named:
            console.print(Text(f"    {m.path}:{m.line}  {m.kind or '-'}"))
    if r.dependents:
        console.print(Text(f"  withdrawn: {len(r.dependents)} places depend on it"))
        for d in r.dependents:
            console.print(Text(f"    {d.path}:{d.line}  {d.kind or '-'}  {d.text[:60]}"))
    for c in r.checks:
        console.print(Text(f"  {c.level}: {c.message}"))
