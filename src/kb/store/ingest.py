"""Bring the store up to date with the files of a KB: parse only what changed (``kb ingest``).

Which files there are is :mod:`kb.store.walk`, whether any changed :mod:`kb.store.fresh`, how
they are parsed :mod:`kb.store.parsing`; this module decides what to parse and stores it.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

from kb.core.config import KbConfig, config_warnings, load_config
from kb.core.paths import CARDS_DIR
from kb.core.textio import Problem
from kb.store.cards import duplicate_message, duplicate_numbers, load_cards
from kb.store.db import Store
from kb.store.filerow import mark_checked, undecodable
from kb.store.fresh import IngestReport, Progress, all_stored, fingerprint
from kb.store.parsing import parse_all, stream_one, worker_count
from kb.store.walk import TOO_BIG, UNREADABLE, UNREADABLE_FOLDER, iter_kb_files
from kb.store.writer import FileRow

#: Below this many files to parse, parsing stays in-process (a pool costs ~0.3 s to start).
PARALLEL_MIN = 400
#: From this many files to parse (and more than the store knows), the secondary indexes are
#: dropped and built once after: a cold ingest of 1,505 files spent ~1.2 s CPU keeping them
#: up to date row by row (building an index after is one sort; with fewer files stored than
#: are parsed it costs less than the inserts it saves). Dropping and building them again costs
#: ~0.5 ms on an empty store; keeping them costs ~0.1 ms a file: a cold ingest of 26 files
#: executed 0.5 % fewer instructions with them built after, one of 122 files 0.9 % fewer.
BULK_MIN = 20
#: Files written per store transaction: a crash loses at most this much parsing work.
COMMIT_EVERY = 500
#: Files of at least this many bytes are never sent to a worker (whose answer, pickled whole,
#: would double its claims in memory): this process parses them and streams their claims to the
#: store in batches (issue 12: peak memory a bounded multiple of the largest file read).
STREAM_MIN = 256_000


def ingest(root: Path, config: KbConfig | None = None, *, progress: Progress | None = None,
           store: Store | None = None, jobs: int | None = None) -> IngestReport:
    """Parse every new or changed file of the KB at ``root`` into its store.

    A file is unchanged when its size, mtime and ctime match the store (ctime cannot be set
    back by ``touch -r``, so a same-size rewrite with its old mtime is still seen), or else
    when its content hash does (then only its times are updated). Files gone from disk lose their claims.
    The files stored from a folder that cannot be listed are kept and counted as failed (at
    least one per folder); so is a file over kb.yaml's ``max_file_mb`` (never read:
    :data:`kb.store.walk.TOO_BIG`). A file whose store row does not decode (:func:`kb.store.filerow.undecodable`: changed by
    anything but kb) is parsed again, with a note. Parsing
    uses a process pool when many small files changed (cold ingest); files of :data:`STREAM_MIN`
    bytes or more, and every file when there is no pool, are parsed in this process with their
    claims streamed to the store :data:`kb.store.parsing.STREAM_BATCH` at a time, so that peak memory stays a
    bounded multiple of the largest file read (issue 12). Never writes outside ``.kb/``.

    :param progress: called as ``progress(done, total)`` while parsing.
    :param jobs: worker processes (default: CPUs, at most 8); 1 = in-process.
    :returns: :class:`IngestReport`; problems of single files never abort the run.
    """
    if config is None:
        config = load_config(root)
    own_store = store is None
    st = store or Store(root, fingerprint(config))
    report = IngestReport(notes=list(st.notes), problems=config_warnings(config, root))
    try:
        found = list(iter_kb_files(root, report.problems, config.max_file_mb))
        # a file that vanished or could not be stat'ed during the walk is a file kb could not read
        report.failed += sum(p.code == UNREADABLE for p in report.problems)
        # a folder that cannot be listed, a file over max_file_mb: what was stored of it is kept,
        # and it is a failure
        unlisted = tuple(p.path for p in report.problems if p.code == UNREADABLE_FOLDER)
        too_big = {p.path for p in report.problems if p.code == TOO_BIG}
        report.failed += len(too_big)
        todo: list[tuple[str, int, int, int]] = []
        touched: list[tuple[str, int, int, int]] = []
        gone: list[str] = []
        known: dict[str, tuple[str, int, int, int]] = {}
        # a row kb did not write (edited in the store) is never trusted: its file is parsed again
        faults = undecodable(st)  # (one over max_file_mb is removed: never read, it cannot be)
        undecoded = {path: f"{column}: {why}" for path, column, why in faults}
        report.notes.extend(f"{st.path}: the claim rows of {path} are not as kb wrote them ({why}): parsed again"
                            if column == "claims" else
                            f"{st.path}: a file row ({path}) does not decode ({column}: {why}); kb did not write it: "
                            "parsed again" for path, column, why in faults)
        if not undecoded and not unlisted and not too_big and all_stored(st, found):
            report.unchanged = len(found)  # every file as stored: no per-file comparison (a look-up)
        else:
            known = st.file_stats()
            on_disk = dict(found)
            gone = [p for p in known if p not in on_disk and p not in too_big and not p.startswith(unlisted)]
            for folder in unlisted:
                report.failed += max(1, sum(p.startswith(folder) and p not in on_disk for p in known))
            for rel, stat in on_disk.items():
                prev = known.get(rel) if rel not in undecoded else None
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
        if gone or touched or undecoded:  # (no write transaction when nothing changed)
            with st.tx():
                st.remove([*gone, *(p for p in undecoded if p not in gone)])
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
        n_workers = worker_count(jobs)
        small = [t for t in todo if t[3] < STREAM_MIN]
        pooled = small if n_workers > 1 and len(small) >= PARALLEL_MIN else []
        here = [t for t in todo if t[3] >= STREAM_MIN] if pooled else todo
        done = 0

        def stored(result: FileRow | Problem) -> None:
            nonlocal batch, done
            done += 1
            if progress:
                progress(done, len(todo))
            if isinstance(result, Problem):
                report.failed += 1
                report.problems.append(replace(result, code=result.code or UNREADABLE))
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
                    stored(stream_one(parser, st, root, rel, m, c, size, replace=rel in known))
            for result in parse_all(root, config, pooled, n_workers):
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
        if any(p.startswith(CARDS_DIR + "/") for p in (*gone, *(t[0] for t in todo))):  # said when a card changed
            report.problems.extend(Problem(card.path, 0, duplicate_message(card, first), "warning")
                                   for card, first in duplicate_numbers(load_cards(st)))
        mark_checked(st)  # every row found sound at the start, or written by this ingest
    finally:
        if own_store:
            st.close()
    return report
