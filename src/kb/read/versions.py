"""Versions of a living document: history snapshots, git revisions, a version by its number and
the version current at a date (the baseline a night is diffed against).

Earlier versions live in ``organized/knowledge/history/<topic>/v<N>.md`` or, failing that, in
git history; each is read with :func:`kb.read.livedoc.parse_living_doc`.
"""

from __future__ import annotations

import re
import subprocess
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.core.errors import KbError
from kb.core.frontmatter import split
from kb.core.paths import (
    doc_path,
    history_dir,
    is_inside,
    read_inside,
    regular_file,
    resolved,
)
from kb.core.textio import decode
from kb.extract.names import NameMatcher
from kb.read.livedoc import (
    LazyParser,
    LivingDoc,
    ParsedFiles,
    add_version,
    load_living_doc,
    parse_living_doc,
    version_label,
    version_problem,
)

if TYPE_CHECKING:
    from kb.read.parse import Parser

_VERSION_FILE_RE = re.compile(r"^v(\d+)\.md$")


def history_versions(root: Path, topic: str) -> dict[int, str]:
    """Version number -> KB-relative path of each snapshot in ``history/<topic>/``: regular
    files inside the KB only (:func:`skipped_snapshots` names the others)."""
    return dict(sorted((v, rel) for v, rel, why in _snapshots(root, topic) if why is None))


def skipped_snapshots(root: Path, topic: str) -> list[str]:
    """``<path>: <why>; skipped`` for each ``vN.md`` of ``history/<topic>/`` that is no snapshot
    kb reads (its number no version kb reads: ``v0.md``, ``v9999999.md``; a folder, a link out of
    the KB, a file it cannot stat): one bad snapshot is
    passed over with a warning, never the end of ``kb history`` or ``--as-of`` (issue 24)."""
    return [f"{rel}: {why}; skipped" for _, rel, why in sorted(_snapshots(root, topic)) if why is not None]


def conflicting_snapshots(root: Path, topic: str) -> list[str]:
    """One warning per snapshot whose number kb does not take from it as written, with the
    rule that wins (docs/history.md, "Doc versions"): a snapshot ``history/<topic>/vN.md`` is
    version N, its file name's (``kb bump`` writes ``vN.md`` for version N), so one whose
    front-matter ``version`` is another version kb reads is read as vN; and the current file
    is its own version, so a snapshot of the current version with other bytes is passed over.

    :returns: ``<path>: its front matter says version 4, its file name v3; …`` and
        ``<path>: v5 as the current <doc> (version 5), with other content; …``, by version;
        empty when every snapshot agrees (a missing or unreadable ``version:`` is
        :func:`kb.read.livedoc.unknown_version_note`'s).
    """
    def front_version(rel: str) -> tuple[int | None, bytes]:
        try:
            data = read_inside(root, rel, what="snapshot")
        except (OSError, KbError):  # (an unreadable snapshot is skipped_snapshots')
            return None, b""
        version = split(decode(data, rel).text, rel)[0].data.get("version")
        return (version if version_problem(version) is None else None), data

    out: list[str] = []
    current_version, current_data = (front_version(doc_path(topic)) if regular_file(root, doc_path(topic))
                                     else (None, b""))
    for number, rel in history_versions(root, topic).items():
        version, data = front_version(rel)
        if version is not None and version != number:
            out.append(f"{rel}: its front matter says version {version}, its file name v{number}; read as v{number} "
                       "(a snapshot is the version its file name numbers)")
        if number == current_version and data != current_data:
            out.append(f"{rel}: v{number} as the current {doc_path(topic)} (version {current_version}), with other "
                       f"content; passed over: the current file is v{number}")
    return out


def _snapshots(root: Path, topic: str) -> list[tuple[int, str, str | None]]:
    folder = root / history_dir(topic)
    out: list[tuple[int, str, str | None]] = []
    try:
        entries = list(folder.iterdir()) if folder.is_dir() else []
    except OSError:
        return []
    for p in entries:
        m = _VERSION_FILE_RE.match(p.name)
        if not m:
            continue
        rel = p.relative_to(root).as_posix()
        number = int(m.group(1))
        if (bad := version_problem(number)) is not None:  # v0.md, v9999999.md: no version kb reads
            out.append((number, p.relative_to(root).as_posix(), f"its number {bad}"))
            continue
        try:
            why = (None if p.is_file() and is_inside(root, p) else "a folder, not a snapshot" if p.is_dir()
                   else f"a link out of the KB (to {resolved(p)})" if p.is_symlink() and p.exists()
                   else "a broken link" if p.is_symlink() else "not a regular file")
        except OSError as exc:
            why = f"cannot be read ({exc.strerror or exc})"
        out.append((number, rel, why))
    return out


def _git_doc_revisions(root: Path, topic: str) -> list[tuple[int, str]]:
    """``(version, revision)`` of each commit touching the doc, oldest first (versions read
    from the committed front matter); empty outside a git work tree or without git."""
    rel = doc_path(topic)
    try:
        revs = subprocess.run(
            ["git", "-C", str(root), "log", "--format=%H", "--", rel],
            capture_output=True, text=True, timeout=30, check=True,
        ).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return []
    out: list[tuple[int, str]] = []
    for rev in reversed(revs):
        text = git_show(root, rev, rel)
        if text is None:
            continue
        m = re.search(r"(?m)^version:\s*(\d+)\s*$", text[:2000])
        if m:
            out.append((int(m.group(1)), rev))
    return out


