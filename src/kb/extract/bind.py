"""Rules over the quantities of one text, in order (issue 21), after each was read alone:

* :func:`distribute`: a bound or a decrease word before the first of a list of values governs
  every value of the list (``up to 3× and 1.6×``: both ≤; ``P99 分别降低 12% 和 8%``: both
  negative);
* :func:`setups`: set-up counts are set-ups, never results: accelerators (``4 张 A100``, ``4×A100``,
  ``32 卡``: ``gpu_count``), a simulation's length (``模拟 12 周``: ``sim_length``) and a model's size
  written in its name (``Qwen2.5 72B``: ``params``); :data:`kb.extract.metrics.SETUP_METRICS`
  makes them qualifiers, never facts;
* :func:`sentence_metrics`: a number its clause gives no metric takes the one metric its sentence
  names (``Our TPOT rises as the batch doubles, about +9% per doubling``);
* :func:`percentiles`: a percentile word names a latency only when its sentence names no finer
  one (``TTFT 在 100 并发下 P50 为 95 ms``: 95 ms is a TTFT);
* :func:`token_counts`: a count of tokens is no time, rate or size: the metric it took passes to the
  next number of its clause that has none (``latency for a 512-token answer is 6.2 s``).

Called by :func:`kb.extract.quantities.find_quantities` on text folded as it reads it.
"""

from __future__ import annotations

import re

from bisect import bisect_left
from collections.abc import Callable
from itertools import pairwise

from kb.core.claims import Quantity
from kb.extract.metrics import SETUP_METRICS, _WINDOW, _Scan, _in_title
from kb.extract.number_words import _bound, _bound_after
from kb.extract.numbers import parse_number
from kb.extract.vocab.metrics import MODEL_FAMILIES, PERCENTILE, PERCENTILE_OF, SENTENCE_UNITS, SIM_WORDS
from kb.extract.vocab.quantities import ACCELERATOR_MODELS, RESPECTIVELY_AFTER, RESPECTIVELY_BEFORE

#: Between two values of one list: a conjunction, a comma or a slash (emphasis allowed).
_LIST_GAP = re.compile(r"[ \t*_]*(?:和|与|及|以及|、|,|;|/|&|(?<![A-Za-z])(?:and|or)(?![A-Za-z])|,[ \t]*and)[ \t*_]*",
                       re.IGNORECASE)
_SIGNS = "+-−负"
#: Between two values sharing the unit written after the last: a conjunction or a slash, no bare comma
#: (``接受长度 3.1 → 4.4，1.38×``: 4.4 is no ratio) but before values a conjunction joins (``502, 602
#: and 702 tok/s``: :data:`_COMMA_GAP`).
_UNIT_LIST_GAP = re.compile(r"[ \t*_]*(?:和|与|及|以及|、|/|,?[ \t]*(?<![A-Za-z])(?:and|or)(?![A-Za-z]))[ \t*_]*", re.IGNORECASE)
_COMMA_GAP = re.compile(r"[ \t*_]*,[ \t*_]*")
_UNIT_LIST_NEXT = re.compile(r"(?:" + _UNIT_LIST_GAP.pattern + "|" + _COMMA_GAP.pattern + r")(?=\d)", re.IGNORECASE)
_NAME_WORD_BEFORE = re.compile(r"(?<![A-Za-z0-9_])(?=[\w.-]*[A-Z])[A-Za-z][\w.-]*[ \t]$")
#: A number written plainly, digits and separators (a list's unit written once goes to such values).
_PLAIN = re.compile(r"\d[\d,]*(?:\.\d+)?")
#: An accelerator written after a count (4 张 A100, 8 块 H800, 2×MI300X, 8 x RTX 4090, 4 块 4090).
_ACCELERATOR = re.compile(r"[ \t]*(?:" + ACCELERATOR_MODELS + r"|TPU(?:v\d)?|GPUs?|NPUs?|昇腾|卡"
                          r"|[2-5]0[5-9]0(?:[ \t]?Ti)?(?!\d))", re.ASCII)  # 4 块 4090: a consumer card by its number
