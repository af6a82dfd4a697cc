"""Whether the store is current: ``kb ingest``'s no-change path, which reads no config (no
pydantic, no YAML) and imports no claim model (issue 11); and what an ingest did.
"""

from __future__ import annotations

import json
import os
import sqlite3
import struct
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kb import __version__
from kb.core.config_kept import kept_dump
from kb.core.errors import InputError
from kb.core.paths import find_root, is_kb_root, not_a_kb_folder
from kb.core.textio import Problem
from kb.perf.digest import code_digest
from kb.perf.gc import no_gc_passes
from kb.store.base import StoreBase, files_digest
from kb.store.filerow import undecodable
from kb.store.locks import writer_lock
from kb.store.walk import NOT_READ, iter_kb_files

if TYPE_CHECKING:  # (pydantic: not on the no-change path of `kb ingest`)
    from kb.core.config import KbConfig

Progress = Callable[[int, int], None]


@dataclass(slots=True)
class IngestReport:
    """What one ingest did: counts, per-file problems and notes (e.g. a rebuilt store)."""

    parsed: int = 0
    unchanged: int = 0
    failed: int = 0
    removed: int = 0
    claims: int = 0
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def seen(self) -> int:
        """Files found on disk."""
        return self.parsed + self.unchanged + self.failed

    def unread(self) -> list[Problem]:
        """The problems of files kb did not read (refused or unreadable at the walk, over
        ``max_file_mb``, failed to parse: codes :data:`kb.store.walk.NOT_READ`): what every
        command reads lacks them, so each says so (``kb ingest`` fails with exit 2)."""
        return [p for p in self.problems if p.code in NOT_READ]

    def summary(self) -> str:
        """One line: files parsed / unchanged / failed, removed, claims in the store."""
        s = f"{self.parsed} parsed, {self.unchanged} unchanged, {self.failed} failed"
        if self.removed:
            s += f", {self.removed} removed"
        return s + f"; {self.claims} claim{'' if self.claims == 1 else 's'}"


def fingerprint(config: KbConfig) -> str:
    """What makes every stored parse stale when it changes: kb's version, the parser's own
    source (:func:`_parser_digest`) and the config."""
    return fingerprint_of(config.model_dump_json())


def fingerprint_of(config_dump: str) -> str:
    """:func:`fingerprint` of a config given as its ``model_dump_json()`` (a kept one:
    :func:`kb.core.config_kept.kept_dump`), but for ``max_file_mb``: which files are read is
    not how they are parsed, so a lower limit keeps what the store holds of the files now over
    it (:data:`kb.store.walk.TOO_BIG`) and a higher one parses only those newly read."""
    data = json.loads(config_dump)
    data.pop("max_file_mb", None)
    return f"kb {__version__}; parser {_parser_digest()}; " + json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _max_file_mb(config_dump: str) -> float | None:
    """``max_file_mb`` of a config's JSON dump, else None (no limit known)."""
    value = json.loads(config_dump).get("max_file_mb")
    return float(value) if isinstance(value, (int, float)) else None


def unchanged(root: Path, st: StoreBase, max_file_mb: float | None = None) -> IngestReport | None:
    """The report of an ingest that has nothing to do — every file on disk stored with its
    size, mtime and ctime, no other stored, no index missing, nothing unreadable, every row
    decodes (:func:`kb.store.filerow.undecodable`) — else None
    (then :func:`kb.store.ingest.ingest`). Reads no config: ``kb ingest``'s no-change path (issue 11);
    ``max_file_mb`` is kb.yaml's limit (a file over it is a problem: then None)."""
    report = IngestReport(notes=list(st.notes))
    found = list(iter_kb_files(root, report.problems, max_file_mb))
    if report.problems or undecodable(st) or not all_stored(st, found) or st.missing_indexes():
        return None
    report.unchanged = len(found)
    report.claims = st.count_claims()
    return report


def all_stored(st: StoreBase, found: list[tuple[str, os.stat_result]]) -> bool:
    """Every file of ``found`` is stored with its size, mtime and ctime, and no other is: one
    digest each side (:func:`kb.store.base.files_digest`; the store's is kept between runs)."""
    try:
        with no_gc_passes():  # (a generator: each row is freed as it is packed)
            mine = files_digest((rel, s.st_mtime_ns, s.st_ctime_ns, s.st_size) for rel, s in found)
    except struct.error:  # a time beyond 64 bits: compared file by file
        return False
    return mine == st.files_digest()


def _parser_digest() -> str:
    """The digest of the parser's code: :mod:`kb.read.parse` and every kb module it imports
    (:func:`kb.perf.digest.code_digest`), so that a change to any of them re-parses (a stale
    parse from a checkout of the same version is never read as current) and a change to any
    other (the store, the diff) does not."""
    return code_digest("kb.read.parse")


def resolve_root(path: Path | None) -> Path:
    """The KB root for ``--kb PATH``, or found walking up from the current folder.

    :raises InputError: ``path`` is not a folder, or no folder from there up holds
        ``kb.yaml`` or ``organized/`` (kb never makes a store in a folder that is no KB).
    """
    if path is not None and (why := not_a_kb_folder(path)) is not None:
        raise InputError("{0} {folder}: {why}", options=("kb",), folder=str(path), why=why)
    root = find_root(path)
    if not is_kb_root(root):
        where = "{0} {folder}" if path is not None else "{cwd}"
        raise InputError(where + ": no knowledge base here or above (no kb.yaml or organized/); "
                         "run `kb init` to make one, or pass {0} PATH", options=("kb",),
                         folder=str(path), cwd=str(Path.cwd()))
    return root


def unchanged_store(root: Path, *, on_wait: Callable[[str], None] | None = None) -> IngestReport | None:
    """``kb ingest``'s no-change path, without reading the config (no pydantic, no YAML):
    when ``kb.yaml`` is the one kept with its validated dump (:func:`kb.core.config_kept.kept_dump`),
    the store is current for it (:meth:`kb.store.base.StoreBase.current`) and no file changed
    (:func:`unchanged`), the report of the ingest that had nothing to do; else None,
    having changed nothing (then :func:`kb.store.workspace.ingest_store`). Under the ingest lock, as it.
    """
    dump = kept_dump(root)
    if dump is None:
        return None
    with writer_lock(root, on_wait or note_wait):
        store = StoreBase.current(root, fingerprint_of(dump))
        if store is None:
            return None
        try:
            return unchanged(root, store, _max_file_mb(dump))
        except sqlite3.Error:
            return None  # the full path says what is wrong with the store
        finally:
            store.close()


def note_wait(message: str) -> None:
    print(f"kb: {message}", file=sys.stderr, flush=True)
