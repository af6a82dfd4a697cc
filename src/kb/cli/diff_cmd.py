"""The nightly commands: ``kb diff``, ``kb digest``, ``kb bump`` (issue 3)."""


import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from kb.cli.common import (
    Column,
    KbOption,
    Lang,
    app,
    console,
    console_err,
    load,
    print_rows,
    state,
)
from kb.core.errors import ExitCode, UsageError

if TYPE_CHECKING:
    from kb.history.versiondiff import SectionRef
    from kb.night.model import ConflictOut, DiffResult
    from kb.store.workspace import Kb

SinceOpt = Annotated[Optional[str], typer.Option("--since", help="Window start, ISO (inclusive).")]
UntilOpt = Annotated[Optional[str], typer.Option("--until", help="Window end, ISO (exclusive).")]
DateOpt = Annotated[Optional[str], typer.Option("--date", help="The night YYYY-MM-DD: the 24 h ending at kb.yaml's cutoff.")]
WindowOpt = Annotated[Optional[str], typer.Option("--window", help="A span ending now, e.g. 24h, 2d.")]
TopicArg = Annotated[Optional[str], typer.Argument(help="Topic (default: default_topic or the first of kb.yaml topics).")]


class Format(str, Enum):
    table = "table"
    json = "json"




@app.command("diff")
def diff_cmd(
    topic: TopicArg = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    date: DateOpt = None,
    window: WindowOpt = None,
    v_from: Annotated[Optional[str], typer.Option("--from", help="Compare living-doc versions: from this one (v44).")] = None,
    v_to: Annotated[Optional[str], typer.Option("--to", help="… to this one (v45; default: the current version).")] = None,
    fmt: Annotated[Format, typer.Option("--format", help="table or json.")] = Format.table,
    fail_on_conflict: Annotated[bool, typer.Option("--fail-on-conflict", help="Exit 1 when there are conflicts.")] = False,
    as_of: Annotated[Optional[str], typer.Option("--as-of", help="Diff as the KB stood then (a date: the whole day): later files and cards left out, the doc version current then.")] = None,
    kb: KbOption = None,
) -> None:
    """Diff a window's claims against the topic's living document (outcome per subject).

    Outcomes: net-new, update, covered, conflict, adjacent, supplement (docs/diff.md).
    With --from/--to, compare two versions of the living document instead.
    With --as-of, answer from what the KB held then (docs/history.md): the window (by
    default the night of the newest inbox file held) ends at the as-of moment at the
    latest, cards created later are unknown, the baseline is the doc version current then.
    Exit codes: 0 ok; 1 conflicts found with --fail-on-conflict; 2 bad options or input.

    Example:

        kb diff inference --date 2026-07-31 --format json

        kb diff inference --from v44 --to v45

        kb diff inference --as-of 2026-07-30
    """
    opened = load(kb, quiet=True)
    held = None
    try:
        name = opened.config.first_topic() if topic is None else topic
        if v_from or v_to:
            if as_of is not None:
                raise UsageError("--as-of picks the doc version itself; leave out --from/--to (or --as-of)")
            _version_diff(opened, name, v_from, v_to, fmt)
            return
        from kb.night.run import check_topic, pick_window, run_night

        if as_of is not None:
            from kb.history.held import held_at, window_as_of

            check_topic(opened, name)
            held = held_at(opened, as_of)
            span = window_as_of(opened, name, held, since=since, until=until, day=date, span=window)
            if held.doc(name) is None:
                raise UsageError(held.notes[-1] + "; give a later --as-of")
        else:
            span = pick_window(opened, name, since=since, until=until, day=date, span=window)
        night = run_night(opened, name, span, held=held)
    finally:
        opened.close()
    for note in held.notes if held is not None else ():
        console_err.print(f"note: {note}", markup=False)
    result = night.result
    if fmt is Format.json:
        sys.stdout.write(result.model_dump_json(indent=2) + "\n")
    else:
        _print_diff(result)
    if fail_on_conflict and result.conflicts:
        raise typer.Exit(int(ExitCode.FINDINGS))


