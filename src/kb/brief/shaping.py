"""The brief's judgement aids on top of the diff (issue 22): placement with its evidence, the
author's caveats (demotions move an item out of the increments), the newest rating first,
set-up values kept out of the values to add, first-hand cited doc values (the diff's ``cited``)
and set-up values kept out of "secondhand-only", a card's limits under its increment and bounds
on every listed value.

:func:`settle_night` runs once before the context is built; :func:`shape` once per subject
entry (:func:`kb.brief.context._subject`); :func:`kb.brief.bounds.bounded` once on the finished context.
"""

from __future__ import annotations

import re
from typing import Any

from kb.brief.reading import Reading
from kb.brief.registry import PAPER_KEYS
from kb.night.apart import demoted_row_claims
from kb.night.model import SubjectOut
from kb.night.placement import place
from kb.night.run import Night

#: Moods that take an item out of tonight's increments (the author said so; ``opinion``: every
#: line about it is the author's opinion, :meth:`Reading.is_opinion`).
MOVING = ("demote", "lead", "opinion")


def secondhand_split(night: Night, rd: Reading) -> tuple[list[Any], dict[str, int]]:
    """The one definition of the brief's secondhand-only figures, from the diff's
    ``secondhand_only`` (per subject, value and source): those a living-doc line citing a primary
    source states (the diff's ``cited``: :mod:`kb.facts.firsthand`), set-up values and opinions
    (:meth:`Reading.setup_raws`, :meth:`Reading.opinion_raws`) and the figures of a table row
    their author keeps out of the doc (:func:`kb.night.apart.demoted_row_claims`) are no figures
    to check. ``kb diff`` prints the same split, so its count and the brief's are one count.
    :returns: ``(kept, {"firsthand": n, "setup": n, "demoted": n})``: the kept entries, in order,
        and how many were dropped for each reason (with ``len(kept)``, the diff's count)."""
    r = night.result
    apart: dict[str, set[str]] = {}  # claim -> its set-up and opinion raws, read once (a line of N values: N items)
    for s in r.secondhand_only:
        if s.claim in night.claims and s.claim not in apart:
            c = night.claims[s.claim]
            apart[s.claim] = rd.setup_raws([c]) | rd.opinion_raws([c])
    setup = {(s.subject, s.raw) for s in r.secondhand_only if s.raw in apart.get(s.claim, ())}
    firsthand = {(s.subject, s.raw) for s in r.secondhand_only if s.cited}
    demoted = demoted_row_claims(night.kb, list(night.claims.values())) if r.secondhand_only else set()
    why = {"firsthand": 0, "setup": 0, "demoted": 0}
    kept = []
    for s in r.secondhand_only:
        key = (s.subject, s.raw)
        reason = ("setup" if key in setup else "firsthand" if key in firsthand
                  else "demoted" if s.claim in demoted else None)
        if reason is None:
            kept.append(s)
        else:
            why[reason] += 1
    return kept, why


def settle_night(night: Night, rd: Reading) -> dict[str, int]:
    """Keep in the night's secondhand-only numbers only the brief's (:func:`secondhand_split`).
    Mutates ``night.result`` (this night is the brief's own).
    :returns: ``{"firsthand": n, "setup": n, "demoted": n}``, numbers dropped (as the diff counts
        them: per subject, value and source) for each reason."""
    r = night.result
    r.secondhand_only, why = secondhand_split(night, rd)
    r.counts["secondhand_only"] = len(r.secondhand_only)
    return why


def shown_label(s: SubjectOut, rd: Reading) -> str:
    """The name a subject is shown by (brief entries, ``kb diff`` rows): the diff's label, except
    a paper known only by its id, shown by the title a window table row gives it
    (:meth:`Reading.table_title`), else by the name the window writes with its id
    (:meth:`Reading.id_names`), else by the id."""
    ident = s.key[6:] if s.key.startswith("arxiv:") else None
    if ident and s.label in (ident, f"arXiv:{ident}"):
        named = rd.id_names(s.key)
        return rd.table_title(s.key) or (named[0] if named else s.label)
    return s.label


def demotion(s: SubjectOut, night: Night, rd: Reading) -> dict[str, Any] | None:
    """The mood that takes ``s`` out of tonight's increments (:data:`MOVING`): its author's
    demotion or lead caveat (:meth:`Reading.moods`, newest first), or ``opinion`` when every
    line about it is the author's opinion; None otherwise. ``{"mood", "words", "text",
    "source" (path:line), "when"}``; the brief's 作者降级 items and ``kb diff``'s rows."""
    claims = [night.claims[i] for i in s.claims if i in night.claims]
    moved = next((m for m in rd.moods(s.key, claims) if m["mood"] in MOVING), None)
    if moved is None and claims and all(rd.is_opinion(c) for c in claims):
        c = claims[0]
        moved = {"mood": "opinion", "words": c.text, "text": c.text,
                 "source": f"{c.provenance.path}:{c.provenance.line}", "when": c.provenance.written_at or ""}
    return moved


