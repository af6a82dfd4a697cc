"""What depends on a paper: every claim about it and every line naming its id (``kb verify``'s list
for a withdrawn or revised paper), kb's own brief lines left out."""

from __future__ import annotations

from pydantic import BaseModel

from kb.core.claims import DERIVED_JSON_MARKS, is_derived, is_rendered_brief
from kb.facts.query import ClaimFilter, select_claims
from kb.store.db import MentionRow
from kb.store.workspace import Kb


def dependents(kb: Kb, arxiv_id: str, own: OwnBriefs | None = None) -> list[Dependent]:
    """Every place of the KB that depends on paper ``arxiv_id`` (a withdrawn paper's list):
    each claim about it as ``kb claims --subject`` sees it (:func:`kb.facts.query.select_claims`, the
    Attributor: its id, a card name, the enclosing heading), and every other line naming its
    id (headings, front matter), kb's own brief lines left out; by path and line."""
    own = own if own is not None else OwnBriefs(kb)
    roles = {f.path: f.role for f in kb.store.files()}
    out: dict[tuple[str, int], Dependent] = {}
    for c in select_claims(kb, ClaimFilter(subject=arxiv_id)):
        p = c.provenance
        out.setdefault((p.path, p.line), Dependent(path=p.path, line=p.line, end_line=p.end_line, role=c.role,
                                                   kind=c.kind, text=c.text))
    spans: dict[str, list[tuple[int, int]]] = {}
    for d in out.values():
        spans.setdefault(d.path, []).append((d.line, d.end_line))
    for m in kb.store.mentions(arxiv_id):
        if m in own or any(a <= m.line <= b for a, b in spans.get(m.path, ())):
            continue
        out[(m.path, m.line)] = Dependent(path=m.path, line=m.line, end_line=m.line,
                                          role=roles.get(m.path, "other"), kind=m.kind, text=m.raw)
    return [out[k] for k in sorted(out)]


class Dependent(BaseModel):
    """A claim or line of the KB that depends on a withdrawn paper (it is about the paper,
    as ``kb claims --subject`` sees it, or names its id)."""

    path: str
    line: int
    end_line: int
    role: str
    """``living-doc``, ``card``, ``inbox`` or ``other``."""
    kind: str | None = None
    """Kind of the claim; None for a heading or front matter naming the id."""
    text: str = ""


class OwnBriefs:
    """Which mentions are kb's own output, not the KB's: ids in claims kb wrote into briefs
    it rendered (quotes and kb's lines, :func:`kb.core.claims.is_derived`) and ids outside any
    claim (headings) of such a brief (:func:`kb.core.claims.is_rendered_brief`). ``kb verify``
    leaves them out of mentions and of ``--all``, as ``kb claims`` leaves them out of claims."""

    #: Past this many files asked about, one scan of every claim is cheaper than one query a file.
    _PER_FILE = 200

    def __init__(self, kb: Kb) -> None:
        self.root = kb.root
        self._store = kb.store
        self._derived: dict[str, set[str]] = {}
        """path -> ids of its derived claims, read per file on first use (one id: a few files)."""
        self._all: dict[str, set[str]] | None = None
        self._files: dict[str, bool] = {}

    def _derived_of(self, path: str) -> set[str]:
        if self._all is None and len(self._derived) >= self._PER_FILE:
            self._all = {}
            for c in self._store.claims_containing(DERIVED_JSON_MARKS):
                if is_derived(c):
                    self._all.setdefault(c.provenance.path, set()).add(c.id)
        if self._all is not None:
            return self._all.get(path, set())
        if path not in self._derived:  # only claims whose JSON holds a mark are read (a pre-filter)
            self._derived[path] = {c.id for mark in DERIVED_JSON_MARKS
                                   for c in self._store.claims(path=path, json_has=mark) if is_derived(c)}
        return self._derived[path]

    def __contains__(self, m: MentionRow) -> bool:
        derived = self._derived_of(m.path)
        if m.claim_id is not None:
            return m.claim_id in derived
        if not derived:  # a brief kb rendered has derived claims: others are read only then
            return False
        if m.path not in self._files:
            self._files[m.path] = is_rendered_brief(self.root / m.path)
        return self._files[m.path]
