"""Commands of the foundation: ``kb init``, ``kb ingest``, ``kb claims``."""


import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from kb.cli.complete import complete_kind, complete_subject
from kb.cli.common import (
    Column,
    KbOption,
    app,
    console,
    TextOrJson,
    console_err,
    counted,
    load,
    print_json,
    print_rows,
    progress_bar,
    state,
)
from kb.core.errors import ExitCode, UsageError

if TYPE_CHECKING:  # the pipeline is imported inside each command (start-up time)
    from kb.core.claims import Claim


class Format(str, Enum):
    table = "table"
    json = "json"
    jsonl = "jsonl"


@app.command("init")
def init_cmd(
    path: Annotated[str, typer.Argument(help="Folder to make a KB in (created if missing).")] = ".",
    topic: Annotated[str, typer.Option("--topic", help="The KB's first topic: kb.yaml topics and its living doc.")] = "inference",
    fmt: Annotated[TextOrJson, typer.Option("--format", help="text or json ({created: [paths], kept: [paths]}).")] = TextOrJson.text,
) -> None:
    """Scaffold an empty knowledge base: inbox/, organized/…, a commented kb.yaml, .gitignore.

    Never overwrites an existing file; prints what it created and what it left alone.

    Example:

    \b
        kb init my-kb && cd my-kb && kb ingest

    \b
        kb init ~/rag-kb --topic rag
    """
    from kb.core.scaffold import init_kb

    if not path.strip():
        raise UsageError("kb init: the folder is empty; give one, e.g. `kb init .` or `kb init ~/my-kb`")
    created, kept = init_kb(Path(path), topic=topic)
    if fmt is TextOrJson.json:
        print_json({"created": created, "kept": kept})
        return
    for p in created:
        console.print(f"created {p}")
    for p in kept:
        console_err.print(f"kept    {p} (exists)")


@app.command("ingest")
def ingest_cmd(
    kb: KbOption = None,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", min=1, help="Worker processes for parsing.")] = None,
    fmt: Annotated[TextOrJson, typer.Option("--format", help="text or json (the counts, problems and notes; docs/json.md).")] = TextOrJson.text,
) -> None:
    """Parse new and changed files of the KB into the store (.kb/kb.sqlite).

    Only files whose content changed are parsed again; claims of deleted files are removed.
    Ends with one line: files parsed / unchanged / failed, and the claims in the store.
    Exit code 2 (input error) when any file could not be read (binary, undecodable,
    unreadable, over kb.yaml max_file_mb; each named on stderr): the other files are stored
    all the same, and what the store held of those is kept.

    Example:

    \b
        kb ingest

    \b
        kb ingest --kb . --jobs 2 --format json
    """
    from kb.store.fresh import resolve_root, unchanged_store

    root = resolve_root(kb or state.kb)
    report = unchanged_store(root)  # nothing changed: no config models, no YAML (issue 11)
    if report is None:
        from kb.core.config import load_config
        from kb.store.workspace import ingest_store

        config = load_config(root)
        with progress_bar("parsing") as progress:
            store, report = ingest_store(root, config, progress=progress, jobs=jobs)
        store.close()
    if fmt is TextOrJson.json:
        print_json({"parsed": report.parsed, "unchanged": report.unchanged, "failed": report.failed,
                    "removed": report.removed, "claims": report.claims, "problems": report.problems,
                    "notes": report.notes})
    else:
        for note in report.notes:
            console_err.print(f"note: {note}")
        for problem in report.problems:
            console_err.print(f"{problem.severity}: {problem}", markup=False)
        console.print(report.summary())
    if report.failed:  # a file kb could not read is an input error, never a silent success
        raise typer.Exit(int(ExitCode.USAGE))


@app.command("claims")
def claims_cmd(
    kind: Annotated[Optional[str], typer.Option(help="paper-fact, secondhand or internal-rating.", autocompletion=complete_kind)] = None,
    subject: Annotated[
        Optional[str], typer.Option(help="arXiv id in any form, entity name or alias, card alias, doi:….", autocompletion=complete_subject)
    ] = None,
    author: Annotated[Optional[str], typer.Option(help="Author (inbox folder or front matter).")] = None,
    since: Annotated[Optional[str], typer.Option(help="Written at or after this ISO date/time.")] = None,
    until: Annotated[Optional[str], typer.Option(help="Written before this ISO date/time.")] = None,
    file: Annotated[Optional[str], typer.Option("--file", help="KB-relative path, or a folder ending in /.")] = None,
    fmt: Annotated[Format, typer.Option("--format", help="table, json or jsonl.")] = Format.table,
    quotes: Annotated[bool, typer.Option("--quotes", help="Also list rows of briefs kb rendered (quotes of other claims).")] = False,
    as_of: Annotated[Optional[str], typer.Option("--as-of", help="Only what the KB held then: files stamped up to this date (a date: the whole day) or date-time, living docs as of then.")] = None,
    kb: KbOption = None,
) -> None:
    """List claims with their kind and provenance, filtered.

    Rows of briefs kb rendered repeat other claims (`quote_of`); they are left out unless
    --quotes. With --as-of, files stamped later are left out, and each living doc is the
    version current then (its lines carry that version's path, e.g. history/<topic>/v44.md);
    files without a stamp are named once and left out (docs/history.md).

    Example:

    \b
        kb claims --subject arXiv:2607.26627 --format json

    \b
        kb claims --subject TGI --as-of 2026-07-30
    """
    from kb.facts.query import ClaimFilter, select_claims

    opened = load(kb, quiet=True)
    try:
        held = None
        if as_of is not None:
            from kb.history.held import held_at

            held = held_at(opened, as_of)
        flt = ClaimFilter(kind=kind, subject=subject, author=author, since=since, until=until, path=file,
                          quotes=quotes, held=held)
        claims = select_claims(opened, flt)
    finally:
        opened.close()
    for note in held.notes if held is not None else ():
        console_err.print(f"note: {note}", markup=False)
    if fmt is Format.json:
        sys.stdout.write("[" + ",\n".join(c.model_dump_json() for c in claims) + "]\n")
    elif fmt is Format.jsonl:
        sys.stdout.write("".join(c.model_dump_json() + "\n" for c in claims))
    else:
        _print_table(claims)


def _print_table(claims: "list[Claim]") -> None:
    """A table on a wide terminal; in a pipe or on a narrow terminal one block per claim, so
    that ``path:line`` and the text never shrink to nothing (:func:`print_rows`)."""
    columns = (Column("kind", pad=15, options={"no_wrap": True}), Column("source", options={"no_wrap": True}),
               Column("subjects", options={"overflow": "fold", "max_width": 30}),
               Column("text", body=True, options={"overflow": "fold", "ratio": 3, "min_width": 30}))
    print_rows(columns, [(c.kind, f"{c.provenance.path}:{c.provenance.line}", " ".join(c.subjects), c.text)
                         for c in claims])
    console_err.print(counted(len(claims), "claim"))
