"""The ``kb lint`` pipeline: find the KB and the files, lint them, optionally fix or diff."""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kb.core.config import load_config
from kb.core.errors import InputError, UsageError
from kb.core.paths import (
    KNOWLEDGE_DIR,
    file_kind,
    find_root,
    is_kb_root,
    not_a_kb_folder,
    regular_file,
    write_target,
)
from kb.lint.base import Finding, Rule
from kb.lint.engine import Linter, LintResult, LintSettings, build_settings
from kb.lint.fix import FixOutcome, diff_notes, fix_bytes, unified_diff, write_fixed
from kb.lint.kbfacts import KbFacts, load_facts
from kb.store.walk import escaped_name, refused_name
from kb.store.workspace import open_kb


@dataclass(slots=True)
class LintRun:
    """Everything one ``kb lint`` run produced.

    :ivar results: one per file, in the order linted (after fixing, when fixing).
    :ivar rules: the rules that ran (SARIF lists them).
    :ivar notes: remarks for stderr (rules skipped outside a KB, fixes not applied).
    :ivar fixed: path -> number of fixes written (``--fix``).
    :ivar diffs: the fixes as patches ``git apply`` takes, in the files' own bytes (``--diff``;
        nothing is written).
    """

    results: list[LintResult]
    rules: list[type[Rule]]
    settings: LintSettings
    root: Path | None
    notes: list[str] = field(default_factory=list)
    fixed: dict[str, int] = field(default_factory=dict)
    diffs: list[bytes] = field(default_factory=list)

    @property
    def findings(self) -> list:
        """All findings of all files, in output order."""
        return [f for r in self.results for f in r.findings]


def lint_paths(paths: Sequence[Path], *, kb: Path | None = None, select: Sequence[str] | None = None,
               ignore: Sequence[str] = (), base: str | None = None, fix: bool = False, diff: bool = False,
               progress: Callable[[int, int], None] | None = None, show_all: bool = False) -> LintRun:
    """Lint living documents.

    :param paths: files, or folders (their ``*.md`` files, not recursive; links in them are
        not followed, nor is a folder given as a link, as in ``kb ingest``; a note says so);
        empty = every living document of the KB (``organized/knowledge/*.md``).
    :param kb: ``--kb``: the KB to use for every file; None = discover it from the first path
        (or the current folder), walking up to ``kb.yaml`` or ``organized/``. Files outside
        the KB are linted without the rules that need one (a note says so).
    :param select: ``--select`` codes/names (replaces ``kb.yaml``'s selection); :param ignore: ``--ignore``.
    :param base: ``--base REV`` for KB102.
    :param fix: write the safe fixes (atomically), then lint the fixed text again.
    :param diff: compute the fixes as patches (:func:`kb.lint.fix.unified_diff`), write nothing.
    :param progress: called with (done, total) while the KB's store is brought up to date.
    :param show_all: rules that name only the first few items of a grouped finding (option
        ``show``, KB104) name all of them (``kb lint --verbose``).
    :raises UsageError: unknown rule code, no files and no KB, ``--kb`` not a KB, bad ``--base``,
        a folder given with no ``*.md`` file in it, nothing to lint but links to folders.
    :raises ConfigError: invalid ``kb.yaml``.
    :raises InputError: missing or unreadable file, bad inline comment, a fix that cannot be
        written (the file is left as it was; files fixed before it are named).
    """
    if kb is not None:
        if (why := not_a_kb_folder(kb)) is not None:
            raise UsageError("{0} {kb}: {why}", options=("kb",), kb=str(kb), why=why)
        root = find_root(kb)
        if not is_kb_root(root):
            raise UsageError("{0} {kb}: not a KB (no kb.yaml or organized/ in it or above it)", options=("kb",), kb=str(kb))
        in_a_kb = True
    else:
        start = (paths[0] if paths[0].is_dir() else paths[0].parent) if paths else Path.cwd()
        root = find_root(start if start.exists() else Path.cwd())
        in_a_kb = is_kb_root(root)
    config = load_config(root)
    settings = build_settings(config.lint, select, ignore)
    if show_all:
        for opts in settings.options.values():
            if "show" in opts:
                opts["show"] = 0
    notes: list[str] = []
    files = _expand(paths, root if in_a_kb else None, notes)
    root_abs = root.resolve()

    def facts() -> KbFacts:
        opened = open_kb(root, progress=progress)
        run.notes.extend(opened.report.notes)
        try:
            return load_facts(root, opened.store)
        finally:
            opened.close()

    linter = Linter(config, settings, facts=facts if in_a_kb else None, root=root if in_a_kb else None, base=base)
    run = LintRun([], settings.rules, settings, root if in_a_kb else None, notes)
    outside: list[str] = []
    skipped_codes: set[str] = set()
    for file in files:
        absolute = file.resolve()
        inside = in_a_kb and (kb is not None or absolute.is_relative_to(root_abs))
        shown = escaped_name(absolute.relative_to(root_abs).as_posix() if inside and absolute.is_relative_to(root_abs)
                             else file.as_posix())
        try:
            size = file.stat().st_size
            if size > config.max_file_mb * 1_000_000:  # never read (memory bound, issue 12)
                run.notes.append(f"{shown}: {size:,} bytes, over the limit of {config.max_file_mb:g} MB "
                                 "(kb.yaml max_file_mb); not linted")
                continue
            data = file.read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", shown) from exc
        result = linter.lint_bytes(shown, data, file=absolute, in_kb=inside)
        if result.skipped:
            outside.append(shown)
            skipped_codes.update(result.skipped)
        if fix or diff:
            outcome = fix_bytes(shown, data, result.encoding, result.lines, result.findings, result.index)
            run.notes.extend(outcome.notes)
            if diff:
                patch = unified_diff(outcome)
                if patch:
                    run.diffs.append(patch)
                    run.notes.extend(diff_notes(outcome, result.encoding))
            elif outcome.changed:
                _write(file, shown, outcome, run.fixed)
                run.fixed[shown] = outcome.applied
                result = linter.lint_bytes(shown, outcome.data, file=absolute, in_kb=inside)
        run.results.append(result)
    if in_a_kb:
        run.results.extend(_kb_results(linter, settings))
    if outside:
        shown = ", ".join(outside[:3]) + (f" and {len(outside) - 3} more" if len(outside) > 3 else "")
        run.notes.append(f"{', '.join(sorted(skipped_codes))} skipped for {shown}: not inside a KB "
                         "(no kb.yaml or organized/ above it); pass --kb to use one")
    return run


