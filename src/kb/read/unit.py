"""One unit to one claim: a unit's anchors, kind, subjects, values and sources (DESIGN.md §2).

:class:`_UnitMaker` holds what one file's units read (its path, role, author, date and the
heading stack the walk keeps: :mod:`kb.read.walk`) and turns a unit's text into a :class:`Claim`
and its arXiv mentions.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable, Sequence
from datetime import date
from operator import methodcaller
from typing import TYPE_CHECKING, Any

from kb.core.claims import (
    ArxivRef,
    Claim,
    DateRef,
    Kind,
    Provenance,
    Quantity,
    Role,
    Unit,
    claim_id,
)
from kb.core.parsed import Heading, Mention
from kb.core.textio import Problem
from kb.extract.arxiv_ids import scan_arxiv
from kb.extract.dates import find_dates
from kb.extract.kinds import cue_masks, explicit_tag, kind_by_cue, moods, non_claim
from kb.extract.unread import SHARED_UNIT_WHY, unread_numbers
from kb.extract.quantities import find_quantities
from kb.extract.refs import find_dois, find_kb_paths, find_urls
from kb.extract.sections import hinted_section, section_spans
from kb.extract.vocab.kinds import RATING_MARKS
from kb.extract.subjects import Anchor, Owners, attribute
from kb.perf.models import built, replaced
from kb.read.tables import HeaderColumn, _by_column, _by_metric_column, _column

if TYPE_CHECKING:
    from kb.read.parse import Parser

#: kb's provenance stamp, as a brief renders it: "`paper-fact` inbox/spark/2026-07-31-x.md:50"
#: (the backticks are gone in plain text).
_STAMP_RE = re.compile(r"(?<![\w-])(paper-fact|secondhand|internal-rating)\s+((?:inbox|organized)/[^\s:|]+?\.md:\d+)")
#: Cheap test before the full arXiv scan: a YYMM.N shape, an old-style /NNNNNNN or "arxiv".
_ID_HINT_RE = re.compile(r"[\d/／aAａＡ](?:(?<=\d)(?=\d{2,3}[.．]\d)|(?<=[/／])(?=\d{7})|(?<=[aAａＡ])(?=[rRｒＲ][xXｘＸ][iIｉＩ][vVｖＶ]))")
r"""(``\d`` is any digit, full-width ones included: ids are folded by :func:`~kb.extract.arxiv_ids.fold_id_text`.)"""
_DIGIT_RE = re.compile(r"[0-9\uff10-\uff19百一二两三四五六七八九十hH](?:(?<=[0-9\uff10-\uff19])|(?<=百)(?=分之)"
                       r"|(?<=[一二两三四五六七八九十])(?=[十百千万亿倍成番半])|(?<=[hH])(?<![A-Za-z][hH])(?=al[fv]))")
# or a Chinese numeral (issue 21), 一半 and half/halves (a change of 50 %)
# (both led by one class, each form told by a look-behind: re skips in C to a first character)
_CARD_FILE_RE = re.compile(r"paper_cards/\d+-(\d{4})-(\d{4,5})(?:\.md)?$")


class _UnitMaker:
    """One file's units so far: the claims, mentions, headings and problems they gave, and what
    a unit reads of the file (the heading stack above it: kept by :class:`kb.read.walk._FileCtx`)."""

    def __init__(self, parser: Parser, path: str, role: Role, author: str | None,
                 written_at: str | None, ref_date: date | None) -> None:
        self.p = parser
        self.path = path
        self.role = role
        self.author = author
        self.written_at = written_at
        self.ref_date = ref_date
        self.claims: list[Claim] = []
        self.mentions: list[Mention] = []
        self.headings: list[Heading] = []
        self.problems: list[Problem] = []
        self.invalid: list[tuple[int, int, str, str]] = []
        self.stack: list[Heading] = []
        # what units read of the heading stack, worked out once per heading (see _FileCtx._heading)
        self._heading_path: list[str] = []
        self._section: str | None = None
        self._papers_above: list[str] = []
        self._subjects_above: list[str] = []
        self.lines: list[str] | None = None
        self._seen_ids: dict[int, int] = {}
        self._seen_bad: dict[int, int] = {}
        self.default_subjects: list[str] = []
        """Subjects of every unit that names no paper of its own (a card's own arXiv id)."""
        self.generated = False
        """The file is a brief kb rendered (its ``<!-- kb:brief … -->`` mark)."""
        self._ordinal: dict[int, int] = {}
        self._last_line: tuple[tuple[int, int], str] = ((0, 0), "")
        self.first_line = 0
        """1-based line of the body's first text line (0: none), for a brief's own title."""

    def _names(self, text: str) -> list[tuple[str, int, int]]:
        """``(key, start, end)`` of the names in a unit's text (kb.yaml entities; the block walk
        adds the names the file gave an id, :meth:`kb.read.walk._FileCtx._names`)."""
        return self.p.entities.find(text)

    def _line(self, line: int) -> str:
        # the last line asked is kept: each id of a 1 MB line sliced it again (quadratic, issue 24)
        key = (id(self.lines), line)
        if self._last_line[0] == key:
            return self._last_line[1]
        text = self.lines[line - 1] if self.lines and 0 < line <= len(self.lines) else ""
        self._last_line = (key, text)
        return text

    # -- units --------------------------------------------------------------------------------

    def _arxiv(self, text: str, hrefs: list[str], line: int, end_line: int | None = None) -> list[ArxivRef]:
        """Valid ids of a unit's text and link targets (one scan); invalid ones are recorded
        with their file line and column.

        An id both in a link's text and its target is one mention (C04), with the version of
        whichever side states one. Ids only in a target get ``start = -1``.
        """
        refs: list[ArxivRef] = []
        last = end_line or line
        if _ID_HINT_RE.search(text):
            for cand in scan_arxiv(text):
                if cand.id is None:
                    at_line, col = self._locate(text[cand.start:cand.end], line, last, self._seen_bad)
                    self.invalid.append((at_line, col, cand.raw, cand.error or "not an arXiv id"))
                else:
                    refs.append(built(ArxivRef, id=cand.id, version=cand.version, raw=cand.raw,
                                      start=cand.start, end=cand.end))
        for href in hrefs:
            if "arxiv" not in href.lower():
                continue
            for cand in scan_arxiv(href):
                if cand.id is None:
                    at_line, col = self._locate(href[cand.start:cand.end], line, last, self._seen_bad)
                    self.invalid.append((at_line, col, cand.raw, cand.error or "not an arXiv id"))
                    continue
                same = next((x for x in refs if x.id == cand.id and x.version in (None, cand.version)), None)
                if same is not None:
                    if same.version is None and cand.version is not None:
                        refs[refs.index(same)] = replaced(same, version=cand.version)
                elif not any(x.id == cand.id for x in refs):
                    refs.append(built(ArxivRef, id=cand.id, version=cand.version, raw=href, start=-1, end=-1))
        return refs

    def _locate(self, needle: str, first: int, last: int, seen: dict[int, int]) -> tuple[int, int]:
        """File line and 1-based column of the next occurrence of ``needle`` in source lines
        ``first..last``; ``seen`` keeps, per line, where the last one found ended (units come
        in document order, so positions only move forward). ``(first, 0)`` when absent."""
        for ln in range(first, last + 1):
            col = self._line(ln).find(needle, seen.get(ln, 0))
            if col >= 0:
                seen[ln] = col + len(needle)
                return ln, col + 1
        return first, 0

    def _mention(self, refs: list[ArxivRef], line: int, claim: str | None, kind: Kind | None,
                 end_line: int | None = None, text: str | None = None) -> None:
        for r in refs:
            # located as written (``ＨＥＰ-ＴＨ/0601001``, ``2611.04455V3``), else by its id
            written = text[r.start:r.end] if text is not None and r.start >= 0 else r.id
            at_line, col = self._locate(written, line, end_line or line, self._seen_ids) if r.start >= 0 else (line, 0)
            self.mentions.append(Mention(r.id, r.version, r.raw, at_line, col or None, claim, kind))

    def _unit(self, text: str, hrefs: list[str], line: int, end_line: int, unit: Unit,
              inherited: list[str], forced: tuple[Kind, str] | None = None,
              col_subjects: list[str | None] | None = None, *, links: Sequence[tuple[int, int]] = (),
              bold: Sequence[tuple[int, int]] = (), lead: bool = False,
              table: tuple[list[str], list[str | None], dict[int, str], list[HeaderColumn]] | None = None) -> Claim | None:
        """One unit to a claim, or None when it is none (no anchor and no tag or kind column;
        a byline or title, :func:`~kb.extract.kinds.non_claim`).

        :param forced: ``(kind, reason)`` from a table's kind column.
        :param links: spans of link texts and title cells in ``text`` (no cue text).
        :param bold: spans of bold texts in ``text`` (no cue text when they read as titles).
        :param lead: the unit is the single-line first block of the file's body.
        :param table: a table row's ``(cells, metric per cell, rating columns, header units)``:
            :meth:`~kb.extract.metrics.MetricVocab.table_metrics`, the columns headed by
            a rating cue (column → header) and the unit or set-up each header gives its bare numbers
            (:func:`~kb.read.tables.header_column`).
        """
        raw = text
        norm = "\n" in text or "  " in text
        text = " ".join(text.split()) if norm else text.strip()
        if not text:
            return None
        tag = explicit_tag(text) if ("[" in text or "【" in text) else None
        ents = self._names(text)
        rated = any(map(text.__contains__, RATING_MARKS))  # a rating is a claim, whatever it names
        if (not ents and tag is None and forced is None and not rated and not _DIGIT_RE.search(text)
                and not any(_DIGIT_RE.search(h) for h in hrefs)):
            return None  # no digit in the text or a link target (ids, numbers, dates, DOIs), no entity
        refs = self._arxiv(text, hrefs, line, end_line)
        # skip spans in the order ids, URLs, DOIs, KB paths, § numbers, dates (each list only
        # when the cheap test before its finder says there may be one)
        skip = [(r.start, r.end) for r in refs if r.start >= 0] if refs else []
        urls: Sequence[tuple[str, int, int]] = find_urls(text) if ("http" in text) else ()
        if urls:
            skip += [(a, b) for _, a, b in urls]
        dois: Sequence[tuple[str, int, int]] = find_dois(text) if "10." in text else ()
        if dois:
            skip += [(a, b) for _, a, b in dois]
        paths: Sequence[tuple[str, int, int]] = (
            find_kb_paths(text) if "/" in text and ("inbox/" in text or "paper_cards/" in text or "knowledge/" in text)
            else ())  # (one character's test first: a test of a longer text costs twice one of a character, callgrind)
        if paths:
            skip += [(a, b) for _, a, b in paths]
        skip += section_spans(text)
        bad_dates: list[tuple[int, int, str]] = []
        dates = find_dates(text, ref=self.ref_date, skip=skip, invalid=bad_dates)
        for a, b, why in sorted(bad_dates):  # 2026-02-30, 9999-12-31: no date; say so
            self.problems.append(Problem(self.path, line, f"date {text[a:b]!r} {why}; no date", "warning",
                                         code="date-unread"))
        if dates:
            skip += [(d.start, d.end) for d in dates]
        unread = unread_numbers(text, unit == "table-row")
        shared = [x for x in unread if x[2] == SHARED_UNIT_WHY] if unread else []
        if shared:  # 358 / 359 tok/s: said below only when no list reads the 358 with the unit written once
            unread = [x for x in unread if x[2] != SHARED_UNIT_WHY]
        for a, b, why in unread:  # 9e999999, 1.2.3 tok/s: no quantity; say so
            self.problems.append(Problem(self.path, line, f"number {text[a:b]!r} {why}; no quantity", "warning",
                                         code="number-unread"))
        if unread:  # and no part of it read as another (the 1 of 1 000,5 tok/s, the 2 of 2^10 tok/s)
            skip += [(a, b) for a, b, _ in unread]
        quantities = find_quantities(text, skip=skip, vocab=self.p.vocab)
        for a, b, why in shared:
            if not any(q.start <= a < q.end for q in quantities):
                self.problems.append(Problem(self.path, line, f"number {text[a:b]!r} {why}; no quantity", "warning",
                                             code="number-unread"))
        if table is not None and any(table[1]):
            odd: list[str] = []
            quantities = _by_metric_column(text, table[0], quantities, table[1], self.p.vocab, skip, table[3], odd)
            for why in odd:  # 0 or 1.5 under Batch: no set-up; 308 / 309 under tok/s: no quantity; say so
                self.problems.append(Problem(self.path, line, why, "warning", code="number-unread"))
            if (forced is None and quantities and table[2]
                    and {_column(text, q.start) for q in quantities} <= table[2].keys()):
                forced = ("internal-rating", f"column:{table[2][_column(text, quantities[0].start)]}")
        if not (refs or quantities or dates or dois or ents or tag or forced or rated):
            return None
        if (dates and unit != "table-row" and not (refs or quantities or dois or tag or forced)
                and non_claim(text, [(d.start, d.end) for d in dates], first=lead,
                              names=[(a, b) for _, a, b in ents])):
            return None
        if (quantities and unit != "table-row" and not (refs or dois or tag or forced or ents)
                and all(q.metric is None for q in quantities)
                and non_claim(text, [(d.start, d.end) for d in dates], first=lead,
                              loose=[(q.start, q.end) for q in quantities])):
            return None  # a metadata line whose time was read as numbers (发布时间: Thu, 12 Ma…)
        masked = cue_masks(raw, links, bold, self.p.cues)
        if masked is not raw:
            masked = " ".join(masked.split()) if norm else masked.strip()
        else:
            masked = text
        ordinal = self._ordinal.get(line, 0)
        self._ordinal[line] = ordinal + 1
        cid = claim_id(self.path, line, ordinal, text)
        stamp = _STAMP_RE.search(text) if ".md:" in text else None
        if stamp is not None:
            kind, reason = stamp.group(1), f"quote:{stamp.group(2)}"  # type: ignore[assignment]
        elif tag is not None:
            kind, reason = tag[0], f"tag:{tag[1]}"
        elif self.generated:
            kind, reason = "internal-rating", "brief:kb"  # kb's own counts and next steps
        elif forced is not None:
            kind, reason = forced
        elif self.role == "card":
            kind, reason = "paper-fact", "role:paper-card"
        else:
            kind, reason = kind_by_cue(self.p.cues, masked, self.role)
        if refs:
            self._mention(refs, line, cid, kind, end_line, text)
        # subjects: ids, DOIs, entities that are not hosts/baselines (kb.facts.attributor decides);
        # inherit when none of its own
        anchors = [Anchor(r.start, r.end, r.key, True) for r in refs if r.start >= 0] if refs else []
        if dois:
            anchors += [Anchor(a, b, f"doi:{d}", True) for d, a, b in dois]
        if paths:
            anchors += [Anchor(a, b, f"arxiv:{m.group(1)}.{m.group(2)}", True) for p, a, b in paths
                        if (m := _CARD_FILE_RE.search(p))]
        if ents:
            if urls or anchors:  # an entity inside a URL or overlapping an id, DOI or card path is none
                in_url = _Spans((a, b) for _, a, b in urls) if urls else None
                taken = _Spans((x.start, x.end) for x in anchors)
                anchors += [Anchor(a, b, k, False) for k, a, b in ents if not (in_url and in_url.cover(a, a + 1))
                            and not taken.cover(a, b)]
            else:
                anchors = [Anchor(a, b, k, False) for k, a, b in ents]
        att = attribute(text, anchors)
        subjects = _dedupe([r.key for r in refs if r.start < 0] + att.keys) if refs else att.keys  # (a new list, deduped)
        if not any(map(_is_paper, subjects)):
            papers = [s for s in inherited if _is_paper(s)]
            if not papers:
                papers = self._papers_above[:1] or self.default_subjects
            subjects = _dedupe(papers + subjects)
        if not subjects:
            subjects = [s for s in _dedupe(list(inherited) or self._subjects_above)
                        if s not in att.hosts]
        # one of several subjects only when there are several (and a number or date to own)
        who = Owners(att.own, text) if len(att.own) >= 2 and (quantities or dates) else None
        if who is not None:
            quantities = [replaced(q, subject=subj) if (subj := who.of(q.start, q.end)) else q for q in quantities]
        if dates:
            phrased = self.p.date_phrases.search(text) is not None  # once per unit, not per date
            dates = [self._attach_date(d, who, text, phrased) for d in dates]
        if col_subjects and quantities:
            quantities, owners = _by_column(text, quantities, col_subjects)
            subjects = _dedupe(subjects + owners)
        if quantities or dates:
            quantities, dates = self._moods(masked, quantities, dates)
        if dois or urls or hrefs or paths:
            sources = _dedupe(
                [r.key for r in refs]
                + [f"doi:{d}" for d, _, _ in dois]
                + [u for u, _, _ in urls]
                + [h for h in hrefs if h.startswith("http") and h not in (u for u, _, _ in urls)]
                + [p for p, _, _ in paths]
            )
        else:
            sources = _dedupe([r.key for r in refs]) if refs else []
        section_hint = hinted_section(text) or self._section
        # every value below was built here of its field's type: no validation (kb.perf.models.built)
        claim = built(
            Claim,
            id=cid,
            kind=kind,
            kind_reason=reason,
            text=text,
            unit=unit,
            role=self.role,
            subjects=subjects,
            arxiv=refs,
            quantities=quantities,
            dates=dates,
            sources=sources,
            section_hint=section_hint,
            quote_of=stamp.group(2) if stamp is not None else None,
            provenance=built(
                Provenance,
                path=self.path,
                line=line,
                end_line=max(end_line, line),
                author=self.author,
                written_at=self.written_at,
                heading=self._heading_path,
            ),
        )
        self.claims.append(claim)
        return claim

    def _moods(self, masked: str, quantities: list[Quantity], dates: list[DateRef]
               ) -> tuple[list[Quantity], list[DateRef]]:
        """Quantities and dates with their :data:`~kb.core.claims.Mood` set (plans, disputed values)."""
        ms = moods(masked, [(q.start, q.end) for q in quantities] + [(d.start, d.end) for d in dates], self.p.cues)
        if not any(ms):
            return quantities, dates
        qs = [replaced(q, mood=m) if m else q for q, m in zip(quantities, ms)]
        ds = [replaced(d, mood=m) if m else d for d, m in zip(dates, ms[len(quantities):])]
        return qs, ds

    def _attach_date(self, d: DateRef, who: Owners | None, text: str, phrased: bool) -> DateRef:
        # a date is a metric's value only where a date phrase (维护模式, EOL, 发布 …) is written
        metric = self.p.vocab.metric_at(text, d.start, d.end, None) if phrased else None
        update: dict[str, Any] = {}
        if metric in ("eol_date", "release_date"):
            update["metric"] = metric
        subj = who.of(d.start, d.end) if who is not None else None
        if subj:
            update["subject"] = subj
        return replaced(d, **update) if update else d


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


_is_paper = methodcaller("startswith", ("arxiv:", "doi:", "title:"))
"""A subject key names a paper (an arXiv id, a DOI or a title, :func:`kb.extract.titles.title_key`)."""


class _Spans:
    """Spans ``(start, end)`` of a text; :meth:`cover` asks whether one overlaps ``[a, b)`` in
    ``O(log n)`` (issue 24: each entity of a long line was tested against every id of it); up to
    8 spans (a unit's one or two ids) are tested one by one: the same answer, no index built."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self._few = ordered if len(ordered) <= 8 else None
        self._starts = [a for a, _ in ordered] if self._few is None else []
        self._reach = list(itertools.accumulate((b for _, b in ordered), max)) if self._few is None else []

    def cover(self, a: int, b: int) -> bool:
        """True when a span starts before ``b`` and ends after ``a``."""
        if self._few is not None:
            for start, end in self._few:  # (by start: once one starts at b or later, all later do)
                if start >= b or end > a:
                    return start < b
            return False
        i = bisect.bisect_left(self._starts, b)
        return i > 0 and self._reach[i - 1] > a
