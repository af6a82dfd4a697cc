"""One night as a straight sequence (:func:`run_night`): the window (:func:`pick_window`), the
baseline doc, the window's files and claims, the cards and titles, the claims naming a paper by
title, the Attributor, the diff.

Only the window and the subjects in it are queried (indexes on ``claims.written_at``,
``subjects.subject``, ``mentions.arxiv_id``), so the cost of a night does not grow with the
KB. :func:`kb.brief.context.build_context` turns the result into what the templates render.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from kb.core import frontmatter
from kb.core.claims import Claim, Provenance, claim_id, is_derived
from kb.core.config import topic_name_problem
from kb.core.errors import InputError, UsageError
from kb.core.moments import FIRST
from kb.core.paths import (
    KNOWLEDGE_DIR,
    doc_path,
    is_own_brief,
    own_brief_suffix,
)
from kb.core.textio import Problem, decode
from kb.core.window import HISTORY_WINDOWS, Window, night_of, resolve_window
from kb.extract.kinds import CueMatcher, explicit_tag, kind_by_cue
from kb.extract.names import NameMatcher
from kb.facts.attributor import Attributor
from kb.facts.known import names_code
from kb.facts.query import attributor
from kb.night.apart import apart_claims, demoted_row_claims
from kb.night.model import DiffResult
from kb.night.rules import diff
from kb.night.share import NightShare, topic_paths
from kb.read.cards import Card
from kb.read.livedoc import LazyParser, LivingDoc
from kb.read.versions import baseline_for
from kb.store.cards import load_cards
from kb.store.titles import TitleIndex, cited_by_title, known_titles
from kb.store.workspace import Kb

SOURCE_ROLES = ("inbox", "card")


@dataclass(slots=True)
class WindowFile:
    """A file written in the window (an inbox briefing or a card created then)."""

    path: str
    role: str
    author: str | None
    written_at: str | None
    n_claims: int


@dataclass(slots=True)
class Night:
    """Everything one night's diff and brief need.

    :ivar claims: window claims by id (what the subjects' ``claims`` lists refer to).
    :ivar density: ``claims`` and ``files`` of this window; ``previous``: claims per
        earlier window of the same length (7 of them, newest first).
    """

    kb: Kb
    topic: str
    window: Window
    doc: LivingDoc
    result: DiffResult
    claims: dict[str, Claim]
    cards: dict[str, Card]
    files: list[WindowFile]
    attributor: Attributor
    """The :class:`kb.facts.attributor.Attributor` the diff read the night with (the brief, the
    relay notes and the source records read it again through the same one)."""
    previous: list[int] = field(default_factory=list)


def newest_inbox_night(kb: Kb, topic: str, now: datetime | None = None) -> date | None:
    """The night holding the newest inbox file (the topic's own briefs aside), else None.

    Files dated more than a day after ``now`` (a typo such as ``2062-07-31-…``) are passed
    over, with a warning naming them, so one bad stamp does not pick a night decades away.
    """
    limit = (now or datetime.now(kb.config.tzinfo)) + timedelta(days=1)
    future, newest = _newest_inbox(kb, topic, limit.isoformat())
    for path in future:
        kb.report.problems.append(Problem(path, 0, "dated in the future (a typo in its stamp or front matter?); "
                                          "not used to pick tonight's window", "warning"))
    return night_of(newest, kb.config) if newest else None


_NEWEST_KEPT = 64
"""How many of the newest inbox files :func:`_newest_inbox` keeps between runs."""


def _newest_inbox(kb: Kb, topic: str, limit: str) -> tuple[list[str], str | None]:
    """``(paths of inbox files dated after limit, by path; the newest written_at at or before
    it, the topic's own briefs aside)``, read from the :data:`_NEWEST_KEPT` newest inbox files,
    kept in the store between runs keyed by the files' write generation
    (:meth:`kb.store.db.Store.files_stamp`): a KB of 10k inbox files is not scanned each night.
    When the kept ones cannot answer (all of them dated after ``limit``, or all the topic's
    own briefs), the files table is queried as before; own briefs are told apart by SQLite's
    ``LIKE``, as that query does."""
    suffix = f"%{own_brief_suffix(topic)}"
    rows = kb.store.kept("newest_inbox", [kb.store.files_stamp(), _NEWEST_KEPT],
                         lambda: [list(r) for r in kb.store.newest_files("inbox", _NEWEST_KEPT)])
    if len(rows) < _NEWEST_KEPT or rows[-1][0] <= limit:  # every inbox file after limit is among them
        future = sorted(p for w, p in rows if w > limit)
        for w, p in rows:
            if w <= limit and not kb.store.like(p, suffix):
                return future, w
        if len(rows) < _NEWEST_KEPT:
            return future, None
    else:
        future = kb.store.paths_written_after("inbox", limit)
    return future, kb.store.last_written("inbox", limit, not_like=suffix)


def pick_window(kb: Kb, topic: str, *, since: str | None = None, until: str | None = None,
                day: str | None = None, span: str | None = None) -> Window:
    """The window of the options; with none, the night of the newest inbox day.

    :raises UsageError: see :func:`kb.core.window.resolve_window`.
    """
    default = None if (since or until or day or span) else newest_inbox_night(kb, topic)
    return resolve_window(kb.config, since=since, until=until, day=day, span=span, default_night=default)


def check_topic_name(topic: str) -> None:
    """:raises UsageError: ``topic`` is not a plain name (``../k``, ``a/b``, ``.hidden``): it
    would name files outside ``organized/knowledge`` and ``inbox/<executor>``."""
    problem = topic_name_problem(topic)
    if problem:
        raise UsageError(problem)


def check_topic(kb: Kb, topic: str) -> None:
    """:raises UsageError: ``topic`` is not a plain name (see :func:`check_topic_name`), or not
    in ``kb.yaml`` and has no living document."""
    check_topic_name(topic)
    if (why := kb.config.unknown_topic(kb.root, topic)) is not None:
        raise UsageError(why)


def window_files(kb: Kb, window: Window, topic: str | None, share: NightShare | None = None) -> list[WindowFile]:
    """Inbox files and cards written in the window, by path (own briefs of the topic left out,
    every brief kept for ``topic`` None; the rows read once per ``share``)."""
    rows = (share or NightShare()).once(("files", window.since_iso, window.until_iso), lambda: kb.store.files_written(
        window.since_iso, window.until_iso, ("inbox", "card")))
    return [WindowFile(*r) for r in rows if topic is None or not is_own_brief(r[0], topic)]


def doc_title_citations(kb: Kb, doc: LivingDoc, cards: list[Card], titles: list[tuple[str, str]] | None = None,
                        index: TitleIndex | None = None) -> dict[str, list[tuple[int, bool]]]:
    """Papers the living doc cites by title: key -> ``(line, item or row)`` (docs/diff.md "Title citations").

    Titles come from ``cards``, arXiv-link texts of the KB and the arXiv cache
    (:func:`kb.store.titles.known_titles`); the threshold is ``kb.yaml`` ``diff.title_threshold``.
    ``index``: their :class:`kb.store.titles.TitleIndex`, when the caller holds it (the nights
    of every topic: read once, not once per doc).
    """
    if index is None:
        index = TitleIndex.kept(kb.store, known_titles(kb.store, cards) if titles is None else titles,
                                kb.config.diff.title_threshold)
    front = doc.parsed.front_end if doc.front_present else 0
    return cited_by_title(doc.text.split("\n"), index, skip=range(1, front + 1))


_ITEM_MARK_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


def _title_matcher(kb: Kb, titles: Sequence[tuple[str, str]]) -> NameMatcher:
    """The matcher of whole known titles (12+ characters), kept in the store between runs
    (:meth:`kb.store.db.Store.kept`, keyed by the titles and the matcher's code)."""
    def build() -> list[Any]:
        names = {" ".join(t.strip().strip("*_.。 ").split()).lower(): key for key, t in titles}
        built.append(NameMatcher({n: k for n, k in names.items() if len(n) >= 12}))
        return built[0].state()

    built: list[NameMatcher] = []  # kept between runs, keyed by the titles (a changed one builds it again)
    state = kb.store.kept("title_names", [names_code(), list(titles)], build)
    return built[0] if built else NameMatcher.from_state(state)


#: How far before a window a title-only line still counts as an earlier mention (days).
TITLE_LOOKBACK_DAYS = 30


def _titled_before(kb: Kb, since: str, titles: Sequence[tuple[str, str]], topic: str) -> dict[str, str]:
    """``key -> earliest written_at`` of inbox lines before ``since`` (and at most
    :data:`TITLE_LOOKBACK_DAYS` before it) that name a known paper by its whole title only
    (``- Quiet Heads Make Faster Decoders``: no claim, so no stored subject); the topic's own
    briefs are passed over. Read once per night, at the first subject that needs it."""
    matcher = _title_matcher(kb, titles)
    out: dict[str, str] = {}
    if not matcher:
        return out
    start = (datetime.fromisoformat(since) - timedelta(days=TITLE_LOOKBACK_DAYS)).isoformat()
    for path, written in sorted(kb.store.dated_files("inbox"), key=lambda r: r[1]):
        if not start <= written < since or is_own_brief(path, topic):
            continue
        try:
            text = decode((kb.root / path).read_bytes(), path).text
        except OSError:
            continue
        for key, _, _ in matcher.find(text):
            out.setdefault(key, written)
    return out


def title_claims(kb: Kb, files: list[WindowFile], claims: list[Claim],
                 titles: list[tuple[str, str]]) -> list[Claim]:
    """Claims for window lines that name a known paper only by its whole title (DESIGN.md §3:
    "a paper cited by title only is still the same subject") and so gave the parser no anchor:
    ``- Efficient Streaming Language Models with Attention Sinks is the reference …``.

    Titles (:func:`kb.store.titles.known_titles`: cards, arXiv link texts, the arXiv cache) are known
    only at diff time, so these claims are made here, for the window's files, and never stored
    (a new card re-parses nothing). Their kind is decided as the parser decides it: an explicit
    tag, a cue (:mod:`kb.extract.kinds`), else the file role's default.

    The matcher of the titles (12+ characters) is kept in the store between runs
    (:meth:`kb.store.db.Store.kept`, keyed by the titles and the matcher's code).

    :returns: one claim per such line, not already a claim's line, with the titled papers as
        subjects.
    """
    matcher = _title_matcher(kb, titles)
    if not matcher:
        return []
    taken: dict[str, set[int]] = defaultdict(set)
    for c in claims:
        taken[c.provenance.path].update(range(c.provenance.line, c.provenance.end_line + 1))
    cues = None  # the cue matcher, built at the first titled line (most nights have none: ~30 ms)
    out: list[Claim] = []
    for f in files:
        if f.role != "inbox":
            continue
        try:
            text = decode((kb.root / f.path).read_bytes(), f.path).text
        except OSError:
            continue
        _, body = frontmatter.split(text, f.path)
        fence = False
        for no, line in enumerate(body.split("\n"), 1):
            if line.lstrip().startswith(("```", "~~~")):
                fence = not fence
            if fence or no in taken[f.path] or line.lstrip().startswith(("#", "|", "<!--")):
                continue
            found = matcher.find(line)
            if not found:
                continue
            plain = _ITEM_MARK_RE.sub("", line).replace("**", "").strip()
            tag = explicit_tag(plain)
            if tag is None and cues is None:
                cues = CueMatcher.from_config(kb.config.cues)
            kind, reason = (tag[0], f"tag:{tag[1]}") if tag else kind_by_cue(cues, plain, "inbox")  # type: ignore[arg-type]
            out.append(Claim(id=claim_id(f.path, no, 0, plain), kind=kind, kind_reason=reason, text=plain,
                             unit="list-item" if _ITEM_MARK_RE.match(line) else "sentence", role="inbox",
                             subjects=list(dict.fromkeys(k for k, _, _ in found)),
                             provenance=Provenance(path=f.path, line=no, end_line=no, author=f.author,
                                                   written_at=f.written_at)))
    return out


def first_mention_before(kb: Kb, since: str, titles: Sequence[tuple[str, str]] = (),
                         topic: str = "") -> Callable[[str], str | None]:
    """``key -> earliest written_at before since`` from claims and arXiv mentions, else (a paper
    the KB knows by title, ``titles``) from inbox lines naming it by title only
    (:func:`_titled_before`), else None.

    A living doc (and its history) is never a first mention: its ``updated`` time says when the
    doc was edited, not when the KB first heard of the subject (issue 20)."""
    doc = KNOWLEDGE_DIR + "/"
    titled = {k for k, _ in titles}
    by_title: list[dict[str, str]] = []

    def first(key: str) -> str | None:
        found = kb.store.first_mention(key, outside=doc)
        if found is not None and found < since:
            return found
        if key.startswith("arxiv:"):
            earlier = [m.written_at for m in kb.store.mentions(key[6:], until=since)
                       if m.written_at and not m.path.startswith(doc)]
            if earlier:
                return min(earlier)
        if key in titled:
            if not by_title:
                by_title.append(_titled_before(kb, since, titles, topic))
            return by_title[0].get(key)
        return None

    return first


def previous_counts(kb: Kb, window: Window, topic: str, nights: int = HISTORY_WINDOWS) -> list[int]:
    """Claims (inbox and cards, own briefs aside) in each of the ``nights`` earlier windows."""
    step = window.until - window.since
    try:
        start = window.since - nights * step
    except OverflowError:  # a window over all time (1000 to 9000): its earlier windows reach before the calendar
        start = FIRST
    counts = [0] * nights
    rows = kb.store.claim_counts(start.isoformat(), window.since_iso, ("inbox", "card"))  # per file and time
    for written_at, path, n in rows:
        if is_own_brief(path, topic):
            continue
        back = int((window.since - datetime.fromisoformat(written_at)) / step)
        if 0 <= back < nights:
            counts[back] += n
    return counts


def night_doc(kb: Kb, topic: str, window: Window, held: Any = None) -> LivingDoc:
    """The night's baseline: the topic's living document as it stood at the window's end.

    :param held: a :class:`kb.history.held.Held` (``kb diff --as-of``): the doc version current then.
    :raises InputError: the topic has no living document (names the path to create).
    """
    try:
        doc = (baseline_for(kb.root, topic, LazyParser(kb.config), window.until, store=kb.store) if held is None
               else held.doc(topic))
        if doc is None:
            raise FileNotFoundError(doc_path(topic))
    except FileNotFoundError as exc:
        raise InputError(f"no living document for topic {topic!r}; create it (front matter topic/version/updated)",
                         doc_path(topic)) from exc
    return doc


def window_claims(kb: Kb, window: Window, topic: str | None, share: NightShare | None = None) -> list[Claim]:
    """The stored claims of the inbox files and cards written in the window, by path and line
    (the topic's own briefs and derived claims left out, every brief kept for ``topic`` None;
    the claims read once per ``share``)."""
    every = (share or NightShare()).once(("claims", window.since_iso, window.until_iso), lambda: sorted(
        [c for role in SOURCE_ROLES for c in kb.store.claims(since=window.since_iso, until=window.until_iso, role=role)
         if not is_derived(c)], key=_place))
    return [c for c in every if topic is None or not is_own_brief(c.provenance.path, topic)]


def night_cards(kb: Kb, held: Any = None) -> list[Card]:
    """The paper cards a night knows (with ``held``: those the KB held then), keyed ones only."""
    return [c for c in (load_cards(kb.store) if held is None else held.cards()) if c.key]


def _place(c: Claim) -> tuple[str, int]:
    return c.provenance.path, c.provenance.line


def run_night(kb: Kb, topic: str, window: Window, held: Any = None, share: NightShare | None = None) -> Night:
    """Diff one window of ``topic`` against its living document: the baseline, the window's
    files and claims, the cards and titles the KB knows, the claims naming a paper by title,
    the Attributor, the diff.

    :param held: a :class:`kb.history.held.Held` (``kb diff --as-of``): the baseline is the doc
        version current then and only the cards created before then are known.
    :param share: per-file work the nights of one command share (:class:`kb.night.share.NightShare`).
    :raises InputError: the topic has no living document (names the path to create).
    """
    check_topic(kb, topic)
    share = share if share is not None else NightShare()
    doc = night_doc(kb, topic, window, held)
    files = window_files(kb, window, topic, share)
    claims = window_claims(kb, window, topic, share)
    cards = night_cards(kb, held)
    titles = known_titles(kb.store, cards)
    claims = sorted([*claims, *title_claims(kb, files, claims, titles)], key=_place)
    at = attributor(kb, held, cards=cards, titles=titles, headings=[s.title for s in doc.sections])
    result = diff(
        claims, doc.claims, cards, kb.config, window, topic, at=at,
        baseline={"path": doc.path, "version": doc.version,
                  "updated": doc.updated.isoformat() if doc.updated else None, "citations": doc.citations},
        first_mention=first_mention_before(kb, window.since_iso, titles, topic),
        card_claims=lambda card: kb.store.claims(path=card.path, kind="paper-fact"),
        files=[(f.path, f.role) for f in files], doc_sections=[(s.line, s.label, s.title) for s in doc.sections],
        topic_paths=topic_paths(kb, [f.path for f in files], [topic, *kb.config.topic_categories(topic)],
                                share.fronts),
        title_citations=doc_title_citations(kb, doc, cards, titles),
        titles=titles, doc_lines=doc.text.splitlines(), apart=apart_claims(kb, claims, share.apart),
        demoted=demoted_row_claims(kb, claims),
    )
    result.notes.extend(doc.notes)
    return Night(kb=kb, topic=topic, window=window, doc=doc, result=result, claims={c.id: c for c in claims},
                 cards={c.key: c for c in cards}, files=files, attributor=at,
                 previous=previous_counts(kb, window, topic))
