"""What the brief reads around a subject's rows (issue 22): the author's caveats and requests
(line moods), set-up values, bounds, a card's limits
and non-numeric results, metadata rows and the C/O numbers the window proposes.

One :class:`Reading` per night; every answer is plain data for :mod:`kb.brief.context`.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from kb.brief.bounds import Bounds
from kb.core.claims import Claim, Quantity
from kb.core.textio import Problem
from kb.extract.caveats import is_heading, is_opinion, line_mood
from kb.extract.sections import hinted_section
from kb.night.placement import DocOutline
from kb.night.run import Night
from kb.perf.memo import PerObject, Substrings
from kb.store.lines import file_lines

#: Headings and line labels of a set-up block: its values are conditions, never results.
_SETUP_HEAD_RE = re.compile(r"设置|配置|环境|硬件|setup|set-up|configuration|hardware|environment", re.IGNORECASE)
_SETUP_LABEL_RE = re.compile(r"^\W*(?:硬件|环境|配置|设置|机器|平台|hardware|setup|machine|config(?:uration)?|platform)\s*[:：]",
                             re.IGNORECASE)
#: Headings of an author's opinion: its figures are views, not measurements to add.
_CLAUSE_END = "，。；;,!！?？\n"
_CONDITION_RES = (re.compile(f"[{_CLAUSE_END}]"), re.compile("在"), re.compile("[上下中]"), re.compile("上(?:运行|跑|部署)"))
#: Metadata rows: a line labelled with what it is about the file or the card, not a finding.
_META_RE = re.compile(r"^\W*(?:论文|时间|日期|原文|来源|链接|作者|整理|建卡|推送|paper|source|link|date|time|author|created)\s*[:：]",
                      re.IGNORECASE)
_CARD_NOTE_RE = re.compile(r"建卡|\bcarded\b|\bcard created\b", re.IGNORECASE)
_LIMITS_RE = re.compile(r"^\s{0,3}#{1,6}\s*(?:局限|限制|不足|limitations?|caveats?)\b", re.IGNORECASE)
_RESULTS_RE = re.compile(r"^\s{0,3}#{1,6}\s*(?:结果|results?|findings?)\b", re.IGNORECASE)
_BULLET_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?P<text>.+)$")
_CANDIDATE_RE = re.compile(r"(?<![A-Za-z0-9])([CO])(\d{2,4})(?![0-9])")
_TITLE_HEADS = ("标题", "论文", "论文标题", "题目", "title", "paper", "paper title")
_NEW_ID_RE = re.compile(r"\d{4}\.\d{4,5}")
#: A name written just before a bracketed arXiv id (``ShardSpec（arXiv:``), ending where the id starts.
_NAMED_ID_RE = re.compile(r"(?P<name>[A-Za-z][\w.+-]{2,40})\s*[（(]\s*arxiv\s*[:：]?\s*\Z", re.IGNORECASE)


def without_requests(text: str) -> str:
    """``text`` without the words of a request or rating hold on it (``值不值得升档请晚班判断``):
    a rating's marks are read from the rest (``★★★ 强候选``, never ``升档``)."""
    mood = line_mood(text)
    return text.replace(mood[1], "") if mood and mood[0] in ("evaluate", "hold") else text


