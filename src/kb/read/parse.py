"""Markdown files to claims: markdown-it-py tokens (with line maps) -> units -> :class:`Claim`.

A *unit* is a sentence of a paragraph, a list item's own text or a table row (DESIGN.md §2).
A unit with at least one anchor (arXiv id, quantity, date, DOI or known entity), or with an
explicit kind tag or kind-column value, is a claim; a byline or a brief's own title is none
(:func:`kb.extract.kinds.non_claim`).

The entry: :class:`Parser` reads a file's front matter and hands its Markdown, one top-level
block at a time (:func:`kb.perf.mdblocks._blocks`), to the block walk (:mod:`kb.read.walk`),
which makes units of it; :mod:`kb.read.unit` makes each unit a claim, helped by
:mod:`kb.read.tables` and :mod:`kb.read.inline`. The parser's fingerprint is the import
closure of this module (``kb.perf.digest.code_digest("kb.read.parse")``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime, time, timezone
from functools import lru_cache
from pathlib import PurePosixPath
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from kb.core import frontmatter
from kb.core.claims import Claim, Role
from kb.core.config import KbConfig
from kb.core.moments import ACCEPTED, accepted
from kb.core.parsed import Mention, ParsedFile
from kb.core.paths import KNOWLEDGE_DIR
from kb.core.textio import Problem, decode, invisible_references
from kb.extract.arxiv_ids import find_arxiv, scan_arxiv
from kb.extract.dates import invalid_stamp, parse_stamp, stamp_warning
from kb.extract.kinds import CueMatcher
from kb.extract.metrics import MetricVocab
from kb.extract.names import NameMatcher, entity_names
from kb.extract.vocab.metrics import DATE_METRICS
from kb.perf.mdblocks import _LAZY_LINES_MIN, _blocks, _cover, _Lines, _unread_lines
from kb.perf.mdrules import guard_rules
from kb.read.cards import CARD_NUMBER, card_number_problems, pinned_version
from kb.read.htmlblock import SKIPPED_TAGS
from kb.read.livedoc import version_problem
from kb.read.scopes import file_scope, section_ids
from kb.read.strike import single_tilde
from kb.read.walk import _FileCtx

#: The first line kb writes into a brief it renders (templates/e1prep.*.md.j2) starts so.
_BRIEF_MARK = "<!-- kb:brief "
# the list and quote marks that open a line (a line past the nesting limit is read without them)
_LINE_MARKS_RE = re.compile(r"^[ \t>]*(?:(?:[*+\-]|\d{1,9}[.)])[ \t]+)?[ \t>]*")


#: Where :meth:`Parser.parse_bytes` hands claims as it goes: ``sink(claims, mentions, written_at)``:
#: two lists in document order (not reused by the parser) and the file's ``written_at`` (ISO or
#: None, as :attr:`ParsedFile.written_at`), which a mention's store row carries.
Sink = Callable[[list[Claim], list["Mention"], "str | None"], None]


def role_of(path: str) -> Role:
    """File role from its KB-relative path (DESIGN.md §1). A version ``kb bump`` kept
    (``organized/knowledge/history/<topic>/v<N>.md``, never ingested) is a living doc too: a
    version diff and a night's older baseline read it as the current doc is read (a note's
    ``# Title`` is no subject of it)."""
    if path.startswith("inbox/"):
        return "inbox"
    if path.startswith("organized/paper_cards/"):
        return "card"
    if path.startswith(KNOWLEDGE_DIR + "/") and ("/history/" not in path or _SNAPSHOT_RE.fullmatch(path)):
        return "living-doc"  # (kb.store.db.Store.heading_texts_in reads them there)
    return "other"


_SNAPSHOT_RE = re.compile(re.escape(KNOWLEDGE_DIR) + r"/history/[^/]+/v\d+\.md")


