"""Find quantities written in text (``2.03×``, ``−67.6%``, ``73.6%–77.1%``, ``1,300 万``) and parse numbers."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate

from kb.core.claims import Quantity
from kb.extract import units as _units
from kb.extract.metrics import (
    _FOLD,
    _FOLD_RE,
    DATE_METRICS,
    DEFAULT_VOCAB,
    METRIC_UNITS,
    MetricVocab,
    _Scan,
    lower_same_length,
    normalise,
)
from kb.perf.literals import literal_hint
from kb.perf.models import built

# Everything below runs on text folded by metrics.normalise (same length, same offsets):
# ASCII digits, '-' for U+2212, ',' '.' '%' '(' ':' for their full-width forms.

# Multipliers, as powers of ten (magnitudes are exact: 6.2k is float("6.2e3"), not 6.2 * 1000).
_MAG_EXP = {
    "k": 3, "K": 3, "M": 6, "B": 9, "T": 12, "千": 3, "万": 4, "百万": 6, "千万": 7, "亿": 8, "万亿": 12,
    "thousand": 3, "million": 6, "billion": 9, "trillion": 12,
}

# Written unit → normalised unit. CJK and symbols need no word boundary after them.
_CJK_UNITS = {
    "个百分点": "pp", "百分点": "pp", "%": "%", "倍": "×",
    "个月": "month", "小时": "h", "分钟": "min", "毫秒": "ms", "微秒": "us", "秒": "s", "天": "day", "周": "week",
    "行代码": "LoC", "行": "LoC", "美元": "$", "元": "¥", "个 tokens": "tokens", "个 token": "tokens", "个tokens": "tokens", "个token": "tokens",
}
# CJK counters (量词): "<integer> <counter>" is a count with the counter as its unit (16 张).
_COUNTER_CHARS = "张件条个篇家项台次种款位名卡轮"
_COUNTERS = frozenset(_COUNTER_CHARS)
# ASCII units, matched case-insensitively, as whole words.
_ASCII_UNITS_CI = {
    "pp": "pp", "p.p.": "pp", "percentage points": "pp", "percentage point": "pp", "percent": "%",
    "tok/s": "tok/s", "tokens/s": "tok/s", "tokens/sec": "tok/s", "token/s": "tok/s",
    "tokens per second": "tok/s", "t/s": "tok/s", "tps": "tok/s", "req/s": "req/s", "qps": "req/s", "rps": "req/s",
    "kb": "KB", "mb": "MB", "gb": "GB", "tb": "TB", "kib": "KiB", "mib": "MiB", "gib": "GiB", "tib": "TiB",
    "mb/s": "MB/s", "gb/s": "GB/s", "tb/s": "TB/s", "gbps": "Gbps",
    "gflops": "GFLOPS", "tflops": "TFLOPS", "pflops": "PFLOPS", "ghz": "GHz",
    "loc": "LoC", "lines of code": "LoC", "lines": "LoC", "tokens": "tokens", "token": "tokens",
    "bits": "bit", "bit": "bit",
    "seconds": "s", "second": "s", "secs": "s", "sec": "s", "minutes": "min", "minute": "min", "mins": "min",
    "hours": "h", "hour": "h", "hrs": "h", "days": "day", "day": "day", "weeks": "week", "week": "week",
    "months": "month", "month": "month",
}
# ASCII units whose case matters (MS, H are not units; M is a magnitude).
_ASCII_UNITS_CS = {"ms": "ms", "us": "us", "μs": "us", "µs": "us", "ns": "ns", "s": "s", "min": "min", "h": "h"}
_UNIT_OF = {**_CJK_UNITS, **{c: c for c in _COUNTERS}, **_ASCII_UNITS_CS, "×": "×", "x": "×", "X": "×"}


def _alt(forms: Sequence[str]) -> str:
    """Regex alternation of literal forms, longest first."""
    return "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))


_W = "(?![A-Za-z0-9_])"  # end of an ASCII word
_NUM = r"(?>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?![\d]|[.,]\d)"
_MAG = rf"[kKMBT]{_W}|[ \t]?(?:万亿|百万|千万|万|亿|千)|[ \t](?i:thousand|million|billion|trillion){_W}"
# x/X only glued to the number (8 x A100 is a product); × not before a digit (2×10 is arithmetic).
# The case-insensitive units all start with a letter: the look-ahead (?i:[a-z]) is the union of
# their first characters, so that re skips their ~60 alternatives at once before anything else
# (it tries a literal alternative only when its first character is there, but enters every
# case-insensitive one; the unit is tried up to four times per number as the range backtracks).
_UNIT = (
    rf"[xX]{_W}|[ \t]?(?:{_alt(list(_CJK_UNITS))}|×(?!\d)|[{_COUNTER_CHARS}]"
    rf"|(?=(?i:[a-z]))(?i:{_alt(list(_ASCII_UNITS_CI))}){_W}|(?:{_alt(list(_ASCII_UNITS_CS))}){_W})"
)
# An accelerator model glued after × (8×H200, 4×A100, 2×MI300X, 8×B200): a device count.
_HARDWARE_RE = re.compile(r"(?:[A-Z]{1,3}\d{2,4}[A-Z]?|RTX|TPU|GPU)", re.ASCII)
# The rest of a mixed Chinese number after 万 or 亿 (C22: 3万4000, 25万6千, 1亿5000万).
_TAIL = r"(?<=[万亿])\d{1,4}(?:[千百]|(?<=\d)万(?!亿))?(?![\d.,])"
# A change verb ending in 到/至/为 between two numbers (提到, 降至, 缩短到): A → B (see _is_transition).
_TO_VERB = (r"(?:提升|提高|增加|增长|上升|下降|降低|减少|缩短|缩小|压缩|扩大|提|降|升|增|减|涨|跌)(?:到|至|为)"
            r"|变为|变成")
_ARROW = r"→|->|➝|⟶|➔"
_SEP = rf"[ \t]?(?:[-–—~]|至|到)[ \t]?|[ \t]to[ \t]|[ \t]*(?:{_ARROW})[ \t]*|[ \t]?(?:{_TO_VERB})[ \t]?"
# Not a quantity when glued to an identifier, version, section or path: a letter, digit, '.',
# '§', '#', '@', '\', 'x/' or 'x-' (GPT-5.6, Qwen3-32B, v0.5.16, §2.13, C116, paper_cards/681,
# 2026-03-21's "-03"), after "1," (a broken thousands group), after 第 (an ordinal), after ±.
_LEAD = r"(?<![A-Za-z0-9_.§#@^\\])(?<![A-Za-z0-9_][/\-])(?<!\d,)(?<!§ )(?<!第)(?<!第 )(?<!±)"
_QTY_RE = re.compile(
    r"(?=[-+$¥\d])"  # cheap first test, before the lookbehinds
    + _LEAD
    + rf"(?P<sign>[-+])?(?P<cur>[$¥])?(?P<n1>{_NUM})(?P<m1>{_MAG})?(?P<tail>{_TAIL})?"
    + rf"(?:(?P<u1>{_UNIT})?(?P<sep>{_SEP})"
    + rf"(?P<sign2>[-+])?(?P<cur2>[$¥])?(?P<n2>{_NUM})(?P<m2>{_MAG})?(?P<u2>{_UNIT})?"
    + rf"|(?P<pm>[ \t]?±[ \t]?{_NUM})?(?P<u>{_UNIT})?)"
    + r"(?P<plus>\+(?![\d+]))?"
)
_PARSE_RE = re.compile(
    r"\s*(?P<sign>[-+])?(?P<n>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)"
    r"\s*(?P<m>万亿|百万|千万|[kKMBT千万亿]|(?i:thousand|million|billion|trillion))?\s*"
)
_ASCII_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
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


_GLUED_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")
_DECREASE_WORD = re.compile(
    r"下降|降低|减少|缩短|减小"
    r"|(?<![A-Za-z])(?:drop(?:s|ped)?|decrease[sd]?|reduce[sd]?|reduction|lower(?:s|ed)?|down|cut(?:s)?)(?![A-Za-z])",
    re.IGNORECASE,
)
# What may follow a decrease word before the number (besides one metric phrase): no increase
# word, no 至/到/"to" (下降到 30% is a level, not a change).
_NEUTRAL_GAP = re.compile(
    r"(?:[\s*_~≈:=]|约为|约|仅|了|高达|达|超过|近|平均|均|分别为|分别"
    r"|(?<![A-Za-z])(?:by|of|about|around|approx\.?|approximately|only|just|nearly|over)(?![A-Za-z]))*+",
    re.IGNORECASE,
)
_DECREASE_AFTER = re.compile(
    r"[ \t*_]{0,3}(?:lower|less|fewer|smaller|reduction|decrease|drop)(?![A-Za-z])", re.IGNORECASE
)
_DECREASE_LOOKBACK = 56
# Words that qualify a metric phrase between a decrease word and its number ("reduces decoding
# latency by 20%", "cuts the end-to-end TTFT by 27%", "降低解码延迟 20%"): passed over like
# neutral words. Set-up and stage words only: never a verb, so "reduces memory and raises
# throughput by 20%" stays an increase.
_METRIC_MODIFIERS = re.compile(
    r"解码|推理|预填充|端到端|首\s*token|尾部"
    r"|(?<![A-Za-z])(?:the|its|their|mean|median|average|avg|overall|end-to-end|e2e|decoding|decode|prefill"
    r"|first-token|per-token|tail|inference|serving|generation)(?![A-Za-z-])",
    re.IGNORECASE,
)
_PERCENTILE = re.compile(r"(?<![A-Za-z0-9])[pP]\d{2,3}(?:\.\d)?(?![A-Za-z0-9])")
_HEDGE = r"[ \t*_]*(?:约|大约|近|(?<![A-Za-z])(?:about|around|approximately|nearly)(?![A-Za-z])|~|≈)?[ \t*_]*"


def _fold(text: str) -> str:
    """``text`` folded as the rules below read it, in one pass, offsets kept: a full-width
    comma after anything but a full-width digit ends a clause (``；``: ``3.1 → 4.4，1.38×`` is
    not "4.4,1"), between full-width digits it stays a thousands separator (``１，３００万``);
    then :func:`~kb.extract.metrics.normalise`."""
    if text.isascii():
        return text
    return _FOLD_RE.sub(_fold_one, text)


def _fold_one(m: re.Match[str]) -> str:
    """The folded form of one character :func:`_fold` replaces."""
    c = m.group()
    if c == "，":
        i = m.start()
        return "," if i and "０" <= m.string[i - 1] <= "９" else ";"
    return _FOLD[c]


_FROM = re.compile(rf"(?:(?<![A-Za-z])from|从|由){_HEDGE}$", re.IGNORECASE)
# A change word before "from" in its clause: "raises … from 3.1 to 4.4" is a change, "models from
# 400 million to 8B parameters" a range.
_CHANGE_BEFORE = re.compile(
    r"(?:提升|提高|增加|增长|上升|下降|降低|减少|缩短|缩小|压缩|扩大|改善|变化"
    r"|(?<![A-Za-z])(?:rais(?:e[sd]?|ing)|increas(?:e[sd]?|ing)|improv(?:e[sd]?|ing|ement)|boost(?:s|ed)?|lift(?:s|ed)?"
    r"|grow(?:s|n)?|grew|rise[sn]?|rising|rose|jump(?:s|ed)?|climb(?:s|ed)?|cut(?:s|ting)?|reduc(?:e[sd]?|ing|tion)"
    r"|lower(?:s|ed)?|drop(?:s|ped)?|decreas(?:e[sd]?|ing)|fall(?:s|en)?|fell|shr[iau]nk(?:s)?|shorten(?:s|ed)?"
    r"|change[sd]?|went|goes|gain(?:s|ed)?)(?![A-Za-z]))[^,，;；。!?！？:：|()\n]{0,48}$",
    re.IGNORECASE,
)
#: Between the two ends of a change A → B (after at most 24 characters of the clause: ``from 90
#: ms in 2024 to 35 ms``): an arrow, a change verb with 到/至/为, or 到/至/to (then see _is_transition).
_TRANSITION_RE = re.compile(
    rf"[^，,；;。！？!?|\n]{{0,24}}?(?:{_ARROW}|{_TO_VERB}|(?P<to>到|至|(?<![A-Za-z])to(?![A-Za-z]))){_HEDGE}",
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
    return f is not None and (units or _CHANGE_BEFORE.search(norm, max(0, f.start() - 64), f.start()) is not None)
# kb's own units: never looked up in pint (the field's words, DESIGN.md §2).
_KB_OWN_UNITS = _units.KB_OWN | _COUNTERS
# Any other unit written after a number, for pint (kb.extract.units): letters (µ, Ω, °, ℃
# too) with an optional power (s-1, s⁻¹, m^2), joined by '/', '·', '*' or, when the next
# part has a power, a space (km s-1, erg cm-2 s-1).
_POW = r"(?:\^?-?\d(?!\d)|[⁻¹²³]+)"
_PART = rf"(?:[A-Za-zµμΩ][A-Za-zµμΩ]*|°[CF]|℃){_POW}?"
_PINT_TOKEN = re.compile(rf"[ \t]?(?P<t>{_PART}(?:(?:[/·*]|[ \t](?=[A-Za-zµμ]+{_POW})){_PART})*)(?![A-Za-z0-9_])")
# A figure, table, section, equation or step number, and what is before a list number.
_REF_BEFORE = re.compile(
    r"(?:(?<![A-Za-z])(?:fig(?:ure)?s?|tab(?:le)?s?|sec(?:tion)?s?|eqs?|equations?|alg(?:orithm)?s?|appendix|"
    r"steps?|chapters?|ch|thm|theorem|lemma|def(?:inition)?|ref|no|item|page|p|pp|line)\.?"
    r"|[表图式节]|步骤|公式|附录|章)[ \t]*[(\[]?$",
    re.IGNORECASE,
)
# Bounds written before the number (directly, with spaces or emphasis between) and after it.
_BOUND_BEFORE = re.compile(
    r"(?:(?P<ge>>=|≥|⩾|至少|不少于|不低于|(?<![A-Za-z])at least)"
    r"|(?P<le><=|≤|⩽|不超过|不高于|最多|最高|(?<![A-Za-z])(?:up to|at most|within|no more than))"
    r"|(?P<gt>(?<![-=])>|超过|多于|大于|高于|(?<![A-Za-z])(?:over|more than|greater than|above|exceed(?:s|ing)?))"
    r"|(?P<lt><(?![-=])|不到|不足|少于|小于|低于|(?<![A-Za-z])(?:under|less than|fewer than|below))"
    r"|(?P<approx>(?<![\d~])~|≈|约为|大约|约|大概|(?<!最)近|将近|接近"
    r"|(?<![A-Za-z])(?:about|around|approx\.?|approximately|roughly|nearly|almost|circa)))[ \t*_]*"
    # a verb may stand between the bound and its number: 至少减少 7 倍, 不到 … 降低, at least by 3×
    r"(?:(?:减少|降低|提升|提高|增加|缩短|加快|下降|上升|压缩|(?<![A-Za-z])(?:by|cut(?:s|ting)? by|reduc(?:es|ed|ing) by))[ \t]*)?$",
    re.IGNORECASE,
)
#: Bound words one of which every match of _BOUND_BEFORE contains (most numbers have none).
_BOUND_HINT = literal_hint([_BOUND_BEFORE])
_BOUND_AFTER = re.compile(r"[ \t]*(?:(?P<le>以内|以下|之内)|(?P<ge>以上)|(?P<approx>左右|上下(?!文)))")
_BOUND_OF = {"ge": "≥", "le": "≤", "gt": ">", "lt": "<", "approx": "~"}
#: What may end a match of _BOUND_BEFORE, [ \t*_] left out: the last character of a bound word
#: or of a verb after it (any letter: ASCII words fold case), or of a symbol. A number whose
#: text before ends otherwise ("吞吐 2.03×") has no bound before it: the search is skipped.
_BOUND_LAST_CJK = "少于过多高到足为约概近低升加短快降缩"
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
    return i > lo and _may_end_ref(norm[i - 1]) and _REF_BEFORE.search(norm, lo, s) is not None
_BOUND_LOOKBACK = 16


def _bound(norm: str, s: int, e: int) -> str | None:
    """The bound written with the number at ``norm[s:e]``, or None (see Quantity.bound)."""
    lo = max(0, s - _BOUND_LOOKBACK)
    m = _BOUND_BEFORE.search(norm, lo, s) if _may_end_bound(_last_char(norm, lo, s, " \t*_")) and (
        _BOUND_HINT is None or _BOUND_HINT.search(norm, lo, s)) else None
    if m is None:
        m = _BOUND_AFTER.match(norm, e)
    if m is None:
        return None
    return _BOUND_OF[next(k for k, v in m.groupdict().items() if v is not None)]


def _pint_unit(norm: str, e: int) -> tuple[_units.Canonical, int] | None:
    """A physical or data unit written at ``norm[e:]`` that kb's vocabulary does not know,
    read by pint, and the offset after it; None when the text there is no unit. A lower-case
    ``m`` glued to the number is a million (``5m users``), not a metre: see _single."""
    t = _PINT_TOKEN.match(norm, e)
    if t is None:
        return None
    c = _units.canonical(t["t"])
    return (c, t.end()) if c is not None else None


def _canonical(unit: str | None) -> _units.Canonical | None:
    """pint's canonical form of one of kb's convertible units (ms, GB, month …), else None."""
    if unit is None or unit in _KB_OWN_UNITS:
        return None
    return _units.canonical(unit)


@lru_cache(maxsize=1024)
def _unit_of(written: str | None) -> str | None:
    """Normalised unit of a written unit (leading space allowed), or None (cached: a text
    writes a handful of units again and again, ``%``, ``×``, `` ms``)."""
    if not written:
        return None
    w = written.strip()
    return _UNIT_OF.get(w) or _ASCII_UNITS_CI.get(w.lower())


def _number(sign: str | None, digits: str, mag: str | None) -> float:
    """Value of ``digits`` (thousands separators allowed) times a magnitude, signed."""
    d = digits.replace(",", "") if "," in digits else digits
    if mag:
        mag = mag.strip()
        v = float(f"{d}e{_MAG_EXP.get(mag) or _MAG_EXP[mag.lower()]}")
    else:
        v = float(d)
    return -v if sign == "-" else v


def parse_number(raw: str) -> float:
    """Parse one number as written: sign, thousands separators, decimals, magnitude.

    ``"1,300 万"`` → 13000000.0, ``"−67.6"`` → -67.6, ``"６.２k"`` → 6200.0, ``"2.8T"`` →
    2.8e12, ``"13M"`` → 1.3e7, ``"1.5B"`` → 1.5e9, ``"3 亿"`` → 3e8. Full-width digits and
    U+2212 MINUS SIGN are folded first (C17: ``float("−67.6")`` raises on Python 3.11).
    Magnitudes: k/K 10³, M 10⁶, B 10⁹, T 10¹², 千 10³, 万 10⁴, 百万 10⁶, 千万 10⁷, 亿 10⁸,
    万亿 10¹²; the value is computed in decimal, so ``6.2k`` is exactly 6200.

    :param raw: the number alone; surrounding whitespace is ignored. Units (``%``, ``×``) are
        not part of a number.
    :returns: the value as a float.
    :raises ValueError: ``raw`` is not one number in that form (the message quotes it).
    """
    if not isinstance(raw, str):
        raise ValueError(f"parse_number: expected a string, got {type(raw).__name__}")
    m = _PARSE_RE.fullmatch(normalise(raw))
    if m is None:
        raise ValueError(
            f"not a number: {raw!r}; expected digits with an optional sign, thousands separators "
            "(1,918), decimals and one magnitude (k, M, B, T, 万, 亿), e.g. '−67.6', '1,300 万', '2.5K'"
        )
    return _number(m["sign"], m["n"], m["m"])


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
    for last in _DECREASE_WORD.finditer(norm, max(0, s - _DECREASE_LOOKBACK), s):
        pass
    if last is not None:
        # a percentile (p99) before the metric phrase is part of it: "cuts p99 TTFT by 27%"
        rest = vocab.pattern.sub("", lower_same_length(_PERCENTILE.sub("", norm[last.end():s])), count=1)
        rest = _METRIC_MODIFIERS.sub("", rest)
        if _NEUTRAL_GAP.fullmatch(rest):
            return True
    return _DECREASE_AFTER.match(norm, e) is not None


def find_quantities(
    text: str,
    *,
    skip: Sequence[tuple[int, int]] = (),
    vocab: MetricVocab = DEFAULT_VOCAB,
) -> list[Quantity]:
    """Every quantity written in ``text``, in text order.

    Forms (value / low–high, unit):

    * ratios: ``2.03×``, ``2.03x``, ``2.03X``, ``2.03 倍`` → 2.03 ``×``; ``31×PA`` → 31 ``×``,
      raw ``31×``, qualifier ``PA`` (an ASCII word glued after ``×`` names the baseline);
      an accelerator model glued after ``×`` makes a device count: ``8×H200`` → 8 ``devices``,
      qualifier ``H200``, no metric;
      ``x`` only glued to the number, ``×`` not before a digit (``2×10``);
    * percentages: ``-67.6%``, ``−49.9%``, ``42％``, ``+0.276%``; points: ``0.27 个百分点``,
      ``0.27 pp``, ``0.27 percentage points`` → ``pp``;
    * ranges, separated by ``-``, ``–``, ``—``, ``~``, 至, 到, `` to ``: ``73.6%–77.1%``,
      ``73.6–77.1%``, ``1.29-2.06×``, ``3-6 个月`` → low/high, value None. The unit (and a
      magnitude) written on the second end only applies to both; units written on both ends
      must agree, otherwise the first number stands alone. A leading sign applies to both
      ends unless the second has its own: ``-29-69%`` (a reduction of 29 to 69 %) is
      low -69, high -29. Low ≤ high always. An en or em dash is never a minus (C17).
      a change A → B is no range but two values, ``transition`` ``from`` and ``to``, one metric
      and one unit written on either end (:func:`_is_transition`: ``3.1 → 4.4 个 token``, ``从 120
      降到 80 ms``, ``from 73.97% to 80.14%``, ``raises … from 3.1 to 4.4 tokens``);
    * magnitudes: ``6.2k``, ``13M``, ``1.5B``, ``2.8T``, ``1,300 万``, ``3 亿``, ``400
      million`` (see :func:`parse_number`); ``1,918`` → 1918; ``25+`` → 25 unit ``+`` (at least; the counted
      noun in ``25+ engines`` is not kept: it is not a condition, so not a qualifier);
      ``15%+`` keeps unit ``%``;
    * units: ``tok/s`` (tokens/s, tokens/sec, TPS: ``2.5K TPS`` → 2500 ``tok/s``), ``req/s``,
      ``ms``, ``s``, ``us``, ``min``, ``h``, ``day``, ``week``, ``month``, ``KB``…``TB``,
      ``GB/s``, ``LoC`` (``6.2k LoC``), ``tokens``, ``$``/``¥`` before or 美元/元 after, and
      CJK counters after an integer (``16 张``, ``64 个``: unit is the counter; 张件条个篇家项
      and 台次种款位名卡轮). 年/月/日 are not units: a number before them is a date, found by
      the date extractor. ``±`` and what follows is read over (``73.6±0.5%`` → 73.6 ``%``).

    Not quantities: a number glued to a letter, digit, ``.``, ``§``, ``#``, ``/`` or ``-``
    after a letter (``GPT-5.6``, ``Qwen3-32B``, ``v0.5.16``, ``vLLM 0.26.0``, ``§2.13``,
    ``C116``, ``#15``, ``paper_cards/681``, ``H2``, ``B200``) or followed by letters
    (``4o``); an ordinal after 第; a match overlapping a ``skip`` span. A *bare* number (no
    unit, magnitude, currency, ``+`` or thousands separator) is kept only when a metric
    phrase that is a word stands directly before or after it (``419 HN``, ``HN 419``; not
    ``$`` in ``MAS$^2$``, not a Capitalised title word after it: ``668 Memory for LLMs``),
    and never when it looks like a year (1900–2100), follows an upper-case name word
    (``RTX 5090``), or is a range (``7-31``, ``2023-2024``). So ``增量 1``, ``1.``,
    ``6→5`` and ``2026`` are dropped.

    Signs: a sign written wins (``下降 −67.6%`` is -67.6). An unsigned ``%`` or ``pp`` value
    after a decrease word (下降, 降低, 减少, drop, reduced, lower, down by …) or before
    lower/less/fewer is negative: ``下降 0.27 个百分点`` → -0.27, ``流量下降 73.6%–77.1%``
    → -77.1..-73.6; increase words (提升, 增加, up …) keep it positive. ``×`` and other
    units are never negated.

    Emphasis markers are never part of a quantity (C12: ``**2.03×**加速`` → raw ``2.03×``).

    Issue 8: mixed Chinese numbers (C22: ``3万4000`` → 34000, ``25万6千`` → 256000,
    ``1亿5000万``) and ratios in Chinese numerals (``两倍`` → 2 ``×``, ``二十倍``; not ``一倍``,
    which means doubled after 翻/提升). ``bound`` (:attr:`~kb.core.claims.Quantity.bound`) from the
    words around the number (``>80%``, ``超过``, ``至少 7 倍``, ``32K 以内``, ``约 3 千``, ``up
    to``, ``within`` …). Units that kb's vocabulary does not know are read by pint after the
    number (``W``, ``°C``, ``MPa``, ``keV``, ``km s−1``) and every physical or data unit is
    stored in its canonical unit (:mod:`kb.extract.units`: ``120 ms`` → 0.12 ``s``), except
    false units of this field (``3 B`` params, ``8 K`` context, ``A100``, ``3 PR``, ``the
    1990s``; a glued ``m`` is a million: ``5m users``). A range joins like units only, and a
    year is never its end (``3 days in 2014 to 36 days``). Figure, table, section, equation and
    step numbers (``Fig. 7``, ``Table 3``, ``表 2``, ``图 5``, ``Sec. 4``, ``Eq. (2)``) are none.

    :param text: one claim's text or a whole document; any length.
    :param skip: ``(start, end)`` spans (arXiv ids, dates, URLs …) no quantity may overlap.
    :param vocab: metric vocabulary; ``metric`` is :meth:`MetricVocab.metric_at` (date
        metrics ignored).
    :returns: :class:`~kb.core.claims.Quantity` records; ``start``/``end`` are offsets into
        ``text`` and ``raw`` is ``text[start:end]``.
    """
    norm = _fold(text)
    m = _QTY_RE.search(norm)
    if m is None and "倍" not in norm:
        return []
    spans = sorted(skip) if skip else []
    skip_starts = [a for a, _ in spans]
    skip_maxend = list(accumulate((b for _, b in spans), max)) if spans else []
    scan: _Scan | None = None  # the text's metric phrases, scanned when a number first needs them
    n = len(norm)
    out: list[Quantity] = []
    carry: list | None = None  # B of a change A → B: [its offset, the unit written on A, A kept]
    while m is not None:
        g = m.groupdict()
        s, e = m.start(), m.end()
        next_pos = e
        q: dict | None = None
        pint: _units.Canonical | None = None
        end_of: str | None = None  # "from"/"to": an end of a change A → B read as a pair
        pending, carry = (carry if carry is not None and carry[0] == s else None), None
        if g["sep"] is not None:
            if g["u2"] is None and g["plus"] is None and (found := _pint_unit(norm, e)) is not None:
                pint, e = found
                next_pos = e
                g = {**g, "u2": "\x00pint"}
            q = _range(g, norm, s, m.start("sep"), m.end("sep"), pint)
            if q is _NOT_A_RANGE or q is _TRANSITION:  # the first number alone
                e = next_pos = next(m.end(k) for k in ("u1", "m1", "n1") if g[k] is not None)
                u = g["u1"]
                if q is _TRANSITION:  # A with B's unit when it has none; B next, with A's
                    carry, end_of = [m.end("sep"), u, False], "from"
                    u = u or (None if pint else g["u2"])
                pint = pint if end_of and g["u1"] is None else None
                g = {**g, "u": u, "sep": None, "plus": None}
        elif pending is not None:
            end_of = "to"
            if pending[1] is not None and g["u"] is None and g["plus"] is None and g["pm"] is None:
                g = {**g, "u": pending[1]}
        if g["sep"] is None:
            if g["u"] is None and g["plus"] is None and g["pm"] is None and (found := _pint_unit(norm, e)) is not None:
                if found[0].unit == "m" and norm[e:found[1]] == "m" and (g["cur"] or g["m1"] is None):
                    pint = None  # 5m users, $5m: a million (the field's meaning), handled below
                    if g["m1"] is None:
                        g = {**g, "m1": "M"}
                        e = next_pos = found[1]
                else:
                    pint, e = found
                    next_pos = e
            # a number that starts inside a skip span (an arXiv id, a date …) is dropped below
            # whatever it reads: its fields are not worked out
            i = bisect_right(skip_starts, s)
            q = None if i and skip_maxend[i - 1] > s else _single(g, norm, s, vocab, pint)
        if q is not None and _ref_before(norm, s):
            q = None  # Fig. 7, Table 3, 表 2, Sec. 4, Eq. (2), Step 3
        if q is not None and e < n and norm[e - 1] in _ASCII_ALNUM and norm[e] in _ASCII_ALNUM:
            q = None  # glued to letters: part of an identifier
        if q is not None:
            i = bisect_left(skip_starts, e)
            if i > 0 and skip_maxend[i - 1] > s:
                q = None  # overlaps a skip span
        if q is not None and q.get("unit") == "bit" and not norm[s:e].rstrip("bits").endswith((" ", "\t")):
            q = None  # 2bit / 4-bit quantisation: a width, an adjective; "under 1 bit" per key is a figure
        if q is not None:
            unit, bare, signed = q.pop("unit"), q.pop("bare"), q.pop("signed")
            f = _FROM.search(norm, max(0, s - 12), s) if end_of == "from" else None
            if scan is None:
                scan = vocab._scan(norm, DATE_METRICS)
            metric, how, k = vocab._resolve(scan, norm, f.start() if f else s, e, unit)  # 接受长度从 3.1
            if bare and not (end_of == "to" and pending and pending[2]) \
                    and not _names_bare(how, norm[scan.starts[k]:scan.ends[k]] if k >= 0 else ""):
                q = None
        if q is not None:
            if unit in ("%", "pp") and not signed and end_of is None and _decreased(norm, s, e, vocab):
                if q["value"] is not None:
                    q["value"] = -q["value"]
                else:
                    q["low"], q["high"] = -q["high"], -q["low"]
            bound = "≥" if g["plus"] else (_bound(norm, s, e) if g["sep"] is None else None)
            conv = pint or _canonical(unit)
            if conv is not None:
                unit = conv.unit
                for k in ("value", "low", "high"):
                    if q[k] is not None:
                        q[k] = conv.apply(q[k])
            qualifier = None
            if unit == "×" and norm[e - 1] == "×":
                w = _GLUED_WORD.match(norm, e)
                qualifier = text[w.start():w.end()] if w else None
                if qualifier and _HARDWARE_RE.fullmatch(qualifier):
                    unit, metric = "devices", None  # 8×H200 is eight GPUs, not a speed-up
            out.append(built(Quantity, raw=text[s:e], value=q["value"], low=q["low"], high=q["high"], unit=unit,
                             metric=metric, bound=bound, qualifier=qualifier, subject=None, start=s, end=e, mood=None,
                             transition=None))
            if carry is not None:
                carry[2] = True
        m = _QTY_RE.search(norm, next_pos)
    if "倍" in norm:
        _cjk_ratios(text, norm, out, spans, scan, vocab)
    return _transitions(norm, out) if out else out


def _transitions(norm: str, out: list[Quantity]) -> list[Quantity]:
    """Mark the two ends of every change A → B (:func:`_is_transition`: ``从 2.1% 降到 0.4%``,
    ``3.1 → 4.4``, ``from 90 ms in 2024 to 35 ms``) ``from`` and ``to``: adjacent quantities of
    one unit and at most one metric; the metric word stands once, and both ends have it. Then a
    number of a metric counted in one unit (:data:`~kb.extract.metrics.METRIC_UNITS`) written
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


def _cjk_ratios(text: str, norm: str, out: list[Quantity], skip: Sequence[tuple[int, int]], scan: _Scan | None,
                vocab: MetricVocab) -> None:
    """Add ``两倍``-style ratios (unit ×) to ``out`` in text order, where nothing else is;
    ``scan`` is the text's :meth:`~MetricVocab._scan`, or None when it is not made yet."""
    taken = [(q.start, q.end) for q in out] + list(skip)
    added = False
    for c in _CJK_TIMES_RE.finditer(norm):
        s, e = c.span()
        if any(a < e and s < b for a, b in taken):
            continue
        if scan is None:
            scan = vocab._scan(norm, DATE_METRICS)
        metric = vocab._resolve(scan, norm, s, e, "×")[0]
        out.append(built(Quantity, raw=text[s:e], value=_cjk_value(c["n"]), low=None, high=None, unit="×",
                         metric=metric, bound=_bound(norm, s, e), qualifier=None, subject=None, start=s, end=e,
                         mood=None, transition=None))
        added = True
    if added:
        out.sort(key=lambda q: q.start)


def _names_bare(how: str, phrase: str) -> bool:
    """Whether the phrase that gave a bare number its metric makes it a quantity: it stands
    directly before or after the number, is a word, not a symbol (``MAS$^2$``), and after
    the number is not a Capitalised word (``668 Memory for LLMs`` is a title)."""
    if how not in ("before", "after") or not any(c.isalpha() for c in phrase):
        return False
    return how == "before" or not (phrase[:1].isupper() and any(c.islower() for c in phrase))


def _tail(sign: str | None, tail: str | None) -> float:
    """Value of the rest of a mixed Chinese number (``4000`` of 3万4000, ``6千`` of 25万6千,
    ``5000万`` of 1亿5000万), signed like the number; 0 when there is none."""
    if not tail:
        return 0.0
    exp = {"千": 3, "百": 2, "万": 4}.get(tail[-1], 0)
    v = float(f"{tail.rstrip('千百万')}e{exp}")
    return -v if sign == "-" else v


_CJK_DIGIT = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
# A ratio written in Chinese numerals (C22: 两倍, 十倍, 二十倍): 2–99 before 倍. 一倍 is left out:
# 翻一倍 / 提升一倍 means doubled, so its value is not what it says.
_CJK_TIMES_RE = re.compile(r"(?<![一二两三四五六七八九十百千万亿几数])(?P<n>[一二两三四五六七八九]?十[一二三四五六七八九]?|[二两三四五六七八九])倍")


def _cjk_value(n: str) -> float:
    """``两`` → 2, ``十`` → 10, ``二十`` → 20, ``十五`` → 15, ``三十七`` → 37."""
    if "十" not in n:
        return float(_CJK_DIGIT[n])
    tens, _, ones = n.partition("十")
    return float((_CJK_DIGIT[tens] if tens else 1) * 10 + (_CJK_DIGIT[ones] if ones else 0))


def _single(g: dict, norm: str, s: int, vocab: MetricVocab, pint: _units.Canonical | None = None) -> dict | None:
    """Fields of a single value, or None when it is not a quantity; ``bare`` marks a number
    that counts only with a metric phrase next to it. ``pint`` is a unit pint read after it
    (the value is converted by the caller)."""
    unit = pint.unit if pint is not None else _unit_of(g["u"])
    if unit == "s" and pint is None and g["u"] == "s" and not g["m1"] and g["n1"].isdigit():
        n = g["n1"]
        if (len(n) == 4 and n.endswith("0") and 1900 <= int(n) <= 2100) or (len(n) >= 3 and re.fullmatch(r"10+", n)) or (
            len(n) == 2 and n.endswith("0") and re.search(r"(?:(?<![A-Za-z])the[ \t]+|')$", norm[max(0, s - 5):s], re.I)
        ):
            return None  # the 1990s, the 80s, '90s: a decade; 100s, 1000s: hundreds, thousands
    if unit is not None and unit in _COUNTERS and "." in g["n1"]:
        return None  # "1.5 个" is not a count
    if unit is None and g["cur"]:
        unit = g["cur"]
    if unit is None and g["plus"]:
        unit = "+"
    bare = unit is None and g["m1"] is None and "," not in g["n1"]
    if bare:
        digits = g["n1"]
        if not g["sign"] and digits.isdigit() and len(digits) == 4 and 1900 <= int(digits) <= 2100:
            return None  # a year
        name = _NAME_BEFORE.search(norm, max(0, s - 16), s) if _may_follow_name(norm, s) else None
        if name and vocab.phrase_metric(name.group(1)) is None:
            return None  # RTX 5090, PRO 6000
    tail = g["tail"]
    value = _number(g["sign"], g["n1"], g["m1"]) + (_tail(g["sign"], tail) if tail else 0.0)
    return {"value": value, "low": None, "high": None, "unit": unit, "bare": bare, "signed": bool(g["sign"])}


_NOT_A_RANGE: dict = {}
"""Sentinel of :func:`_range`: the two numbers do not make a range; take the first alone."""
_TRANSITION: dict = {}
"""Sentinel of :func:`_range`: a change A → B; take the first alone, then the second, one unit for both."""


def _range(g: dict, norm: str, start: int, sep_at: int, sep_end: int,
           pint: _units.Canonical | None = None) -> dict | None:
    """Fields of a range; :data:`_NOT_A_RANGE` when the ends disagree (units, magnitude,
    currency) or the first end is a year (``3 days in 2014 to 36 days``: a range joins like
    units only); :data:`_TRANSITION` when the separator at ``norm[sep_at:sep_end]`` makes a
    change A → B (:func:`_is_transition`); None when it is bare (two plain numbers: a date,
    pages, ``7-31``, ``2023-2024``). ``pint`` is a unit pint read after the second end."""
    u1 = _unit_of(g["u1"])
    u2 = pint.unit if pint is not None else _unit_of(g["u2"])
    n1 = g["n1"]
    if u1 is None and not g["m1"] and not g["cur"] and n1.isdigit() and len(n1) == 4 and 1900 <= int(n1) <= 2100 \
            and (u2 is not None or g["m2"]):
        return _NOT_A_RANGE  # a year, then a number with a unit: never one range
    if _is_transition(norm, start, sep_at, sep_end, u1 is not None and u2 is not None):
        return _TRANSITION  # 3.1 → 4.4, 从 3.1 提到 4.4 个 token, raises … from 3.1 to 4.4 tokens: two values
    if (u1 is not None and u1 != u2) or (g["m1"] and not g["m2"]) or (g["cur2"] and not g["cur"]):
        return _NOT_A_RANGE
    unit = u2 or g["cur"]
    if unit is not None and unit in _COUNTERS and ("." in g["n1"] or "." in g["n2"]):
        return None
    if unit is None and not g["m2"] and "," not in g["n1"] + g["n2"]:
        return None
    tail = g["tail"]
    a = _number(g["sign"], g["n1"], g["m1"] or g["m2"]) + (_tail(g["sign"], tail) if tail else 0.0)
    b = _number(g["sign2"] or g["sign"], g["n2"], g["m2"])
    low, high = (a, b) if a <= b else (b, a)
    return {"value": None, "low": low, "high": high, "unit": unit, "bare": False,
            "signed": bool(g["sign"] or g["sign2"])}
