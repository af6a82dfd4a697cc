"""Claim queries: subject resolution (any arXiv form, entity alias, card alias) and time filters."""

from __future__ import annotations

import difflib
import re

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kb.core.claims import KINDS, Claim, is_derived
from kb.core.config import KbConfig
from kb.core.errors import OptionError
from kb.core.moments import parse_moment
from kb.core.paths import KNOWLEDGE_DIR
from kb.extract.arxiv_ids import InvalidArxivId, parse_arxiv_id
from kb.extract.metrics import MetricVocab
from kb.extract.names import NameMatcher, entity_names, heading_names
from kb.extract.titles import normalize_title
from kb.facts.attributor import Attributor
from kb.read.cards import Card
from kb.store.cards import load_cards
from kb.store.titles import known_titles
from kb.store.words import stored_words
from kb.store.workspace import Kb


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
    held: Any = None
    """Only what the KB held at a date (``--as-of``): a :class:`kb.history.held.Held`, the one
    answer to that question — files stamped before its cut, its cards, and each living doc's
    version current then (whose claims replace the current doc's)."""


def card_aliases(kb: Kb) -> dict[str, str]:
    """Card names (:meth:`kb.read.cards.Card.names`: title, title before ``:``, aliases), as
    :func:`kb.extract.titles.normalize_title` writes them -> the card's subject key (``arxiv:…``);
    the first card by path wins a shared name."""
    out: dict[str, str] = {}
    for card in load_cards(kb.store):
        if card.key:
            for name in card.names():
                norm = normalize_title(name)
                if norm:
                    out.setdefault(norm, card.key)
    return out


def resolve_subject(kb: Kb, text: str, param: str = "subject") -> list[str]:
    """Subject keys meant by what a user typed (``param``: the parameter that gave it, for the
    error: ``subject`` of ``--subject``, ``SUBJECT`` of a command's argument).

    ``arXiv:2607.26627v2``, an abs/pdf URL, ``doi:10.1145/…``, ``entity:tgi``, an entity
    name or alias from ``kb.yaml`` (``Text Generation Inference``), a card title/alias
    (``Bole``), or a name a living doc's heading gives (:func:`kb.extract.names.heading_names`:
    ``EAGLE-3`` of ``### §1.1 EAGLE-3（arXiv:2503.01840）``). A card alias or a heading with
    an id yields the paper's arXiv key.

    :raises UsageError: nothing matches; the message says what forms are accepted.
    """
    t = text.strip()
    prefix, colon, rest = t.partition(":")
    if not t or (colon and prefix.lower() in ("entity", "doi", "arxiv") and not rest.strip()):
        raise OptionError("{0} {text!r}: names no subject (give e.g. 2607.26627, doi:10.1145/3803798 or entity:tgi)",
                          param, text=text)
    if t.lower().startswith("entity:"):
        return [_entity_key(kb, t, param)]
    if t.lower().startswith("doi:"):
        return ["doi:" + t[4:].strip().lower()]
    try:
        return [parse_arxiv_id(t).key]
    except InvalidArxivId as exc:
        if _ID_LIKE_RE.match(t):  # meant as an arXiv id: say what is wrong with it, and the KB's nearest
            ids = [k[6:] for k in stored_words(kb.root, "subjects", "arxiv:")]
            near = difflib.get_close_matches(_ID_LIKE_RE.match(t).group(1), ids, n=1)  # type: ignore[union-attr]
            raise OptionError("{0} {text!r}: not a valid arXiv id: {why}" + (f" (did you mean {near[0]}?)" if near else ""),
                              param, text=text, why=exc.reason) from exc
    if t.lower().startswith("10."):
        return ["doi:" + t.lower()]
    key = NameMatcher(entity_names(kb.config)).key_for(t)
    if key:
        return [key]
    alias = card_aliases(kb).get(normalize_title(t))
    if alias:
        return [alias]
    headings = kb.store.heading_texts("living-doc")
    named = {n.lower(): k for n, k in heading_names(headings)}.get(t.lower())
    if named:  # a name a living doc's heading gives (### §1.1 EAGLE-3（arXiv:…）), as kb diff reads it
        return [named]
    near = difflib.get_close_matches(t, [*entity_names(kb.config), *(n for n, _ in heading_names(headings))], n=1)
    raise OptionError(
        "{0} {text!r}: not an arXiv id, DOI, kb.yaml entity, card alias or living-doc heading name "
        + (f"(did you mean {near[0]!r}?)" if near else f"({_forms(kb)})"), param, text=text)


