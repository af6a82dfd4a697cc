"""Words around a number that change what it says: a bound (``至少``, ``up to``, ``以内``), a
figure or table number before it (``Fig. 7``, ``表 2``), a decrease word that makes a
percentage negative (``下降 0.27``), a change A → B (``从 3.1 提到 4.4``), a product name before
it (``RTX 5090``). Rules over text folded by :func:`kb.extract.numbers._fold`, used by
:func:`kb.extract.quantities.find_quantities`; the words are data in :mod:`kb.extract.vocab.quantities`.
"""

from __future__ import annotations

import re

from kb.core.claims import Quantity
from kb.extract.fold import lower_same_length
from kb.extract.metrics import MetricVocab
from kb.extract.numbers import _ARROW, _TO_VERB
from kb.extract.vocab.metrics import METRIC_UNITS, PERCENTILE
from kb.extract.vocab.quantities import (
    BOUND_AFTER_WORDS,
    BOUND_PARTICLES_ZH,
    BOUND_VERBS_ZH,
    BOUND_WORDS_EN,
    BOUND_WORDS_ZH,
    CHANGE_WORDS_EN,
    NOUN_GAP_STOPS_EN,
    NOUN_GAP_STOPS_ZH,
    CHANGE_WORDS_ZH,
    DECREASE_AFTER_WORDS,
    DECREASE_WORDS_EN,
    DECREASE_WORDS_ZH,
    LEVEL_BOUND_WORDS_EN,
    METRIC_MODIFIERS_EN,
    METRIC_MODIFIERS_ZH,
    NEUTRAL_WORDS_EN,
    NEUTRAL_WORDS_ZH,
    RANGE_WORDS_EN,
    REF_WORDS_EN,
    REF_WORDS_ZH,
)
from kb.perf.caseless import lowered, may_lower
from kb.perf.literals import literal_hint

# An upper-case word and one space before a bare number: a product name (RTX 5090, PRO 6000).
# (look-behind after the first letter: re skips to capitals; the same matches as a leading one)
_NAME_BEFORE = re.compile(r"([A-Z](?<![A-Za-z0-9_][A-Z])[A-Z]+)[ \t]$")


def _may_follow_name(norm: str, s: int) -> bool:
    """Whether ``_NAME_BEFORE`` can match ``norm[:s]``: a capital, then a space or tab, then
    the end (``$`` also matches before a final newline)."""
    c = norm[s - 1] if s else ""
    if c == "\n":
        s -= 1
        c = norm[s - 1] if s else ""
    return (c == " " or c == "\t") and s >= 3 and "A" <= norm[s - 2] <= "Z"



_DECREASE_WORD = re.compile(
    "|".join(DECREASE_WORDS_ZH) + r"|(?<![A-Za-z])(?:" + "|".join(DECREASE_WORDS_EN) + r")(?![A-Za-z])",
    re.IGNORECASE,
)
# What may follow a decrease word before the number (besides one metric phrase): no increase
# word, no 至/到/"to" (下降到 30% is a level, not a change).
# A bound word may stand there too (``降低超 60%``, ``下降不到 5%``, ``drops by under 1%``): the one
# bound vocabulary; an English level word (under, below, above, within) only after "by" (``falls
# below 5%`` is the level reached).
_BOUND_EN_CHANGE = tuple(w for k in BOUND_WORDS_EN.values() for w in k if w not in LEVEL_BOUND_WORDS_EN)
_NEUTRAL_GAP = re.compile(
    r"(?:[\s*_~≈:=]|" + "|".join(dict.fromkeys((*NEUTRAL_WORDS_ZH, *(w for k in BOUND_WORDS_ZH.values() for w in k))))
    + r"|(?<![A-Za-z])(?:by[ \t]+(?:" + "|".join(LEVEL_BOUND_WORDS_EN) + ")|"
    + "|".join((*NEUTRAL_WORDS_EN, *_BOUND_EN_CHANGE, "between")) + r")(?![A-Za-z])|介于)*+",
    re.IGNORECASE,
)
_DECREASE_AFTER = re.compile(r"[ \t*_]{0,3}(?:" + "|".join(DECREASE_AFTER_WORDS) + r")(?![A-Za-z])", re.IGNORECASE)
_OF_AFTER = re.compile(r"[ \t*_]{0,3}(?:的[ \t]?)?")
_DECREASE_AFTER_PHRASE = re.compile(
    r"[ \t]?(?:" + "|".join(DECREASE_WORDS_ZH) + r"|(?:" + "|".join(DECREASE_AFTER_WORDS) + r")(?:s)?(?![A-Za-z]))",
    re.IGNORECASE)