def git_versions(root: Path, topic: str) -> dict[int, str]:
    """Version number -> git revision holding it as it was bumped in: the *first* commit in
    which the doc has that version (later commits under the same number are the edits that
    the next bump turns into the next version).

    Empty when ``root`` is not in a git work tree or git is missing.
    """
    out: dict[int, str] = {}
    for version, rev in _git_doc_revisions(root, topic):
        out.setdefault(version, rev)
    return out


def git_first_revision(root: Path, topic: str, version: int) -> str | None:
    """The first commit in which the topic's doc has ``version`` (see :func:`git_versions`), else None."""
    return git_versions(root, topic).get(version)


def git_show(root: Path, rev: str, rel: str, *, raw: bool = False) -> Any:
    """A file's text at a git revision (its bytes with ``raw``), else None."""
    try:
        r = subprocess.run(["git", "-C", str(root), "show", f"{rev}:{rel}"], capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    if r.returncode != 0:
        return None
    return r.stdout if raw else r.stdout.decode("utf-8", errors="replace")


def load_version(root: Path, topic: str, version: int, parser: Parser,
                 aliases: NameMatcher | None = None) -> LivingDoc:
    """Version ``version`` of a topic's living doc: the current file, a history snapshot or git.

    :raises LookupError: no such version anywhere; the message lists the versions found.
    """
    current = regular_file(root, doc_path(topic))  # (a pipe there: an error naming it)
    if current:
        doc = parse_living_doc(parser, doc_path(topic), read_inside(root, doc_path(topic), what="living document"),
                               aliases)
        if doc.version == version:
            return doc
    snaps = history_versions(root, topic)
    if version in snaps:
        return _numbered(parse_living_doc(parser, snaps[version], read_inside(root, snaps[version], what="snapshot"),
                                          aliases), version)
    revs = git_versions(root, topic)
    if version in revs:
        text = git_show(root, revs[version], doc_path(topic)) or ""
        return parse_living_doc(parser, f"{doc_path(topic)}@{revs[version][:10]}", text, aliases)
    known = sorted(set(snaps) | set(revs) | ({doc.version} if current and doc.version else set()))
    raise LookupError(f"{topic}: no version v{version} (known: {', '.join(f'v{v}' for v in known) or 'none'})")


def _numbered(snapshot: LivingDoc, number: int) -> LivingDoc:
    """A snapshot read as the version its file name numbers when its front matter gives another
    (:func:`conflicting_snapshots` warns); one with none kb reads keeps None (its note)."""
    if snapshot.version is not None:
        snapshot.version = number
    return snapshot


def baseline_for(root: Path, topic: str, parser: Parser | LazyParser, until: datetime,
                 aliases: NameMatcher | None = None, *, store: ParsedFiles | None = None) -> LivingDoc:
    """The living document as it stood at ``until`` (the end of a window): the current file
    if it was updated before then, else the newest history snapshot that was, else (no such
    snapshot) the newest version in git history that was (:func:`git_versions`: a version as
    it was bumped in) — so a past night is diffed against the document of that night, not of
    today. Git is asked only when no snapshot qualifies (it costs one ``git show`` per commit
    of the doc).

    The current file and history snapshots are read from ``store`` when it holds them as
    they are (:meth:`kb.store.db.Store.parsed_file`).

    :raises FileNotFoundError: the topic has no living document.
    """
    current = load_living_doc(root, topic, parser, aliases, store=store)
    if current.version is None:
        unread = next((p for p in current.problems if "front matter" in p.message), None)
        if unread is not None:  # (updated: …T25:00 made the whole front matter unreadable, version too)
            current.notes.append(f"the living document has no readable front matter ({unread}); "
                                 "fix it: its version and updated are unknown")
        elif "version" in current.front:  # version: 99999999999999999999999, v45
            current.notes.append(f"the living document has no readable version ({current.path}:"
                                 f"{current.front_lines.get('version', 1)}: 'version' {version_problem(current.front['version'])}); "
                                 "fix it: its version is unknown")
        else:
            current.notes.append(f"the living document has no integer `version` in its front matter ({current.path}); "
                                 + add_version(history_versions(root, topic)))
    skipped = skipped_snapshots(root, topic)
    current.notes.extend(skipped)
    if current.updated is None or current.updated < until:
        return current
    best: LivingDoc | None = None
    for version, rel in sorted(history_versions(root, topic).items(), reverse=True):
        snap = _numbered(parse_living_doc(parser, rel, read_inside(root, rel, what="snapshot"), aliases, store=store),
                         version)
        if snap.updated is not None and snap.updated < until:
            best = snap
            break
    if best is None:
        for version, rev in sorted(git_versions(root, topic).items(), reverse=True):
            if version == current.version:
                continue
            old = parse_living_doc(parser, f"{doc_path(topic)}@{rev[:10]}", git_show(root, rev, doc_path(topic)) or "",
                                   aliases)
            if old.updated is not None and old.updated < until:
                best = old
                break
    if best is None:
        current.notes.append(f"no version of {current.path} is older than the window's end; diffed against "
                             f"{version_label(current.version)}, updated after the night (outcomes may read 'covered' too early)")
        return current
    best.notes.extend(skipped)
    best.notes.append(f"baseline is {best.path} ({version_label(best.version)}, the version current at the window's end); "
                      f"{current.path} is now {version_label(current.version)}")
    return best
