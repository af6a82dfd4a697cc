"""Find quantities written in text (``2.03×``, ``−67.6%``, ``73.6%–77.1%``, ``1,300 万``).

:func:`find_quantities` puts together the pattern of a written number (:mod:`kb.extract.numbers`),
the words around it (:mod:`kb.extract.number_words`) and its metric (:mod:`kb.extract.metrics`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import accumulate

from kb.core.claims import Quantity
from kb.extract import units as _units
from kb.extract.bind import distribute, percentiles, respectively, sentence_metrics, setups, shares_unit, token_counts
from kb.extract.en_quantities import EN_HINT
from kb.extract.metrics import _TITLE_AFTER, DEFAULT_VOCAB, MetricVocab, _Scan, _in_title
from kb.extract.number_words import (
    _FROM,
    transitions,
    _NAME_BEFORE,
    _bound,
    _decreased,
    _is_transition,
    _may_follow_name,
    _ref_before,
)
from kb.extract.numbers import (
    _ARROW,
    _TO_VERB,
    _QTY_RE,
    _UNIT_RE,
    _canonical,
    _fold,
    _number,
    _pint_unit,
    _tail,
    _unit_of,
    number_runs,
    per_unit,
)
from kb.extract.overflow import in_range
from kb.extract.vocab.metrics import BUILTIN_METRICS, DATE_METRICS
from kb.extract.vocab.quantities import ACCELERATOR_MODELS
from kb.extract.zh_quantities import ZH_HINT, more_quantities
from kb.extract.vocab.units import COUNTED_NOUNS, COUNTERS, PER_DEVICE_BEFORE, PER_SECOND_BEFORE, PER_STREAM_BEFORE
from kb.perf.models import built

# An accelerator model glued after × (8×H200, 4×A100, 2×MI300X, 8×B200): a device count.
_HARDWARE_RE = re.compile(r"(?:[A-Z]{1,3}\d{2,4}[A-Z]?|RTX|TPU|GPU)", re.ASCII)
_INF = float("inf")
_ASCII_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_VERB_SEP = re.compile(rf"{_TO_VERB}|{_ARROW}")
# batch 32, batch size = 64, 批大小 16: a batch size written right before a bare number is a set-up value
_BATCH_BEFORE = re.compile("(?:" + "|".join(re.escape(p) for p in BUILTIN_METRICS["batch_size"]) + r")[ \t]*[=:：]?[ \t]*$",
                           re.IGNORECASE)
# 并发数（1 到 16）, batch size 1-64: a range of plain numbers right after a concurrency or batch word
_COUNT_SETUP_BEFORE = re.compile(
    "(" + "|".join(re.escape(p) for k in ("concurrency", "batch_size") for p in BUILTIN_METRICS[k]) + r")(?:数|度)?"
    r"[ \t]*[=:：(（]?[ \t]*$", re.IGNORECASE)
# up to 64 frames, across 79 configurations: an English counted noun after a plain integer
_COUNTED = re.compile(r"[ \t]+(?:[A-Z]{2,5}[ \t]+)?(?:" + "|".join(COUNTED_NOUNS) + r")(?![A-Za-z])")
# BLEU（25.3）, F1 (72.4), 困惑度（5.61）: a decimal alone in brackets right after a score's name (an
# ASCII word, a zh word ending in 度/率/分/值) is that score
_BRACKETED_SCORE = re.compile(r"(?<=[A-Za-z0-9度率分值][（(])\d+\.\d+(?=[）)])")
# on 8 H100s, with 2 MI300X: a plain integer before an accelerator's model (not 2 A100 nodes)
_DEVICES_AFTER = re.compile(r"[ \t]+(?:" + ACCELERATOR_MODELS + r")s?(?![A-Za-z0-9-])"
                            r"(?![ \t]+(?:nodes?|servers?|machines?|boxes|clusters?|pods?|instances?|racks?)(?![A-Za-z]))")
_PER_SECOND = re.compile("(?:" + "|".join(PER_SECOND_BEFORE) + r")[ \t]*(?:(?:达到|约|为|有)[ \t]*)?$")
# 每卡吞吐 502 tok/s, throughput per GPU: 509 tok/s: a per-device word in the token rate's clause
_PER_AFTER = re.compile(r"[ \t]*[（(][ \t]*(?:每|单|per[ \t-]?)[ \t]*(?:GPU|卡|张卡|device|card|accelerator)[ \t]*[)）]", re.I)
_PER_BEFORE = re.compile("(?i:(" + "|".join(map(re.escape, PER_STREAM_BEFORE)) + ")|"
                         + "|".join(re.escape(w) for w in PER_DEVICE_BEFORE) + r")[^。；;，,\n|]*$")
_GLUED_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")


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
      million`` (see :func:`~kb.extract.numbers.parse_number`); ``1,918`` → 1918; ``25+`` → 25
      unit ``+`` (at least; the counted noun in ``25+ engines`` is not kept: it is not a
      condition, so not a qualifier); ``15%+`` keeps unit ``%``;
    * units: ``tok/s`` (tokens/s, tokens/sec, TPS: ``2.5K TPS`` → 2500 ``tok/s``), ``req/s``,
      ``ms``, ``s``, ``us``, ``min``, ``h``, ``day``, ``week``, ``month``, ``KB``…``TB``,
      ``GB/s``, ``LoC`` (``6.2k LoC``), ``tokens``, ``$``/``¥`` before (``$ 0.8``) or 美元/元/€ after, and
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
    ``1亿5000万``). Issue 21: Chinese numerals and the words around them (``百分之三十七点二``,
    ``六百多万``, ``8成``, ``负2.4%``, ``两倍``, ``快了一倍`` → 2 ``×``, ``翻两番`` → 4 ``×``) and the
    English forms ``10- to 20-ms``, ``1 1/2 hours``, ``-5C`` are read by
    :func:`kb.extract.zh_quantities.more_quantities`; a list's bound and decrease, and set-up counts,
    by :mod:`kb.extract.bind`. ``bound`` (:attr:`~kb.core.claims.Quantity.bound`) from the
    words around the number (``>80%``, ``超过``, ``至少 7 倍``, ``32K 以内``, ``约 3 千``, ``up
    to``, ``within`` …). Units that kb's vocabulary does not know are read by pint after the
    number (``W``, ``°C``, ``MPa``, ``keV``, ``km s−1``) and every physical or data unit is
    stored in its canonical unit (:mod:`kb.extract.units`: ``120 ms`` → 0.12 ``s``), except
    false units of this field (``3 B`` params, ``8 K`` context, ``A100``, ``3 PR``, ``the
    1990s``; a glued ``m`` is a million: ``5m users``). A range joins like units only, and a
    year is never its end (``3 days in 2014 to 36 days``). Figure, table, section, equation and
    step numbers (``Fig. 7``, ``Table 3``, ``表 2``, ``图 5``, ``Sec. 4``, ``Eq. (2)``) are none.
    A power of ten written out is part of the number (``3.2×10^-2 s`` → 0.032 ``s``); a number no
    float holds (``1e309``, ``1e-400``) is none (:func:`~kb.extract.overflow.out_of_range`). A plain
    integer before an English counted noun is a count (``up to 64 frames``: no unit, no metric), a
    decimal alone in brackets after a score's name a score (``BLEU（25.3）``), a range of plain
    numbers after a concurrency or batch word that set-up (``并发数（1 到 16）``); a headline's
    Capitalised words and currency sign give no metric (``Void $250M Contract``); a number with no
    metric takes its sentence's one metric (:func:`kb.extract.bind.sentence_metrics`).

    :param text: one claim's text or a whole document; any length.
    :param skip: ``(start, end)`` spans (arXiv ids, dates, URLs …) no quantity may overlap.
    :param vocab: metric vocabulary; ``metric`` is :meth:`MetricVocab.metric_at` (date
        metrics ignored).
    :returns: :class:`~kb.core.claims.Quantity` records; ``start``/``end`` are offsets into
        ``text`` and ``raw`` is ``text[start:end]``.
    """
    norm = _fold(text)
    m = _QTY_RE.search(norm)
    if m is None and not ZH_HINT.search(norm) and not EN_HINT.search(norm):
        return []
    spans = sorted([*skip, *number_runs(norm)])  # 1 2 3 tok/s: no number (kb.extract.numbers.number_runs)
    skip_starts = [a for a, _ in spans]
    skip_maxend = list(accumulate((b for _, b in spans), max)) if spans else []
    scan: _Scan | None = None  # the text's metric phrases, scanned when a number first needs them
    n = len(norm)
    out: list[Quantity] = []
    loose: set[tuple[int, int]] = set()  # bare numbers kept for a unit written after a list (kb.extract.bind.distribute)
    carry: list | None = None  # B of a change A → B: [its offset, the unit written on A, A kept]
    while m is not None:
        g = m.groupdict()
        s, e = m.start(), m.end()
        next_pos = e
        q: dict | None = None
        pint: _units.Canonical | None = None
        end_of: str | None = None  # "from"/"to": an end of a change A → B read as a pair
        said = False  # a change A → B written out in words (the bare rule does not apply to A)
        pending, carry = (carry if carry is not None and carry[0] == s else None), None
        setup: str | None = None  # the set-up word of a range of plain numbers (并发数（1 到 16）)
        if g["sep"] is not None:
            if g["u2"] is None and g["plus"] is None and (found := _pint_unit(norm, e)) is not None:
                pint, e = found
                next_pos = e
                g = {**g, "u2": "\x00pint"}
            elif g["u2"] is not None and (per := per_unit(norm, e, _unit_of(g["u2"]))) is not None:
                if per[0] is None:  # 1-3 h/s: a unit per a unit kb does not store, no quantity
                    m = _QTY_RE.search(norm, per[1])
                    continue
                pint, e = per  # 1-3 GB/h: a data rate
                next_pos = e
                g = {**g, "u2": "\x00pint"}
            q = _range(g, norm, s, m.start("sep"), m.end("sep"), pint)
            if q is None and not (g["u1"] or g["u2"] or g["cur"]) and not (g["n1"].isdigit() and 1900 <= int(g["n1"]) <= 2100) \
                    and (w := _COUNT_SETUP_BEFORE.search(norm, max(0, s - 16), s)) is not None:
                lo, hi = sorted((_number(g["sign"], g["n1"], None), _number(g["sign2"], g["n2"], None)))
                q = {"value": None, "low": lo, "high": hi, "unit": None, "bare": False, "signed": False}
                setup = vocab.phrase_metric(w.group(1))
            if q is _NOT_A_RANGE or q is _TRANSITION:  # the first number alone
                e = next_pos = next(m.end(k) for k in ("u1", "tail", "m1", "n1") if g[k] is not None)
                u = g["u1"]
                if q is _TRANSITION:  # A with B's unit when it has none; B next, with A's
                    carry, end_of = [m.end("sep"), u, False], "from"
                    # 从 0.42 降到 0.18: a change written with from and a change verb is a claim
                    # with no metric word too (issue 21); 6→5 alone is no figure
                    said = _FROM.search(norm, max(0, s - 12), s) is not None and _VERB_SEP.search(m["sep"]) is not None
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
                    if g["m1"] is None:  # and a unit of kb's words after it is the number's: 5m tokens (not 5m × 3)
                        u = None if g["cur"] or (u := _UNIT_RE.match(norm, found[1])) is None or _unit_of(u.group()) == "×" else u
                        g = {**g, "m1": "M", "u": u.group() if u else None}
                        e = next_pos = u.end() if u else found[1]
                else:
                    pint, e = found
                    next_pos = e
            elif g["u"] is not None and g["plus"] is None and (per := per_unit(norm, e, _unit_of(g["u"]))) is not None:
                if per[0] is None:  # 3 h/s, 5 ms/GB: a unit per a unit kb does not store, no quantity (unread)
                    m = _QTY_RE.search(norm, per[1])
                    continue
                pint, e = per  # 3 GB/h: a data rate
                next_pos = e
            # a number that starts inside a skip span (an arXiv id, a date …) is dropped below
            # whatever it reads: its fields are not worked out
            i = bisect_right(skip_starts, s)
            q = None if i and skip_maxend[i - 1] > s else _single(g, norm, s, vocab, pint)
        if q is not None and (_exponent(g["n1"]) or (g["sep"] is not None and _exponent(g["n2"]))) \
                and not (in_range(g["n1"]) and (g["sep"] is None or in_range(g["n2"]))
                         and all(v is None or abs(v) < _INF for v in (q["value"], q["low"], q["high"]))):
            q = None  # 1e309, 1e-400, 1e308K: no float holds it (out_of_range; docs/claims.md)
        if q is not None and g["m1"] and g["tail"] is None and norm[m.end("m1") - 1] in "千万亿" \
                and norm[m.end("m1"):m.end("m1") + 1].isdigit():
            q = None  # 3千5万, 1.2万3: digits after a magnitude that are no rest of it (_TAIL); never 3,000
        if q is not None and _ref_before(norm, s):
            q = None  # Fig. 7, Table 3, 表 2, Sec. 4, Eq. (2), Step 3
        if q is not None and e < n and norm[e - 1] in _ASCII_ALNUM and norm[e] in _ASCII_ALNUM:
            q = None  # glued to letters: part of an identifier
        if q is not None:
            i = bisect_left(skip_starts, e)
            if i > 0 and skip_maxend[i - 1] > s:
                q = None  # overlaps a skip span
                j = bisect_right(skip_starts, s)
                if g["sep"] is not None and j and s < skip_maxend[j - 1] < e:
                    next_pos = skip_maxend[j - 1]  # 2607.26627 — 709 tok/s: no range; read on after the id
        if q is not None and q.get("unit") == "bit" and not norm[s:e].rstrip("bits").endswith((" ", "\t")):
            q = None  # 2bit / 4-bit quantisation: a width, an adjective; "under 1 bit" per key is a figure
        if q is not None:
            unit, bare, signed = q.pop("unit"), q.pop("bare"), q.pop("signed")
            if unit == "tokens" and _PER_SECOND.search(norm, max(0, s - 8), s):
                unit = "tok/s"  # 每秒 3,200 个 token: a rate
            if unit == "tok/s" and ((per := _PER_BEFORE.search(norm, max(0, s - 24), s)) or (per := _PER_AFTER.match(norm, e))):
                unit = "tok/s/user" if per.re is _PER_BEFORE and per.group(1) else "tok/s/GPU"  # 每卡吞吐 502 tok/s; per-user
            f = _FROM.search(norm, max(0, s - 12), s) if end_of == "from" else None
            if scan is None:
                scan = vocab._scan(norm, DATE_METRICS)
            metric, how, k = vocab._resolve(scan, norm, f.start() if f else s, e, unit)  # 接受长度从 3.1
            metric = setup or (None if how == "clause" and unit in COUNTERS else metric)  # 5 种…精度的模型: a count
            if bare and g["n1"].isdigit() and _DEVICES_AFTER.match(norm, e):
                unit, metric = "devices", "gpu_count"  # on 8 H100s: a device count (kb.extract.bind.setups)
            elif bare and _COUNTED.match(norm, e) and g["n1"].isdigit():
                metric = None  # up to 64 frames, across 79 configurations: a count, no figure of a metric
            elif bare and not said and not (end_of == "to" and pending and pending[2]) \
                    and not _names_bare(how, norm[scan.starts[k]:scan.ends[k]] if k >= 0 else "") \
                    and not (metric == "batch_size" and _BATCH_BEFORE.search(norm, max(0, s - 16), s)) \
                    and not ((b := _BRACKETED_SCORE.match(norm, s)) and b.end() == e):
                if shares_unit(norm, s, e):
                    loose.add((s, e))  # 502 and 602 tok/s: the unit after the list may be its (distribute)
                else:
                    q = None
            elif k >= 0 and e + 1 < n and norm[e + 1].isupper() and how != "setup" and _TITLE_AFTER.match(norm, e) \
                    and (not norm[scan.starts[k]].isalpha() or _in_title(norm, scan.starts[k], scan.ends[k])):
                metric = None  # Agent Memory: 11x Token Reduction, Void $250M Contract: a headline names no metric
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
    out = more_quantities(text, norm, out, spans, scan, vocab)
    if out:
        def phrases() -> _Scan:
            return scan or vocab._scan(norm, DATE_METRICS)

        out = sentence_metrics(norm, setups(text, norm, respectively(norm, distribute(norm, out, frozenset(loose)), phrases)), phrases)
        out = percentiles(norm, token_counts(norm, out), phrases)
    return transitions(norm, out) if out else out


