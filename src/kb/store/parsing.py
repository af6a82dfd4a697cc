"""Parsing the files ingest found changed: in a pool of worker processes (many small files),
or here with the claims streamed to the store in batches (big files; every file without a pool).
"""

from __future__ import annotations

import ctypes
import gc
import hashlib
import os
import signal
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from kb.core.config import KbConfig
from kb.core.textio import Problem, decode
from kb.perf.gc import no_gc_passes
from kb.store.db import Store
from kb.store.rows import claim_rows, file_row, mention_rows, to_rows
from kb.store.writer import FileRow, FileRows

if TYPE_CHECKING:
    from kb.core.claims import Claim
    from kb.core.parsed import Mention
    from kb.read.parse import Parser

#: Claims per batch a streamed file hands to the store.
STREAM_BATCH = 250

_WORKER: Parser | None = None


def _init_worker(config_json: str) -> None:
    global _WORKER
    _die_with_parent()
    from kb.read.parse import Parser

    _WORKER = Parser(KbConfig.model_validate_json(config_json))
    # what the worker was forked with (every module, the parser): in the permanent generation,
    # never walked by the worker's collections (nor its pages copied by touching them): a full
    # collection walks ~3k objects, not ~44k (1,805 files as a worker parses them: collector
    # time 0.12-0.13 -> 0.10-0.12 s a worker; small, and no page of the parent's heap copied)
    gc.freeze()


def _die_with_parent() -> None:
    """Linux: a worker gets SIGKILL when the kb process that started it dies (kill -9,
    SIGTERM), instead of waiting forever as an orphan. Elsewhere: nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent died before prctl took effect
            os._exit(1)
    except (OSError, AttributeError):
        pass


def read_file(root: Path, rel: str) -> bytes:
    """The bytes of the file ``rel`` (a KB-relative path) under ``root``: ``(root / rel).read_bytes()``
    without its two path objects (the same ``open(…, "rb").read()``; OSError as it raises)."""
    with open(os.path.join(root, rel), "rb") as f:
        return f.read()


def _parse_job(job: tuple[str, str, int, int, int]) -> FileRows | Problem:
    root, rel, mtime_ns, ctime_ns, size = job
    assert _WORKER is not None
    return _parse_one(_WORKER, Path(root), rel, mtime_ns, ctime_ns, size)


def _parse_one(parser: Parser, root: Path, rel: str, mtime_ns: int, ctime_ns: int, size: int) -> FileRows | Problem:
    try:
        data = read_file(root, rel)
    except OSError as exc:
        return Problem(rel, 0, f"cannot read: {exc.strerror or exc}")
    digest = hashlib.blake2b(data, digest_size=16).hexdigest()
    try:
        with no_gc_passes():  # (the rows too: the file's claims are alive while they are made)
            parsed = parser.parse_bytes(rel, data)
            fatal = next((p for p in parsed.problems if p.code == "unreadable"), None)
            if fatal is not None:
                return fatal  # nothing of it could be read: failed, reported again next run
            return to_rows(parsed, digest, mtime_ns, size, ctime_ns)
    except Exception as exc:  # noqa: BLE001 - one file never stops the run
        return Problem(rel, 0, f"could not be parsed ({type(exc).__name__}: {exc}); skipped — please report this file")


def stream_one(parser: Parser, st: Store, root: Path, rel: str, mtime_ns: int, ctime_ns: int, size: int,
                *, replace: bool) -> FileRow | Problem:
    """Parse one file here and store its rows batch by batch as they come (inside the caller's
    transaction, under a savepoint: a file that fails leaves nothing of it stored). Returns its
    ``files`` row, or the :class:`Problem` that made it fail. Errors of the store itself are raised."""
    try:
        data = read_file(root, rel)
    except OSError as exc:
        return Problem(rel, 0, f"cannot read: {exc.strerror or exc}")
    digest = hashlib.blake2b(data, digest_size=16).hexdigest()
    writer = st.writer(rel, replace=replace)

    def sink(claims: list[Claim], mentions: list[Mention], written_at: str | None) -> None:
        writer.add(*claim_rows(rel, claims), mention_rows(rel, mentions, written_at))

    try:
        decoded = decode(data, rel)
        del data  # the text is all that is needed from here on
        with no_gc_passes():
            parsed = parser.parse_text(rel, decoded.text, decoded.problems, sink=sink, batch=STREAM_BATCH)
        del decoded
        fatal = next((p for p in parsed.problems if p.code == "unreadable"), None)
        if fatal is not None:
            writer.abort()
            return fatal  # nothing of it could be read: failed, reported again next run
        row = file_row(parsed, digest, mtime_ns, size, ctime_ns)
        writer.finish(row)
        return row
    except sqlite3.Error:
        raise  # the store, not the file: the caller rolls the transaction back
    except Exception as exc:  # noqa: BLE001 - one file never stops the run
        writer.abort()
        return Problem(rel, 0, f"could not be parsed ({type(exc).__name__}: {exc}); skipped — please report this file")


def worker_count(jobs: int | None) -> int:
    """Worker processes for ``--jobs`` (default: CPUs, at most 8; at most twice the CPUs)."""
    cpus = os.cpu_count() or 1
    return min(jobs, 2 * cpus) if jobs is not None else min(cpus, 8)


def parse_all(root: Path, config: KbConfig, todo: list[tuple[str, int, int, int]],
               workers: int) -> Iterator[FileRows | Problem]:
    """Parse ``todo`` (small files) in a pool of ``workers`` processes, yielding each file's rows
    or its :class:`Problem` as it is done; the caller stores them. A worker that dies (killed,
    out of memory) does not stop the run: what is left is parsed in this process."""
    if not todo:
        return
    # (lazy: the pool loads logging, which a command with nothing to parse never needs)
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from kb.read.parse import Parser

    pool = ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(config.model_dump_json(by_alias=True),))
    seen: set[str] = set()
    try:
        try:
            for result in pool.map(_parse_job, ((str(root), rel, m, c, s) for rel, m, c, s in todo), chunksize=64):
                seen.add(result.path if isinstance(result, Problem) else result.file.path)
                yield result
        except BrokenProcessPool:
            # a worker was killed (out of memory?): parse what is left here, one by one
            parser = Parser(config)
            for rel, m, c, s in todo:
                if rel not in seen:
                    yield _parse_one(parser, root, rel, m, c, s)
    finally:
        pool.shutdown()
