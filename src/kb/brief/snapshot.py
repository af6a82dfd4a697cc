"""The brief's baseline snapshot (基线快照): what each section of the living doc that tonight
touches already holds, read through the night's Attributor.

What "touched" means is decided here once (:func:`reached_sections`), and the snapshot's
"untouched" line reads it: a section is touched when an increment's action points at it, a
subject the brief lists (an increment, a demoted item, a covered or supplemented subject) is
held or placed there, a window line names what it holds (:func:`doc_named`) or one of its C/O entries (``顺带回答 O45``,
``和 C32 的判断一致``) or a subject is placed by one (``活文档 O44 提到它``).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from typing import Any

from kb.night.doc_index import doc_terms, lead_term
from kb.night.run import Night

#: A C/O entry number (``C32``, ``O171``), as the living doc numbers them.
_ENTRY_RE = re.compile(r"(?<![A-Za-z0-9])([CO])(\d{2,4})(?![0-9])")
#: Outcomes of listed subjects whose doc sections count as touched (an off-topic ``adjacent``
#: subject touches nothing).
_REACHING = ("net-new", "update", "conflict", "covered", "supplement")


def touched_sections(increments: list[dict[str, Any]]) -> list[str]:
    """Doc sections tonight's increments point at (their actions' sections), once each: the
    most pointed at first, then in the order of the increments."""
    every = [sec for e in increments for sec in e["action"]["sections"]]
    first = list(dict.fromkeys(every))
    return sorted(first, key=lambda sec: (-every.count(sec), first.index(sec)))


def reached_sections(night: Night, entries: list[dict[str, Any]],
                     named: list[dict[str, Any]] = ()) -> dict[str, list[str]]:  # type: ignore[assignment]
    """Every section tonight touches (the module's definition) besides the increments' actions:
    label -> the C/O entries of it that the window names (empty when it is touched by a subject).

    :param entries: the brief's subject entries (increments, demoted items, the others), each with
        ``outcome``, ``section``, ``doc_sections`` and ``placed``.
    :param named: window lines about what the doc names (:func:`doc_named`): their sections too."""
    out: dict[str, list[str]] = {d["section"]: [] for d in named}
    for e in entries:
        if e["outcome"] not in _REACHING:
            continue
        for label in (*e["doc_sections"], e["section"]):
            if label:
                out.setdefault(label, [])
    secs = night.doc.sections
    lines = [x.line for x in secs]
    held: dict[str, str] = {}
    for n, text in enumerate(night.doc.text.splitlines(), 1):
        i = bisect_right(lines, n) - 1
        if i >= 0:
            for m in _ENTRY_RE.finditer(text):
                held.setdefault(m.group(0), secs[i].label)
    named = [e["placed"]["detail"] or "" for e in entries if e["placed"]["why"] == "open-entry"]
    for f in night.files:
        try:
            named.append((night.kb.root / f.path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
    for text in named:
        for m in _ENTRY_RE.finditer(text):
            label = held.get(m.group(0))
            if label and m.group(0) not in out.setdefault(label, []):
                out[label].append(m.group(0))
    return {k: sorted(v, key=lambda x: (x[0], int(x[1:]))) for k, v in out.items()}


_ARXIV_IN_LINE = re.compile(r"arxiv[:：]?\s*(\d{4}\.\d{4,5})", re.IGNORECASE)
_NAMED_ID = re.compile(r"(?P<name>[A-Za-z][\w.+-]{2,40})\s*[（(]\s*arxiv\s*[:：]?\s*(?P<id>\d{4}\.\d{4,5})", re.IGNORECASE)
_LATIN = re.compile(r"(?<![A-Za-z0-9./:+-])[A-Za-z][A-Za-z0-9.+-]*[A-Za-z0-9](?![A-Za-z0-9/])")
_ENTRY_NAME = re.compile(r"^[CO]\d{2,4}$")


def held_sections(night: Night, conflicts: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Subject key -> the doc sections holding the doc's side of its conflicts (the innermost
    section of each baseline line a ``living-doc`` value is stated on), in order: what a conflict's
    action corrects (SGLang's 1.8× on a §2 line: §2, not §1 where SGLang is only named)."""
    spans = sorted((x.line, -x.level, x.end_line, x.label) for x in night.doc.sections)
    out: dict[str, list[str]] = defaultdict(list)
    for c in conflicts:
        for v in c["vals"]:
            for src in v["sources"] if "living-doc" in v["origin"] else ():
                path, _, line = src.rpartition(":")
                inner = [x for x in spans if path == night.doc.path and line.isdigit() and x[0] <= int(line) <= x[2]]
                if inner and (label := max(inner)[3]) not in out[c["subject"]]:
                    out[c["subject"]].append(label)
    return dict(out)


def doc_id_names(lines: list[str]) -> dict[str, str]:
    """Names ``lines`` give bare arXiv ids: ``Name（arXiv:id）`` anywhere, else a line citing
    ids only by number whose Latin-script names (:func:`kb.night.doc_index.lead_term`'s shape,
    no C/O numbers, nothing inside a link) are as many as its ids, in order (``Leviathan 等的投机
    解码与 Chen 等的投机采样（来源：arXiv:2211.17192 · arXiv:2302.01318）``), else the name a line leads
    with for the first id it cites (``DistServe 式分离…（来源：arXiv:2401.09670 · …）``): ``{id: name}``."""
    out: dict[str, str] = {}
    for text in lines:
        for m in _NAMED_ID.finditer(text):
            if m.group("name").lower() != "arxiv":
                out.setdefault(m.group("id"), m.group("name"))
    for text in lines:
        ids = list(dict.fromkeys(_ARXIV_IN_LINE.findall(text)))
        if not ids:
            continue
        body = re.sub(r"https?://\S+|arxiv[:：]?\s*\d{4}\.\d{4,5}", " ", text, flags=re.IGNORECASE)
        found = [m.group(0) for m in _LATIN.finditer(body)]
        found = [x for x in found if lead_term(x) == x and not _ENTRY_NAME.match(x)]
        if len(found) == len(ids):
            for i, name in zip(ids, found):
                out.setdefault(i, name)
        elif found and lead_term(text.lstrip(" -*+")) == found[0]:  # the line's lead names its first source
            out.setdefault(ids[0], found[0])
    return out


def baseline_snapshot(night: Night, touched: list[str], fold: int,
                      reached: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """基线快照: what each § of the living doc that tonight touches already holds — its
    subjects and, per subject, the latest value it states per metric (the last in doc order,
    up to 3) — read from the doc's claims through the Attributor (:func:`kb.facts.query.attributor`,
    as ``kb claims`` and ``kb diff`` read them). A touched ``§1`` holds its subsections too.

    :param touched: section labels (``§1.2``), most pointed at first.
    :param fold: sections shown (the rest are named in ``touched_more``) and subjects shown per
        section (the rest are counted in ``more``).
    :param reached: the other sections tonight touches (:func:`reached_sections`) with the C/O
        entries named: never "untouched"; named in ``touched_more`` unless a shown section holds
        them or is held by them (``§1`` beside a shown ``§1.2`` is no news).
    :returns: ``{"sections": [{"label", "title", "found", "own", "subjects": [{"label", "id", "held"}],
        "more"}], "touched_more": [{"label", "entries"}], "untouched": [labels of the other
        sections holding subjects], "untouched_subjects": n, "entries": [{"label", "entries"}] (every
        section whose C/O entries the window names, for §7)}``.
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
    names = doc_id_names([*night.doc.text.splitlines(), *(c.text for c in night.claims.values())])

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
            label = at.label(ks[0])
            if paper and label in (paper[6:], f"arXiv:{paper[6:]}"):  # a bare id: the name the KB knows for it
                label = at.title(paper) or names.get(paper[6:]) or label
            entries.append({"label": label, "id": paper[6:] if paper else None, "held": vals})
        rows.append({"label": top, "title": titles.get(top), "found": top in titles, "own": own,
                     "subjects": entries[:fold], "more": max(0, len(entries) - fold)})
    reached = reached or {}
    every = list(dict.fromkeys([*touched, *reached]))
    shown = touched[:fold]
    more = [{"label": t, "entries": reached.get(t, [])} for t in every[len(shown):] if t not in shown
            and not any(inside(t, x) or inside(x, t) for x in shown)]
    # untouched: no section tonight touches holds it, no tonight's subject is held there
    every_set = set(every)
    rest = [x.label for x in secs if subjects.get(x.label) and not within(x.label, every_set)
            and not tonight & set(subjects[x.label])]
    return {"sections": rows, "touched_more": more, "untouched": rest,
            "entries": [{"label": t, "entries": e} for t, e in reached.items() if e],
            "untouched_subjects": len({k for label in rest for k in subjects[label]})}


def within(label: str, tops: set[str] | frozenset[str]) -> bool:
    """Whether a section of ``tops`` holds ``label``: ``label`` is one of them, or a ``§`` label
    below one (``§2.3`` in ``§2``; a title label holds only itself). Looked up by ``label``'s own
    prefixes, so a doc of N sections against N touched ones is linear, not N×N."""
    return label in tops or (label.startswith("§") and any(
        label[i] == "." and label[:i] in tops for i in range(len(label))))


def placed_sections(*groups: list[dict[str, Any]]) -> list[str]:
    """Sections the night's subjects (brief entries) are placed in besides the increments'
    actions: never "untouched" in the snapshot (a demoted paper still belongs to its §)."""
    return [e["section"] for es in groups for e in es if e["section"] and e["placed"]["why"] != "doc"]


def doc_named(night: Night) -> list[dict[str, Any]]:
    """Window lines about something the living doc names though no subject of the night claims
    them (:func:`kb.night.doc_index.lead_term` of the line, held by :func:`kb.night.doc_index.doc_terms`:
    ``DeepEP 新增…`` beside the doc's ``§2.9 … DeepEP``): on topic, never "不涉及本主题"; the
    brief lists them for the executor with the doc's section.

    :returns: ``[{"term", "section", "doc_line", "claim", "source", "text", "path"}]`` in file
        and line order, one per line."""
    at = night.attributor
    listed = {s.key for s in night.result.subjects}
    terms = doc_terms(night.doc.text.splitlines(), [(x.line, x.label, x.title) for x in night.doc.sections])
    out: dict[str, dict[str, Any]] = {}
    for c in sorted(night.claims.values(), key=lambda c: (c.provenance.path, c.provenance.line)):
        if any(k in listed for k in at.view(c).subjects):
            continue
        term = lead_term(c.text)
        if term is None or term not in terms:
            continue
        src = f"{c.provenance.path}:{c.provenance.line}"
        out.setdefault(src, {"term": term, "section": terms[term][0], "doc_line": f"{night.doc.path}:{terms[term][1]}",
                             "claim": c.id, "source": src, "text": c.text, "path": c.provenance.path})
    return list(out.values())


def snapshot_of(night: Night, increments: list[dict[str, Any]], moved: list[dict[str, Any]],
                others: list[dict[str, Any]], named: list[dict[str, Any]], fold: int) -> dict[str, Any]:
    """The brief's 基线快照 (:func:`baseline_snapshot`): the sections the increments' actions point
    at (:func:`touched_sections`) and the others' placements (:func:`placed_sections`) shown, every
    other section tonight touches (:func:`reached_sections`, with ``named`` from :func:`doc_named`)
    kept out of "untouched"."""
    touched = list(dict.fromkeys(touched_sections(increments) + placed_sections(increments, moved, others)))
    return baseline_snapshot(night, touched, fold, reached_sections(night, [*increments, *moved, *others], named))
