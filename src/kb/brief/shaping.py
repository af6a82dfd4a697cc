"""The brief's judgement aids on top of the diff (issue 22): placement with its evidence, the
author's caveats (demotions move an item out of the increments), the newest rating first,
set-up values kept out of the values to add, first-hand cited doc values kept out of
"secondhand-only", a card's limits under its increment and bounds on every listed value.

:func:`settle_night` runs once before the context is built; :func:`shape` once per subject
entry (:func:`kb.brief.context._subject`); :func:`bounded` once on the finished context.
"""

from __future__ import annotations

from typing import Any

from kb.brief.reading import Reading
from kb.night.model import SubjectOut
from kb.night.placement import place
from kb.night.run import Night

#: Moods that take an item out of tonight's increments (the author said so).
MOVING = ("demote", "lead")


def settle_night(night: Night, rd: Reading) -> dict[str, Any]:
    """Drop from the night's secondhand-only numbers those a living-doc line citing a primary
    source states (:meth:`Reading.firsthand_values`) and set-up values (:meth:`Reading.setup_raws`).
    Mutates ``night.result`` (this night is the brief's own). :returns: ``{"firsthand": n, "setup": n}``."""
    r = night.result
    firsthand = rd.firsthand_values()
    setup = {(s.subject, s.raw) for s in r.secondhand_only
             if s.claim in night.claims and s.raw in rd.setup_raws([night.claims[s.claim]])}
    kept = [s for s in r.secondhand_only if (s.subject, s.raw) not in firsthand | setup]
    dropped = len(r.secondhand_only) - len(kept)
    r.secondhand_only = kept
    r.counts["secondhand_only"] = len(kept)
    return {"firsthand": len({k for k in firsthand}), "setup": len(setup), "dropped": dropped}


def shape(entry: dict[str, Any], night: Night, rd: Reading, s: SubjectOut) -> dict[str, Any]:
    """Add to one subject's brief entry: ``placed`` (:func:`kb.night.placement.place`, its section
    in ``section``), ``moods`` (newest first), ``moved`` (the demoting mood, if any), ``requests``
    (evaluate moods), ``setup`` (set-up values taken out of ``new_values``/``detail``), ``limits``
    and ``notes`` (the card's limits and non-numeric results). Ratings are ordered newest first
    (``rating[0]`` is the one in force; the others are history)."""
    at = night.attributor
    claims = [night.claims[i] for i in s.claims if i in night.claims]
    views = [at.view(c) for c in claims]
    doc_views = [at.view(c) for c in night.doc.claims]
    sections = [(x.line, x.label, x.title) for x in night.doc.sections]
    cfg = night.kb.config
    p = place(s.key, views, doc_views, sections, s.doc_sections, night.cards.get(s.key),
              skip_words=[night.topic, *cfg.topic_categories(night.topic)])
    entry["section"] = p.section
    entry["placed"] = {"why": p.why, "source": p.source, "detail": p.detail}
    moods = rd.moods(s.key, claims)
    entry["moods"] = moods
    entry["moved"] = next((m for m in moods if m["mood"] in MOVING), None)
    entry["requests"] = [m for m in moods if m["mood"] == "evaluate"]
    asked = {m["source"] for m in entry["requests"]}
    rating = [r for r in entry["rating"] if r["claim"]["source"] not in asked]
    when = {c.id: c.provenance.written_at or "" for c in claims}
    rating.sort(key=lambda r: when.get(r["claim"]["id"], ""), reverse=True)
    entry["rating"] = rating
    setup = rd.setup_raws(claims)
    entry["setup"] = [v for v in entry["new_values"] if v in setup]
    if entry["setup"]:
        entry["new_values"] = [v for v in entry["new_values"] if v not in setup]
        if s.rule == "doc-new-values":
            entry["detail"] = ", ".join(entry["new_values"])
    entry["secondhand_only"] = [v for v in entry["secondhand_only"] if v not in setup]
    card = night.cards.get(s.key)
    notes = rd.card_notes(card.path) if card is not None else {"limits": [], "results": []}
    shown = {c["text"] for g in entry["groups"] for c in g["claims"]}
    entry["limits"] = notes["limits"]
    entry["notes"] = [n for n in notes["results"] if not any(n["text"] in t or t in n["text"] for t in shown)]
    return entry


_LISTS = ("raws", "new_values", "secondhand_only", "contested", "setup")


def bounded(value: Any, bounds: dict[str, str]) -> Any:
    """``value`` (the context) with every listed raw value shown with its bound (``>40%``):
    lists under ``raws``, ``new_values``, ``secondhand_only``, ``contested``, ``setup``, the
    ``raw`` of a value, an increment's ``detail`` and ``row_secondhand``. Mutates in place."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in _LISTS and isinstance(v, list):
                value[k] = [bounds.get(x, x) if isinstance(x, str) else x for x in v]
            elif k == "raw" and isinstance(v, str):
                value[k] = bounds.get(v, v)
            elif k == "detail" and isinstance(v, str) and value.get("rule") in ("doc-new-values", "doc-conflict"):
                value[k] = ", ".join(bounds.get(x, x) for x in v.split(", ")) if v else v
            elif k == "row_secondhand" and isinstance(v, dict):
                value[k] = {i: [bounds.get(x, x) for x in xs] for i, xs in v.items()}
            else:
                bounded(v, bounds)
    elif isinstance(value, list):
        for v in value:
            bounded(v, bounds)
    return value