def _version_diff(opened: "Kb", topic: str, v_from: str | None, v_to: str | None, fmt: Format) -> None:
    from kb.history.versiondiff import diff_versions, parse_version
    from kb.night.run import check_topic_name
    from kb.read.livedoc import load_living_doc
    from kb.read.parse import Parser

    check_topic_name(topic)
    parser = Parser(opened.config)
    root = opened.root
    if v_from is None:
        raise UsageError("--to needs --from (e.g. --from v44 --to v45)")
    start = parse_version(v_from, "--from")
    if v_to is None:
        try:
            end = load_living_doc(root, topic, parser).version
        except FileNotFoundError as exc:
            raise UsageError(f"no living document for {topic!r}; give --to") from exc
        if end is None:
            raise UsageError(f"{topic}: the current living doc has no version; give --to")
    else:
        end = parse_version(v_to, "--to")
    from kb.facts.query import attributor

    out = diff_versions(root, topic, parser, start, end, attributor(opened))
    if fmt is Format.json:
        sys.stdout.write(out.model_dump_json(indent=2) + "\n")
        return
    rows = []
    for kind, refs in (("added", out.sections_added), ("removed", out.sections_removed),
                       ("changed", out.sections_changed), ("renumbered", out.sections_renumbered)):
        for r in refs:
            label = f"{r.old_label} → {r.label}" if r.old_label else r.label
            rows.append((kind, label, r.title, "\n".join(section_changes(r))))
    print_rows((Column("change"), Column("section", options={"no_wrap": True}),
                Column("title", options={"overflow": "fold"}),
                Column("what changed", body=True, options={"overflow": "fold", "ratio": 3})),
               rows, title=f"{topic}: v{out.from_version} → v{out.to_version}")
    console.print(f"subjects: +{len(out.subjects_added)} {' '.join(out.subjects_added)}".rstrip())
    console.print(f"subjects: -{len(out.subjects_removed)} {' '.join(out.subjects_removed)}".rstrip())
    console.print(f"citations: +{len(out.citations_added)} -{len(out.citations_removed)}")
    for side in ("from", "to"):
        c = out.citations[side]
        flag = "" if c.stated == c.counted else "  (front matter differs from the count)"
        console.print(f"citations {side}: front matter {c.stated}, counted {c.counted}{flag}")


def section_changes(r: "SectionRef") -> list[str]:
    """Lines saying what changed inside one section of a version diff: ``+``/``-`` claims
    (with their line), ``~`` values of a subject + metric, ``+``/``-`` values not already
    shown by a claim listed on the same line (``--format json`` has them all)."""
    added, removed = {c.line for c in r.claims_added}, {c.line for c in r.claims_removed}
    out = [f"+ L{c.line} {c.text}" for c in r.claims_added]
    out += [f"- L{c.line} {c.text}" for c in r.claims_removed]
    out += [f"~ {v.subject or '-'} {v.metric or '-'}: {', '.join(v.old)} → {', '.join(v.new)} (L{v.line})"
            for v in r.values_changed]
    out += [f"+ {v.subject or '-'} {v.metric or '-'} {v.raw} (L{v.line})" for v in r.values_added if v.line not in added]
    out += [f"- {v.subject or '-'} {v.metric or '-'} {v.raw} (L{v.line})" for v in r.values_removed if v.line not in removed]
    return out


def conflict_values(c: "ConflictOut") -> str:
    """One line per value of a conflict: the value, where it stands (living-doc/window) and
    every ``path:line`` stating it (``2026-03-21  window  inbox/jay/….md:12, …``)."""
    return "\n".join(f"{v.raw}  {'/'.join(v.origin)}  {', '.join(v.sources)}" for v in c.values)


