"""The block walk: one file's block tokens, top-level block by block, to units (DESIGN.md §2).

Headings keep the stack of sections and subjects a unit inherits; a paragraph's sentences, a
list item's own text and a table's body rows are the units, each handed to
:meth:`kb.read.unit._UnitMaker._unit`.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Mapping
from typing import Any

from markdown_it.token import Token

from kb.core.claims import Claim, Kind, Unit
from kb.core.parsed import Heading
from kb.core.textio import Problem
from kb.extract.kinds import column_kind, is_kind_header, is_title_header
from kb.extract.names import NameMatcher, id_names
from kb.extract.refs import find_dois
from kb.extract.sections import section_number
from kb.extract.subjects import PAPER_KEY_PREFIXES, Anchor, attribute
from kb.extract.titles import numbered_item, paper_title, title_key
from kb.read.htmlblock import html_tokens
from kb.read.inline import _clip, _href_key, _Inline, _inline_text, _split_sentences
from kb.read.scopes import _ID_LINE_RE
from kb.read.tables import _cell_spans, _raw_cells, _raw_count, _raw_row, cell_text, header_column
from kb.read.unit import _dedupe, _UnitMaker


class _FileCtx(_UnitMaker):
    """Walks one file's tokens and collects its units, claims and mentions.

    Scopes (issue 20): a heading that is a paper title (:func:`kb.extract.titles.paper_title`) gives the
    units below it that paper, by id when the first unit under it names exactly one (``**arXiv:** 2602.17664``),
    else as ``title:…`` (the Attributor resolves it); a name written once with its id
    (``FlashSpec（arXiv:2611.04455）``) is that id wherever the file names it again; a file whose top
    names one paper gives every unit it (``default_subjects``: :func:`file_scope`). An HTML block
    is read as the paragraphs and tables of its text (:func:`kb.read.htmlblock.html_tokens`)."""

    _titled: Heading | None = None
    """The innermost heading that is a paper's title and waits for its id (the next units)."""
    _local: NameMatcher | None = None
    """The names this file wrote with their own id, as a matcher (None: none yet)."""
    _local_names: dict[str, str] | None = None
    section_ids: dict[int, str] = {}
    """Heading line → the one paper its section links (:func:`kb.read.scopes.section_ids`; set by the parser)."""

    # -- walking ----------------------------------------------------------------------------

    def walk(self, tokens: list[Token]) -> None:
        """One pass over the block tokens; list items keep a stack of their subjects."""
        items: list[tuple[int, list[str]]] = []  # (level of list_item_open, own subjects)
        i, n = 0, len(tokens)
        while i < n:  # (the token types by how often they come: one test for most tokens)
            tok = tokens[i]
            t = tok.type
            if t == "paragraph_open":
                if items and tok.level == items[-1][0] + 1:
                    inherited = [s for _, subj in items[:-1] for s in subj]
                    c = self._unit_from_inline(tokens[i + 1], tok, "list-item", inherited)
                    own = [s for s in c.subjects if s.startswith(PAPER_KEY_PREFIXES)] if c else []
                    if own:
                        items[-1] = (items[-1][0], own)
                else:
                    self._paragraph(tokens[i + 1], tok, [s for _, subj in items for s in subj])
                i += 3
                continue
            if t == "list_item_open":
                items.append((tok.level, []))
            elif t == "list_item_close":
                items.pop()
            elif t == "heading_open":
                self._heading(tok, tokens[i + 1])
                i += 3
                continue
            elif t == "table_open":
                i = self._table(tokens, i)
                continue
            elif t == "html_block" and (html := html_tokens(tok)):  # its text as paragraphs and tables
                tokens = tokens[: i + 1] + html + tokens[i + 1 :]
                n = len(tokens)
            i += 1

    def _heading(self, open_tok: Token, inline: Token) -> None:
        level = int(open_tok.tag[1])
        info = _inline_text(inline)
        line = open_tok.map[0] + 1 if open_tok.map else 0
        subjects = self._own_subjects(info.text, info.hrefs, line)
        titled = False
        linked = self.section_ids.get(line) if not subjects and self.role in ("inbox", "other") else None
        # "## <Title>" … "[论文主页](https://huggingface.co/papers/<id>)"; "### 40. <zh headline>" … "原文链接: <arXiv>"
        if linked is not None and (paper_title(info.text, numbered_only=False) is not None or numbered_item(info.text)):
            subjects = [linked]
        elif not subjects and self.role in ("inbox", "other"):
            top = level == 1 and line == self.first_line
            title = paper_title(info.text) or (paper_title(info.text, numbered_only=False) if top else None)
            if title is not None:
                titled = not (top and self.default_subjects)
                subjects = [title_key(title)] if titled else list(self.default_subjects)
        h = Heading(level, info.text.strip(), line, section_number(info.text), subjects)
        self._titled = h if titled else None
        while self.stack and self.stack[-1].level >= level:
            self.stack.pop()
        self.stack.append(h)
        self.headings.append(h)
        self._heading_path = [x.text for x in self.stack]
        self._section = self._heading_section()
        self._set_above()

    def _own_subjects(self, text: str, hrefs: list[str], line: int) -> list[str]:
        """Subjects written in a heading (ids, DOIs, entities) and its id mentions."""
        refs = self._arxiv(text, hrefs, line)
        if refs:
            self._mention(refs, line, None, None)
        anchors = [Anchor(r.start, r.end, r.key, True) for r in refs if r.start >= 0]
        anchors += [Anchor(a, b, f"doi:{d}", True) for d, a, b in find_dois(text)]
        anchors += [Anchor(a, b, k, False) for k, a, b in self.p.entities.find(text)
                    if not any(a < x.end and x.start < b for x in anchors)]
        return _dedupe([r.key for r in refs if r.start < 0] + attribute(text, anchors).keys)

    def _paragraph(self, inline: Token, block: Token, inherited: list[str]) -> None:
        info = _inline_text(inline)
        base = block.map[0] + 1 if block.map else 0
        spans = _split_sentences(info.text)
        if len(spans) <= 1:
            lead = not info.breaks and base == self.first_line
            self._unit(info.text, info.hrefs, base, base + max(len(info.breaks), 0), "sentence", inherited,
                       links=info.links, bold=info.bold, lead=lead)
            return
        carried: list[str] = []
        for a, b in spans:
            first, last = base + bisect.bisect_left(info.breaks, a), base + bisect.bisect_left(info.breaks, b)
            sentence = info.text[a:b]
            hrefs = [h for h, at in itertools.zip_longest(info.hrefs, info.href_at)
                     if (at is not None and a <= at < b) or _href_key(h) in sentence] if info.hrefs else []
            c = self._unit(sentence, hrefs, first, last, "sentence", inherited + carried,
                           links=_clip(info.links, a, b), bold=_clip(info.bold, a, b))
            if c is not None and c.subjects:
                carried = c.subjects

    def _unit_from_inline(self, inline: Token, block: Token, unit: Unit, inherited: list[str]) -> Claim | None:
        info = _inline_text(inline)
        first, last = (block.map[0] + 1, block.map[1]) if block.map else (0, 0)
        return self._unit(info.text, info.hrefs, first, last, unit, inherited, links=info.links, bold=info.bold)

    def _table(self, tokens: list[Token], i: int) -> int:
        """Table body rows become units; a kind column decides their kind (C13: raw cell count)."""
        header: list[str] = []
        rows: list[tuple[int, list[str], list[str], list[_Inline]]] = []
        in_head = False
        row: list[str] = []
        infos: list[_Inline] = []
        hrefs: list[str] = []
        row_line = 0
        j = len(tokens)  # (no table_close: the table runs to the end)
        for k in range(i + 1, len(tokens)):  # (the token types by how often they come)
            t = tokens[k]
            tt = t.type
            if tt == "inline":
                info = _inline_text(t)
                row.append(cell_text(info))
                infos.append(info)
                hrefs.extend(info.hrefs)
            elif tt == "tr_close":
                if in_head:
                    header = row
                else:
                    rows.append((row_line, row, hrefs, infos))
            elif tt == "tr_open":
                row, hrefs, infos = [], [], []
                row_line = t.map[0] + 1 if t.map else 0
            elif tt == "table_close":
                j = k
                break
            elif tt == "thead_open":
                in_head = True
            elif tt == "thead_close":
                in_head = False
        kind_col = next((k for k, h in enumerate(header) if is_kind_header(h)), None)
        title_cols = {k for k, h in enumerate(header) if is_title_header(h)}
        # a column headed by an entity ("| 场景 | SGLang v0.6 | vLLM 0.26.0 |") owns its numbers
        col_subjects = [next((k for k, _, _ in self.p.entities.find(h)), None) for h in header]
        if not any(col_subjects):
            col_subjects = []
        # a column headed by a rating cue (HF 票, HF votes, upvotes) holds ratings, not facts
        rating_cols = {k: h for k, h in enumerate(header)
                       if (cue := self.p.cues.match(h)) is not None and cue[0] == "internal-rating"}
        units = [header_column(h, self.p.vocab) for h in header]  # 吞吐 (tok/s), Batch: its bare numbers'
        for line, cells, row_hrefs, infos in rows:
            raw = self._line(line)
            raw_cells = _raw_cells(raw) if header and _raw_count(raw) > len(header) else None
            text = " | ".join(cells)
            links, bold = _cell_spans(cells, infos, title_cols)
            if raw_cells is not None and len(raw_cells) > len(header) and header:
                self.problems.append(
                    Problem(self.path, line, f"{len(raw_cells)} cells, header has {len(header)}; row read from the raw line", "warning")
                )
                cells, text, links, bold, row_hrefs = _raw_row(raw_cells, title_cols, self.p.md)
            forced: tuple[Kind, str] | None = None
            if kind_col is not None and kind_col < len(cells):
                k = column_kind(cells[kind_col])
                if k:
                    forced = (k, f"column:{header[kind_col]}={cells[kind_col].strip()}")
            self._unit(text, row_hrefs, line, line, "table-row", [], forced=forced, col_subjects=col_subjects,
                       links=links, bold=bold,
                       table=(cells, self.p.vocab.table_metrics(header, cells), rating_cols, units) if header else None)
        return j + 1

    def _names(self, text: str) -> list[tuple[str, int, int]]:
        """kb.yaml entities of ``text``, then the names this file wrote with their own id
        (``FlashSpec`` after ``FlashSpec（arXiv:2611.04455）``: that id), no overlaps."""
        ents = self.p.entities.find(text)
        if self._local is None:
            return ents
        local = self._local.find(text)
        if not local:
            return ents
        # a longer name of the file's own (``Fast KVzip``, the note's paper) wins over the entity inside it
        wider = [(k, a, b) for k, a, b in local if any(a <= x and y <= b and (a, b) != (x, y) for _, x, y in ents)]
        ents = [e for e in ents if not any(a <= e[1] and e[2] <= b for _, a, b in wider)]
        extra = [(k, a, b) for k, a, b in local if not any(a < y and x < b for _, x, y in ents)]
        return sorted(ents + extra, key=lambda e: e[1]) if extra else ents

    def learn_scope_name(self, front: Mapping[str, Any], body: str) -> None:
        """A paper note's short name (``Fast KVzip`` of ``Fast KVzip: Efficient …``, its front
        matter ``title`` or ``# Title``) names the file's paper (:attr:`default_subjects`) wherever
        the file writes it, also over a kb.yaml entity inside it (``KVzip``; issue 20)."""
        if len(self.default_subjects) != 1 or not self.default_subjects[0].startswith("arxiv:"):
            return
        raw = front.get("title")
        if not isinstance(raw, str):
            first = body.lstrip("\n").split("\n", 1)[0]
            raw = first[2:] if first.startswith("# ") else ""
        m = _SHORT_NAME_RE.match(raw)
        if m is None:
            return
        name = m.group(1)
        if any(a == 0 and b == len(name) for _, a, b in self.p.entities.find(name)):
            return  # the title opens with an entity itself ("vLLM: …"): no name of the paper's
        self._local_names = {**(self._local_names or {}), name: self.default_subjects[0]}
        self._local = NameMatcher(self._local_names)

    def _unit(self, text: str, hrefs: list[str], line: int, *args: Any, **kw: Any) -> Claim | None:
        """:meth:`kb.read.unit._UnitMaker._unit`, then the scopes its ids open: the id of a
        paper-title heading right above (its first units), the names written with their ids."""
        before = len(self.mentions)
        c = super()._unit(text, hrefs, line, *args, **kw)
        if len(self.mentions) == before and self._titled is None:
            return c
        h = self._titled
        if h is not None and (line > h.line + 8 or not self.stack or self.stack[-1] is not h):
            h = self._titled = None
        if len(self.mentions) > before:
            ids = list(dict.fromkeys("arxiv:" + m.id for m in self.mentions[before:]))
            if h is not None:
                self._titled = None
                if len(ids) == 1 and _ID_LINE_RE.match(text):  # "### 1. Sink-Aware Pruning …" then "**arXiv:** 2602.17664"
                    h.subjects = ids
                    self._set_above()
            if c is not None and c.arxiv and ("(" in c.text or "（" in c.text or "[" in c.text or "【" in c.text):
                self._learn_names(c)
        return c

    def _learn_names(self, c: Claim) -> None:
        """Names written right before their own id in ``c`` that no kb.yaml entity has
        (:func:`kb.extract.names.id_names`): the file's later units name that id with them."""
        found = id_names(c.text, ((r.key, r.start) for r in c.arxiv if r.start >= 0))
        names = self._local_names if self._local_names is not None else {}
        fresh = False
        for key, name in found:
            if name not in names and not self.p.entities.find(name):
                names[name] = key
                fresh = True
        if fresh:
            self._local_names = names
            self._local = NameMatcher(names)

    def _set_above(self) -> None:
        """The subjects of the nearest heading above that has any (``_subjects_above``) and the
        paper subjects of the nearest that has any paper (``_papers_above``), in one walk up."""
        papers: list[str] = []
        subjects: list[str] = []
        for h in reversed(self.stack):
            if not h.subjects:
                continue
            if not subjects:
                subjects = list(h.subjects)
            papers = [s for s in h.subjects if s.startswith(PAPER_KEY_PREFIXES)]
            if papers:
                break
        self._papers_above = papers
        self._subjects_above = subjects

    def _heading_section(self) -> str | None:
        for h in reversed(self.stack):
            if h.section:
                return "§" + h.section
            n = section_number(h.text)
            if n:
                return "§" + n
        return None


#: A title's short name: one to three name-like words before its colon (``Fast KVzip: …``).
_SHORT_NAME_RE = re.compile(r"^\s*([A-Z0-9][\w.+-]*(?: [A-Za-z0-9][\w.+-]*){0,2})\s*[:：]\s")
