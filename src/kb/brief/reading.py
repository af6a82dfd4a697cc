"""What the brief reads around a subject's rows (issue 22): the author's caveats and requests
(line moods), set-up values, bounds, first-hand citations of the living doc, a card's limits
and non-numeric results, metadata rows and the C/O numbers the window proposes.

One :class:`Reading` per night; every answer is plain data for :mod:`kb.brief.context`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any
from urllib.parse import urlsplit

from kb.core.claims import Claim, Quantity
from kb.extract.caveats import is_opinion, line_mood
from kb.extract.sections import hinted_section
from kb.facts.same import same_fact
from kb.night.run import Night

_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s")
#: Headings and line labels of a set-up block: its values are conditions, never results.
_SETUP_HEAD_RE = re.compile(r"设置|配置|环境|硬件|setup|set-up|configuration|hardware|environment", re.IGNORECASE)
_SETUP_LABEL_RE = re.compile(r"^\W*(?:硬件|环境|配置|设置|机器|平台|hardware|setup|machine|config(?:uration)?|platform)\s*[:：]",
                             re.IGNORECASE)
_CLAUSE_END = "，。；;,!！?？\n"
#: Metadata rows: a line labelled with what it is about the file or the card, not a finding.
_META_RE = re.compile(r"^\W*(?:论文|时间|日期|原文|来源|链接|作者|整理|建卡|推送|paper|source|link|date|time|author|created)\s*[:：]",
                      re.IGNORECASE)
_CARD_NOTE_RE = re.compile(r"建卡|\bcarded\b|\bcard created\b", re.IGNORECASE)
_LIMITS_RE = re.compile(r"^\s{0,3}#{1,6}\s*(?:局限|限制|不足|limitations?|caveats?)\b", re.IGNORECASE)
_RESULTS_RE = re.compile(r"^\s{0,3}#{1,6}\s*(?:结果|results?|findings?)\b", re.IGNORECASE)
_BULLET_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?P<text>.+)$")
_CANDIDATE_RE = re.compile(r"(?<![A-Za-z0-9])([CO])(\d{2,4})(?![0-9])")
#: A living-doc citation naming a primary source: the paper, the project's repository, docs or
#: official blog (``来源：官方博客 / README / docs / 论文``); a KB path or a relay site is none.
_PRIMARY_WORDS = re.compile(r"官方博客|官方文档|官方公告|发布说明|README|\bdocs?\b|论文|official blog|release notes|\bpaper\b",
                            re.IGNORECASE)
_PRIMARY_HOSTS = ("arxiv.org", "github.com", "gitlab.com", "huggingface.co", "doi.org")
_RELAY_HOSTS = ("csdn.net", "zhihu.com", "infoq.cn", "news.ycombinator.com", "substack.com", "medium.com", "reddit.com",
                "twitter.com", "x.com", "weixin.qq.com")
_SOURCE_LINE_RE = re.compile(r"^\W*(?:来源|出处|source|sources)\s*[:：]", re.IGNORECASE)
_TITLE_HEADS = ("标题", "论文", "论文标题", "题目", "title", "paper", "paper title")
_NAMED_ID_RE = r"(?P<name>[A-Za-z][\w.+-]{{2,40}})\s*[（(]\s*arxiv\s*[:：]?\s*{id}"
BOUNDS = {">": ">", "≥": "≥", "<": "<", "≤": "≤", "~": "~"}


def without_requests(text: str) -> str:
    """``text`` without the words of a request or rating hold on it (``值不值得升档请晚班判断``):
    a rating's marks are read from the rest (``★★★ 强候选``, never ``升档``)."""
    mood = line_mood(text)
    return text.replace(mood[1], "") if mood and mood[0] in ("evaluate", "hold") else text


def primary_source(cited: str) -> bool:
    """True when ``cited`` (a URL, ``arxiv:…``, ``doi:…``, a KB path or words) is a primary source."""
    low = cited.lower()
    if low.startswith(("arxiv:", "doi:")):
        return True
    if low.startswith("http"):
        host = (urlsplit(low).hostname or "").removeprefix("www.")
        if any(host == h or host.endswith("." + h) for h in _RELAY_HOSTS):
            return False
        path = urlsplit(low).path
        return (any(host == h or host.endswith("." + h) for h in _PRIMARY_HOSTS) or host.startswith(("docs.", "blog."))
                or "/blog" in path or "/docs" in path or "/research" in path or "/releases" in path)
    return False


