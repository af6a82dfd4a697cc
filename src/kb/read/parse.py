"""Markdown files to claims: markdown-it-py tokens (with line maps) -> units -> :class:`Claim`.

A *unit* is a sentence of a paragraph, a list item's own text or a table row (DESIGN.md §2).
A unit with at least one anchor (arXiv id, quantity, date, DOI or known entity), or with an
explicit kind tag or kind-column value, is a claim; a byline or a brief's own title is none
(:func:`kb.extract.kinds.non_claim`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from functools import lru_cache
from operator import methodcaller
from pathlib import PurePosixPath
from typing import Any, Literal

from markdown_it import MarkdownIt
from markdown_it.common.utils import mdTrim
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.rules_block.table import escapedSplit, getLine
from markdown_it.rules_core.state_core import StateCore
from markdown_it.token import Token

from kb.core import frontmatter
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
from kb.core.config import KbConfig
from kb.core.parsed import Heading, Mention, ParsedFile
from kb.core.paths import KNOWLEDGE_DIR
from kb.core.textio import Problem, decode
from kb.extract.arxiv_ids import find_arxiv, scan_arxiv
from kb.extract.dates import find_dates, parse_stamp
from kb.extract.kinds import (
    CueMatcher,
    column_kind,
    cue_masks,
    explicit_tag,
    is_kind_header,
    is_title_header,
    moods,
    non_claim,
)
from kb.extract.metrics import DATE_METRICS, MetricVocab
from kb.extract.names import NameMatcher, entity_names
from kb.extract.quantities import find_quantities
from kb.extract.refs import find_dois, find_kb_paths, find_urls
from kb.extract.subjects import Anchor, Owners, attribute
from kb.perf.models import built, replaced

_SECTION_RE = re.compile(r"§\s*(\d+(?:\.\d+)*)")
_HINT_RE = re.compile(
    r"(?:建议归入|建议归位|建议补入|归入|归位|补入|写入|suggested section|file under|belongs in|add to)\s*[:：]?\s*(?:[^§\n]{0,12}?)(§\s*\d+(?:\.\d+)*)",
    re.IGNORECASE,
)
_SENT_END_RE = re.compile(r"(?<=[。！？!?；;])\s*|(?<=[.])\s+(?=[A-Z\u4e00-\u9fff【「“(（])")
_SOURCE_LINE_RE = re.compile(r"^\s*(?:来源|出处|sources?|引用|refs?)\s*[:：]", re.IGNORECASE)
_EMPH_RE = re.compile(r"\*\*|__")
#: The first line kb writes into a brief it renders (templates/e1prep.*.md.j2).
_BRIEF_MARK_RE = re.compile(r"^<!-- kb:brief ", re.M)
#: kb's provenance stamp, as a brief renders it: "`paper-fact` inbox/spark/2026-07-31-x.md:50"
#: (the backticks are gone in plain text).
_STAMP_RE = re.compile(r"(?<![\w-])(paper-fact|secondhand|internal-rating)\s+((?:inbox|organized)/[^\s:|]+?\.md:\d+)")
#: Cheap test before the full arXiv scan: a YYMM.N shape, an old-style /NNNNNNN or "arxiv".
_ID_HINT_RE = re.compile(r"\d{3,4}\.\d|/\d{7}|[aA][rR][xX][iI][vV]")
_DIGIT_RE = re.compile(r"[0-9\uff10-\uff19]")
_CARD_FILE_RE = re.compile(r"paper_cards/\d+-(\d{4})-(\d{4,5})(?:\.md)?$")


#: Where :meth:`Parser.parse_bytes` hands claims as it goes: ``sink(claims, mentions, written_at)``:
#: two lists in document order (not reused by the parser) and the file's ``written_at`` (ISO or
#: None, as :attr:`ParsedFile.written_at`), which a mention's store row carries.
Sink = Callable[[list[Claim], list["Mention"], "str | None"], None]


def role_of(path: str) -> Role:
    """File role from its KB-relative path (DESIGN.md §1)."""
    if path.startswith("inbox/"):
        return "inbox"
    if path.startswith("organized/paper_cards/"):
        return "card"
    if path.startswith(KNOWLEDGE_DIR + "/") and "/history/" not in path:  # (kb.store.db.Store.heading_texts_in reads them there)
        return "living-doc"
    return "other"


#: Deepest token nesting markdown-it follows, two per list or quote level (its default, 20,
#: silently drops lists deeper than 10 and everything after them); past it kb reports the
#: lines it could not read.
MAX_NESTING = 100
_LEAF_BLOCKS = frozenset({"paragraph_open", "heading_open", "table_open", "fence", "code_block", "html_block", "hr"})
# possessive runs: the two mark runs cannot trade characters, so a long run is one pass, not n²
_MARKS_ONLY_RE = re.compile(r"^[\s>*+\-]*+(?:\d+[.)])?[\s>*+\-]*+$")


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True, "maxNesting": MAX_NESTING}).enable("table")


#: From this many characters, a text's lines are sliced from it when asked (:class:`_Lines`).
_LAZY_LINES_MIN = 1_000_000


class _Lines(Sequence[str]):
    """``text.split("\\n")`` without a string per line (a big file: issue 12): the offsets of
    the lines (8 bytes each), each line sliced from ``text`` when asked."""

    __slots__ = ("text", "starts")

    def __init__(self, text: str) -> None:
        from array import array

        self.text = text
        starts = array("q", [0])
        find = text.find
        at = find("\n")
        while at >= 0:
            starts.append(at + 1)
            at = find("\n", at + 1)
        starts.append(len(text) + 1)
        self.starts = starts

    def __len__(self) -> int:
        return len(self.starts) - 1

    def __getitem__(self, i: int) -> str:  # type: ignore[override]
        n = len(self.starts) - 1
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return self.text[self.starts[i] : self.starts[i + 1] - 1]

    def __iter__(self) -> Iterator[str]:
        return (self[i] for i in range(len(self)))


def _cover(tokens: list[Token], covered: bytearray) -> int:
    """Mark in ``covered`` (one byte per 0-based line) the lines a leaf block token covers;
    returns the deepest nesting ``level`` of ``tokens`` (0 for none), found in the same pass."""
    n = len(covered) - 1
    deepest = 0
    for t in tokens:
        if t.level > deepest:
            deepest = t.level
        if t.type in _LEAF_BLOCKS and t.map:
            a, b = t.map[0], min(t.map[1], n)
            if b > a:
                covered[a:b] = b"\x01" * (b - a)
    return deepest


def _unread_lines(covered: bytearray, lines: list[str]) -> list[int]:
    """1-based lines with text that no block token covers (markdown-it hit its nesting limit)."""
    return [i + 1 for i, line in enumerate(lines) if not covered[i] and not _MARKS_ONLY_RE.match(line)]


def _blocks(md: MarkdownIt, src: str) -> Iterator[list[Token]]:
    """The tokens of ``src``, one top-level block at a time (issue 12: memory bound).

    The same tokens, in the same order, as ``md.parse(src)``: markdown-it's own core chain
    (normalize, block, inline, text_join) and its block loop (``ParserBlock.tokenize``), except
    that each top-level block's tokens are handed out, inline-parsed, as soon as its rule has
    matched, so only one block's tokens are alive at a time. Link reference definitions apply
    to the whole document (also above them): when ``src`` may hold one (``]:``), a first pass
    collects them without keeping any token.
    """
    core = [r for r in md.core.ruler.__rules__ if r.enabled]
    if [r.name for r in core[:2]] != ["normalize", "block"]:  # pragma: no cover - another markdown-it
        yield md.parse(src)
        return
    env: dict[str, Any] = {}
    state = StateCore(src, md, env)
    if "\r" in src or "\0" in src:  # else normalize would only copy the text
        core[0].fn(state)  # normalize: line ends and NUL as markdown-it does them
        src = state.src
    if not src:
        return
    if "]:" in src:
        for _ in _block_loop(StateBlock(src, md, env, [])):
            pass
    after = [r.fn for r in core[2:]]  # inline, text_join (as enabled)
    for tokens in _block_loop(StateBlock(src, md, env, [])):
        state.tokens = tokens
        for fn in after:
            fn(state)
        yield state.tokens


#: In a text of more than this many lines, a long top-level list or table is read in pieces
#: (:func:`_list_cuts`, :func:`_table_pieces`), so that a file that is one long list or table
#: does not hold all its tokens (and all their claims, until the block ends) at once.
LONG_TEXT_LINES = 2000
#: Lines of each list a long top-level list is read as (cut before one of its own items).
LIST_CUT_LINES = 250
#: Rows of each table a long top-level table is read as (:func:`_table_pieces`; a row is ~30
#: tokens, a list line ~5).
TABLE_CUT_ROWS = 200
_ITEM_START_RE = re.compile(r"^(?:[-+*]|\d{1,9}[.)])[ \t]+\S", re.M)


def _list_cuts(state: Any) -> tuple[Sequence[int], bytes] | None:
    """Lines (0-based, sorted) where an item of a top-level list may start a new list, and the
    marker each is written with (one byte each: ``-``, ``+``, ``*``, ``.`` or ``)``); None for a
    text of at most :data:`LONG_TEXT_LINES` lines.

    Such a line starts at column 0 with a list marker and text. Where a top-level list goes on
    to it, it is the start of one of that list's own items (every item's content is indented
    at least 2, and an item line ends any paragraph), so a list cut there has the same
    tokens, except for one more pair of list open/close tokens, the tight/loose marks
    (``hidden``) of the paragraphs and an ordered list's ``start``; kb reads none of them.
    """
    if state.lineMax <= LONG_TEXT_LINES:
        return None
    from array import array

    marks = state.bMarks
    lines = array("q")  # 8 bytes a line, not an int object each
    markers = bytearray()
    line = 0
    for m in _ITEM_START_RE.finditer(state.src):
        line = bisect.bisect_right(marks, m.start(), line) - 1
        if marks[line] == m.start():
            lines.append(line)
            text = m.group()
            markers.append(ord(text[0] if text[0] in "-+*" else text[len(text.split(None, 1)[0]) - 1]))
    return lines, bytes(markers)


def _list_end(state: Any, line: int, end: int, cuts: tuple[Sequence[int], bytes], rules: dict[str, Any]) -> int:
    """``end``, or an earlier line at which the top-level list starting at ``line`` is cut
    (the first of :func:`_list_cuts` at least :data:`LIST_CUT_LINES` on, written with the same
    marker, where no table or thematic break starts instead)."""
    src = state.src
    at = state.bMarks[line] + state.tShift[line]
    first = src[at : at + 1]
    if not first or (first not in "-+*" and not first.isdigit()):
        return end  # no list starts here (the common case: one look at a character)
    if (state.sCount[line] >= 4 or rules["table"](state, line, end, True) or rules["hr"](state, line, end, True)
            or not rules["list"](state, line, end, True)):
        return end
    if first in "-+*":
        marker = first
    else:
        while src[at].isdigit():
            at += 1
        marker = src[at]
    lines, markers = cuts
    for k in range(bisect.bisect_left(lines, line + LIST_CUT_LINES), len(lines)):
        cut = lines[k]
        if cut >= end:
            break
        if markers[k] == ord(marker) and not rules["table"](state, cut, end, True) and not rules["hr"](state, cut, end, True):
            return cut
        if cut > line + 4 * LIST_CUT_LINES:
            break
    return end


def _cells(state: Any, line: int) -> int:
    """Cells of a table line as markdown-it's table rule counts them (escapedSplit, without
    the empty first and last parts)."""
    t = mdTrim(getLine(state, line))
    if "\\" in t or len(t) < 2:
        cols = escapedSplit(t)
        if cols and cols[0] == "":
            cols.pop(0)
        if cols and cols[-1] == "":
            cols.pop()
        return len(cols)
    return t.count("|") + 1 - t.startswith("|") - t.endswith("|")


def _table_pieces(state: Any, start: int, end: int, table: Any) -> Iterator[list[Token]]:
    """The tokens of the top-level table at ``start``, as tables of :data:`TABLE_CUT_ROWS`
    rows each (issue 12: a file that is one long table).

    Each piece after the first is read by markdown-it's own table rule with the table's header
    and delimiter lines in place of the two lines above it (the line arrays are put back after),
    so its rows give the same tokens; each piece has its own ``table_open``/``thead``/
    ``table_close`` (kb reads the header of each, the same). A table is cut only while every row
    before the cut has the header's number of cells, so the rule's limit on autocompleted cells
    (counted from the table's start) stops the table where it would have.
    """
    arrays = (state.bMarks, state.eMarks, state.tShift, state.sCount, state.bsCount)
    columns = _cells(state, start)
    at = start  # the piece's header line (the real one, then the two lines above a cut)
    while True:
        upto = end
        cut = at + 2 + TABLE_CUT_ROWS
        if cut < end and all(_cells(state, r) == columns for r in range(at + 2, cut)):
            upto = cut
        if at == start:
            ok = table(state, start, upto, False)
        else:
            saved = [(a[at], a[at + 1]) for a in arrays]
            for a in arrays:
                a[at], a[at + 1] = a[start], a[start + 1]
            try:
                ok = table(state, at, upto, False)
            finally:
                for a, (x, y) in zip(arrays, saved):
                    a[at], a[at + 1] = x, y
        if not ok:  # pragma: no cover - the rule read these lines as a table before
            return
        yield state.tokens
        state.tokens = []
        if upto == end or state.line < upto:
            return
        at = upto - 2


def _block_loop(state: Any) -> Iterator[list[Token]]:
    """``ParserBlock.tokenize(state, 0, lineMax)`` of markdown-it-py, yielding (and dropping)
    the tokens of each top-level block as it is done; in a long text a long list is cut
    (:func:`_list_cuts`) and a long table read in pieces (:func:`_table_pieces`)."""
    md = state.md
    rules = md.block.ruler.getRules("")
    line = state.line
    end = state.lineMax
    max_nesting = md.options.maxNesting
    empty_before = False
    cuts = _list_cuts(state)
    named = {r.name: r.fn for r in md.block.ruler.__rules__ if r.enabled}
    while line < end:
        state.line = line = state.skipEmptyLines(line)
        if line >= end:
            break
        if state.sCount[line] < state.blkIndent:
            break
        if state.level >= max_nesting:
            state.line = end
            break
        ok = False
        long = cuts is not None and end - line > 2 * min(LIST_CUT_LINES, TABLE_CUT_ROWS)
        if long and named["table"](state, line, end, True):
            yield from _table_pieces(state, line, end, named["table"])
            ok = True
        else:
            upto = _list_end(state, line, end, cuts, named) if long and cuts is not None else end
            for rule in rules:
                ok = rule(state, line, upto, False)
                if ok:
                    if state.line <= line:
                        raise RuntimeError("block rule didn't increment state.line")
                    break
        if not ok:
            raise RuntimeError("none of the block rules matched")
        state.tight = not empty_before
        line = state.line
        if (line - 1) < end and state.isEmpty(line - 1):
            empty_before = True
        if line < end and state.isEmpty(line):
            empty_before = True
            line += 1
            state.line = line
        if state.tokens:
            yield state.tokens
            state.tokens = []


class Parser:
    """Parses files of one KB with one configuration (entities, metrics, cues, time zone).

    :param config: the KB's :class:`KbConfig`.
    """

    def __init__(self, config: KbConfig) -> None:
        self.config = config
        self.tz = config.tzinfo
        self.entities = NameMatcher(entity_names(config))
        self.vocab = MetricVocab(config.metrics)
        self.date_phrases = re.compile("|".join(
            re.escape(p) for p in sorted((p for m in DATE_METRICS for p in self.vocab.phrases.get(m, ())),
                                         key=len, reverse=True)) or "(?!)", re.IGNORECASE)
        cues = config.cues
        self.cues = CueMatcher(
            {"secondhand": cues.secondhand, "paper-fact": cues.paper_fact, "internal-rating": cues.internal_rating}
        )

    # -- file level -------------------------------------------------------------------------

    def parse_bytes(self, path: str, data: bytes, *, sink: Sink | None = None, batch: int = 1000) -> ParsedFile:
        """Parse one file's bytes.

        :param path: POSIX path relative to the KB root (decides role, author, stamp).
        :param sink: when given, claims and mentions are handed to :data:`Sink` ``sink``
            in document order, about ``batch`` claims at a time (after a top-level block), and
            the result holds none of them (``streamed`` counts the claims): memory stays that
            of one batch, not of the file's claims (issue 12). The last call may be empty.
        :returns: :class:`ParsedFile`; problems are collected, never raised.
        """
        decoded = decode(data, path)
        return self.parse_text(path, decoded.text, decoded.problems, sink=sink, batch=batch)

    def parse_text(self, path: str, text: str, problems: list[Problem] | None = None, *,
                   sink: Sink | None = None, batch: int = 1000) -> ParsedFile:
        """Parse one file's text (LF line ends, no BOM); see :meth:`parse_bytes`."""
        problems = list(problems or [])
        streamed = 0
        role = role_of(path)
        fm, body = frontmatter.split(text, path)
        problems.extend(fm.problems)
        front = frontmatter.kept(fm)
        author = _str_or_none(front.get("author")) or _author_from_path(path, role)
        written = self._written_at(path, role, front, fm, problems)
        ref_date = written.date() if written else None
        ctx = _FileCtx(self, path, role, author, written.isoformat() if written else None, ref_date)
        if role == "card":
            refs = find_arxiv(fm.raw.get("arxiv", ""))
            ctx.default_subjects = [refs[0].key] if refs else []
            if "arxiv" in fm.data and (len(refs) != 1 or "arxiv" not in fm.raw):
                problems.append(Problem(path, fm.key_lines.get("arxiv", 2), "arxiv: expected one arXiv id written as "
                                        f"text (e.g. \"2607.26627\"), got {str(fm.data['arxiv'])[:40]!r}; the card is "
                                        "linked to no paper", "warning"))
            from kb.read.cards import pinned_version

            pinned = pinned_version(fm.data.get("arxiv_version"))
            if isinstance(pinned, str):
                problems.append(Problem(path, fm.key_lines.get("arxiv_version", 2), f"arxiv_version: {pinned!r} is not a "
                                        "version (e.g. 2 or v2); the card names no version", "warning"))

        mentions: list[Mention] = []
        if fm.present:
            for cand in scan_arxiv(fm.raw.get("arxiv", "")):
                line = fm.key_lines.get("arxiv", 1)
                if cand.id:
                    mentions.append(Mention(cand.id, cand.version, cand.raw, line, None, None, None))
                else:
                    ctx.invalid.append((line, 0, cand.raw, cand.error or "not an arXiv id"))
        ctx.lines = body.split("\n") if len(body) < _LAZY_LINES_MIN else _Lines(body)
        ctx.first_line = next((n for n, ln in enumerate(ctx.lines, 1) if ln.strip() and not ln.lstrip().startswith("<!--")), 0)
        ctx.generated = _BRIEF_MARK_RE.search(body, 0, 4000) is not None
        ctx.mentions = mentions  # the front matter's first, then the body's in order
        covered = bytearray(len(ctx.lines) + 1)
        deepest = 0
        for tokens in _blocks(_md(), body):  # one top-level block's tokens at a time
            deepest = max(deepest, _cover(tokens, covered))
            ctx.walk(tokens)
            if sink is not None and len(ctx.claims) >= batch:
                sink(ctx.claims, ctx.mentions, ctx.written_at)
                streamed += len(ctx.claims)
                ctx.claims, ctx.mentions = [], []
        if deepest >= MAX_NESTING - 2:
            unread = _unread_lines(covered, ctx.lines)
            if unread:
                problems.append(Problem(path, unread[0], f"nested too deep (over {MAX_NESTING // 2} lists or quotes): "
                                        f"{len(unread)} line(s) not read (lines {unread[0]}–{unread[-1]})"))
        if sink is not None:
            sink(ctx.claims, ctx.mentions, ctx.written_at)
            streamed += len(ctx.claims)
            ctx.claims, ctx.mentions = [], []
        mentions = ctx.mentions
        return ParsedFile(
            path=path,
            role=role,
            author=author,
            written_at=ctx.written_at,
            front=front,
            claims=ctx.claims,
            mentions=mentions,
            headings=ctx.headings,
            problems=problems + ctx.problems,
            invalid_ids=ctx.invalid,
            front_lines=dict(fm.key_lines),
            front_end=fm.end_line if fm.present else 0,
            streamed=streamed,
        )

    def _written_at(self, path: str, role: Role, front: dict[str, Any], fm: frontmatter.FrontMatter,
                    problems: list[Problem]) -> datetime | None:
        keys = ("updated", "created", "date") if role == "living-doc" else ("created", "date", "written_at", "updated")
        for key in keys:
            value = front.get(key)
            if value is None:
                continue
            dt = frontmatter.as_datetime(value, self.tz)
            if dt is not None:
                return dt.astimezone(self.tz)
            problems.append(Problem(path, fm.key_lines.get(key, fm.start_line), f"{key}: {str(value)[:40]!r} is not an "
                                    "ISO date or date-time (e.g. 2026-07-31T16:30:00+08:00); ignored", "warning"))
        stamp = parse_stamp(PurePosixPath(path).name)
        if stamp is None:
            return None
        day, at = stamp
        return datetime.combine(day, at or time(0, 0), self.tz)


def _str_or_none(value: Any) -> str | None:
    """A scalar front-matter value as text; lists, maps and the like are no names."""
    if value is None or isinstance(value, (dict, list, tuple, set, bool)):
        return None
    return str(value).strip() or None


def _author_from_path(path: str, role: Role) -> str | None:
    parts = path.split("/")
    if role == "inbox" and len(parts) >= 3:
        return parts[1]
    return None


@dataclass(slots=True)
class _Inline:
    """Plain text of an inline token, the hrefs in it, the offsets of its line breaks and the
    ``(start, end)`` spans of its link texts and bold texts (no cue text when titles)."""

    text: str
    hrefs: list[str]
    breaks: list[int]
    links: list[tuple[int, int]] = field(default_factory=list)
    bold: list[tuple[int, int]] = field(default_factory=list)


def _inline_text(tok: Token) -> _Inline:
    children = tok.children
    if children and len(children) == 1 and children[0].type in ("text", "code_inline"):
        text = children[0].content  # one run of plain text (most table cells and list items): no parts to join
        if "**" not in text and "__" not in text:
            return _Inline(text, [], [], [], [])
    parts: list[str] = []
    hrefs: list[str] = []
    breaks: list[int] = []
    links: list[tuple[int, int]] = []
    bold: list[tuple[int, int]] = []
    link_at: int | None = None
    bold_at: int | None = None
    pos = 0
    for child in tok.children or ():
        t = child.type
        if t == "text" or t == "code_inline":
            s = child.content
        elif t in ("softbreak", "hardbreak"):
            breaks.append(pos)
            s = " "
        elif t == "link_open":
            href = child.attrs.get("href")
            if href:
                hrefs.append(str(href))
            link_at = pos
            continue
        elif t == "link_close":
            if link_at is not None and pos > link_at:
                links.append((link_at, pos))
            link_at = None
            continue
        elif t == "strong_open":
            bold_at = pos
            continue
        elif t == "strong_close":
            if bold_at is not None and pos > bold_at:
                bold.append((bold_at, pos))
            bold_at = None
            continue
        elif t == "image":
            s = child.content
        else:
            continue
        parts.append(s)
        pos += len(s)
    text = "".join(parts)
    if "**" in text or "__" in text:
        # C12: emphasis that CommonMark could not close stays literal; drop the markers.
        text, breaks, (links, bold) = _drop_markers(text, breaks, (links, bold))
    return _Inline(text, hrefs, breaks, links, bold)


def _drop_markers(text: str, breaks: list[int], spans: tuple[list[tuple[int, int]], ...] = ()
                  ) -> tuple[str, list[int], tuple[list[tuple[int, int]], ...]]:
    """``text`` without its literal ``**``/``__`` markers; line breaks and spans moved along."""
    out: list[str] = []
    removed_before: list[int] = []
    last = 0
    for m in _EMPH_RE.finditer(text):
        out.append(text[last : m.start()])
        removed_before.append(m.start())
        last = m.end()
    out.append(text[last:])

    def shift(b: int) -> int:
        return b - 2 * bisect.bisect_left(removed_before, b)

    new_spans = tuple([(shift(a), shift(b)) for a, b in group] for group in spans)
    return "".join(out), [shift(b) for b in breaks], new_spans


def _split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans of a paragraph's text (zh and en end marks; decimals are not ends)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENT_END_RE.finditer(text):
        if m.start() <= start:
            continue
        spans.append((start, m.start()))
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()]


