"""Which subject a claim and each of its numbers are about, on top of the parser's claims.

The parser knows arXiv ids, DOIs and ``kb.yaml`` entities. The diff also needs card titles
and aliases (``Bole``, ``Lossy Verification``), hosts and baselines that are not the subject
(``集成 SGLang``, ``比 vLLM 低 21%``: DESIGN.md §3), subjects from the enclosing heading,
and the qualifier a number is conditional on (``offload 到 RTX 5090 时 2.06×``). Rules:

* A card's own claims are about the card's paper (its body rarely repeats the id).
* Names: kb.yaml entities and card names (title, title before ``:``, aliases), matched
  case-insensitively, longest first, ASCII names on word boundaries. A card name equal to an
  entity name makes the two keys one *group* (``entity:flashinfer`` ~ ``arxiv:2606.20295``)
  for comparing values; both keys stay subjects.
* A name right after a host/baseline word is a host, never the subject.
* A number belongs to the nearest subject before it in its clause, else the claim's first.
* A claim with no subject of its own takes the parser's inherited ids, else (list items and
  table rows only) the names in its innermost heading that has any.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from kb.cards import Card
from kb.store import Store
from kb.claims import Claim, Quantity
from kb.config import KbConfig
from kb.extract.arxiv_ids import find_arxiv
from kb.extract.entities import entity_key
from kb.extract.literals import first_char_guard
from kb.extract.refs import find_dois
from kb.extract.metrics import SETUP_METRICS, setup_token
from kb.values import same_value  # noqa: F401 - re-exported for kb.diff.rules

DATE_METRICS = frozenset({"eol_date", "release_date"})
RATING_METRICS = frozenset({"votes"})
#: Words right before a name that make it a host or baseline, not the subject of the numbers
#: (DESIGN.md §3: "integrated into SGLang", "比 vLLM 低 21%", "compared with X", "than X").
#: The one list: the parser (kb.yaml entities) and the diff (entities and card names) use it.
HOST_BEFORE_RE = re.compile(
    r"(?:集成(?:到|至|进|于)?|合(?:进|入|并到)|接入|接进|接到|基于|依托|运行于|跑在|相对于?|相比(?:于)?|相较(?:于)?|对比|对照|比|较|"
    r"领先|优于|快于|慢于|高于|低于|超过|胜过|强于|弱于|"
    r"vs\.?|versus|baselines?|基线|integrated into|merged into|on top of|built on|compared (?:with|to)|relative to|"
    r"than|over|against|outperforms?|beats?)"
    r"\s*(?:(?:the|stock|vanilla|default|默认(?:的)?|原生(?:的)?|原版(?:的)?)\s*)?$",
    re.IGNORECASE,
)
#: HOST_BEFORE_RE led by its words' first characters (kb.extract.literals.first_char_guard: re
#: entered each of its case-insensitive words at every position of the 24 characters before a name).
_HOST_BEFORE_SEARCH = first_char_guard(HOST_BEFORE_RE)
#: "与/和/跟/同 X … 相比": the opening word before a name …
_PAIR_OPEN_RE = re.compile(r"(?:与|和|跟|同|较之?|相对)\s*(?:(?:默认|原生|原版)(?:的)?\s*)?$")
#: … and the closing word after it, in the same clause.
_PAIR_CLOSE_RE = re.compile(r"^[^，,；;。！？!?|\n]{0,24}?(?:相比|相较|对比|比较|比起来|比)")
#: Words right after a name that make it a host, platform or baseline (``SGLang 后端``,
#: ``vLLM 中集成``, ``vLLM (baseline)``).
HOST_AFTER_RE = re.compile(
    r"^\s*(?:v?\d+(?:\.\d+)*\s*)?(?:后端|backend|插件|plugin|中集成|上集成|作为基线|为基线|基线|[(（]\s*baseline|as (?:the )?baseline)",
    re.IGNORECASE,
)
# "X 的 Y" (possessive): Y is the topic of the sentence, not X (``SGLang v0.5.16 的 DeepSeek-V4-Pro``).
_OF_RE = re.compile(r"^\s*(?:v?\d+(?:\.\d+)*\s*)?的\s*$")
_CLAUSE_RE = re.compile(r"[，；;。！？!?\n]|,(?!\d)|\s\|\s")
#: Text between a name and an id that makes the id the name's own (``Bole（arXiv:2607.26627）``).
_ID_GAP_RE = re.compile(r"^[\s（(【\[,，:：]*(?:arxiv\s*[:：]?\s*)?$", re.IGNORECASE)
#: A bracket that cites a source: ``（来源：arXiv:…）``, ``(source: arXiv:…)``, ``（见 arXiv:…）``.
_SOURCE_BRACKET_RE = re.compile(r"[（(【\[]\s*(?:来源|出处|原文|论文|source|paper|see|见|via)?\s*[:：]?\s*(?:arxiv\s*[:：]?\s*)?$",
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
        """Own subject keys, first = primary."""
        return list(dict.fromkeys(a.key for a in self.own))


def is_host(text: str, start: int, end: int) -> bool:
    """True when the name at ``text[start:end]`` is a host or baseline (see :data:`HOST_BEFORE_RE`,
    :data:`HOST_AFTER_RE` and the ``与 X … 相比`` frame)."""
    before = text[max(0, start - 24):start]
    after = text[end:end + 40]
    if _HOST_BEFORE_SEARCH.search(before) or HOST_AFTER_RE.match(after):
        return True
    return bool(_PAIR_OPEN_RE.search(before) and _PAIR_CLOSE_RE.match(after))


def attribute(text: str, anchors: Sequence[Anchor]) -> Attribution:
    """Decide which anchors of ``text`` are its subjects (DESIGN.md §3).

    Rules, in order: ids are always subjects; a name right before its own id in brackets
    (``Mooncake … （来源：arXiv:2407.00079）``, ``HydraServe（arXiv:…）``) is the same subject as
    the id and is dropped in its favour (the pair is returned); a name that is a host or
    baseline (:func:`is_host`) is no subject; ``X 的 Y`` makes Y lead.

    :param anchors: every id and name found in ``text``, any order, no overlaps.
    """
    ordered = sorted(anchors, key=lambda a: (a.start, a.end))
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
        if is_host(text, a.start, a.end):
            hosts.append(a.key)
        else:
            own.append(a)
    while len(own) > 1 and not own[0].is_id and _OF_RE.match(text[own[0].end:own[1].start]):
        own = own[1:] + own[:1]  # "X 的 Y": Y leads, X stays a subject
    keys = {a.key for a in own}
    return Attribution(own, [h for h in dict.fromkeys(hosts) if h not in keys], pairs)


def _cites(text: str, end: int, id_start: int) -> bool:
    """The id at ``id_start`` is the name's own: right after it, or in a source bracket later in
    the same clause."""
    gap = text[end:id_start]
    if _ID_GAP_RE.match(gap):
        return True
    if _CLAUSE_RE.search(gap) or _SOURCE_BRACKET_RE.search(gap) is None or len(gap) > 80:
        return False
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


def clause_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Bounds of the clause holding ``text[start:end]`` (split at ，；。 etc. and table pipes)."""
    starts, ends = _clause_marks(text)
    i = bisect_right(ends, start) - 1  # the last mark that ends at or before ``start``
    j = bisect_left(starts, end)  # the first mark that starts at or after ``end``
    return (ends[i] if i >= 0 else 0), (starts[j] if j < len(starts) else len(text))