class Reading:
    """The brief's reading of one night's files around its subjects (see the module)."""

    def __init__(self, night: Night) -> None:
        self.night = night
        self._text: dict[str, list[str]] = {}
        self._disputed: dict[str, dict[str, str]] = {}
        self.at_line: dict[tuple[str, int], list[Claim]] = defaultdict(list)
        for c in (*night.claims.values(), *night.doc.claims):
            self.at_line[c.provenance.path, c.provenance.line].append(c)

    def lines(self, path: str) -> list[str]:
        """The lines of ``path`` (KB-relative), read once; empty when unreadable."""
        if path not in self._text:
            try:
                self._text[path] = (self.night.kb.root / path).read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                self._text[path] = []
        return self._text[path]

    # -- line moods ---------------------------------------------------------------------
    def moods(self, key: str, claims: list[Claim]) -> list[dict[str, Any]]:
        """The author's caveats and requests about ``key``: each line with a mood
        (:func:`kb.extract.caveats.line_mood`) in a heading block holding one of its ``claims``,
        when the line's own claim is first about ``key`` or, on a line without a claim
        (``内部评级：不升档``), the nearest claim above it in the block is; newest first.
        ``[{"mood", "words", "text", "source", "when"}]``."""
        at = self.night.attributor

        def first(path: str, n: int) -> str | None:
            here = self.at_line.get((path, n), [])
            return next((at.view(x).subjects[0] for x in here if at.view(x).subjects), "") if here else None

        out: dict[str, dict[str, Any]] = {}
        for c in claims:
            path, lines = c.provenance.path, self.lines(c.provenance.path)
            lo, hi = _heading_block(lines, c.provenance.line)
            for n in range(lo, hi):
                found = line_mood(lines[n])
                if found is None:
                    continue
                who = first(path, n + 1)
                m = n
                while who is None and m > lo:
                    who, m = first(path, m), m - 1
                whose = {who} if who is not None else set()
                if who is not None and n + 1 != m + 1 and lines[m].lstrip().startswith("|"):
                    # a caveat under a table ("这组数只能看个趋势") is about every row of it
                    top, end = m, m
                    while top > 0 and lines[top - 1].lstrip().startswith("|"):
                        top -= 1
                    while end + 1 < len(lines) and lines[end + 1].lstrip().startswith("|"):
                        end += 1
                    whose |= {w for k in range(top, end + 1) if (w := first(path, k + 1))}
                if not any(at.group(w) == at.group(key) for w in whose):
                    continue
                src = f"{path}:{n + 1}"
                out.setdefault(src, {"mood": found[0], "words": found[1], "text": lines[n].strip(" -*\t"),
                                     "source": src, "when": c.provenance.written_at or ""})
        ordered = sorted(out.values(), key=lambda m: (m["source"].rsplit(":", 1)[0], int(m["source"].rsplit(":", 1)[1])))
        return sorted(ordered, key=lambda m: m["when"], reverse=True)  # newest first; one file in line order

    # -- placement evidence ---------------------------------------------------------------
    def block_hints(self, claims: list[Claim]) -> list[tuple[str, str, str]]:
        """Hint lines holding no claim (``- 建议归入 §2，顺带回答 O45。``) in the heading blocks of
        the window ``claims`` (not the doc's): ``[(section, path:line, "O45")]`` for
        :func:`kb.night.placement.place`, one per line."""
        out: dict[str, tuple[str, str, str]] = {}
        doc = self.night.doc.path
        for c in claims:
            path = c.provenance.path
            if path == doc:
                continue
            lines = self.lines(path)
            lo, hi = _heading_block(lines, c.provenance.line)
            for n in range(lo, hi):
                sec = hinted_section(lines[n])
                if sec and not self.at_line.get((path, n + 1)):
                    ids = "、".join(dict.fromkeys(a + b for a, b in _CANDIDATE_RE.findall(lines[n])))
                    out.setdefault(f"{path}:{n + 1}", (sec, f"{path}:{n + 1}", ids))
        return list(out.values())

    def disputed(self, key: str) -> dict[str, str]:
        """Values of ``key`` a window line disputes (:func:`kb.extract.kinds.moods` ``disputed``:
        ``lin 写的 >40% 和论文对不上，可能是抄错``): ``{raw: path:line of the disputing line}``."""
        if key not in self._disputed:
            at, out = self.night.attributor, {}
            for c in sorted(self.night.claims.values(), key=lambda c: (c.provenance.path, c.provenance.line)):
                subs = at.view(c).subjects
                for x in (*c.quantities, *c.dates):
                    if x.mood == "disputed" and (x.subject or (subs[0] if subs else None)) == key:
                        out.setdefault(x.raw, f"{c.provenance.path}:{c.provenance.line}")
            self._disputed[key] = out
        return self._disputed[key]

    def id_names(self, key: str) -> list[str]:
        """Names the window's files write with the paper ``key``'s id (``## 2. ShardSpec（arXiv:2609.06031）``
        → ``["ShardSpec"]``); empty for a subject that is no arXiv paper."""
        if not key.startswith("arxiv:"):
            return []
        pat = re.compile(_NAMED_ID_RE.format(id=re.escape(key[6:])), re.IGNORECASE)
        paths = dict.fromkeys(c.provenance.path for c in self.night.claims.values())
        return list(dict.fromkeys(m.group("name") for p in paths for line in self.lines(p) for m in pat.finditer(line)))

    def open_lines(self) -> list[tuple[str, str]]:
        """``(path:line, text)`` of the living doc's lines that hold no claim (open questions
        without a figure: ``- O44 ShardSpec … 能否并入 §3？``)."""
        doc = self.night.doc.path
        return [(f"{doc}:{n}", t) for n, t in enumerate(self.lines(doc), 1) if not self.at_line.get((doc, n))]

    def table_title(self, key: str) -> str | None:
        """The title a window table row gives the paper ``key`` (``| 14 | 2607.25668 | Critic-guided
        code review | coding | 38 |`` under a header naming the column 标题/论文/title/paper), else None."""
        for c in self.night.claims.values():
            if c.unit != "table-row" or not any(a.key == key for a in c.arxiv):
                continue
            lines = self.lines(c.provenance.path)
            n = c.provenance.line - 1
            while n > 0 and lines[n - 1].lstrip().startswith("|"):
                n -= 1
            head = [x.strip().lower() for x in lines[n].strip().strip("|").split("|")] if n < len(lines) else []
            row = [x.strip() for x in lines[c.provenance.line - 1].strip().strip("|").split("|")]
            col = next((i for i, h in enumerate(head) if h.startswith(_TITLE_HEADS)), None)
            if col is not None and col < len(row) and row[col] and key[6:] not in row[col]:
                return row[col]
        return None

    # -- set-up values, metadata rows ------------------------------------------------------
    def setup_raws(self, claims: list[Claim]) -> set[str]:
        """Raws of the quantities of ``claims`` that state the set-up (hardware, memory,
        simulated span), not a result: under a set-up heading, on a set-up labelled line, or in
        the condition clause ``在 … 上`` / ``64 GB 内存的 Mac 上运行`` / ``on a 64 GB Mac``."""
        out: set[str] = set()
        for c in claims:
            if any(_SETUP_HEAD_RE.search(h) for h in c.provenance.heading[1:]) or _SETUP_LABEL_RE.match(c.text):
                out.update(q.raw for q in c.quantities)
                continue
            out.update(q.raw for q in c.quantities if _in_condition(c.text, q))
        return out

    def is_opinion(self, c: Claim) -> bool:
        """``c`` states the author's opinion, not a finding (:func:`kb.extract.caveats.is_opinion`):
        under a heading saying so (``## 3. 选型指南（作者观点）``) or on a line led by it (``我的判断：…``).
        Its figures are no values to add and no secondhand-only figures to chase."""
        lines = self.lines(c.provenance.path)
        line = lines[c.provenance.line - 1] if 0 < c.provenance.line <= len(lines) else c.text
        return any(is_opinion(h, heading=True) for h in c.provenance.heading[1:]) or is_opinion(line)

    @staticmethod
    def is_metadata(c: Claim) -> bool:
        """A row about the file or the card (``论文：URL · HF 推送 · 建卡 spark``, ``时间：… · 整理：jay``,
        ``paper_cards/681（…），7-31 16:30 建卡``), not a finding: never listed under an increment."""
        if _META_RE.match(c.text):
            return True
        return bool(_CARD_NOTE_RE.search(c.text)) and not any(q.metric or q.unit for q in c.quantities)

    # -- bounds ------------------------------------------------------------------------
    def bounds(self) -> dict[str, str]:
        """raw -> the raw with its bound as written (``40%`` -> ``>40%``, ``4.1 tok/s`` -> ``~4.1 tok/s``)
        for every quantity of the night's claims stated with one (the first bound seen wins)."""
        out: dict[str, str] = {}
        for c in (*self.night.claims.values(), *self.night.doc.claims):
            for q in c.quantities:
                if q.bound and q.bound in BOUNDS:
                    out.setdefault(q.raw, f"{BOUNDS[q.bound]}{q.raw}")
        return out

    # -- first-hand citations of the living doc --------------------------------------------
    def doc_citation(self, c: Claim) -> str | None:
        """The primary source a living-doc line cites (the line's own sources, or the next line
        starting ``来源：``/``Source:``), else None."""
        for s in c.sources:
            if primary_source(s):
                return s
        lines = self.lines(c.provenance.path)
        nxt = lines[c.provenance.end_line] if c.provenance.end_line < len(lines) else ""
        m = _SOURCE_LINE_RE.match(nxt)
        if m:
            urls = re.findall(r"https?://\S+|arXiv:\s?\d{4}\.\d{4,5}", nxt)
            hit = next((u for u in urls if primary_source(u.replace("arXiv: ", "arxiv:").replace("arXiv:", "arxiv:"))), None)
            if hit:
                return hit
            if _PRIMARY_WORDS.search(nxt[m.end():]):
                return nxt[m.end():].strip()
        tail = c.text.split("来源", 1)[1] if "来源" in c.text else ""
        return tail.strip("：: ）)") if tail and _PRIMARY_WORDS.search(tail) else None

    def firsthand_values(self) -> set[tuple[str, str]]:
        """``(subject, raw)`` of the night's secondhand-only numbers that a living-doc line citing a
        primary source states (same group, :func:`kb.facts.same.same_fact`): first-hand cited,
        not "仅二手", not sent to "找一手来源"."""
        at, tol = self.night.attributor, self.night.kb.config.tolerance
        cited: dict[str, list[Any]] = defaultdict(list)
        for c in self.night.doc.claims:
            if self.doc_citation(c):
                for f in at.view(c).facts:
                    cited[f.group].append(f)
        out: set[tuple[str, str]] = set()
        for s in self.night.result.secondhand_only:
            c = self.night.claims.get(s.claim)
            if c is None:
                continue
            for f in at.view(c).facts:
                if f.subject == s.subject and f.raw == s.raw and any(same_fact(f, d, tol) for d in cited.get(f.group, ())):
                    out.add((s.subject, s.raw))
        return out

    # -- a card's limits and non-numeric results -------------------------------------------
    def card_notes(self, path: str) -> dict[str, list[dict[str, Any]]]:
        """The card's limits (``## 局限`` / ``## Limitations`` bullets) and its non-numeric result
        bullets (``## 结果`` lines without a digit): ``{"limits": [{"text", "source"}], "results": [...]}``."""
        out: dict[str, list[dict[str, Any]]] = {"limits": [], "results": []}
        where = None
        for n, line in enumerate(self.lines(path), 1):
            if _HEADING_RE.match(line):
                where = "limits" if _LIMITS_RE.match(line) else "results" if _RESULTS_RE.match(line) else None
                continue
            m = _BULLET_RE.match(line)
            if where and m and (where == "limits" or not re.search(r"\d", m.group("text"))):
                out[where].append({"text": m.group("text").strip(), "source": f"{path}:{n}"})
        return out

    # -- C/O numbers --------------------------------------------------------------------
    def proposed_candidates(self) -> list[dict[str, str]]:
        """C/O numbers the window's files propose that the living doc does not hold yet, once
        each with the first line proposing it: ``[{"id": "O172", "source": "path:line"}]``."""
        held = {m.group(0) for m in _CANDIDATE_RE.finditer(self.night.doc.text)}
        out: dict[str, str] = {}
        for c in sorted(self.night.claims.values(), key=lambda c: (c.provenance.path, c.provenance.line)):
            for m in _CANDIDATE_RE.finditer(c.text):
                if m.group(0) not in held:
                    out.setdefault(m.group(0), f"{c.provenance.path}:{c.provenance.line}")
        return [{"id": k, "source": v} for k, v in sorted(out.items(), key=lambda kv: (kv[0][0], int(kv[0][1:])))]


