"""kb.store.writer._insert: rows written ROWS_PER_INSERT to a statement are the rows, rowids and
replacements executemany writes (a repeated claim id of a path replaces the earlier row, also
inside one statement)."""

from __future__ import annotations

import sqlite3

from kb.store.schema import SCHEMA
from kb.store.writer import ROWS_PER_INSERT, _insert

_HEAD = "INSERT OR REPLACE INTO claims VALUES "
_ROW = "(?,?,?,?,?,?,?,CAST(? AS TEXT))"


def _claims(write) -> list[tuple]:
    db = sqlite3.connect(":memory:", isolation_level=None)
    for statement in SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    # 37 rows: two whole statements and 5 one by one; id 3 again in the first statement
    # (row 5), id 20 of the second again among the last five (row 34)
    rows = [(str(i), "inbox/a.md", i, "secondhand", "inbox", None, None, bytearray(f'{{"n":{i}}}'.encode()))
            for i in range(37)]
    rows[5] = ("3", *rows[5][1:])
    rows[34] = ("20", *rows[34][1:])
    write(db, rows)
    return db.execute("SELECT rowid, id, line, author, json, typeof(json) FROM claims ORDER BY rowid").fetchall()


def test_insert_writes_what_executemany_writes() -> None:
    assert ROWS_PER_INSERT == 16
    many = _claims(lambda db, rows: db.executemany(_HEAD + _ROW, rows))
    grouped = _claims(lambda db, rows: _insert(db, _HEAD, _ROW, rows))
    assert grouped == many
    assert len(many) == 35
    assert [r[1] for r in many][:6] == ["0", "1", "2", "4", "3", "6"]  # the second '3' replaced the first
    assert many[4] == (6, "3", 5, None, '{"n":5}', "text")
    assert [r for r in many if r[1] == "20"] == [(35, "20", 34, None, '{"n":34}', "text")]
