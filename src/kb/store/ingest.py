"""Bring the store up to date with the files of a KB: parse only what changed (``kb ingest``)."""

from __future__ import annotations

import hashlib
import os
import struct
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb import __version__
from kb.core.textio import Problem
from kb.perf.digest import code_digest
from kb.perf.gc import no_gc_passes
from kb.store.db import FileRow, FileRows, Store, files_digest

if TYPE_CHECKING:  # the parser is imported only when a file is to be parsed: not on the no-change path
    from kb.core.claims import Claim
    from kb.core.config import (
        KbConfig,  # (pydantic: not on the no-change path of `kb ingest` either)
    )
    from kb.core.parsed import Mention, ParsedFile
    from kb.read.parse import Parser

#: Folders of a KB whose Markdown files are parsed into claims (DESIGN.md §1). Living-doc
#: history (``organized/knowledge/history/``) is read by :mod:`kb.read.livedoc`, not ingested.
SCAN_DIRS = ("inbox", "organized/paper_cards", "organized/knowledge")
#: Below this many files to parse, parsing stays in-process (a pool costs ~0.3 s to start).
PARALLEL_MIN = 400
#: From this many files to parse (and more than the store knows), the secondary indexes are
#: dropped and built once after: a cold ingest of 1,505 files spent ~1.2 s CPU keeping them
#: up to date row by row (building an index after is one sort; with fewer files stored than
#: are parsed it costs less than the inserts it saves).
BULK_MIN = 200
#: Files written per store transaction: a crash loses at most this much parsing work.
COMMIT_EVERY = 500
#: Files of at least this many bytes are never sent to a worker (whose answer, pickled whole,
#: would double its claims in memory): this process parses them and streams their claims to the
#: store in batches (issue 12: peak memory a bounded multiple of the largest file read).
STREAM_MIN = 256_000
#: Claims per batch a streamed file hands to the store.
STREAM_BATCH = 250

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

    def summary(self) -> str:
        """One line: files parsed / unchanged / failed, removed, claims in the store."""
        s = f"{self.parsed} parsed, {self.unchanged} unchanged, {self.failed} failed"
        if self.removed:
            s += f", {self.removed} removed"
        return s + f"; {self.claims} claims"


def iter_kb_files(root: Path, problems: list[Problem] | None = None) -> Iterator[tuple[str, os.stat_result]]:
    """``(relative POSIX path, stat)`` of every ``*.md`` under :data:`SCAN_DIRS`, sorted.

    Hidden folders and ``organized/knowledge/history/`` are skipped; links are not followed.
    A folder that cannot be read is reported in ``problems`` (when given) and skipped.
    The cyclic GC makes no pass during the walk (its 12k tuples and stat results of a 12k-file
    KB form no cycles, and started ~30 passes of every look-up's freshness check).
    """
    with no_gc_passes():
        return iter(_walk(root, problems))


def _walk(root: Path, problems: list[Problem] | None) -> list[tuple[str, os.stat_result]]:
    found: list[tuple[str, os.stat_result]] = []
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
                    problems.append(Problem(rel_folder + "/", 0, f"folder cannot be read ({exc.strerror or exc}); skipped"))
                continue
            prefix = rel_folder + "/"
            descend = top != "organized/knowledge"  # history/ and any subfolder: not living docs
            for entry in entries:
                name = entry.name
                if name[0] == ".":
                    continue
                if not name.isascii() and not _utf8(name):  # the store and every output are UTF-8
                    if problems is not None:
                        shown = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                        problems.append(Problem(prefix + shown, 0, "file name is not valid UTF-8; skipped (rename it)"))
                    continue
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if descend:
                            stack.append((entry.path, prefix + name))
                    elif name[-3:].lower() == ".md" and entry.is_file(follow_symlinks=False):
                        found.append((prefix + name, entry.stat(follow_symlinks=False)))
                except OSError as exc:
                    if problems is not None:
                        problems.append(Problem(prefix + name, 0, f"cannot be read ({exc.strerror or exc}); skipped"))
    found.sort(key=itemgetter(0))  # by path: a key of str sorts 2-3x faster than the tuples (unique paths)
    return found


