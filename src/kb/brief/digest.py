"""``kb digest`` as a library call: one night's E1 brief of a topic, rendered as Markdown.

:func:`digest` runs the night (:func:`kb.night.run.run_night`), builds the render context
(:func:`kb.brief.context.build_context`) and renders it (:func:`kb.brief.render.render`); who
runs the night (:func:`resolve_executor`), where the brief goes and how it links its sources
(:func:`link_settings`) are decided here too. Writing it is the caller's.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kb.brief.context import build_context
from kb.brief.render import render
from kb.core.config import KbConfig, LinksConfig, executor_problem
from kb.core.errors import UsageError
from kb.core.paths import brief_path, inside_kb
from kb.core.window import Window
from kb.night.run import Night, run_night
from kb.perf.gc import no_gc_passes
from kb.store.workspace import Kb


def empty_night(night: Night) -> str | None:
    """What a night with nothing to read says, naming its window, or None: ``no inbox file or
    paper card was written in <window>``, or ``the 2 files written in <window> hold no claim``.
    ``kb digest`` (the brief is empty) and ``kb diff`` (nothing to diff) say it."""
    if not night.files:
        return f"no inbox file or paper card was written in {night.window.shown}"
    if not night.claims:
        n = len(night.files)
        return f"the {n} file{'s' if n != 1 else ''} written in {night.window.shown} hold{'s' if n == 1 else ''} no claim"
    return None


def undated_note(night: Night) -> str | None:
    """The inbox files no night's window holds, named once, or None: a file's time is its
    front-matter date, else its file-name stamp (docs/kb-format.md, "When a file was written");
    one with neither (``notes.md``, ``-2026-07-31-x.md``) is in no window. ``kb digest`` and
    ``kb diff`` say it: ``2 inbox file(s) without a date in their name or front matter are in no
    night's window: inbox/jay/notes.md, …`` (the first ten named)."""
    undated = night.kb.store.undated_files(("inbox",))
    if not undated:
        return None
    more = f" and {len(undated) - 10} more" if len(undated) > 10 else ""
    return (f"{len(undated)} inbox file(s) without a date in their name or front matter are in no night's window "
            f"(give each a date to have it read): {', '.join(undated[:10])}{more}")


def _quiet(line: str) -> None:
    """The default of :func:`digest`'s ``note``: notes go nowhere."""


@dataclass(frozen=True, slots=True)
class Brief:
    """A rendered brief and where it goes."""

    text: str
    """The Markdown."""
    executor: str
    """Who runs the night (:func:`resolve_executor`)."""
    path: Path | None
    """The file to write it to: the given ``dest``, else ``inbox/<executor>/<date>-<topic>-e1prep.md``
    in the KB (:func:`kb.core.paths.brief_path`); None for standard output."""


def digest(kb: Kb, topic: str, window: Window, *, executor: str | None = None, lang: str = "zh",
           template: str | Path | None = None, dest: Path | None = None, stdout: bool = False,
           note: Callable[[str], None] = _quiet) -> Brief:
    """The E1 brief of ``topic`` for the night ``window`` (:func:`kb.night.run.pick_window`), as
    Markdown: the night is diffed, who runs it resolved, its render context built and the
    template rendered. Nothing is written.

    :param executor: who runs the night, if given (:func:`resolve_executor`: else kb.yaml, else git).
    :param lang: ``zh`` or ``en``: the shipped template ``e1prep.<lang>.md.j2``, unless ``template``.
    :param template: a template name or file (:func:`kb.brief.render.render`).
    :param dest: the file the brief is for (default: the executor's, in the KB); relative
        links (kb.yaml ``links: relative``) start from its folder.
    :param stdout: the brief is for standard output: links start from the KB root.
    :param note: called with each line for the reader, in order: the problems met reading
        the KB (``warning: …``), an empty night, the baseline's notes (``note: …``).
    :raises UsageError: unknown topic, no executor; :raises InputError: no living document, a
        ``templates_dir`` outside the KB; :raises TemplateError: see :func:`kb.brief.render.render`.
    """
    # no cyclic GC pass while the night is read and rendered: its kept cards, names and titles
    # (JSON: tens of thousands of acyclic objects on a 12k KB) made CPython start a full pass
    # over every live object (~35 ms there, none on the demo KB); what cycles the night leaves
    # are collected after it
    with no_gc_passes():
        known = len(kb.report.problems)
        night = run_night(kb, topic, window)
        who, _ = resolve_executor(kb.root, kb.config, executor)
        for problem in kb.report.problems[known:]:
            note(f"{problem.severity}: {problem}")
        if (empty := empty_night(night)) is not None:
            note(f"note: {empty}; " + ("the brief is empty" if not night.files else "the brief lists no subject"))
        for line in night.result.notes:
            if line.startswith(("baseline is ", "no version of ", "the living document has no")):
                note(f"note: {line}")
        if (undated := undated_note(night)) is not None:
            note(f"note: {undated}")
        path = None if stdout else dest or kb.root / brief_path(who, window.label_date, topic)
        known = len(kb.report.problems)
        context = night_context(kb, night, who, lang=lang, path=path)
        for problem in kb.report.problems[known:]:  # a night's file unreadable since ingest
            note(f"{problem.severity}: {problem}")
        tdir = None
        if kb.config.templates_dir:
            tdir = inside_kb(kb.root, kb.root / kb.config.templates_dir, what="templates_dir")
        text = render(template or f"e1prep.{lang}.md.j2", context, templates_dir=tdir,
                      seconds=kb.config.brief_seconds, max_bytes=int(kb.config.brief_max_mb * 1e6))
        del night, context  # freed here, not walked by the collection that follows the block
    return Brief(text, who, path)


