"""Set-up conditions a figure depends on (DESIGN.md §3: subject + metric + qualifier must match
before two values can conflict): GPUs, precision, batch, memory placement, model size; and the
words that name something in passing.

Data only, as regex fragments: :mod:`kb.extract.qualifiers` joins them into its patterns. The
conditions come from the seeds' benchmark set-ups (``在 H100 上跑 Llama-3-70B``, ``RTX 4090、batch
1``, ``FP8``, ``W4A16``, ``offload``, ``并发 32``).
"""

from __future__ import annotations

from kb.extract.vocab.metrics import PERCENTILE

CONDITION_PATTERNS: tuple[str, ...] = (
    r"RTX\s*(?:PRO\s*)?\d{4}",
    # an accelerator after a count (``8xH100``, ``8×H100``) and in the plural (``8 H100s``)
    r"(?:(?<![A-Za-z0-9])|(?<=\d[x×]))(?:[ABHLT]\d{2,3}|GB\d{2,3}|MI\d{3}X?|(?:NV|MX)?FP\d{1,2}|INT\d|W\d+A\d+)"
    r"(?=s?(?![A-Za-z0-9]))",
    # a percentile: P99 TTFT and P50 TTFT are two figures (``median`` is P50)
    rf"(?<![A-Za-z0-9])(?:{PERCENTILE})(?![A-Za-z0-9])",
    r"(?<![A-Za-z])M\d\s*(?:Max|Pro|Ultra)",
    r"batch\s*(?:size\s*)?[=:]?\s*\d+",
    r"offload",
    r"显存",
    r"in[- ]memory",
    r"单请求",
    r"single[- ]request",
    r"(?:a|one)\s+request\s+at\s+a\s+time",
    # a model size: at most 16 "-"/"." segments before it (unbounded, every word of a long
    # "a-a-a-…" run without a size started a scan to the run's end: kb lint of 64 KB took 28 s)
    r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+){0,16}-\d+(?:\.\d+)?[BbMK](?![A-Za-z0-9])",
)
"""Set-up conditions in a clause, case-insensitive: accelerators (``RTX 4090``, ``H100``,
``MI300X``, ``M3 Max``), precisions (``FP8``, ``INT4``, ``W4A16``), batch and concurrency
(``batch 32``; a concurrency is the set-up token ``conc64`` of :func:`kb.extract.qualifiers.setup_token`), memory placement (``offload``, ``显存``, ``in-memory``), a single
request, a model with its size (``Llama-3-70B``, ``Qwen2.5-Coder-32B``)."""

PASSING_WORDS: tuple[str, ...] = ("如", "例如", "比如", "包括", "其他", "其它", "等", "such as", "like", "including",
                                  r"e\.g\.", "for example", "other")
"""Words before a name that say it is named in passing, not a node: ``其他如 X``, ``such as X``."""

CONDITION_SAME: dict[str, str] = {
    "singlerequest": "单请求", "single-request": "单请求", "arequestatatime": "单请求", "onerequestatatime": "单请求",
    "median": "p50", "中位数": "p50",
}
"""One token per condition written in several ways (keys as :mod:`kb.extract.qualifiers`
normalises a match: lower case, no spaces): the zh and en forms of one set-up are one
qualifier, so ``单请求 TTFT 180 ms`` and ``TTFT 260 ms for a single request`` can conflict."""

MEMORY_PLACEMENT: frozenset[str] = frozenset({"显存", "inmemory", "in-memory"})
"""Condition tokens that say where the data lives (GPU memory, in memory rather than offloaded):
a set-up of a speed-up or a latency (``显存内 1.29×`` and ``offload 2.06×`` are two facts), but
of a memory figure only the metric's own word (``KV 显存降低 45%`` states no set-up)."""