def _write(file: Path, shown: str, outcome: FixOutcome, fixed: dict[str, int]) -> None:
    """Write one fixed file; a failure is an :class:`InputError` naming it (exit 2)."""
    write_target(file.parent, file, own=False, what="file to fix")
    try:
        write_fixed(file, outcome)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        done = f"; already fixed: {', '.join(fixed)}" if fixed else ""
        raise InputError(f"cannot write the fixes ({reason}); the file is unchanged{done}", shown) from exc


def _kb_results(linter: Linter, settings: LintSettings) -> list[LintResult]:
    """The findings of the ``kb`` scope rules (:attr:`kb.lint.base.Rule.scope`: the KB's cards,
    KB119), one result per file they name, by path; none when no such rule is selected."""
    found: dict[str, list[Finding]] = {}
    for rule_cls in settings.rules:
        if rule_cls.scope != "kb":
            continue
        opts = settings.options.get(rule_cls.code, dict(rule_cls.options))
        for path, v in rule_cls().check_kb(linter.facts(), opts):
            found.setdefault(path, []).append(Finding(path, v.line, v.column, rule_cls.code, rule_cls.name,
                                                      settings.severity_of(rule_cls), v.message))
    return [LintResult(path, sorted(fs, key=Finding.sort_key), [], b"", "utf-8", []) for path, fs in sorted(found.items())]