def shape(entry: dict[str, Any], night: Night, rd: Reading, s: SubjectOut) -> dict[str, Any]:
    """Add to one subject's brief entry: ``placed`` (:func:`kb.night.placement.place`, its section
    in ``section``), ``moods`` (newest first), ``moved`` (the demoting mood, if any), ``requests``
    (evaluate and rating-hold moods not on a rating's line; those are the rating's ``asks``), ``setup`` (set-up values taken out of ``new_values``/``detail``), ``limits``
    and ``notes`` (the card's limits and non-numeric results). Ratings are ordered newest first
    (``rating[0]`` is the one in force; the others are history)."""
    at = night.attributor
    claims = [night.claims[i] for i in s.claims if i in night.claims]
    views = [at.view(c) for c in claims]
    cfg = night.kb.config
    p = place(s.key, views, rd.doc_views_of(s.key), rd.outline(), s.doc_sections, night.cards.get(s.key),
              skip_words=[night.topic, *cfg.topic_categories(night.topic)],
              block_hint=rd.block_hint(claims), names=rd.id_names(s.key))
    entry["label"] = shown_label(s, rd)
    entry["section"] = p.section
    entry["paper"] = s.key.startswith(PAPER_KEYS)  # a paper can be carded; a vendor or engine cannot
    entry["placed"] = {"why": p.why, "source": p.source, "detail": p.detail}
    moods = rd.moods(s.key, claims)
    entry["moods"] = moods
    entry["moved"] = demotion(s, night, rd)
    # a request or a rating hold on a rating's own line (``★★★ 强候选；值不值得升档请晚班判断``) keeps
    # the rating and is shown beside it; the others after the ratings
    asks = [m for m in moods if m["mood"] in ("evaluate", "hold")]
    rating = list(entry["rating"])
    when = {c.id: c.provenance.written_at or "" for c in claims}
    rating.sort(key=lambda r: when.get(r["claim"]["id"], ""), reverse=True)
    for r in rating:
        r["asks"] = [m for m in asks if m["source"] == r["claim"]["source"]]
    beside = {m["source"] for r in rating for m in r["asks"]}
    entry["requests"] = [m for m in asks if m["source"] not in beside]
    entry["rating"] = rating
    setup = rd.setup_raws(claims)
    # values only an opinion states (``选型指南（作者观点）``, ``我的判断：``) are no values to add, nor set-ups
    stated = {q.raw for c in claims if not rd.is_opinion(c) for q in c.quantities}
    opinion = rd.opinion_raws(claims) - setup - stated
    entry["setup"] = [v for v in entry["new_values"] if v in setup]
    entry["opinion"] = [v for v in entry["new_values"] if v in opinion]
    # a row stating only set-up values (``## 设置`` → ``8×H100 80GB 单节点…``) is the set-up of the
    # results, no result row: shown apart, as the condition the rows were measured under
    by_id = {c.id: c for c in claims}
    setup_rows = [c for g in entry["groups"] for c in g["claims"] if c["id"] in by_id
                  and by_id[c["id"]].quantities and {q.raw for q in by_id[c["id"]].quantities} <= rd.setup_raws([by_id[c["id"]]])]
    if setup_rows and len(setup_rows) < sum(len(g["claims"]) for g in entry["groups"]):
        gone = {c["id"] for c in setup_rows}
        entry["groups"] = [g for g in ({**g, "claims": [c for c in g["claims"] if c["id"] not in gone]}
                                       for g in entry["groups"]) if g["claims"]]
    else:
        setup_rows = []
    entry["setup_rows"] = setup_rows
    if entry["setup"] or entry["opinion"]:
        entry["new_values"] = [v for v in entry["new_values"] if v not in setup | opinion]
        if s.rule == "doc-new-values":
            entry["detail"] = ", ".join(entry["new_values"])
    entry["secondhand_only"] = [v for v in entry["secondhand_only"] if v not in setup | opinion]
    if s.rule == "doc-new-values" and not entry["new_values"] and not entry["moved"] and claims:
        # every value it would add is a set-up value or an opinion: nothing to add, listed apart
        c = next((x for x in claims if any(q.raw in setup | opinion for q in x.quantities)), claims[0])
        entry["moved"] = {"mood": "opinion" if entry["opinion"] else "setup", "words": "", "text": c.text,
                          "source": f"{c.provenance.path}:{c.provenance.line}", "when": c.provenance.written_at or ""}
    # the diff's "different setting: 11 tok/s m3ultra vs the doc's 9 tok/s m3max" (kb.night.rules),
    # its set-up values left out: ``[(window side, doc side)]`` for the 判定 line
    m = re.search(r"different setting: ([^)]*)", s.detail or "")
    pairs = [p.split(" vs the doc's ", 1) for p in (m.group(1).split("; ") if m else ())]
    entry["other_setting"] = [(a, b) for a, b in (p for p in pairs if len(p) == 2)
                              if not any(a == v or a.startswith(v + " ") for v in setup)]
    # a subject known only from rows of one table (a benchmark table): merged with its table's others
    tables = {(c.provenance.path, " / ".join(c.provenance.heading)) for c in claims if c.unit == "table-row"}
    entry["table"] = next(iter(tables)) if len(tables) == 1 and all(c.unit == "table-row" for c in claims) else None
    # a row one of whose sources states a value another line disputes: the disputed value and
    # the disputing line beside it (the row's head states the undisputed one where a source does)
    bad = rd.disputed(s.key)
    stating = {f"{c.provenance.path}:{c.provenance.line}": {q.raw for q in c.quantities} for c in claims}
    entry["row_disputed"] = {}
    for g in entry["groups"]:
        for c in g["claims"]:
            srcs = [c["source"], *(x["source"] for x in entry["also"].get(c["id"], []))]
            hit = [{"raw": raw, "by": by} for raw, by in bad.items() if any(raw in stating.get(x, ()) for x in srcs if x != by)]
            if hit:
                entry["row_disputed"][c["id"]] = hit
    card = night.cards.get(s.key)
    notes = rd.card_notes(card.path) if card is not None else {"limits": [], "results": []}
    shown = {c["text"] for g in entry["groups"] for c in g["claims"]}
    entry["limits"] = notes["limits"]
    entry["notes"] = [n for n in notes["results"] if not any(n["text"] in t or t in n["text"] for t in shown)]
    return entry


