"""Paper cards: file names ``<card>-<YYMM>-<NNNNN>.md`` and the :class:`Card` model, read from a
card's stored front matter (the store keeps them: :mod:`kb.store.cards`; ``kb card new`` writes
them: :mod:`kb.verify.card_new`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kb.extract.arxiv_ids import InvalidArxivId, parse_arxiv_id

_NEW_NAME_RE = re.compile(r"(?P<no>\d+)-(?P<yymm>\d{4})-(?P<seq>\d{4,5})\.md")
_OLD_NAME_RE = re.compile(r"(?P<no>\d+)-(?P<archive>[a-z]+(?:-[a-z]+)?(?:\.[A-Za-z][A-Za-z-]*)?)-(?P<num>\d{7})\.md")

HEADINGS = {
    "zh": ("论文", ("问题", "方法", "结果", "局限")),
    "en": ("Paper", ("Problem", "Method", "Results", "Limitations")),
}
"""Body skeleton per language: the label of the paper link line and the four section headings."""


def name_id(file_name: str) -> tuple[int | None, str | None]:
    """``(card number, arXiv id)`` a card file name states; None for what it does not state.

    ``681-2607-26627.md`` -> ``(681, "2607.26627")``; ``12-hep-th-9901001.md`` ->
    ``(12, "hep-th/9901001")`` (DESIGN.md §1). A name of another shape states nothing:
    ``2607-30009.md`` (an id only) is ``(None, None)``, never card 2607 (:func:`card_number_problems`
    warns of it).
    """
    m = _NEW_NAME_RE.fullmatch(file_name)
    if m:
        return int(m["no"]), f"{m['yymm']}.{m['seq']}"
    m = _OLD_NAME_RE.fullmatch(file_name)
    if m:
        return int(m["no"]), f"{m['archive']}/{m['num']}"
    return None, None


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
    :ivar number: front-matter ``card`` when a whole number of at least 1 (:func:`card_number`),
        else the file name's number.
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
"""The fields of :class:`Card` in order (how :func:`kb.store.cards._kept_cards` writes a card)."""


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


MAX_CARD = 999_999
"""The highest card number kb takes as written: a ``card:`` above it is reported (``kb ingest``
warns, ``kb lint`` KB119) and ``kb card new`` refuses to number a card after it (a typo such as
``card: 99999999999999999999999`` made the next card 10^23)."""
#: The code of the parser's problems of a card's number (:func:`card_number_problems`).
CARD_NUMBER = "card-number"


def card_number(value: Any) -> int | None:
    """A card's front-matter ``card`` as its number: a whole number of at least 1 (YAML ``681``;
    not ``true``, ``"681"``, ``6.81e2`` nor a list), else None (the file name's number is used)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else None


def card_number_problem(value: Any) -> str | None:
    """What is wrong with a card's front-matter ``card`` value (when the key is written), else
    None: not a whole number of at least 1 (:func:`card_number`: the file name's number is used
    instead), or over :data:`MAX_CARD`."""
    number = card_number(value)
    if number is None:
        shown = str(value)[:40] if value is not None else "null"
        return (f"card: expected the card's number, a whole number from 1 to {MAX_CARD:,}, got {shown!r}; "
                "the number in the file name is used")
    if number > MAX_CARD:
        return (f"card: {number} is over {MAX_CARD:,}, the highest card number kb takes; kb card new "
                "numbers no card after it (a typo?)")
    return None


_PLAIN_RE = re.compile(r"[1-9][0-9]*")


def card_number_problems(file_name: str, value: Any, raw: str | None, written: bool) -> list[str]:
    """Every problem of a card's number (the parser's warnings, code :data:`CARD_NUMBER`; ``kb
    lint`` KB119), none when its ``card:`` and file name agree.

    The number is the ``card:`` when that is one (:func:`card_number`), else the file name's
    (:func:`name_id`); ``kb card new`` numbers past both (:meth:`kb.store.cards.CardIndex.max_number`).

    :param file_name: the card's file name (``681-2607-26627.md``).
    :param value: ``card:`` as YAML read it; :param raw: as written (``0x2AA``), None when not a
        plain scalar; :param written: whether the front matter has the key.
    :returns: messages, in order: a ``card:`` that is no card number (:func:`card_number_problem`),
        one YAML reads as a number though it is not written as plain decimal digits (``0x2AA``,
        ``6_82``, ``0682``: 682), one that disagrees with the file name's number, a file name
        that is not ``<card>-<YYMM>-<NNNNN>.md`` (it states no number), one over :data:`MAX_CARD`.
    """
    out: list[str] = []
    name_no, _ = name_id(file_name)
    number = card_number(value) if written else None
    if written and (why := card_number_problem(value)):
        out.append(why if name_no is not None or number is not None else
                   why.replace("the number in the file name is used", "the card has no number (nor has its file name)"))
    shown = (raw or "").strip()
    if number is not None and shown and _PLAIN_RE.fullmatch(shown) is None:
        out.append(f"card: {shown[:40]} is read as {number} (YAML), not written as plain decimal digits; "
                   f"write card: {number}")
    if number is not None and number <= MAX_CARD and name_no is not None and number != name_no:
        out.append(f"card: {number} disagrees with the number in the file name, {name_no}; the card is numbered "
                   f"{number} (its card:) and kb card new numbers past both: make them agree")
    if name_no is None:
        out.append(f"file name {file_name[:80]!r} is not <card>-<YYMM>-<NNNNN>.md (e.g. 682-2607-26627.md): "
                   + ("it states no card number" if number is not None
                      else "the card has no number (write its card: and rename the file)"))
    elif name_no > MAX_CARD and number is None:
        out.append(f"the number in the file name, {name_no}, is over {MAX_CARD:,}, the highest card number kb takes; "
                   "kb card new numbers no card after it (a typo?)")
    return out


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
    number = card_number(front.get("card"))
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
        number=number if number is not None else name_number,
        arxiv_raw=raw_text,
        arxiv_id=arxiv_id,
        version=version,
        name_number=name_number,
        name_id=nid,
    )
