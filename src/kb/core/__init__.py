"""Stage 1, the shared vocabulary: claim records, errors, config, text I/O, front matter, windows
and every KB path (:mod:`kb.core.paths`). Imports only :mod:`kb.perf`."""
