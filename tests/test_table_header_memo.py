"""kb.read.tables.header_column: what a header cell gives its column is kept per vocabulary, so a
repeated header is read once and a KB's own metric phrases give their own answer."""

from __future__ import annotations

import gc

from kb.extract.metrics import DEFAULT_VOCAB, MetricVocab
from kb.read import tables
from kb.read.tables import HeaderColumn, header_column


def test_a_header_is_read_once_per_vocabulary() -> None:
    mine = MetricVocab({"concurrency": ["Frobs"]})
    assert header_column("Frobs", DEFAULT_VOCAB) == HeaderColumn(None, None)
    assert header_column("Frobs", mine) == HeaderColumn(None, "concurrency")
    assert tables._COLUMNS[mine] == {"Frobs": HeaderColumn(None, "concurrency")}
    assert header_column("吞吐 (tok/s)", mine) == HeaderColumn("tok/s", None)
    again = header_column("吞吐 (tok/s)", mine)
    assert again is tables._COLUMNS[mine]["吞吐 (tok/s)"]  # the kept answer
    assert header_column("Frobs", DEFAULT_VOCAB) == HeaderColumn(None, None)


def test_the_kept_headers_go_with_their_vocabulary() -> None:
    mine = MetricVocab({"concurrency": ["Frobs"]})
    header_column("Batch", mine)
    before = len(tables._COLUMNS)
    del mine
    gc.collect()
    assert len(tables._COLUMNS) == before - 1
