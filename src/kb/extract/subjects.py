"""Who a claim's numbers belong to (DESIGN.md §3): the subjects written in its text, hosts and
baselines set apart (:func:`attribute`), and the owner of each number in its clause (:class:`Owners`).
The host and baseline words are data in :mod:`kb.extract.vocab.subjects`."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from operator import attrgetter

from kb.extract.names import _NAME_BEFORE_ID_RE, _looks_like_name
from kb.extract.vocab.quantities import RESPECTIVELY_AFTER, RESPECTIVELY_BEFORE
from kb.extract.vocab.units import ASCII_UNITS_CI, ASCII_UNITS_CS, TOKEN_RATE
from kb.extract.vocab.subjects import (
    DATASET_NAMES, HARDWARE_PATTERN, HOST_AFTER_WORDS, HOST_BEFORE_QUALIFIERS, HOST_BEFORE_WORDS, MODEL_FAMILIES,
    PAIR_CLOSE_WORDS, PAIR_OPEN_WORDS, RATIO_CLOSE, RATIO_OPEN_WORDS, ROLE_AFTER_WORDS, ROLE_BEFORE_WORDS,
)
from kb.perf.literals import first_char_guard

#: Words right before a name that make it a host or baseline, not the subject of the numbers
#: (:data:`~kb.extract.vocab.subjects.HOST_BEFORE_WORDS`). The one list: the parser (kb.yaml
#: entities) and the diff (entities and card names) use it.
HOST_BEFORE_RE = re.compile(
    "(?:" + "|".join(HOST_BEFORE_WORDS) + ")" + r"\s*(?:(?:" + "|".join(HOST_BEFORE_QUALIFIERS) + r")\s*)?$",
    re.IGNORECASE,
)
#: HOST_BEFORE_RE led by its words' first characters (kb.perf.literals.first_char_guard: re
#: entered each of its case-insensitive words at every position of the 24 characters before a name).
_HOST_BEFORE_SEARCH = first_char_guard(HOST_BEFORE_RE)
#: "与/和/跟/同 X … 相比": the opening word before a name …
_PAIR_OPEN_RE = re.compile("(?:" + "|".join(PAIR_OPEN_WORDS) + r")\s*(?:(?:默认|原生|原版)(?:的)?\s*)?$")
#: … and the closing word after it, in the same clause.
_PAIR_CLOSE_RE = re.compile(r"^[^，,；;。！？!?|\n]{0,24}?(?:" + "|".join(PAIR_CLOSE_WORDS) + ")")
#: "A 为 B 的 N 倍": the copula before B and the ratio after it (B is the baseline).
_RATIO_OPEN_RE = re.compile("(?:" + "|".join(RATIO_OPEN_WORDS) + r")\s*$")
_RATIO_CLOSE_RE = re.compile(RATIO_CLOSE)
#: Words right after a name that make it a host, platform or baseline
#: (:data:`~kb.extract.vocab.subjects.HOST_AFTER_WORDS`).
HOST_AFTER_RE = re.compile(r"^\s*(?:v?\d+(?:\.\d+)*\s*)?(?:" + "|".join(HOST_AFTER_WORDS) + ")", re.IGNORECASE)
#: Words right before a name that make it a paper's set-up (:data:`~kb.extract.vocab.subjects.ROLE_BEFORE_WORDS`),
#: the text before the name ending with one (and ``the``, ``its``, ``default``).
_ROLE_BEFORE_RE = re.compile(r"(?:^|[^A-Za-z0-9_])(?:" + "|".join(ROLE_BEFORE_WORDS) + r")\s*(?:(?:the|its|their|a|an|"
                             + "|".join(HOST_BEFORE_QUALIFIERS) + r")\s+)?$", re.IGNORECASE)
_HARDWARE_RE = re.compile(HARDWARE_PATTERN, re.IGNORECASE)
_DATASET_RE = re.compile("(?:" + "|".join(DATASET_NAMES) + ")", re.IGNORECASE)
_ROLE_AFTER_RE = re.compile(r"\s*(?:" + "|".join(ROLE_AFTER_WORDS) + r")(?![A-Za-z])", re.IGNORECASE)
#: A model's name: a family (:data:`~kb.extract.vocab.subjects.MODEL_FAMILIES`) or a size (``-7B``, ``70b``, ``8x7B``).
#: A family's name joined to a program's suffix is a program (``llama.cpp``, ``llama-cpp``, ``gemma.cpp``), no model.
_MODEL_RE = re.compile(r"^(?:" + "|".join(MODEL_FAMILIES) + r")(?![a-z]|\.[a-z]|[-_]cpp)|\d(?:\.\d+)?\s*[bBmM]$",
                       re.IGNORECASE)
# "X 的 Y" (possessive): Y is the topic of the sentence, not X (``SGLang v0.5.16 的 DeepSeek-V4-Pro``).
_OF_RE = re.compile(r"^\s*(?:v?\d+(?:\.\d+)*\s*)?的\s*$")
#: Subject-key prefixes of papers (an arXiv id, a DOI, a title subject): a name with one of them (a
#: card's title or alias, a title's short name) names a paper; a heading or scope of one is a paper's.
PAPER_KEY_PREFIXES = ("arxiv:", "doi:", "title:")
#: The words between a tool and the model it runs, in one clause and no list (``vLLM serves``,
#: ``AutoAWQ 载入``; not ``支持 DGX Spark（GB10）、DeepSeek-V4``).
_RUNS_GAP_RE = re.compile(r"[^，,；;。！？!?、/\n]{1,30}")
_LIST_WORD_RE = re.compile(r"(?:^|\s)(?:and|or)\s|[和与及或]")
#: A clause mark: ，；;。！？!?, a line end, a comma before no digit, `` | ``. (Led by one class of
#: their first characters, each kind told by a look-behind: re skips in C to one of them; an
#: alternation of a class and literals gives it no first character.)
_CLAUSE_RE = re.compile(r"[，；;。！？!?\n,\s](?:(?<=[，；;。！？!?\n])|(?<=,)(?!\d)|(?<=\s)\|\s)")
#: Text between a name and an id that makes the id the name's own (``Bole（arXiv:2607.26627）``).
_ID_GAP_RE = re.compile(r"^[\s（(【\[,，:：]*(?:arxiv\s*[:：]?\s*)?$", re.IGNORECASE)
#: A bracket that cites a source: ``（来源：arXiv:…）``, ``(source: arXiv:…)``, ``（见 arXiv:…）``.
_SOURCE_BRACKET_RE = re.compile(r"[（(【\[]\s*(?P<word>来源|出处|原文|论文|source|paper|see|见|via)?\s*[:：]?\s*(?:arxiv\s*[:：]?\s*)?$",
                                re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Anchor:
    """A subject written in a claim's text: ``text[start:end]`` names ``key``.

    :ivar is_id: an arXiv id, DOI or card path (never a host); else a name (entity, card title).
    """

    start: int
    end: int
    key: str
    is_id: bool


@dataclass(slots=True)
class Attribution:
    """Who a claim's text is about: ``own`` anchors (subjects, in reading order, possessive
    rotated), ``hosts`` (baselines and platforms), and name→id pairs written as
    ``Name（arXiv:…）`` (one subject: the id)."""

    own: list[Anchor]
    hosts: list[str]
    pairs: list[tuple[str, str]]

    @property
    def keys(self) -> list[str]:
        """Own subject keys, first = primary (one or none: no dedupe)."""
        return list(dict.fromkeys([a.key for a in self.own])) if len(self.own) > 1 else [a.key for a in self.own]


def is_host(text: str, start: int, end: int) -> bool:
    """True when the name at ``text[start:end]`` is a host or baseline (see :data:`HOST_BEFORE_RE`,
    :data:`HOST_AFTER_RE`, the ``与 X … 相比`` frame and the ``为 X 的 N 倍`` one), unless its own figure follows it and ends
    its clause (:func:`_states_own_figure`: ``vLLM 501 tok/s vs SGLang 601 tok/s``)."""
    before = text[max(0, start - 24):start]
    after = text[end:end + 40]
    if _HOST_BEFORE_SEARCH.search(before) or HOST_AFTER_RE.match(after):
        return not _states_own_figure(text, start, end)
    if _OPEN_CJK and before.isascii():
        return False  # no pair or ratio word before the name
    return bool((_PAIR_OPEN_RE.search(before) and _PAIR_CLOSE_RE.match(after))
                or (_RATIO_OPEN_RE.search(before) and _RATIO_CLOSE_RE.match(after))) \
        and not _states_own_figure(text, start, end)


#: Every pair and ratio word opens with a CJK character, so an ASCII text holds none (checked here,
#: from the words: the quick test of :func:`is_host` is off when a word opens otherwise).
_OPEN_CJK = all(not w[0].isascii() for w in (*PAIR_OPEN_WORDS, *RATIO_OPEN_WORDS))

#: A figure of the name's own right after it: ``SGLang 601 tok/s``, ``vLLM's 500 tok/s``, ``vLLM 的
#: 52 ms`` (no colon: ``built on top of vLLM: 58.3 tok/s`` is the subject's): a number and an
#: absolute unit (:mod:`kb.extract.vocab.units`; no ``%``, ``×``, ``pp``: a relative figure after a
#: baseline is the subject's, ``比 vLLM 低 21%``).
_ABSOLUTE_UNITS = sorted((u for u, n in ASCII_UNITS_CI.items() if n not in ("%", "pp", "×")), key=len, reverse=True)
_OWN_FIGURE_RE = re.compile(
    r"(?:['’]s)?[ \t]*(?:的|为|是|(?<![A-Za-z])(?:at|is|of|reaches)(?![A-Za-z]))?[ \t]*[~≈约]?[ \t]*"
    r"\d[\d,]*(?:\.\d+)?[ \t]?(?:[kKMB](?![A-Za-z])[ \t]?)?"
    r"(?:(?i:" + TOKEN_RATE + "|" + "|".join(map(re.escape, _ABSOLUTE_UNITS)) + ")|"
    + "|".join(re.escape(u) for u in sorted(ASCII_UNITS_CS, key=len, reverse=True)) + r")(?![A-Za-z0-9])")


def _states_own_figure(text: str, start: int, end: int) -> bool:
    """The name at ``text[start:end]`` is followed by a figure of its own (:data:`_OWN_FIGURE_RE`)
    and no other number stands after it in its clause: the name is a side of a comparison with its
    own value (``vLLM 501 tok/s vs SGLang 601 tok/s``, ``faster than vLLM's 500 tok/s``), a subject
    of that value, not a baseline of the subject's numbers (``比 vLLM 的 500 tok/s 高 40%`` keeps
    vLLM a baseline: the 40% after it is the subject's)."""
    m = _OWN_FIGURE_RE.match(text, end)
    if m is None:
        return False
    _, stop = clause_bounds(text, start, end)
    return not any(ch.isdigit() for ch in text[m.end():stop])


def setup_kind(name: str) -> str | None:
    """The set-up kind a name is of, read from the name (kb.yaml gives entities no kind):
    ``"dataset"`` (:data:`~kb.extract.vocab.subjects.DATASET_NAMES`: ``MMLU``, ``WikiText-2``),
    ``"hardware"`` (``H100``, ``RTX 4090``), ``"model"`` (``Llama-3.1-70B``, ``Qwen3-8B``), else None
    (an engine, a library, a method, a paper)."""
    name = name.strip()
    if _DATASET_RE.fullmatch(name):
        return "dataset"
    if _HARDWARE_RE.fullmatch(name):
        return "hardware"
    return "model" if _MODEL_RE.search(name) else None


#: How far a set-up kind is from owning a number: the lowest rank a claim's subjects have owns it,
#: higher ranks qualify it (an engine over the model it loads, a model over the hardware and data).
_SETUP_RANK = {None: 0, "model": 1, "hardware": 2, "dataset": 2}


def is_role(text: str, start: int, end: int, by_kind: bool = True) -> bool:
    """True when the name at ``text[start:end]`` is a paper's set-up, not its subject: a model
    (``Qwen2.5-7B``, ``Llama-3-70B``), hardware or a dataset (:func:`setup_kind`), or a name right
    after a set-up word (``for``, ``on``, ``with``, ``在``, ``用``:
    :data:`~kb.extract.vocab.subjects.ROLE_BEFORE_WORDS`) or before a data word (``负载``, ``traces``).
    Asked only of claims about a paper (:func:`attribute` ``scoped``); ``by_kind`` False for a
    paper's own name, whose kind is a paper's (``Struc-Bench: …`` names a paper, not a dataset)."""
    return bool((by_kind and setup_kind(text[start:end])) or _ROLE_BEFORE_RE.search(text[max(0, start - 24):start])
                or _ROLE_AFTER_RE.match(text, end))


def _setup_hosts(text: str, own: list[Anchor]) -> tuple[list[Anchor], list[str]]:
    """In a claim about no paper, the kb.yaml entities of a set-up kind that stand beside a subject
    of a lower rank (:data:`_SETUP_RANK`): hardware and datasets by their name (:func:`setup_kind`,
    as written or by key: ``SGLang FP8 在 H100 上 …``, ``Qwen3-8B 在 MMLU 上``), a model when a
    set-up word stands right before it (``bitsandbytes 加载 Llama-3.1-70B``, ``for Qwen3-8B``) or an
    engine or tool is named before it (``vLLM serves Llama-3.1-70B``: the model a tool ran), not
    after ``的`` (``SGLang 的 DeepSeek-V4-Pro …`` is about the model). Returns ``(own kept, host
    keys)``; a claim of set-up names of one rank only (``H100 的显存带宽 …``) keeps them."""
    ranks: list[int] = []
    for i, a in enumerate(own):
        kind = None if a.is_id or not a.key.startswith("entity:") else \
            setup_kind(text[a.start:a.end]) or setup_kind(a.key[7:])
        if kind == "model" and not _ROLE_BEFORE_RE.search(text[max(0, a.start - 24):a.start]) \
                and not (i and ranks[-1] == 0 and _runs(text[own[i - 1].end:a.start])):
            kind = None  # the model leads (``Qwen3-8B 在 MMLU 上``) or is the topic (``SGLang 的 DeepSeek-V4-Pro``)
        ranks.append(_SETUP_RANK[kind])
    if not ranks or min(ranks) == max(ranks):
        return own, []
    low = min(ranks)
    return [a for a, r in zip(own, ranks) if r == low], [a.key for a, r in zip(own, ranks) if r > low]


def _runs(gap: str) -> bool:
    """The text between a tool and a model reads "the tool runs the model": one clause, no list
    (:data:`_RUNS_GAP_RE`, :data:`_LIST_WORD_RE`), not ``X 的 Y`` (:data:`_OF_RE`)."""
    return bool(_RUNS_GAP_RE.fullmatch(gap)) and not _LIST_WORD_RE.search(gap) and not _OF_RE.match(gap)


_SPAN = attrgetter("start", "end")  # an anchor's (start, end), attribute's order: a key in C, no Python call per anchor


def attribute(text: str, anchors: Sequence[Anchor], scoped: bool | None = None) -> Attribution:
    """Decide which anchors of ``text`` are its subjects (DESIGN.md §3).

    Rules, in order: ids are always subjects; a name right before its own id in brackets
    (``Mooncake … （来源：arXiv:2407.00079）``, ``HydraServe（arXiv:…）``) is the same subject as
    the id and is dropped in its favour (the pair is returned); a name that is a host or
    baseline (:func:`is_host`) is no subject; with ``scoped`` given (the diff's Attributor, not
    the parser), in a claim about a paper (an arXiv id or DOI in ``text``, or ``scoped``) a name
    that is the paper's set-up (:func:`is_role`: the evaluated model, the engine or hardware it
    ran on) is a host too (issue 20), a name of a paper's card or title counting as naming it; in
    a claim about no paper, the set-up beside an engine or tool is (:func:`_setup_hosts`: hardware,
    datasets, the model a tool runs); ``X 的 Y`` makes Y lead.

    :param anchors: every id and name found in ``text``, any order, no overlaps.
    :param scoped: None: no set-up rule (the parser's own subjects); else whether the claim
        belongs to a paper its text does not name (a heading, a note's top, the sentence before).
    """
    ordered = sorted(anchors, key=_SPAN) if len(anchors) > 1 else list(anchors)
    by_id = scoped is not None and (scoped or any(a.is_id for a in ordered))
    # a paper named by name (a card's, a title's) makes the claim a paper's, its name no set-up
    paper = by_id or (scoped is not None and any(a.key.startswith(PAPER_KEY_PREFIXES) for a in ordered))
    own: list[Anchor] = []
    hosts: list[str] = []
    pairs: list[tuple[str, str]] = []
    paired: set[int] = set()
    for i, a in enumerate(ordered):
        if i in paired:
            continue
        if a.is_id:
            own.append(a)
            continue
        nxt = ordered[i + 1] if i + 1 < len(ordered) else None
        if nxt is not None and nxt.is_id and nxt.key.startswith("arxiv:") and not a.key.startswith("arxiv:") \
                and _cites(text, a.end, nxt.start):
            pairs.append((a.key, nxt.key))
            own.append(Anchor(a.start, nxt.end, nxt.key, True))  # the id stands where its name is
            paired.add(i + 1)
            continue
        named = a.key.startswith(PAPER_KEY_PREFIXES)  # a paper's own name
        if is_host(text, a.start, a.end) or (paper and (by_id or not named) and is_role(text, a.start, a.end, not named)):
            hosts.append(a.key)
        else:
            own.append(a)
    if scoped is not None and not paper:
        own, setups = _setup_hosts(text, own)
        hosts += setups
    while len(own) > 1 and not own[0].is_id and _OF_RE.match(text[own[0].end:own[1].start]) \
            and not _joined(text, (own[0].start, own[0].end, own[0].key), (own[1].start, own[1].end, own[1].key)):
        own = own[1:] + own[:1]  # "X 的 Y": Y leads (a model: SGLang 的 DeepSeek-V4-Pro), X stays a subject
    keys = {a.key for a in own}
    return Attribution(own, [h for h in dict.fromkeys(hosts) if h not in keys], pairs)


def _cites(text: str, end: int, id_start: int) -> bool:
    """The id at ``id_start`` is the name's own: right after it, or in a source bracket later in
    the same clause (a bare bracket, no source word, only when no figure stands between them)."""
    gap = text[end:id_start]
    if _ID_GAP_RE.match(gap):
        return True
    bracket = _SOURCE_BRACKET_RE.search(gap)
    if _CLAUSE_RE.search(gap) or bracket is None or len(gap) > 80:
        return False
    if bracket.group("word") is None and any(ch.isdigit() for ch in gap[:bracket.start()]):
        return False  # "TGI throughput 300 tok/s (2607.26627)": a bare bracket after a figure cites the figure
    # a bare bracket right after another name is that name's id, not this one's: "vLLM 的分页管理
    # 来自 PagedAttention（arXiv:2309.06180）" (tester5's doc; a source bracket "（来源：…" is ours)
    other = _NAME_BEFORE_ID_RE.search(gap)
    return other is None or not _looks_like_name(other.group("name"))


@lru_cache(maxsize=8)
def _clause_marks(text: str) -> tuple[list[int], list[int]]:
    """Starts and ends of the clause marks of ``text``, found once per text (a unit with n
    numbers costs one scan, not n)."""
    marks = [(m.start(), m.end()) for m in _CLAUSE_RE.finditer(text)]
    return [a for a, _ in marks], [b for _, b in marks]


def clause_bounds(text: str, start: int, end: int, marks: tuple[list[int], list[int]] | None = None) -> tuple[int, int]:
    """Bounds of the clause holding ``text[start:end]`` (split at ，；。 etc. and table pipes);
    ``marks``: ``_clause_marks(text)`` when the caller keeps them (many numbers of one text)."""
    starts, ends = marks or _clause_marks(text)
    i = bisect_right(ends, start) - 1  # the last mark that ends at or before ``start``
    j = bisect_left(starts, end)  # the first mark that starts at or after ``end``
    return (ends[i] if i >= 0 else 0), (starts[j] if j < len(starts) else len(text))


def owner(own: Sequence[Anchor], text: str, start: int, end: int) -> str | None:
    """The subject a number at ``text[start:end]`` belongs to: the nearest own anchor before it
    in its clause (or the engine that anchor's method is joined to: :func:`_joined`), else None (then: the claim's first subject). For many numbers of one text,
    build one :class:`Owners`."""
    return Owners(own, text).of(start, end)


#: Between two names of a list (``vLLM and SGLang``, ``vLLM、SGLang``, ``vLLM / SGLang``).
_NAME_GAP_RE = re.compile(r"\s*(?:和|与|及|、|,|，|/|&|(?<![A-Za-z])(?:and|or)(?![A-Za-z])|,\s*and)\s*", re.IGNORECASE)
#: A number as written, digits and separators (what pairs a list of values with a list of names).
_DIGITS_RE = re.compile(r"\d+(?:[.,]\d+)*")
_RESP_BEFORE_RE = re.compile("|".join(RESPECTIVELY_BEFORE))
_RESP_AFTER_RE = re.compile(r"[^\d。；;！？!?\n]{0,30}?(?<![A-Za-z])(?:" + "|".join(RESPECTIVELY_AFTER) + r")(?![A-Za-z])",
                            re.IGNORECASE)


def _respective(text: str, ordered: Sequence[tuple[int, int, str]]) -> dict[int, str]:
    """Numbers paired in order with a list of names before them (start of the number's digits → key):
    ``vLLM and SGLang reach 502 tok/s and 602 tok/s, respectively``, ``vLLM 和 SGLang 的吞吐分别为 502
    tok/s 和 602 tok/s`` (:data:`~kb.extract.vocab.quantities.RESPECTIVELY_BEFORE` between the names and the
    values, :data:`~kb.extract.vocab.quantities.RESPECTIVELY_AFTER` after the values), ``vLLM / SGLang: 504
    / 604 tok/s`` (both lists by slashes): as many numbers in the names' clause as names, else none."""
    out: dict[int, str] = {}
    i, n = 0, len(ordered)
    while i < n:
        j = i
        while j + 1 < n and _NAME_GAP_RE.fullmatch(text, ordered[j][1], ordered[j + 1][0]):
            j += 1
        names = ordered[i:j + 1]
        i = j + 1
        if len(names) < 2 or len({k for _, _, k in names}) < len(names):
            continue
        _, stop = clause_bounds(text, names[-1][0], names[-1][1])
        if i < n and ordered[i][0] < stop:
            stop = ordered[i][0]  # another name in the clause: its numbers are its own
        runs = list(_DIGITS_RE.finditer(text, names[-1][1], stop))
        if len(runs) != len(names):
            continue
        slashes = all(text[a[1]:b[0]].strip() == "/" for a, b in pairwise(names)) \
            and all(text[a.end():b.start()].strip(" \t").startswith("/") and not text[a.end():b.start()].strip(" \t/")
                    for a, b in pairwise(runs))
        if _RESP_BEFORE_RE.search(text, names[-1][1], runs[0].start()) or _RESP_AFTER_RE.match(text, runs[-1].end()) \
                or slashes:
            out.update((r.start(), k) for r, (_, _, k) in zip(runs, names))
    return out


#: Between an engine and the method it runs, one clause and no list, comparison or figure
#: (``vLLM with EAGLE3``, ``vLLM EAGLE3``, ``SGLang 的 EAGLE3``, ``TensorRT-LLM v1.4 cuts Medusa``):
#: a version (``v1.4``) is the only number it may hold.
_JOIN_GAP_RE = re.compile(r"[^\d，,；;。！？!?、/|\n]{1,40}")
_VERSION_RE = re.compile(r"(?<![A-Za-z0-9])v?\d+(?:\.\d+)+(?![\d.])|(?<![A-Za-z0-9])v\d+(?![\d.])")
_JOIN_STOP_RE = re.compile(r"(?:^|[^A-Za-z])(?:and|or|nor|but|while|whereas|respectively)(?![A-Za-z])|[和与及或&；]|"
                           + "|".join(RESPECTIVELY_BEFORE), re.IGNORECASE)


def _joined(text: str, first: tuple[int, int, str], then: tuple[int, int, str]) -> bool:
    """Whether the subject ``then`` is what the subject ``first`` runs or is configured with, the
    two written one after the other in a clause (:data:`_JOIN_GAP_RE`): both kb.yaml entities of no
    set-up kind (no model, hardware or dataset: :func:`setup_kind`; a paper's name or id is its own
    subject), no list or comparison word between. Then ``first`` owns the numbers after ``then``,
    as a table row's first cell owns the row (``vLLM with EAGLE3 gets 2x`` ~ ``| vLLM | EAGLE3 | 2.0 |``)."""
    if not (first[2].startswith("entity:") and then[2].startswith("entity:")):
        return False
    raw = text[first[1]:then[0]]
    gap = _VERSION_RE.sub("", raw)
    if not raw or (gap.strip() and (not _JOIN_GAP_RE.fullmatch(gap) or _JOIN_STOP_RE.search(gap))):
        return False
    return all(setup_kind(text[a:b]) is None and setup_kind(k[7:]) is None for a, b, k in (first, then))


class Owners:
    """:func:`owner` for every number of one text: the anchors sorted once, each number answered
    by bisection, so a unit with n numbers and m anchors costs O((n + m) log m), not n·m
    (bench_adversarial's ``entity-numbers`` shape: ``vLLM 1.5× `` repeated)."""

    __slots__ = ("_keys", "_starts", "_text", "_marks", "_respective", "_lead")

    def __init__(self, own: Sequence[Anchor], text: str) -> None:
        ordered = sorted((a.start, a.end, a.key) for a in own)
        self._text, self._marks = text, _clause_marks(text)  # (what clause_bounds reads: found once, not per number)
        self._starts = [a for a, _, _ in ordered]
        self._keys = [k for _, _, k in ordered]
        self._respective = _respective(text, ordered) if len(ordered) > 1 else {}
        # per anchor: the first of the run of subjects joined to it (:func:`_joined`), its owner
        lead = list(range(len(ordered)))
        for i in range(1, len(ordered)):
            if _joined(text, ordered[i - 1], ordered[i]):
                lead[i] = lead[i - 1]
        self._lead = lead

    def of(self, start: int, end: int) -> str | None:
        """The subject of the number at ``text[start:end]``: the name a list pairs it with
        (:func:`_respective`), else the last anchor (by start, then key) that starts in its clause
        before it — or the first of the subjects joined to that one in the clause, an engine
        before the method it runs (:func:`_joined`) — else None."""
        if self._respective:
            paired = next((k for s, k in self._respective.items() if start <= s < end), None)
            if paired is not None:
                return paired
        cs, _ = clause_bounds(self._text, start, end, self._marks)
        i = bisect_left(self._starts, start) - 1
        if i < 0 or self._starts[i] < cs:
            return None
        j = self._lead[i]
        return self._keys[j if self._starts[j] >= cs else i]