#: What a user typed as an arXiv id (``2611.0123``, ``arXiv:2611.0123v2``): its number, for a
#: malformed one's error and its nearest id.
_ID_LIKE_RE = re.compile(r"(?i)^(?:arxiv:\s*)?(\d{4}\.\d+)(?:v\d+)?$")


def _forms(kb: Kb) -> str:
    """The accepted forms of a subject, shown with this KB's own values (an arXiv id, a kb.yaml
    entity), never another KB's: ``try 2611.01234, vLLM, entity:vllm, doi:…, or an alias from kb.yaml``."""
    ids = stored_words(kb.root, "subjects", "arxiv:")[:1]
    entity = next(iter(kb.config.entities), None)
    shown = [i[6:] for i in ids] + ([entity, NameMatcher(entity_names(kb.config)).key_for(entity) or ""]
                                    if entity else ["entity:<name>"])
    return "try " + ", ".join(x for x in shown if x) + ", doi:…, or an alias from kb.yaml"


def _entity_key(kb: Kb, text: str, param: str) -> str:
    """``entity:<name>`` as a subject key when the KB knows it (a kb.yaml entity, a name its
    files give: the store's subjects, the living docs' headings).

    :raises OptionError: an unknown key, with the nearest known one, as for an unknown name."""
    key = text.strip().lower()
    if key in stored_words(kb.root, "subjects", key):
        return key
    headings = kb.store.heading_texts("living-doc")
    known = {*entity_names(kb.config).values(), *(k for _, k in heading_names(headings)),
             *stored_words(kb.root, "subjects", "entity:")}
    if key in known:
        return key
    near = difflib.get_close_matches(key, sorted(k for k in known if k.startswith("entity:")), n=1)
    raise OptionError("{0} {text!r}: no entity of that key in this KB (kb.yaml entities and the names its files give) "
                      + (f"(did you mean {near[0]!r}?)" if near else f"({_forms(kb)})"), param, text=text)


def resolve_metric(kb: Kb, given: str) -> str:
    """A ``--metric`` value as a metric key of the KB's vocabulary (:class:`kb.extract.metrics.MetricVocab`):
    a key (``eol_date``) or a phrase naming one (``维护模式``, ``TTFT``); the one reading of
    ``--metric`` (``kb history``, ``kb trace``).

    :raises UsageError: neither; the message lists the keys.
    """
    vocab = MetricVocab(kb.config.metrics)
    key = given.strip()
    if not key:
        raise OptionError("{0} is empty; give a metric key or phrase, or leave the option out", "metric")
    if key in vocab.phrases:
        return key
    found = vocab.phrase_metric(key)
    if found:
        return found
    raise OptionError("{0} {given!r}: not a metric key or phrase (keys: {keys})", "metric", given=given,
                      keys=", ".join(sorted(vocab.phrases)))


def to_iso(value: str, kb: Kb, *, option: str) -> str:
    """A command-line date or date-time as ISO text in the KB's zone (see
    :func:`kb.core.moments.parse_moment`, the one parser of such values).

    :raises UsageError: not ISO 8601, or out of the calendar.
    """
    return parse_moment(value, kb.config, option).isoformat()


def select_claims(kb: Kb, flt: ClaimFilter) -> list[Claim]:
    """Claims of the KB that pass ``flt``, by path and line, attributed (what ``kb claims`` prints).

    :raises UsageError: unknown kind, unknown subject or bad time.
    """
    at, found = select_viewed(kb, flt)
    return [at.attributed(c) for c in found]