class Reading:
    """The brief's reading of one night's files around its subjects (see the module)."""

    def __init__(self, night: Night) -> None:
        self.night = night
        self._text: dict[str, list[str]] = {}
        self._disputed: dict[str | None, dict[str, str]] = {}
        self._heads: dict[str, list[int]] = {}
        self._led: dict[tuple[str, int], bool] = {}  # (path, line) -> led by an opinion: a line read once, not per claim
        self._once = PerObject()  # a claim's answers read once, not once per subject it is under
        self._low: list[tuple[str, str]] = []  # the window's lines, as written and lower-cased
        self._secondhand: dict[str, dict[str, None]] | None = None
        self._table_rows: dict[str, list[Claim]] | None = None
        self._spots: dict[str, list[tuple[int, int]]] | None = None  # a new-style arXiv id -> (line, column)s
        self._marked: dict[tuple[str, Callable[[str], Any]], list[tuple[int, Any]]] = {}
        self._moods_at: dict[tuple[str, int, int], dict[str, list[tuple[int, Any]]]] = {}  # (path, lo, hi) -> group -> moods
        self._bare_hints: dict[str, list[tuple[int, str]]] = {}  # path -> (0-based line, section) of hint lines without a claim
        self._outline: DocOutline | None = None
        self._doc_views: dict[str, list[Any]] | None = None
        self._last: dict[str, int] | None = None  # path -> the highest line a claim of the night names
        self.at_line: dict[tuple[str, int], list[Claim]] = defaultdict(list)
        for c in (*night.claims.values(), *night.doc.claims):
            self.at_line[c.provenance.path, c.provenance.line].append(c)

    def lines(self, path: str) -> list[str]:
        """The lines of ``path`` (KB-relative), read once, as ingest read them
        (:func:`kb.store.lines.file_lines`: decoded alike, front matter blanked), at least as
        many as the night's claims of the file name. A file that cannot be read any more, or is
        shorter than its stored claims say (changed since ingest), reads as blank lines where
        they are missing, with one warning naming it in the KB's problems (``kb digest``
        prints it): its table titles, caveats and hints are left out, never a wrong line read."""
        if path not in self._text:
            if self._last is None:
                self._last = {}
                for (p, _), claims in self.at_line.items():
                    self._last[p] = max(self._last.get(p, 0), *(max(c.provenance.line, c.provenance.end_line)
                                                                for c in claims))
            self._text[path], why = file_lines(self.night.kb.root, path, self._last.get(path, 0))
            if why is not None:
                self.night.kb.report.problems.append(Problem(
                    path, 0, f"{why}: the brief reads its lines as they are now (table titles, caveats and "
                             "hints of missing lines are left out)", "warning"))
        return self._text[path]

    def block(self, path: str, line: int) -> tuple[int, int]:
        """``(lo, hi)``: the 0-based line range of the heading block of ``path`` holding 1-based
        ``line`` (from the line after the heading above it up to, not including, the next
        heading; the indexed form of :func:`kb.extract.caveats.heading_block`); the file's headings
        are found once, so a block costs a look-up."""
        if path not in self._heads:
            self._heads[path] = [i for i, text in enumerate(self.lines(path)) if is_heading(text)]
        heads = self._heads[path]
        j, k = bisect_right(heads, line - 2), bisect_left(heads, line)
        return (heads[j - 1] + 1 if j else 0), (heads[k] if k < len(heads) else len(self.lines(path)))

    def marked(self, path: str, read: Callable[[str], Any], lo: int, hi: int) -> list[tuple[int, Any]]:
        """``[(n, found)]``: the 0-based lines ``lo <= n < hi`` of ``path`` where ``read`` (a line
        -> something or None: a mood, a hint) finds something; each file is read once per
        ``read``, so a block of many subjects costs a look-up per subject."""
        if (path, read) not in self._marked:
            self._marked[path, read] = [(n, x) for n, text in enumerate(self.lines(path)) if (x := read(text)) is not None]
        marks = self._marked[path, read]
        return marks[bisect_left(marks, lo, key=lambda t: t[0]):bisect_left(marks, hi, key=lambda t: t[0])]

    # -- line moods ---------------------------------------------------------------------
    def moods(self, key: str, claims: list[Claim]) -> list[dict[str, Any]]:
        """The author's caveats and requests about ``key``: each line with a mood
        (:func:`kb.extract.caveats.line_mood`) in a heading block holding one of its ``claims``,
        when the line's own claim is first about ``key`` or, on a line without a claim
        (``内部评级：不升档``), the nearest claim above it in the block is; newest first.
        ``[{"mood", "words", "text", "source", "when"}]``."""
        at = self.night.attributor
        mine = at.group(key)
        out: dict[str, dict[str, Any]] = {}
        seen: set[tuple[str, int]] = set()  # each heading block read once, however many claims it holds
        for c in claims:
            path, lines = c.provenance.path, self.lines(c.provenance.path)
            lo, hi = self.block(path, c.provenance.line)
            if (path, lo) in seen:
                continue
            seen.add((path, lo))
            for n, found in self._block_moods(path, lo, hi).get(mine, ()):
                src = f"{path}:{n + 1}"
                out.setdefault(src, {"mood": found[0], "words": found[1], "text": lines[n].strip(" -*\t"),
                                     "source": src, "when": c.provenance.written_at or ""})
        ordered = sorted(out.values(), key=lambda m: (m["source"].rsplit(":", 1)[0], int(m["source"].rsplit(":", 1)[1])))
        return sorted(ordered, key=lambda m: m["when"], reverse=True)  # newest first; one file in line order

    def _block_moods(self, path: str, lo: int, hi: int) -> dict[str, list[tuple[int, Any]]]:
        """The mood lines of the heading block ``lo <= n < hi`` of ``path`` by the Attributor group
        of each subject they are about (see :meth:`moods`), read once a night: a block of N
        subjects beside N mood lines was read once per subject (N x N)."""
        if (path, lo, hi) in self._moods_at:
            return self._moods_at[path, lo, hi]
        at = self.night.attributor
        lines = self.lines(path)

        def first(n: int) -> str | None:
            here = self.at_line.get((path, n), [])
            return next((at.view(x).subjects[0] for x in here if at.view(x).subjects), "") if here else None

        by_group: dict[str, list[tuple[int, Any]]] = defaultdict(list)
        for n, found in self.marked(path, line_mood, lo, hi):
            who = first(n + 1)
            m = n
            while who is None and m > lo:
                who, m = first(m), m - 1
            whose = {who} if who is not None else set()
            if who is not None and n + 1 != m + 1 and lines[m].lstrip().startswith("|"):
                # a caveat under a table ("这组数只能看个趋势") is about every row of it
                top, end = m, m
                while top > 0 and lines[top - 1].lstrip().startswith("|"):
                    top -= 1
                while end + 1 < len(lines) and lines[end + 1].lstrip().startswith("|"):
                    end += 1
                whose |= {w for k in range(top, end + 1) if (w := first(k + 1))}
            for g in dict.fromkeys(at.group(w) for w in sorted(whose)):
                by_group[g].append((n, found))
        self._moods_at[path, lo, hi] = by_group
        return by_group

    # -- placement evidence ---------------------------------------------------------------
    def block_hint(self, claims: list[Claim]) -> tuple[str, str, str] | None:
        """The first hint line holding no claim (``- 建议归入 §2，顺带回答 O45。``) in the heading
        blocks of the window ``claims`` (not the doc's; blocks in the order of ``claims``, lines in
        file order): ``(section, path:line, "O45")`` for :func:`kb.night.placement.place`, else None.
        The file's hint lines without a claim are found once a night, not once per subject (a
        block of N subjects beside N hint lines was N x N)."""
        doc = self.night.doc.path
        seen: set[tuple[str, int]] = set()
        for c in claims:
            path = c.provenance.path
            if path == doc:
                continue
            lines = self.lines(path)
            lo, hi = self.block(path, c.provenance.line)
            if (path, lo) in seen:
                continue
            seen.add((path, lo))
            if path not in self._bare_hints:
                self._bare_hints[path] = [(n, sec) for n, sec in self.marked(path, hinted_section, 0, len(lines))
                                          if not self.at_line.get((path, n + 1))]
            bare = self._bare_hints[path]
            i = bisect_left(bare, lo, key=lambda t: t[0])
            if i < len(bare) and bare[i][0] < hi:
                n, sec = bare[i]
                ids = "、".join(dict.fromkeys(a + b for a, b in _CANDIDATE_RE.findall(lines[n])))
                return sec, f"{path}:{n + 1}", ids
        return None

    def disputed(self, key: str) -> dict[str, str]:
        """Values of ``key`` a window line disputes (:func:`kb.extract.kinds.moods` ``disputed``:
        ``lin 写的 >40% 和论文对不上，可能是抄错``): ``{raw: path:line of the disputing line}``."""
        if not self._disputed:  # every subject's at once: one pass over the window's claims
            at = self.night.attributor
            self._disputed[None] = {}
            for c in sorted(self.night.claims.values(), key=lambda c: (c.provenance.path, c.provenance.line)):
                subs = at.view(c).subjects
                for x in (*c.quantities, *c.dates):
                    if x.mood == "disputed" and (whose := x.subject or (subs[0] if subs else None)) is not None:
                        self._disputed.setdefault(whose, {}).setdefault(x.raw, f"{c.provenance.path}:{c.provenance.line}")
        return dict(self._disputed.get(key, {}))

    def secondhand_only(self, key: str) -> list[str]:
        """The raws of ``key``'s secondhand-only values, in order, once each (the night's are
        indexed by subject once: a subject does not scan every subject's)."""
        if self._secondhand is None:
            self._secondhand = {}
            for x in self.night.result.secondhand_only:
                self._secondhand.setdefault(x.subject, {})[x.raw] = None
        return list(self._secondhand.get(key, ()))

    def id_names(self, key: str) -> list[str]:
        """Names the window's files write with the paper ``key``'s id (``## 2. ShardSpec（arXiv:2609.06031）``
        → ``["ShardSpec"]``); empty for a subject that is no arXiv paper."""
        if not key.startswith("arxiv:"):
            return []
        ident = key[6:]
        if self._spots is None:  # the window's lines and where each new-style id is written, once a night
            paths = dict.fromkeys(c.provenance.path for c in self.night.claims.values())
            self._low = [(line, line.lower()) for p in paths for line in self.lines(p)]
            self._spots = {}
            for n, (_, low) in enumerate(self._low):
                for m in _NEW_ID_RE.finditer(low):
                    self._spots.setdefault(m.group(), []).append((n, m.start()))
        if _NEW_ID_RE.fullmatch(ident):
            spots = self._spots.get(ident, [])
        else:  # an old-style id (hep-th/9901001): every place it is written
            spots = [(n, m.start()) for n, (_, low) in enumerate(self._low) for m in re.finditer(re.escape(ident), low)]
        names: list[str] = []
        for n, at in spots:  # the name is read just before each place the id is written (linear in a long line;
            # one pattern for every id: compiling one per id cost a millisecond each)
            if m := _NAMED_ID_RE.search(self._low[n][0], max(0, at - 200), at):
                names.append(m.group("name"))
        return list(dict.fromkeys(names))

    def outline(self) -> DocOutline:
        """The living doc's sections and its open entries holding no claim (open questions
        without a figure: ``- O44 ShardSpec … 能否并入 §3？``) as :func:`kb.night.placement.place`
        reads them, built once a night: every subject's placement reads it."""
        if self._outline is None:
            doc = self.night.doc.path
            open_lines = [(f"{doc}:{n}", t) for n, t in enumerate(self.lines(doc), 1) if not self.at_line.get((doc, n))]
            self._outline = DocOutline.of([(x.line, x.label, x.title) for x in self.night.doc.sections], open_lines)
        return self._outline

    def doc_views_of(self, key: str) -> list[Any]:
        """The Attributor's views of the living doc's claims (:meth:`kb.facts.attributor.Attributor.view`)
        naming the subject ``key``, in doc order: indexed once a night, as every subject's placement
        reads them (a scan of the doc per subject was quadratic in a doc of many subjects)."""
        if self._doc_views is None:
            self._doc_views = defaultdict(list)
            for c in self.night.doc.claims:
                v = self.night.attributor.view(c)
                for k in dict.fromkeys(v.subjects):
                    self._doc_views[k].append(v)
        return self._doc_views.get(key, [])

    def table_title(self, key: str) -> str | None:
        """The title a window table row gives the paper ``key`` (``| 14 | 2607.25668 | Critic-guided
        code review | coding | 38 |`` under a header naming the column 标题/论文/title/paper), else None."""
        if self._table_rows is None:  # the window's table rows by the papers they name, once a night
            self._table_rows = {}
            for c in self.night.claims.values():
                for k in dict.fromkeys(a.key for a in c.arxiv) if c.unit == "table-row" else ():
                    self._table_rows.setdefault(k, []).append(c)
        cells = (self._once.get("title cell", c, self._title_cell) for c in self._table_rows.get(key, []))
        return next((x.text for x in cells if x is not None and key[6:] not in x), None)  # a row's cell read once

    def _title_cell(self, c: Claim) -> Substrings | None:
        """The non-empty cell of table row ``c`` under a title column (:data:`_TITLE_HEADS`), else None."""
        lines, n = self.lines(c.provenance.path), c.provenance.line - 1
        while n > 0 and lines[n - 1].lstrip().startswith("|"):
            n -= 1
        head = [x.strip().lower() for x in lines[n].strip().strip("|").split("|")] if n < len(lines) else []
        row = [x.strip() for x in lines[c.provenance.line - 1].strip().strip("|").split("|")]
        col = next((i for i, h in enumerate(head) if h.startswith(_TITLE_HEADS)), None)
        return Substrings(row[col]) if col is not None and col < len(row) and row[col] else None

    # -- set-up values, opinions, metadata rows --------------------------------------------
    def opinion_raws(self, claims: list[Claim]) -> set[str]:
        """Raws of the quantities of ``claims`` that state an opinion (:meth:`is_opinion`: under
        ``## 3. 选型指南（作者观点）``, ``## Opinion``, or on a line led by ``我的判断：``): an author's
        view, not a measurement to add (issue 22's third review)."""
        return {q.raw for c in claims if self.is_opinion(c) for q in c.quantities}

    def setup_raws(self, claims: list[Claim]) -> set[str]:
        """Raws of the quantities of ``claims`` that state the set-up (hardware, memory,
        simulated span), not a result: under a set-up heading, on a set-up labelled line, or in
        the condition clause ``在 … 上`` / ``64 GB 内存的 Mac 上运行`` / ``on a 64 GB Mac``."""
        out: set[str] = set()
        for c in claims:
            if any(_SETUP_HEAD_RE.search(h) for h in c.provenance.heading[1:]) or _SETUP_LABEL_RE.match(c.text):
                out.update(q.raw for q in c.quantities)
                continue
            out.update(self._once.get("cond", c, lambda c: _condition_raws(c.text, c.quantities)))
        return out

    def is_opinion(self, c: Claim) -> bool:
        """``c`` states the author's opinion, not a finding (:func:`kb.extract.caveats.is_opinion`):
        under a heading saying so (``## 3. 选型指南（作者观点）``) or on a line led by it (``我的判断：…``).
        Its figures are no values to add and no secondhand-only figures to chase."""
        if any(is_opinion(h, heading=True) for h in c.provenance.heading[1:]):
            return True
        path, n = c.provenance.path, c.provenance.line
        lines = self.lines(path)
        if not 0 < n <= len(lines):
            return is_opinion(c.text)
        if (path, n) not in self._led:
            self._led[path, n] = is_opinion(lines[n - 1])
        return self._led[path, n]

    def is_metadata(self, c: Claim) -> bool:
        """A row about the file or the card (``论文：URL · HF 推送 · 建卡 spark``, ``时间：… · 整理：jay``,
        ``paper_cards/681（…），7-31 16:30 建卡``), not a finding: never listed under an increment."""
        return self._once.get("meta", c, lambda c: bool(_META_RE.match(c.text)) or (
            not any(q.metric or q.unit for q in c.quantities) and bool(_CARD_NOTE_RE.search(c.text))))

    def arxiv_keys(self, c: Claim) -> frozenset[str]:
        """The subject keys (``arxiv:2607.26627``) of the arXiv ids ``c`` writes (read once a claim)."""
        return self._once.get("ids", c, lambda c: frozenset(a.key for a in c.arxiv))

    def subject_keys(self, c: Claim) -> frozenset[str]:
        """``c.subjects`` as a set (made once a claim)."""
        return self._once.get("subjects", c, lambda c: frozenset(c.subjects))

    # -- bounds ------------------------------------------------------------------------
    def bounds(self, english: bool = False) -> Bounds:
        """How each raw of the night's claims is shown with its bound (``40%`` -> ``>40%``), per
        claim, per subject (the Attributor's owners, else the claim's first subject) and
        night-wide (:class:`kb.brief.bounds.Bounds`); ``english``: in the en brief's words."""
        at = self.night.attributor
        rows: list[tuple[Claim, list[str | None]]] = []
        for c in (*self.night.claims.values(), *self.night.doc.claims):
            v = at.view(c)
            first = v.subjects[0] if v.subjects else None
            rows.append((c, [o or first for o in v.owners[:len(c.quantities)]]))
        return Bounds(rows, english)

    # -- a card's limits and non-numeric results -------------------------------------------
    def card_notes(self, path: str) -> dict[str, list[dict[str, Any]]]:
        """The card's limits (``## 局限`` / ``## Limitations`` bullets) and its non-numeric result
        bullets (``## 结果`` lines without a digit): ``{"limits": [{"text", "source"}], "results": [...]}``."""
        out: dict[str, list[dict[str, Any]]] = {"limits": [], "results": []}
        where = None
        for n, line in enumerate(self.lines(path), 1):
            if is_heading(line):
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


