"""Claim queries: subject resolution (any arXiv form, entity alias, card alias) and time filters."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kb.claims import KINDS, Claim, is_derived
from kb.errors import UsageError
from kb.extract.arxiv_ids import InvalidArxivId, parse_arxiv_id
from kb.extract.entities import EntityMatcher
from kb.window import parse_moment
from kb.workspace import Kb


@dataclass(slots=True)
class ClaimFilter:
    """Filters of ``kb claims``; every one optional, all must hold."""

    kind: str | None = None
    subject: str | None = None
    author: str | None = None
    since: str | None = None
    until: str | None = None
    path: str | None = None
    quotes: bool = False
    """Also return quotes and kb's own lines from briefs kb rendered (``quote_of``, ``brief:kb``)."""


def card_aliases(kb: Kb) -> dict[str, str]:
    """Lower-cased card titles and aliases -> the card's subject key (``arxiv:…``)."""
    out: dict[str, str] = {}
    for f in kb.store.files(role="card"):
        arxiv = str(f.front.get("arxiv") or "").strip()
        try:
            key = parse_arxiv_id(arxiv).key if arxiv else None
        except InvalidArxivId:
            key = None
        if key is None:
            continue
        names = [f.front.get("title")] + list(f.front.get("aliases") or [])
        for name in names:
            if isinstance(name, str) and name.strip():
                out.setdefault(name.strip().lower(), key)
    return out


def resolve_subject(kb: Kb, text: str) -> list[str]:
    """Subject keys meant by what a user typed.

    ``arXiv:2607.26627v2``, an abs/pdf URL, ``doi:10.1145/…``, ``entity:tgi``, an entity
    name or alias from ``kb.yaml`` (``Text Generation Inference``), or a card title/alias
    (``Bole``). A card alias yields the card's arXiv key.

    :raises UsageError: nothing matches; the message says what forms are accepted.
    """
    t = text.strip()
    if t.lower().startswith("entity:"):
        return [t.lower()]
    if t.lower().startswith("doi:"):
        return ["doi:" + t[4:].strip().lower()]
    try:
        return [parse_arxiv_id(t).key]
    except InvalidArxivId:
        pass
    if t.lower().startswith("10."):
        return ["doi:" + t.lower()]
    key = EntityMatcher(kb.config.entities).key_for(t)
    if key:
        return [key]
    alias = card_aliases(kb).get(t.lower())
    if alias:
        return [alias]
    raise UsageError(
        f"--subject {text!r}: not an arXiv id, DOI, kb.yaml entity or card alias "
        "(try 2607.26627, doi:10.1145/3803798, entity:tgi, or an alias from kb.yaml)"
    )


def to_iso(value: str, kb: Kb, *, option: str) -> str:
    """A command-line date or date-time as ISO text in the KB's zone (see
    :func:`kb.window.parse_moment`, the one parser of such values).

    :raises UsageError: not ISO 8601, or out of the calendar.
    """
    return parse_moment(value, kb.config, option).isoformat()


def select_claims(kb: Kb, flt: ClaimFilter) -> list[Claim]:
    """Claims of the KB that pass ``flt``, by path and line.

    :raises UsageError: unknown kind, unknown subject or bad time.
    """
    for option, value in (("--kind", flt.kind), ("--subject", flt.subject), ("--author", flt.author),
                          ("--since", flt.since), ("--until", flt.until), ("--file", flt.path)):
        if value is not None and not value.strip():
            raise UsageError(f"{option} is empty; give a value or leave the option out")
    if flt.kind and flt.kind not in KINDS:
        raise UsageError(f"--kind {flt.kind!r}: expected one of {', '.join(KINDS)}")
    subjects = resolve_subject(kb, flt.subject) if flt.subject else None
    since = to_iso(flt.since, kb, option="--since") if flt.since else None
    until = to_iso(flt.until, kb, option="--until") if flt.until else None
    if since and until and since >= until:
        raise UsageError(f"--since {flt.since} is not before --until {flt.until}")
    found = kb.store.claims(kind=flt.kind, subject=subjects, author=flt.author, since=since, until=until,
                            path=kb_path(kb, flt.path) if flt.path else None)
    if flt.quotes:
        return list(found)
    return [c for c in found if not is_derived(c)]


def kb_path(kb: Kb, given: str) -> str:
    """A ``--file`` value as the store knows paths: relative to the KB root, POSIX, a folder
    ending in ``/``. Accepts ``./inbox/jay``, absolute paths inside the KB, and folders
    written without the trailing slash.

    :raises UsageError: the path is outside the KB or names nothing in it.
    """
    p = Path(given)
    full = p if p.is_absolute() else (Path.cwd() / p)
    try:
        rel = full.resolve().relative_to(kb.root.resolve()).as_posix()
    except ValueError:
        rel = p.as_posix().lstrip("./") if not p.is_absolute() else None
        if rel is None or not (kb.root / rel).exists():
            raise UsageError(f"--file {given}: not inside the knowledge base {kb.root}") from None
    if rel == ".":
        return ""
    target = kb.root / rel
    if target.is_dir():
        return rel.rstrip("/") + "/"
    if not target.exists() and kb.store.file(rel) is None:
        raise UsageError(f"--file {given}: no such file in the knowledge base (paths are relative to {kb.root})")
    return rel
