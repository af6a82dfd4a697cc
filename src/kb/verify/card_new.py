"""``kb card new``: a new paper card written from arXiv's metadata (never over another file).

The card's name and headings are :mod:`kb.read.cards`'s; the numbering and "this paper has a
card already" are the stored cards' (:class:`kb.store.cards.CardIndex`).
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

from kb.core.errors import ExitCode, KbError, OptionError, UsageError
from kb.core.paths import CARDS_DIR, write_target
from kb.core.records import SourceRecord
from kb.core.textio import write_atomic
from kb.extract.arxiv_ids import InvalidArxivId, parse_arxiv_id
from kb.read.cards import HEADINGS, MAX_CARD, card_file_name, name_id
from kb.store.cards import CardIndex, _q
from kb.store.fresh import note_wait
from kb.store.locks import writer_lock


class PaperNotFound(KbError):
    """arXiv has no paper with the id asked for (exit code 1, as a failed verification)."""

    exit_code = ExitCode.FINDINGS


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
        :class:`~kb.core.errors.SourceUnavailable` when arXiv is needed and unreachable (exit 3).
    :param now: aware creation time in the KB's time zone.
    :returns: the path written.
    :raises OptionError: unknown ``lang`` (exit 2).
    :raises UsageError: invalid id, a card for the paper exists already, or
        the target file exists (exit 2).
    :raises PaperNotFound: arXiv has no such paper (exit 1).
    """
    if lang not in HEADINGS:
        raise OptionError("{0} {lang!r}: expected one of {known}", "lang", lang=lang, known=", ".join(HEADINGS))
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
    # numbered and written under the KB's writer lock, from the cards on disk now: two kb card new
    # at once got the same number (the index is what the store held when each run began)
    with writer_lock(root, note_wait):
        on_disk = _card_names(root / CARDS_DIR)
        same = card_file_name(0, ref.id)[1:]  # "-2607-26627.md": this paper's card, whatever its number
        written = next((n for n in on_disk if n.endswith(same) and n.split("-", 1)[0].isdigit()), None)
        if written is not None:
            raise UsageError(f"{ref.id} already has a card: {CARDS_DIR}/{written}; not writing another")
        number = _next_number(index, on_disk)
        path = root / CARDS_DIR / card_file_name(number, ref.id)
        text = render_card(number, record, asked_version=ref.version, created=now, lang=lang, category=category)
        write_target(root, path, what="card")
        try:
            write_atomic(path, text, overwrite=False)
        except FileExistsError:
            raise UsageError(f"{path.relative_to(root).as_posix()} exists; not overwritten") from None
    return path


def _next_number(index: CardIndex, on_disk: list[str]) -> int:
    """The number of the next card: one more than the highest in use (a card's ``card:`` or
    file name, stored or on disk now), 1 for the first. Only a name of the card pattern
    (:func:`kb.read.cards.name_id`) states a number: ``2607-30009.md`` is not card 2607.

    :raises UsageError: a card holds a number over :data:`kb.read.cards.MAX_CARD` (a typo such
        as ``card: 99999999999999999999999`` made the next card 10^23), or the next would be:
        the card holding it named, nothing written.
    """
    numbers = [(n, e.path) for e in index.entries for n in (e.number, e.name_number) if n is not None]
    numbers += [(n, f"{CARDS_DIR}/{name}") for name in on_disk if (n := name_id(name)[0]) is not None]
    top, path = max(numbers, default=(0, ""))
    if top > MAX_CARD:
        raise UsageError(f"{path}: card number {top} is over {MAX_CARD:,}, the highest kb numbers cards to; "
                         "fix its `card:` and file name (a typo?), then make the card")
    if top == MAX_CARD:
        raise UsageError(f"{path}: card number {top:,} is the highest kb numbers cards to; kb card new numbers "
                         "no card past it")
    return top + 1


def _card_names(folder: Path) -> list[str]:
    """The file names in the cards folder (none when it is missing or cannot be listed)."""
    try:
        return [e.name for e in os.scandir(folder) if e.name.endswith(".md")]
    except OSError:
        return []
