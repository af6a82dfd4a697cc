"""Claim records and their parts (pydantic v2, frozen): the JSON contract of ``kb claims``.

Shapes follow DESIGN.md §2 and issue 2 item 5; ``docs/claims.md`` documents the JSON.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Kind = Literal["paper-fact", "secondhand", "internal-rating"]
KINDS: tuple[Kind, ...] = ("paper-fact", "secondhand", "internal-rating")
Role = Literal["inbox", "card", "living-doc", "other"]
Precision = Literal["year", "month", "day", "minute"]
Bound = Literal[">", "≥", "<", "≤", "~"]
Unit = Literal["sentence", "list-item", "table-row", "heading", "front-matter"]
Mood = Literal["plan", "disputed"]
"""Why a figure is no statement of fact: ``plan`` (a plan, advice or forecast: ``建议排 3–6 个月``,
``预计 12-03``, ``will release in Q3``), ``disputed`` (quoted to say it disagrees: ``专栏写的 2.31×
和活文档的 2.03× 对不上``). Decided by :func:`kb.extract.kinds.moods`."""
Transition = Literal["from", "to"]
"""The two ends of a change written ``A → B`` (``从 3.1 提到 4.4``, ``raises … from 3.1 to 4.4``):
``to`` is the value reached, ``from`` the value it changed from. Decided by
:func:`kb.extract.quantities.find_quantities`."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ArxivRef(_Frozen):
    """One mention of an arXiv id in a text."""

    id: str
    """Canonical id without version: ``2607.26627``, ``hep-th/9901001``, ``math.GT/0309136``."""
    version: int | None = None
    """The ``vN`` written with it, else None (C01: the version is kept, the id is one paper)."""
    raw: str
    """The text as written, e.g. ``arXiv：2607.26627v2`` or an ``arxiv.org/pdf/…`` URL."""
    start: int = 0
    """Character offset in the claim text of the id's first character (first digit; the
    archive's first letter for old-style ids); -1 when the id is only in a link target."""
    end: int = 0
    """Character offset one past the id's last character (version included)."""

    @property
    def key(self) -> str:
        """Subject key ``arxiv:<id>``."""
        return f"arxiv:{self.id}"


class Quantity(_Frozen):
    """A number as stated: a value or a range, with its unit and metric."""

    raw: str
    """The text as written, e.g. ``−67.6%``, ``1,300 万``, ``73.6%–77.1%``."""
    value: float | None = None
    """The normalised number (``1,300 万`` → 13000000); None for a range."""
    low: float | None = None
    """Lower end of a range, else None."""
    high: float | None = None
    """Upper end of a range, else None."""
    unit: str | None = None
    """Normalised unit: kb's own (``%``, ``pp`` percentage points, ``×``, ``tok/s``, ``req/s``,
    ``LoC``, ``tokens``, a CJK counter, ``$``, ``+`` at least) or, for a physical or data unit,
    the canonical unit of its dimension from :mod:`kb.extract.units` (``s``, ``B``, ``B/s``,
    ``W``, ``°C``, ``Pa``, ``J``, ``m/s``, ``Hz`` …), with ``value`` converted to it: ``120 ms``
    is 0.12 ``s``, ``80 GB`` is 8e10 ``B``; ``raw`` keeps what was written."""
    metric: str | None = None
    """Metric key from the vocabulary (``throughput``, ``ttft``, ``speedup`` …), or None."""
    bound: Bound | None = None
    """A bound written with the number, else None (an exact value): ``>`` (超过, over, more
    than, ``>80%``), ``≥`` (至少, at least, 不少于, 以上, ``≥``/``>=``, ``25+``), ``<`` (不到,
    不足, 少于, under, less than, ``<100 LoC``), ``≤`` (up to, at most, within, 以内, 以下,
    最多, 不超过), ``~`` (约, about, around, approximately, 左右, ``~``, ``≈``). ``raw`` and
    ``value`` are the number's own; the bound word is not part of ``raw``."""
    qualifier: str | None = None
    """What the figure is conditional on where stated (hardware, baseline), else None."""
    subject: str | None = None
    """Subject key the number is about when the claim names several (nearest preceding
    subject in the same clause), else None (then: the claim's subjects). Set by the parser."""
    start: int = 0
    """Character offset of ``raw`` in the claim text."""
    end: int = 0
    """Character offset one past ``raw``."""
    mood: Mood | None = None
    """``plan`` or ``disputed`` (see :data:`Mood`): the figure is no value to verify, support
    or compare (the diff skips it); None for a figure stated as fact."""
    transition: Transition | None = None
    """``from`` or ``to`` when the number is one end of a change ``A → B`` (see
    :data:`Transition`); the ``from`` quantity comes just before its ``to`` one, with the same
    metric and unit. Not a range: ``3.1 → 4.4`` is two values, the new one 4.4. kb diff reads a
    ``from`` value as stated (a doc holding it is no conflict) but never as a new value. None
    for any other number."""


