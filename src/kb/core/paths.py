"""Which paths kb may write or read on its own: inside the KB after links are resolved (issue 12).

The one place of that decision. A path kb picks itself (a brief under ``inbox/``, a card, a
snapshot, a living doc, a file ``kb lint --fix`` rewrites, what ``kb init`` creates, a
template under ``templates_dir``) must resolve, symbolic links followed (a dangling link to
where it points), to a place under the KB root: a symlinked folder or file leading out of
the KB is refused. A file kb writes that is itself a symbolic link is refused unless the
user passes ``--force``. A path the user names on the command line (``--out``,
``--template``) may lie anywhere, but is not written through a link without ``--force``.
"""

from __future__ import annotations

import os
import stat
from datetime import date
from pathlib import Path, PurePosixPath

from kb.core.errors import InputError

CONFIG_NAME = "kb.yaml"
"""The KB's config file, at its root (or in ``KB_CONFIG_DIR``: :func:`kb.core.config_kept.config_file`)."""
INBOX_DIR = "inbox"
"""The folder of the inbox files, one sub-folder per author (``inbox/<author>/``)."""
KNOWLEDGE_DIR = "organized/knowledge"
"""The folder of the living documents (``<topic>.md``) and their ``history/`` (DESIGN.md §1;
re-exported by :mod:`kb.read.livedoc`)."""


def is_kb_root(folder: Path) -> bool:
    """True when ``folder`` holds ``kb.yaml`` or ``organized/`` (DESIGN.md §5 discovery)."""
    return (folder / CONFIG_NAME).is_file() or (folder / "organized").is_dir()


def not_a_kb_folder(path: Path) -> str | None:
    """Why ``--kb PATH`` names no folder, as an error's end, else None: it does not exist, or it is
    a file (``--kb kb.yaml``: the KB is the folder that holds it)."""
    if path.is_dir():
        return None
    if not path.exists():
        return "no such folder"
    if path.name == "kb.yaml":
        return f"a file, not a folder: pass the folder that holds it (--kb {path.parent or '.'})"
    return "a file, not a folder"


def find_root(start: Path | None = None) -> Path:
    """Walk up from ``start`` (default: cwd) to the folder holding ``kb.yaml`` or ``organized/``.

    :returns: that folder; ``start`` itself when none of its parents qualifies.
    """
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if is_kb_root(folder):
            return folder
    return here


def resolved(path: Path) -> Path:
    """``path`` absolute with every link resolved, a dangling one to the path it names."""
    return Path(os.path.realpath(path))


def is_inside(root: Path, path: Path) -> bool:
    """True when ``path``, links resolved, is ``root`` (links resolved) or under it."""
    base = resolved(root)
    target = resolved(path)
    return target == base or base in target.parents


def shown(root: Path, path: Path) -> str:
    """``path`` relative to ``root`` when it lies there (as written, links not resolved), else as is."""
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return str(path)


def inside_kb(root: Path, path: Path, *, what: str = "file") -> Path:
    """``path`` if it stays inside the KB ``root`` once links are resolved.

    :param what: what the path is, for the message (``brief``, ``card``, ``template``).
    :raises InputError: the path, or a folder on its way, is a link leading out of the KB.
    """
    if not is_inside(root, path):
        raise InputError(f"the {what} would be outside the KB, at {resolved(path)} (a symbolic link or an "
                         "absolute path leads out); kb reads and writes only inside the KB", shown(root, path))
    return path