_WORD_REDUCTION = re.compile(r"[ \t]+[A-Za-z][A-Za-z-]*[ \t]+(?:reduction|decrease|drop)s?(?![A-Za-z])", re.IGNORECASE)
_DECREASE_LOOKBACK = 56
#: Words one of which every match of _DECREASE_WORD holds (so of _REF_BEFORE and _BOUND_BEFORE below),
#: and a copy of them for lower-cased text (kb.perf.caseless: IGNORECASE cannot skip ahead): _hinted
_DECREASE_HINT = literal_hint([_DECREASE_WORD])
_DECREASE_HINT_LOW = lowered(_DECREASE_HINT)
# Words that qualify a metric phrase between a decrease word and its number ("reduces decoding
# latency by 20%", "cuts the end-to-end TTFT by 27%", "降低解码延迟 20%"): passed over like
# neutral words. Set-up and stage words only: never a verb, so "reduces memory and raises
# throughput by 20%" stays an increase.
_METRIC_MODIFIERS = re.compile(
    "|".join(METRIC_MODIFIERS_ZH) + r"|(?<![A-Za-z])(?:" + "|".join(METRIC_MODIFIERS_EN) + r")(?![A-Za-z-])",
    re.IGNORECASE,
)
_PERCENTILE = re.compile(rf"(?<![A-Za-z0-9])(?:{PERCENTILE})(?![A-Za-z0-9])", re.IGNORECASE)
_HEDGE = r"[ \t*_]*(?:约|大约|近|(?<![A-Za-z])(?:about|around|approximately|nearly)(?![A-Za-z])|~|≈)?[ \t*_]*"


#: Nouns around a metric phrase after a decrease word, naming what the metric is of: one or two
#: English words before it (``cuts attention latency by 22%``) or after it (``reduces memory usage
#: by 30%``), or a run of up to six ideographs before it (``降低注意力延迟 22%``); never a word of
#: :data:`~kb.extract.vocab.quantities.NOUN_GAP_STOPS_EN`, a stop character of ``NOUN_GAP_STOPS_ZH``
#: or a change word (``reduces memory and raises throughput by 20%`` stays an increase).
_NOUN_EN = (r"(?<![A-Za-z])(?!(?:" + "|".join(dict.fromkeys((*NOUN_GAP_STOPS_EN, *NEUTRAL_WORDS_EN, *LEVEL_BOUND_WORDS_EN,
                                                          *(w for ws in BOUND_WORDS_EN.values() for w in ws))))
            + r")(?![A-Za-z0-9-]))[a-z][a-z0-9-]*")
_NOUNS_BEFORE_METRIC = re.compile(r"(?:" + _NOUN_EN + r"[ \t]+){1,2}$|(?<![\u4e00-\u9fff])(?:(?![" + NOUN_GAP_STOPS_ZH
                                  + r"])[\u4e00-\u9fff]){1,6}$")
_NOUNS_OBJECT = re.compile(r"[ \t]*(?:(?:" + _NOUN_EN + r"[ \t]+){1,2}|(?:(?![" + NOUN_GAP_STOPS_ZH
                           + r"])[\u4e00-\u9fff]){1,6}(?![\u4e00-\u9fff]))")
_NOUNS_AFTER_METRIC = re.compile(r"(?:[ \t]+" + _NOUN_EN + r"){1,2}(?=[ \t])")
_CHANGE_WORD = re.compile("|".join((*CHANGE_WORDS_EN, *CHANGE_WORDS_ZH)))