def _exponent(n: str) -> bool:
    """Whether the digits ``n`` have an exponent or a power of ten (``1e309``, ``3×10^-2``) or are
    too long to read plainly: only then may they fall outside a float."""
    return len(n) > 15 or not n.replace(",", "").replace(".", "", 1).isdigit()


def _names_bare(how: str, phrase: str) -> bool:
    """Whether the phrase that gave a bare number its metric makes it a quantity: it stands
    directly before or after the number, is a word, not a symbol (``MAS$^2$``), and after
    the number is not a Capitalised word (``668 Memory for LLMs`` is a title)."""
    if how not in ("before", "after") or not any(c.isalpha() for c in phrase):
        return False
    return how == "before" or not (phrase[:1].isupper() and any(c.islower() for c in phrase))


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
    if unit is not None and unit in COUNTERS and "." in g["n1"] and not g["m1"]:
        return None  # "1.5 个" is not a count; 6.3万亿个 is (the magnitude makes it whole)
    if unit is None and g["cur"]:
        unit = g["cur"]
    if unit is None and g["plus"]:
        unit = _unit_of(g["u3"]) or "+"  # 2000+ tokens/秒: the unit after the "+"
    bare = unit is None and g["m1"] is None and "," not in g["n1"]
    if bare:
        digits = g["n1"]
        if not g["sign"] and digits.isdigit() and len(digits) == 4 and 1900 <= int(digits) <= 2100:
            return None  # a year
        name = _NAME_BEFORE.search(norm, max(0, s - 16), s) if _may_follow_name(norm, s) else None
        if name and vocab.phrase_metric(name.group(1)) is None:
            return None  # RTX 5090, PRO 6000
    tail = g["tail"]
    value = _number(g["sign"], g["n1"], g["m1"]) + (_tail(g["sign"], tail, g["m1"]) if tail else 0.0)
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
    if unit is not None and unit in COUNTERS and ("." in g["n1"] or "." in g["n2"]):
        return None
    if unit is None and not g["m2"] and "," not in g["n1"] + g["n2"]:
        return None
    tail = g["tail"]
    a = _number(g["sign"], g["n1"], g["m1"] or g["m2"]) + (_tail(g["sign"], tail, g["m1"]) if tail else 0.0)
    tail2 = g["tail2"]
    b = _number(g["sign2"] or g["sign"], g["n2"], g["m2"]) + (_tail(g["sign2"] or g["sign"], tail2, g["m2"]) if tail2 else 0.0)
    low, high = (a, b) if a <= b else (b, a)
    return {"value": None, "low": low, "high": high, "unit": unit, "bare": False,
            "signed": bool(g["sign"] or g["sign2"])}