def owner(own: Sequence[Anchor], text: str, start: int, end: int) -> str | None:
    """The subject a number at ``text[start:end]`` belongs to: the nearest own anchor before it
    in its clause, else None (then: the claim's first subject). For many numbers of one text,
    build one :class:`Owners`."""
    return Owners(own, text).of(start, end)


class Owners:
    """:func:`owner` for every number of one text: the anchors sorted once, each number answered
    by bisection, so a unit with n numbers and m anchors costs O((n + m) log m), not n·m
    (bench_adversarial's ``entity-numbers`` shape: ``vLLM 1.5× `` repeated)."""

    __slots__ = ("_text", "_starts", "_keys")

    def __init__(self, own: Sequence[Anchor], text: str) -> None:
        ordered = sorted((a.start, a.key) for a in own)
        self._text = text
        self._starts = [a for a, _ in ordered]
        self._keys = [k for _, k in ordered]

    def of(self, start: int, end: int) -> str | None:
        """The subject of the number at ``text[start:end]``: the last anchor (by start, then
        key) that starts in its clause before it, else None."""
        cs, _ = clause_bounds(self._text, start, end)
        i = bisect_left(self._starts, start) - 1
        return self._keys[i] if i >= 0 and self._starts[i] >= cs else None


#: Set-up conditions in a clause. The model-size branch (``Llama-3-70B``, ``Qwen2.5-Coder-32B``)
#: takes at most 16 ``-``/``.`` segments before its size: unbounded, every word of a long
#: ``a-a-a-…`` run without a size started a scan to the run's end (kb lint of 64 KB took
#: 28 s, bench_adversarial's ``word-dashes``); no model name has more.
_COND_RE = re.compile(
    r"RTX\s*(?:PRO\s*)?\d{4}|(?<![A-Za-z0-9])(?:[ABHLT]\d{2,3}|GB\d{2,3}|MI\d{3}X?|(?:NV|MX)?FP\d{1,2}|INT\d|W\d+A\d+)(?![A-Za-z0-9])"
    r"|(?<![A-Za-z])M\d\s*(?:Max|Pro|Ultra)|batch\s*(?:size\s*)?[=:]?\s*\d+|offload|显存|in[- ]memory|并发\s*\d+"
    r"|单请求|single[- ]request|(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+){0,16}-\d+(?:\.\d+)?[BbMK](?![A-Za-z0-9])",
    re.IGNORECASE,
)
_HINT_RE = re.compile(
    r"(?:建议(?:归入|归位|补入|补到|补充到|写入|放入|并入|收入|入)|归入|归位|补入|suggested section|file under|belongs in)"
    r"\s*[:：]?[^§\n]{0,16}?§\s*(\d+(?:\.\d+)*)",
    re.IGNORECASE,
)
_COUNTERS = frozenset("张件条个篇家项台次种款位名卡轮")
_NOUN_AFTER_RE = re.compile(r"\s*[\u4e00-\u9fff]")


