"""``kb diff <topic> --from v44 --to v45``: what changed between two versions of a living document.

Sections are matched by ``§`` number and title: same number and title = the same section
(``changed`` when its own body text differs); same title under another number =
``renumbered``; the rest are ``added`` or ``removed``. Citations are the distinct sources
written anywhere in the body (arXiv ids, with arxiv.org URLs folded into their id, DOIs,
other URLs, KB paths), compared with the front-matter ``citations`` figure. Within each
section the claims (one unit = one claim, compared by their text with spaces folded) and the
values (quantities and dates, keyed by subject and metric) are listed as added, removed or
changed, so the diff shows *what* changed, not only where. A change-log section's values are not
compared (:func:`kb.night.doc_index.changelog_ranges`: a value only the change log states is no
value of the doc); its added and removed lines are listed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from kb.core.errors import UsageError
from kb.night.doc_index import changelog_ranges
from kb.read.livedoc import LivingDoc, Section, citations_of
from kb.read.parse import Parser
from kb.read.versions import load_version

_VERSION_RE = re.compile(r"^\s*v?(\d+)\s*$", re.IGNORECASE)


class ClaimRef(BaseModel):
    """A claim added to or removed from a section: its line (in the version it is in) and text."""

    line: int
    text: str


class ValueRef(BaseModel):
    """A value stated in a section: whose (subject key, or None), which metric (or None), as written."""

    subject: str | None
    metric: str | None
    raw: str
    line: int


class ValueChange(BaseModel):
    """The values of one subject + metric in a section differ between the two versions.

    ``old``/``new`` are the values as written (sorted, distinct); ``line`` is in the newer version.
    """

    subject: str | None
    metric: str | None
    old: list[str]
    new: list[str]
    line: int


class SectionRef(BaseModel):
    """A section as listed in a version diff, with what changed inside it."""

    label: str
    title: str
    line: int
    old_label: str | None = None
    """For ``renumbered``: the label it had in the older version."""
    body_changed: bool = False
    claims_added: list[ClaimRef] = Field(default_factory=list)
    claims_removed: list[ClaimRef] = Field(default_factory=list)
    values_added: list[ValueRef] = Field(default_factory=list)
    """Values whose subject + metric the older section did not state at all."""
    values_removed: list[ValueRef] = Field(default_factory=list)
    """Values whose subject + metric the newer section no longer states."""
    values_changed: list[ValueChange] = Field(default_factory=list)


class CitationCount(BaseModel):
    """The front-matter ``citations`` figure against the distinct sources counted in the body."""

    stated: int | None
    counted: int


class VersionDiff(BaseModel):
    """JSON of ``kb diff --from/--to``."""

    topic: str
    from_version: int | None
    to_version: int | None
    from_path: str
    to_path: str
    sections_added: list[SectionRef] = Field(default_factory=list)
    sections_removed: list[SectionRef] = Field(default_factory=list)
    sections_changed: list[SectionRef] = Field(default_factory=list)
    sections_renumbered: list[SectionRef] = Field(default_factory=list)
    subjects_added: list[str] = Field(default_factory=list)
    subjects_removed: list[str] = Field(default_factory=list)
    citations_added: list[str] = Field(default_factory=list)
    citations_removed: list[str] = Field(default_factory=list)
    section_citations_added: list[tuple[str, str]] = Field(default_factory=list)
    """``(section label, source)`` newly cited in that section, even if cited elsewhere before."""
    citations: dict[str, CitationCount] = Field(default_factory=dict)
    """``{"from": …, "to": …}``."""


def parse_version(text: str, option: str) -> int:
    """``v44`` or ``44`` -> 44.

    :raises UsageError: anything else.
    """
    m = _VERSION_RE.match(text)
    if not m:
        raise UsageError(f"{option} {text!r}: expected a version such as v44")
    return int(m.group(1))


def _body(doc: LivingDoc, s: Section) -> str:
    lines = doc.text.split("\n")[s.line:s.end_line]
    return " ".join(" ".join(lines).split())


def _section_citations(doc: LivingDoc) -> set[tuple[str, str]]:
    lines = doc.text.split("\n")
    return {(s.label, c) for s in doc.sections for c in citations_of("\n".join(lines[s.line - 1:s.end_line]))}


def _title(s: Section) -> str:
    """Heading text without its ``§`` number (what survives a renumbering)."""
    return re.sub(r"^\s*§\s*\d+(?:\.\d+)*\s*", "", s.title).strip()


def _key(s: Section) -> str:
    return s.number if s.numbered else f"#{_title(s)}"


def _ref(s: Section, **extra: object) -> SectionRef:
    return SectionRef(label=s.label, title=s.title, line=s.line, **extra)  # type: ignore[arg-type]


def _claim_texts(s: Section | None) -> dict[str, int]:
    """Claim text (spaces folded) -> first line, for a section's own claims (None: no section)."""
    out: dict[str, int] = {}
    for c in s.claims if s is not None else ():
        out.setdefault(" ".join(c.text.split()), c.provenance.line)
    return out


def _values(s: Section | None, at: Any = None) -> dict[tuple[str | None, str | None], dict[str, int]]:
    """(subject, metric) -> {value as written: first line} for a section's quantities and dates.

    A value's subject is its owner as :class:`kb.facts.attributor.Attributor` reads it (``at``, what
    ``kb claims`` and ``kb diff`` say of the same line), else its claim's first subject. Without
    ``at``: the parser's own ``subject``, else the claim's first subject."""
    out: dict[tuple[str | None, str | None], dict[str, int]] = {}
    for c in s.claims if s is not None else ():
        view = at.view(c) if at is not None else None
        for i, v in enumerate((*c.quantities, *c.dates)):
            if view is not None:
                subject = view.owners[i] or (view.subjects[0] if view.subjects else None)
            else:
                subject = v.subject or (c.subjects[0] if c.subjects else None)
            out.setdefault((subject, v.metric), {}).setdefault(v.raw.strip(), c.provenance.line)
    return out


