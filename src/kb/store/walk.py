"""The files of a KB that ingest reads: every ``*.md`` under :data:`SCAN_DIRS`, with its stat."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from operator import itemgetter
from pathlib import Path

from kb.core.paths import file_kind
from kb.core.textio import INVISIBLE_CLASS, Problem
from kb.perf.gc import no_gc_passes

#: Folders of a KB whose Markdown files are parsed into claims (DESIGN.md §1). Living-doc
#: history (``organized/knowledge/history/``) is read by :mod:`kb.read.livedoc`, not ingested.
SCAN_DIRS = ("inbox", "organized/paper_cards", "organized/knowledge")


#: Text files kb does not read, whose writer may expect it to (a briefing saved as ``.txt``):
#: listed as not read, never dropped without a word. Other files (PDFs, images) are attachments.
_TEXT_NOT_MD = (".markdown", ".mdown", ".mkd", ".mkdn", ".txt", ".text")


def iter_kb_files(root: Path, problems: list[Problem] | None = None,
                  max_file_mb: float | None = None) -> Iterator[tuple[str, os.stat_result]]:
    """``(relative POSIX path, stat)`` of every ``*.md`` under :data:`SCAN_DIRS`, sorted.

    Hidden folders and ``organized/knowledge/history/`` are skipped. A symbolic link named
    ``*.md`` or to a folder is never followed and is reported as skipped, with where it leads;
    a folder named ``*.md`` is reported (read as a folder where folders are read).
    An entry that is no regular file and no folder (a named pipe, socket or device) is never
    opened (reading a pipe blocks): it is reported in ``problems`` as skipped, with what it is;
    so is a text file that is no ``*.md`` (:data:`_TEXT_NOT_MD`).
    A folder that cannot be read is reported in ``problems`` (when given, code
    :data:`UNREADABLE_FOLDER`) and skipped; so is an entry whose name is not valid UTF-8 or holds
    a control character (:data:`_CONTROL_RE`; code :data:`UNREADABLE`, shown as ``\x0a``).
    A file of more than ``max_file_mb`` megabytes (kb.yaml ``max_file_mb``; None: no limit) is
    never opened, so one huge file cannot exhaust memory: reported (code :data:`TOO_BIG`) and
    left out; what the store holds of it is kept (:func:`kb.store.ingest.ingest`).
    The cyclic GC makes no pass during the walk (its 12k tuples and stat results of a 12k-file
    KB form no cycles, and started ~30 passes of every look-up's freshness check).
    """
    with no_gc_passes():
        return iter(_walk(root, problems, max_file_mb))


def _walk(root: Path, problems: list[Problem] | None, max_file_mb: float | None) -> list[tuple[str, os.stat_result]]:
    found: list[tuple[str, os.stat_result]] = []
    limit = int(max_file_mb * 1_000_000) if max_file_mb is not None else None
    for top in SCAN_DIRS:
        base = root / top
        if not base.is_dir():
            continue
        # (folder on disk, its KB-relative POSIX path): paths built as strings, no Path per file
        stack = [(str(base), top)]
        while stack:
            folder, rel_folder = stack.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError as exc:
                if problems is not None:
                    problems.append(Problem(rel_folder + "/", 0, f"folder cannot be read ({exc.strerror or exc}); "
                                            "the files stored from it are kept", code=UNREADABLE_FOLDER))
                continue
            prefix = rel_folder + "/"
            descend = top != "organized/knowledge"  # history/ and any subfolder: not living docs
            for entry in entries:
                name = entry.name
                if name[0] == ".":
                    continue
                if not name.isascii() and not _utf8(name):  # the store and every output are UTF-8
                    if problems is not None:
                        shown = name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")  # \xff
                        problems.append(Problem(prefix + shown, 0, "file name is not valid UTF-8; skipped (rename it)",
                                                code=UNREADABLE))
                    continue
                if refused_name(name):
                    if problems is not None:
                        problems.append(Problem(prefix + escaped_name(name), 0, "file name holds a control character; "
                                                "skipped (rename it)", code=UNREADABLE))
                    continue
                try:
                    if entry.is_symlink():
                        if problems is not None and (entry.is_dir() or name[-3:].lower() == ".md"):
                            problems.append(Problem(prefix + name, 0, _link_skipped(root, entry.path), "warning"))
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        if descend:
                            stack.append((entry.path, prefix + name))
                        if problems is not None and name[-3:].lower() == ".md":
                            problems.append(Problem(prefix + name, 0, _MD_FOLDER[descend], "warning"))
                    elif entry.is_file(follow_symlinks=False):
                        if name[-3:].lower() == ".md":
                            st = entry.stat(follow_symlinks=False)
                            if limit is not None and st.st_size > limit:  # never read (memory bound, issue 12)
                                if problems is not None:
                                    problems.append(Problem(prefix + name, 0, too_big(st.st_size, max_file_mb or 0),
                                                            code=TOO_BIG))
                                continue
                            found.append((prefix + name, st))
                        elif problems is not None and name.rstrip(" .").lower().endswith(".md"):  # "x.md ", "x.md."
                            problems.append(Problem(prefix + name, 0, f"not read: the name ends in {name[len(name.rstrip(' .')):]!r} "
                                                                      "after .md (rename it to end in .md to have it read)",
                                                    "warning"))
                        elif problems is not None and name.lower().endswith(_TEXT_NOT_MD):
                            problems.append(Problem(prefix + name, 0, "not read: kb reads *.md files only "
                                                                      "(rename it to .md to have it read)", "warning"))
                    elif problems is not None:  # a named pipe, socket or device: never opened (it may block)
                        problems.append(Problem(prefix + name, 0, f"not a regular file ({file_kind(entry.stat(follow_symlinks=False).st_mode)}); "
                                                                "skipped", "warning"))
                except OSError as exc:
                    if problems is not None:
                        problems.append(Problem(prefix + name, 0, f"cannot be read ({exc.strerror or exc}); skipped",
                                                code=UNREADABLE))
    found.sort(key=itemgetter(0))  # by path: a key of str sorts 2-3x faster than the tuples (unique paths)
    return found


#: Characters no name of a file kb reads may hold (C0, DEL, C1: newline, tab, CR, ESC …; and the
#: invisible and direction characters kb removes from text, kb.core.textio INVISIBLE_CLASS: a
#: zero-width space, a right-to-left override): a path holding one could not be printed as it is
#: (a newline starts a line of the brief, ESC recolours the terminal, U+202E shows the name
#: backwards) nor escaped and still name the file; such an entry is refused, never stored, so
#: no path kb stores, prints or renders (brief, history, trace, claims, sources, lint) holds one.
#: Every Unicode line break is here: LF, VT, FF, CR (C0), NEL (C1) and U+2028 / U+2029 (line and
#: paragraph separator: a reader that honours them, Python's ``splitlines``, JavaScript, an
#: editor, saw a name holding ``\u2028## …`` as a heading line of the brief).
_CONTROL_RE = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029{INVISIBLE_CLASS}]")


def refused_name(name: str) -> bool:
    """Whether a file or folder name holds a character no KB path may hold (:data:`_CONTROL_RE`):
    the walk refuses it (never stored), ``kb lint`` too (a living doc it lists itself)."""
    return not name.isprintable() and _CONTROL_RE.search(name) is not None  # (isprintable: C, and most names)


def escaped_name(name: str) -> str:
    """``name`` with each character of :data:`_CONTROL_RE` written as ``\\x0a`` or ``\\u202e``:
    the one way kb shows a name it refuses, or a path given on the command line that holds one
    (``kb lint``); every other path kb prints comes from the store, which holds no such name."""
    return _CONTROL_RE.sub(_escaped, name) if not name.isprintable() else name


def _escaped(found: re.Match[str]) -> str:
    """A character of a refused name as it is shown: ``\\x0a``, ``\\u202e``."""
    code = ord(found[0])
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _utf8(name: str) -> bool:
    """``name`` (as ``os`` decodes it: undecodable bytes as surrogates) is valid UTF-8."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


#: The code of the problem of a file the walk found and could not stat (gone, no permission) or
#: whose name is not valid UTF-8 (an entry of any kind): a file kb failed to read
#: (:func:`kb.store.ingest.ingest` counts it as failed).
UNREADABLE = "unreadable"
#: The code of the problem of a folder the walk could not list (no permission): its path ends
#: with ``/``; :func:`kb.store.ingest.ingest` keeps the files stored from it and counts them as
#: failed (at least one), never as removed.
UNREADABLE_FOLDER = "unreadable-folder"


#: The code of the problem of a ``*.md`` file over kb.yaml's ``max_file_mb``: never read;
#: :func:`kb.store.ingest.ingest` counts it as failed (exit 2) and keeps what was stored from it
#: (its claims stay in the store, as a folder's that cannot be listed), never removes it.
TOO_BIG = "too-big"
#: The codes of the walk's problems that are files kb did not read (``kb ingest`` fails, exit 2;
#: every other command says so: :meth:`kb.store.fresh.IngestReport.unread`).
NOT_READ = (UNREADABLE, UNREADABLE_FOLDER, TOO_BIG)


def too_big(size: int, max_file_mb: float) -> str:
    """The message of a file of ``size`` bytes over the limit (the one wording: ingest, lint)."""
    return (f"{size:,} bytes, over the limit of {max_file_mb:g} MB (kb.yaml max_file_mb); skipped "
            "(what the store holds of it is kept)")


#: What a folder named ``*.md`` is to the walk (keyed by whether its top folder is descended):
#: a folder, never a file; said, since its writer may have meant a briefing.
_MD_FOLDER = {
    True: "a folder named *.md, not a file: read as a folder (the *.md files in it are read)",
    False: "a folder named *.md, not a living document; skipped: living documents are the *.md files "
           "directly in organized/knowledge/",
}


def _link_skipped(root: Path, path: str) -> str:
    """Why a symbolic link of the KB (named ``*.md``, or to a folder) is not read: kb never
    follows links (it reads a file where it lies, once); one that leads out of the KB or nowhere
    says so. The target is only resolved (its stat), never opened: a link to a pipe does not
    block."""
    target = os.path.realpath(path)
    if not os.path.exists(target):
        return f"a symbolic link to {os.readlink(path)}, which does not exist; skipped"
    real_root = os.path.realpath(root)
    if os.path.commonpath([real_root, target]) != real_root:
        return f"a symbolic link out of the KB (to {target}); skipped: kb reads only files inside the KB"
    inside = Path(os.path.relpath(target, real_root)).as_posix()
    return f"a symbolic link (to {inside}); skipped: kb reads files where they lie, never through a link"
