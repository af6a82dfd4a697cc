"""The store's schema: its tables, secondary indexes and write-generation triggers, and its version.

A store of another :data:`SCHEMA_VERSION` is dropped and made again (:class:`kb.store.base.StoreBase`).
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 7

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
    path TEXT PRIMARY KEY, hash TEXT NOT NULL, mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    role TEXT NOT NULL, author TEXT, written_at TEXT, front TEXT NOT NULL, headings TEXT NOT NULL,
    problems TEXT NOT NULL, invalid_ids TEXT NOT NULL, n_claims INTEGER NOT NULL
);
CREATE TABLE claims (
    id TEXT NOT NULL, path TEXT NOT NULL, line INTEGER NOT NULL, kind TEXT NOT NULL,
    role TEXT NOT NULL, author TEXT, written_at TEXT, json TEXT NOT NULL,
    PRIMARY KEY (path, id)
);
CREATE TABLE subjects (claim_id TEXT NOT NULL, path TEXT NOT NULL, subject TEXT NOT NULL, written_at TEXT);
CREATE TABLE quantities (
    claim_id TEXT NOT NULL, path TEXT NOT NULL, subject TEXT, metric TEXT, value REAL,
    low REAL, high REAL, unit TEXT, raw TEXT NOT NULL
);
CREATE TABLE mentions (
    path TEXT NOT NULL, line INTEGER NOT NULL, col INTEGER, arxiv_id TEXT NOT NULL,
    version INTEGER, raw TEXT NOT NULL, claim_id TEXT, kind TEXT, written_at TEXT
);
CREATE TABLE arxiv_cache (
    id TEXT PRIMARY KEY, fetched_at TEXT NOT NULL, status TEXT NOT NULL, json TEXT
);
"""

# Write generations: every insert, delete or content change of a ``files`` row (of a card's row)
# adds one to ``meta`` ``files_gen`` (``cards_gen``) in the same transaction, so a memo keyed by
# a generation can never match a later state (a stamp of row counts and the highest rowid could:
# remove the newest file, change another, put the newest back). A change of a row's times or size
# alone (:meth:`kb.store.base.StoreBase.touch`: same content) adds one to ``stat_gen`` only. Every
# column is covered, so a row changed by anything but kb moves a generation
# (:func:`kb.store.filerow.undecodable` reads the rows again).
GENERATIONS = (
    "INSERT OR IGNORE INTO meta VALUES ('files_gen', '0')",
    "INSERT OR IGNORE INTO meta VALUES ('cards_gen', '0')",
    "INSERT OR IGNORE INTO meta VALUES ('stat_gen', '0')",
    """CREATE TRIGGER IF NOT EXISTS files_gen_insert AFTER INSERT ON files BEGIN
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'files_gen';
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'cards_gen' AND NEW.role = 'card';
    END""",
    """CREATE TRIGGER IF NOT EXISTS files_gen_delete AFTER DELETE ON files BEGIN
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'files_gen';
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'cards_gen' AND OLD.role = 'card';
    END""",
    """CREATE TRIGGER IF NOT EXISTS files_gen_update AFTER UPDATE OF path, hash, role, author, written_at, front,
        headings, problems, invalid_ids, n_claims ON files
    BEGIN
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'files_gen';
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'cards_gen'
            AND (NEW.role = 'card' OR OLD.role = 'card');
    END""",
    """CREATE TRIGGER IF NOT EXISTS stat_gen_update AFTER UPDATE OF mtime_ns, ctime_ns, size ON files BEGIN
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'stat_gen';
    END""",
    # kb never updates a claim row and deletes them only with their file's (re-parse, removal):
    # a claim row deleted or changed by anything else is seen (kb.store.filerow.undecodable)
    "INSERT OR IGNORE INTO meta VALUES ('claims_gen', '0')",
    """CREATE TRIGGER IF NOT EXISTS claims_gen_delete AFTER DELETE ON claims BEGIN
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'claims_gen';
    END""",
    """CREATE TRIGGER IF NOT EXISTS claims_gen_update AFTER UPDATE ON claims BEGIN
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'claims_gen';
    END""",
)

# Secondary indexes, dropped during a bulk (cold) load and built once after it.
INDEXES = """
CREATE INDEX IF NOT EXISTS claims_written ON claims (written_at);
CREATE INDEX IF NOT EXISTS claims_id ON claims (id);
CREATE INDEX IF NOT EXISTS subjects_subject ON subjects (subject, written_at);
CREATE INDEX IF NOT EXISTS subjects_path ON subjects (path);
CREATE INDEX IF NOT EXISTS quantities_path ON quantities (path);
CREATE INDEX IF NOT EXISTS quantities_subject ON quantities (subject, metric);
CREATE INDEX IF NOT EXISTS mentions_id ON mentions (arxiv_id);
CREATE INDEX IF NOT EXISTS mentions_path ON mentions (path);
CREATE INDEX IF NOT EXISTS files_written ON files (written_at);
"""
INDEX_NAMES = ("claims_written", "claims_id", "subjects_subject", "subjects_path", "quantities_path",
               "quantities_subject", "mentions_id", "mentions_path", "files_written")


def create_schema(db: sqlite3.Connection) -> None:
    """Tables, indexes and write-generation triggers of a new store (inside the caller's transaction)."""
    for statement in (SCHEMA + INDEXES).split(";"):
        if statement.strip():
            db.execute(statement)
    for statement in GENERATIONS:
        db.execute(statement)
