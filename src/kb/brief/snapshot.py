"""The brief's baseline snapshot (基线快照): what each section of the living doc that tonight
touches already holds, read through the night's Attributor.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from typing import Any

from kb.night.placement import OPEN_ENTRY_RE
from kb.night.run import Night

_ENTRY_ID_RE = re.compile(r"(?<![A-Za-z0-9])[CO]\d{2,4}(?![0-9])")


def touched_sections(increments: list[dict[str, Any]]) -> list[str]:
    """Doc sections tonight's increments point at (their actions' sections), once each: the
    most pointed at first, then in the order of the increments."""
    every = [sec for e in increments for sec in e["action"]["sections"]]
    first = list(dict.fromkeys(every))
    return sorted(first, key=lambda sec: (-every.count(sec), first.index(sec)))


def baseline_snapshot(night: Night, touched: list[str], fold: int) -> dict[str, Any]:
    """基线快照: what each § of the living doc that tonight touches already holds — its
    subjects and, per subject, the latest value it states per metric (the last in doc order,
    up to 3) — read from the doc's claims through the Attributor (:func:`kb.facts.query.attributor`,
    as ``kb claims`` and ``kb diff`` read them). A touched ``§1`` holds its subsections too.

    :param touched: section labels (``§1.2``), most pointed at first.
    :param fold: sections shown (the rest are named in ``touched_more``) and subjects shown per
        section (the rest are counted in ``more``).
    :returns: ``{"sections": [{"label", "title", "found", "own", "subjects": [{"label", "id", "held"}],
        "more"}], "untouched": [labels of the other sections holding subjects], "untouched_subjects": n}``.
        A name and its id (one Attributor group) are one subject, labelled by
        :meth:`kb.facts.attributor.Attributor.label` with the id; the subject the section's title
        names is not repeated: ``own`` holds its values (None: the title names no subject held
        there), so ``§2.2 H2O（arXiv:2306.14048）`` reads ``5×``, not ``H2O（arXiv:2306.14048）（5×）``.
    """
    at = night.attributor
    at.learn([*night.claims.values(), *night.doc.claims])
    secs = night.doc.sections
    lines = [x.line for x in secs]
    subjects: dict[str, list[str]] = defaultdict(list)
    values: dict[str, dict[str, dict[tuple[Any, ...], str]]] = defaultdict(lambda: defaultdict(dict))
    for c in sorted(night.doc.claims, key=lambda c: c.provenance.line):
        i = bisect_right(lines, c.provenance.line) - 1
        if i < 0:
            continue
        label, v = secs[i].label, at.view(c)
        for key in dict.fromkeys((*v.leads, *v.subjects)):
            if key not in subjects[label]:
                subjects[label].append(key)
        for f in v.facts:
            held = values[label][f.subject]
            held.pop((f.metric, f.qualifier), None)  # the latest statement last
            held[(f.metric, f.qualifier)] = f.raw
    tonight = {s.key for s in night.result.subjects}
    titles = {x.label: x.title for x in secs}

    def inside(label: str, top: str) -> bool:
        return label == top or (top.startswith("§") and label.startswith(top + "."))

    rows = []
    for top in touched[:fold]:
        keys: list[str] = []
        held: dict[str, dict[tuple[Any, ...], str]] = defaultdict(dict)
        for x in secs:
            if inside(x.label, top):
                for key in subjects.get(x.label, []):
                    if key not in keys:
                        keys.append(key)
                    held[key].update(values.get(x.label, {}).get(key, {}))
        keys.sort(key=lambda k: k not in tonight)  # stable: tonight's subjects first
        # a name and its id are one subject (Attributor groups): one entry, the name with the id
        members: dict[str, list[str]] = {}
        for k in keys:
            members.setdefault(at.group(k), []).append(k)
        own_groups = {at.group(k) for k in at.names_in(titles.get(top) or "")}
        entries, own = [], None
        for g, ks in members.items():
            vals = list(dict.fromkeys(v for k in ks for v in held[k].values()))[-3:]
            if g in own_groups:  # the section's own subject: its title names it already
                own = (own or []) + [v for v in vals if v not in (own or [])]
                continue
            paper = next((k for k in ks if k.startswith("arxiv:")), None)
            entries.append({"label": at.label(ks[0]), "id": paper[6:] if paper else None, "held": vals})
        rows.append({"label": top, "title": titles.get(top), "found": top in titles, "own": own,
                     "subjects": entries[:fold], "more": max(0, len(entries) - fold)})
    named = _named_entries(night)
    # untouched: no tonight's subject held there, no entry of it (C32, O44) named by a window line
    rest = [x.label for x in secs if subjects.get(x.label) and not any(inside(x.label, t) for t in touched)
            and not tonight & set(subjects[x.label]) and x.label not in named]
    return {"sections": rows, "touched_more": touched[fold:], "untouched": rest,
            "untouched_subjects": len({k for label in rest for k in subjects[label]})}


def _named_entries(night: Night) -> set[str]:
    """Labels of the doc sections holding an open entry (``C32 …``, ``O44 …``) whose id a window
    claim names (``和 C32 的判断一致``, ``顺带回答 O45``)."""
    said = {m.group(0) for c in night.claims.values() for m in _ENTRY_ID_RE.finditer(c.text)}
    if not said:
        return set()
    out: set[str] = set()
    for n, line in enumerate(night.doc.text.split("\n"), 1):
        m = OPEN_ENTRY_RE.match(line)
        if m and m.group("id") in said and (sec := night.doc.section_at(n)) is not None:
            out.add(sec.label)
    return out


def placed_sections(*groups: list[dict[str, Any]]) -> list[str]:
    """Sections the night's subjects (brief entries) are placed in besides the increments'
    actions: never "untouched" in the snapshot (a demoted paper still belongs to its §)."""
    return [e["section"] for es in groups for e in es if e["section"] and e["placed"]["why"] != "doc"]