#: Deepest token nesting markdown-it follows, two per list or quote level (its default, 20,
#: silently drops lists deeper than 10 and everything after them); past it kb reports the
#: lines it could not read.
MAX_NESTING = 100


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    """kb's Markdown: CommonMark with tables, ``~~strikethrough~~`` (and ``~single~``:
    :mod:`kb.read.strike`) and raw HTML, nesting up to :data:`MAX_NESTING`."""
    return guard_rules(single_tilde(MarkdownIt("commonmark", {"html": True, "maxNesting": MAX_NESTING})
                                    .enable(["table", "strikethrough"])))


class Parser:
    """Parses files of one KB with one configuration (entities, metrics, cues, time zone).

    :param config: the KB's :class:`KbConfig`.
    """

    def __init__(self, config: KbConfig) -> None:
        self.config = config
        self.md = _md()
        self.tz = config.tzinfo
        self.entities = NameMatcher(entity_names(config))
        self.vocab = MetricVocab(config.metrics)
        self.date_phrases = re.compile("|".join(
            re.escape(p) for p in sorted((p for m in DATE_METRICS for p in self.vocab.phrases.get(m, ())),
                                         key=len, reverse=True)) or "(?!)", re.IGNORECASE)
        cues = config.cues
        self.cues = CueMatcher.from_config(cues)

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
        charrefs = invisible_references(body)  # removed from the text by kb.read.inline, as decode removes the characters
        code: list[list[int]] = []  # the lines of code blocks, where a reference stays as written
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
            for why in card_number_problems(path.rsplit("/", 1)[-1], fm.data.get("card"), fm.raw.get("card"),
                                            "card" in fm.data):
                problems.append(Problem(path, fm.key_lines.get("card", 1), why, "warning", code=CARD_NUMBER))
            pinned = pinned_version(fm.data.get("arxiv_version"))
            if isinstance(pinned, str):
                problems.append(Problem(path, fm.key_lines.get("arxiv_version", 2), f"arxiv_version: {pinned!r} is not a "
                                        "version (e.g. 2 or v2); the card names no version", "warning"))

        elif role == "living-doc" and "version" in front and (why := version_problem(front["version"])) is not None:
            problems.append(Problem(path, fm.key_lines.get("version", 1), f"version {why}; the document's version is "
                                    "unknown", "warning"))
        elif role in ("inbox", "other"):
            ctx.default_subjects = file_scope(front, body)  # a paper note (issue 20)
            ctx.section_ids = section_ids(body)  # "## <Title>" … its one paper link
            ctx.learn_scope_name(front, body)  # "Fast KVzip" of its title names the note's paper

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
        # the mark at a line's start, whole within the first 4,000 characters (as the pattern
        # ^<!-- kb:brief  under re.M searched up to 4,000: it tried every offset; find skips in C)
        ctx.generated = body.startswith(_BRIEF_MARK) or body.find("\n" + _BRIEF_MARK, 0, 4000) >= 0
        ctx.mentions = mentions  # the front matter's first, then the body's in order
        covered = bytearray(len(ctx.lines) + 1)
        deepest = 0
        tokens: list[Token] = []
        for tokens in _blocks(_md(), body):  # one top-level block's tokens at a time
            deepest = max(deepest, _cover(tokens, covered))
            if charrefs:
                code += [t.map for t in tokens if t.type in ("fence", "code_block") and t.map]
            for t in tokens:  # text a writer may have meant as prose, which kb does not read: say so
                if t.type in _MAYBE_UNREAD and t.map and (what := _unread_block(t)) is not None:
                    problems.append(Problem(path, t.map[0] + 1, f"{what} is not read: its numbers are no claims",
                                            "warning", code="unread-block"))
            ctx.walk(tokens)
            if sink is not None and len(ctx.claims) >= batch:
                sink(ctx.claims, ctx.mentions, ctx.written_at)
                streamed += len(ctx.claims)
                ctx.claims, ctx.mentions = [], []
        if bad := [n for n in charrefs if not any(a < n <= b for a, b in code)]:
            shown = ", ".join(map(str, bad[:5])) + (" …" if len(bad) > 5 else "")
            problems.append(Problem(path, bad[0], f"character references to invisible or direction characters on "
                                    f"{len(bad)} line(s) ({shown}); removed", "warning", code="control"))
        if tokens and (open_at := _never_closed(tokens[-1], ctx.lines)) is not None:
            what, first = open_at  # the last block runs to the end: the file's rest is code or a comment
            rest = sum(1 for n in range(first, len(ctx.lines)) if ctx.lines[n].strip())
            problems.append(Problem(path, first, f"{what} opened here is never closed: the {rest} line(s) of text "
                                    "after it are not read", "warning", code="unclosed"))
        if deepest >= MAX_NESTING - 2:
            unread = _unread_lines(covered, ctx.lines)
            if unread:  # past markdown-it's nesting limit: each line is read alone, as a list item
                problems.append(Problem(path, unread[0], f"nested too deep (over {MAX_NESTING // 2} lists or quotes): "
                                        f"{len(unread)} line(s) read one by one as list items "
                                        f"(lines {unread[0]}–{unread[-1]})", "warning", code="nesting"))
                for n in unread:
                    ctx._unit(_LINE_MARKS_RE.sub("", ctx.lines[n - 1], count=1), [], n, n, "list-item", [])
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
            why = ("is out of range (" + ACCEPTED + ")" if frontmatter.as_datetime(value, timezone.utc, clamp=False)
                   else "is not an ISO date or date-time (e.g. 2026-07-31T16:30:00+08:00)")
            problems.append(Problem(path, fm.key_lines.get(key, fm.start_line), f"{key}: {str(value)[:40]!r} {why}; ignored",
                                    "warning"))
        name = _file_name(path)
        bad = invalid_stamp(name)
        if bad:  # 2026-02-30, T2460: no date or time is made up for it
            problems.append(Problem(path, 1, f"file-name stamp {bad} is not a valid date or time; "
                                    "the file is read as undated", "warning"))
            return None
        odd = stamp_warning(name) if role == "inbox" else None
        if odd:  # 2026-07-31-2599-…, 2026-7-31-…: what kb reads of the name, said
            problems.append(Problem(path, 1, odd, "warning"))
        stamp = parse_stamp(name)
        if stamp is None:
            return None
        day, at = stamp
        if not accepted(day):  # one clamp (kb.core.moments): a file stamped 9999-12-31 is undated, and says so
            problems.append(Problem(path, 1, f"file-name stamp {day.isoformat()} is out of range ({ACCEPTED}); "
                                    "the file is read as undated", "warning"))
            return None
        return datetime.combine(day, at or time(0, 0), self.tz)