_FROM = re.compile(rf"(?:(?<![A-Za-z])from|从|由){_HEDGE}$", re.IGNORECASE)
# A change word before "from" in its clause: "raises … from 3.1 to 4.4" is a change, "models from
# 400 million to 8B parameters" a range.
_CHANGE_BEFORE = re.compile(
    "(?:" + "|".join(CHANGE_WORDS_ZH) + r"|(?<![A-Za-z])(?:" + "|".join(CHANGE_WORDS_EN) + r")(?![A-Za-z]))"
    r"[^,，;；。!?！？:：|()\n]{0,48}$",
    re.IGNORECASE,
)
_RANGE_BEFORE = re.compile(r"(?<![A-Za-z])(?:" + "|".join(RANGE_WORDS_EN) + r")[ \t]+$", re.IGNORECASE)
#: Between the two ends of a change A → B (after at most 24 characters of the clause: ``from 90
#: ms in 2024 to 35 ms``): an arrow, a change verb with 到/至/为, or 到/至/to (then see _is_transition).
_TRANSITION_RE = re.compile(
    rf"[^，,；;。！？!?|\n]{{0,24}}?(?:{_ARROW}|{_TO_VERB}|(?P<to>到|至|(?<![A-Za-z])to(?![A-Za-z]))){_HEDGE}"
    r"(?:(?<![A-Za-z])(?:under|below|less than|over|above|more than)[ \t]+|不到|不足|超过)?",  # to under 1 second: B keeps its bound
    re.IGNORECASE,
)


def _is_transition(norm: str, a: int, gap: int, b: int, units: bool) -> bool:
    """Whether the number at ``norm[a:]`` and the one at ``norm[b:]`` are a change A → B, the one
    rule (issue 9): ``norm[gap:b]`` is an arrow (``→``, ``->``, ``➝``) or a change verb with
    到/至/为 (``提到``, ``降至``, ``缩短到``, ``变为``); or it is 到/至/to after from/从/由 before A
    and ``units`` (a unit written on both ends: ``from 73.97% to 80.14%``) or a change word
    before that (``raises … from 3.1 to 4.4 tokens``). Otherwise ``A to B`` is a range (``from 400
    million to 8B parameters``, ``3 到 6 个月``)."""
    t = _TRANSITION_RE.fullmatch(norm, gap, b)
    if t is None:
        return False
    if t["to"] is None:
        return True
    f = _FROM.search(norm, max(0, a - 12), a)
    if f is None or _RANGE_BEFORE.search(norm, max(0, f.start() - 16), f.start()):
        return False  # ranging from 1.2x to 2.1x: a range
    return units or _CHANGE_BEFORE.search(norm, max(0, f.start() - 64), f.start()) is not None


# A figure, table, section, equation or step number, and what is before a list number.
_REF_BEFORE = re.compile(
    r"(?:(?<![A-Za-z])(?:" + "|".join(REF_WORDS_EN) + r")\.?|" + "|".join(REF_WORDS_ZH) + r")[ \t]*[(\[]?$",
    re.IGNORECASE,
)
_REF_HINT = literal_hint([_REF_BEFORE])
_REF_HINT_LOW = lowered(_REF_HINT)


def _bound_group(kind: str) -> str:
    """The named group of one bound kind: its zh words and symbols, then its English words."""
    return (f"(?P<{kind}>" + "|".join(BOUND_WORDS_ZH[kind])
            + r"|(?<![A-Za-z])(?:" + "|".join(BOUND_WORDS_EN[kind]) + "))")


# Bounds written before the number (directly, with spaces or emphasis between) and after it.
_BOUND_BEFORE = re.compile(
    "(?:" + "|".join(_bound_group(k) for k in ("ge", "le", "gt", "lt", "approx")) + ")(?:" + "|".join(BOUND_PARTICLES_ZH)
    + r")?[ \t*_]*"
    # a verb may stand between the bound and its number: 至少减少 7 倍, 不到 … 降低, at least by 3×
    # or the baseline of "A 至少是 B 的 N 倍", "超过 B 的 N 倍" (A is at least / more than N times B;
    # B holds no number of its own, digits inside a name such as H100 aside)
    r"(?:(?:只|仅)?(?:" + "|".join(BOUND_VERBS_ZH) + r")了?|每秒|(?:是|为|达到?)?(?:[^，。；,;！？!?\n\d]|(?<=[A-Za-z\d.-])\d){1,30}?的"
    r"|(?<![A-Za-z])(?:by|cut(?:s|ting)? by|reduc(?:es|ed|ing) by))?[ \t]*$",
    re.IGNORECASE,
)
#: Bound words one of which every match of _BOUND_BEFORE contains (most numbers have none).
_BOUND_HINT = literal_hint([_BOUND_BEFORE])
_BOUND_HINT_LOW = lowered(_BOUND_HINT)
_BOUND_AFTER = re.compile(r"[ \t]*(?:" + "|".join(f"(?P<{k}>" + "|".join(w) + ")" for k, w in BOUND_AFTER_WORDS.items()) + ")")
_BOUND_OF = {"ge": "≥", "le": "≤", "gt": ">", "lt": "<", "approx": "~"}
#: What may end a match of _BOUND_BEFORE, [ \t*_] left out: the last character of a bound word
#: or of a verb after it (any letter: ASCII words fold case), or of a symbol. A number whose
#: text before ends otherwise ("吞吐 2.03×") has no bound before it: the search is skipped.
_BOUND_LAST_CJK = "少于过多高到足为约概近低升加短快降缩超逾出达了有秒的"
_BOUND_LAST_SYMBOLS = "=≥⩾≤⩽><~≈."
#: The same for _REF_BEFORE (" \t([." left out): a letter of a word, or 表 图 式 节 骤 录 章.
_REF_LAST_CJK = "表图式节骤录章"


