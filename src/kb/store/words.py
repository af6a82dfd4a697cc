"""Words for shell completion read from an existing store: subjects and metric keys.

Read-only and best effort: a completion must never build, change or wait long for the store,
so a missing, locked or foreign store gives no words.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kb.core.paths import STORE_DIR, STORE_NAME
from kb.store.schema import SCHEMA_VERSION

LIMIT = 200
"""At most this many words per answer (a shell lists them all)."""


def stored_words(root: Path, what: str, prefix: str = "") -> list[str]:
    """Distinct subjects (``what="subjects"``: ``arxiv:2607.26627``, ``entity:tgi``) or metric
    keys (``what="metrics"``: ``ttft``, ``eol_date``) in the store of the KB at ``root`` that
    start with ``prefix`` (case-insensitive), sorted, at most :data:`LIMIT`.

    :returns: an empty list when the store is absent, of another schema or unreadable.
    :raises ValueError: ``what`` is neither ``subjects`` nor ``metrics``.
    """
    query = {"subjects": "SELECT DISTINCT subject FROM subjects WHERE subject LIKE ? ORDER BY subject LIMIT ?",
             "metrics": "SELECT DISTINCT metric FROM quantities WHERE metric IS NOT NULL AND metric LIKE ? "
                        "ORDER BY metric LIMIT ?"}.get(what)
    if query is None:
        raise ValueError(f"stored_words: what is 'subjects' or 'metrics', not {what!r}")
    path = root / STORE_DIR / STORE_NAME
    if not path.is_file():
        return []
    like = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    query = query.replace("LIKE ?", "LIKE ? ESCAPE '\\'")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.5)
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                return []
            return [r[0] for r in db.execute(query, (like, LIMIT))]
        finally:
            db.close()
    except sqlite3.Error:
        return []