# CommonMark's HTML block of kind 1: opened by one of these tags, it ends at a line holding any of
# their closing tags (or at the end of the document)
_RAW_BLOCK_RE = re.compile(r"\s*<(pre|script|style|textarea)(?:[\s>]|$)", re.IGNORECASE)
_RAW_BLOCK_END_RE = re.compile(r"</(?:pre|script|style|textarea)>", re.IGNORECASE)


_FIGURE_RE = re.compile(r"(?<![\w#&])\d(?:[\d.,]*\s*[%×xX]|[\d.,]*\s*[A-Za-z\u4e00-\u9fff])")
_DECLARATION_RE = re.compile(r"\s*<(?:\?|!\[CDATA\[|![A-Za-z])")


#: The only token types :func:`_unread_block` names (a cheap test before calling it).
_MAYBE_UNREAD = frozenset(("code_block", "html_block"))


def _unread_block(t: Token) -> str | None:
    """What a block is when CommonMark makes it text kb never reads although it holds a figure
    (a number with a unit or a word after it): an indented code block (``    TGI 301 tok/s``: four
    spaces of indent), an HTML processing instruction, CDATA section or declaration; else None."""
    if t.type == "code_block" and _FIGURE_RE.search(t.content):
        return "an indented code block (four spaces; outdent it to make it text)"
    if t.type == "html_block" and _DECLARATION_RE.match(t.content) and _FIGURE_RE.search(t.content):
        return "an HTML processing instruction, CDATA section or declaration"
    return None


