"""BibTeX for the paper cards a living document cites (``kb export bibtex``), for Zotero, papis,
JabRef or a LaTeX paper.

One ``@misc`` entry per card, in arXiv's own export shape (``eprint``, ``archivePrefix``,
``primaryClass``, ``url``), so that reference managers recognise the preprint. Fields come from
the card's front matter and, when kb has looked the paper up (``kb verify``, ``kb card new``), from
the arXiv cache: authors, year and primary category from arXiv, the title as the card writes it.
Nothing here reaches the network.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from kb.core.errors import UsageError
from kb.core.paths import doc_path, regular_file
from kb.core.records import SourceRecord
from kb.read.cards import Card
from kb.store.cards import CardIndex
from kb.store.workspace import Kb

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
            "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
_SPECIAL_RE = re.compile(r"[\\&%$#_~^]")
_NEW_ID_RE = re.compile(r"^(\d{2})(\d{2})\.\d{4,5}$")


@dataclass(frozen=True, slots=True)
class BibEntry:
    """One BibTeX entry: its key and its fields in output order (values unescaped).

    :ivar key: the citation key, ``<first author's family name><year><first title word>``
        (ASCII, lower case: ``kwon2023efficient``), else ``arxiv<id>``; unique in one export.
    :ivar card: the card's KB-relative path (a comment in the output).
    """

    key: str
    card: str
    fields: dict[str, str] = field(default_factory=dict)


def cited_cards(kb: Kb, topic: str) -> tuple[list[Card], list[str]]:
    """The cards the living document of ``topic`` cites (an arXiv id in it, any version, whose
    card exists), in the order of their first mention; and the cited ids that have no card.

    :raises UsageError: the topic has no living document in the store.
    """
    path = doc_path(topic)
    if not regular_file(kb.root, path) or kb.store.file(path) is None:
        raise UsageError(f"no living document {path} for topic {topic!r}; give a topic of kb.yaml")
    index = CardIndex.from_store(kb.store)
    cards: dict[str, Card] = {}
    missing: list[str] = []
    for m in kb.store.mentions(path=path):
        found = index.by_front.get(m.arxiv_id)
        if found:
            cards.setdefault(found[0].path, found[0])
        elif m.arxiv_id not in missing:
            missing.append(m.arxiv_id)
    return list(cards.values()), missing


def all_cards(kb: Kb) -> list[Card]:
    """Every card of the KB that names an arXiv id, by path."""
    return [c for c in CardIndex.from_store(kb.store).entries if c.arxiv_id]


def cached_record(kb: Kb, arxiv_id: str, version: int | None = None) -> SourceRecord | None:
    """arXiv's metadata of a paper as kb cached it (the pinned version first), else None."""
    for key in ([f"{arxiv_id}v{version}"] if version else []) + [arxiv_id]:
        hit = kb.store.cache_get(key)
        if hit is not None and hit[1] == "found" and hit[2]:
            return SourceRecord.model_validate(hit[2])
    return None


def bib_entries(kb: Kb, cards: list[Card]) -> list[BibEntry]:
    """A :class:`BibEntry` per card: ``title`` (the card's, else arXiv's), ``author`` (the card's
    ``authors``, else arXiv's, joined with `` and ``), ``year`` (arXiv's first publication, else
    the id's ``YYMM``), ``eprint`` (the id, with the card's version when it pins one),
    ``archivePrefix`` ``arXiv``, ``primaryClass`` (arXiv's), ``doi`` and ``journal`` (arXiv's
    ``journal_ref``) when arXiv gives them, ``url`` (the abstract page)."""
    out: list[BibEntry] = []
    keys: set[str] = set()
    for card in cards:
        assert card.arxiv_id is not None
        rec = cached_record(kb, card.arxiv_id, card.version)
        row = kb.store.file(card.path)
        front = row.front if row is not None else {}
        authors = [str(a) for a in front.get("authors") or [] if str(a).strip()] or (rec.authors if rec else [])
        title = card.title or (rec.title if rec else "")
        year = str(rec.published.year) if rec else _year_of(card.arxiv_id)
        eprint = card.arxiv_id + (f"v{card.version}" if card.version else "")
        fields = {"title": title, "author": " and ".join(authors), "year": year, "eprint": eprint,
                  "archivePrefix": "arXiv", "primaryClass": rec.primary_category if rec else "",
                  "doi": (rec.doi or "") if rec else "", "journal": (rec.journal_ref or "") if rec else "",
                  "url": f"https://arxiv.org/abs/{card.arxiv_id}"}
        key = _unique(_key(authors, year, title, card.arxiv_id), keys)
        out.append(BibEntry(key, card.path, {k: v for k, v in fields.items() if v}))
    return out


def to_bibtex(items: list[BibEntry]) -> str:
    """The entries as BibTeX text: ``@misc{key,`` then one ``name = {value},`` line per field
    (LaTeX's special characters escaped, braces balanced), each entry preceded by a comment
    naming its card. UTF-8 text is kept as is (biber, Zotero and papis read it)."""
    blocks = []
    for e in items:
        lines = [f"% {e.card}", f"@misc{{{e.key},"]
        lines += [f"  {name} = {{{_escape(value) if name not in ('url', 'doi') else value}}}," for name, value in e.fields.items()]
        lines.append("}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + ("\n" if blocks else "")


def _year_of(arxiv_id: str) -> str:
    m = _NEW_ID_RE.match(arxiv_id)
    return f"20{m.group(1)}" if m else ""


def _ascii_word(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", folded.lower())


def _key(authors: list[str], year: str, title: str, arxiv_id: str) -> str:
    family = _ascii_word(authors[0].split()[-1]) if authors else ""
    words = [w for w in (_ascii_word(t) for t in re.split(r"[\s:\-–—]+", title)) if len(w) > 2
             and w not in ("the", "and", "for", "with", "from", "via", "towards")]
    if family and year:
        return f"{family}{year}{words[0] if words else ''}"
    return "arxiv" + re.sub(r"[^0-9a-z.]", "", arxiv_id.lower())


def _unique(key: str, taken: set[str]) -> str:
    out, n = key, 0
    while out in taken:
        n += 1
        out = key + "abcdefghijklmnopqrstuvwxyz"[(n - 1) % 26] * (1 + (n - 1) // 26)
    taken.add(out)
    return out


def _escape(value: str) -> str:
    text = _SPECIAL_RE.sub(lambda m: _SPECIAL[m.group(0)], " ".join(value.split()))
    depth, kept = 0, []
    for ch in text:  # a brace that would unbalance the field is dropped
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                continue
            depth -= 1
        kept.append(ch)
    out = "".join(kept)
    while depth:  # unclosed braces: drop the last opening ones
        i = out.rfind("{")
        out = out[:i] + out[i + 1:]
        depth -= 1
    return out
