"""Command ``kb diff``: a window's claims against the living document, or two versions of it (issue 3)."""


import sys
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from kb.cli.common import (
    counted,
    Column,
    KbOption,
    app,
    console,
    console_err,
    escape_controls,
    load,
    print_rows,
)
from kb.cli.night_options import DateOpt, SinceOpt, TopicArg, UntilOpt, WindowOpt
from kb.core.errors import ExitCode, UsageError

if TYPE_CHECKING:
    from kb.history.versiondiff import SectionRef
    from kb.night.model import ConflictOut, DiffResult
    from kb.store.workspace import Kb


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

    \b
        kb diff inference --date 2026-07-31 --format json

    \b
        kb diff inference --from v44 --to v45

    \b
        kb diff inference --as-of 2026-07-30
    """
    opened = load(kb, quiet=True)
    held = None
    shown: dict[str, tuple[str, dict[str, Any] | None]] = {}
    empty: str | None = None
    split = (0, 0, 0, 0)
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
        from kb.brief.digest import undated_note

        undated = undated_note(night) if held is None else None  # (--as-of names them itself)
        if fmt is not Format.json:  # the names and demotions the brief shows (kb.brief.shaping), read before the store closes
            from kb.brief.digest import empty_night
            from kb.brief.reading import Reading
            from kb.brief.shaping import demotion, secondhand_split, shown_label

            rd = Reading(night)
            shown = {s.key: (shown_label(s, rd), demotion(s, night, rd)) for s in night.result.subjects}
            kept, why = secondhand_split(night, rd)
            split = (len(kept), why["firsthand"], why["setup"], why["demoted"])
            empty = empty_night(night)
    finally:
        opened.close()
    for note in held.notes if held is not None else ():
        console_err.print(f"note: {note}", markup=False)
    if undated is not None:
        console_err.print(escape_controls(f"note: {undated}"), markup=False)
    result = night.result
    if fmt is Format.json:
        sys.stdout.write(result.model_dump_json(indent=2) + "\n")
    else:
        if empty is not None:
            console_err.print(f"note: {empty}; nothing to diff", markup=False)
        _print_diff(result, shown, split)
    if fail_on_conflict and result.conflicts:
        raise typer.Exit(int(ExitCode.FINDINGS))


def _version_diff(opened: "Kb", topic: str, v_from: str | None, v_to: str | None, fmt: Format) -> None:
    from kb.history.versiondiff import diff_versions, parse_version
    from kb.night.run import check_topic_name
    from kb.read.livedoc import load_living_doc, version_label
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

    from kb.read.versions import conflicting_snapshots

    out = diff_versions(root, topic, parser, start, end, attributor(opened))
    for note in conflicting_snapshots(root, topic):
        console_err.print(f"warning: {note}", markup=False)
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
               rows, title=f"{topic}: {version_label(out.from_version)} → {version_label(out.to_version)}")
    console.print(f"subjects: +{len(out.subjects_added)} {' '.join(out.subjects_added)}".rstrip())
    console.print(f"subjects: -{len(out.subjects_removed)} {' '.join(out.subjects_removed)}".rstrip())
    console.print(f"citations: +{len(out.citations_added)} -{len(out.citations_removed)}")
    for side in ("from", "to"):
        c = out.citations[side]
        if c.stated is None:
            console.print(f"citations {side}: counted {c.counted} (no `citations:` in the front matter)")
            continue
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


#: How ``kb diff`` names the mood that takes a subject out of the increments (:func:`kb.brief.shaping.demotion`).
_MOVED = {"demote": "demoted by its author", "lead": "a lead only", "opinion": "the author's opinion"}


def _print_diff(r: "DiffResult", shown: dict[str, tuple[str, dict[str, Any] | None]],
                split: tuple[int, int, int, int] = (0, 0, 0, 0)) -> None:
    """The diff as tables: one row per subject, by the name the brief shows it by (a paper known
    by its id: the title a window table gives it), a demoted subject's outcome marked and its
    author's words and line below the table; then the conflicts."""
    from kb.core.moments import to_minute

    def outcome(s: Any) -> str:
        moved = shown.get(s.key, ("", None))[1]
        return s.outcome if moved is None else f"{s.outcome} ({_MOVED.get(moved['mood'], moved['mood'])})"

    print_rows([Column(col, options={"overflow": "fold"}) for col in ("outcome", "subject", "label", "section", "claims")],
               [(outcome(s), s.key, shown.get(s.key, (s.label, None))[0], s.section_hint or "—", str(len(s.claims)))
                for s in r.subjects],
               title=f"{r.topic}: {to_minute(r.window['since'])} → {to_minute(r.window['until'])}")
    for s in r.subjects:
        moved = shown.get(s.key, ("", None))[1]
        if moved is not None:
            text = moved["text"] if len(moved["text"]) <= 80 else moved["text"][:79] + "…"
            console.print(f"{_MOVED.get(moved['mood'], moved['mood'])}: {s.key}: \"{text}\" — {moved['source']}",
                          markup=False)
    if r.conflicts:
        print_rows([Column("conflict", options={"no_wrap": True}), Column("subject", options={"overflow": "fold"}),
                    Column("metric", options={"overflow": "fold"}),
                    Column("values", body=True, options={"overflow": "fold", "ratio": 3})],
                   [(f"conflict [{'/'.join(c.against)}]", c.subject,
                     c.metric + (f" ({c.qualifier})" if c.qualifier else ""), conflict_values(c)) for c in r.conflicts])
    for m in r.id_mismatches:
        console.print(f"suspected typo {m.cited} at {m.source}: next to {m.name!r}, the title of {m.card_subject}",
                      markup=False)
    kept, cited, setup, demoted = split  # kb.brief.shaping.secondhand_split: (to check, and why the others are not)
    parts = [f"{cited} first-hand cited by the living doc" if cited else "",
             f"{setup} set-up value{'s' if setup != 1 else ''} or opinion{'s' if setup != 1 else ''}" if setup else "",
             f"{demoted} on a row its author keeps out of the doc" if demoted else ""]
    parts = [p for p in parts if p]
    console.print(f"{counted(len(r.secondhand_only), 'secondhand-only number')}"
                  + (f": {', '.join(parts)}, {kept} to check (the brief's count)" if parts else "")
                  + f"; {counted(len(r.sources_checked), 'file')} checked", markup=False)