def _subjects(doc: LivingDoc, at: Any = None) -> set[str]:
    """Subject keys a version's sections hold (through ``at`` when given, as :func:`_values`)."""
    if at is None:
        return {k for s in doc.sections for k in s.subjects}
    return {k for s in doc.sections for c in s.claims for k in at.view(c).subjects}


def _logs(doc: LivingDoc) -> set[int]:
    """Heading lines of the doc's change-log sections and their subsections."""
    return {a for a, _ in changelog_ranges([(s.line, s.label, s.title) for s in doc.sections])}


def _fill(ref: SectionRef, old: Section | None, new: Section | None, at: Any = None,
          logs: tuple[set[int], set[int]] = (set(), set())) -> SectionRef:
    """Set the claims and values added, removed and changed from ``old`` to ``new`` on ``ref``
    (no values of a change-log section: ``logs``, the heading lines of the old and new doc's)."""
    a, b = _claim_texts(old), _claim_texts(new)
    ref.claims_added = [ClaimRef(line=line, text=t) for t, line in b.items() if t not in a]
    ref.claims_removed = [ClaimRef(line=line, text=t) for t, line in a.items() if t not in b]
    va = _values(old, at) if old is None or old.line not in logs[0] else {}
    vb = _values(new, at) if new is None or new.line not in logs[1] else {}
    for key, vals in vb.items():
        subject, metric = key
        if key not in va:
            ref.values_added += [ValueRef(subject=subject, metric=metric, raw=r, line=ln) for r, ln in vals.items()]
        elif set(vals) != set(va[key]):
            ref.values_changed.append(ValueChange(subject=subject, metric=metric, old=sorted(va[key]),
                                                  new=sorted(vals), line=min(vals.values())))
    for key, vals in va.items():
        if key not in vb:
            ref.values_removed += [ValueRef(subject=key[0], metric=key[1], raw=r, line=ln) for r, ln in vals.items()]
    return ref


def version_diff(old: LivingDoc, new: LivingDoc, topic: str, at: Any = None) -> VersionDiff:
    """Compare two parsed versions of a living document (pure).

    :param at: the KB's :class:`kb.facts.attributor.Attributor` (:func:`kb.facts.query.attributor`), so
        that a value's subject is the one ``kb claims`` and ``kb diff`` give the same line
        (card names, living-doc heading names); without it, the parser's subjects.
    :returns: :class:`VersionDiff`; lists are in document order.
    """
    out = VersionDiff(topic=topic, from_version=old.version, to_version=new.version,
                      from_path=old.path, to_path=new.path)
    old_by = {_key(s): s for s in old.sections}
    logs = (_logs(old), _logs(new))
    matched_old: set[str] = set()
    matched_new: set[str] = set()
    for s in new.sections:
        o = old_by.get(_key(s))
        if o is not None and _title(o) == _title(s):
            matched_old.add(_key(o))
            matched_new.add(_key(s))
            if _body(old, o) != _body(new, s):
                out.sections_changed.append(_fill(_ref(s, body_changed=True), o, s, at, logs))
    old_titles = {_title(s): s for s in old.sections if _key(s) not in matched_old}
    for s in new.sections:
        if _key(s) in matched_new:
            continue
        o = old_titles.pop(_title(s), None)
        if o is not None:
            matched_old.add(_key(o))
            out.sections_renumbered.append(_fill(_ref(s, old_label=o.label, body_changed=_body(old, o) != _body(new, s)),
                                                 o, s, at, logs))
        else:
            out.sections_added.append(_fill(_ref(s), None, s, at, logs))
    out.sections_removed = [_fill(_ref(s), s, None, at, logs) for s in old.sections if _key(s) not in matched_old]
    old_subjects, new_subjects = _subjects(old, at), _subjects(new, at)
    out.subjects_added = sorted(new_subjects - old_subjects)
    out.subjects_removed = sorted(old_subjects - new_subjects)
    old_cites, new_cites = old.cited_sources(), new.cited_sources()
    out.citations_added = sorted(new_cites - old_cites)
    out.citations_removed = sorted(old_cites - new_cites)
    out.section_citations_added = sorted(_section_citations(new) - _section_citations(old))
    out.citations = {"from": CitationCount(stated=old.citations, counted=len(old_cites)),
                     "to": CitationCount(stated=new.citations, counted=len(new_cites))}
    return out


def diff_versions(root: Path, topic: str, parser: Parser, v_from: int, v_to: int, at: Any = None) -> VersionDiff:
    """Load versions ``v_from`` and ``v_to`` (current file, history snapshot or git) and compare.

    :raises UsageError: a version that exists nowhere (the message lists the known ones and
        names the versions ``from`` and ``to``).
    """
    try:
        old = load_version(root, topic, v_from, parser)
        new = load_version(root, topic, v_to, parser)
    except LookupError as exc:
        raise UsageError("{known}; pick one of those for {0}/{1}", options=("from", "to"), known=str(exc.args[0])) from exc
    if at is not None:
        at.learn([*(c for s in old.sections for c in s.claims), *(c for s in new.sections for c in s.claims)])
    out = version_diff(old, new, topic, at)
    # a snapshot whose front matter gives no version is the one its file name numbers
    return out.model_copy(update={"from_version": v_from, "to_version": v_to})