def _in_condition(text: str, q: Quantity) -> bool:
    """``q`` sits in a condition clause of ``text``: ``在 … 上/下`` around it, a memory size before
    ``… 上运行`` (``64 GB 内存的 Mac 上运行``), or ``on a / with`` right before a memory size."""
    lo = max((text.rfind(ch, 0, q.start) for ch in _CLAUSE_END), default=-1) + 1
    ends = [i for i in (text.find(ch, q.end) for ch in _CLAUSE_END) if i >= 0]
    hi = min(ends) if ends else len(text)
    before, after = text[lo:q.start], text[q.end:hi]
    if "在" in before and re.search(r"[上下中]", after):
        return True
    if q.unit == "B" and re.search(r"上(?:运行|跑|部署)", after):
        return True
    return q.unit == "B" and bool(re.search(r"(?:on\s+an?|with)\s*$", before, re.IGNORECASE))


def _heading_block(lines: list[str], line: int) -> tuple[int, int]:
    """``(lo, hi)``: the 0-based line range of the heading block holding 1-based ``line`` (from
    the line after the heading above it up to, not including, the next heading)."""
    lo = line - 1
    while lo > 0 and not _HEADING_RE.match(lines[lo - 1]):
        lo -= 1
    hi = line
    while hi < len(lines) and not _HEADING_RE.match(lines[hi]):
        hi += 1
    return lo, hi
