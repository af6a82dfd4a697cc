"""Opening a KB: load its config, bring its store up to date (the root and the no-change path:
:mod:`kb.store.fresh`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kb.core.config import KbConfig, load_config
from kb.core.errors import InputError
from kb.core.paths import STORE_DIR, STORE_NAME
from kb.store.db import Store
from kb.store.fresh import IngestReport, Progress, fingerprint, note_wait, resolve_root
from kb.store.ingest import ingest
from kb.store.locks import hold_readers, writer_lock


@dataclass(slots=True)
class Kb:
    """An open knowledge base: its root folder, configuration and (up-to-date) store."""

    root: Path
    config: KbConfig
    store: Store
    report: IngestReport

    def close(self) -> None:
        """Close the store."""
        self.store.close()

    def __enter__(self) -> Kb:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_kb(path: Path | None = None, *, progress: Progress | None = None) -> Kb:
    """Open the KB at ``path`` and ingest what changed (every command that reads the store).

    :raises ConfigError: ``kb.yaml`` is invalid.
    :raises InputError: ``path`` is not a folder.
    """
    root = resolve_root(path)
    config = load_config(root)
    store, report = ingest_store(root, config, progress=progress)
    return Kb(root, config, store, report)


def ingest_store(root: Path, config: KbConfig, *, progress: Progress | None = None,
                 jobs: int | None = None, on_wait: Callable[[str], None] = note_wait) -> tuple[Store, IngestReport]:
    """Open the store and bring it up to date; a store found damaged on the way (SQLite:
    "database disk image is malformed") is deleted and rebuilt once, with a note — it is a
    cache (DESIGN.md §6). One kb at a time does this per KB (:func:`kb.store.locks.writer_lock`):
    another one running waits, saying so through ``on_wait`` (default: a line on stderr).

    :returns: the open store and what the ingest did.
    :raises InputError: the store cannot be opened or written (read-only, locked, still
        damaged after a rebuild), naming it and what to do.
    """
    with writer_lock(root, on_wait):
        opened = _ingest_store(root, config, progress, jobs)
        hold_readers(root)  # until this run ends, no kb of another config empties the store
        return opened


def _ingest_store(root: Path, config: KbConfig, progress: Progress | None,
                  jobs: int | None) -> tuple[Store, IngestReport]:
    notes: list[str] = []
    for attempt in (1, 2):
        store = open_store(root, config)
        try:
            report = ingest(root, config, progress=progress, store=store, jobs=jobs)
        except sqlite3.DatabaseError as exc:
            store.close()
            if _transient(exc) or attempt == 2:
                raise InputError(f"cannot use the store {store.path}: {exc}; it is a cache — check that .kb/ "
                                 "is writable and no other kb is stuck, or delete .kb/ and run again") from exc
            notes.append(f"store {store.path} is damaged ({exc}): rebuilt")
            store.discard()
            continue
        except BaseException:
            store.close()
            raise
        report.notes[:0] = notes
        return store, report
    raise AssertionError("unreachable")


def _transient(exc: sqlite3.DatabaseError) -> bool:
    """Locked, busy or read-only: the store is fine, something else is in the way."""
    return isinstance(exc, sqlite3.OperationalError) and any(
        w in str(exc) for w in ("locked", "busy", "readonly", "read-only", "unable to open"))


def open_store(root: Path, config: KbConfig) -> Store:
    """The store of the KB at ``root``.

    :raises InputError: ``.kb/`` cannot be created or the database cannot be written
        (read-only checkout, full disk), naming the path.
    """
    try:
        try:
            return Store(root, fingerprint(config))
        except sqlite3.DatabaseError as exc:
            if _transient(exc):
                raise
            path = root / STORE_DIR / STORE_NAME
            for suffix in ("", "-wal", "-shm"):
                path.with_name(path.name + suffix).unlink(missing_ok=True)
            store = Store(root, fingerprint(config))
            store.notes.append(f"store {path} was damaged ({exc}): rebuilt")
            return store
    except (OSError, sqlite3.Error) as exc:
        raise InputError(f"cannot open the store {root / '.kb' / 'kb.sqlite'}: {exc}; kb needs a writable "
                         ".kb/ folder in the KB root (it is a cache: deleting .kb/ loses nothing)") from exc
