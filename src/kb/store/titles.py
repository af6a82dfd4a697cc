"""(moved from kb.read.cards)"""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from kb.core.textio import decode
from kb.extract.arxiv_ids import InvalidArxivId, parse_arxiv_id, scan_arxiv
from kb.extract.titles import _CJK, _head, _ratio, normalize_title, paper_title
from kb.perf.lazyre import lazy
from kb.read.cards import Card
from kb.store.cards import _card_code, load_cards
from kb.store.db import Store
from kb.store.filerow import decoded_json

_MIN_EXACT = 5
_MIN_FUZZY = 12
_RAREST = 2
_SPAN_RES = (  # (characters one of which the line must hold, pattern)
    ("]", re.compile(r"\[([^\[\]\n]{4,400})\]\(")),                      # link text [Title](url)
    ("*_", re.compile(r"\*\*([^*\n]{4,400}?)\*\*|__([^_\n]{4,400}?)__")),  # bold
    ("*", re.compile(r"(?<![*\w])\*([^*\n]{12,400}?)\*(?![*\w])")),       # italic
    ('"“《「『', re.compile(r'"([^"\n]{4,400})"|“([^”\n]{4,400})”|《([^》\n]{2,400})》|「([^」\n]{2,400})」|『([^』\n]{2,400})』')),
)
_QUOTES = "\"'“”‘’《》「」『』 "
_ITEM_RE = re.compile(r"\s*(?:(?:[-*+]|\d+[.)])\s|\|)")
_MARKUP_RE = re.compile(r"\]\([^)]*\)|[*_`\[\]]|!?\[|<[^>]{1,80}>")
_CJK_CHAR_RE = lazy(globals(), "_CJK_CHAR_RE", f"[{_CJK}]")  # compiled on first use: only the title index needs it


def _words(norm: str) -> set[str]:
    """Words of a normalised title; a CJK run gives its character pairs."""
    out: set[str] = set()
    for w in norm.split():
        if not w.isascii() and _CJK_CHAR_RE.search(w):
            out.update(w[i:i + 2] for i in range(max(len(w) - 1, 1)))
        elif len(w) > 1:
            out.add(w)
    return out


class TitleIndex:
    """Known paper titles -> subject keys, for finding papers cited by title only.

    :param titles: ``(subject key, title)`` pairs, best source first (cards, then link
        texts, then the arXiv cache); the first key of a normalised title wins, and a title
        before its colon (``SnapKV``) is kept only when one paper has it.
    :param threshold: minimum score (0..1) of a fuzzy match: rapidfuzz ``ratio / 100`` of
        the normalised texts, the score of :func:`title_similarity` (whose title-before-colon
        case is the exact lookup here).
    """

    def __init__(self, titles: Iterable[tuple[str, str]], threshold: float) -> None:
        self.threshold = threshold
        self.exact: dict[str, str] = {}
        heads: dict[str, set[str]] = {}
        self.choices: list[str] = []
        self.keys: list[str] = []
        self.postings: dict[str, list[int]] = {}
        self._indexed = False
        for key, title in titles:
            norm = normalize_title(title)
            if len(norm) < _MIN_EXACT or norm in self.exact:
                continue
            self.exact[norm] = key
            head = _head(title)
            if head:
                heads.setdefault(normalize_title(head), set()).add(key)
            if len(norm) >= _MIN_FUZZY:
                self.choices.append(norm)
                self.keys.append(key)
        for head, keys in heads.items():
            if len(keys) == 1 and len(head) >= _MIN_EXACT:
                self.exact.setdefault(head, next(iter(keys)))

    @classmethod
    def kept(cls, store: Store, titles: Sequence[tuple[str, str]], threshold: float) -> TitleIndex:
        """The same index as ``TitleIndex(titles, threshold)``, its exact names and fuzzy
        choices kept in the store between runs (:meth:`kb.store.db.Store.kept`, keyed by the
        titles themselves and this module's code), so a night on a KB of thousands of titles
        normalises none of them when no title changed; any changed title builds it again."""
        def build() -> list[Any]:
            index = cls(titles, threshold)
            index._index_words()
            return [index.exact, index.choices, index.keys, index.postings]

        exact, choices, keys, postings = store.kept("title_index", [_card_code(), unicodedata.unidata_version, titles],
                                                    build)
        index = cls((), threshold)
        index.exact, index.choices, index.keys, index.postings = exact, choices, keys, postings
        index._indexed = True  # the fuzzy look-up's word postings are kept too (12k KB: 2,137 titles split each run)
        return index

    def _index_words(self) -> None:
        """Build :attr:`postings` (title word -> indexes into :attr:`choices`, ascending) once:
        what the fuzzy look-up of :meth:`match` picks its pool from."""
        if not self._indexed:
            self._indexed = True
            for i, choice in enumerate(self.choices):
                for w in _words(choice):
                    self.postings.setdefault(w, []).append(i)

    def __len__(self) -> int:
        return len(self.exact)

    def match(self, text: str) -> str | None:
        """The key of the paper ``text`` (one candidate title) names, else None.

        Exact normalised lookup first; then rapidfuzz over the titles sharing one of the
        text's :data:`_RAREST` rarest title words, with a score cut-off (never all titles).
        """
        norm = normalize_title(text)
        if len(norm) < _MIN_EXACT:
            return None
        hit = self.exact.get(norm)
        if hit is not None or len(norm) < _MIN_FUZZY or not self.choices:
            return hit
        self._index_words()  # built on the first fuzzy look-up (or kept: :meth:`kept`)
        known = sorted((len(self.postings[w]), w) for w in _words(norm) if w in self.postings)
        pool = sorted({i for _, w in known[:_RAREST] for i in self.postings[w]})
        if not pool:
            return None
        from rapidfuzz import process

        best = process.extractOne(norm, [self.choices[i] for i in pool], scorer=_ratio(),
                                  processor=None, score_cutoff=self.threshold * 100)
        return self.keys[pool[best[2]]] if best else None