def read_inside(root: Path, rel: str, *, what: str = "file") -> bytes:
    """The bytes of ``root/rel``, a file kb reads on its own (a living doc, a snapshot), after
    :func:`inside_kb`. Opened without waiting (``O_NONBLOCK``) and read only when it is a regular
    file: a named pipe there would block the command forever (:func:`file_kind`).

    :raises InputError: a link leads out of the KB; the path is no regular file (a folder, a
        named pipe, a socket or a device: ``not a regular file (a named pipe)``).
    :raises OSError: the file cannot be read (missing: FileNotFoundError).
    """
    fd = os.open(inside_kb(root, root / rel, what=what), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        kind = file_kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise InputError(f"not a regular file ({kind})", rel)
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def file_kind(mode: int) -> str | None:
    """What an entry of stat ``mode`` is, in words, when it is no regular file (``a named pipe``,
    ``a socket``, ``a character device``, ``a block device``, ``a folder``), else None: the one
    wording of ``not a regular file (…)`` (the walk, living documents, lint)."""
    for test, words in ((stat.S_ISREG, None), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"),
                        (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                        (stat.S_ISBLK, "a block device")):
        if test(mode):
            return words
    return "a special file"


def regular_file(root: Path, rel: str) -> bool:
    """Whether ``root/rel`` (links followed) is a regular file: True; False when nothing is
    there (missing, a dangling link). Never opens it.

    :raises InputError: something there is no regular file (a named pipe, a folder …), naming
        it: ``organized/knowledge/inference.md: not a regular file (a named pipe)`` — every
        command that looks for a living document says so, none waits on a pipe or reads it as
        missing.
    """
    try:
        mode = os.stat(root / rel).st_mode
    except OSError:
        return False
    kind = file_kind(mode)
    if kind is not None:
        raise InputError(f"not a regular file ({kind})", rel)
    return True


def write_target(root: Path, path: Path, *, force: bool = False, own: bool = True, what: str = "file") -> Path:
    """Check a file kb is about to write; returns ``path``.

    :param own: True when kb picked the path (it must stay inside the KB, :func:`inside_kb`);
        False for a path the user named (``--out``), which may lie anywhere.
    :param force: allow writing through a file that is a symbolic link (the user asked).
    :raises InputError: the file is a symbolic link and not ``force`` (the message names
        ``force``); for a
        path the user named, its folder does not exist (kb creates only its own folders); for
        an ``own`` path, it leads out of the KB.
    """
    if path.is_symlink() and not force:
        raise InputError("the {what} is a symbolic link (to {target}); kb does not write through links: "
                         "remove it, or pass {0} to write to its target", shown(root, path), options=("force",),
                         what=what, target=os.readlink(path))
    if not own and not path.parent.exists():
        # kb makes its own folders (inbox/<executor>/), never one the user named by mistake
        raise InputError(f"the {what}'s folder {path.parent} does not exist; create it first", shown(root, path))
    if own and not (force and path.is_symlink()):
        inside_kb(root, path, what=what)
    return path


CARDS_DIR = "organized/paper_cards"
HISTORY_ROOT = f"{KNOWLEDGE_DIR}/history"
"""The folder of every topic's earlier versions (:func:`history_dir`)."""


def doc_path(topic: str) -> str:
    """KB-relative path of a topic's living document."""
    return f"{KNOWLEDGE_DIR}/{topic}.md"


def history_dir(topic: str) -> str:
    """KB-relative folder of a topic's earlier versions."""
    return f"{HISTORY_ROOT}/{topic}"


def bumped_in_path(topic: str, version: int) -> str:
    """KB-relative path of the copy of a topic's living doc at ``version`` as it was bumped in
    (``history/<topic>/.bumped-in/v<N>.md``: hidden from lint KB102 and the version listing),
    written by ``kb bump`` for N+1 and by ``kb init`` for version 1: the text of N before the
    night's edits, which ``kb bump`` keeps as ``v<N>.md``."""
    return f"{history_dir(topic)}/.bumped-in/v{version}.md"
STORE_DIR = ".kb"
STORE_NAME = "kb.sqlite"
LOCK_NAME = "ingest.lock"
READERS_NAME = "readers.lock"


def own_brief_suffix(topic: str) -> str:
    """File-name ending of the topic's own briefs (``-inference-e1prep.md``)."""
    return f"-{topic}-e1prep.md"


def is_own_brief(path: str, topic: str) -> bool:
    """True for an inbox file that is a brief of ``topic`` itself (never a source of that topic).

    ``kb digest`` writes ``inbox/<executor>/<date>-<topic>-e1prep.md``; a re-run of the same
    night must not read its previous output as a source, and earlier nights' briefs of the
    topic are the tool's own output, not new material.
    """
    return path.startswith(f"{INBOX_DIR}/") and PurePosixPath(path).name.endswith(own_brief_suffix(topic))


def brief_path(executor: str, night: date, topic: str) -> str:
    """KB-relative path of the brief: ``inbox/<executor>/<date>-<topic>-e1prep.md``."""
    return f"{INBOX_DIR}/{executor}/{night.isoformat()}-{topic}-e1prep.md"