_DEVICE_COUNTERS = frozenset({"张", "块", "台", "卡"})
_SIM_RE = re.compile("|".join(SIM_WORDS), re.IGNORECASE)
#: A model's name right before a size: a word with letters and digits (Qwen2.5, Llama-3.1, V3) or
#: a model family (Llama, Qwen …), then one space or hyphen.
_NAME_BEFORE = re.compile(
    r"(?:(?<![A-Za-z0-9_])(?=[\w.-]*[A-Za-z])(?=[\w.-]*\d)[A-Za-z][\w.-]*|(?<![A-Za-z])(?:"
    + "|".join(MODEL_FAMILIES) + r"))[ \t-]$",
    re.IGNORECASE,
)
_SIZE_RAW = re.compile(r"\d+(?:\.\d+)?[ \t]?[BM]")
#: A model word after a size (7B的语言模型, 30B 规模模型, 14B 规模的模型, 7B model): a model's size.
_MODEL_AFTER = re.compile(r"[ \t]?(?:的)?[ \t]?(?:规模|参数|级别?|大小)?(?:的)?[ \t]?(?:大?语言|LLM[ \t]?)?(?:模型|models?(?![A-Za-z]))",
                          re.IGNORECASE)
_LIST_SETUPS = frozenset({"params", "context_length"})
#: The end of a sentence: 。!?, a newline, a point not before a digit or a letter (v0.11, llama.cpp).
#: (Each alternative a literal first: re skips in C to the next; a class first, it tried every position.)
_SENTENCE_END = re.compile("|".join(map(re.escape, "。!?！？\n")) + r"|\.(?![\dA-Za-z])")
_SENTENCE_UNIT_ANY = frozenset().union(*SENTENCE_UNITS.values())
#: The end of a clause between two numbers (a token count's metric does not pass it).
_CLAUSE_END = re.compile("|".join(map(re.escape, "，,；;。!?！？\n|")) + r"|\.(?![\dA-Za-z])")
#: Right after a time: per output token (``12 ms per token``, ``12 ms/token``, ``每 token 12 ms`` is a phrase).
_PER_TOKEN = re.compile(r"[ \t]*(?:(?:per|/|an?)[ \t]*(?:output[ \t]+|generated[ \t]+)?tok(?:en)?(?![A-Za-z])|每[ \t]*(?:个[ \t]*)?(?:输出[ \t]*)?token)",
                        re.IGNORECASE)
#: A percentile word alone (p50, P99, p99.9), as :data:`kb.extract.vocab.metrics.BUILTIN_METRICS` lists it.
_PERCENTILE = re.compile(PERCENTILE, re.IGNORECASE)


def shares_unit(norm: str, s: int, e: int) -> bool:
    """Whether the plain number at ``norm[s:e]`` may be one of a list that shares the unit written
    after its last value (``502 and 602 tok/s``): a conjunction, a slash or a comma, then a digit; not
    a decimal right after a name (``SGLang 0.4 and 600 tok/s``: a version). The quantity finder keeps
    such a number with no metric word beside it for :func:`distribute` (``loose``)."""
    if _UNIT_LIST_NEXT.match(norm, e) is None:
        return False
    return "." not in norm[s:e] or _NAME_WORD_BEFORE.search(norm, max(0, s - 40), s) is None


