"""Stage 4, what is kept between runs: the SQLite store (all of kb's SQL), ingest and its workers,
locks, memos, cards and titles as stored, the workspace a command opens."""