class _FileCtx:
    """Walks one file's tokens and collects its units, claims and mentions."""

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
        # what units read of the heading stack, worked out once per heading (see _heading)
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
        self.first_line = 0
        """1-based line of the body's first text line (0: none), for a brief's own title."""

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
        m = _SECTION_RE.search(info.text)
        subjects = self._own_subjects(info.text, info.hrefs, line)
        h = Heading(level, info.text.strip(), line, m.group(1) if m else None, subjects)
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

    def _line(self, line: int) -> str:
        return self.lines[line - 1] if self.lines and 0 < line <= len(self.lines) else ""

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
                 end_line: int | None = None) -> None:
        for r in refs:
            at_line, col = self._locate(r.id, line, end_line or line, self._seen_ids) if r.start >= 0 else (line, 0)
            self.mentions.append(Mention(r.id, r.version, r.raw, at_line, col or None, claim, kind))

    def _unit(self, text: str, hrefs: list[str], line: int, end_line: int, unit: Unit,
              inherited: list[str], forced: tuple[Kind, str] | None = None,
              col_subjects: list[str | None] | None = None, *, links: Sequence[tuple[int, int]] = (),
              bold: Sequence[tuple[int, int]] = (), lead: bool = False,
              table: tuple[list[str], list[str | None], dict[int, str]] | None = None) -> Claim | None:
        """One unit to a claim, or None when it is none (no anchor and no tag or kind column;
        a byline or title, :func:`~kb.extract.kinds.non_claim`).

        :param forced: ``(kind, reason)`` from a table's kind column.
        :param links: spans of link texts and title cells in ``text`` (no cue text).
        :param bold: spans of bold texts in ``text`` (no cue text when they read as titles).
        :param lead: the unit is the single-line first block of the file's body.
        :param table: a table row's ``(cells, metric per cell, rating columns)``:
            :meth:`~kb.extract.metrics.MetricVocab.table_metrics` and the columns headed by
            a rating cue (column → header).
        """
        raw = text
        norm = "\n" in text or "  " in text
        text = " ".join(text.split()) if norm else text.strip()
        if not text:
            return None
        tag = explicit_tag(text) if ("[" in text or "【" in text) else None
        ents = self.p.entities.find(text)
        if (not ents and tag is None and forced is None and not _DIGIT_RE.search(text)
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
            find_kb_paths(text) if ("inbox/" in text or "paper_cards/" in text or "knowledge/" in text) else ())
        if paths:
            skip += [(a, b) for _, a, b in paths]
        if "§" in text:
            skip += [(m.start(), m.end()) for m in _SECTION_RE.finditer(text)]
        dates = find_dates(text, ref=self.ref_date, skip=skip)
        if dates:
            skip += [(d.start, d.end) for d in dates]
        quantities = find_quantities(text, skip=skip, vocab=self.p.vocab)
        if table is not None and any(table[1]):
            quantities = _by_metric_column(text, table[0], quantities, table[1], self.p.vocab, skip)
            if (forced is None and quantities and table[2]
                    and {_column(text, q.start) for q in quantities} <= table[2].keys()):
                forced = ("internal-rating", f"column:{table[2][_column(text, quantities[0].start)]}")
        if not (refs or quantities or dates or dois or ents or tag or forced):
            return None
        if (dates and unit != "table-row" and not (refs or quantities or dois or tag or forced)
                and non_claim(text, [(d.start, d.end) for d in dates], first=lead,
                              names=[(a, b) for _, a, b in ents])):
            return None
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
            cue = self.p.cues.match(masked)
            if cue is not None:
                kind, reason = cue[0], f"cue:{cue[1]}"
            else:
                kind, reason = "secondhand", f"default:{self.role}"
        if refs:
            self._mention(refs, line, cid, kind, end_line)
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
                in_url = [(a, b) for _, a, b in urls]
                anchors += [Anchor(a, b, k, False) for k, a, b in ents if not any(x <= a < y for x, y in in_url)
                            and not any(a < x.end and x.start < b for x in anchors)]
            else:
                anchors = [Anchor(a, b, k, False) for k, a, b in ents]
        att = attribute(text, anchors)
        subjects = _dedupe([r.key for r in refs if r.start < 0] + att.keys) if refs else att.keys  # (a new list, deduped)
        if not any(map(_is_paper, subjects)):
            papers = [s for s in inherited if s.startswith(("arxiv:", "doi:"))]
            if not papers:
                papers = self._papers_above[:1] or self.default_subjects
            subjects = _dedupe(papers + subjects)
        if not subjects:
            subjects = [s for s in _dedupe(list(inherited) or self._subjects_above)
                        if s not in att.hosts]
        # one of several subjects only when there are several (and a number or date to own)
        who = Owners(att.own, text) if len(att.own) >= 2 and (quantities or dates) else None
        if who is not None:
            quantities = [self._attach(q, who) for q in quantities]
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
        hint = _HINT_RE.search(text) if "§" in text else None
        section_hint = _norm_section(hint.group(1)) if hint else self._section
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
            m = _SECTION_RE.search(h.text)
            if m:
                return "§" + m.group(1)
        return None

    def _attach(self, q: Quantity, who: Owners) -> Quantity:
        subj = who.of(q.start, q.end)
        return replaced(q, subject=subj) if subj else q

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