def distribute(norm: str, out: list[Quantity], loose: frozenset[tuple[int, int]] = frozenset()) -> list[Quantity]:
    """``out`` with the bound, the decrease and the metric of a list's first value given to the values
    after it that have none of their own (same unit, joined by 和/与/、/and/or/a comma), and a set-up
    metric or a bound written after its last value given to the values before it (``70亿和130亿的参数``,
    ``95% 和 90% 以上``: both ≥), and so is its unit to plain numbers before it (``300 and 400 ms``: both
    ms, converted alike; ``吞吐 300 和 400 tok/s``; ``502, 602 and 702 tok/s``), whatever word stands
    before them: a number whose ``(start, end)`` is one of ``loose`` (:func:`shares_unit`: no metric
    word beside it) takes the last value's metric too (``they reach 502 and 602 tok/s``: both
    throughput) and is dropped when no unit reaches it (``between 2 and 4 GPUs``: 2 is no figure)."""
    joined: set[int] = set()  # values given the unit of a list after them (a comma may join more before)
    for i in range(len(out) - 1, 0, -1):  # 300 and 400 ms, 吞吐 300 和 400 tok/s: the unit after the last is every value's
        a, b = out[i - 1], out[i]
        if a.unit is None and b.unit is not None and a.value is not None and b.value is not None \
                and _PLAIN.fullmatch(a.raw) and (lead := _PLAIN.match(b.raw)) is not None \
                and (a.metric is None or b.metric is None or a.metric == b.metric) \
                and (_UNIT_LIST_GAP.fullmatch(norm, a.end, b.start) or (i in joined and _COMMA_GAP.fullmatch(norm, a.end, b.start))) \
                and (written := parse_number(lead.group())):
            joined.add(i - 1)
            update = {"unit": b.unit, "value": a.value * (b.value / written)}
            if (a.start, a.end) in loose:
                update["metric"] = a.metric or b.metric
            out[i - 1] = a.model_copy(update=update)
    if loose:
        out = [q for q in out if q.unit is not None or (q.start, q.end) not in loose]
    for i in range(1, len(out)):
        a, b = out[i - 1], out[i]
        if a.unit != b.unit or not _LIST_GAP.fullmatch(norm, a.end, b.start):
            continue
        update: dict = {}
        if b.bound is None and (bound := _bound(norm, a.start, a.start)) is not None:
            update["bound"] = bound  # up to 3× and 1.6×: the bound was written before the first
        if a.unit in ("%", "pp") and a.raw[:1] not in _SIGNS and b.raw[:1] not in _SIGNS \
                and _negative(a) and not _negative(b):
            update.update(value=None if b.value is None else -b.value,
                          low=None if b.high is None else -b.high, high=None if b.low is None else -b.low)
        if b.metric is None and a.metric is not None and a.unit is not None:
            update["metric"] = a.metric  # 压缩到原始大小的43.4%和16.4%: one metric word for the list
        if update:
            out[i] = b.model_copy(update=update)
    after: dict[int, str] = {}  # index -> a bound given from the value after it
    for i in range(len(out) - 1, 0, -1):  # 70亿和130亿的参数: the set-up word after the last is every value's
        a, b = out[i - 1], out[i]
        if a.unit != b.unit or not _LIST_GAP.fullmatch(norm, a.end, b.start):
            continue
        if a.metric is None and b.metric in _LIST_SETUPS:
            out[i - 1] = a = a.model_copy(update={"metric": b.metric})
        if a.bound is None and b.bound is not None and (b.bound == _bound_after(norm, b.end) or b.bound == after.get(i)):
            after[i - 1] = b.bound  # 分别在 300 ms 和 20 ms 以内: the bound after the last is every value's
            out[i - 1] = a.model_copy(update={"bound": b.bound})
    return out


_RESP_BEFORE = re.compile(r"[ \t]*(?:的[ \t]*)?(?:" + "|".join(RESPECTIVELY_BEFORE) + r")[^\d\n,;。，；]{0,8}$")
_RESP_AFTER = re.compile(r"[ \t]*,?[ \t]*(?:" + "|".join(RESPECTIVELY_AFTER) + r")(?![A-Za-z])", re.IGNORECASE)
_RESP_GAP = re.compile(r"[ \t]*(?:(?<![A-Za-z])(?:is|are|was|were|reach(?:es|ed)?|of)(?![A-Za-z])[ \t]*)*$", re.IGNORECASE)


def respectively(norm: str, out: list[Quantity], scan: Callable[[], _Scan]) -> list[Quantity]:
    """``out`` with each value of a list paired in order with the metric words of a list before it
    when ``分别``/``各自`` stands between them or ``respectively`` after the values (``TTFT 和 TPOT 分别在
    300 ms 和 20 ms 以内``: ttft, tpot), as many words as values (units may differ); else unchanged.
    ``scan()`` gives the phrases of ``norm`` (called only when a list has such a word)."""
    i, n = 0, len(out)
    while i < n:
        j = i  # out[i..j] is one list of values
        while j + 1 < n and _LIST_GAP.fullmatch(norm, out[j].end, out[j + 1].start):
            j += 1
        if j > i:
            k = _RESP_AFTER.match(norm, out[j].end)
            lo = max(0, out[i].start - 60)
            r = _RESP_BEFORE.search(norm, lo, out[i].start) if k is None else None
            if k is not None or r is not None:
                sc = scan()
                end = r.start() if r is not None else out[i].start
                ks = [x for x in range(len(sc.ends)) if lo <= sc.starts[x] and sc.ends[x] <= end]
                while len(ks) > j - i + 1:
                    ks = ks[1:]
                if len(ks) == j - i + 1 and all(_LIST_GAP.fullmatch(norm, sc.ends[a], sc.starts[b]) for a, b in pairwise(ks)) \
                        and (r is not None and not norm[sc.ends[ks[-1]]:r.start()].strip(" \t的")
                             or r is None and _RESP_GAP.fullmatch(norm, sc.ends[ks[-1]], out[i].start)):
                    for x, kx in zip(range(i, j + 1), ks):
                        out[x] = out[x].model_copy(update={"metric": sc.metrics[kx]})
        i = j + 1
    return out


