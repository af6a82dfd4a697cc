"""Quantities written with Chinese numerals or Chinese number words around digits (issue 21):
``百分之三十七点二``, ``六百多万``, ``负2.4%``, ``３万２千５百``, ``８成``, ``翻两番``, ``快了一倍``,
``零下12摄氏度``, ``三分之二``, a time and a half (``1个半小时``, ``两个半月``, ``一年半``, ``三天半``:
cn2an reads no 半); and the English forms the main pattern of
:mod:`kb.extract.numbers` does not hold (``10- to 20-ms``, ``1 1/2 hours``, ``-5C``, ``$1.2 per
GPU-hour to $2.1 per GPU-hour``).

:func:`more_quantities` is called by :func:`kb.extract.quantities.find_quantities` after its own
pass, on the same folded text: a form found here replaces the quantities it contains when it is
longer (``负2.4%`` over ``2.4%``, ``3万2千5百`` over ``3万2千``) and is dropped when it overlaps any
other. Precision first: a Chinese numeral is a number only with a unit, a percent or ratio word,
a sign word (``负``, ``零下``), ``百分之``/``分之``, or, when it has a magnitude (``三千二百``), a metric
word right beside it (the bare rule of the main pass). So words that hold numeral characters
(``一些``, ``统一``, ``一般``, ``两岸``, ``四川``, ``万一``, ``一直``) give none, a lone ``一`` gives none
(``一天``, ``一次``, ``一周``: idiom more than measure), a numeral before a counter (``三个``,
``两种``) gives none, and so does a time in numerals (``每两周发版``, ``三天后``: a schedule, not a
measurement; ``2 周`` in digits is read).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache

from kb.core.claims import Quantity
from kb.extract.bind import _ACCELERATOR, _DEVICE_COUNTERS
from kb.extract.en_quantities import _unit_after, en_forms
from kb.extract.metrics import SETUP_METRICS, MetricVocab, _Scan
from kb.extract.number_words import _bound, _decreased
from kb.extract.numbers import (
    _MAG,
    _NUM,
    _UNIT,
    _canonical,
    _number,
    _pint_unit,
    _unit_of,
)
from kb.extract.vocab.metrics import DATE_METRICS
from kb.extract.vocab.quantities import (
    BETWEEN_AND,
    BETWEEN_CLOSE,
    BETWEEN_OPEN,
    HALF_AFTER_UNITS,
    HALF_BEFORE_UNITS,
    HALF_SCHEDULE_AFTER,
    HALF_VERBS,
    ONE_TIMES_VERBS,
    TIMES_WORDS_EN,
)
from kb.extract.vocab.units import COUNTERS
from kb.extract.scores import find_scores
from kb.extract.zh_numerals import ZH_DIGITS, ZH_POINT, zh_value
from kb.perf.led import led_matches
from kb.perf.models import built

_ZH = rf"[{ZH_DIGITS}十][{ZH_DIGITS}十百千万亿萬億]*(?:[{ZH_POINT}][{ZH_DIGITS}]+)?"
# digits and magnitudes, then the numerals of the places below the last (100万三千, 1亿两千万, 3万零五)
_MIX = (r"\d+(?:\.\d+)?(?:[十百千万亿萬億零]+(?:\d+(?:\.\d+)?(?![\d年月日号]|[ \t][万亿萬億]))?)*"
        r"(?:(?:(?<=[万亿萬億])|(?<=[万亿萬億]零))(?:[一二两兩三四五六七八九][十百千])+[一二两兩三四五六七八九]?[万萬]?"
        r"|(?<=[万亿萬億]零)[一二两兩三四五六七八九])?")
# after 百分之/千分之 (and a sign): digits grouped in threes or with a magnitude letter (百分之1,200, 百分之3.2k)
_PCT_NUM = (r"(?:(?<=分之)|(?<=分之[ \t负-])|(?<=分之[ \t][负-]))"
            r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])|\d+(?:\.\d+)?(?=[kKM]))(?:[kKM](?![A-Za-z0-9_]))?")
_ZH_QTY_RE = re.compile(
    rf"(?<![几数第{ZH_POINT}A-Za-z0-9_.{ZH_DIGITS}十百千万亿萬億廿卅卌兆])"  # 点五 is half a point, no 5; 廿五, 兆五 no 5
    rf"(?:(?P<pre>负|零下|(?P<neg>负[ \t]?)?[百千]分之|翻了?)[ \t]?"
    rf"(?P<sign>(?:(?<=分之)|(?<=分之[ \t]))[负-](?=[\d{ZH_DIGITS}十]))?)?"  # 百分之负十, 负百分之十: −10 %
    rf"(?P<num>(?P<grp>{_PCT_NUM})|{_ZH}|{_MIX})(?:分之(?P<num2>{_ZH}|{_MIX}))?"
    r"(?P<more>(?<=\d)[ \t]?(?:多|余)|多|余)?(?P<mag>[万亿萬億]+)?(?P<unit>(?<=\d)[ \t]成|成|番|倍)?"
)
#: Where a match of _ZH_QTY_RE may start (its first characters, led by one class, its look-behind
#: after it: re skips to one in C; _ZH_QTY_RE, led by a look-behind, gives it no first character).
_ZH_QTY_START = re.compile(rf"[负零百千翻十{ZH_DIGITS}\d](?<![几数第A-Za-z0-9_.{ZH_DIGITS}十百千万亿萬億].)")
#: Where :func:`_zh_forms` looks: :data:`_ZH_QTY_START` but ASCII digits alone (``2.5`` before no digit,
#: point or Chinese part: a numeral, 分之, 多/余, a magnitude, 成/番/倍): their match is the main pass's,
#: :func:`_zh_one` reads none, and no other start is inside it (most numbers of a text: not looked at).
_ZH_FORM_START = re.compile(_ZH_QTY_START.pattern
                            + r"(?!(?<=[0-9])[0-9]*(?:\.[0-9]+)?(?![\d.]|[ \t]?[十百千万亿萬億零分多余成番倍]))")
#: Only a text with one of these characters can hold a form of this module (a cheap test: a
#: yes or no, its match is never read). One class, each form told by a look-behind: re skips in C
#: to such a character. The class holds the character that ends each form's hint, not the digit or
#: letter that starts it (digits and d/t/q are many, these few): a numeral character, a magnitude
#: after a digit (``3万``, ``3 千``), ``doubl``, ``tripl``, ``quadrupl``.
ZH_HINT = re.compile(rf"[{ZH_DIGITS}十负成番倍分万亿萬億千百余多l](?:(?<=[{ZH_DIGITS}十负成番倍分])"
                     r"|(?<=\d[万亿萬億千百余多])|(?<=\d[ \t][万亿萬億千百余多])"
                     r"|(?<=[Dd]oubl)|(?<=[Tt]ripl)|(?<=[Qq]uadrupl))")
_UNIT_AT = re.compile(_UNIT)
_PLAIN = re.compile(r"\d+(?:\.\d+)?[千万亿]?")
_ONE_TIMES = re.compile("(?:" + "|".join(ONE_TIMES_VERBS) + r")了?[ \t]?(?P<one>一倍)|(?P<fan>翻倍)")
_HALF = re.compile("(?:" + "|".join(HALF_VERBS) + r")(?:了|掉)?[ \t]?(?P<half>一半)")
_IDEOGRAPH_AFTER = re.compile(r"[\u4e00-\u9fff](?<![的以之左内多])")
_TEMPERATURE = frozenset({"°C", "°F"})
# between 40 and 55 ms, 介于 40 和 55 ms 之间: a range opened by a word, its unit on either end
_BETWEEN = re.compile(r"(?:(?<![A-Za-z])(?P<open>" + "|".join(BETWEEN_OPEN) + r"))[ \t]*(?P<a>" + _NUM + ")(?P<ma>"
                      + _MAG + ")?")
_BETWEEN_AND = re.compile(r"[ \t]*(?:" + "|".join(re.escape(w) for w in BETWEEN_AND) + r")(?![A-Za-z])[ \t]*(?P<b>"
                          + _NUM + ")(?P<mb>" + _MAG + ")?")
_BETWEEN_CLOSE = re.compile(r"[ \t]*(?:" + "|".join(BETWEEN_CLOSE) + ")")
_TIMES_WORD = re.compile(r"(?<![A-Za-z])(?:" + "|".join(f"(?P<t{i}>{w})" for i, w in enumerate(TIMES_WORDS_EN))
                         + r")(?![A-Za-z])", re.IGNORECASE)
_TIMES_VALUES = tuple(TIMES_WORDS_EN.values())
# a time and a half (cn2an reads no 半): N 个半 unit (1个半小时, 两个半月), N unit 半 (一年半, 三天半);
# never every so often (每两个半小时) nor a point in time (三天半后) nor an idiom (一年半载)
_HALF_TIME = re.compile(
    rf"(?<![几数第每A-Za-z0-9_.{ZH_DIGITS}十百千万亿萬億])(?P<num>{_ZH}|\d+)[ \t]?(?:个半(?P<a>"
    + "|".join(HALF_BEFORE_UNITS) + ")|(?P<b>" + "|".join(sorted(HALF_AFTER_UNITS, key=len, reverse=True))
    + ")半)(?![ \t]?(?:" + "|".join(HALF_SCHEDULE_AFTER) + "))")


def more_quantities(text: str, norm: str, out: list[Quantity], skip: Sequence[tuple[int, int]],
                    scan: _Scan | None, vocab: MetricVocab) -> list[Quantity]:
    """``out`` (the main pass's quantities of ``text``, in text order) with the forms of this
    module merged in, in text order. ``norm`` is ``text`` folded as the main pass reads it;
    ``skip`` spans (ids, dates, URLs) hold none."""
    found: list[dict] = []
    if not norm.isascii() and ZH_HINT.search(norm):
        found += _zh_forms(norm, {q.start: q.end for q in out})
    if not norm.isascii():
        found += find_scores(norm)
    found += en_forms(norm, [(q.start, q.end) for q in out if q.unit == "s"])
    if "oubl" in norm or "ripl" in norm or "uadrupl" in norm:  # throughput doubled: 2×, beside its metric
        found += [{"start": m.start(), "end": m.end(), "unit": "×", "bare": True,
                   "value": _TIMES_VALUES[int(next(k for k, v in m.groupdict().items() if v)[1:])]}
                  for m in _TIMES_WORD.finditer(norm)]
    if "半" in norm:  # 1个半小时, 一年半: 1.5 h, 1.5 years
        found += _half_times(norm)
    if "between" in norm or "介于" in norm or "之间" in norm:
        found += [f for m in _BETWEEN.finditer(norm) if (f := _between(norm, m)) is not None]
    if not found:
        return out
    for f in sorted(found, key=lambda f: (f["start"], -f["end"])):
        s, e = f["start"], f["end"]
        if any(a < e and s < b for a, b in skip):
            continue
        if f.get("drop") or not all(math.isfinite(x) for x in (f.get("value"), f.get("low"), f.get("high")) if x is not None):
            out = [q for q in out if not (s <= q.start and q.end <= e)]
            continue  # 1亿亿…亿 (41 of them) overflows a float: no figure, nor any part of it
        inside = [q for q in out if s <= q.start and q.end <= e]
        if any(q.start < e and s < q.end and q not in inside for q in out) or \
                any(q.start == s and q.end == e for q in inside):
            continue  # overlaps a quantity it does not hold, or says no more than it
        base = inside[0] if inside else None
        unit = f["unit"]
        resolved = None
        if f.get("bare") == "size":  # 吞吐 1.2 K, cost 1.2 M.; 8 K context, 3 B params (a size word after it)
            scan = scan or vocab._scan(norm, DATE_METRICS)
            resolved = vocab._resolve(scan, norm, s, e, unit)
            if resolved[1] != "setup" and not (resolved[1] == "before" and f["closed"]):
                continue  # 吞吐 3 B 组, throughput 3 B vs 5 A, 图 3 B 吞吐: a label's letter, no magnitude
        if f.get("score"):
            metric, bound, qualifier = None, None, None
        elif base is not None and (base.metric is not None or (base.unit == unit and not f.get("range"))):
            metric, bound, qualifier = base.metric, f.get("bound") or base.bound, base.qualifier
        elif base is not None:  # 2千 read alone had no unit: 2千零50 tok/s is a throughput
            if scan is None:
                scan = vocab._scan(norm, DATE_METRICS)
            metric, bound, qualifier = vocab._resolve(scan, norm, s, e, unit)[0], f.get("bound") or base.bound, None
        else:
            if scan is None:
                scan = vocab._scan(norm, DATE_METRICS)
            metric, how, k = resolved or vocab._resolve(scan, norm, s, e, unit)
            if f.get("bare") is True and how not in ("before", "after"):
                continue  # a bare number: only with its metric word beside it (三千二百 名用户 is no figure; a size: asked above)
            bound, qualifier = f.get("bound") or _bound(norm, s, e), None
        if f.get("bare") == "size" and metric in SETUP_METRICS and metric not in ("params", "context_length"):
            continue  # a count has no magnitude set apart: 并发 16 B is set-up B (the 16 stays), batch 8 K none
        value, low, high = f["value"], f.get("low"), f.get("high")
        if unit in ("%", "pp") and not f.get("signed") and ((value or 0) > 0 or (low or 0) > 0) \
                and _decreased(norm, s, e, vocab):
            value, low, high = (-value, None, None) if value is not None else (None, -high, -low)
        out = [q for q in out if q not in inside]
        out.append(built(Quantity, raw=text[s:e], value=value, low=low, high=high, unit=unit, metric=metric,
                         bound=bound, qualifier=qualifier, subject=None, start=s, end=e, mood=None,
                         transition=None))
    out.sort(key=lambda q: q.start)
    return out


def _half_times(norm: str) -> list[dict]:
    """The times and a half of ``norm`` (:data:`_HALF_TIME`: ``1个半小时`` → 5,400 ``s``, ``两个半月``,
    ``一年半``, ``三天半``), in ``s`` as the main pass stores a time (a month 1/12 of a Julian year)."""
    got: list[dict] = []
    for m in _HALF_TIME.finditer(norm):
        try:
            n = zh_value(m["num"]) if not m["num"].isdigit() else float(m["num"])
        except ValueError:
            continue
        conv = _canonical(HALF_BEFORE_UNITS[m["a"]] if m["a"] else HALF_AFTER_UNITS[m["b"]])
        if conv is not None:
            got.append({"start": m.start(), "end": m.end(), "value": conv.apply(n + 0.5), "unit": conv.unit})
    return got


def _zh_forms(norm: str, read: dict[int, int]) -> list[dict]:
    """The Chinese forms in ``norm``: fields ``start``, ``end``, ``value``, ``unit``, ``bound``,
    ``signed`` (canonical units, as the main pass stores them). ``read`` maps the start of each
    quantity the main pass read to its end: a form of digits it read whole is not read again
    (``25万6千``: no cn2an import for it)."""
    got: list[dict] = []
    for m in _ONE_TIMES.finditer(norm) if "倍" in norm else ():  # 快了一倍, 提升一倍, 翻倍: doubled (docs/claims.md)
        got.append({"start": m.start("one") if m["one"] else m.start(), "end": m.end(), "value": 2.0, "unit": "×"})
    if "一半" in norm:
        for m in _HALF.finditer(norm):  # 减少了一半: a change of 50 % (the decrease word signs it)
            got.append({"start": m.start("half"), "end": m.end(), "value": 50.0, "unit": "%"})
    for m in led_matches(_ZH_FORM_START, _ZH_QTY_RE, norm):
        if read.get(m.start(), -1) >= m.end() and not norm.startswith("倍半", m.end() - 1):
            continue
        f = _zh_one(m, norm)
        if f is not None:
            got.append(f)
        elif m["num2"] is not None:  # 5分之3 read as no figure: nor is its 5 (the main pass read it alone)
            got.append({"start": m.start(), "end": m.end(), "drop": True})
    return got


def _zh_one(m: re.Match[str], norm: str) -> dict | None:
    """Fields of one match of _ZH_QTY_RE, or None when it is no quantity."""
    pre, num, num2, more, mag, word = m["pre"], m["num"], m["num2"], m["more"], m["mag"], m["unit"]
    spaced = word is not None and word[0] in " \t"  # 3 成: 30 %, but never before another word (2 成员)
    word = word.strip() if word else word
    digits = num[0].isdigit()
    if digits and not (pre or num2 or more or mag or word) and _PLAIN.fullmatch(num):
        return None  # digits, or digits and one magnitude (2千): the main pass reads them
    if not digits and num == "一" and not (pre in ("百分之", "千分之", "负") or num2 or word == "番"):
        return None  # 一些, 统一, 一天, 一次: a lone 一 is idiom more than measure
    if pre and pre.startswith("翻") and word != "番":
        return None
    negative = m["neg"] is not None or m["sign"] is not None  # 负百分之十, 百分之负十, 百分之-10.1
    if pre and pre.endswith("分之"):
        if m["neg"] is not None and m["sign"] is not None:
            return None  # 负百分之负十: a slip, not a figure
        pre = pre[-3:]
    try:
        if m["grp"] is not None:  # 百分之1,200, 百分之3.2k: the number as the main pass reads it
            if not pre:
                return None  # (digits after a fraction's 分之: the main pass's)
            value = _number(None, num.rstrip("kKM"), num[-1] if num[-1] in "kKM" else None)
        else:
            value = zh_value(num)
        if num2 is not None:
            if value == 0:
                return None  # 0分之3: no part of nothing (a slip, not a figure)
            value = zh_value(num2) / value  # 三分之二: two of three parts
    except ValueError:
        return None
    if mag:
        value = zh_value(f"1{mag}") * value
    s, e = m.start(), m.end()
    if pre in ("百分之", "千分之"):
        if word or num2:
            return None
        if pre == "千分之":
            value /= 10
        return {"start": s, "end": e, "value": float(f"{-value if negative else value:.12g}"), "unit": "%",
                "bound": ">" if more else None, "signed": negative}
    if word == "番":
        if not (pre and pre.startswith("翻")) or not 0 < value <= 64:
            return None  # 翻9999番 is no figure (2^9999 overflows; the field doubles a few times at most)
        return {"start": s, "end": e, "value": 2.0 ** value, "unit": "×"}
    if word == "成":
        if (not digits or spaced) and _IDEOGRAPH_AFTER.match(norm, e) and not _listed(norm, e):
            return None  # 八成是: probably
        return {"start": s, "end": e, "value": float(f"{value * 10:.12g}"), "unit": "%"}
    if word == "倍":
        if pre or num2 or num == "一":
            return None
        if norm.startswith("半", e):  # 两倍半: 2.5×
            value, e = value + 0.5, e + 1
        return {"start": s, "end": e, "value": value, "unit": "×", "bound": ">" if more else None}
    unit = None
    conv = None
    u = _UNIT_AT.match(norm, e)
    if u is not None:
        unit = _unit_of(u.group())
        if unit in _DEVICE_COUNTERS and not digits and (acc := _ACCELERATOR.match(norm, u.end())) \
                and acc.group().strip() != "卡":
            return {"start": s, "end": u.end(), "value": float(value), "unit": unit}  # 两张 A100 (not 两张卡: cards)
        if (unit in COUNTERS and not digits) or unit == "×" or unit is None:
            return None  # 三个, 两种: a count of things, not a figure; x and × are the main pass's
        e = u.end()
        if not digits and _IDEOGRAPH_AFTER.match(norm, e) and not _listed(norm, e, u.group().lstrip(" \t")):
            return None  # 三元组, 两米高: a word that holds a numeral and a unit character (五美元和三美元: a list)
    elif not digits and norm[e:e + 1].isascii() and norm[e:e + 1].isalpha():
        return None  # 支柱二rl: a numeral glued to letters is part of a name
    elif digits and (p := _pint_unit(norm, e)) is not None:
        conv, e = p
        unit = conv.unit
    if pre == "零下":
        if unit is None and norm.startswith("度", e):
            unit, e = "°C", e + 1
        if unit not in ("°C", "°F") and (conv is None or conv.unit not in _TEMPERATURE):
            return None
        value = -value
    elif pre == "负":
        value = -value
    elif pre:
        return None
    if unit is None and not (mag or more or any(c in num for c in "十百千万亿萬億")):
        return None  # a lone digit-numeral with no unit (三, 两): no figure
    conv = conv or _canonical(unit)
    if not digits and conv is not None and conv.unit == "s":
        return None  # 每两周发版, 三天后: a schedule written in words, not a measurement
    if conv is not None:
        unit = conv.unit
        value = conv.apply(value)
    return {"start": s, "end": e, "value": float(f"{value:.12g}"), "unit": unit, "bound": ">" if more else None,
            "signed": pre in ("负", "零下"), "bare": unit is None and (not digits or not (mag or any(c in num for c in "十百千万亿萬億")))}


#: 和/与/及/、 and another number with the same word after it (``七成和八成``, ``3 成和 4 成``,
#: ``五美元和三美元``: a list, as ``七成、八成`` is; ``八成和他有关`` is none).
_NEXT_ITEM = rf"[ \t]*(?:和|与|及|、)[ \t]*(?:{_ZH}|\d+(?:\.\d+)?)[ \t]?"


@lru_cache(maxsize=64)
def _next_item(word: str) -> re.Pattern[str]:
    return re.compile(_NEXT_ITEM + re.escape(word))


def _listed(norm: str, e: int, word: str = "成") -> bool:
    """Whether the number and ``word`` (成, a unit as written) ending at ``norm[e]`` is one of a list whose last
    item no word follows (``两成、三成和四成``, ``五美元和三美元``; ``三元和四元组`` is none)."""
    nxt = _next_item(word)
    while (n := nxt.match(norm, e)) is not None:
        e = n.end()
        if not _IDEOGRAPH_AFTER.match(norm, e):
            return True
    return False


def _between(norm: str, m: re.Match[str]) -> dict | None:
    """The range of one match of _BETWEEN (``between 40 and 55 ms``: low 0.04, high 0.055 ``s``), or
    None: a unit on the second end (or on the first only, with 之间 after the second) applies to
    both, units on both ends must agree; ``在`` needs 之间; no unit, no range."""
    ua = _unit_after(norm, m.end(), ratio=True)
    j = _BETWEEN_AND.match(norm, ua[2] if ua else m.end())
    if j is None or (m["ma"] and not j["mb"]):
        return None
    ub = _unit_after(norm, j.end(), ratio=True)
    e = ub[2] if ub else j.end()
    close = _BETWEEN_CLOSE.match(norm, e)
    if (ua and ub and ua[0] != ub[0]) or (m["open"] == "在" and close is None) or not (ub or (ua and close)):
        return None
    unit, conv = (ub or ua)[0], (ub or ua)[1]
    a, b = _number(None, m["a"], m["ma"] or j["mb"]), _number(None, j["b"], j["mb"])
    if conv is not None:
        a, b = conv.apply(a), conv.apply(b)
    return {"start": m.start("a"), "end": e, "value": None, "low": min(a, b), "high": max(a, b), "unit": unit,
            "range": True}