def _print_diff(r: "DiffResult") -> None:
    from kb.core.window import to_minute

    print_rows([Column(col, options={"overflow": "fold"}) for col in ("outcome", "subject", "label", "section", "claims")],
               [(s.outcome, s.key, s.label, s.section_hint or "—", str(len(s.claims))) for s in r.subjects],
               title=f"{r.topic}: {to_minute(r.window['since'])} → {to_minute(r.window['until'])}")
    if r.conflicts:
        print_rows([Column("conflict", options={"no_wrap": True}), Column("subject", options={"overflow": "fold"}),
                    Column("metric", options={"overflow": "fold"}),
                    Column("values", body=True, options={"overflow": "fold", "ratio": 3})],
                   [(f"conflict [{'/'.join(c.against)}]", c.subject,
                     c.metric + (f" ({c.qualifier})" if c.qualifier else ""), conflict_values(c)) for c in r.conflicts])
    for m in r.id_mismatches:
        console.print(f"suspected typo {m.cited} at {m.source}: next to {m.name!r}, the title of {m.card_subject}",
                      markup=False)
    console.print(f"{len(r.secondhand_only)} secondhand-only numbers; {len(r.sources_checked)} files checked",
                  markup=False)


@app.command("digest")
def digest_cmd(
    topic: TopicArg = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    date: DateOpt = None,
    window: WindowOpt = None,
    executor: Annotated[Optional[str], typer.Option("--executor", help="Who runs the night, the inbox folder of the brief (default: kb.yaml executor, else git user.name).")] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="zh or en.")] = Lang.zh,
    template: Annotated[Optional[Path], typer.Option("--template", help="Your own Jinja2 template file.")] = None,
    out: Annotated[Optional[str], typer.Option("--out", help="Output file, or - for stdout (default: inbox/<executor>/<date>-<topic>-e1prep.md).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing output file.")] = False,
    kb: KbOption = None,
) -> None:
    """Render the night's E1 pre-digest brief (Markdown) from the diff.

    With no options: the default topic, the night of the newest inbox day. Writes
    inbox/<executor>/<date>-<topic>-e1prep.md atomically and prints its path; refuses to
    overwrite it without --force. The topic's own earlier briefs are never read as sources.
    Exit codes: 0 written; 2 bad options, existing file without --force, template error.

    Example:

        kb digest inference --date 2026-07-31 --executor tom --lang zh

        kb digest --out - | less
    """
    from kb.brief.context import build_context
    from kb.brief.render import render
    from kb.core.paths import brief_path
    from kb.core.textio import write_atomic
    from kb.night.run import link_settings, pick_window, resolve_executor, run_night
    from kb.perf.gc import no_gc_passes

    opened = load(kb, quiet=True)
    try:
        # no cyclic GC pass while the night is read and rendered: its kept cards, names and titles
        # (JSON: tens of thousands of acyclic objects on a 12k KB) made CPython start a full pass
        # over every live object (~35 ms there, none on the demo KB); what cycles the night leaves
        # are collected after it
        with no_gc_passes():
            name = opened.config.first_topic() if topic is None else topic
            known = len(opened.report.problems)
            night = run_night(opened, name, pick_window(opened, name, since=since, until=until, day=date, span=window))
            who, _ = resolve_executor(opened.root, opened.config, executor)
            for problem in opened.report.problems[known:]:
                console_err.print(f"{problem.severity}: {problem}", markup=False)
            if not night.files:
                console_err.print(f"note: no inbox file or paper card was written in {night.window.shown}; "
                                  "the brief is empty", markup=False)
            for note in night.result.notes:
                if note.startswith(("baseline is ", "no version of ", "the living document has no")):
                    console_err.print(f"note: {note}", markup=False)
            if out is not None and not out.strip():
                raise UsageError("--out is empty; give a file path, or - for standard output")
            context = build_context(night, executor=who, lang=lang.value)
            dest = None if out == "-" else Path(out) if out else opened.root / brief_path(who, night.window.label_date, name)
            context["links"] = link_settings(opened.config.links, opened.root, dest)
            tdir = None
            if opened.config.templates_dir:
                from kb.core.paths import inside_kb

                tdir = inside_kb(opened.root, opened.root / opened.config.templates_dir, what="templates_dir")
            text = render(template or f"e1prep.{lang.value}.md.j2", context, templates_dir=tdir)
            root, night_date = opened.root, night.window.label_date
            del night, context  # freed here, not walked by the collection that follows the block
    finally:
        opened.close()
    if out == "-":
        sys.stdout.write(text)
        return
    target = Path(out) if out else root / brief_path(who, night_date, name)
    given = f"--out {out}" if out else _shown(target, root)
    from kb.core.claims import is_rendered_brief

    if force and target.is_file() and not is_rendered_brief(target):
        raise UsageError(f"{given}: not a brief kb wrote (no <!-- kb:brief … --> first line); "
                         "--force only replaces earlier briefs, never a living doc, card, config or briefing")
    from kb.core.paths import write_target

    write_target(root, target, force=force, own=out is None, what="brief")
    try:
        write_atomic(target, text, overwrite=force)
    except FileExistsError as exc:
        blocker = next((p for p in target.parents if p.exists() and not p.is_dir()), None)
        if blocker is not None:  # raised by creating the folders on the way
            raise UsageError(f"{given}: cannot write the brief: {blocker} is a file, not a folder") from exc
        raise UsageError(f"{_shown(target, root)} exists; use --force to overwrite it, or --out PATH") from exc
    except IsADirectoryError as exc:
        raise UsageError(f"{given} is a folder; give a file path" + ("" if out else " with --out")) from exc
    except OSError as exc:  # no permission, a parent that is a file, disk full …
        raise UsageError(f"{given}: cannot write the brief: {exc.strerror or exc}") from exc
    console.print(_shown(target, root), markup=False)


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


