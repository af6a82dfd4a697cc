"""Section 6's revised and withdrawn papers of the brief (moved out of :mod:`kb.brief.steps`,
which holds the other §2/§6/§7 rows)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from kb.brief.registry import source_of
from kb.core.claims import Claim
from kb.core.paths import doc_path
from kb.facts.dependents import dependents
from kb.facts.revised import is_older, latest_of, revised_note
from kb.night.run import Night


def revised_papers(night: Night) -> list[dict[str, Any]]:
    """Section 6's revised and withdrawn papers (:mod:`kb.facts.revised`, against arXiv's latest as
    ``kb verify`` cached it): per paper of the night's subjects or cited by the living doc,
    the places of the window and the doc pinned to an older version (and its card, when written
    from one), or, for a withdrawn paper, every window claim and doc line about it.

    :returns: ``[{"id", "label", "latest", "date", "withdrawn", "comment", "en", "zh",
        "places": ["path:line" or a card path, …]}]`` by id (``en``/``zh``: the revised note
        from the oldest pinned version; None for a withdrawn paper); empty when the cache
        knows no later version and no withdrawal.
    """
    about: dict[str, list[Claim]] = defaultdict(list)
    for s in night.result.subjects:
        if s.key.startswith("arxiv:"):
            about[s.key[6:]].extend(night.claims[i] for i in s.claims if i in night.claims)
    cited: dict[str, list[tuple[Claim, int | None]]] = defaultdict(list)
    for c in (*night.claims.values(), *night.doc.claims):
        for ref in c.arxiv:
            cited[ref.id].append((c, ref.version))
    labels = {s.key: s.label for s in night.result.subjects}
    out = []
    for arxiv_id in sorted(set(about) | {i for i, refs in cited.items() if any(v for _, v in refs)}):
        latest = latest_of(night.kb.store, arxiv_id)
        if latest is None:
            continue
        if latest.withdrawn:  # what depends on it, as kb verify lists it: the window's and the doc's
            window = {source_of(c) for c in night.claims.values()}
            docs = {night.doc.path, doc_path(night.topic)}
            places = [f"{d.path}:{d.line}" for d in dependents(night.kb, arxiv_id)
                      if d.path in docs or f"{d.path}:{d.line}" in window]
            versions = []
        else:
            pinned = [(c, v) for c, v in cited.get(arxiv_id, []) if is_older(v, latest)]
            card = night.cards.get(f"arxiv:{arxiv_id}")
            card_pinned = card is not None and is_older(card.version, latest)
            places = ([card.path] if card_pinned else []) + list(dict.fromkeys(source_of(c) for c, _ in pinned))
            versions = [v for _, v in pinned if v] + ([card.version] if card_pinned and card else [])
        if not places:
            continue
        oldest = min(versions) if versions else None
        card = night.cards.get(f"arxiv:{arxiv_id}")
        label = labels.get(f"arxiv:{arxiv_id}") or (card.title if card is not None and card.title else f"arXiv:{arxiv_id}")
        out.append({"id": arxiv_id, "label": label,
                    "latest": latest.version, "date": latest.date, "withdrawn": latest.withdrawn,
                    "comment": latest.comment,
                    "en": revised_note(oldest, latest, "en") if oldest else None,
                    "zh": revised_note(oldest, latest, "zh") if oldest else None, "places": places})
    return out