def merge_tables(increments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Net-new subjects without a card known only from rows of one window table (a benchmark
    table listing engines) are one increment, not one per row (issue 22): label ``「heading」 A / B
    / C``, their rows, secondhand-only figures and moods together; order kept (at the first)."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for e in increments:
        if e.get("table") and e["outcome"] == "net-new" and e["card"] is None:
            groups.setdefault(e["table"], []).append(e)
    out: list[dict[str, Any]] = []
    for e in increments:
        group = groups.get(e.get("table") or ("", ""), [])
        if len(group) < 2:
            out.append(e)
        elif e is group[0]:
            out.append(_merged(group))
    return out


def _merged(group: list[dict[str, Any]]) -> dict[str, Any]:
    group = sorted(group, key=lambda e: e["first"]["line"] if e["first"] else 0)  # in the table's row order
    first = group[0]
    heading = first["table"][1].rsplit(" / ", 1)[-1] or first["table"][0]
    rows: dict[str, dict[str, Any]] = {}
    for e in group:
        for g in e["groups"]:
            for c in g["claims"]:
                rows.setdefault(c["id"], c)
    kinds = list(dict.fromkeys(c["kind"] for c in rows.values()))
    return {**first, "paper": any(e["paper"] for e in group), "label": f"「{heading}」 " + " / ".join(f"arXiv:{e['id']}" if e["id"] and e["label"] == e["id"] else e["label"] for e in group), "id": None,
            "members": [e["key"] for e in group],
            "groups": [{"kind": k, "claims": [c for c in rows.values() if c["kind"] == k]} for k in kinds],
            "also": {k: v for e in group for k, v in e["also"].items()},
            "row_secondhand": {k: v for e in group for k, v in e["row_secondhand"].items()},
            "secondhand_only": list(dict.fromkeys(x for e in group for x in e["secondhand_only"])),
            "n_claims": sum(e["n_claims"] for e in group), "n_plain": sum(e["n_plain"] for e in group),
            "n_folded": sum(e["n_folded"] for e in group),
            "rating": [r for e in group for r in e["rating"]], "requests": [r for e in group for r in e["requests"]],
            "limits": [], "notes": [], "setup": [], "opinion": [], "other_setting": [],
            "row_disputed": {k: v for e in group for k, v in e.get("row_disputed", {}).items()}}