def title_candidates(line: str) -> list[str]:
    """Texts of one Markdown line that may be a paper title: link texts, bold, italic and
    quoted text (``"…"``, ``“…”``, ``《…》``, ``「…」``), and the cells of a table row; inline
    markup removed, a trailing ``.`` dropped."""
    spans: list[str] = []
    for chars, rx in _SPAN_RES:
        if any(c in line for c in chars):
            spans.extend(next(g for g in m.groups() if g is not None) for m in rx.finditer(line))
    stripped = line.strip()
    if stripped.startswith("|") and stripped.count("|") >= 2:
        spans.extend(c for c in re.split(r"(?<!\\)\|", stripped.strip("|")) if len(c.strip()) >= 4)
    out = []
    for span in spans:
        text = " ".join(_MARKUP_RE.sub(" ", span).split()).strip(_QUOTES).rstrip(".。").strip()
        if text and text not in out:
            out.append(text)
    return out


def cited_by_title(lines: Sequence[str], index: TitleIndex, *,
                   skip: Iterable[int] = ()) -> dict[str, list[tuple[int, bool]]]:
    """Papers a document cites by title: subject key -> ``(1-based line, the line is a list
    item or table row)``, in line order.

    :param lines: the document's lines (front matter and fenced code are passed over).
    :param index: the known titles (:class:`TitleIndex`).
    :param skip: 1-based lines not to look at (e.g. front matter).
    Cost: one dictionary lookup per candidate; rapidfuzz runs only on candidates with no
    exact hit, against the few titles sharing a rare word.
    """
    found: dict[str, list[tuple[int, bool]]] = {}
    if not len(index):
        return found
    skipped = set(skip)
    fence: str | None = None
    seen: dict[str, str | None] = {}
    for no, line in enumerate(lines, 1):
        s = line.lstrip()
        if s.startswith(("```", "~~~")):
            mark = s[:3]
            fence = None if fence == mark else (fence or mark)
            continue
        if fence or no in skipped:
            continue
        for cand in title_candidates(line):
            if cand not in seen:
                seen[cand] = index.match(cand)
            key = seen[cand]
            if key is not None and (not found.get(key) or found[key][-1][0] != no):
                found.setdefault(key, []).append((no, bool(_ITEM_RE.match(line))))
    return found


_LINK_TITLE_RE = re.compile(
    r"\[([^\[\]\n]{4,400})\]\(\s*<?https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/([^)\s>]+)", re.IGNORECASE)


_GENERIC_LINKS = frozenset({
    "pdf", "paper", "papers", "arxiv", "abs", "html", "link", "here", "this", "this paper", "the paper",
    "link to the paper", "full paper", "preprint", "论文", "原文", "链接", "全文", "论文链接", "原论文"})


def _generic_link_text(text: str) -> bool:
    """A link text that is no title: ``pdf``, ``Link to the paper``, ``论文``, an id or a URL."""
    return (normalize_title(text) in _GENERIC_LINKS or text.lower().startswith(("http", "www."))
            or bool(scan_arxiv(text)))


