"""Paper cards: file names ``<card>-<YYMM>-<NNNNN>.md``, an index by arXiv id, and ``kb card new``."""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from kb.errors import ExitCode, KbError, UsageError
from kb.lazyre import lazy
from kb.extract.arxiv_ids import InvalidArxivId, parse_arxiv_id, scan_arxiv
from kb.sources import SourceRecord
from kb.store import Store
from kb.textio import decode, write_atomic

CARDS_DIR = "organized/paper_cards"
_NEW_NAME_RE = re.compile(r"(?P<no>\d+)-(?P<yymm>\d{4})-(?P<seq>\d{4,5})\.md")
_OLD_NAME_RE = re.compile(r"(?P<no>\d+)-(?P<archive>[a-z]+(?:-[a-z]+)?(?:\.[A-Za-z][A-Za-z-]*)?)-(?P<num>\d{7})\.md")
_NO_RE = re.compile(r"(\d+)-")

HEADINGS = {
    "zh": ("论文", ("问题", "方法", "结果", "局限")),
    "en": ("Paper", ("Problem", "Method", "Results", "Limitations")),
}
"""Body skeleton per language: the label of the paper link line and the four section headings."""


# TeX accent commands (``\"o``, ``\'{e}``) -> the combining mark they stand for.
_TEX_ACCENTS = {"'": "\u0301", '"': "\u0308", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304", ".": "\u0307"}
_TEX_ACCENT_RE = re.compile(r"\\([" + re.escape("".join(_TEX_ACCENTS)) + r"])\s*\{?([A-Za-z])\}?")
_TEX_CMD_RE = re.compile(r"\\[A-Za-z]+\*?\s*")
_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_NON_WORD_RE = re.compile(r"[\W_]+")
_CJK_GAP_RE = re.compile(rf"(?<=[{_CJK}]) (?=[{_CJK}])")


@lru_cache(maxsize=1 << 16)
def normalize_title(text: str) -> str:
    r"""A title as compared everywhere (verify, lint, the diff's title citations); cached, as
    a night normalises every card's title more than once (known titles, the title index).

    Steps: TeX accents become the letter (``Schr\"odinger`` -> ``schrodinger``), other TeX
    commands are dropped with their ``{}``/``$`` kept as text (``$\mathcal{O}(n)$`` ->
    ``o n``, ``\textit{Fast}`` -> ``fast``); NFKC (full-width ``ＬＬＭ`` -> ``llm``); case-fold;
    accents on Latin letters dropped (``é`` -> ``e``; kana and hangul keep theirs); every run
    of punctuation, symbols, ``_`` and white space becomes one space (``--``, ``{Braces}``,
    ``：``); a space between two CJK characters is dropped. ``""`` for a title of punctuation only.
    """
    t = text
    if "\\" in t:
        t = _TEX_ACCENT_RE.sub(lambda m: m[2] + _TEX_ACCENTS[m[1]], t)
        t = _TEX_CMD_RE.sub(" ", t)
    if t.isascii():
        return " ".join(_NON_WORD_RE.sub(" ", t.lower()).split())
    t = unicodedata.normalize("NFKC", t).casefold()
    t = unicodedata.normalize("NFC", "".join(c for c in unicodedata.normalize("NFD", t) if c not in _LATIN_MARKS))
    t = " ".join(_NON_WORD_RE.sub(" ", t).split())
    return _CJK_GAP_RE.sub("", t)


_LATIN_MARKS = frozenset(chr(c) for c in range(0x0300, 0x0370))
"""Combining diacritics (U+0300–U+036F) dropped by :func:`normalize_title`; kana voicing
marks (U+3099/U+309A) are outside this block and stay."""


def _head(title: str) -> str | None:
    """The part of ``title`` before its first colon (``Bole: Tree …`` -> ``Bole``), else None."""
    head = re.split(r"[:：]", title, maxsplit=1)[0].strip()
    return head if head and head != title.strip() else None


@lru_cache(maxsize=1)
def _ratio() -> Any:
    """The one score of two normalised titles (0..100): rapidfuzz's ``fuzz.ratio``, also the
    scorer of :class:`TitleIndex`; imported on first use (a look-up that compares no titles,
    ``kb claims --subject``, ``kb verify --offline`` of an uncached id, never loads rapidfuzz)."""
    from rapidfuzz import fuzz

    return fuzz.ratio


def normalized_ratio(a: str, b: str) -> float:
    """rapidfuzz ``ratio`` (0..100) of two already normalised titles (:func:`_ratio`)."""
    return float(_ratio()(a, b))


def title_similarity(a: str, b: str) -> float:
    """Similarity of two titles in 0..1, rounded to 3 places: rapidfuzz ``ratio`` of their
    :func:`normalize_title` forms / 100.

    When exactly one of them has a subtitle after a colon, the part before the colon is
    compared too and the higher score wins (a card titled ``Bole`` is the paper
    ``Bole: Tree Speculation …``). Used by ``kb verify`` (card vs arXiv, threshold
    ``arxiv.title_threshold``), the brief's arXiv table and the diff's title citations.
    """
    na, nb = normalize_title(a), normalize_title(b)
    score = normalized_ratio(na, nb)
    ha, hb = _head(a), _head(b)
    if (ha is None) != (hb is None):
        head, other = (normalize_title(ha), nb) if ha is not None else (normalize_title(hb or ""), na)
        score = max(score, normalized_ratio(head, other))
    return round(score / 100, 3)


# -- title citations ------------------------------------------------------------------------

_MIN_EXACT = 5
"""Shortest normalised title (characters) matched exactly: ``SnapKV`` yes, ``KV`` no."""
_MIN_FUZZY = 12
"""Shortest normalised title matched fuzzily (shorter ones differ by a letter too easily)."""
_RAREST = 2
"""How many of a candidate's rarest title words pick the titles it is compared with."""
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
        choices kept in the store between runs (:meth:`kb.store.Store.kept`, keyed by the
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


def known_titles(store: Store, cards: Iterable[Card] | None = None) -> list[tuple[str, str]]:
    """``(subject key, title)`` of every paper the KB knows by title: card titles (and
    aliases), then arXiv-link texts of the KB (``[Title](https://arxiv.org/abs/…)``, see
    :func:`link_titles`), then titles in the arXiv cache (``kb verify``)."""
    out: list[tuple[str, str]] = []
    for card in load_cards(store) if cards is None else cards:
        if card.key:
            out.extend((card.key, t) for t in (card.title, *card.aliases) if t)
    out.extend(link_titles(store))
    for arxiv_id, data in store.db.execute("SELECT id, json FROM arxiv_cache WHERE status='found' ORDER BY id"):
        title = (json.loads(data) or {}).get("title") if data else None
        try:
            key = parse_arxiv_id(arxiv_id).key
        except InvalidArxivId:
            continue
        if title:
            out.append((key, str(title)))
    return out


class PaperNotFound(KbError):
    """arXiv has no paper with the id asked for (exit code 1, as a failed verification)."""

    exit_code = ExitCode.FINDINGS


def name_id(file_name: str) -> tuple[int | None, str | None]:
    """``(card number, arXiv id)`` a card file name states; None for what it does not state.

    ``681-2607-26627.md`` -> ``(681, "2607.26627")``; ``12-hep-th-9901001.md`` ->
    ``(12, "hep-th/9901001")`` (DESIGN.md §1).
    """
    m = _NEW_NAME_RE.fullmatch(file_name)
    if m:
        return int(m["no"]), f"{m['yymm']}.{m['seq']}"
    m = _OLD_NAME_RE.fullmatch(file_name)
    if m:
        return int(m["no"]), f"{m['archive']}/{m['num']}"
    m = _NO_RE.match(file_name)
    return (int(m.group(1)) if m else None), None


def card_file_name(number: int, arxiv_id: str) -> str:
    """The file name of card ``number`` for ``arxiv_id`` (no version), the inverse of :func:`name_id`."""
    if "/" in arxiv_id:
        archive, num = arxiv_id.split("/", 1)
        return f"{number}-{archive}-{num}.md"
    yymm, seq = arxiv_id.split(".", 1)
    return f"{number}-{yymm}-{seq}.md"


@dataclass(frozen=True, slots=True)
class Card:
    """One paper card (``organized/paper_cards/*.md``) as every command sees it.

    Built only by :func:`card_from_row` from the store's ``files`` row (front matter as the
    parser stored it, ``arxiv`` as written: DESIGN.md §1), so front matter is read in one
    place. Attribute names are those the diff's ``Attributor`` uses.

    :ivar key: subject key ``arxiv:<id>`` (no version) of front-matter ``arxiv``; None when
        it is missing or not an arXiv id (such a card is never a subject).
    :ivar path: KB-relative path.
    :ivar title: front-matter ``title``, stripped; ``""`` when absent.
    :ivar aliases: front-matter ``aliases`` (short names such as ``Bole``).
    :ivar category: ``category`` (主分类); :ivar also: ``also`` (副分类).
    :ivar created: the file's ``written_at`` (ISO, KB time zone): its ``created``, else its stamp.
    :ivar number: front-matter ``card`` when an integer, else the file name's number.
    :ivar arxiv_raw: front-matter ``arxiv`` as written; :ivar arxiv_id: its id (no version);
        :ivar version: its version (the one the card was written from), else front-matter
        ``arxiv_version`` (``2`` or ``v2``), None when neither names one.
    :ivar name_number: / :ivar name_id: what the file name states (:func:`name_id`).
    """

    key: str | None
    path: str
    title: str = ""
    aliases: tuple[str, ...] = ()
    category: str | None = None
    also: tuple[str, ...] = ()
    created: str | None = None
    number: int | None = None
    arxiv_raw: str | None = None
    arxiv_id: str | None = None
    version: int | None = None
    name_number: int | None = None
    name_id: str | None = None

    def names(self) -> list[str]:
        """Title, the title before its colon (``Bole: …`` -> ``Bole``), and aliases."""
        out = [self.title] if self.title else []
        short = re.split(r"[:：]", self.title, maxsplit=1)[0].strip() if self.title else ""
        if short and short != self.title:
            out.append(short)
        return out + list(self.aliases)


_CARD_FIELDS = tuple(Card.__dataclass_fields__)
"""The fields of :class:`Card` in order (how :func:`_kept_cards` writes a card)."""


def _strs(value: Any) -> tuple[str, ...]:
    items = value if isinstance(value, (list, tuple)) else [value] if value not in (None, "") else []
    return tuple(str(x).strip() for x in items if str(x).strip())


def pinned_version(value: object) -> int | str | None:
    """A card's ``arxiv_version`` front-matter value: the version as an int (``2``, ``"v2"``),
    None when absent, else the value as text (not a version: the parser warns, naming the
    line, and the card names no version)."""
    if value is None:
        return None
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        text = str(value).strip().lower().removeprefix("v")
        if text.isdigit() and int(text) > 0:
            return int(text)
    return str(value)[:40]


def card_from_row(path: str, front: Mapping[str, Any], written_at: str | None = None) -> Card:
    """The :class:`Card` of one stored card file: the one reader of card front matter.

    :param path: KB-relative path (its file name gives ``name_number``/``name_id``).
    :param front: front matter as stored (``arxiv`` as raw text, never a YAML float).
    :param written_at: the store's ``written_at`` of the file.
    """
    name_number, nid = name_id(path.rsplit("/", 1)[-1])
    raw = front.get("arxiv")
    raw_text = str(raw).strip() if raw is not None and str(raw).strip() else None
    arxiv_id = version = None
    if raw_text:
        try:
            ref = parse_arxiv_id(raw_text)
            arxiv_id, version = ref.id, ref.version
        except InvalidArxivId:
            pass
    pinned = pinned_version(front.get("arxiv_version"))  # the version the card was written from
    if arxiv_id and version is None and isinstance(pinned, int):
        version = pinned
    number = front.get("card")
    title = front.get("title")
    category = front.get("category")
    return Card(
        key=f"arxiv:{arxiv_id}" if arxiv_id else None,
        path=path,
        title=str(title).strip() if title is not None else "",
        aliases=_strs(front.get("aliases")),
        category=str(category).strip() if category not in (None, "") else None,
        also=_strs(front.get("also")),
        created=written_at,
        number=number if isinstance(number, int) and not isinstance(number, bool) else name_number,
        arxiv_raw=raw_text,
        arxiv_id=arxiv_id,
        version=version,
        name_number=name_number,
        name_id=nid,
    )


_CACHE: "weakref.WeakKeyDictionary[Store, tuple[tuple[int, int], list[Card], list[str]]]" = weakref.WeakKeyDictionary()


def load_cards(store: Store) -> list[Card]:
    """Every card of the store, by path (also those whose ``arxiv`` is invalid: ``key`` None).

    Reads only the ``files`` rows of role ``card`` (front matter, not the card bodies), and
    caches the list per store until the store changes (this connection's ``total_changes``
    or SQLite's ``data_version`` for other writers), so every caller of one run shares one read;
    between runs the list is kept in the store (:func:`_kept_cards`).
    Cards are read at diff time: the parser never depends on them, so a new card re-parses
    only itself (docs/kb-format.md).
    """
    return _loaded(store)[0]


def card_titles(store: Store) -> list[str]:
    """:func:`normalize_title` of each card's title, in the order of :func:`load_cards`
    (``""`` for a card without one); kept with the cards, so a run normalises no title of an
    unchanged card (``kb verify``: the titles a mention's sentence may name)."""
    return _loaded(store)[1]


def _loaded(store: Store) -> tuple[list[Card], list[str]]:
    stamp = (store.db.total_changes, store.db.execute("PRAGMA data_version").fetchone()[0])
    hit = _CACHE.get(store)
    if hit is not None and hit[0] == stamp:
        return hit[1], hit[2]
    cards, titles = _kept_cards(store)
    _CACHE[store] = (store.db.total_changes, store.db.execute("PRAGMA data_version").fetchone()[0]), cards, titles
    return cards, titles


def _kept_cards(store: Store) -> tuple[list[Card], list[str]]:
    """The cards of :func:`load_cards` and their :func:`card_titles`, kept in the store between
    runs (``meta`` key ``cards``): built from the ``files`` rows by :func:`card_from_row` when the
    card rows or kb's card code changed since (:func:`_cards_stamp`), else read back as they were
    built (one JSON value: ~3× cheaper than reading 2,000 front matters). A store that cannot be
    written keeps nothing."""
    db = store.db
    stamp = _cards_stamp(store)
    row = db.execute("SELECT value FROM meta WHERE key='cards'").fetchone()
    kept = json.loads(row[0]) if row is not None else None
    if isinstance(kept, list) and len(kept) == 3 and kept[0] == stamp:  # (another shape: another kb's)
        return [_kept_card(r) for r in kept[1]], kept[2]
    cards = [card_from_row(path, json.loads(front), written_at) for path, front, written_at in db.execute(
        "SELECT path, front, written_at FROM files WHERE role='card' ORDER BY path")]
    titles = [normalize_title(c.title) if c.title else "" for c in cards]
    if not db.in_transaction:
        try:
            value = json.dumps([stamp, [[getattr(c, f) for f in _CARD_FIELDS] for c in cards], titles],
                               ensure_ascii=False)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('cards', ?)", (value,))
        except sqlite3.OperationalError:  # read-only or busy: built again next time
            pass
    return cards, titles


_TUPLE_FIELDS = tuple(i for i, f in enumerate(_CARD_FIELDS) if str(Card.__dataclass_fields__[f].type).startswith("tuple"))
"""Positions in :data:`_CARD_FIELDS` of the tuple fields (``aliases``, ``also``): JSON gives them back as lists."""


def _kept_card(row: list[Any]) -> Card:
    """The :class:`Card` of one row of the kept cards (its fields in :data:`_CARD_FIELDS` order,
    as :func:`_kept_cards` wrote it): the tuple fields made tuples again, no other field looked
    at (a night of the 12k KB reads 2,025 cards: a test of every field took ~half of it)."""
    for i in _TUPLE_FIELDS:
        row[i] = tuple(row[i])
    return Card(*row)


def _cards_stamp(store: Store) -> list[Any]:
    """What the kept cards depend on: kb's card code (:func:`_card_code`), the parser fingerprint
    (front matter as stored), and the write generation of the card rows (a card added, removed
    or changed raises it: :meth:`Store.cards_generation`; a count-and-highest-rowid stamp could
    come back after a card was removed, another changed and the first put back)."""
    return [_card_code(), store.meta("fingerprint"), store.cards_generation()]


@lru_cache(maxsize=1)
def _card_code() -> str:
    """A digest of the code that builds a :class:`Card` (this module and kb.extract.arxiv_ids)."""
    import hashlib

    from kb import __version__

    h = hashlib.blake2b(__version__.encode(), digest_size=8)
    here = Path(__file__).resolve().parent
    for p in (here / "cards.py", here / "extract" / "arxiv_ids.py"):
        h.update(p.read_bytes())
    return h.hexdigest()


@dataclass(slots=True)
class CardIndex:
    """Cards by the id in their front matter and by the id in their file name."""

    by_front: dict[str, list[Card]] = field(default_factory=dict)
    by_name: dict[str, list[Card]] = field(default_factory=dict)
    entries: list[Card] = field(default_factory=list)

    @classmethod
    def of(cls, cards: Iterable[Card]) -> CardIndex:
        """Index cards (:func:`load_cards`), by path."""
        index = cls()
        for card in sorted(cards, key=lambda c: c.path):
            index.entries.append(card)
            if card.arxiv_id:
                index.by_front.setdefault(card.arxiv_id, []).append(card)
            if card.name_id:
                index.by_name.setdefault(card.name_id, []).append(card)
        return index

    @classmethod
    def from_store(cls, store: Store) -> CardIndex:
        """Index every card of ``store``."""
        return cls.of(load_cards(store))

    def max_number(self) -> int:
        """Highest card number in use (front matter or file name), 0 when there is none."""
        numbers = [n for e in self.entries for n in (e.number, e.name_number) if n is not None]
        return max(numbers, default=0)


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON string syntax is valid YAML 1.2)."""
    return json.dumps(text, ensure_ascii=False)


def render_card(number: int, record: SourceRecord, *, asked_version: int | None, created: datetime,
                lang: str = "zh", category: str | None = None) -> str:
    """Text of a new card: front matter from arXiv metadata and an empty body skeleton.

    :param asked_version: the version the user named; kept in ``arxiv`` (C01), else none.
    :param created: aware local time of creation (``kb.yaml`` timezone), written to the second.
    :param lang: ``zh`` (问题/方法/结果/局限) or ``en`` (Problem/Method/Results/Limitations).
    :param category: the KB's main category; default the arXiv primary category.
    """
    label, headings = HEADINGS[lang]
    arxiv = record.id + (f"v{asked_version}" if asked_version else "")
    lines = [
        "---",
        f"card: {number}",
        f"arxiv: {_q(arxiv)}",
        f"title: {_q(record.title)}",
        "authors: [" + ", ".join(_q(a) for a in record.authors) + "]",
        f"category: {_q(category or record.primary_category)}",
        f"created: {created.replace(microsecond=0).isoformat()}",
        "---",
        f"# {number} · {record.title}",
        "",
        f"{label}：https://arxiv.org/abs/{arxiv}" if lang == "zh" else f"{label}: https://arxiv.org/abs/{arxiv}",
        "",
    ]
    for h in headings:
        lines += [f"## {h}", "", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def new_card(root: Path, index: CardIndex, ref_text: str, record_for: Any, *, now: datetime,
             lang: str = "zh", category: str | None = None) -> Path:
    """Write ``organized/paper_cards/<max+1>-<YYMM>-<NNNNN>.md`` for one arXiv id; never overwrite.

    :param root: the KB root.
    :param index: the KB's cards (numbering, and a paper that already has a card).
    :param ref_text: the id in any form :func:`~kb.extract.arxiv_ids.parse_arxiv_id` accepts.
    :param record_for: ``callable(key) -> SourceRecord | None`` (cache, then arXiv); it raises
        :class:`~kb.errors.SourceUnavailable` when arXiv is needed and unreachable (exit 3).
    :param now: aware creation time in the KB's time zone.
    :returns: the path written.
    :raises UsageError: invalid id, unknown ``lang``, a card for the paper exists already, or
        the target file exists (exit 2).
    :raises PaperNotFound: arXiv has no such paper (exit 1).
    """
    if lang not in HEADINGS:
        raise UsageError(f"--lang {lang!r}: expected one of {', '.join(HEADINGS)}")
    try:
        ref = parse_arxiv_id(ref_text)
    except InvalidArxivId as exc:
        raise UsageError(f"{ref_text!r} is not a valid arXiv id: {exc.reason}") from None
    existing = index.by_front.get(ref.id) or index.by_name.get(ref.id)
    if existing:
        raise UsageError(f"{ref.id} already has a card: {existing[0].path}; not writing another")
    key = ref.id + (f"v{ref.version}" if ref.version else "")
    record = record_for(key)
    if record is None:
        raise PaperNotFound(f"arXiv has no paper {key}; check the id (kb verify {key})")
    number = index.max_number() + 1
    path = root / CARDS_DIR / card_file_name(number, ref.id)
    text = render_card(number, record, asked_version=ref.version, created=now, lang=lang, category=category)
    from kb.paths import write_target

    write_target(root, path, what="card")
    try:
        write_atomic(path, text, overwrite=False)
    except FileExistsError:
        raise UsageError(f"{path.relative_to(root).as_posix()} exists; not overwritten") from None
    return path