def _condition_raws(text: str, quantities: Iterable[Quantity]) -> set[str]:
    """Raws of the ``quantities`` of ``text`` in a condition clause: ``在 … 上/下`` around one, a
    memory size before ``… 上运行`` (``64 GB 内存的 Mac 上运行``), or ``on a / with`` right before a
    memory size. The clause ends and cue words are found once per text, so a long line costs a
    look-up per quantity (linear in the line, never quadratic)."""
    ends, zai, side, run = ([m.start() for m in rx.finditer(text)] for rx in _CONDITION_RES)
    out = set()
    for q in quantities:
        i, j = bisect_left(ends, q.start), bisect_left(ends, q.end)
        lo, hi = (ends[i - 1] + 1 if i else 0), (ends[j] if j < len(ends) else len(text))
        if _first_at(zai, lo) < q.start and _first_at(side, q.end) < hi or q.unit == "B" and (_first_at(run, q.end) < hi
                                or re.search(r"(?:on\s+an?|with)\s*$", text[max(lo, q.start - 80):q.start], re.IGNORECASE)):
            out.add(q.raw)
    return out


def _first_at(positions: list[int], at: int) -> float:
    """The first of the sorted ``positions`` at or after ``at``, else infinity."""
    k = bisect_left(positions, at)
    return positions[k] if k < len(positions) else float("inf")
