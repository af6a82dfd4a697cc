"""The block walk: one file's block tokens, top-level block by block, to units (DESIGN.md §2).

Headings keep the stack of sections and subjects a unit inherits; a paragraph's sentences, a
list item's own text and a table's body rows are the units, each handed to
:meth:`kb.read.unit._UnitMaker._unit`.
"""

from __future__ import annotations

import bisect

from markdown_it.token import Token

from kb.core.claims import Claim, Kind, Unit
from kb.core.parsed import Heading
from kb.core.textio import Problem
from kb.extract.kinds import column_kind, is_kind_header, is_title_header
from kb.extract.refs import find_dois
from kb.extract.sections import section_number
from kb.extract.subjects import Anchor, attribute
from kb.read.inline import _clip, _href_key, _Inline, _inline_text, _split_sentences
from kb.read.tables import _cell_spans, _raw_cells, _raw_count
from kb.read.unit import _dedupe, _UnitMaker


class _FileCtx(_UnitMaker):
    """Walks one file's tokens and collects its units, claims and mentions."""

    # -- walking ----------------------------------------------------------------------------

    def walk(self, tokens: list[Token]) -> None:
        """One pass over the block tokens; list items keep a stack of their subjects."""
        items: list[tuple[int, list[str]]] = []  # (level of list_item_open, own subjects)
        i = 0
        n = len(tokens)
        while i < n:
            tok = tokens[i]
            t = tok.type
            if t == "heading_open":
                self._heading(tok, tokens[i + 1])
                i += 3
                continue
            if t == "list_item_open":
                items.append((tok.level, []))
            elif t == "list_item_close":
                items.pop()
            elif t == "table_open":
                i = self._table(tokens, i)
                continue
            elif t == "paragraph_open":
                inherited = [s for _, subj in items[:-1] for s in subj]
                if items and tok.level == items[-1][0] + 1:
                    c = self._unit_from_inline(tokens[i + 1], tok, "list-item", inherited)
                    own = [s for s in c.subjects if s.startswith(("arxiv:", "doi:"))] if c else []
                    if own:
                        items[-1] = (items[-1][0], own)
                else:
                    self._paragraph(tokens[i + 1], tok, [s for _, subj in items for s in subj])
                i += 3
                continue
            i += 1

    def _heading(self, open_tok: Token, inline: Token) -> None:
        level = int(open_tok.tag[1])
        info = _inline_text(inline)
        line = open_tok.map[0] + 1 if open_tok.map else 0
        subjects = self._own_subjects(info.text, info.hrefs, line)
        h = Heading(level, info.text.strip(), line, section_number(info.text), subjects)
        while self.stack and self.stack[-1].level >= level:
            self.stack.pop()
        self.stack.append(h)
        self.headings.append(h)
        self._heading_path = [x.text for x in self.stack]
        self._section = self._heading_section()
        self._papers_above = self._heading_subjects(papers_only=True)
        self._subjects_above = self._heading_subjects(papers_only=False)

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
            first = base + bisect.bisect_left(info.breaks, a)
            last = base + bisect.bisect_left(info.breaks, b)
            sentence = info.text[a:b]
            hrefs = [h for h in info.hrefs if _href_key(h) in sentence] if info.hrefs else []
            c = self._unit(sentence, hrefs, first, last, "sentence", inherited + carried,
                           links=_clip(info.links, a, b), bold=_clip(info.bold, a, b))
            if c is not None and c.subjects:
                carried = c.subjects

    def _unit_from_inline(self, inline: Token, block: Token, unit: Unit, inherited: list[str]) -> Claim | None:
        info = _inline_text(inline)
        first = block.map[0] + 1 if block.map else 0
        last = block.map[1] if block.map else first
        return self._unit(info.text, info.hrefs, first, last, unit, inherited, links=info.links, bold=info.bold)

    def _table(self, tokens: list[Token], i: int) -> int:
        """Table body rows become units; a kind column decides their kind (C13: raw cell count)."""
        header: list[str] = []
        rows: list[tuple[int, list[str], list[str], list[_Inline]]] = []
        j = i + 1
        in_head = False
        row: list[str] = []
        infos: list[_Inline] = []
        hrefs: list[str] = []
        row_line = 0
        while j < len(tokens) and tokens[j].type != "table_close":
            t = tokens[j]
            if t.type == "thead_open":
                in_head = True
            elif t.type == "thead_close":
                in_head = False
            elif t.type == "tr_open":
                row, hrefs, infos = [], [], []
                row_line = t.map[0] + 1 if t.map else 0
            elif t.type == "inline":
                info = _inline_text(t)
                row.append(info.text.strip())
                infos.append(info)
                hrefs.extend(info.hrefs)
            elif t.type == "tr_close":
                if in_head:
                    header = row
                else:
                    rows.append((row_line, row, hrefs, infos))
            j += 1
        kind_col = next((k for k, h in enumerate(header) if is_kind_header(h)), None)
        title_cols = {k for k, h in enumerate(header) if is_title_header(h)}
        # a column headed by an entity ("| 场景 | SGLang v0.6 | vLLM 0.26.0 |") owns its numbers
        col_subjects = [next((k for k, _, _ in self.p.entities.find(h)), None) for h in header]
        if not any(col_subjects):
            col_subjects = []
        # a column headed by a rating cue (HF 票, HF votes, upvotes) holds ratings, not facts
        rating_cols = {k: h for k, h in enumerate(header)
                       if (cue := self.p.cues.match(h)) is not None and cue[0] == "internal-rating"}
        for line, cells, row_hrefs, infos in rows:
            raw = self._line(line)
            raw_cells = _raw_cells(raw) if header and _raw_count(raw) > len(header) else None
            text = " | ".join(cells)
            links, bold = _cell_spans(cells, infos, title_cols)
            if raw_cells is not None and len(raw_cells) > len(header) and header:
                self.problems.append(
                    Problem(self.path, line, f"{len(raw_cells)} cells, header has {len(header)}; row read from the raw line", "warning")
                )
                cells = raw_cells
                text = " | ".join(raw_cells)
                links, bold = _cell_spans(cells, [], title_cols)
            forced: tuple[Kind, str] | None = None
            if kind_col is not None and kind_col < len(cells):
                k = column_kind(cells[kind_col])
                if k:
                    forced = (k, f"column:{header[kind_col]}={cells[kind_col].strip()}")
            self._unit(text, row_hrefs, line, line, "table-row", [], forced=forced, col_subjects=col_subjects,
                       links=links, bold=bold,
                       table=(cells, self.p.vocab.table_metrics(header, cells), rating_cols) if header else None)
        return j + 1

    def _heading_subjects(self, *, papers_only: bool) -> list[str]:
        """Subjects of the nearest heading above that has any (papers only, if asked)."""
        for h in reversed(self.stack):
            subj = [s for s in h.subjects if not papers_only or s.startswith(("arxiv:", "doi:"))]
            if subj:
                return subj
        return []

    def _heading_section(self) -> str | None:
        for h in reversed(self.stack):
            if h.section:
                return "§" + h.section
            n = section_number(h.text)
            if n:
                return "§" + n
        return None