def _by_column(text: str, quantities: list[Quantity], col_subjects: list[str | None]) -> tuple[list[Quantity], list[str]]:
    """Numbers of a table row that sit in an entity-headed column belong to that entity (the
    row's other cells are its conditions: model, hardware, workload)."""
    seps = [m.start() for m in _CELL_SEP_RE.finditer(text)]
    out: list[Quantity] = []
    owners: list[str] = []
    for q in quantities:
        col = bisect.bisect_right(seps, q.start)
        key = col_subjects[col] if col < len(col_subjects) else None
        if key is None or col == 0:
            out.append(q)
            continue
        owners.append(key)
        out.append(replaced(q, subject=key))
    return out, owners


_CELL_SEP_RE = re.compile(r" \| ")


def _column(text: str, at: int) -> int:
    """The cell of a table row's text (cells joined with `` | ``) that offset ``at`` lies in."""
    return text.count(" | ", 0, at + 1) if at >= 0 else 0


_BARE_CELL_RE = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _by_metric_column(text: str, cells: list[str], quantities: list[Quantity], metrics: list[str | None],
                      vocab: Any, skip: Sequence[tuple[int, int]]) -> list[Quantity]:
    """A table row's numbers with the metric of their column (issue 8; the metric is decided by
    :meth:`kb.extract.metrics.MetricVocab.table_metrics`): a number with no metric of its own
    takes its cell's. A cell that is only a bare number (``96`` under ``HF votes``), which
    alone names no metric, is read as written after that metric's first phrase (``HF 票 96``)
    by the one quantity reader, so it is a quantity of that metric."""
    out = [replaced(q, metric=m) if q.metric is None and (m := metrics[min(_column(text, q.start), len(metrics) - 1)])
           else q for q in quantities]
    if " | ".join(cells) != text:
        return out
    taken = {_column(text, q.start) for q in out}
    at = 0
    for k, cell in enumerate(cells):
        m = metrics[k] if k < len(metrics) else None
        start = at + (len(cell) - len(cell.lstrip()))
        at += len(cell) + 3
        if m is None or k in taken or not _BARE_CELL_RE.fullmatch(cell.strip()) or not vocab.phrases.get(m):
            continue
        if any(a < start + len(cell.strip()) and start < b for a, b in skip):
            continue  # an id or a date, not a figure
        label = vocab.phrases[m][0] + " "
        for q in find_quantities(label + cell.strip(), vocab=vocab):
            if q.start >= len(label) and q.metric == m:
                d = start - len(label)
                out.append(replaced(q, start=q.start + d, end=q.end + d))
    out.sort(key=lambda q: q.start)
    return out