def _last_char(norm: str, lo: int, s: int, skip: str) -> str:
    """The last character of ``norm[lo:s]`` not in ``skip``; "" when there is none."""
    while s > lo and norm[s - 1] in skip:
        s -= 1
    return norm[s - 1] if s > lo else ""


def _may_end_bound(c: str) -> bool:
    """Whether ``c`` (see :func:`_last_char`) can end a match of _BOUND_BEFORE."""
    return (c.isalpha() and (c < "\u2e80" or c in _BOUND_LAST_CJK)) or (c != "" and c in _BOUND_LAST_SYMBOLS)


def _may_end_ref(c: str) -> bool:
    """Whether ``c`` (see :func:`_last_char`) can end a match of _REF_BEFORE."""
    return c.isalpha() and (c < "\u2e80" or c in _REF_LAST_CJK)


def _ref_before(norm: str, s: int) -> bool:
    """Whether a figure, table, section … word stands before the number at ``norm[s:]``
    (_REF_BEFORE in the 12 characters before it, searched only when its last character can
    end one)."""
    lo = max(0, s - 12)
    i = s
    while i > lo and norm[i - 1] in " \t([.":
        i -= 1
    return i > lo and _may_end_ref(norm[i - 1]) and (_REF_HINT is None or _hinted(_REF_HINT, _REF_HINT_LOW, norm, lo, s)) \
        and _REF_BEFORE.search(norm, lo, s) is not None
_BOUND_LOOKBACK = 40


def _bound_after(norm: str, e: int) -> str | None:
    """The bound written right after the number ending at ``norm[e]`` (``以内``, ``以上``, ``左右``), or None."""
    m = _BOUND_AFTER.match(norm, e)
    return None if m is None else _BOUND_OF[next(k for k, v in m.groupdict().items() if v is not None)]


def _hinted(hint: re.Pattern[str], low_hint: re.Pattern[str] | None, norm: str, lo: int, s: int) -> bool:
    """Whether ``hint`` (literals, ignoring case) is found in ``norm[lo:s]``: ``low_hint``
    (:func:`kb.perf.caseless.lowered`) searched in the text lower-cased when it may be (same answer)."""
    global _LOWERED
    if _LOWERED[0] is not norm:
        _LOWERED = (norm, lower_same_length(norm) if may_lower(norm) else None)
    low = _LOWERED[1]
    return (hint.search(norm, lo, s) if low is None or low_hint is None else low_hint.search(low, lo, s)) is not None


_LOWERED: tuple[str | None, str | None] = (None, None)
"""The last text :func:`_hinted` asked of, lower-cased (None: search it as it is). One tuple:
replaced whole; it holds the text, so an ``is`` test cannot meet another string at a reused id."""


def _bound(norm: str, s: int, e: int) -> str | None:
    """The bound written with the number at ``norm[s:e]``, or None (see Quantity.bound)."""
    lo = max(0, s - _BOUND_LOOKBACK)
    m = _BOUND_BEFORE.search(norm, lo, s) if _may_end_bound(_last_char(norm, lo, s, " \t*_")) and (
        _BOUND_HINT is None or _hinted(_BOUND_HINT, _BOUND_HINT_LOW, norm, lo, s)) else None
    if m is None:
        m = _BOUND_AFTER.match(norm, e)
    if m is None:
        return None
    return _BOUND_OF[next(k for k, v in m.groupdict().items() if v is not None)]



