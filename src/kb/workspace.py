"""Opening a KB: find its root, load its config, bring its store up to date."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from kb.config import KbConfig, find_root, is_kb_root, load_config
from kb.errors import InputError
from kb.ingest import IngestReport, Progress, fingerprint, ingest
from kb.store import Store


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


def resolve_root(path: Path | None) -> Path:
    """The KB root for ``--kb PATH``, or found walking up from the current folder.

    :raises InputError: ``path`` is not a folder, or no folder from there up holds
        ``kb.yaml`` or ``organized/`` (kb never makes a store in a folder that is no KB).
    """
    if path is not None and not path.is_dir():
        raise InputError(f"--kb {path}: not a folder")
    root = find_root(path)
    if not is_kb_root(root):
        where = f"--kb {path}" if path is not None else f"{Path.cwd()}"
        raise InputError(f"{where}: no knowledge base here or above (no kb.yaml or organized/); "
                         "run `kb init` to make one, or pass --kb PATH")
    return root


def open_kb(path: Path | None = None, *, progress: Progress | None = None) -> Kb:
    """Open the KB at ``path`` and ingest what changed (every command that reads the store).

    :raises ConfigError: ``kb.yaml`` is invalid.
    :raises InputError: ``path`` is not a folder.
    """
    root = resolve_root(path)
    config = load_config(root)
    store = open_store(root, config)
    try:
        report = ingest(root, config, progress=progress, store=store)
    except BaseException:
        store.close()
        raise
    return Kb(root, config, store, report)


def open_store(root: Path, config: KbConfig) -> Store:
    """The store of the KB at ``root``.

    :raises InputError: ``.kb/`` cannot be created or the database cannot be written
        (read-only checkout, full disk), naming the path.
    """
    try:
        return Store(root, fingerprint(config))
    except (OSError, sqlite3.Error) as exc:
        raise InputError(f"cannot open the store {root / '.kb' / 'kb.sqlite'}: {exc}; "
                         "kb needs a writable .kb/ folder in the KB root") from exc