def _never_closed(t: Token, lines: Sequence[str]) -> tuple[str, int] | None:
    """``(what, line)`` when the block ``t`` (a file's last) is a code fence, HTML comment or
    ``<pre>``, ``<script>``, ``<style>`` or ``<textarea>`` element never closed, which CommonMark
    runs to the end of the document, else None."""
    if not t.map or t.map[1] < len(lines) - 1:
        return None
    last = lines[t.map[1] - 1].strip(" \t>") if t.map[1] > t.map[0] + 1 else ""
    if t.type == "fence" and not (last.startswith(t.markup) and not last.strip(t.markup[:1])):
        return "code fence", t.map[0] + 1
    if t.type == "html_block" and t.content.lstrip().startswith("<!--") and "-->" not in t.content:
        return "HTML comment", t.map[0] + 1
    if t.type == "html_block" and (m := _RAW_BLOCK_RE.match(t.content)) and not _RAW_BLOCK_END_RE.search(t.content):
        return f"<{m.group(1).lower()}> element", t.map[0] + 1
    return None


def unread_blanked(text: str) -> str:
    """``text`` (Markdown) with what the parser never reads as text blanked, lines kept: fenced and
    indented code, HTML comments (blocks and inline), and the HTML elements whose text is not read
    (:data:`kb.read.htmlblock.SKIPPED_TAGS`: ``<pre>``, ``<script>`` …; a block of them or a comment
    never closed runs to the end, as CommonMark's does). Block structure is the parser's
    (:func:`_md`). What a living doc cites is counted in it (KB109, ``kb diff --from/--to``)."""
    if "`" not in text and "~" not in text and "<" not in text and "    " not in text and "\t" not in text:
        return text
    lines = text.split("\n")
    for tok in _md().parse(text):
        if tok.map is not None and tok.type in ("fence", "code_block", "html_block"):
            a, b = tok.map
            if tok.type != "html_block" or _SKIPPED_BLOCK_RE.match(lines[a]):
                lines[a:b] = [""] * (b - a)
    text = "\n".join(lines)
    return _SKIPPED_INLINE_RE.sub(lambda m: _NOT_NEWLINE.sub(" ", m.group()), text) if "<" in text else text


# (the tags sorted: a set's order, hence the pattern's text, changes with the hash seed, and
# kb.perf.recache keeps a pattern by its text; the order of names that cannot match at one place,
# each followed by a delimiter no name holds, changes no match)
_SKIPPED_BLOCK_RE = re.compile(r"\s*<(?:!--|(?:" + "|".join(sorted(SKIPPED_TAGS)) + r")(?:[\s>]|$))", re.IGNORECASE)
_SKIPPED_INLINE_RE = re.compile(r"<!--.*?-->|<(" + "|".join(sorted(SKIPPED_TAGS)) + r")(?:[\s/][^>]*)?>.*?</\1\s*>",
                                re.IGNORECASE | re.DOTALL)
_NOT_NEWLINE = re.compile(r"[^\n]")


def _file_name(path: str) -> str:
    """``PurePosixPath(path).name`` without making a path: the text after the last ``/``. Exact:
    a path object's parts are the texts between its ``/`` but ``""`` and ``"."``, so a last text
    that is neither is its name; for those two (``a/``, ``a/.``) the path object says."""
    name = path.rpartition("/")[2]
    return name if name not in ("", ".") else PurePosixPath(path).name


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


def parse_file(config: KbConfig, path: str, data: bytes) -> ParsedFile:
    """Parse one file with a fresh :class:`Parser` (convenience for tests and one-offs)."""
    return Parser(config).parse_bytes(path, data)
