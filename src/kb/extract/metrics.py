"""Metric vocabulary: which metric (``throughput``, ``ttft`` …) a number in a text is a value of.

The built-in phrases are data in :mod:`kb.extract.vocab.metrics`; this module holds the rule
that gives a number its metric (:meth:`MetricVocab.metric_at`) and the set-up sizes.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from kb.extract.fold import lower_same_length, normalise
from kb.extract.phrases import _ASCII_ALNUM, _WS, _compile_phrases, _phrase_key
from kb.extract.vocab.metrics import BUILTIN_METRICS, COMPOUND_WORDS, DATE_METRICS, METRIC_COLUMN_WORDS, PERCENTILE, UNIT_DEFAULTS
from kb.extract.vocab.quantities import BOUND_WORDS_EN, BOUND_WORDS_ZH, DECREASE_WORDS_EN, DECREASE_WORDS_ZH

SIZE_METRICS: frozenset[str] = frozenset({"params", "context_length", "batch_size", "gpu_count"})
"""Set-up sizes (issue 8): a model's size, a context length, a batch size, a GPU count. Their
phrases give a metric only to a *size* (a number with no unit, a ``tokens`` count or a CJK
counter) written directly before or after them (:meth:`MetricVocab._setup_at`), and that
rule comes first: ``TTFT 在 32K 上下文下`` makes 32K a context length, not a TTFT."""

SETUP_METRICS: frozenset[str] = SIZE_METRICS | {"concurrency", "sim_length"}
"""Metric keys that describe the set-up of a measurement rather than its result: never a fact
the diff compares (no conflict, no secondhand-only figure, no history value), never a
consensus number to support (lint KB108); ``sim_length`` is the length of a simulation (``模拟
12 周``: issue 21); a size feeds the qualifier of the figures of its
clause (:func:`kb.extract.qualifiers.qualifier`, :func:`kb.extract.qualifiers.setup_token`)."""


# Clause boundaries (on normalised text): ，,；;。.!?：: newline | ( ) （） 【】 、 [].
# A comma between digits is a thousands separator, a point before a digit a decimal point and one
# before a letter part of a name (llama.cpp, e.g). Every alternative starts with its literal: re then
# skips in C to the next of them (a class or a look-behind first, it tried every position of the window).
_BOUNDARY = re.compile("|".join(map(re.escape, ";。!?！？:\n|()[]【】、")) + r"|,(?<!\d,)|,(?!\d)|\.(?![\dA-Za-z])")
# What may stand between a phrase and the number after it: spaces, emphasis, a colon (label:
# value), change verbs, hedges and copulas. Possessive: no backtracking (Python ≥ 3.11).
_BEFORE_GAP = re.compile(
    r"(?:[\s*_~≈=:]|提升|提高|增加|增长|上升|下降|降低|减少|缩短|减小|降至|达到|高达|可达|达|约为|约|仅|只|为|是|了|于|在|"
    r"平均|均|分别为|分别|" + "|".join((*DECREASE_WORDS_ZH, *(w for k in BOUND_WORDS_ZH.values() for w in k))) + "|"
    r"(?<![A-Za-z])(?:by|of|is|was|are|were|at|up|about|only|just|reach(?:es|ed)?|improve[sd]?|increase[sd]?|"
    r"rise[sd]?|rose|gain(?:s|ed)?|on|in|" + "|".join((*DECREASE_WORDS_EN, *(w for k in BOUND_WORDS_EN.values() for w in k)))
    + r")(?![A-Za-z]))*+",  # drops by under 1%: decrease and bound words are the vocabulary's
    re.IGNORECASE,
)
# What may stand between a number and the phrase after it: spaces, emphasis, 的, one
# comparative (``3.7× less memory``, ``2× 更低延迟``).
_AFTER_GAP = re.compile(
    r"[\s*_]*+(?:(?:的|更[高低少多小大快]|(?:less|fewer|lower|smaller|more|higher|larger|greater|better)\s)[\s*_]*+)?",
    re.IGNORECASE,
)
# A condition, not a metric: a phrase before 时/下 (在显存时), after under/on/across unless a statistic (on p95 TTFT)
_CONDITION_AFTER = re.compile(r"[ \t]*(?:时|下|上(?![升涨调])|条件下|的情况下)")
_CONDITION_BEFORE = re.compile(r"(?<![A-Za-z])(?:under|on|across)[ \t]+(?:[A-Za-z-]+[ \t]+){0,2}$", re.IGNORECASE)
_PERCENTILE_AT = re.compile(rf"(?:{PERCENTILE})(?![A-Za-z0-9])", re.IGNORECASE)
# A number not glued to a letter, digit or point has a phrase of its own (``比 5060 Ti``: a model number)
_FREE_DIGIT = re.compile(r"\d(?<![A-Za-z0-9_.]\d)")
_DEVICE_NUMBER = re.compile(r"\d{3,4}[ \t]?(?:Ti|SUPER|Super|XTX?)(?![A-Za-z])")
_MAX_BEFORE_GAP, _MAX_AFTER_GAP = 16, 10
_AT_END = re.compile(r"(?<![A-Za-z])at[ \t]+$", re.IGNORECASE)
_WINDOW = 80
"""Characters either side of a number that :meth:`MetricVocab.metric_at` looks at."""


def _tied(norm: str, p: int) -> bool:
    """Whether the phrase at ``p`` directly follows a number, so belongs to it (``383.7 tok/s 13M``, not ``v2 TTFT``)."""
    j = p
    while j > 0 and norm[j - 1] in " \t*":
        j -= 1
    if j == 0:
        return False
    c = norm[j - 1]
    if c in "%×万亿倍":
        return True
    if c in "kKMBTxX":
        j -= 1
        if j == 0 or not norm[j - 1].isdigit():
            return False
    elif not c.isdigit():
        return False
    while j > 0 and (norm[j - 1].isdigit() or norm[j - 1] in ".,"):
        j -= 1
    if j >= 2 and norm[j - 1] in "-_/" and norm[j - 2] in _ASCII_ALNUM:
        return False  # Llama-3.1-8B 并发: a model name, not a number the phrase belongs to
    return j == 0 or norm[j - 1] not in _ASCII_ALNUM


_COMPOUND_RE = re.compile("|".join(COMPOUND_WORDS))
_COMPOUND_HINT = re.compile("[" + "".join(sorted({w[0] for w in COMPOUND_WORDS})) + "]")
_UNSEEN = object()
_FOUND_MAX = 4096
"""Distinct matched phrase texts a vocabulary remembers (phrases differ only in spacing)."""


@dataclass(slots=True)
class _Scan:
    """Phrase matches of one (normalised) text, in text order (internal to kb.extract); the
    phrases of set-up sizes (:data:`SIZE_METRICS`) in lists of their own."""

    starts: list[int]
    ends: list[int]
    metrics: list[str]
    setup_starts: list[int]
    setup_ends: list[int]
    setup_metrics: list[str]

    def conditioned(self, norm: str, k: int) -> bool:
        """Phrase ``k`` names a condition, not a metric (``_CONDITION_AFTER``, ``_CONDITION_BEFORE``)."""
        a = self.starts[k]
        return bool(_CONDITION_AFTER.match(norm, self.ends[k])) or (
            _CONDITION_BEFORE.search(norm, max(0, a - 32), a) is not None and _PERCENTILE_AT.match(norm, a) is None)


# Between a size and the set-up phrase after it: spaces, a bound word, 级, 的, 多种, a hyphen
# (``8B 级模型``, ``70B 以上模型``, ``32K 以内的上下文``, ``4K 到 96K 的多种上下文``, ``32K-token context``).
_SETUP_AFTER_GAP = re.compile(r"[\s*_-]*+(?:(?:以内|以下|以上|左右)[\s*_]*+)?(?:级|的)?(?:多种|各种|不同)?[\s*_-]*+")
# Between a set-up phrase and the size after it: spaces, a colon or =, 为, of (``上下文 128K``,
# ``context length of 32K``, ``batch size=64``), an opening bracket (``参数规模（0.6B 到 30B）``), a
# highest-tested word (``上下文长度：最高测试至 170K tokens``), an example word (``模型（如 13B）``).
_SETUP_BEFORE_GAP = re.compile(r"(?:[\s*_=:（(]|为|长度|最高|最大|最长|测试至|测试到|可达|高达|达|如|从|由|(?<![A-Za-z])(?:of|is|e\.g\.|from)(?![A-Za-z]))*+",
                               re.IGNORECASE)
#: A set-up phrase's gap and its size, right before a phrase (``batch 1 加速``: :meth:`MetricVocab._after_setup`).
_SETUP_THEN_NUMBER = re.compile(_SETUP_BEFORE_GAP.pattern + r"\d[\d,.]*(?:\s*[kKMBT])?[ \t*]*", re.IGNORECASE)
_SIZE_NUMBER = re.compile(r"\d[\d,.]*(?:\s*[kKMBT](?![A-Za-z]))?")
"""A number as a set-up size is written (``32K``, ``128k``, ``8B``, ``1,024``): for the clause rule."""
_MAGNITUDE = re.compile(r"\d\s*[kKMBT](?![A-Za-z])|亿|万|(?<![A-Za-z])(?:million|billion|trillion)(?![A-Za-z])", re.IGNORECASE)


# A Capitalised word (not an acronym) with a Capitalised word beside it, over a space or a hyphen.
_TITLE_BEFORE = re.compile(r"[A-Z][a-z]+[ \t-]$")
_TITLE_AFTER = re.compile(r"[ \t-][A-Z][a-z]")


def _in_title(norm: str, a: int, b: int) -> bool:
    """Whether the phrase at ``norm[a:b]`` is a word of a Title-Cased name (``End-to-End Memory
    Model Scaling``, ``Agent Memory``): Capitalised, not an acronym, next to another Capitalised
    word. Such a word names a paper, not the metric of a number in its clause (issue 21)."""
    w = norm[a:b]
    if not (w[:1].isupper() and any(c.islower() for c in w)):
        return False
    return _TITLE_BEFORE.search(norm, max(0, a - 24), a) is not None or _TITLE_AFTER.match(norm, b) is not None


def _is_size(unit: str | None) -> bool:
    """A number that may be a set-up size: no unit, a ``tokens`` count or a CJK counter."""
    return unit is None or unit == "tokens" or (len(unit) == 1 and "\u4e00" <= unit <= "\u9fff")


class MetricVocab:
    """Phrases that name metrics, and the rule that gives a number its metric.

    :param extra: metric key → phrases, from ``kb.yaml`` ``metrics:``; a phrase extends its key
        (or creates it) and, when a built-in phrase is given again, moves it to that key.
    :raises ValueError: a key or phrase that is empty or not a string.
    """

    def __init__(self, extra: Mapping[str, Sequence[str]] = MappingProxyType({})) -> None:
        by_key: dict[str, str] = {}
        keys: dict[str, list[str]] = {}
        for source in (BUILTIN_METRICS, extra):
            for key, phrases in source.items():
                if not isinstance(key, str) or not key.strip():
                    raise ValueError(f"metrics: bad metric key {key!r}; expected a non-empty string")
                if isinstance(phrases, str):
                    raise ValueError(f"metrics.{key}: expected a list of phrases, got the string {phrases!r}")
                keys.setdefault(key, [])
                for phrase in phrases:
                    if not isinstance(phrase, str) or not phrase.strip():
                        raise ValueError(f"metrics.{key}: bad phrase {phrase!r}; expected a non-empty string")
                    by_key[_phrase_key(phrase)] = key
                    keys[key].append(phrase)
        self._metric_of: dict[str, str] = by_key
        self._found: dict[str, str | None] = {}
        """Matched text -> its metric, as :meth:`_scan` met it (at most :data:`_FOUND_MAX`)."""
        self._cells: dict[str, str | None] = {}
        """Table cell -> :meth:`cell_metric` (headers repeat on every row; at most :data:`_FOUND_MAX`)."""
        self.phrases: Mapping[str, tuple[str, ...]] = MappingProxyType({k: tuple(v) for k, v in keys.items()})
        """Metric key → its phrases (built-in first, then ``extra``)."""
        self.pattern: re.Pattern[str] = _compile_phrases(
            [p for ps in self.phrases.values() for p in ps]
        )
        """One compiled alternation over every phrase (a trie: longest first), case-sensitive
        over lower-case phrases: use it on ``lower_same_length(normalise(text))``. Matching
        lower-cased text is four times faster than ``re.IGNORECASE`` here."""

    def phrase_metric(self, phrase: str) -> str | None:
        """The metric a phrase names, or None.

        :param phrase: text as written (``ttft``, ``首token延迟``); case and spaces do not matter.
        """
        return self._metric_of.get(_phrase_key(phrase))

    def metric_at(self, text: str, start: int, end: int, unit: str | None) -> str | None:
        """The metric that the number at ``text[start:end]`` is a value of, or None.

        Rule, first that applies (on text folded by :func:`normalise`):

        0. a set-up size (:data:`SIZE_METRICS`, issue 8): a number with no unit, a ``tokens``
           count or a CJK counter, with a set-up phrase directly after it (spaces, a bound word,
           级, 的 or a hyphen between: ``128K 上下文``, ``8B 级模型``, ``70B 以上模型``,
           ``32K-token context``, ``1M tokens of context``) or directly before it (``上下文
           128K``, ``batch size 64``) is that size (``context_length``, ``params``,
           ``batch_size``, ``gpu_count``), whatever result phrase stands near it. Set-up
           phrases take no part in rules 1–5;
        1. a phrase *directly before*: between it and the number only spaces, ``*``, a colon,
           and change verbs, hedges or copulas (提升, 下降, 降低, 约, 仅, 达到, by, of, reduced …),
           at most 16 characters: ``TTFT -67.6%``, ``吞吐提升 2.03×``, ``准确率仅下降 0.27``,
           ``Latency: 25 ms``. A phrase that itself directly follows a number is that
           number's (``1109 tokens/sec 13M``: tokens/sec is not 13M's metric);
        2. a phrase inside the span (``383.7 tok/s``, ``2.5K TPS``, ``$0.5``);
        3. a phrase *directly after*: only spaces, ``*``, 的 or one comparative (less, fewer,
           lower, more, higher, better, 更低, 更高 …) between, at most 10 characters: ``2.03× 吞吐``,
           ``1,918 commits``, ``1,300 万 job minutes``, ``3.7× less memory``;
        4. the unit's default (:data:`UNIT_DEFAULTS`: ``tok/s`` → throughput; a ratio ``×``
           has none, so a bare ``2.4×`` gets a metric only from a phrase);
        5. the nearest phrase in the same clause with no other free-standing number between
           (before wins a tie); a phrase before it followed by 时/下 is a condition and left
           out (``全专家在显存时约 1.29×`` has no metric), and so is one followed by 上 (``在真实流量上``)
           or after under/on/across (``under bursty traffic``). Clause boundaries: ``，,；;。.!?：:``, newline, ``|``, ASCII and
           CJK parentheses and brackets, and ``、``; a clause reaches at most 80 characters
           either side.

        Overlapping phrases: the longest wins (``inter-token latency`` over ``latency``).
        ``：`` also ends a clause, except between a label and its value.

        :param text: the text, as written (full-width forms are folded here).
        :param start: offset of the number's first character (sign or currency included).
        :param end: offset one past its last character (unit included).
        :param unit: the quantity's unit, normalised (``×``, ``%``, ``tok/s``) or as written.
        :returns: a metric key, or None.
        :raises ValueError: ``0 <= start <= end <= len(text)`` does not hold.
        """
        if not 0 <= start <= end <= len(text):
            raise ValueError(f"metric_at: bad span {start}:{end} for a text of {len(text)} characters")
        lo = max(0, start - _WINDOW)
        window = normalise(text[lo:min(len(text), end + _WINDOW)])
        return self._resolve(self._scan(window), window, start - lo, end - lo, unit)[0]

    def _scan(self, norm: str, exclude: Collection[str] = ()) -> _Scan:
        """Phrase matches of ``norm`` (metrics in ``exclude`` left out)."""
        starts, ends, metrics = [], [], []
        ss, se, sm = [], [], []
        of = self._found
        inside = [c.span() for c in _COMPOUND_RE.finditer(norm)] if _COMPOUND_HINT.search(norm) else ()
        for m in self.pattern.finditer(lower_same_length(norm)):
            if inside and any(a <= m.start() < b for a, b in inside):
                continue  # 加速 in 加速器: a word inside another word is none
            found = m.group()
            metric = of.get(found, _UNSEEN)
            if metric is _UNSEEN:
                metric = self._metric_of.get(found) or self._metric_of.get(_WS.sub("", found))
                if len(of) < _FOUND_MAX:
                    of[found] = metric
            if metric is not None and metric not in exclude:
                a, b = m.span()
                if metric in SIZE_METRICS:
                    ss.append(a)
                    se.append(b)
                    sm.append(metric)
                    continue
                starts.append(a)
                ends.append(b)
                metrics.append(metric)
        return _Scan(starts, ends, metrics, ss, se, sm)

    @staticmethod
    def _setup_at(sc: _Scan, norm: str, s: int, e: int) -> str | None:
        """The set-up size metric of the number at ``norm[s:e]``: a set-up phrase starting
        inside its span and reaching past it (``1M tokens of context``), directly after it
        (:data:`_SETUP_AFTER_GAP`, at most 10 characters: ``128K 上下文``, ``8B 级模型``) or
        directly before it (``上下文 128K``, ``batch size 64``); else None."""
        k = bisect_left(sc.setup_starts, s)
        if k < len(sc.setup_starts):
            a = sc.setup_starts[k]
            if (a < e < sc.setup_ends[k]) or (a >= e and a - e <= _MAX_AFTER_GAP
                                                and _SETUP_AFTER_GAP.fullmatch(norm, e, a)):
                return sc.setup_metrics[k]
        i = bisect_right(sc.setup_ends, s) - 1
        if i >= 0 and s - sc.setup_ends[i] <= _MAX_BEFORE_GAP and _SETUP_BEFORE_GAP.fullmatch(norm, sc.setup_ends[i], s) \
                and not _tied(norm, sc.setup_starts[i]):
            return sc.setup_metrics[i]
        return None

    def _resolve(self, sc: _Scan, norm: str, s: int, e: int, unit: str | None) -> tuple[str | None, str, int]:
        """(metric, how, phrase) for the number at ``norm[s:e]`` (internal to kb.extract).

        ``how`` is the rule that decided: ``setup``, ``before``, ``span``, ``after``, ``unit``,
        ``clause`` or ``none``; ``phrase`` is the index of the deciding phrase in ``sc``, else -1.
        A set-up size (:meth:`_setup_at`) is decided first and never makes a bare number a
        quantity (``how`` ``setup``)."""
        if sc.setup_starts and _is_size(unit) and (setup := self._setup_at(sc, norm, s, e)) is not None \
                and (setup != "params" or _MAGNITUDE.search(norm, s, e)):
            return setup, "setup", -1  # a model size is written with a magnitude (8B, 400 million), not "3 个模型"
        i = bisect_right(sc.ends, s) - 1  # last phrase ending at or before s
        if i >= 0 and _tied(norm, sc.starts[i]) and not (sc.setup_ends and self._after_setup(sc, norm, sc.starts[i])):
            i = -1  # (a set-up size is no number a phrase belongs to: batch 1 加速 2.0×)
        if i >= 0 and s - sc.ends[i] <= _MAX_BEFORE_GAP and _BEFORE_GAP.fullmatch(norm, sc.ends[i], s):
            k = bisect_left(sc.starts, e)
            if unit is None and k < len(sc.starts) and sc.starts[k] - e <= 1 and norm[e:sc.starts[k]].isspace() \
                    and _AT_END.search(norm, sc.ends[i], s):
                return sc.metrics[k], "after", k  # throughput at 16 concurrent requests: 16 is the concurrency
            return sc.metrics[i], "before", i
        j = bisect_left(sc.starts, s)  # first phrase starting at or after s
        if j < len(sc.starts) and sc.starts[j] < e and sc.ends[j] <= e:
            return sc.metrics[j], "span", j
        k = bisect_left(sc.starts, e)
        if k < len(sc.starts) and sc.starts[k] - e <= _MAX_AFTER_GAP and _AFTER_GAP.fullmatch(norm, e, sc.starts[k]):
            return sc.metrics[k], "after", k
        if unit is not None and unit in UNIT_DEFAULTS:
            return UNIT_DEFAULTS[unit], "unit", -1
        cs = max(0, s - _WINDOW)
        for b in _BOUNDARY.finditer(norm, cs, s):
            cs = b.end()
        b = _BOUNDARY.search(norm, e, e + _WINDOW)
        ce = b.start() if b else min(len(norm), e + _WINDOW)
        best: tuple[int, int] | None = None  # (distance, phrase index)
        if i >= 0 and sc.starts[i] >= cs and not self._free_number(sc, norm, sc.ends[i], s) \
                and not sc.conditioned(norm, i) and not _in_title(norm, sc.starts[i], sc.ends[i]):
            best = (s - sc.ends[i], i)
        if k < len(sc.starts) and sc.ends[k] <= ce and not self._free_number(sc, norm, e, sc.starts[k]) \
                and not _in_title(norm, sc.starts[k], sc.ends[k]):
            if best is None or sc.starts[k] - e < best[0]:
                best = (sc.starts[k] - e, k)
        return (sc.metrics[best[1]], "clause", best[1]) if best else (None, "none", -1)

    @staticmethod
    def _after_setup(sc: _Scan, norm: str, p: int) -> bool:
        """Whether a set-up phrase and its size stand right before ``norm[p]`` (``batch 1 加速``)."""
        k = bisect_right(sc.setup_ends, p) - 1
        return k >= 0 and _SETUP_THEN_NUMBER.fullmatch(norm, sc.setup_ends[k], p) is not None

    def _free_number(self, sc: _Scan, norm: str, a: int, b: int) -> bool:
        """A free-standing number in ``norm[a:b]`` that is no set-up size: the clause rule does
        not reach over another figure, but a set-up size is a condition of the figure, not
        another one (``TTFT 在 32K 上下文下为 0.5 s``: 0.5 s is the TTFT)."""
        for m in _FREE_DIGIT.finditer(norm, a, b):
            n = _SIZE_NUMBER.match(norm, m.start())
            if (n is None or not sc.setup_starts or self._setup_at(sc, norm, m.start(), n.end()) is None) \
                    and _DEVICE_NUMBER.match(norm, m.start()) is None:
                return True
        return False

    def cell_metric(self, cell: str) -> str | None:
        """The one metric a table cell names (``KV 显存`` → memory, ``HF votes`` → votes,
        ``TTFT (ms)`` → ttft), or None when it names none or several (``吞吐 / 延迟``). Date
        metrics and set-up sizes are no column metric.

        :param cell: a header cell or a metric column's cell, as written.
        """
        got = self._cells.get(cell, _UNSEEN)
        if got is _UNSEEN:
            found = set(self._scan(normalise(cell), DATE_METRICS).metrics)
            got = found.pop() if len(found) == 1 else None
            if len(self._cells) < _FOUND_MAX:
                self._cells[cell] = got
        return got  # type: ignore[return-value]

    def table_metrics(self, header: Sequence[str], cells: Sequence[str]) -> list[str | None]:
        """Per cell of a table body row, the metric the table gives its values (issue 8), or None.

        * a column headed 指标 / metric / measure (:data:`METRIC_COLUMN_HEADERS`, any case):
          the metric its cell names (:meth:`cell_metric`) is the metric of the row's other
          cells (``| 对象 | 指标 | 数值 |`` over ``| TurboKV | KV 显存 | 16.4 GB → 4.1 GB |``);
        * a header cell that names a metric (``HF votes``, ``TTFT``, ``吞吐 (tok/s)``) gives
          it to its own column, before the row's metric column does.

        The cells of the metric column itself get none. Callers give the metric only to
        numbers that have none of their own (a set-up size such as ``32K 上下文`` keeps its).

        :param header: the table's header cells (may be empty).
        :param cells: the row's cells.
        :returns: one entry per cell of ``cells``.
        """
        if not header:
            return [None] * len(cells)
        by_header = [self.cell_metric(h) for h in header]
        mcol = next((k for k, h in enumerate(header) if _phrase_key(h) in METRIC_COLUMN_HEADERS), None)
        row = self.cell_metric(cells[mcol]) if mcol is not None and mcol < len(cells) else None
        return [None if k == mcol else (by_header[k] if k < len(by_header) and by_header[k] else row)
                for k in range(len(cells))]


METRIC_COLUMN_HEADERS: frozenset[str] = frozenset(_phrase_key(h) for h in METRIC_COLUMN_WORDS)
"""Header names of a table column whose cells name the metric of their row (folded, no spaces)."""

DEFAULT_VOCAB: MetricVocab
"""The built-in vocabulary, for callers without a ``kb.yaml``; built on first use (``__getattr__``): an import
for the Attributor's set-up tokens builds no trie of phrases (~5 ms of ``kb claims --subject``)."""


def __getattr__(name: str) -> MetricVocab:
    """:data:`DEFAULT_VOCAB`, built on first use and then kept as the module's global."""
    if name == "DEFAULT_VOCAB":
        vocab = globals()["DEFAULT_VOCAB"] = MetricVocab()
        return vocab
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

