"""The store's file locks: one writer at a time (``.kb/ingest.lock``), and readers that keep a
store of theirs from being emptied under them (``.kb/readers.lock``). POSIX ``flock``: the kernel
drops a lock when its holder ends, even by ``kill -9``; without ``fcntl`` nothing is locked.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from kb.core.errors import InputError
from kb.core.paths import LOCK_NAME, READERS_NAME, STORE_DIR, STORE_NAME


@contextmanager
def writer_lock(root: Path, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the KB's ingest lock (``root/.kb/ingest.lock``, an exclusive ``flock``) while the
    store is brought up to date, so that a second ``kb`` run waits for the first instead of
    failing with "database is locked" after SQLite's busy timeout; then it finds nothing left to
    do. The kernel drops the lock when its holder ends, even by ``kill -9``. ``kb bump`` holds
    it too (:func:`kb.history.bump.bump`), so two bumps never bump the same version.

    :param on_wait: called once with a message (naming the holder's pid) before blocking, when
        another process holds the lock.
    Without ``fcntl`` (Windows) or when ``.kb/`` cannot be written, nothing is locked (opening
    the store then reports the real problem).
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        yield
        return
    path = root / STORE_DIR / LOCK_NAME
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = _open_own(path)
    except OSError:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                try:
                    holder = (os.pread(fd, 32, 0).decode("ascii", "replace").split() or ["?"])[0]
                except OSError:
                    holder = "?"
                on_wait(f"another kb (pid {holder}) is updating {root} (its store {STORE_DIR}/{STORE_NAME}, or "
                        "bumping a living doc); waiting for it to finish…")
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:  # a fixed-width record, written in place: no truncation (ext4 flushes a file
            # truncated to 0 and rewritten when it is closed: up to 0.1 s of a no-change run)
            os.pwrite(fd, f"{os.getpid():<20}\n".encode(), 0)
        except OSError:
            pass
        yield
    finally:
        os.close(fd)  # releases the lock


_READERS: dict[str, int] = {}
"""KB root -> this process's descriptor of its ``.kb/readers.lock``, held shared (:func:`hold_readers`)."""
_READERS_MAX = 32
EMPTY_WAIT_S = 60.0
"""How long emptying the store waits for other kb runs still reading it (:func:`emptying`)."""


def _readers_fd(root: Path) -> int | None:
    path = root / STORE_DIR / READERS_NAME
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return _open_own(path)
    except OSError:
        return None


def hold_readers(root: Path) -> None:
    """Hold the KB's readers lock (``.kb/readers.lock``, a shared ``flock``) until this process
    ends: a kb with another ``kb.yaml`` or another version must not empty the store while this
    one still reads it (breaker6: ``kb diff`` printed no subjects, exit 0). Called under the
    ingest lock once the store is up to date, so it never waits on a store being emptied.
    Without ``fcntl`` or a writable ``.kb/``, nothing is held."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        return
    key = str(root.resolve())
    if key in _READERS:
        return
    fd = _readers_fd(root)
    if fd is None:
        return
    fcntl.flock(fd, fcntl.LOCK_SH)
    if len(_READERS) >= _READERS_MAX:  # many KBs in one process (tests): let the oldest go
        os.close(_READERS.pop(next(iter(_READERS))))
    _READERS[key] = fd


@contextmanager
def emptying(root: Path) -> Iterator[None]:
    """The readers lock held exclusively while the store is emptied (another fingerprint):
    waits, saying so once on stderr, until no other kb reads the store, at most
    :data:`EMPTY_WAIT_S` (then :class:`~kb.core.errors.InputError`: never a store emptied under a
    reader). This process's own shared hold is turned exclusive and back.

    :raises InputError: other kb runs still read the store after the wait.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        yield
        return
    key = str(root.resolve())
    own = _READERS.get(key)
    fd = own if own is not None else _readers_fd(root)
    if fd is None:
        yield
        return
    try:
        deadline = time.monotonic() + EMPTY_WAIT_S
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise InputError(f"another kb still reads the store {root / STORE_DIR / STORE_NAME} (made with "
                                     "another kb.yaml or kb version); run again when it has finished") from None
                if not told:
                    print("kb: another kb is reading the store with another kb.yaml or kb version; waiting for it "
                          "before the store is rebuilt…", file=sys.stderr, flush=True)
                    told = True
                time.sleep(0.05)
        yield
    finally:
        if own is not None:
            fcntl.flock(fd, fcntl.LOCK_SH)
        else:
            os.close(fd)


def _open_own(path: Path) -> int:
    """Open (create) one of the store's lock files for reading and writing, never through a
    symbolic link: a link in its place is removed first, so a lock's pid is never written into
    some other file (a breaker linked ``.kb/ingest.lock`` to a file outside the KB).

    :raises OSError: the folder is not writable, or a link reappears between the two steps.
    """
    if path.is_symlink():
        path.unlink()
    return os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