@dataclass(frozen=True, slots=True)
class Fact:
    """One comparable value: a number with a metric or unit, or a date with a date metric."""

    subject: str
    group: str
    metric: str | None
    qualifier: str | None
    unit: str | None
    value: float | None
    low: float | None
    high: float | None
    date: str | None
    precision: str | None
    raw: str
    kind: str
    claim_id: str
    path: str
    line: int
    bound: str | None = None
    """``>``, ``≥``, ``<``, ``≤``, ``~`` as stated (:class:`kb.claims.Quantity`), read by
    :func:`kb.values.same_value`: ``>80%`` is the same value as ``85%``."""
    transition: str | None = None
    """``from`` or ``to`` for an end of a change ``A → B`` (:attr:`kb.claims.Quantity.transition`):
    a ``from`` value is stated (it matches the doc's) but is no new value."""

    @property
    def source(self) -> str:
        """``path:line``."""
        return f"{self.path}:{self.line}"

    @property
    def is_date(self) -> bool:
        return self.date is not None

    @property
    def value_out(self) -> float | str:
        """The ISO date, the number, or a range's lower end."""
        if self.date is not None:
            return self.date
        return self.value if self.value is not None else (self.low if self.low is not None else 0.0)


def _fold(text: str) -> str:
    """Lower case with ``-`` and ``_`` read as spaces, same length as ``text`` (positions kept):
    ``text-generation-inference`` finds ``Text Generation Inference``."""
    low = text.lower()
    if len(low) != len(text):
        low = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    return low.replace("-", " ").replace("_", " ")


class NameMatcher:
    """Case-insensitive, longest-first name finder over many names (kb.yaml entities and thousands
    of card aliases); the one name matcher of kb (parser and diff alike).

    ``-``, ``_`` and spaces are alike; ASCII names do not match inside a word (``vllm-mlx`` is not
    ``vLLM``, ``v0.5`` no ``v0``).

    :param names: name (any case) -> subject key; names shorter than 2 characters are ignored.
    """

    def __init__(self, names: Mapping[str, str]) -> None:
        self.key_of: dict[str, str] = {}
        for n, k in names.items():
            f = _fold(n.strip())
            if len(f) >= 2:
                self.key_of.setdefault(f, k)
        self._index()

    def _index(self) -> None:
        """Where names can start and which to try there, from ``key_of`` alone."""
        by_prefix: dict[str, dict[int, set[str]]] = {}
        self._short: frozenset[str] = frozenset(n for n in self.key_of if len(n) < 4)
        for name in self.key_of:
            if len(name) >= 4:
                by_prefix.setdefault(name[:4], {}).setdefault(len(name), set()).add(name)
        # first four characters -> [(length, names of that length)], longest first; names of two
        # or three characters in `_short` (tried after every longer name at the same position)
        self._buckets = {p: sorted(((n, frozenset(v)) for n, v in d.items()), reverse=True, key=lambda x: x[0])
                         for p, d in by_prefix.items()}
        firsts = {n[:2] for n in self.key_of}
        # where a name can start: one C-speed scan for the names' first two characters, so the
        # Python loop below visits only those positions (thousands of card titles, 200k claims).
        # A name that opens with an ASCII letter or digit starts a word: the scan passes over the
        # inside of words (`find` checks the rest: `_` and `-` are folded to spaces here)
        self._starts = None
        if firsts:
            inside = sorted((p for p in firsts if _word(p[0])), key=len, reverse=True)
            other = sorted((p for p in firsts if not _word(p[0])), key=len, reverse=True)
            alts = []
            if inside:
                alts.append("(?<![a-z0-9.])(?=(?:" + "|".join(re.escape(p) for p in inside) + "))")
            if other:
                alts.append("(?=(?:" + "|".join(re.escape(p) for p in other) + "))")
            self._starts = re.compile("|".join(alts))

    def state(self) -> list[Any]:
        """What :meth:`from_state` builds the same matcher from, JSON-able: the folded names,
        the short ones, the buckets and the start pattern (nothing folded or sorted again)."""
        return [self.key_of, sorted(self._short),
                [[p, [[n, sorted(names)] for n, names in lengths]] for p, lengths in self._buckets.items()],
                self._starts.pattern if self._starts is not None else None]

    @classmethod
    def from_state(cls, state: Sequence[Any]) -> NameMatcher:
        """The matcher whose :meth:`state` is ``state`` (as read back from JSON)."""
        key_of, short, buckets, starts = state
        m = cls.__new__(cls)
        m.key_of = key_of
        m._short = frozenset(short)
        m._buckets = {p: [(n, frozenset(names)) for n, names in lengths] for p, lengths in buckets}
        m._starts = re.compile(starts) if starts is not None else None
        return m

    def __bool__(self) -> bool:
        return bool(self.key_of)

    def find(self, text: str) -> list[tuple[str, int, int]]:
        """``(key, start, end)`` of names in ``text``, left to right, no overlaps."""
        if not self.key_of:
            return []
        low = _fold(text)
        out: list[tuple[str, int, int]] = []
        buckets, short = self._buckets, self._short
        after = 0  # names do not overlap: a start inside the last name found is passed over
        for m in self._starts.finditer(low):  # type: ignore[union-attr]
            i = m.start()
            if i < after or (i and _word(text[i]) and (_word(text[i - 1]) or text[i - 1] in "-.")):
                continue  # inside a name found, or inside an ASCII word: no bounded name starts here
            for length, names in buckets.get(low[i:i + 4], ()):
                end = i + length
                if low[i:end] in names and _bounded(text, i, end):
                    out.append((self.key_of[low[i:end]], i, end))
                    after = end
                    break
            else:
                for end in (i + 3, i + 2):
                    if low[i:end] in short and _bounded(text, i, end):
                        out.append((self.key_of[low[i:end]], i, end))
                        after = end
                        break
        return out