@app.command("bump")
def bump_cmd(
    topic: TopicArg = None,
    updated: Annotated[Optional[str], typer.Option("--updated", help="The new `updated` (ISO; default: now).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Bump even if the body did not change since the last snapshot.")] = False,
    kb: KbOption = None,
) -> None:
    """Keep version N in history/<topic>/v<N>.md, then set version N+1 and updated.

    Edit the doc first, bump after (落版): v<N>.md holds N as it was bumped in (kb's copy in
    history/<topic>/.bumped-in/, else git's first commit with version N), so
    `kb diff --from vN --to vN+1` shows exactly the edits. Every other byte of the front matter and body is kept (comments, key order, quoting,
    CRLF). An existing snapshot is never overwritten. A body unchanged since the previous
    snapshot is not bumped again unless --force.
    Exit codes: 0 done; 2 no doc, no integer version, a different snapshot exists, or
    nothing changed.

    Example:

        kb bump inference --updated 2026-08-01T05:00
    """
    from kb.core.config import load_config
    from kb.core.window import parse_moment
    from kb.history.bump import bump
    from kb.store.workspace import resolve_root

    root = resolve_root(kb or state.kb)
    config = load_config(root)
    name = config.first_topic() if topic is None else topic
    now = parse_moment(updated, config, "--updated") if updated else None
    res = bump(root, name, now=now, tz=config.tzinfo, force=force)
    if res.snapshot_existed:
        console_err.print(f"note: {res.snapshot} already held this version; kept as is", markup=False)
    elif res.source == "current":
        console_err.print(f"note: kb has no copy of v{res.old_version} as it was bumped in (no "
                          f"history/{name}/.bumped-in/v{res.old_version}.md, no git commit with that version): "
                          f"{res.snapshot} holds the current text, edits included", markup=False)
    elif res.source.startswith("git"):
        console_err.print(f"note: v{res.old_version} taken from {res.source} (the text before your edits)", markup=False)
    console.print(f"{res.snapshot} written; {res.doc} v{res.old_version} → v{res.new_version} (updated {res.updated})",
                  markup=False)