def _negative(q: Quantity) -> bool:
    return (q.value is not None and q.value < 0) or (q.high is not None and q.high < 0)


def setups(text: str, norm: str, out: list[Quantity]) -> list[Quantity]:
    """``out`` with its set-up counts marked: ``gpu_count`` (unit ``devices``, the accelerator
    as qualifier), ``sim_length``, ``params``."""
    for i, q in enumerate(out):
        update: dict | None = None
        if q.unit in _DEVICE_COUNTERS or q.unit == "devices":  # whatever metric word is near
            acc = _ACCELERATOR.match(norm, q.end)
            if q.unit == "卡" or q.unit == "devices" or acc is not None:
                update = {"metric": "gpu_count", "unit": "devices"}
                if acc is not None and q.qualifier is None and acc.group().strip() not in ("卡", "GPU", "GPUs"):
                    update["qualifier"] = text[acc.start():acc.end()].strip()
        elif q.unit is None and q.metric != "params" and _SIZE_RAW.fullmatch(q.raw) \
                and (_NAME_BEFORE.search(norm, max(0, q.start - 40), q.start) or (
                    q.raw[-1] == "B" and _MODEL_AFTER.match(norm, q.end))):
            update = {"metric": "params"}  # Qwen2.5 72B: the model's size is part of its name, whatever word is near
        elif q.unit == "s" and q.metric != "sim_length" and _sim_near(norm, q.start, q.end, q.metric is not None):
            update = {"metric": "sim_length"}  # 8 周的模拟里跑了流量回放: the simulation's, not the traffic's
        if update:
            out[i] = q.model_copy(update=update)
    return out


def _sim_near(norm: str, s: int, e: int, adjacent: bool = False) -> bool:
    """Whether a simulation word stands right before (``模拟 12 周``) or after (``12-week
    simulation``, ``12 周的模拟``) the time at ``norm[s:e]``; with ``adjacent`` (the time has a
    metric from a word further off: ``8 周的模拟里跑了流量回放``) only with nothing but spaces, a
    hyphen or 的 between, which beats that metric."""
    before = norm[max(0, s - 8):s]
    after = norm[e:e + 12]
    if _SIM_RE.match(after.lstrip(" \t-的")) is not None:
        return True
    if adjacent:
        return any(before.rstrip(" \t").lower().endswith(w) for w in SIM_WORDS)
    return _SIM_RE.search(before) is not None


def sentence_metrics(norm: str, out: list[Quantity], scan: Callable[[], _Scan]) -> list[Quantity]:
    """``out`` with the metric of its sentence (:func:`_sentence_metric`) given to every number
    with a unit whose clause gave it none (:meth:`kb.extract.metrics.MetricVocab.metric_at`, rules
    0–5); ``scan()`` gives the phrases of ``norm`` (called only when a number may need them)."""
    sc: _Scan | None = None
    for i, q in enumerate(out):
        if q.metric is None and q.unit in _SENTENCE_UNIT_ANY:
            sc = sc or scan()
            if (metric := _sentence_metric(sc, norm, q, [(o.start, o.end, o.unit, o.metric) for o in out])) is not None:
                out[i] = q.model_copy(update={"metric": metric})
    return out