_HEADING_NUMBER_RE = re.compile(r"^[\s#§\d.、)）:：\-–—*_]*")
_HEADING_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9.+#_-]{1,38}$")


def heading_names(headings: Iterable[str]) -> list[tuple[str, str]]:
    """Names a living doc's headings give nodes of their own: ``(name, subject key)``.

    ``### 1.1 AWQ`` names ``entity:awq``; ``## 2.4 FlashInfer（arXiv:2606.20295）`` names
    ``arxiv:2606.20295``. Only a heading whose text (numbering and a bracketed id aside) is one
    name-like token counts. Without an id the token must look like a name: a capital inside, a
    digit, ``.`` or ``-`` (``GPTQ``, ``SmoothQuant``, ``llama.cpp``, ``TensorRT-LLM``), so that
    "Scheduling" or "开放问题" are no subject names; with exactly one id beside it, any word is
    the paper's name (``### §1.2 Medusa（arXiv:2401.10774）``). Several words are never a name
    here ("Speculative Decoding（arXiv:…）" would take every mention of the technique), but
    they label the id (:func:`heading_labels`).
    """
    out: list[tuple[str, str]] = []
    for h in headings:
        refs, text = _heading_text(h)
        if not _HEADING_NAME_RE.match(text):
            continue
        if len(refs) != 1 and not _looks_like_name(text):
            continue
        out.append((text, refs[0].key if len(refs) == 1 else entity_key(text)))
    return out


def _looks_like_name(token: str) -> bool:
    """A token that looks like a system's or paper's name, not a word: a capital inside, a digit,
    ``.``, ``-``, ``+`` or ``#`` (``GPTQ``, ``SmoothQuant``, ``H2O``, ``llama.cpp``), not "Scheduling"."""
    return any(c.isupper() for c in token[1:]) or any(c.isdigit() or c in ".-+#" for c in token)


#: A name right before its own id in brackets, ``CacheGen（arXiv:2310.07240）``, ``KVSplice (2611.09981)``
#: (the text before the id's digits).
_NAME_BEFORE_ID_RE = re.compile(r"(?<![A-Za-z0-9_.+#-])(?P<name>[A-Za-z][A-Za-z0-9.+#_-]{1,38})\s*[（(【\[]\s*"
                                r"(?:arxiv\s*[:：]?\s*)?$", re.IGNORECASE)


def id_names(text: str, refs: Iterable[tuple[str, int]],
             known: Callable[[str], str | None] = lambda token: None) -> list[tuple[str, str]]:
    """``(arXiv key, name)`` for each id of ``text`` written in brackets right after a name:
    a name-like token (:func:`_looks_like_name`) or one ``known`` names (a kb.yaml entity, as
    its canonical name): ``CacheGen（arXiv:2310.07240）`` names ``arxiv:2310.07240`` "CacheGen",
    ``Mooncake（arXiv:2407.00079）`` "Mooncake" (issue 8: the brief showed
    ``arXiv:2310.07240（2310.07240）``). A word that is no name (``Channels (arXiv:…)``, the end
    of a title) names nothing.

    :param refs: ``(key, start)`` of each id, ``start`` the offset of its digits in ``text``.
    :param known: token -> the label of the kb.yaml entity it names, else None."""
    out = []
    for key, start in refs:
        if start <= 0 or not key.startswith("arxiv:"):
            continue
        m = _NAME_BEFORE_ID_RE.search(text, max(0, start - 60), start)
        if m is None:
            continue
        token = m.group("name").rstrip(".-_")
        name = known(token) or (token if _looks_like_name(token) else None)
        if name:
            out.append((key, name))
    return out