def link_titles(store: Store) -> list[tuple[str, str]]:
    """``(subject key, link text)`` of every ``[Title](https://arxiv.org/abs/…)`` in the KB.

    The parser keeps plain text only, so files whose mentions are arXiv URLs are read here,
    once per content: the store's ``link_titles`` table keeps, per file and content hash,
    the link texts found (or a marker row when none), and a run reads only the files whose
    hash changed since (a new card: that card), and forgets removed ones. Unreadable files
    are passed over (ingest reports them); on a store that cannot be written nothing is
    kept and the changed files are read every time.
    """
    db = store.db
    table = db.execute("SELECT 1 FROM sqlite_master WHERE type='index' AND name='link_titles_path'").fetchone()
    count, top = db.execute("SELECT count(*), max(rowid) FROM files").fetchone()
    last = db.execute("SELECT path, hash FROM files WHERE rowid=?", (top,)).fetchone() if top else None
    stamp = json.dumps([count, top, *(last or ())])  # any change of the files table changes it
    if table and db.execute("SELECT 1 FROM link_titles WHERE path='' AND hash=?", (stamp,)).fetchone():
        return list(db.execute("SELECT key, title FROM link_titles WHERE key IS NOT NULL ORDER BY path, rowid"))
    if table:
        files = dict(db.execute("SELECT f.path, f.hash FROM files f WHERE NOT EXISTS "
                                "(SELECT 1 FROM link_titles l WHERE l.path = f.path AND l.hash = f.hash)"))
        gone = [r[0] for r in db.execute("SELECT DISTINCT l.path FROM link_titles l WHERE l.path != '' AND NOT EXISTS "
                                         "(SELECT 1 FROM files f WHERE f.path = l.path AND f.hash = l.hash)")]
    else:
        files, gone = dict(db.execute("SELECT path, hash FROM files")), []
    changed = sorted(files)
    stored = list(db.execute("SELECT path, hash, key, title FROM link_titles WHERE path != '' "
                             "ORDER BY path, rowid")) if table else []
    linked: set[str] = set()
    for i in range(0, len(changed), 500):
        chunk = changed[i:i + 500]
        linked.update(r[0] for r in db.execute(
            f"SELECT DISTINCT path FROM mentions WHERE path IN ({','.join('?' * len(chunk))}) "
            "AND raw LIKE '%arxiv.org/%'", chunk))
    rows: list[tuple[str, str, str | None, str | None]] = []
    for path in changed:
        found = False
        if path in linked:
            try:
                text = decode((store.root / path).read_bytes(), path).text
            except OSError:
                continue
            for m in _LINK_TITLE_RE.finditer(text):
                try:
                    key = parse_arxiv_id(m[2]).key
                except InvalidArxivId:
                    continue
                title = " ".join(_MARKUP_RE.sub(" ", m[1]).split()).strip(_QUOTES).rstrip(".。").strip()
                if title and not _generic_link_text(title):
                    rows.append((path, files[path], key, title))
                    found = True
        if not found:
            rows.append((path, files[path], None, None))  # nothing found: not read again
    fresh = set(changed) | set(gone) | {""}
    rows.append(("", stamp, None, None))
    result = sorted([r for r in stored if r[0] not in fresh] + rows, key=lambda r: r[0])
    try:
        with store.tx():
            if not table:  # new, or kept by an older kb without its index
                db.execute("DROP TABLE IF EXISTS link_titles")
                db.execute("CREATE TABLE link_titles (path TEXT NOT NULL, hash TEXT NOT NULL, key TEXT, title TEXT)")
                db.execute("CREATE INDEX link_titles_path ON link_titles (path, hash)")
            db.executemany("DELETE FROM link_titles WHERE path=?", [(p,) for p in sorted(fresh)])
            db.executemany("INSERT INTO link_titles VALUES (?,?,?,?)", rows)
    except sqlite3.OperationalError:  # a read-only or busy store: use what was read, keep nothing
        pass
    return [(k, t) for _, _, k, t in result if k is not None and t is not None]


def heading_titles(store: Store) -> list[tuple[str, str]]:
    """``(subject key, title)`` of the headings of inbox and other files that are a paper's title
    (:func:`kb.extract.titles.paper_title`) and that the parser gave exactly one arXiv id: a paper
    note's ``# <Title>`` over its ``**URL**: …arxiv…`` line, a report's ``## <Title>`` section
    closing with its paper link (:mod:`kb.read.walk`). Another file naming that title alone
    then names that paper (issue 20). Read from the stored headings; no file is read."""
    out: list[tuple[str, str]] = []
    for path, js in store.db.execute("SELECT path, headings FROM files WHERE role IN ('inbox', 'other') "
                                     "AND headings LIKE '%arxiv:%' ORDER BY path"):
        for h in decoded_json(store.path, path, "headings", js):
            subj = h.get("subjects") or []
            if len(subj) == 1 and subj[0].startswith("arxiv:") and not scan_arxiv(h.get("text", "")):  # the id from below it
                title = paper_title(h.get("text", ""), numbered_only=False)
                if title:
                    out.append((subj[0], title))
    return out


def known_titles(store: Store, cards: Iterable[Card] | None = None) -> list[tuple[str, str]]:
    """``(subject key, title)`` of every paper the KB knows by title: card titles (and
    aliases), then arXiv-link texts of the KB (``[Title](https://arxiv.org/abs/…)``, see
    :func:`link_titles`), then paper-title headings the parser gave an id (:func:`heading_titles`),
    then titles in the arXiv cache (``kb verify``)."""
    out: list[tuple[str, str]] = []
    for card in load_cards(store) if cards is None else cards:
        if card.key:
            out.extend((card.key, t) for t in (card.title, *card.aliases) if t)
    out.extend(link_titles(store))
    seen = {normalize_title(t) for _, t in out}
    out.extend((k, t) for k, t in heading_titles(store) if normalize_title(t) not in seen)  # a card's id wins (a typo'd heading id)
    for arxiv_id, data in store.cache_found():
        title = (json.loads(data) or {}).get("title") if data else None
        try:
            key = parse_arxiv_id(arxiv_id).key
        except InvalidArxivId:
            continue
        if title:
            out.append((key, str(title)))
    return out
