"""Command ``kb digest``: the night's E1 brief, rendered by :func:`kb.brief.digest.digest` and written (issue 3)."""


import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from kb.cli.common import KbOption, Lang, TextOrJson, app, console, console_err, escape_controls, load, print_json, state
from kb.cli.night_options import DateOpt, SinceOpt, TopicArg, UntilOpt, WindowOpt
from kb.core.errors import UsageError

if TYPE_CHECKING:  # the pipeline is imported when the command runs (start-up time)
    from kb.core.window import Window
    from kb.store.workspace import Kb


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
    fmt: Annotated[TextOrJson, typer.Option("--format", help="text (the brief) or json: the brief's context, the data the template renders, on stdout (docs/json.md).")] = TextOrJson.text,
    kb: KbOption = None,
) -> None:
    """Render the night's E1 pre-digest brief (Markdown) from the diff.

    With no options: the default topic, the night of the newest inbox day. Writes
    inbox/<executor>/<date>-<topic>-e1prep.md atomically and prints its path; refuses to
    overwrite it without --force. The topic's own earlier briefs are never read as sources.
    With --format json nothing is written: the brief's context (increments, conflicts,
    checks, sources …, the data the template renders) goes to stdout (docs/json.md).
    When the night picked by default has no file, a note names the nights that have some.
    Exit codes: 0 written; 2 bad options, existing file without --force, template error.

    Example:

    \b
        kb digest inference --date 2026-07-31 --executor tom --lang zh

    \b
        kb digest --out - | less

    \b
        kb digest --format json | jq '.conflicts[].label'
    """
    from kb.brief.digest import digest
    from kb.core.claims import is_rendered_brief
    from kb.core.paths import write_target
    from kb.core.textio import write_atomic
    from kb.night.run import pick_window

    if out is not None and not out.strip():
        raise UsageError("--out is empty; give a file path, or - for standard output")
    if fmt is TextOrJson.json and out not in (None, "-"):
        raise UsageError("--format json prints the brief's context to standard output; leave out --out "
                         "(or redirect: kb digest --format json > FILE)")
    if fmt is TextOrJson.json and template is not None:
        raise UsageError("--format json gives the data a template renders; --template has no use with it")
    picked = not (since or until or date or window)
    opened = load(kb, quiet=True)
    try:
        name = opened.config.first_topic() if topic is None else topic
        known = len(opened.report.problems)
        span = pick_window(opened, name, since=since, until=until, day=date, span=window)
        for problem in opened.report.problems[known:]:  # files dated in the future
            console_err.print(escape_controls(f"{problem.severity}: {problem}"), markup=False)

        def note(line: str) -> None:
            _note(line)
            if picked and line.startswith("note: no inbox file or paper card was written in"):
                _note(nights_with_files(opened, name))

        if fmt is TextOrJson.json:
            print_json(brief_context(opened, name, span, executor=executor, lang=lang.value, note=note))
            return
        brief = digest(opened, name, span, executor=executor, lang=lang.value, template=template,
                       dest=Path(out) if out and out != "-" else None, stdout=out == "-", note=note)
        root = opened.root
    finally:
        opened.close()
    if brief.path is None:
        sys.stdout.write(escape_controls(brief.text))  # a file name may hold ESC; text kb reads holds none
        return
    target = brief.path
    given = f"--out {out}" if out else _shown(target, root)
    if force and target.is_file() and not is_rendered_brief(target):
        raise UsageError(f"{given}: not a brief kb wrote (no <!-- kb:brief … --> first line); "
                         "--force only replaces earlier briefs, never a living doc, card, config or briefing")
    write_target(root, target, force=force, own=out is None, what="brief")
    try:
        if force and target.is_file() and target.read_text(encoding="utf-8", errors="replace") != brief.text:
            # the replaced brief may hold the analyst's judgement: kept beside it (issue 24)
            old, n = target.read_bytes(), 0
            bak = target.with_name(target.name + ".bak")
            while bak.exists() and bak.read_bytes() != old:  # an earlier .bak is never replaced
                n += 1
                bak = target.with_name(f"{target.name}.bak.{n}")
            if not bak.exists():
                write_atomic(bak, old, overwrite=False)
            _note(f"note: the replaced brief is kept as {_shown(bak, root)}")
        write_atomic(target, brief.text, overwrite=force)
    except FileExistsError as exc:
        blocker = next((p for p in target.parents if p.exists() and not p.is_dir()), None)
        if blocker is not None:  # raised by creating the folders on the way
            raise UsageError(f"{given}: cannot write the brief: {blocker} is a file, not a folder") from exc
        raise UsageError(f"{_shown(target, root)} exists; use --force to overwrite it, or --out PATH") from exc
    except IsADirectoryError as exc:
        raise UsageError(f"{given} is a folder; give a file path" + ("" if out else " with --out")) from exc
    except OSError as exc:  # no permission, a parent that is a file, disk full …
        raise UsageError(f"{given}: cannot write the brief: {exc.strerror or exc}") from exc
    state.delivered = target  # written: a stdout that fails now changes nothing (issue 24)
    console.print(escape_controls(_shown(target, root)), markup=False)


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def brief_context(opened: "Kb", topic: str, span: "Window", *, executor: str | None, lang: str,
                  note: "Callable[[str], None]") -> dict[str, Any]:
    """The context :func:`kb.brief.digest.digest` renders, built by the brief's own
    :func:`kb.brief.digest.night_context` for the same night and executor (links as for
    standard output); plain JSON data (docs/json.md)."""
    from kb.brief.digest import night_context, resolve_executor, undated_note
    from kb.night.run import run_night

    night = run_night(opened, topic, span)
    who, _ = resolve_executor(opened.root, opened.config, executor)
    if not night.files:
        note(f"note: no inbox file or paper card was written in {span.shown}; the brief is empty")
    for line in night.result.notes:
        if line.startswith(("baseline is ", "no version of ", "the living document has no")):
            note(f"note: {line}")
    if (undated := undated_note(night)) is not None:
        note(f"note: {undated}")
    known = len(opened.report.problems)
    context = night_context(opened, night, who, lang=lang)
    for problem in opened.report.problems[known:]:  # a night's file unreadable since ingest
        note(f"{problem.severity}: {problem}")
    return context


def nights_with_files(opened: "Kb", topic: str, shown: int = 3) -> str:
    """A note for an empty night kb picked itself: the newest nights that have inbox files or
    cards (by kb.yaml's cutoff), with their counts, and the option that picks one."""
    from collections import Counter

    from kb.core.window import night_of

    stamps = [w for role in ("inbox", "card") for w, _path in opened.store.newest_files(role, 500)]
    nights = Counter(night_of(w, opened.config).isoformat() for w in stamps if w)
    if not nights:
        return "note: no inbox file or card of the KB has a date; add files to inbox/<author>/"
    newest = sorted(nights, reverse=True)[:shown]
    listed = ", ".join(f"{n} ({nights[n]} file{'' if nights[n] == 1 else 's'})" for n in newest)
    return f"note: nights with files: {listed}; pick one with --date {newest[0]}"


def _note(line: str) -> None:
    """A note of :func:`kb.brief.digest.digest` on stderr, as plain text."""
    console_err.print(line, markup=False)