def _clip(spans: list[tuple[int, int]], a: int, b: int) -> list[tuple[int, int]]:
    """``spans`` inside ``[a, b)``, as offsets from ``a`` (a sentence of a paragraph)."""
    return [(max(x, a) - a, min(y, b) - a) for x, y in spans if x < b and y > a]


def _cell_spans(cells: list[str], infos: list[_Inline], title_cols: set[int]
                ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Link/title spans and bold spans of a table row, as offsets in ``" | ".join(cells)``:
    the whole cell of a title column, and each cell's link and bold texts."""
    links: list[tuple[int, int]] = []
    bold: list[tuple[int, int]] = []
    off = 0
    for k, cell in enumerate(cells):
        if k in title_cols:
            links.append((off, off + len(cell)))
        if k < len(infos):
            info = infos[k]
            shift = off - (len(info.text) - len(info.text.lstrip()))
            links += [(a + shift, b + shift) for a, b in info.links]
            bold += [(a + shift, b + shift) for a, b in info.bold]
        off += len(cell) + 3
    return links, bold


def _norm_section(s: str) -> str:
    return "§" + s.replace("§", "").strip()


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


_is_paper = methodcaller("startswith", ("arxiv:", "doi:"))
"""A subject key names a paper (an arXiv id or a DOI)."""


_HREF_ID_RE = re.compile(r"(\d{4}\.\d{4,5})")


def _href_key(href: str) -> str:
    m = _HREF_ID_RE.search(href)
    return m.group(1) if m else href


_PIPE_SPLIT_RE = re.compile(r"(?<!\\)\|")


def _raw_count(line: str) -> int:
    """``len(_raw_cells(line))`` (0 for a blank line), without splitting when ``line`` has no
    backslash (then every pipe is a cell boundary)."""
    s = line.strip()
    if not s:
        return 0
    if "\\" in s:
        return len(_raw_cells(s) or ())
    return s.count("|") + 1 - s.startswith("|") - (len(s) > 1 and s.endswith("|"))


def _raw_cells(line: str) -> list[str] | None:
    """Cells of a raw table line split on unescaped pipes (C13), or None without a line."""
    s = line.strip()
    if not s:
        return None
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [c.strip().replace("\\|", "|") for c in _PIPE_SPLIT_RE.split(s)]


def parse_file(config: KbConfig, path: str, data: bytes) -> ParsedFile:
    """Parse one file with a fresh :class:`Parser` (convenience for tests and one-offs)."""
    return Parser(config).parse_bytes(path, data)


Scope = Literal["inbox", "card", "living-doc"]