class DateRef(_Frozen):
    """A date or time as stated, at the precision stated."""

    raw: str
    value: str
    """ISO text at its precision: ``2025``, ``2025-12``, ``2026-03-21``, ``2026-07-31T16:30``."""
    precision: Precision
    metric: str | None = None
    """Metric key when the date is the value of one (``eol_date``), else None."""
    subject: str | None = None
    """Subject key the date is about, as for :attr:`Quantity.subject`."""
    start: int = 0
    end: int = 0
    mood: Mood | None = None
    """As :attr:`Quantity.mood`: ``预计 12-03 出结果`` is a ``plan``."""


class Provenance(_Frozen):
    """Where a claim was written, by whom and when."""

    path: str
    """POSIX path relative to the KB root."""
    line: int
    """First line, 1-based, in the file as stored (front matter counted)."""
    end_line: int
    """Last line, 1-based, inclusive."""
    author: str | None = None
    written_at: str | None = None
    """ISO date-time with offset, from front matter or the file-name stamp, else None."""
    heading: list[str] = Field(default_factory=list)
    """Heading path above the claim, outermost first."""


class Claim(_Frozen):
    """One checkable statement (DESIGN.md §2)."""

    id: str
    """Stable id: a hash of path, unit position and text (see :func:`claim_id`)."""
    kind: Kind
    kind_reason: str
    """Why this kind: ``tag:[论文事实]``, ``column:类型``, ``role:paper-card``, ``cue:据``, ``default:inbox``."""
    text: str
    """Plain text of the unit, inline markup removed."""
    unit: Unit = "sentence"
    role: Role = "other"
    """Role of the file: inbox briefing, paper card, living document."""
    subjects: list[str] = Field(default_factory=list)
    """Subject keys: ``arxiv:2607.26627``, ``entity:tgi``, ``doi:10.1145/3803798``."""
    arxiv: list[ArxivRef] = Field(default_factory=list)
    quantities: list[Quantity] = Field(default_factory=list)
    dates: list[DateRef] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    """Cited sources: ``arxiv:…``, ``doi:…``, URLs, KB paths such as ``inbox/jay/….md``."""
    section_hint: str | None = None
    """Suggested living-doc section, e.g. ``§3``, from ``建议归入 §3`` or the heading."""
    quote_of: str | None = None
    """``path:line`` of the claim this unit repeats, when it carries a kb provenance stamp
    (a brief's row: ``… — `paper-fact` inbox/spark/….md:50``). A quote is no independent
    evidence: the diff neither lists it nor counts it as support."""
    provenance: Provenance


def is_derived(claim: Claim) -> bool:
    """A claim that is no independent evidence: a quote (a brief's stamped row) or a line kb
    itself wrote into a brief it rendered (counts, next steps). Analysts' own additions to
    such a brief count when they carry an explicit kind tag. ``kb claims`` (without
    ``--quotes``), ``kb verify``'s mentions and the nightly diff all leave these out."""
    return claim.quote_of is not None or claim.kind_reason == "brief:kb"


BRIEF_MARK = b"<!-- kb:brief "
"""First bytes of every brief ``kb digest`` renders (after an optional BOM)."""


def is_rendered_brief(path: Path) -> bool:
    """True when the file at ``path`` starts with :data:`BRIEF_MARK`: a brief kb rendered.
    False for any other file, or one that cannot be read."""
    try:
        with path.open("rb") as fh:
            return fh.read(64).removeprefix(b"\xef\xbb\xbf").startswith(BRIEF_MARK)
    except OSError:
        return False


DERIVED_JSON_MARKS: tuple[str, ...] = ('"quote_of":"', '"kind_reason":"brief:kb"')
"""Substrings of the stored JSON of every claim :func:`is_derived` may accept (a pre-filter)."""


def claim_id(path: str, line: int, ordinal: int, text: str) -> str:
    """Stable claim id: 16 hex digits of sha1 over path, line, ordinal in line and text.

    The same unit in an unchanged file keeps its id across runs and machines.
    """
    return _sha1(f"{path}\x00{line}\x00{ordinal}\x00{text}".encode()).hexdigest()[:16]


_sha1 = hashlib.sha1