def night_context(kb: Kb, night: Night, executor: str, *, lang: str = "zh", path: Path | None = None) -> dict[str, Any]:
    """The brief's context as plain data (str, int, None, lists and dicts of them; stable keys,
    deterministic order): :func:`kb.brief.context.build_context` plus ``links``
    (:func:`link_settings` for a brief written to ``path``; None: standard output) and ``unread``
    (``path``, ``line``, ``message`` of every KB file whose front matter kb ignored, in or out of
    the window: :meth:`kb.store.db.Store.unread_front_matter`; listed in §4 each night until fixed). What
    ``kb digest`` renders; ``kb digest --format json`` may print it as it is."""
    context = build_context(night, executor=executor, lang=lang)
    context["links"] = link_settings(kb.config.links, kb.root, path)
    context["unread"] = [{"path": p.path, "line": p.line, "message": p.message} for p in kb.store.unread_front_matter()]
    return context


def resolve_executor(root: Path, config: KbConfig, given: str | None = None) -> tuple[str, str]:
    """Who runs the night, and where that came from: ``given`` (``--executor``), else
    ``executor`` in kb.yaml, else the git user of the KB (``git config user.name`` run in
    the KB root). Never the author of some file: the brief goes into ``inbox/<executor>/``,
    and another analyst's folder must not be picked silently.

    :returns: ``(name, source)``, source one of ``--executor``, ``kb.yaml``, ``git``.
    :raises UsageError: an empty or non-plain name (it names a folder), or none of the three
        is set (the message says how to set one).
    """
    for name, source in ((given, "--executor"), (config.executor, "kb.yaml")):
        if name is not None:
            problem = executor_problem(name)
            if problem:
                raise UsageError(f"{source if source == '--executor' else 'kb.yaml executor'} {problem}")
            return name.strip(), source
    try:
        git = subprocess.run(["git", "-C", str(root), "config", "user.name"], check=False, capture_output=True, text=True,
                             timeout=10)
        name = git.stdout.strip() if git.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        name = ""
    if name and executor_problem(name) is None:
        return name, "git"
    raise UsageError("who runs this night? give --executor NAME, or set `executor: NAME` in kb.yaml "
                     "(or `git config user.name` in the KB); the brief goes to inbox/<executor>/")


def link_settings(setting: str | LinksConfig, root: Path, dest: Path | None) -> dict[str, object]:
    """How the brief links ``path:line`` sources (the ``src`` filter of :mod:`kb.brief.render`),
    from kb.yaml ``links`` (a string, or ``{base, style}``: :class:`kb.core.config.LinksConfig`):
    ``none`` → plain text; a URL → ``{base: URL/}``; ``relative`` → the path from the brief's
    folder to the KB root (``../../`` for ``inbox/<executor>/…``; empty for standard output,
    read from the KB root). ``style`` (default ``github``) is how a line is addressed: ``github``
    and ``gitlab`` write ``path.md?plain=1#L50`` for Markdown (both render a ``.md`` file and
    ignore ``#L50`` otherwise), ``plain`` writes ``path#L50``."""
    base, style = (setting.base, setting.style) if isinstance(setting, LinksConfig) else (setting, "github")
    if base.strip().lower() in ("none", "off", "false", ""):
        return {"enabled": False, "style": style}
    if base.strip().lower() != "relative":
        return {"enabled": True, "base": base.rstrip("/") + "/", "style": style}
    if dest is None:
        return {"enabled": True, "base": "", "style": style}
    rel = os.path.relpath(root.resolve(), dest.resolve().parent if dest.is_absolute() else (Path.cwd() / dest).resolve().parent)
    return {"enabled": True, "base": "" if rel == "." else rel.replace(os.sep, "/") + "/", "style": style}