def _sentence_metric(sc: _Scan, norm: str, q: Quantity, others: list[tuple]) -> str | None:
    """The one metric the sentence of ``q`` names (ends: :data:`_SENTENCE_END`) when ``q``'s unit
    may be one of that metric (:data:`SENTENCE_UNITS`; a percentage only written with its sign: a
    change), no other quantity (``others``: start, end, unit, metric) stands between the phrase and
    ``q``, and every quantity of the sentence that has the metric has ``q``'s unit: ``38 ms TPOT
    …, which does not match the 45 ms`` (not ``1.6x throughput with 41% lower energy``). Phrases
    of a condition or a title (rule 5 of ``metric_at``) and sentences naming two metrics give none;
    set-up words and sizes (:data:`~kb.extract.metrics.SETUP_METRICS`: ``at 32 concurrent
    requests``) are conditions, neither a second metric nor a figure between."""
    s, e = q.start, q.end
    if (q.unit == "%" and norm[s] not in "+-") or not sc.starts:
        return None
    a = max([m.end() for m in _SENTENCE_END.finditer(norm, max(0, s - 2 * _WINDOW), s)], default=0)
    b = _SENTENCE_END.search(norm, e)
    b = b.start() if b else len(norm)
    ks = [k for k in range(bisect_left(sc.starts, a), bisect_left(sc.starts, b)) if sc.metrics[k] not in SETUP_METRICS]
    if not ks or len({sc.metrics[k] for k in ks}) != 1 or q.unit not in SENTENCE_UNITS.get(sc.metrics[ks[0]], ()):
        return None  # (before the finer tests below, which only leave phrases out)
    found: dict[str, list[int]] = {}
    for k in ks:
        if not (sc.conditioned(norm, k) or _in_title(norm, sc.starts[k], sc.ends[k])):
            found.setdefault(sc.metrics[k], []).append(k)
    if len(found) != 1:
        return None
    (metric, ks), = found.items()
    if any(m == metric and u != q.unit and a <= x < b for x, _, u, m in others):
        return None
    for k in ks:
        lo, hi = (sc.ends[k], s) if sc.ends[k] <= s else (e, sc.starts[k])
        if not any(lo <= x and y <= hi and m not in SETUP_METRICS for x, y, _, m in others):
            return metric
    return None


def percentiles(norm: str, out: list[Quantity], scan: Callable[[], _Scan]) -> list[Quantity]:
    """``out`` with a latency read from a percentile word (``P50 为 95 ms``) given the finer
    latency (:data:`~kb.extract.vocab.metrics.PERCENTILE_OF`: TTFT, TPOT) that its sentence names
    before that word with no other metric but set-up words between: ``TTFT 据称在 100 并发下 P50 为 95 ms`` is a TTFT
    of 95 ms, as ``P50 TTFT 95 ms`` is. The percentile itself is a condition
    (:mod:`kb.extract.qualifiers`). A latency per output token (``latency is 12 ms per token``,
    ``12 ms/token``) is a TPOT. ``scan()`` gives the phrases of ``norm``."""
    sc: _Scan | None = None
    for i, q in enumerate(out):
        if q.metric != "latency":
            continue
        sc = sc or scan()
        k = bisect_left(sc.ends, q.start + 1) - 1  # the last phrase ending at or before q
        if k < 1 or not _PERCENTILE.fullmatch(norm, sc.starts[k], sc.ends[k]):
            continue
        j = k - 1
        while j >= 0 and (sc.metrics[j] in SETUP_METRICS or (sc.metrics[j] == "latency"
                                                             and _PERCENTILE.fullmatch(norm, sc.starts[j], sc.ends[j]))):
            j -= 1  # over set-up words (100 并发) and other percentiles (P50/P99)
        if j >= 0 and sc.metrics[j] in PERCENTILE_OF and _SENTENCE_END.search(norm, sc.ends[j], sc.starts[k]) is None:
            out[i] = q.model_copy(update={"metric": sc.metrics[j]})
    for i, q in enumerate(out):  # a latency per token is a TPOT (latency is 12 ms per token)
        if q.metric == "latency" and q.unit == "s" and _PER_TOKEN.match(norm, q.end):
            out[i] = q.model_copy(update={"metric": "tpot"})
    return out


def token_counts(norm: str, out: list[Quantity]) -> list[Quantity]:
    """``out`` where a ``tokens`` count that took a metric measured in other units
    (:data:`~kb.extract.vocab.metrics.SENTENCE_UNITS`: a latency, a throughput, a memory) has none,
    and that metric goes to the next number of its clause with no metric whose unit is one of it:
    ``end-to-end latency for a 512-token answer is 6.2 s`` is a latency of 6.2 s, the answer's
    length a condition (the phrase stood right before the count: rule 1 of ``metric_at``)."""
    for i, q in enumerate(out):
        allowed = SENTENCE_UNITS.get(q.metric or "")
        if q.unit != "tokens" or allowed is None or "tokens" in allowed:
            continue
        out[i] = q.model_copy(update={"metric": None})
        for j in range(i + 1, len(out)):
            o = out[j]
            if _CLAUSE_END.search(norm, q.end, o.start):
                break
            if o.metric is None and o.unit in allowed:
                out[j] = o.model_copy(update={"metric": q.metric})
                break
    return out