def _utf8(name: str) -> bool:
    """``name`` (as ``os`` decodes it: undecodable bytes as surrogates) is valid UTF-8."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def fingerprint(config: KbConfig) -> str:
    """What makes every stored parse stale when it changes: kb's version, the parser's own
    source (:func:`_parser_digest`) and the config."""
    return fingerprint_of(config.model_dump_json())


def fingerprint_of(config_dump: str) -> str:
    """:func:`fingerprint` of a config given as its ``model_dump_json()`` (a kept one:
    :func:`kb.core.config_kept.kept_dump`)."""
    return f"kb {__version__}; parser {_parser_digest()}; " + config_dump


def unchanged(root: Path, st: Store) -> IngestReport | None:
    """The report of an ingest that has nothing to do — every file on disk stored with its
    size, mtime and ctime, no other stored, no index missing, nothing unreadable — else None
    (then :func:`ingest`). Reads no config: ``kb ingest``'s no-change path (issue 11)."""
    report = IngestReport(notes=list(st.notes))
    found = list(iter_kb_files(root, report.problems))
    if report.problems or not _all_stored(st, found) or st.missing_indexes():
        return None
    report.unchanged = len(found)
    report.claims = st.count_claims()
    return report


def _all_stored(st: Store, found: list[tuple[str, os.stat_result]]) -> bool:
    """Every file of ``found`` is stored with its size, mtime and ctime, and no other is: one
    digest each side (:func:`kb.store.db.files_digest`; the store's is kept between runs)."""
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


def to_rows(parsed: ParsedFile, digest: str, mtime_ns: int, size: int, ctime_ns: int = 0) -> FileRows:
    """Table rows of one parsed file (see :meth:`kb.store.db.Store.put`)."""
    claims, subjects, quantities = claim_rows(parsed.path, parsed.claims)
    return FileRows(file_row(parsed, digest, mtime_ns, size, ctime_ns), claims, subjects, quantities,
                    mention_rows(parsed.path, parsed.mentions, parsed.written_at))


def file_row(parsed: ParsedFile, digest: str, mtime_ns: int, size: int, ctime_ns: int = 0) -> FileRow:
    """The ``files`` row of one parsed file (``n_claims`` counts streamed claims too)."""
    return FileRow(
        path=parsed.path, hash=digest, mtime_ns=mtime_ns, ctime_ns=ctime_ns, size=size, role=parsed.role,
        author=parsed.author, written_at=parsed.written_at, front=parsed.front,
        headings=[{"level": h.level, "text": h.text, "line": h.line, "section": h.section, "subjects": h.subjects}
                  for h in parsed.headings],
        problems=[asdict(p) for p in parsed.problems],
        invalid_ids=[list(x) for x in parsed.invalid_ids],
        n_claims=parsed.n_claims,
    )


def claim_rows(path: str, claims: Iterable[Claim]
               ) -> tuple[list[tuple[Any, ...]], list[tuple[str, str, str, str | None]], list[tuple[Any, ...]]]:
    """``(claims, subjects, quantities)`` rows of claims of the file ``path``, in order."""
    from kb.core.claims import Claim

    to_json = Claim.__pydantic_serializer__.to_json  # model_dump_json(exclude_defaults=True), without its wrapper
    rows: list[tuple[Any, ...]] = []
    subjects: list[tuple[str, str, str, str | None]] = []
    quantities: list[tuple[Any, ...]] = []
    for c in claims:
        p = c.provenance
        rows.append((c.id, path, p.line, c.kind, c.role, p.author, p.written_at,
                     to_json(c, exclude_defaults=True).decode()))
        subjects.extend((c.id, path, s, p.written_at) for s in c.subjects)  # written_at: first mentions
        default_subject = c.subjects[0] if c.subjects else None
        quantities.extend(
            (c.id, path, q.subject or default_subject, q.metric, q.value, q.low, q.high, q.unit, q.raw)
            for q in c.quantities
        )
    return rows, subjects, quantities