def select_viewed(kb: Kb, flt: ClaimFilter) -> tuple[Attributor, list[Claim]]:
    """The claims :func:`select_claims` returns, as stored (not yet attributed), with the
    :class:`kb.facts.attributor.Attributor` that attributes them (``at.view(c).facts``: the values
    ``kb diff`` compares; ``kb history`` reads them).

    :raises UsageError: unknown kind, unknown subject or bad time.
    """
    for param, value in (("kind", flt.kind), ("subject", flt.subject), ("author", flt.author),
                         ("since", flt.since), ("until", flt.until), ("file", flt.path)):
        if value is not None and not value.strip():
            raise OptionError("{0} is empty; give a value or leave the option out", param)
    if flt.kind and flt.kind not in KINDS:
        raise OptionError("{0} {kind!r}: expected one of {kinds}", "kind", kind=flt.kind, kinds=", ".join(KINDS))
    subjects = resolve_subject(kb, flt.subject) if flt.subject else None
    since = to_iso(flt.since, kb, option="since") if flt.since else None
    until = to_iso(flt.until, kb, option="until") if flt.until else None
    if since and until and since >= until:
        raise OptionError("{0} {since} is not before {1} {until}", "since", "until", since=flt.since, until=flt.until)
    held = flt.held
    if held is not None:
        until = held.cut_iso if until is None or until > held.cut_iso else until
        if since and since >= until:
            raise OptionError("{0} {since} is not before {1} {as_of}", "since", "as_of", since=flt.since,
                              as_of=held.given)
    where = dict(kind=flt.kind, author=flt.author, since=since, until=until,
                 path=kb_path(kb, flt.path) if flt.path else None)
    at = attributor(kb, held)
    found = list(kb.store.claims(**where)) if subjects is None else about(kb, at, subjects, where)
    if held is not None:  # the living docs as they stood then, instead of as they are now
        found = [c for c in found if c.role != "living-doc"]
        docs = [c for c in held.doc_claims() if _passes(c, where)]
        at.learn(docs)
        if subjects is not None:
            docs = [c for c in docs if _is_about(at, c, set(subjects))]
        found = sorted(found + docs, key=lambda c: (c.provenance.path, c.provenance.line))
    if not flt.quotes:
        found = [c for c in found if not is_derived(c)]
    at.learn(found)
    return at, found


def _passes(c: Claim, where: dict[str, str | None]) -> bool:
    """``c`` (a claim not in the store: a doc version's) passes the store filters of ``where``."""
    p = c.provenance
    return ((where["kind"] is None or c.kind == where["kind"])
            and (where["author"] is None or (p.author or "").lower() == where["author"].lower())
            and (where["since"] is None or (p.written_at is not None and p.written_at >= where["since"]))
            and (where["path"] is None or p.path == where["path"]
                 or (where["path"].endswith("/") and p.path.startswith(where["path"]))))


def attributor(kb: Kb | None, held: Any = None, *, config: KbConfig | None = None,
               cards: Sequence[Card] | None = None, titles: Iterable[tuple[str, str]] | None = None,
               headings: Iterable[str] = (), docs: bool = True, kept: bool = True) -> Attributor:
    """The KB's :class:`kb.facts.attributor.Attributor` (kb.yaml entities, every card, the titles
    of :func:`kb.store.titles.known_titles`, the living docs' headings): the one way every command
    builds it, so that all of them read a line alike. With ``held`` (a
    :class:`kb.history.held.Held`), only the cards and doc headings the KB held then.

    :param kb: the open KB; None for a caller that has only what it passes (``config``, ``cards``,
        ``titles``, ``headings``: lint, a diff made by hand), which then reads no store.
    :param config: the config, when ``kb`` is None (else ``kb.config``).
    :param cards: the cards, when the caller has loaded them already (a night: the same list
        its diff reads); :param titles: likewise ``known_titles`` of those cards.
    :param headings: more heading texts (a night's baseline: a snapshot's headings).
    :param docs: also the headings of every living doc of the KB (held then, with ``held``);
        False: only ``headings`` (the ledger of a night made by hand: that night's doc alone).
    :param kept: what it knows by name is kept in the store between runs
        (:class:`kb.facts.attributor.Attributor` ``store``): a plain one (no ``held``, no more
        headings: the look-ups) and one with more headings (a night, ``--as-of``) under two
        keys, so neither builds the other's again.
    """
    if kb is None:
        if config is None:
            raise ValueError("attributor() without a KB needs its config")
        return Attributor(config, cards or [], titles or (), headings)
    if cards is None:
        cards = [c for c in (load_cards(kb.store) if held is None else held.cards()) if c.key]
    if not docs:
        held_headings: Sequence[str] = []
    elif held is None:  # living docs are under organized/knowledge (kb.read.parse.role_of): one path range, not every file
        held_headings = kb.store.heading_texts_in(KNOWLEDGE_DIR, "living-doc")
    else:
        held_headings = held.headings()
    # a heading already held names and labels nothing more (first wins): left out, the nights of
    # every topic (kb sources) share one kept memo instead of building their own each
    given = list(headings)
    seen = set(held_headings)
    headings = [h for h in given if h not in seen]
    return Attributor(config or kb.config, cards, known_titles(kb.store, cards) if titles is None else titles,
                      [*held_headings, *headings], store=kb.store if kept else None,
                      memo="attributor_names" if held is None and not given else "attributor_names_more")