def _expand(paths: Sequence[Path], root: Path | None, notes: list[str]) -> list[Path]:
    """Files to lint, in the order given (folders: their ``*.md`` files sorted by name).

    Links are not followed when expanding folders, as in ``kb ingest``: a folder given as a
    link is skipped, and so is a link among a folder's ``*.md``; ``notes`` says so. A folder
    named ``x.md`` is a folder.

    :raises UsageError: a folder given explicitly holds no ``*.md`` file; every path given
        was a link to a folder.
    :raises InputError: a path does not exist.
    """
    if not paths:
        if root is None:
            raise UsageError("no files given and no KB here: pass files, or run inside a KB, or give --kb")
        folder = root / KNOWLEDGE_DIR
        return _markdown_in(folder, notes, kb_root=root) if folder.is_dir() else []
    out: list[Path] = []
    links: list[Path] = []
    for p in paths:
        if p.is_symlink() and not p.exists():
            raise InputError("a link that leads nowhere (broken, or a loop)", str(p))
        if p.is_symlink() and p.is_dir():
            links.append(p)
            notes.append(f"{p.as_posix()}: a link to a folder, not followed (kb lint, like kb ingest, does not "
                         f"follow links to folders); name the folder itself: {_target(p)}")
        elif p.is_dir():
            found = _markdown_in(p, notes)
            if not found:
                raise UsageError(f"{p.as_posix()}: a folder with no Markdown file (*.md) in it to lint; kb lint "
                                 "reads the *.md files of a folder, not its subfolders nor links")
            out.extend(found)
        elif p.is_file():
            out.append(p)
        elif p.exists():  # a named pipe, socket or device: never opened (reading a pipe waits for a writer)
            raise InputError(f"not a regular file ({file_kind(p.stat().st_mode)}); kb lint reads files only", str(p))
        else:
            raise InputError(f"no such file (paths are relative to {os.getcwd()}){_near_file(p)}", str(p))
    if not out and links:
        names = ", ".join(f"{p.as_posix()} (-> {_target(p)})" for p in links)
        raise UsageError(f"nothing to lint: {names}: a link to a folder is not followed (as in kb ingest); "
                         "name the folder itself")
    return out


def _markdown_in(folder: Path, notes: list[str], *, kb_root: Path | None = None) -> list[Path]:
    """The regular ``*.md`` files of ``folder``, sorted by name; links skipped with a note.

    :param kb_root: given when ``folder`` is the KB's living documents: a ``*.md`` there that is
        no regular file (a named pipe, a folder) is an error, as for every command that reads
        living docs (:func:`kb.core.paths.regular_file`); elsewhere a pipe is skipped with a note.
    :raises InputError: the folder cannot be read; (``kb_root``) a living doc is no regular file.
    """
    files: list[Path] = []
    links: list[str] = []
    try:
        with os.scandir(folder) as it:
            for entry in it:
                if not entry.name.endswith(".md"):
                    continue
                if refused_name(entry.name):  # as kb ingest refuses it: never printed raw (a newline, U+202E)
                    raise InputError("file name holds a control character; not linted (rename it)",
                                     escaped_name((folder / entry.name).as_posix()))
                if entry.is_symlink():
                    links.append(entry.name)
                elif entry.is_file(follow_symlinks=False):
                    files.append(folder / entry.name)
                elif kb_root is not None:  # a living doc that is a pipe or a folder: said, never opened
                    regular_file(kb_root, f"{KNOWLEDGE_DIR}/{entry.name}")
                elif not entry.is_dir(follow_symlinks=False):  # a pipe, socket or device: never opened
                    kind = file_kind(entry.stat(follow_symlinks=False).st_mode)
                    notes.append(f"{(folder / entry.name).as_posix()}: not a regular file ({kind}); skipped")
    except OSError as exc:
        raise InputError(f"cannot read the folder: {exc.strerror or exc}", folder.as_posix()) from exc
    if links:
        links.sort()
        shown = ", ".join(links[:3]) + (f" and {len(links) - 3} more" if len(links) > 3 else "")
        notes.append(f"{folder.as_posix()}: {len(links)} link(s) not followed ({shown}): kb lint, like kb ingest, "
                     "does not follow links when expanding a folder; name a link to lint it")
    return sorted(files)


def _target(link: Path) -> str:
    """Where ``link`` leads, relative to the current folder when it can be."""
    real = os.path.realpath(link)
    try:
        return Path(os.path.relpath(real)).as_posix()
    except ValueError:  # another drive
        return real


def _near_file(path: Path) -> str:
    """`` (did you mean organized/knowledge/inference.md?)`` for a missing ``path``: the closest
    ``*.md`` name in its folder (difflib), else ``""``."""
    try:
        names = sorted(p.name for p in path.parent.glob("*.md")) if path.parent.is_dir() else []
    except OSError:
        return ""
    near = difflib.get_close_matches(path.name, names, n=1)
    return f" (did you mean {(path.parent / near[0]).as_posix()}?)" if near else ""