def mention_rows(path: str, mentions: Iterable[Mention], written_at: str | None) -> list[tuple[Any, ...]]:
    """``mentions`` rows of the file ``path`` (its ``written_at`` on each)."""
    return [(path, m.line, m.column, m.id, m.version, m.raw, m.claim_id, m.kind, written_at) for m in mentions]


_WORKER: Parser | None = None


def _init_worker(config_json: str) -> None:
    global _WORKER
    _die_with_parent()
    from kb.core.config import KbConfig
    from kb.read.parse import Parser

    _WORKER = Parser(KbConfig.model_validate_json(config_json))


def _die_with_parent() -> None:
    """Linux: a worker gets SIGKILL when the kb process that started it dies (kill -9,
    SIGTERM), instead of waiting forever as an orphan. Elsewhere: nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent died before prctl took effect
            os._exit(1)
    except (OSError, AttributeError):
        pass


def _parse_job(job: tuple[str, str, int, int, int]) -> FileRows | Problem:
    root, rel, mtime_ns, ctime_ns, size = job
    assert _WORKER is not None
    return _parse_one(_WORKER, Path(root), rel, mtime_ns, ctime_ns, size)


def _parse_one(parser: Parser, root: Path, rel: str, mtime_ns: int, ctime_ns: int, size: int) -> FileRows | Problem:
    try:
        data = (root / rel).read_bytes()
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


def _stream_one(parser: Parser, st: Store, root: Path, rel: str, mtime_ns: int, ctime_ns: int, size: int,
                *, replace: bool) -> FileRow | Problem:
    """Parse one file here and store its rows batch by batch as they come (inside the caller's
    transaction, under a savepoint: a file that fails leaves nothing of it stored). Returns its
    ``files`` row, or the :class:`Problem` that made it fail. Errors of the store itself are raised."""
    import sqlite3

    from kb.core.textio import decode

    try:
        data = (root / rel).read_bytes()
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


def ingest(root: Path, config: KbConfig | None = None, *, progress: Progress | None = None,
           store: Store | None = None, jobs: int | None = None) -> IngestReport:
    """Parse every new or changed file of the KB at ``root`` into its store.

    A file is unchanged when its size, mtime and ctime match the store (ctime cannot be set
    back by ``touch -r``, so a same-size rewrite with its old mtime is still seen), or else
    when its content hash does (then only its times are updated). Files gone from disk lose their claims. Parsing
    uses a process pool when many small files changed (cold ingest); files of :data:`STREAM_MIN`
    bytes or more, and every file when there is no pool, are parsed in this process with their
    claims streamed to the store :data:`STREAM_BATCH` at a time, so that peak memory stays a
    bounded multiple of the largest file read (issue 12). Never writes outside ``.kb/``.

    :param progress: called as ``progress(done, total)`` while parsing.
    :param jobs: worker processes (default: CPUs, at most 8); 1 = in-process.
    :returns: :class:`IngestReport`; problems of single files never abort the run.
    """
    if config is None:
        from kb.core.config import load_config

        config = load_config(root)
    own_store = store is None
    st = store or Store(root, fingerprint(config))
    report = IngestReport(notes=list(st.notes))
    try:
        found = list(iter_kb_files(root, report.problems))
        todo: list[tuple[str, int, int, int]] = []
        touched: list[tuple[str, int, int, int]] = []
        gone: list[str] = []
        known: dict[str, tuple[str, int, int, int]] = {}
        if _all_stored(st, found):
            report.unchanged = len(found)  # every file as stored: no per-file comparison (a look-up)
        else:
            known = st.file_stats()
            on_disk = dict(found)
            gone = [p for p in known if p not in on_disk]
            limit = int(config.max_file_mb * 1_000_000)
            for rel, stat in list(on_disk.items()):
                if stat.st_size > limit:  # never read: its claims (if any were stored) go too
                    report.problems.append(Problem(rel, 0, f"{stat.st_size:,} bytes, over the limit of "
                                                           f"{config.max_file_mb:g} MB (kb.yaml max_file_mb); skipped"))
                    del on_disk[rel]
                    if rel in known:
                        gone.append(rel)
                    continue
                prev = known.get(rel)
                if prev is not None and prev[1] == stat.st_mtime_ns and prev[2] == stat.st_ctime_ns and prev[3] == stat.st_size:
                    report.unchanged += 1
                    continue
                if prev is not None and prev[3] == stat.st_size:
                    try:
                        digest = hashlib.blake2b((root / rel).read_bytes(), digest_size=16).hexdigest()
                    except OSError:
                        digest = ""
                    if digest == prev[0]:
                        touched.append((rel, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size))
                        report.unchanged += 1
                        continue
                todo.append((rel, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size))
        if gone or touched:  # (no write transaction when nothing changed)
            with st.tx():
                st.remove(gone)
                for rel, mtime_ns, ctime_ns, size in touched:
                    st.touch(rel, mtime_ns, ctime_ns, size)
        report.removed = len(gone)
        batch = 0
        bulk = len(todo) >= BULK_MIN and len(todo) > len(known)
        # a run killed during a bulk load left indexes dropped: this run builds them again
        rebuild = bulk or bool(st.missing_indexes())
        if bulk:
            st.drop_indexes()
            st.bulk_checkpoints(True)
        workers = _workers(jobs)
        small = [t for t in todo if t[3] < STREAM_MIN]
        pooled = small if workers > 1 and len(small) >= PARALLEL_MIN else []
        here = [t for t in todo if t[3] >= STREAM_MIN] if pooled else todo
        done = 0

        def stored(result: FileRow | Problem) -> None:
            nonlocal batch, done
            done += 1
            if progress:
                progress(done, len(todo))
            if isinstance(result, Problem):
                report.failed += 1
                report.problems.append(result)
                return
            report.parsed += 1
            report.problems.extend(Problem(**p) for p in result.problems)
            batch += 1
            if batch >= COMMIT_EVERY:
                st.db.execute("COMMIT")
                batch = 0

        try:
            if here:  # parsed here, one at a time, streamed to the store (before any worker starts)
                from kb.read.parse import Parser

                parser = Parser(config)
                for rel, m, c, size in here:
                    if not st.db.in_transaction:
                        st.db.execute("BEGIN IMMEDIATE")
                    stored(_stream_one(parser, st, root, rel, m, c, size, replace=rel in known))
            for result in _parse_all(root, config, pooled, workers):
                if not st.db.in_transaction:
                    st.db.execute("BEGIN IMMEDIATE")
                if not isinstance(result, Problem):
                    st.put(result, replace=result.file.path in known)
                stored(result if isinstance(result, Problem) else result.file)
            if st.db.in_transaction:
                st.db.execute("COMMIT")
        except BaseException:
            if st.db.in_transaction:
                st.db.execute("ROLLBACK")
            raise
        finally:
            if rebuild:
                st.create_indexes()
            if bulk:
                st.bulk_checkpoints(False)
        report.claims = st.count_claims()
    finally:
        if own_store:
            st.close()
    return report


def _workers(jobs: int | None) -> int:
    """Worker processes for ``--jobs`` (default: CPUs, at most 8; at most twice the CPUs)."""
    cpus = os.cpu_count() or 1
    return min(jobs, 2 * cpus) if jobs is not None else min(cpus, 8)


def _parse_all(root: Path, config: KbConfig, todo: list[tuple[str, int, int, int]],
               workers: int) -> Iterator[FileRows | Problem]:
    """Parse ``todo`` (small files) in a pool of ``workers`` processes, yielding each file's rows
    or its :class:`Problem` as it is done; the caller stores them. A worker that dies (killed,
    out of memory) does not stop the run: what is left is parsed in this process."""
    if not todo:
        return
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