def about(kb: Kb, at: Attributor, subjects: list[str], where: dict[str, str | None]) -> list[Claim]:
    """Claims about any of ``subjects`` as the diff sees them (:class:`kb.facts.attributor.Attributor`:
    card names, baselines and hosts, name–id pairs), so ``kb claims --subject`` and ``kb diff``
    agree on every line (candidates: :func:`candidates`)."""
    found = candidates(kb, at, subjects, where)
    at.learn(found)
    wanted = set(subjects)
    return [c for c in found if _is_about(at, c, wanted)]


def candidates(kb: Kb, at: Attributor, subjects: Sequence[str], where: dict[str, Any] | None = None,
               json_has: str | None = None) -> list[Claim]:
    """Claims that may be about ``subjects``, by path and line: those the store files under a
    subject (or its group) plus those whose text holds one of the subject's names (the
    Attributor's); whether they are about it is the Attributor's decision (:func:`about`,
    :func:`kb.facts.relay.chains`).

    :param where: more :meth:`kb.store.db.Store.claims` filters (kind, author, time, path).
    :param json_has: a text the claim's JSON must hold (``kb trace``: a metric's mark).
    """
    wanted = set(subjects)
    names = [n for n, k in at.matcher.key_of.items() if k in wanted or at.group(k) in wanted]
    keys = sorted(wanted | {k for k in at.matcher.key_of.values() if at.group(k) in wanted})
    seen: dict[tuple[str, str], Claim] = {}
    for c in kb.store.claims(subject=keys, json_has=json_has, **(where or {})):
        seen[(c.provenance.path, c.id)] = c
    if names:
        for c in kb.store.claims(text_like=names, json_has=json_has, **(where or {})):
            seen.setdefault((c.provenance.path, c.id), c)
    return sorted(seen.values(), key=lambda c: (c.provenance.path, c.provenance.line))


def _is_about(at: Attributor, c: Claim, wanted: set[str]) -> bool:
    """``c`` is about one of ``wanted`` as the diff sees it (its subjects or its facts' owners)."""
    v = at.view(c)
    return any(s in wanted or at.group(s) in wanted for s in (*v.subjects, *(f.subject for f in v.facts)))


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
    except ValueError:  # outside the KB as written from here: perhaps a path from the KB's root
        rel = None if p.is_absolute() or ".." in p.parts else p.as_posix().removeprefix("./")
        if not rel or rel == "." or not (kb.root / rel).exists():
            raise OptionError("{0} {given}: not inside the knowledge base {root}", "file", given=given,
                              root=kb.root) from None
    if rel == ".":
        return ""
    target = kb.root / rel
    if target.is_dir():
        return rel.rstrip("/") + "/"
    if not target.exists() and kb.store.file(rel) is None:
        raise OptionError("{0} {given}: no such file in the knowledge base (paths are relative to {root})", "file",
                          given=given, root=kb.root)
    return rel