def heading_labels(headings: Iterable[str]) -> dict[str, str]:
    """``arXiv key -> name`` for headings that name one paper by its id: the words before the
    bracket (``### 2.3 Lookahead Decoding（arXiv:2402.02057）`` labels ``arxiv:2402.02057``
    "Lookahead Decoding"), shown for a paper without a card instead of its bare id."""
    out: dict[str, str] = {}
    for h in headings:
        refs, text = _heading_text(h)
        if len(refs) == 1 and _HEADING_LABEL_RE.match(text):
            out.setdefault(refs[0].key, text)
    return out


_HEADING_LABEL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9.+#_-]*(?: [A-Za-z0-9.+#_:-]+){0,5}$")


def _heading_text(heading: str) -> tuple[list, str]:
    """The ids of a heading and its text without numbering and bracketed parts."""
    refs = find_arxiv(heading)
    text = re.sub(r"[（(【\[][^）)】\]]*[）)】\]]", " ", heading)
    return refs, _HEADING_NUMBER_RE.sub("", text).strip().strip("*_ ")


def entity_names(config: KbConfig) -> dict[str, str]:
    """kb.yaml entities as matcher names: every alias and canonical name -> ``entity:…`` key."""
    names: dict[str, str] = {}
    for canon, aliases in config.entities.items():
        key = entity_key(canon)
        for n in (canon, *aliases):
            if n and n.strip():
                names.setdefault(n.strip().lower(), key)
    return names


def _word(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c == "_")


def _bounded(text: str, start: int, end: int) -> bool:
    """ASCII names do not stand inside a word (``vllm-mlx`` is not ``vLLM``, ``v0.5`` no ``v0``)."""
    if _word(text[start]) and start > 0 and (_word(text[start - 1]) or text[start - 1] in "-."):
        return False
    if _word(text[end - 1]) and end < len(text):
        nxt = text[end]
        after = text[end + 1] if end + 1 < len(text) else ""
        if _word(nxt) or (nxt == "-" and _word(after)) or (nxt == "." and after.isdigit()):
            return False
    return True


@dataclass(slots=True)
class View:
    """A claim as the diff sees it: subjects (first = primary), hosts, facts, section hint."""

    claim: Claim
    subjects: list[str]
    hosts: list[str]
    facts: list[Fact]
    hint: str | None
    mismatches: list[dict[str, str]] = field(default_factory=list)
    qualifiers: list[str | None] = field(default_factory=list)
    """Per quantity of the claim: what it is conditional on (:func:`qualifier`)."""
    owners: list[str | None] = field(default_factory=list)
    """Per quantity of the claim, then per date: the subject named before it in its clause
    (:func:`owner`), else None (then: the claim's first subject)."""
    leads: list[str] = field(default_factory=list)
    """Subjects the claim's text starts with (a node of its own: ``- vLLM：…``, a row's first
    cell), not those named in passing (``其他如 llama.cpp``, ``such as llama.cpp``)."""


def _names(config: KbConfig, cards: Sequence[Card], titles: Sequence[tuple[str, str]],
           headings: Sequence[str]) -> tuple[dict[str, str], dict[str, str], dict[str, str], dict[str, str]]:
    """What an :class:`Attributor` knows by name, from its inputs alone (``cards`` by path):
    ``(names: name -> key for the matcher, groups: entity key -> card key, titles: key -> a
    title, labels: key -> heading label or kb.yaml canonical name)``."""
    names = entity_names(config)
    for name, key in heading_names(headings):
        names.setdefault(name.lower(), key)
    labels = {**heading_labels(headings), **{entity_key(c): c for c in config.entities}}
    known: dict[str, str] = {}
    group: dict[str, str] = {}
    for card in cards:
        for n in card.names():
            low = n.strip().lower()
            if len(low) < 3 or low.replace(".", "").isdigit():
                continue
            other = names.get(low)
            if other is not None and other.startswith("entity:"):
                group.setdefault(other, card.key)  # type: ignore[arg-type]
            else:
                names.setdefault(low, card.key)  # type: ignore[arg-type]
    # a paper cited by title only is the same subject (DESIGN.md §3): link texts of the KB
    # and arXiv cache titles, whole titles only (12+ characters), never over a name above
    for key, title in titles:
        low = " ".join(title.strip().strip("*_.。 ").split()).lower()
        if title.strip():
            known.setdefault(key, " ".join(title.split()))
        if len(low) >= 12:
            names.setdefault(low, key)
    return names, group, known, labels


@lru_cache(maxsize=1)
def names_code() -> str:
    """A digest of kb's version and the code :func:`_names` reads names with (this module,
    kb.cards for card names, kb.extract.entities and kb.extract.arxiv_ids for headings): the
    kept names of :class:`Attributor` are built again when any of it changes."""
    import hashlib
    from pathlib import Path

    from kb import __version__

    h = hashlib.blake2b(__version__.encode(), digest_size=8)
    here = Path(__file__).resolve().parent.parent
    for p in ("diff/attrib.py", "cards.py", "extract/entities.py", "extract/arxiv_ids.py"):
        h.update((here / p).read_bytes())
    return h.hexdigest()


