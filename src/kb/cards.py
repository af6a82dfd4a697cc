"""Paper cards: file names ``<card>-<YYMM>-<NNNNN>.md``, an index by arXiv id, and ``kb card new``."""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from kb.errors import ExitCode, KbError, UsageError
from kb.extract.arxiv_ids import InvalidArxivId, parse_arxiv_id
from kb.sources import SourceRecord
from kb.store import FileRow
from kb.textio import write_atomic

CARDS_DIR = "organized/paper_cards"
_NEW_NAME_RE = re.compile(r"(?P<no>\d+)-(?P<yymm>\d{4})-(?P<seq>\d{4,5})\.md")
_OLD_NAME_RE = re.compile(r"(?P<no>\d+)-(?P<archive>[a-z]+(?:-[a-z]+)?(?:\.[A-Za-z][A-Za-z-]*)?)-(?P<num>\d{7})\.md")
_NO_RE = re.compile(r"(\d+)-")

HEADINGS = {
    "zh": ("论文", ("问题", "方法", "结果", "局限")),
    "en": ("Paper", ("Problem", "Method", "Results", "Limitations")),
}
"""Body skeleton per language: the label of the paper link line and the four section headings."""


def normalize_title(text: str) -> str:
    """Title for comparison: NFKC, case-folded, TeX ``$…$``/``\\cmd`` and punctuation dropped, spaces collapsed."""
    t = unicodedata.normalize("NFKC", text).casefold()
    t = re.sub(r"\\[a-z]+", " ", t)
    t = re.sub(r"[\W_]+", " ", t)
    return " ".join(t.split())


def title_similarity(a: str, b: str) -> float:
    """Similarity of two titles in 0..1 (rapidfuzz ``ratio`` of the normalised texts / 100)."""
    return round(fuzz.ratio(normalize_title(a), normalize_title(b)) / 100, 3)



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


@dataclass(slots=True)
class CardEntry:
    """What verify needs of one paper card."""

    path: str
    number: int | None
    """Front-matter ``card``, else the file name's number."""
    name_number: int | None
    name_id: str | None
    """Id the file name states, None when the name does not follow the pattern."""
    front_raw: str | None
    """Front-matter ``arxiv`` as written (raw text, never a YAML float)."""
    front_id: str | None
    front_version: int | None
    title: str | None
    category: str | None
    also: list[str] = field(default_factory=list)


@dataclass(slots=True)
class CardIndex:
    """Cards by the id in their front matter and by the id in their file name."""

    by_front: dict[str, list[CardEntry]] = field(default_factory=dict)
    by_name: dict[str, list[CardEntry]] = field(default_factory=dict)
    entries: list[CardEntry] = field(default_factory=list)

    @classmethod
    def from_files(cls, files: list[FileRow]) -> CardIndex:
        """Index the ``card``-role rows of the store (``Store.files(role="card")``), by path."""
        index = cls()
        for f in sorted(files, key=lambda r: r.path):
            entry = _entry(f)
            index.entries.append(entry)
            if entry.front_id:
                index.by_front.setdefault(entry.front_id, []).append(entry)
            if entry.name_id:
                index.by_name.setdefault(entry.name_id, []).append(entry)
        return index

    def max_number(self) -> int:
        """Highest card number in use (front matter or file name), 0 when there is none."""
        numbers = [n for e in self.entries for n in (e.number, e.name_number) if n is not None]
        return max(numbers, default=0)


def _entry(f: FileRow) -> CardEntry:
    file_name = f.path.rsplit("/", 1)[-1]
    name_number, nid = name_id(file_name)
    raw = f.front.get("arxiv")
    raw_text = str(raw).strip() if raw is not None else None
    front_id = front_version = None
    if raw_text:
        try:
            ref = parse_arxiv_id(raw_text)
            front_id, front_version = ref.id, ref.version
        except InvalidArxivId:
            pass
    number = f.front.get("card")
    title = f.front.get("title")
    also = f.front.get("also") or []
    return CardEntry(
        path=f.path,
        number=number if isinstance(number, int) and not isinstance(number, bool) else name_number,
        name_number=name_number,
        name_id=nid,
        front_raw=raw_text,
        front_id=front_id,
        front_version=front_version,
        title=str(title).strip() if title is not None and str(title).strip() else None,
        category=str(f.front["category"]) if f.front.get("category") is not None else None,
        also=[str(x) for x in also] if isinstance(also, list) else [str(also)],
    )


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
