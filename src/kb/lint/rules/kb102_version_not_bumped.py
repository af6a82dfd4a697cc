"""KB102: the version is not greater than the newest history snapshot (or than at ``--base``)."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from kb.core.errors import UsageError
from kb.lint.base import LintContext, Rule, Violation
from kb.read.livedoc import behind_history, version_problem

_VERSION_FILE_RE = re.compile(r"^v(\d+)\.md$")
_VERSION_LINE_RE = re.compile(r"(?m)^version:\s*['\"]?(\d+)['\"]?\s*(?:#.*)?$")


class VersionNotBumped(Rule):
    """## What it does
    Compares the front-matter `version` with the newest snapshot in
    `organized/knowledge/history/<topic>/v<N>.md` (topic = the document's file name) and, with
    `kb lint --base REV`, with the version the document had at git revision `REV` when its
    text has changed since then. The version must be greater.

    ## Why is this bad?
    `kb diff --from v44 --to v45` and `kb bump` find versions by number. Two different texts
    with one number make every later diff wrong, and an edit committed without a bump is
    invisible to the nightly relay.

    ## Example
    ```markdown
    ---
    topic: inference
    version: 44
    updated: 2026-07-31T05:00:00+08:00
    ---
    ```
    with `history/inference/v44.md` already written by `kb bump`.

    ## Use instead
    ```markdown
    ---
    topic: inference
    version: 45
    updated: 2026-07-31T05:00:00+08:00
    ---
    ```

    ## Options
    None.

    ## References
    - [docs/history.md](../history.md): `organized/knowledge/history/<topic>/v<N>.md` holds earlier versions (written by `kb bump`).
    - [docs/ci.md](../ci.md): KB102 with `--base REV` in CI (`--base origin/main`).
    """

    code = "KB102"
    name = "version-not-bumped"
    summary = "Version not greater than the newest history snapshot, or than at --base REV"
    severity = "error"
    tags = ("front-matter", "history")

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        version = ctx.doc.version
        if version is None or "/history/" in "/" + ctx.path:
            return
        line = ctx.doc.front_lines.get("version", 1)
        topic = PurePosixPath(ctx.path).stem
        snaps = history_snapshots(ctx, topic)
        for number in sorted(snaps):  # v9999999.md: a typo, no version to be greater than
            if (why := version_problem(number)) is not None:
                yield Violation(line, f"history/{topic}/v{number}.md: its number {why}; not compared (rename it)")
        valid = [n for n in snaps if version_problem(n) is None]
        if (why := behind_history(version, valid, f"history/{topic}")) is not None:
            yield Violation(line, why)
        if ctx.base and ctx.file is not None:
            old = _text_at(ctx.file, ctx.base)
            if old is not None and old.replace("\r\n", "\n").lstrip("\ufeff") != ctx.doc.text:
                m = _VERSION_LINE_RE.search(old[:4000])
                if m and version <= int(m.group(1)) and version_problem(int(m.group(1))) is None:
                    yield Violation(line, f"the document changed since {ctx.base} but version {version} is not "
                                          f"greater than {m.group(1)} there: set `version: {int(m.group(1)) + 1}`")


def history_snapshots(ctx: LintContext, topic: str) -> dict[int, Path]:
    """Version -> file of each ``history/<topic>/v<N>.md`` beside the linted doc (in a KB, its
    history folder; else the ``history/`` folder next to the file): KB102, and KB101's advice
    for a doc with no ``version:``."""
    folder = _history_folder(ctx, topic)
    return _snapshots(folder) if folder is not None else {}


def _history_folder(ctx: LintContext, topic: str) -> Path | None:
    if ctx.root is not None and ctx.path.startswith("organized/knowledge/"):
        return ctx.root / "organized/knowledge/history" / topic
    if ctx.file is not None:
        return ctx.file.parent / "history" / topic
    return None


def _snapshots(folder: Path) -> dict[int, Path]:
    if not folder.is_dir():
        return {}
    out: dict[int, Path] = {}
    for p in folder.iterdir():
        m = _VERSION_FILE_RE.match(p.name)
        if m:
            out[int(m.group(1))] = p
    return out


def _text_at(file: Path, rev: str) -> str | None:
    """The file's text at git revision ``rev``; None when it did not exist there.

    :raises UsageError: ``rev`` is not a commit of the repository holding ``file``.
    """
    folder = str(file.parent)
    try:
        ok = subprocess.run(["git", "-C", folder, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                            capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        ok = False
    if not ok:
        raise UsageError(f"--base {rev}: not a git commit of the repository holding {file} "
                         "(try --base origin/main or --base HEAD~1)")
    r = subprocess.run(["git", "-C", folder, "show", f"{rev}:./{file.name}"], capture_output=True, timeout=30)
    if r.returncode != 0:
        return None
    return r.stdout.decode("utf-8", errors="replace")
