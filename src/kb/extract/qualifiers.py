"""What a figure is conditional on (DESIGN.md §3): the set-up conditions of its clause and
sentence (:func:`qualifier`), the set-up sizes as condition tokens (:func:`setup_token`), and the
subjects that lead a text. The condition words are data in :mod:`kb.extract.vocab.qualifiers`."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache

from kb.core.claims import Claim, Quantity
from kb.extract.metrics import SETUP_METRICS
from kb.extract.subjects import _OF_RE, Anchor, _clause_marks, clause_bounds
from kb.extract.vocab.qualifiers import CONDITION_PATTERNS, CONDITION_SAME, MEMORY_PLACEMENT, PASSING_WORDS

#: Set-up conditions in a clause (:data:`~kb.extract.vocab.qualifiers.CONDITION_PATTERNS`).
_COND_RE = re.compile("|".join(CONDITION_PATTERNS), re.IGNORECASE)


#: Words before a name that say it is named in passing, not a node: ``其他如 X``, ``such as X``.
_PASSING_RE = re.compile("(?:" + "|".join(PASSING_WORDS) + ")", re.IGNORECASE)
_LEAD_PREFIX_RE = re.compile(r"^[\s\-*+#>§\d.、)）(（\[\]【】|:：]*(?:[A-Z]\d{2,4}\s*)?")


def _leads(text: str, own: Sequence[Anchor]) -> list[str]:
    """Own subjects that open ``text`` (after list marks, numbering and an internal id such as
    ``C103``) or its first table cell; a name after 如/包括/such as/like is named in passing."""
    first_cell_end = text.find(" | ")  # the first " | ": no other one stands before it
    lead_end = _LEAD_PREFIX_RE.match(text).end() + 2  # type: ignore[union-attr]
    passing = _passing_end(text) if own else -1
    out = []
    prev: Anchor | None = None
    for a in sorted(own, key=lambda x: x.start):
        if 0 <= passing <= a.start:  # a passing word stands whole before the name
            break
        if a.start <= lead_end or (first_cell_end > 0 and a.start < first_cell_end) \
                or (prev is not None and prev.key in out and _OF_RE.match(text[prev.end:a.start])):
            out.append(a.key)
        prev = a
    return list(dict.fromkeys(out))


def _passing_end(text: str) -> int:
    """Where the passing word (:data:`_PASSING_RE`) that ends first in ``text`` ends, else -1:
    ``_PASSING_RE.search(text[:k])`` finds one exactly when this is ``<= k`` (the words are
    fixed strings). Found once a text, not once a name: a table cell of 4000 arXiv ids is 4000
    names of one row, and searching each name's whole head made the row quadratic. The leftmost
    match may end after a word that starts later (a longer word holding a shorter one before
    its last letter), so the span it covers is searched again, for a match that ends sooner."""
    m = _PASSING_RE.search(text)
    if m is None:
        return -1
    end = m.end()
    while (m := _PASSING_RE.search(text, m.start(), end - 1)) is not None:
        end = m.end()
    return end


#: Metrics that describe the set-up of a measurement rather than its result (decided in
#: kb.extract.metrics: concurrency, model size, context length, batch size, GPU count).
CONDITION_METRICS = SETUP_METRICS


def qualifier(claim: Claim, q: Quantity) -> str | None:
    """What a number is conditional on (DESIGN.md §3: subject + metric + qualifier must match
    before two values can conflict), normalised (``h100+llama-3-70b``): the parser's, else the
    conditions written in the number's clause (a table row: anywhere in the row) together with
    those of the clauses of its sentence or item that state no number (``在 H100 上跑
    Llama-3-70B，吞吐 2,400 tok/s``, ``…3.2×，测试平台为 RTX 4090、batch 1``: the set-up often
    stands in a clause of its own). For every number of one claim, build one :class:`Qualifiers`."""
    return Qualifiers(claim).of(q)


class Qualifiers:
    """:func:`qualifier` for every number of one claim: what does not depend on the number (the
    set-up sizes, the set-up clauses' conditions, a table row's conditions) is found once, and
    each clause's answer is kept, so a claim with n numbers costs O(n log n) plus one pass over
    its text, not n² (bench_adversarial's ``percent-run`` shape: ``5%`` repeated, in kb lint)."""

    def __init__(self, claim: Claim) -> None:
        self._claim = claim
        self._sizes: list[tuple[int, str]] | None = None
        self._setup: set[str] | None = None
        self._table: str | None = None
        self._by_clause: dict[tuple[int, int], str | None] = {}

    def of(self, q: Quantity) -> str | None:
        """The normalised qualifier of ``q``, one of the claim's quantities, or None."""
        if q.qualifier:
            return _norm_qual(q.qualifier)
        if q.metric in SETUP_METRICS:
            return None  # a set-up size is a condition, not a figure with conditions
        text = self._claim.text
        if self._claim.unit == "table-row":
            if self._table is None:
                found = set((_conditions(text) or "").split("+")) | {t for _, t in self._size_tokens()}
                found.discard("")
                self._table = _norm_qual("+".join(sorted(found))) or ""
            return self._table or None
        key = clause_bounds(text, q.start, q.end)
        if key not in self._by_clause:
            cs, ce = key
            found = set((_conditions(text[cs:ce]) or "").split("+")) - {""}
            found |= set(self._tokens_in(cs, ce)) | self._setup_conditions()
            self._by_clause[key] = _norm_qual("+".join(sorted(found))) if found else None
        qual = self._by_clause[key]
        if qual and q.metric == "memory" and any(t in MEMORY_PLACEMENT for t in qual.split("+")):
            return "+".join(t for t in qual.split("+") if t not in MEMORY_PLACEMENT) or None  # KV 显存 is the metric
        return qual

    def _size_tokens(self) -> list[tuple[int, str]]:
        """``(start, token)`` of the claim's set-up sizes written as numbers (128K 上下文, 8B
        级模型, 32K 以内: conditions too), by start."""
        if self._sizes is None:
            self._sizes = sorted((x.start, t) for x in self._claim.quantities
                                 if (t := setup_token(x.metric, x.value, x.low, x.high, x.bound)) is not None)
        return self._sizes

    def _tokens_in(self, a: int, b: int) -> list[str]:
        sizes = self._size_tokens()
        lo = bisect_left(sizes, (a, ""))
        hi = bisect_left(sizes, (b, ""))
        return [t for _, t in sizes[lo:hi]]

    def _setup_conditions(self) -> set[str]:
        """Conditions of the set-up clauses: those that state no figure of their own."""
        if self._setup is None:
            text = self._claim.text
            found: set[str] = set()
            starts, ends = _clause_marks(text)
            numbers = sorted(x.start for x in self._claim.quantities if x.metric not in SETUP_METRICS)
            for a, b in zip([0, *ends], [*starts, len(text)]):
                i = bisect_left(numbers, a)
                if i < len(numbers) and numbers[i] < b:
                    continue
                found |= set((_conditions(text[a:b]) or "").split("+")) - {""}
                found.update(self._tokens_in(a, b))
            self._setup = found
        return self._setup


@lru_cache(maxsize=1024)
def _conditions(clause: str) -> str | None:
    """The set-up conditions written in ``clause`` (GPUs, batch, precision, model size),
    normalised (one token per condition: :data:`~kb.extract.vocab.qualifiers.CONDITION_SAME`)
    and joined with ``+``; cached, since each number of a sentence asks about the
    same set-up clauses."""
    found = sorted({CONDITION_SAME.get(k, k) for m in _COND_RE.finditer(clause)
                    if (k := re.sub(r"\s+", "", m.group(0).lower()))})
    return "+".join(found) if found else None


def _norm_qual(q: str | None) -> str | None:
    return re.sub(r"\s+", "", q.lower()) if q else None


#: The largest set-up size kb takes as one (a batch of a million, ten million concurrent
#: requests, a million GPUs, a context of a billion tokens, a model of a quadrillion parameters);
#: past it the number is a typo or no size (``1e24`` under ``Batch``).
SIZE_MAX: dict[str, float] = {"batch_size": 1e6, "concurrency": 1e7, "gpu_count": 1e6, "context_length": 1e9,
                              "params": 1e15}
#: Set-up sizes that count whole things (requests, GPUs, tokens); a model size may be 1.5B.
_WHOLE = frozenset({"batch_size", "concurrency", "gpu_count", "context_length"})


def size_problem(metric: str | None, value: float | None, low: float | None = None,
                 high: float | None = None) -> str | None:
    """Why a number is no set-up size of ``metric`` (``is not a whole number from 1 up
    to 1,000,000``), or None when it is one or ``metric`` is no size of :data:`SIZE_MAX`. A set-up
    size is positive, a whole number for a count (:data:`_WHOLE`; ``1.1K`` is 1100) and at most
    :data:`SIZE_MAX`; a range's two ends each. A table's set-up column (``Batch`` of ``0``,
    ``1.5``: :func:`kb.read.tables._by_metric_column`) and :func:`setup_token` ask it.

    :param metric: a metric key; :param value: the value, or None for a range (``low``/``high``).
    """
    top = SIZE_MAX.get(metric or "")
    if top is None:
        return None
    ends = [v for v in (value, low, high) if v is not None]
    whole = metric in _WHOLE
    for v in ends:
        if not (0 < v <= top) or (whole and abs(v - round(v)) > 1e-6 * v):
            return f"is not a {'whole number from 1' if whole else 'positive number'} up to {top:,.0f}"
    return None


def setup_token(metric: str | None, value: float | None, low: float | None = None, high: float | None = None,
                bound: str | None = None) -> str | None:
    """The qualifier condition a set-up size stands for (``ctx128k``, ``params8b``, ``batch32``,
    ``ctx≤32k``, ``conc100``), or None when ``metric`` is no set-up size (:data:`~kb.extract.metrics.SIZE_METRICS`)
    nor a concurrency. ``batch32`` is the token the qualifier reads from ``batch 32`` too, so both
    spellings agree; a concurrency is ``conc<n>`` however it is written (``并发 32``, ``32 并发``,
    ``at 32 concurrent requests``). A number that is no set-up size (:func:`size_problem`:
    ``batch 0``, ``batch 1.5``) gives none.

    :param metric: the quantity's metric key.
    :param value: its value, or None for a range (then ``low``/``high``).
    :param bound: its bound (``≤`` of ``32K 以内``), kept in the token.
    """
    prefix = {"context_length": "ctx", "params": "params", "batch_size": "batch", "gpu_count": "gpus",
              "concurrency": "conc"}.get(metric or "")
    if prefix is None or size_problem(metric, value, low, high) is not None:
        return None
    if value is not None:
        amount = _compact(value)
    elif low is not None and high is not None:
        amount = f"{_compact(low)}-{_compact(high)}"
    else:
        return None
    return f"{prefix}{bound or ''}{amount}"


def _compact(v: float) -> str:
    """``128000`` → ``128k``, ``8e9`` → ``8b``, ``1e6`` → ``1m``, ``32`` → ``32``."""
    for scale, suffix in ((1e12, "t"), (1e9, "b"), (1e6, "m"), (1e3, "k")):
        if abs(v) >= scale:
            return f"{v / scale:g}{suffix}"
    return f"{v:g}"
