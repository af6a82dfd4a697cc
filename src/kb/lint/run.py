"""The ``kb lint`` pipeline: find the KB and the files, lint them, optionally fix or diff."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kb.config import find_root, is_kb_root, load_config
from kb.errors import InputError, UsageError
from kb.lint.base import Rule
from kb.lint.engine import LintResult, LintSettings, Linter, build_settings
from kb.lint.fix import fix_bytes, unified_diff, write_fixed
from kb.lint.kbfacts import KbFacts, load_facts

KNOWLEDGE = "organized/knowledge"


@dataclass(slots=True)
class LintRun:
    """Everything one ``kb lint`` run produced.

    :ivar results: one per file, in the order linted (after fixing, when fixing).
    :ivar rules: the rules that ran (SARIF lists them).
    :ivar notes: remarks for stderr (rules skipped outside a KB, fixes not applied).
    :ivar fixed: path -> number of fixes written (``--fix``).
    :ivar diffs: unified diffs of the fixes (``--diff``; nothing is written).
    """

    results: list[LintResult]
    rules: list[type[Rule]]
    settings: LintSettings
    root: Path | None
    notes: list[str] = field(default_factory=list)
    fixed: dict[str, int] = field(default_factory=dict)
    diffs: list[str] = field(default_factory=list)

    @property
    def findings(self) -> list:
        """All findings of all files, in output order."""
        return [f for r in self.results for f in r.findings]


def lint_paths(paths: Sequence[Path], *, kb: Path | None = None, select: Sequence[str] | None = None,
               ignore: Sequence[str] = (), base: str | None = None, fix: bool = False, diff: bool = False,
               progress: Callable[[int, int], None] | None = None) -> LintRun:
    """Lint living documents.

    :param paths: files, or folders (their ``*.md``, not recursive); empty = every living
        document of the KB (``organized/knowledge/*.md``).
    :param kb: ``--kb``: the KB to use for every file; None = discover it from the first path
        (or the current folder), walking up to ``kb.yaml`` or ``organized/``. Files outside
        the KB are linted without the rules that need one (a note says so).
    :param select: ``--select`` codes/names (replaces ``kb.yaml``'s selection); :param ignore: ``--ignore``.
    :param base: ``--base REV`` for KB102.
    :param fix: write the safe fixes (atomically), then lint the fixed text again.
    :param diff: compute the fixes as unified diffs and write nothing.
    :param progress: called with (done, total) while the KB's store is brought up to date.
    :raises UsageError: unknown rule code, no files and no KB, ``--kb`` not a KB, bad ``--base``.
    :raises ConfigError: invalid ``kb.yaml``. :raises InputError: missing file, bad inline comment.
    """
    if kb is not None:
        if not kb.is_dir():
            raise UsageError(f"--kb {kb}: not a folder")
        root = find_root(kb)
        if not is_kb_root(root):
            raise UsageError(f"--kb {kb}: not a KB (no kb.yaml or organized/ in it or above it)")
        in_a_kb = True
    else:
        start = (paths[0] if paths[0].is_dir() else paths[0].parent) if paths else Path.cwd()
        root = find_root(start if start.exists() else Path.cwd())
        in_a_kb = is_kb_root(root)
    config = load_config(root)
    settings = build_settings(config.lint, select, ignore)
    files = _expand(paths, root if in_a_kb else None)
    root_abs = root.resolve()

    def facts() -> KbFacts:
        from kb.workspace import open_kb

        opened = open_kb(root, progress=progress)
        run.notes.extend(opened.report.notes)
        try:
            return load_facts(root, opened.store)
        finally:
            opened.close()

    linter = Linter(config, settings, facts=facts if in_a_kb else None, root=root if in_a_kb else None, base=base)
    run = LintRun([], settings.rules, settings, root if in_a_kb else None)
    outside: list[str] = []
    skipped_codes: set[str] = set()
    for file in files:
        absolute = file.resolve()
        inside = in_a_kb and (kb is not None or absolute.is_relative_to(root_abs))
        shown = absolute.relative_to(root_abs).as_posix() if inside and absolute.is_relative_to(root_abs) \
            else file.as_posix()
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", shown) from exc
        result = linter.lint_bytes(shown, data, file=absolute, in_kb=inside)
        if result.skipped:
            outside.append(shown)
            skipped_codes.update(result.skipped)
        if fix or diff:
            outcome = fix_bytes(shown, data, result.encoding, result.lines, result.findings)
            run.notes.extend(outcome.notes)
            if diff:
                text = unified_diff(outcome, result.encoding)
                if text:
                    run.diffs.append(text)
            elif outcome.changed:
                write_fixed(file, outcome)
                run.fixed[shown] = outcome.applied
                result = linter.lint_bytes(shown, outcome.data, file=absolute, in_kb=inside)
        run.results.append(result)
    if outside:
        shown = ", ".join(outside[:3]) + (f" and {len(outside) - 3} more" if len(outside) > 3 else "")
        run.notes.append(f"{', '.join(sorted(skipped_codes))} skipped for {shown}: not inside a KB "
                         "(no kb.yaml or organized/ above it); pass --kb to use one")
    return run


def _expand(paths: Sequence[Path], root: Path | None) -> list[Path]:
    """Files to lint, in the order given (folders: their ``*.md`` sorted by name)."""
    if not paths:
        if root is None:
            raise UsageError("no files given and no KB here: pass files, or run inside a KB, or give --kb")
        folder = root / KNOWLEDGE
        return sorted(p for p in folder.glob("*.md") if p.is_file()) if folder.is_dir() else []
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(q for q in p.glob("*.md") if q.is_file()))
        elif p.is_file():
            out.append(p)
        else:
            raise InputError(f"no such file (paths are relative to {os.getcwd()})", str(p))
    return out