class Attributor:
    """Subject attribution for one KB (config entities + cards); see the module docstring.

    The rules themselves are :func:`attribute` and :func:`owner`, which the parser also uses
    (with kb.yaml entities only, since a parse must not depend on cards); the Attributor adds
    card names, the enclosing heading and the parser's inherited subjects.

    :param config: the KB config (entities, tolerance).
    :param cards: every paper card of the KB.
    :param titles: ``(subject key, title)`` of papers known by title
        (:func:`kb.cards.known_titles`: cards, arXiv link texts, the arXiv cache).
    :param headings: the living docs' heading texts: the names they give a node of their own
        are known subjects too (:func:`heading_names`; DESIGN.md §2: "living-doc headings").
    :param store: when given, what the Attributor knows by name (:func:`_names`) is kept in it
        between runs (:meth:`kb.store.Store.kept`, keyed by the entities, every card's key,
        title and aliases, the titles, the headings and the code): a night on a KB of
        thousands of cards reads it back instead of building it; any changed input builds it.
    :param memo: the ``meta`` key it is kept under: callers whose inputs differ (a night adds
        its baseline's headings) keep theirs apart, so they do not build each other's again.
    """

    def __init__(self, config: KbConfig, cards: Iterable[Card], titles: Iterable[tuple[str, str]] = (),
                 headings: Iterable[str] = (), *, store: Store | None = None,
                 memo: str = "attributor_names") -> None:
        headings = list(headings)
        cards = sorted(cards, key=lambda c: c.path)
        titles = list(titles)
        self._named: dict[str, str] = {}  # id -> the name written before it in brackets (learn)
        self.cards: dict[str, Card] = {}
        self.by_path: dict[str, Card] = {}
        for card in cards:
            self.cards.setdefault(card.key, card)  # type: ignore[arg-type]
            self.by_path[card.path] = card
        built: list[NameMatcher] = []

        def build() -> list[object]:
            names, group, known, labels = _names(config, cards, titles, headings)
            built.append(NameMatcher(names))
            return [built[0].state(), group, known, labels]

        if store is None:
            _, group, known, labels = build()
        else:  # kept between runs, keyed by every input (a changed card, alias, title or heading builds it again)
            inputs = [names_code(), {k: list(v) for k, v in config.entities.items()},
                      [[c.key, c.title, c.aliases] for c in cards], titles, headings]
            matcher_state, group, known, labels = store.kept(memo, inputs, build)
        self.labels: dict[str, str] = labels  # type: ignore[assignment]
        self._titles: dict[str, str] = known  # type: ignore[assignment]  # id -> a title the KB knows it by
        self._group: dict[str, str] = group  # type: ignore[assignment]
        self.matcher = built[0] if built else NameMatcher.from_state(matcher_state)
        self._views: dict[tuple[str, str], View] = {}
        self._atts: dict[tuple[str, str], tuple[list[Anchor], Attribution]] = {}
        self._names_in: dict[str, list[str]] = {}
        self._heading_anchors: dict[str, list[Anchor]] = {}
        self._learnt: set[tuple[str, str]] = set()

    def group(self, key: str) -> str:
        """The key values of ``key`` are compared under (an entity named like a card, or written
        with its id in brackets -> the paper)."""
        return self._group.get(key, key)

    def card_of(self, key: str) -> Card | None:
        return self.cards.get(key)

    def label(self, key: str) -> str:
        """How every output names subject ``key`` (the one decision; issue 8), first that
        applies: the card's title; the kb.yaml canonical name (an entity) or the name a living
        doc's heading gives the id (:func:`heading_labels`); the name written right before the
        id in brackets in a claim :meth:`learn` read — a kb.yaml entity's canonical name
        (``Mooncake（来源：arXiv:2407.00079）``) or a name-like token (:func:`id_names`,
        ``CacheGen（arXiv:2310.07240）``); else the key without its prefix (``2310.07240``)."""
        card = self.cards.get(key)
        if card and card.title:
            return card.title
        return self.labels.get(key) or self._named.get(key) or key.split(":", 1)[1]

    def _known(self, token: str) -> str | None:
        """The canonical name of the kb.yaml entity ``token`` names (any alias), else None."""
        key = self.matcher.key_of.get(_fold(token.strip()))
        return self.labels.get(key) if key and key.startswith("entity:") else None

    def title(self, key: str) -> str | None:
        """The title of paper ``key``: its card's, else the first the KB knows
        (:func:`kb.cards.known_titles`: link texts ``[Title](https://arxiv.org/abs/…)``, the
        arXiv cache), else None."""
        card = self.cards.get(key)
        return card.title if card and card.title else self._titles.get(key)

    def anchors(self, text: str, claim: Claim | None = None) -> list[Anchor]:
        """Ids, DOIs and names written in ``text`` (a claim's spans when given), no overlaps."""
        if claim is not None:
            out = [Anchor(r.start, r.end, r.key, True) for r in claim.arxiv if r.start >= 0]
            low = text.lower()
            for s in claim.subjects:
                if s.startswith("doi:") and (pos := low.find(s[4:])) >= 0:
                    out.append(Anchor(pos, pos + len(s) - 4, s, True))
        else:
            out = [Anchor(r.start, r.end, r.key, True) for r in find_arxiv(text)]
            out += [Anchor(a, b, f"doi:{d}", True) for d, a, b in find_dois(text)]
        taken = [(a.start, a.end) for a in out]
        for key, a, b in self.matcher.find(text):
            if not any(a < y and x < b for x, y in taken):
                out.append(Anchor(a, b, key, False))
        return sorted(out, key=lambda x: x.start)

    def names_in(self, text: str) -> list[str]:
        """Subject keys ``text`` is about (ids, DOIs, names; hosts and baselines left out);
        cached per text (every claim under a heading asks about the same heading)."""
        hit = self._names_in.get(text)
        if hit is None:
            hit = self._names_in[text] = attribute(text, self.anchors(text)).keys
        return hit

    def _claim_anchors(self, claim: Claim) -> tuple[list[Anchor], Attribution]:
        """A claim's anchors and their :func:`attribute`, computed once (``learn`` and ``view``)."""
        key = (claim.id, claim.text)
        hit = self._atts.get(key)
        if hit is None:
            anchors = self.anchors(claim.text, claim)
            hit = self._atts[key] = (anchors, attribute(claim.text, anchors))
        return hit

    def _heading_mismatches(self, heading: str, claim: Claim) -> list[dict[str, str]]:
        """:meth:`_mismatches` of one heading text, its anchors found once per heading."""
        anchors = self._heading_anchors.get(heading)
        if anchors is None:
            anchors = self._heading_anchors[heading] = self.anchors(heading)
        return self._mismatches(heading, anchors, claim) if anchors else []

    def learn(self, claims: Iterable[Claim]) -> None:
        """Group each name written with its own id (``Mooncake（来源：arXiv:2407.00079）``) with
        that id, so the name and the id are one subject everywhere, and let the name label the
        id (:meth:`label`; also a name no kb.yaml entity has, :func:`id_names`); call before
        :meth:`view`. The first claim to name an id, in the order given, names it. A claim
        learnt once is passed over (the diff, the brief's baseline snapshot and its ledger each
        learn the same night's claims)."""
        for c in claims:
            key = (c.id, c.text)
            if key in self._learnt:
                continue
            self._learnt.add(key)
            if "arxiv" in c.text.lower() or any(ch.isdigit() for ch in c.text):
                for name, paper in self._claim_anchors(c)[1].pairs:
                    if not name.startswith("arxiv:"):
                        self._group.setdefault(name, paper)
                if c.arxiv:
                    for paper, name in id_names(c.text, ((r.key, r.start) for r in c.arxiv), self._known):
                        self._named.setdefault(paper, name)

    def view(self, claim: Claim) -> View:
        """Attribute one claim (see the module docstring for the rules); cached per claim id and text."""
        hit = self._views.get((claim.id, claim.text))
        if hit is not None:
            return hit
        text = claim.text
        anchors, att = self._claim_anchors(claim)
        self._atts.pop((claim.id, claim.text), None)  # the view is cached instead
        mismatches = self._mismatches(claim.text, anchors, claim)
        for h in claim.provenance.heading:  # "## RetroSpec: …（arXiv:2612.00771）" over its bullets
            if "arxiv" in h.lower() or any(ch.isdigit() for ch in h):
                mismatches += [m for m in self._heading_mismatches(h, claim)
                               if m["cited"] not in {x["cited"] for x in mismatches}]
        fixed = {m["cited"]: m["card_subject"] for m in mismatches if m["cited"] not in self.cards}
        typos = set(fixed)
        own = [a for a in att.own if a.key not in typos]
        own_keys = list(dict.fromkeys(a.key for a in own))
        card = self.by_path.get(claim.provenance.path) if claim.role == "card" else None
        if card is not None:
            subjects, own = [card.key], []
        else:
            in_text = {a.key for a in anchors} | {n for n, _ in att.pairs}
            context = list(dict.fromkeys(fixed.get(s, s) for s in claim.subjects
                                         if s not in in_text and s not in att.hosts))
            papers = [s for s in context if s.startswith(("arxiv:", "doi:"))]
            if papers and not any(k.startswith(("arxiv:", "doi:")) for k in own_keys):
                subjects = list(dict.fromkeys(papers + own_keys))
            elif own_keys:
                subjects = own_keys
            elif context:
                subjects = context
            elif claim.unit in ("list-item", "table-row"):  # bullets under "## 2. HydraServe（arXiv:…）"
                subjects = next((ks for h in reversed(claim.provenance.heading) if (ks := self.names_in(h))), [])
            else:
                subjects = []
        who = Owners(own, text)
        owners: list[str | None] = [who.of(x.start, x.end) for x in (*claim.quantities, *claim.dates)]
        qual = Qualifiers(claim)
        quals = [qual.of(q) for q in claim.quantities]
        facts = self._facts(claim, [o or subjects[0] for o in owners], quals) if subjects else []
        hint = None
        if claim.role == "inbox":
            m = _HINT_RE.search(text)
            hint = claim.section_hint or (f"§{m.group(1)}" if m else None)
        elif claim.role == "living-doc":
            hint = claim.section_hint
        v = View(claim, subjects, att.hosts, facts, hint, mismatches, quals, owners,
                 _leads(text, own) if claim.unit != "sentence" else [])
        self._views[(claim.id, claim.text)] = v
        return v

    def attributed(self, claim: Claim) -> Claim:
        """``claim`` with the subjects :meth:`view` gives it, and each quantity's and date's
        ``subject`` (what ``kb claims`` prints, so it says what ``kb diff`` uses)."""
        v = self.view(claim)
        n = len(claim.quantities)
        return claim.model_copy(update={
            "subjects": v.subjects,
            "quantities": [q.model_copy(update={"subject": v.owners[i], "qualifier": v.qualifiers[i]})
                           for i, q in enumerate(claim.quantities)],
            "dates": [d.model_copy(update={"subject": v.owners[n + i]}) for i, d in enumerate(claim.dates)],
        })

    def _facts(self, claim: Claim, owners: Sequence[str | None], quals: Sequence[str | None]) -> list[Fact]:
        text = claim.text
        p = claim.provenance
        out: list[Fact] = []
        n = len(claim.quantities)
        for i, q in enumerate(claim.quantities):
            if (q.metric is None and q.unit is None) or q.metric in RATING_METRICS or q.metric in DATE_METRICS:
                continue
            if q.mood is not None:
                continue  # a plan or forecast is no figure; a value quoted to dispute it is no value
            if q.metric is None and q.unit in _COUNTERS and _NOUN_AFTER_RE.match(text, q.end):
                continue  # "共 8 个模块": a count of things named after it, not a figure of the subject
            if q.unit in ("devices", "卡", "台") or q.metric in CONDITION_METRICS:
                continue  # 8×H200, 8 卡, 并发 32: the set-up a figure was measured under, not a figure
            subj = owners[i] or ""
            out.append(Fact(subj, self.group(subj), q.metric, quals[i], q.unit, q.value, q.low, q.high,
                            None, None, q.raw, claim.kind, claim.id, p.path, p.line, q.bound, q.transition))
        for i, d in enumerate(claim.dates):
            if d.metric not in DATE_METRICS or d.mood is not None:
                continue
            subj = owners[n + i] or ""
            out.append(Fact(subj, self.group(subj), d.metric, None, None, None, None, None, d.value, d.precision,
                            d.raw, claim.kind, claim.id, p.path, p.line))
        return out

    def _mismatches(self, text: str, anchors: Sequence[Anchor], claim: Claim) -> list[dict[str, str]]:
        """A card name followed by a different arXiv id (``Lossy Verification（arXiv:2607.26672）``)
        in ``text`` (the claim's or one of its headings): a suspected typo of the card's id; the
        cited id, when it has no card, is then no subject of its own and stands for the card."""
        out = []
        for i, a in enumerate(anchors):
            if a.is_id or not a.key.startswith("arxiv:"):
                continue
            nxt = next((x for x in anchors[i + 1:] if x.key.startswith("arxiv:")), None)
            if nxt and nxt.is_id and nxt.key != a.key and _ID_GAP_RE.match(text[a.end:nxt.start]):
                out.append({"claim": claim.id, "source": f"{claim.provenance.path}:{claim.provenance.line}",
                            "name": text[a.start:a.end], "card_subject": a.key, "cited": nxt.key})
        return out


