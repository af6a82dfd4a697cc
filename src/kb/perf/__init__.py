"""Stage 0, speed machinery: what makes kb fast, kept apart from the rules it speeds up.

GC pauses (:mod:`kb.perf.gc`), regexes compiled on first use (:mod:`kb.perf.lazyre`), a
regex's first-character guard (:mod:`kb.perf.literals`), model builders without validation
(:mod:`kb.perf.models`), compiled regexes kept between runs (:mod:`kb.perf.recache`),
markdown-it's block rules behind their first test (:mod:`kb.perf.mdrules`), answers about an
object made once (:mod:`kb.perf.memo`) and the one digest of kb's own code (:mod:`kb.perf.digest`).
Nothing here knows a claim, a KB or a command; every other stage may use it.
"""
