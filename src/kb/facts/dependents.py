"""What depends on a paper: every claim about it and every line naming its id (``kb verify``'s list
for a withdrawn or revised paper), kb's own brief lines left out."""

from __future__ import annotations

from kb.core.records import Dependent
from kb.facts.query import ClaimFilter, select_claims
from kb.store.own_briefs import OwnBriefs
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