def _decreased(norm: str, s: int, e: int, vocab: MetricVocab) -> bool:
    """Whether a decrease word governs the unsigned number at ``norm[s:e]``.

    Before it, in the same clause: 下降/降低/减少/缩短/减小, drop(s/ped), decrease(s/d),
    reduce(s/d), reduction, lower(s/ed), down, cut(s), then at most one metric phrase and
    neutral words (约, 仅, 了, by, of, about, a percentile p50/p99 …) and words qualifying the
    metric (:data:`_METRIC_MODIFIERS`: decoding, end-to-end, 解码 …): ``准确率仅下降 0.27``,
    ``降低延迟 30%``, ``reduces TTFT by 30%``, ``cuts p99 TTFT by 27%``, ``reduces decoding
    latency by 20%``. After it:
    lower/less/fewer/smaller/reduction/decrease/drop (``30% lower latency``). Not after 至/到/"to" (``下降到 30%`` is the level reached).
    """
    last = None
    lo = max(0, s - _DECREASE_LOOKBACK)
    for last in (_DECREASE_WORD.finditer(norm, lo, s) if _DECREASE_HINT is None
                 or _hinted(_DECREASE_HINT, _DECREASE_HINT_LOW, norm, lo, s) else ()):
        pass
    if last is not None:
        # a percentile (p99) before the metric phrase is part of it: "cuts p99 TTFT by 27%"
        gap = lower_same_length(_PERCENTILE.sub("", norm[last.end():s]))
        p = vocab.pattern.search(gap)
        if p is None:  # "reduces communication overhead by 25%", "降低通信开销 25%": the nouns are what decreases
            rest = _METRIC_MODIFIERS.sub("", gap)
            if (nouns := _NOUNS_OBJECT.match(rest)) is not None and _CHANGE_WORD.search(nouns.group()) is None:
                rest = rest[nouns.end():]
        else:  # "cuts attention latency by 22%": one or two nouns may name what the metric is of
            head = _METRIC_MODIFIERS.sub("", gap[:p.start()])
            if (nouns := _NOUNS_BEFORE_METRIC.search(head)) is not None and _CHANGE_WORD.search(nouns.group()) is None:
                head = head[:nouns.start()]
            tail = gap[p.end():]
            if (nouns := _NOUNS_AFTER_METRIC.match(tail)) is not None and _CHANGE_WORD.search(nouns.group()) is None:
                tail = tail[nouns.end():]
            rest = head + _METRIC_MODIFIERS.sub("", tail)
        if _NEUTRAL_GAP.fullmatch(rest):
            return True
    if _DECREASE_AFTER.match(norm, e) is not None:
        return True
    # 34% 的延迟降低, 41% energy reduction: the decrease word after 的 and one metric phrase
    if _WORD_REDUCTION.match(norm, e) is not None:
        return True
    m = _OF_AFTER.match(norm, e)
    p = vocab.pattern.match(lower_same_length(norm[m.end():m.end() + 40])) if m else None
    return p is not None and p.end() > 0 and _DECREASE_AFTER_PHRASE.match(norm, m.end() + p.end()) is not None


def transitions(norm: str, out: list[Quantity]) -> list[Quantity]:
    """``out`` (a text's quantities, in text order) with the two ends of every change A → B
    (:func:`_is_transition`: ``从 2.1% 降到 0.4%``, ``3.1 → 4.4``, ``from 90 ms in 2024 to 35 ms``) marked ``from`` and ``to``: adjacent quantities of
    one unit and at most one metric; the metric word stands once, and both ends have it. Then a
    number of a metric counted in one unit (:data:`~kb.extract.vocab.metrics.METRIC_UNITS`) written
    without one gets it."""
    for i in range(1, len(out)):
        a, b = out[i - 1], out[i]
        if a.unit != b.unit or (a.metric and b.metric and a.metric != b.metric) \
                or not _is_transition(norm, a.start, a.end, b.start, a.unit is not None):
            continue
        metric = a.metric or b.metric
        out[i - 1] = a.model_copy(update={"metric": metric, "transition": a.transition or "from"})
        out[i] = b.model_copy(update={"metric": metric, "transition": "to"})
    for i, q in enumerate(out):
        if q.unit is None and q.metric in METRIC_UNITS:
            out[i] = q.model_copy(update={"unit": METRIC_UNITS[q.metric]})
    return out
