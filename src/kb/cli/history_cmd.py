"""``kb history SUBJECT``: the timeline of a subject's values, per source and per doc version (issue 10)."""


import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from kb.cli.complete import complete_metric, complete_subject, complete_topic
from kb.cli.common import (
    Column,
    KbOption,
    TextOrJson,
    app,
    console,
    console_err,
    counted,
    load,
    print_rows,
)
from kb.core.errors import UsageError

if TYPE_CHECKING:
    from kb.history.timeline import History


@app.command("history")
def history_cmd(
    subject: Annotated[str, typer.Argument(help="arXiv id in any form, entity name or alias, card alias, doi:….", autocompletion=complete_subject)],
    metric: Annotated[Optional[str], typer.Option("--metric", help="One metric: a key (eol_date, ttft) or a phrase naming it (维护模式).", autocompletion=complete_metric)] = None,
    topic: Annotated[Optional[str], typer.Option("--topic", help="Only this topic's living doc (default: every living doc).", autocompletion=complete_topic)] = None,
    as_of: Annotated[Optional[str], typer.Option("--as-of", help="Only what the KB held then (a date: the whole day).")] = None,
    fmt: Annotated[TextOrJson, typer.Option("--format", help="text or json.")] = TextOrJson.text,
    plot: Annotated[Optional[Path], typer.Option("--plot", help="Also draw the values over time to FILE.svg or FILE.png (needs kb[plot]).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --plot file.")] = False,
    kb: KbOption = None,
) -> None:
    """Show which source said what value of SUBJECT when, and which living-doc version held which value.

    Values are the facts kb diff compares (numbers with a metric or unit, dates of a date
    metric; no plans, no disputed quotes), read through the same attribution as kb claims;
    values that are the same (as kb diff compares them) share a group. A doc line that names the metric
    but gives no value (维护模式（日期待核）) is listed with no value. --plot draws one metric
    (a date metric on a date axis): pip install 'kb-e1brief[plot]'.
    Exit codes: 0 ok; 2 unknown subject, metric or topic, bad --plot, matplotlib missing.

    Example:

    \b
        kb history TGI --metric eol_date

    \b
        kb history arXiv:2607.26627 --metric speedup --plot speedup.svg
    """
    from kb.history.held import held_at
    from kb.history.plot import plot_history
    from kb.history.timeline import subject_history

    suffix = plot.suffix.lower() if plot is not None else ""
    if plot is not None and suffix not in (".svg", ".png"):
        raise UsageError(f"--plot {plot}: give a file ending in .svg or .png")
    if plot is not None and plot.is_dir():
        raise UsageError(f"--plot {plot} is a folder; give a file path")
    if plot is not None and plot.exists() and not force:
        raise UsageError(f"--plot {plot} exists; use --force to overwrite it")
    opened = load(kb, quiet=True)
    if plot is not None:  # every check of the picture's path before any output
        from kb.core.paths import write_target

        write_target(opened.root, plot, force=force, own=False, what="picture")
    try:
        held = held_at(opened, as_of) if as_of is not None else None
        history = subject_history(opened, subject, metric=metric, topic=topic, held=held)
    finally:
        opened.close()
    picture = plot_history(history, suffix) if plot is not None else None
    if fmt is TextOrJson.json:
        sys.stdout.write(history.model_dump_json(indent=2) + "\n")
    else:
        _print_history(history)
    for note in history.notes:
        console_err.print(f"note: {note}", markup=False)
    if picture is not None and plot is not None:
        from kb.core.textio import write_atomic

        try:
            write_atomic(plot, picture[0], overwrite=force)
        except FileExistsError as exc:
            raise UsageError(f"--plot {plot} exists; use --force to overwrite it") from exc
        except IsADirectoryError as exc:
            raise UsageError(f"--plot {plot} is a folder; give a file path") from exc
        console_err.print(f"{plot}: {counted(picture[1], 'point')}", markup=False)


def _when(iso: str | None) -> str:
    from kb.core.moments import to_minute

    return to_minute(iso) if iso else "(no stamp)"


def _around(text: str, raw: str | None, width: int = 160, at: int | None = None) -> str:
    """``text`` cut to ``width`` characters around ``raw`` (at ``at`` when known, else its first
    place), with ``…`` at the cuts, when it is longer than twice that: a line of thousands of
    values is one row per value, and printing (or searching) the whole line on each made the
    table quadratic in the line's length."""
    if len(text) <= 2 * width:
        return text
    lo = max(0, (at if at is not None else text.find(raw) if raw else 0) - width // 2)
    hi = min(len(text), lo + width)
    return ("…" if lo else "") + text[lo:hi] + ("…" if hi < len(text) else "")


def _print_history(h: "History") -> None:
    """One row per value stated, oldest first: doc versions and sources on one timeline."""
    from kb.read.livedoc import version_label

    rows: list[tuple[str, tuple[str, ...]]] = []
    for v in h.versions:
        where = f"{v.topic} {version_label(v.version)}" + (" (current)" if v.current else "")
        if not v.values:
            rows.append((v.updated or "", (_when(v.updated), "—", "", where, "living-doc", v.path, "(states nothing on it)")))
        for dv in v.values:
            value = dv.raw if dv.raw is not None else "(no value)"
            group = f"#{dv.group}" if dv.group is not None else ""
            rows.append((v.updated or "", (_when(v.updated), value, group, where, f"living-doc {dv.section or ''}".strip(),
                                           f"{v.path}:{dv.line}", _around(dv.text, dv.raw))))
    for s in h.sources:
        rows.append((s.at or "~", (_when(s.at), s.raw, f"#{s.group}", s.author or "", s.kind, f"{s.path}:{s.line}", _around(s.text, s.raw, at=s.start))))
    from datetime import datetime

    def key(r: tuple[str, tuple[str, ...]]) -> datetime:
        return datetime.fromisoformat(r[0]) if r[0] not in ("", "~") else datetime.max.replace(tzinfo=None)

    stamped = sorted((r for r in rows if r[0] not in ("", "~")), key=key)
    columns = (Column("when", options={"no_wrap": True}), Column("value", options={"no_wrap": True}),
               Column("#", options={"no_wrap": True}), Column("who", options={"no_wrap": True}),
               Column("kind", options={"no_wrap": True}), Column("source", options={"no_wrap": True}),
               Column("text", body=True, options={"overflow": "fold", "ratio": 3, "min_width": 30}))
    title = f"{h.subject} ({h.label})" + (f" — {h.metric}" if h.metric else "") + (f", as of {h.as_of}" if h.as_of else "")
    print_rows(columns, [r[1] for r in stamped + [r for r in rows if r[0] in ("", "~")]], title=title)
    for g in h.values:
        held = ", ".join(g.versions) or "no doc version"
        console.print(f"value #{g.group} {g.raw} ({g.metric or '-'}): first {_when(g.first_at)}; "
                      f"{counted(len(g.sources), 'source')}; held by {held}", markup=False)
