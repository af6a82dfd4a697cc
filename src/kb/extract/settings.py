"""The setting a figure was stated under (issue 20): a load or traffic regime, a scenario, a
feature switched on or off — what :mod:`kb.extract.qualifiers` does not model. A value under a
setting the other side does not state is a value of another setting: an update, never a
conflict (:func:`kb.facts.same.comparable`). The words are data in
:mod:`kb.extract.vocab.settings`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from kb.extract.vocab.settings import (
    MACHINE_CHIPS,
    MACHINE_NOUNS,
    SETTING_ADJECTIVES_EN,
    SETTING_NOUNS_EN,
    SETTING_NOUNS_ZH,
    SWITCH_WORDS_EN,
    SWITCH_WORDS_ZH,
)
from kb.perf.lazyre import lazy


def _alt(words: Sequence[str]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"[\s-]+") for w in sorted(words, key=len, reverse=True))


_CJK = r"\u4e00-\u9fff"
_SETTING_RE = lazy(globals(), "_SETTING_RE", "|".join((
    # 突发流量下 / 高并发场景中 / 冷启动时 (not 负载下降: a fall, not a setting)
    rf"(?:在|于)?[{_CJK}A-Za-z0-9.+-]{{0,8}}?(?:{_alt(SETTING_NOUNS_ZH)})(?:之下|下(?![降跌滑调])|时|中|期间)",
    # 开启前缀缓存后 / 关闭 offload 时
    rf"(?:{_alt(SWITCH_WORDS_ZH)})[^，。；,;]{{1,16}}?(?:后|时|下(?![降跌滑调]))",
    # under bursty traffic / at steady load / during peak hours / in the cold-start setting
    rf"(?<![a-z])(?:under|at|during|in|with)\s+(?:an?\s+|the\s+)?(?:[a-z0-9'’-]+\s+){{0,3}}?"
    rf"(?:{_alt(SETTING_NOUNS_EN)})(?![a-z])",
    rf"(?<![a-z])(?:{_alt(SETTING_ADJECTIVES_EN)})[\s-]+(?:load|traffic|workload)s?(?![a-z])",
    # with SGLang's prefix cache switched on / with offload disabled
    rf"(?<![a-z])with\s+(?:[a-z0-9'’._-]+\s+){{1,5}}?(?:{_alt(SWITCH_WORDS_EN)})(?![a-z])",
)))
#: Words one of which every setting holds: a text without any states no setting (one quick scan).
_HINT_RE = lazy(globals(), "_HINT_RE", "|".join(re.escape(w) for w in sorted(
    {*SETTING_NOUNS_ZH, *SWITCH_WORDS_ZH, "load", "traffic", "burst", "workload", "pressure", "contention",
     "peak", "steady", "cold", "warm", "setting", "scenario", "regime", "condition", "switched", "turned",
     "enabled", "disabled"}, key=len, reverse=True)))
#: A machine a figure was measured on: a chip or a whole machine's word (``M3 Ultra``, ``Mac Studio``).
_MACHINE_RE = lazy(globals(), "_MACHINE_RE", r"(?<![a-z0-9])(?:(?P<chip>" + "|".join(MACHINE_CHIPS) + r")|"
                   + _alt(MACHINE_NOUNS) + r")(?![a-z0-9])")
#: The frame of a machine: ``在 … 上`` (``在 64 GB 内存的 M3 Max 上运行``) or ``on a …`` up to the clause end.
_FRAME_RE = lazy(globals(), "_FRAME_RE", r"(?:在|于)[^，。；,;：:\n]{0,40}?上|(?<![a-z])on\s+[^,.;:，。；：\n]{1,40}")
#: Sentence ends and clause marks: a setting governs the figures of its clause, else those of
#: its sentence when its own clause states no number.
_SENTENCE_RE = re.compile(r"[。；;！？!?|]|\.(?=\s)")
_CLAUSE_RE = re.compile(r"[，,、：:]")
_DIGIT_RE = re.compile(r"\d")
_LEAD_RE = re.compile(r"^(?:在|于|(?:under|at|during|in|with)\s+(?:(?:an?|the)\s+)?)|(?:之下|下|时|中|期间|后)$")


def _key(phrase: str) -> str:
    """A setting as compared: lower case, no leading preposition or trailing 下/时, no spaces."""
    return re.sub(r"[\s\-‐]+", " ", _LEAD_RE.sub("", phrase.strip().lower()).strip())


def settings_of(text: str, spans: Sequence[tuple[int, int]]) -> list[str | None]:
    """The setting each figure at ``spans`` of ``text`` was stated under, else None.

    A setting phrase governs the figures of its clause; a phrase in a clause with no number
    governs every figure of its sentence whose own clause states none (``Under bursty traffic,
    the hit rate drops to 64%``). A machine frame (``在 128 GB 内存的 Mac Studio（M3 Ultra）上运行
    70B Q4，解码约 11 tok/s``: :func:`_machines`) is the set-up of every figure of its sentence, its
    own clause's or, in another clause, the nearest frame before it (else the first after): a
    figure of another machine. Several phrases are joined with ``+`` in text order.

    :param text: a claim's text.
    :param spans: ``(start, end)`` of each figure.
    :returns: one key per span (``under bursty-traffic`` → ``bursty traffic``; ``突发流量下`` → ``突发流量``).
    """
    if not spans:
        return []
    low = text.lower()
    machines = _machines(low)
    found = [(m.start(), m.end(), _key(m.group(0))) for m in _SETTING_RE.finditer(low)] if _HINT_RE.search(low) else []
    if not found and not machines:
        return [None] * len(spans)
    sent = [m.start() for m in _SENTENCE_RE.finditer(text)]
    clause = sorted(sent + [m.start() for m in _CLAUSE_RE.finditer(text)])

    def seg(marks: list[int], pos: int) -> tuple[int, int]:
        i = bisect_right(marks, pos)
        return (marks[i - 1] + 1 if i else 0), (marks[i] if i < len(marks) else len(text))

    out: list[str | None] = []
    for a, _b in spans:
        c_lo, c_hi = seg(clause, a)
        own = [k for s, e, k in found if c_lo <= s and e <= c_hi]
        if not own:
            s_lo, s_hi = seg(sent, a)
            own = [k for s, e, k in found if s_lo <= s and e <= s_hi
                   and not _DIGIT_RE.search(text, *seg(clause, s))]
        if machines:
            s_lo, s_hi = seg(sent, a)
            here = [(s, k) for s, e, k in machines if c_lo <= s and e <= c_hi]
            if not here:
                inside = [(s, k) for s, e, k in machines if s_lo <= s and e <= s_hi]
                before = [x for x in inside if x[0] < a]
                here = before[-1:] or inside[:1]
            own = [*own, *(k for _, k in here)]
        out.append("+".join(dict.fromkeys(own)) or None)
    return out


def _machines(low: str) -> list[tuple[int, int, str]]:
    """``(start, end, key)`` of each machine frame of ``low`` (lower-cased text): a ``在 … 上`` or
    ``on …`` frame holding a machine word (:data:`kb.extract.vocab.settings.MACHINE_NOUNS`,
    ``MACHINE_CHIPS``); the key is its chip (``m3 ultra``), else its machine word (``mac studio``)."""
    out: list[tuple[int, int, str]] = []
    for f in _FRAME_RE.finditer(low):
        words = [(m.group(0), bool(m.group("chip"))) for m in _MACHINE_RE.finditer(f.group(0))]
        if words:
            chips = [w for w, chip in words if chip] or [w for w, _ in words]
            out.append((f.start(), f.end(), re.sub(r"\s+", " ", chips[0]).strip()))
    return out
