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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kb.claims import Claim
from kb.config import KbConfig
from kb.extract.arxiv_ids import InvalidArxivId, find_arxiv, parse_arxiv_id
from kb.extract.entities import entity_key
from kb.extract.refs import find_dois
from kb.values import same_value  # noqa: F401 - re-exported for kb.diff.rules

DATE_METRICS = frozenset({"eol_date", "release_date"})
RATING_METRICS = frozenset({"votes"})
# Words after which a name is a host or baseline, not the subject (superset of the parser's).
_HOST_RE = re.compile(
    r"(?:集成(?:到|至|进|于)?|接入|基于|依托|运行于|跑在|相对于?|相比(?:于)?|相较于?|对比|对照|比|较|领先|优于|快于|慢于|"
    r"高于|低于|超过|胜过|vs\.?|versus|baseline|基线|integrated into|on top of|built on|compared (?:with|to)|"
    r"than|over|against|outperforms?|beats?)\s*$",
    re.IGNORECASE,
)
# Words right after a name that make it a host or platform (``SGLang 后端``, ``vLLM 中集成``).
_HOST_AFTER_RE = re.compile(r"^\s*(?:v?\d+(?:\.\d+)*\s*)?(?:后端|backend|插件|plugin|中集成|上集成)", re.IGNORECASE)
# "X 的 Y" (possessive): Y is the topic of the sentence, not X (``SGLang v0.5.16 的 DeepSeek-V4-Pro``).
_OF_RE = re.compile(r"^\s*(?:v?\d+(?:\.\d+)*\s*)?的\s*$")
_CLAUSE_RE = re.compile(r"[，；;。！？!?\n]|,(?!\d)|\s\|\s")
_COND_RE = re.compile(
    r"RTX\s*(?:PRO\s*)?\d{4}|(?<![A-Za-z0-9])(?:[ABHLT]\d{2,3}|GB\d{2,3}|MI\d{3}X?|(?:NV|MX)?FP\d{1,2}|INT\d|W\d+A\d+)(?![A-Za-z0-9])"
    r"|(?<![A-Za-z])M\d\s*(?:Max|Pro|Ultra)|batch\s*(?:size\s*)?[=:]?\s*\d+|offload|显存|in[- ]memory|并发\s*\d+"
    r"|\d+\s*[kK]\s*上下文|单请求|single[- ]request|(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*-\d+(?:\.\d+)?[BbMK](?![A-Za-z0-9])",
    re.IGNORECASE,
)
_HINT_RE = re.compile(
    r"(?:建议(?:归入|归位|补入|补到|补充到|写入|放入|并入|收入|入)|归入|归位|补入|suggested section|file under|belongs in)"
    r"\s*[:：]?[^§\n]{0,16}?§\s*(\d+(?:\.\d+)*)",
    re.IGNORECASE,
)
_COUNTERS = frozenset("张件条个篇家项台次种款位名卡轮")
_NOUN_AFTER_RE = re.compile(r"\s*[\u4e00-\u9fff]")
_ID_GAP_RE = re.compile(r"^[\s（(【\[,，:：]*(?:arxiv\s*[:：]?\s*)?$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Card:
    """A paper card as the diff needs it (front matter of ``organized/paper_cards/*.md``)."""

    key: str
    path: str
    title: str
    aliases: tuple[str, ...] = ()
    category: str | None = None
    also: tuple[str, ...] = ()
    created: str | None = None
    number: str | None = None

    def names(self) -> list[str]:
        """Title, the title before its colon, and aliases."""
        out = [self.title] if self.title else []
        short = re.split(r"[:：]", self.title, maxsplit=1)[0].strip() if self.title else ""
        if short and short != self.title:
            out.append(short)
        return out + list(self.aliases)


def card_from_front(path: str, front: Mapping[str, Any], written_at: str | None = None) -> Card | None:
    """A :class:`Card` from stored front matter (``arxiv`` as written, DESIGN.md §3), else None."""
    raw = str(front.get("arxiv") or "").strip()
    try:
        key = parse_arxiv_id(raw).key if raw else None
    except InvalidArxivId:
        key = None
    if key is None:
        return None

    def strs(v: Any) -> tuple[str, ...]:
        items = v if isinstance(v, (list, tuple)) else [v] if v else []
        return tuple(str(x).strip() for x in items if str(x).strip())

    return Card(key=key, path=path, title=str(front.get("title") or "").strip(), aliases=strs(front.get("aliases")),
                category=str(front["category"]).strip() if front.get("category") else None,
                also=strs(front.get("also")), created=written_at,
                number=str(front["card"]) if front.get("card") is not None else None)


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


def arxiv_month(key: str) -> str | None:
    """``YYYY-MM`` of an arXiv subject key (``arxiv:2607.26627`` -> ``2026-07``), else None."""
    if not key.startswith("arxiv:"):
        return None
    m = re.match(r"(\d{2})(\d{2})\.\d{4,5}$", key[6:]) or re.search(r"/(\d{2})(\d{2})\d{3}$", key[6:])
    if not m:
        return None
    yy = int(m.group(1))
    year = 2000 + yy if "/" not in key or yy < 91 else 1900 + yy
    return f"{year:04d}-{m.group(2)}"


class NameMatcher:
    """Case-insensitive, longest-first name finder over many names (thousands of card aliases).

    :param names: lower-cased name -> subject key.
    """

    def __init__(self, names: Mapping[str, str]) -> None:
        self.key_of = {n: k for n, k in names.items() if len(n) >= 2}
        by_prefix: dict[str, dict[int, set[str]]] = {}
        for name in self.key_of:
            by_prefix.setdefault(name[:2], {}).setdefault(len(name), set()).add(name)
        # first two characters -> [(length, names of that length)], longest first
        self._buckets = {p: sorted(((n, frozenset(v)) for n, v in d.items()), reverse=True, key=lambda x: x[0])
                         for p, d in by_prefix.items()}

    def find(self, text: str) -> list[tuple[str, int, int]]:
        """``(key, start, end)`` of names in ``text``, left to right, no overlaps."""
        low = text.lower()
        if len(low) != len(text):
            low = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
        out: list[tuple[str, int, int]] = []
        i, n = 0, len(low)
        buckets = self._buckets
        while i < n:
            if i and _word(text[i]) and (_word(text[i - 1]) or text[i - 1] in "-."):
                i += 1  # inside an ASCII word: no bounded name starts here
                continue
            for length, names in buckets.get(low[i:i + 2], ()):
                end = i + length
                if low[i:end] in names and _bounded(text, i, end):
                    out.append((self.key_of[low[i:end]], i, end))
                    i = end - 1
                    break
            i += 1
        return out


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


class Attributor:
    """Subject attribution for one KB (config entities + cards); see the module docstring.

    :param config: the KB config (entities, tolerance).
    :param cards: every paper card of the KB.
    """

    def __init__(self, config: KbConfig, cards: Iterable[Card]) -> None:
        names: dict[str, str] = {}
        self.labels: dict[str, str] = {}
        for canon, aliases in config.entities.items():
            key = entity_key(canon)
            self.labels[key] = canon
            for n in (canon, *aliases):
                if n and n.strip():
                    names.setdefault(n.strip().lower(), key)
        self.cards: dict[str, Card] = {}
        self.by_path: dict[str, Card] = {}
        self._group: dict[str, str] = {}
        for card in sorted(cards, key=lambda c: c.path):
            self.cards.setdefault(card.key, card)
            self.by_path[card.path] = card
            for n in card.names():
                low = n.strip().lower()
                if len(low) < 3 or low.replace(".", "").isdigit():
                    continue
                other = names.get(low)
                if other is not None and other.startswith("entity:"):
                    self._group.setdefault(other, card.key)
                else:
                    names.setdefault(low, card.key)
        self.matcher = NameMatcher(names)

    def group(self, key: str) -> str:
        """The key values of ``key`` are compared under (an entity named like a card -> the card)."""
        return self._group.get(key, key)

    def card_of(self, key: str) -> Card | None:
        return self.cards.get(key)

    def label(self, key: str) -> str:
        """Card title, kb.yaml canonical name, or the key without its prefix."""
        card = self.cards.get(key)
        if card and card.title:
            return card.title
        return self.labels.get(key) or key.split(":", 1)[1]

    def names_in(self, text: str) -> list[str]:
        """Subject keys named in ``text`` (ids, DOIs, names), in order, host words ignored."""
        keys = [r.key for r in find_arxiv(text)] + [f"doi:{d}" for d, _, _ in find_dois(text)]
        keys += [k for k, s, _ in self.matcher.find(text) if not _HOST_RE.search(text[max(0, s - 24):s])]
        return list(dict.fromkeys(keys))

    def view(self, claim: Claim) -> View:
        """Attribute one claim (see the module docstring for the rules)."""
        text = claim.text
        anchors = [(r.start, r.end, r.key, True) for r in claim.arxiv if r.start >= 0]
        low = text.lower()
        for s in claim.subjects:
            if s.startswith("doi:") and (pos := low.find(s[4:])) >= 0:
                anchors.append((pos, pos + len(s) - 4, s, True))
        taken = [(a, b) for a, b, _, _ in anchors]
        for key, a, b in self.matcher.find(text):
            if not any(a < y and x < b for x, y in taken):
                host = _HOST_RE.search(text[max(0, a - 24):a]) or _HOST_AFTER_RE.match(text[b:b + 16])
                anchors.append((a, b, key, host is None))
        anchors.sort()
        own = [a for a in anchors if a[3]]
        while len(own) > 1 and _OF_RE.match(text[own[0][1]:own[1][0]]):
            own = own[1:] + own[:1]  # "X 的 Y": Y leads, X stays a subject
        own_keys = list(dict.fromkeys(a[2] for a in own))
        hosts = [k for k in dict.fromkeys(a[2] for a in anchors) if k not in own_keys]
        card = self.by_path.get(claim.provenance.path) if claim.role == "card" else None
        mismatches = self._mismatches(claim, anchors)
        if card is not None:
            subjects, own = [card.key], []
        else:
            in_text = {a[2] for a in anchors}
            inherited = [s for s in claim.subjects if s not in in_text and s.startswith(("arxiv:", "doi:"))]
            if inherited and not any(k.startswith(("arxiv:", "doi:")) for k in own_keys):
                subjects = list(dict.fromkeys(inherited + own_keys))
            elif own_keys:
                subjects = own_keys
            elif claim.unit in ("list-item", "table-row"):
                subjects = next((ks for h in reversed(claim.provenance.heading) if (ks := self.names_in(h))), [])
            else:
                subjects = []
        facts = self._facts(claim, subjects, own) if subjects else []
        hint = None
        if claim.role == "inbox":
            m = _HINT_RE.search(text)
            hint = claim.section_hint or (f"§{m.group(1)}" if m else None)
        elif claim.role == "living-doc":
            hint = claim.section_hint
        return View(claim, subjects, hosts, facts, hint, mismatches)

    def _facts(self, claim: Claim, subjects: list[str], own: list[tuple[int, int, str, bool]]) -> list[Fact]:
        text = claim.text
        p = claim.provenance
        out: list[Fact] = []
        for q in claim.quantities:
            if (q.metric is None and q.unit is None) or q.metric in RATING_METRICS or q.metric in DATE_METRICS:
                continue
            if q.metric is None and q.unit in _COUNTERS and _NOUN_AFTER_RE.match(text, q.end):
                continue  # "共 8 个模块": a count of things named after it, not a figure of the subject
            if q.unit == "devices" or q.metric in CONDITION_METRICS:
                continue  # 8×H200, 并发 32: the set-up a figure was measured under, not a figure
            cs, ce = _clause(text, q.start, q.end)
            subj = _nearest(own, cs, q.start) or subjects[0]
            # a table row's conditions are in its other cells (model, concurrency, hardware)
            qual = q.qualifier or _conditions(text if claim.unit == "table-row" else text[cs:ce])
            out.append(Fact(subj, self.group(subj), q.metric, _norm_qual(qual), q.unit, q.value, q.low, q.high,
                            None, None, q.raw, claim.kind, claim.id, p.path, p.line))
        for d in claim.dates:
            if d.metric not in DATE_METRICS:
                continue
            cs, _ = _clause(text, d.start, d.end)
            subj = _nearest(own, cs, d.start) or subjects[0]
            out.append(Fact(subj, self.group(subj), d.metric, None, None, None, None, None, d.value, d.precision,
                            d.raw, claim.kind, claim.id, p.path, p.line))
        return out

    def _mismatches(self, claim: Claim, anchors: Sequence[tuple[int, int, str, bool]]) -> list[dict[str, str]]:
        """A card name followed by a different arXiv id (``Lossy Verification（arXiv:2607.26672）``)."""
        out = []
        for i, (a, b, key, _) in enumerate(anchors):
            if not key.startswith("arxiv:") or (a, b) in {(r.start, r.end) for r in claim.arxiv}:
                continue
            nxt = next(((x, k) for x, _, k, _ in anchors[i + 1:] if k.startswith("arxiv:")), None)
            if nxt and nxt[1] != key and _ID_GAP_RE.match(claim.text[b:nxt[0]]) and any(
                    r.start == nxt[0] for r in claim.arxiv):
                out.append({"claim": claim.id, "source": f"{claim.provenance.path}:{claim.provenance.line}",
                            "name": claim.text[a:b], "card_subject": key, "cited": nxt[1]})
        return out


#: Metrics that describe the set-up of a measurement rather than its result.
CONDITION_METRICS = frozenset({"concurrency"})


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    """Bounds of the clause holding ``text[start:end]`` (split at ，；。 etc. and table pipes)."""
    cs = 0
    for m in _CLAUSE_RE.finditer(text, 0, start):
        cs = m.end()
    m = _CLAUSE_RE.search(text, end)
    return cs, m.start() if m else len(text)


def _nearest(own: Sequence[tuple[int, int, str, bool]], clause_start: int, pos: int) -> str | None:
    inside = [(a, key) for a, _, key, _ in own if clause_start <= a < pos]
    return max(inside)[1] if inside else None


def _conditions(clause: str) -> str | None:
    found = sorted({re.sub(r"\s+", "", m.group(0).lower()) for m in _COND_RE.finditer(clause)})
    return "+".join(found) if found else None


def _norm_qual(q: str | None) -> str | None:
    return re.sub(r"\s+", "", q.lower()) if q else None