#: Words before a name that say it is named in passing, not a node: ``其他如 X``, ``such as X``.
_PASSING_RE = re.compile(r"(?:如|例如|比如|包括|其他|其它|等|such as|like|including|e\.g\.|for example|other)", re.IGNORECASE)
_LEAD_PREFIX_RE = re.compile(r"^[\s\-*+#>§\d.、)）(（\[\]【】|:：]*(?:[A-Z]\d{2,4}\s*)?")


def _leads(text: str, own: Sequence[Anchor]) -> list[str]:
    """Own subjects that open ``text`` (after list marks, numbering and an internal id such as
    ``C103``) or its first table cell; a name after 如/包括/such as/like is named in passing."""
    first_cell_end = text.find(" | ")
    lead_end = _LEAD_PREFIX_RE.match(text).end() + 2  # type: ignore[union-attr]
    out = []
    prev: Anchor | None = None
    for a in sorted(own, key=lambda x: x.start):
        head = text[:a.start]
        if _PASSING_RE.search(head):
            break
        if a.start <= lead_end or (first_cell_end > 0 and a.start < first_cell_end and " | " not in head) \
                or (prev is not None and prev.key in out and _OF_RE.match(text[prev.end:a.start])):
            out.append(a.key)
        prev = a
    return list(dict.fromkeys(out))


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
        return self._by_clause[key]

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
    normalised and joined with ``+``; cached, since each number of a sentence asks about the
    same set-up clauses."""
    found = sorted({re.sub(r"\s+", "", m.group(0).lower()) for m in _COND_RE.finditer(clause)})
    return "+".join(found) if found else None


def _norm_qual(q: str | None) -> str | None:
    return re.sub(r"\s+", "", q.lower()) if q else None
