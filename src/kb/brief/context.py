"""The render context of the E1 brief: plain dicts and lists built from one :class:`~kb.night.run.Night`.

:func:`build_context` assembles every section; the subjects of §1 (one row per fact) are made
here, the others in :mod:`kb.brief.steps` (§2 rows, §6 next steps, §7 relay actions),
:mod:`kb.brief.revised` (revised papers), :mod:`kb.brief.papers` (§3 arXiv rows, cards, candidate
numbers) and :mod:`kb.brief.snapshot` (the baseline snapshot); wording belongs to the templates.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from kb import __version__
from kb.brief.bounds import bounded
from kb.brief.papers import arxiv_entries, by_place, card_stats, collapse_offtopic, first_written, next_candidates
from kb.brief.reading import Reading, without_requests
from kb.brief.revised import revised_papers
from kb.brief.registry import INCREMENT_OUTCOMES, Registry, hm, source_of
from kb.brief.shaping import merge_tables, settle_night, shape
from kb.brief.snapshot import doc_named, held_sections, snapshot_of
from kb.brief.steps import (
    check_rows,
    conflict_entry,
    fold_steps,
    folded_steps,
    increment_action,
    next_steps,
    relay_actions,
    relay_changes,
    source_records,
)
from kb.core.claims import KINDS, Claim
from kb.facts.fact import stated_values
from kb.facts.near import NearIndex
from kb.facts.same import same_fact
from kb.night.model import OUTCOMES, SubjectOut
from kb.night.run import Night
from kb.read.livedoc import version_label

_RATING_RE = re.compile(r"[★☆]+|强候选|候选升档|升档|降级|建议补|共识候选|试金石|strong candidate|promote", re.IGNORECASE)


def _pct(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "—"


def build_context(night: Night, *, executor: str, lang: str = "zh") -> dict[str, Any]:
    """Everything ``templates/e1prep.<lang>.md.j2`` prints, for one night.

    :param executor: who runs the night (header, file name).
    :param lang: ``zh`` or ``en`` (passed through; templates hold the wording).
    :returns: a dict of plain values (str, int, list, dict), stable in order.
    """
    r = night.result
    rd = Reading(night)
    settled = settle_night(night, rd)  # first-hand cited doc values and set-up values are no secondhand-only figures
    shonly: dict[str, list[str]] = defaultdict(list)
    for claim, raw in dict.fromkeys((s.claim, s.raw) for s in r.secondhand_only):  # (a list's `in` was N² on one line)
        shonly[claim].append(raw)
    reg = Registry(dict(shonly))
    by_source: dict[str, list[Claim]] = defaultdict(list)
    for c in (*night.claims.values(), *night.doc.claims):
        by_source[f"{c.provenance.path}:{c.provenance.line}"].append(c)
    fold, increments, others = night.kb.config.brief_fold, [], []
    moved = []  # increments their author demoted (这组数只能看个趋势, 仅作线索): listed apart, not increments
    for s in r.subjects:
        entry = shape(_subject(night, s, reg, fold, rd), night, rd, s)
        if s.outcome in (*INCREMENT_OUTCOMES, "adjacent") and entry["moved"]:  # adjacent: the mood is the better reason
            moved.append(entry)
        elif s.outcome in INCREMENT_OUTCOMES:
            increments.append(entry)
        else:
            others.append(entry)
    counts = {o: r.counts.get(o, 0) - sum(e["outcome"] == o for e in moved) for o in OUTCOMES}
    increments, moved = merge_tables(increments), merge_tables(moved)
    # thin increments (net-new, no card, one row, nothing folded) are one table row each, after the others
    thin = sum(map(is_thin, increments)) >= THIN_TABLE
    increments.sort(key=lambda e: thin and is_thin(e))
    for i, e in enumerate(increments, 1):
        e["n"], e["thin"] = i, thin and is_thin(e)
    others.sort(key=_relevance)
    number = {e["key"]: e["n"] for e in increments}
    labels = {s.key: s.label for s in r.subjects}
    conflicts = [conflict_entry(i, c, labels, by_source) for i, c in enumerate(r.conflicts, 1)]
    changed = relay_changes(night)
    for c in conflicts:
        c["changed"] = [x["source"] for x in changed.get((c["subject"], c["metric"]), [])]
    files, n_claims, named = night.files, sum(src.claims for src in r.sources_checked), doc_named(night)  # named: on topic
    prev = [n for n in night.previous if n]
    avg = sum(night.previous) / len(night.previous) if prev else None
    # a judgement only when every one of the previous nights has data; else just the figures
    full = avg is not None and len(prev) == len(night.previous)
    level = None if not full else "below" if n_claims < 0.8 * avg else "above" if n_claims > 1.25 * avg else "par"
    placed = {e["key"]: e["section"] for e in (*increments, *moved, *others) if e["section"]}
    arxiv_rows = arxiv_entries(night, number, reg, placed, rd)
    titled = {e["key"]: e["label"] for e in (*increments, *moved, *others) if e["id"] and e["label"] != e["id"]}
    for a in arxiv_rows:
        a["title"] = a["title"] or titled.get(f"arxiv:{a['id']}")
    mood_of = {k: e["moved"]["mood"] for e in (*moved, *others) if e["moved"] for k in e.get("members", [e["key"]])}
    tables = {k: (e["members"][0], e["label"]) for e in increments for k in e.get("members", ())}  # demoted: no §2 row; a table: one
    verify_rows, verify_more = check_rows(night, conflicts, reg, by_source, fold, changed, set(mood_of), tables)
    rows_of = defaultdict(list)
    contested_of: dict[str, set[str]] = defaultdict(set)
    for row in verify_rows:
        if row["type"] in ("conflict-doc", "conflict-window"):
            rows_of[row["conflict"]["subject"]].append(row["n"])
            contested_of[row["conflict"]["subject"]].update(v["raw"] for c in row["conflicts"] for v in c["vals"])
    relay_of, held = {row["conflict"]["subject"]: row["relay"] for row in verify_rows if row.get("relay")}, held_sections(night, conflicts)
    for e in increments:
        e["relay"], e["fix_sections"] = relay_of.get(e["key"]), held.get(e["key"], [])
        e["action"] = increment_action(e, rows_of.get(e["key"], []), contested_of.get(e["key"], set()))
    covered, aside = [e for e in others if e["outcome"] == "covered"], _collapse_uncarded([e for e in others if e["outcome"] != "covered"])
    arxiv_shown = collapse_offtopic(arxiv_rows)
    # §3 shows every increment's id, then the first ``fold`` of the others (covered, supplement, adjacent)
    arxiv_kept = [a for a in arxiv_shown if a["n"] is not None]
    arxiv_kept += [a for a in arxiv_shown if a["n"] is None][:fold]
    arxiv_kept.sort(key=arxiv_shown.index)
    steps = next_steps(night, conflicts, increments + others, arxiv_rows)
    relay = relay_actions(increments, conflicts, {r["key"]: r["n"] for r in verify_rows if r["type"] == "secondhand"})
    incr_cards = sum(1 for e in increments if e["card"])
    # backed by a paper fact: neither secondhand only nor only first-hand cited by the doc (a blog, a repo)
    backed = r.counts.get("numbers", 0) - r.counts.get("secondhand_only", 0) - sum(settled.values())
    ctx = {
        "lang": lang, "topic": night.topic, "executor": executor, "generator": f"kb {__version__}",
        "night": night.window.label_date.isoformat(),
        "window": {"since": hm(night.window.since_iso), "until": hm(night.window.until_iso),
                   "tz": night.kb.config.timezone, "hours": f"{night.window.hours:g}"},
        "baseline": {"path": night.doc.path, "version": night.doc.version,
                     "label": version_label(night.doc.version), "updated": hm(r.baseline.get("updated")),
                     "citations": night.doc.citations,
                     "sections": sum(1 for s in night.doc.sections if s.numbered and "." not in s.number)},
        "sources": {"files": len(files), "inbox": sum(f.role == "inbox" for f in files),
                    "cards": sum(f.role == "card" for f in files), "claims": n_claims},
        "counts": counts, "outcomes": list(OUTCOMES), "moved": moved,
        "moved_count": sum(len(e.get("members", [e["key"]])) for e in moved),
        "density": {"claims": n_claims, "files": len(files), "avg": f"{avg:.1f}" if avg is not None else None,
                    "nights": len(prev), "window_nights": len(night.previous), "level": level},
        "snapshot": snapshot_of(night, increments, moved, others, named, fold),
        "increments": increments, "covered": [e["label"] for e in covered], "aside": aside[:fold],
        "aside_more": sum(len(e["members"]) for e in aside[fold:]), "others_total": len(others),
        "conflicts": conflicts,
        "verify": verify_rows, "verify_more": verify_more,
        "arxiv": arxiv_rows, "arxiv_shown": arxiv_kept,
        "arxiv_more": sum(len(a["ids"]) for a in arxiv_shown if a not in arxiv_kept),
        "doc_named": named,
        "checked": [{"path": src.path, "role": src.role, "claims": src.claims,
                     "named": (on := [d for d in named if d["path"] == src.path]), "unlisted": src.unlisted - len(on),
                     "outcomes": [{"key": k, "label": f"arXiv:{k[6:]}" if k.startswith("arxiv:") else labels[k],
                                   "outcome": o, "mood": mood_of.get(k)} for k, o in src.outcomes.items()]}
                    for src in r.sources_checked],
        "selfeval": {"increments": len(increments), "with_card": incr_cards, "pct_card": _pct(incr_cards, len(increments)),
                     "numbers": r.counts.get("numbers", 0), "backed": backed, "cited": settled["firsthand"],
                     "pct_backed": _pct(backed, r.counts.get("numbers", 0)),
                     "secondhand_only": r.counts.get("secondhand_only", 0), "ids": len(arxiv_rows),
                     "unverified": sum(1 for a in arxiv_rows if a["verified"] is None), "conflicts": len(conflicts)},
        "next": fold_steps(steps, fold), "next_more": folded_steps(steps, fold),
        "relay": [a for a in relay if a["type"] != "settle"] + [a for a in relay if a["type"] == "settle"][:fold],
        "relay_more": list(dict.fromkeys(a["n"] for a in relay if a["type"] == "settle"))[fold:],
        "revised": revised_papers(night),
        "candidates": {**next_candidates(night), "proposed": rd.proposed_candidates()},
        "card_stats": card_stats(night),
        "sources_list": [f.path for f in files],
        "source_folders": _folders(f.path for f in files),
        # the night's notes are English; a zh brief prints only those in its language (stderr has them all)
        "notes": [x for x in r.notes if lang != "zh" or re.search(r"[\u4e00-\u9fff]", x)],
        "claims": reg.items,
        "records": source_records(night, verify_rows),
    }
    return bounded(ctx, rd.bounds(english=lang == "en"))


def _facts(c: Claim) -> tuple[Any, ...]:
    """The values ``c`` states, as the brief lists rows (:func:`kb.facts.fact.stated_values`)."""
    return stated_values(c)


def carries_fact(c: Claim, key: str, rd: Reading) -> bool:
    """True when ``c``, listed under subject ``key``, says something checkable: a measured
    value or a date (:func:`_facts`), the subject's own arXiv id, or a verdict/rating (an
    ``internal-rating`` claim). Rows without any (``一份课程大纲，共 8 个模块``) are not listed
    under an increment; they are counted (``n_plain``) and stay in §4's per-file counts.
    ``rd``: the night's reading, whose ids of a claim are read once (:meth:`Reading.arxiv_keys`)."""
    if c.kind == "internal-rating" or _facts(c):
        return True
    return key.startswith("arxiv:") and key in rd.arxiv_keys(c)


def _subject(night: Night, s: SubjectOut, reg: Registry, fold: int | None, rd: Reading) -> dict[str, Any]:
    """One subject as the brief shows it: its rule, section, card, rating and fact rows (one
    row per fact; rows without a fact counted in ``n_plain``; beyond ``fold`` rows the rest
    counted in ``n_folded``, see ``kb claims --subject``)."""
    every = [night.claims[i] for i in s.claims if i in night.claims]
    # a claim whose own first subject is another one only mentions this subject in passing
    # ("★★ 建议补入 §3 … 在 vLLM/SGLang 投机解码实现里"): list it under that one, not here
    claims = [c for c in every if not c.subjects or c.subjects[0] == s.key or s.key not in rd.subject_keys(c)] or every
    rating: list[dict[str, Any]] = []
    for c in claims:
        if c.kind != "internal-rating":
            continue
        marks = [m.group(0) for m in _RATING_RE.finditer(without_requests(c.text))]
        marks += [f"HF 票 {q.raw}" for q in c.quantities if q.metric == "votes"]
        if marks:
            rating.append({"marks": " ".join(dict.fromkeys(marks)), "set": set(marks), "claim": reg.get(c),
                           "also": [], "id": c.id})
    # a rating on the rating line is no fact row too (``5 | Colibri：候选升档前先核实仓库``), unless it states a fact
    rated = {r["id"] for r in rating}
    # a rated line stating only votes (``3 | 2607.26627 | … | 118``) is the rating itself, no row
    rows = [c for c in claims if c.id not in rated or (_facts(c) and (c.dates or any(q.metric != "votes" for q in c.quantities)))]
    # about the file (论文：URL · 建卡 spark), or a verdict with neither a mark nor a value (HF 票数领先…): no rows
    meta = [c for c in rows if rd.is_metadata(c) or rd.is_opinion(c) or (c.kind == "internal-rating" and not _facts(c))]
    rows = [c for c in rows if c not in meta]
    listed, also, plain, raws, members = _one_row_per_fact(night, s.key, rows, set(rd.disputed(s.key)), rd)
    plain += len(meta)
    if fold is not None and len(listed) > fold:
        # long subjects fold: rows that state a value the doc lacks (or disputes) first, then by
        # kind (paper-facts first) and place; the rest is one line pointing at kb claims
        wanted = set(s.new_values) | set(s.detail.split(", ")) if s.outcome in INCREMENT_OUTCOMES else set()
        place = {id(c): i for i, c in enumerate(claims)}  # (list.index: quadratic, issue 24)
        ranked = sorted(listed, key=lambda c: (not wanted & raws[c.id], KINDS.index(c.kind), place[id(c)]))
        keep = set(id(c) for c in ranked[:fold])
        folded = len(listed) - fold
        listed = [c for c in listed if id(c) in keep]
    else:
        folded = 0
    groups = [{"kind": k, "claims": [reg.get(c) for c in listed if c.kind == k]} for k in KINDS]
    card = night.cards.get(s.key)
    rating = _one_rating_per_mark(rating)
    return {
        "n": None, "key": s.key, "id": s.key[6:] if s.key.startswith("arxiv:") else None, "label": s.label,
        "outcome": s.outcome, "rule": s.rule, "detail": s.detail, "reason": s.reason, "section": s.section_hint,
        "doc_sections": s.doc_sections[:4], "new_values": s.new_values, "in_window_conflict": s.in_window_conflict,
        "card": None if card is None else {
            "path": card.path, "number": card.number, "category": card.category, "also": list(card.also),
            "created": hm(card.created)},
        "rating": rating, "groups": [g for g in groups if g["claims"]], "n_claims": len(claims),
        "also": also, "n_plain": plain, "n_folded": folded,
        # a row's secondhand-only figures: those of every claim it lists (its head's alone otherwise)
        "row_secondhand": {c.id: list(dict.fromkeys(x for m in members[c.id] for x in reg.secondhand.get(m, [])))
                           for c in listed if len(members[c.id]) > 1},
        "first": reg.get(c) if (c := first_written(claims)) is not None else None,
        "secondhand_only": rd.secondhand_only(s.key),
    }


def _one_row_per_fact(night: Night, key: str, claims: list[Claim], disputed: set[str], rd: Reading
                      ) -> tuple[list[Claim], dict[str, list[dict[str, str]]], int, dict[str, set[str]],
                                 dict[str, list[str]]]:
    """The rows of subject ``key``: one per fact (issue 9). A claim whose facts about ``key``
    (:class:`kb.facts.attributor.Fact` of its Attributor view: metric, value, unit) are all stated by
    one other row — the same, or fewer — is a source of that row, its kind kept; the row keeps
    the claim stating the most, paper-facts first. Sameness is :func:`kb.facts.same.same_fact`
    (kb.facts.values at the KB's tolerance; a value no word gives a metric repeats any of that value:
    ``端到端 1.38×`` and ``1.38× end-to-end speed-up``). Claims whose facts have no number of
    ``key`` (dates, counts) are one row per equal :func:`_facts`; rows without a fact are
    counted, not listed. A claim stating a ``disputed`` raw (``>40%`` 抄错) joins the row of that metric.
    ``rd``: the night's reading (:func:`carries_fact`).

    :returns: ``(rows in claims' order, {row claim id: [{"kind", "source"}]}, plain count, {row
        claim id: raw values of every claim of the row}, {row claim id: ids of its claims, head
        first})``. A fold ranks a row by all its raw values, so a value to settle that a source
        of the row states keeps the row shown.
    """
    at = night.attributor
    tol = night.kb.config.tolerance

    def within(mine: tuple[frozenset, list[Any]], theirs: tuple[frozenset, list[Any]]) -> bool:
        # same_fact needs one unit: a row lacking one of mine's units cannot hold them (cheap test first)
        return mine[0] <= theirs[0] and all(any(same_fact(f, t, tol) for t in theirs[1]) for f in mine[1])

    # rows: (claim, its facts): (units, [Fact]) when the view has facts of ``key``, else the
    # _facts key (a tuple of tuples), else None (a rating, the subject's id: never merged); by
    # number, in order (a row taken into another is dropped). Rows are found by their values
    # (NearIndex: the rows holding a value that may be the same), not by trying each (issue 24)
    rows: dict[int, tuple[Claim, Any]] = {}
    near = NearIndex(tol)
    by_facts: dict[Any, int] = {}
    count = 0
    also: dict[str, list[dict[str, str]]] = {}
    raws: dict[str, set[str]] = {}
    members: dict[str, list[str]] = {}  # row claim id -> ids of every claim of the row
    plain = 0
    order, first = {c.id: i for i, c in enumerate(claims)}, {}  # claims' order; a row's place when it took another's
    for c in sorted(claims, key=lambda c: (KINDS.index(c.kind), any(q.raw in disputed for q in c.quantities))):
        if not carries_fact(c, key, rd):  # paper-facts first, claims stating a disputed value last
            plain += 1
            continue
        every = [f for f in at.view(c).facts if f.subject == key]
        mine, bad = [f for f in every if f.raw not in disputed] or every, [f for f in every if f.raw in disputed]
        facts: Any = (frozenset(f.unit for f in mine), mine) if mine else (_facts(c) or None)
        if bad:  # a disputed value joins the row stating that metric undisputed (the row takes its place)
            i = next((i for i, (_, fx) in rows.items() if isinstance(fx, tuple) and fx and isinstance(fx[0], frozenset) and any(
                (b.metric, b.unit) == (f.metric, f.unit) for b in bad for f in fx[1])), None)
            first.update({rows[i][0].id: min(first.get(rows[i][0].id, order[rows[i][0].id]), order[c.id])} if i is not None else {})
        elif mine:
            i = next((i for i in sorted(set.intersection(*({i for i, _ in near.near(f) if i in rows} for f in mine))) if within(facts, rows[i][1])), None)
        else:
            i = by_facts.get(facts) if facts is not None else None
        if i is not None:
            also.setdefault(rows[i][0].id, []).append({"kind": c.kind, "source": source_of(c)})
            raws[rows[i][0].id].update(q.raw for q in c.quantities)
            members[rows[i][0].id].append(c.id)
            continue
        raws[c.id] = {q.raw for q in c.quantities}
        members[c.id] = [c.id]
        cover: dict[int, set[int]] = defaultdict(set)  # a row holds mine (all near one of its) / states less (all its near one of mine)
        for i, j in (x for f in mine for x in near.near(f)):
            cover[i].add(j)
        less = [i for i in sorted(i for i, js in cover.items() if i in rows and len(js) == len(rows[i][1][1])) if within(rows[i][1], facts)]
        for r, _ in (rows.pop(i) for i in less):  # a row stating less than c: its sources become c's
            also.setdefault(c.id, []).extend([{"kind": r.kind, "source": source_of(r)}, *also.pop(r.id, [])])
            raws[c.id] |= raws.pop(r.id)
            members[c.id] += members.pop(r.id)
        seq, count = count, count + 1
        rows[seq] = (c, facts)
        for j, f in enumerate(mine):
            near.add(f, (seq, j))
        if not mine and facts is not None:
            by_facts.setdefault(facts, seq)  # a row of equal values: never merged into another, never dropped
    return sorted((c for c, _ in rows.values()), key=lambda c: first.get(c.id, order[c.id])), also, plain, raws, members


THIN_TABLE = 3
"""From this many thin increments (:func:`is_thin`) on, they are one table of rows, not blocks."""


def _one_rating_per_mark(rating: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Ratings whose marks another rating of the subject holds all of (``HF 票 118`` of an HF
    table row beside ``强候选 HF 票 118``) become further sources of that one: one rating, every
    source (issue 9: no fact twice). Order kept; the richer rating takes the place of the first."""
    out: list[dict[str, Any]] = []
    for r in rating:
        home = next((o for o in out if r["set"] <= o["set"]), None)
        if home is not None:
            home["also"].append(r["claim"])
            continue
        taken = [i for i, o in enumerate(out) if o["set"] < r["set"]]
        for i in taken:
            r["also"] += [out[i]["claim"], *out[i]["also"]]
        if taken:
            out[taken[0]] = r
            out = [o for i, o in enumerate(out) if i not in taken[1:]]
        else:
            out.append(r)
    for r in out:
        del r["set"], r["id"]
    return out


def is_thin(e: dict[str, Any]) -> bool:
    """A thin increment: net-new, no paper card, no rating, at most one fact row, nothing folded;
    the brief lists such increments as one table row each (after the full ones), not a block."""
    rows = sum(len(g["claims"]) for g in e["groups"])
    return e["outcome"] == "net-new" and e["card"] is None and not e["rating"] and rows <= 1 and not e["n_folded"]


_OTHER_ORDER = ("supplement", "covered", "adjacent")


def _relevance(entry: dict[str, Any]) -> tuple[Any, ...]:
    """Order of the non-increment subjects, most relevant first: supplement, covered, adjacent;
    within one outcome, carded before uncarded, more claims first, then the key (stable)."""
    outcome = entry["outcome"]
    rank = _OTHER_ORDER.index(outcome) if outcome in _OTHER_ORDER else len(_OTHER_ORDER)
    return rank, entry["card"] is None, -entry["n_claims"], entry["key"]


def _collapse_uncarded(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The supplement and adjacent subjects as the brief lists them, each with the rule that
    made it so (its reason not to over-read it). Uncarded off-topic subjects (rule ``no-card``)
    that one file lists together (an HF daily page) are one row naming them all; every other
    subject is a row of its own. Order is ``entries``' (most relevant first).
    :returns: rows ``{"outcome", "rule", "detail", "members": [{"label", "id"}], "card", "first", "sources"}``:
        ``sources`` the first line of each member, once each (7 papers on 7 lines cite the 7 lines)."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in entries:
        if e["rule"] == "no-card" and e["first"] is not None:
            groups[e["first"]["path"]].append(e)
    out: list[dict[str, Any]] = []
    for e in entries:
        group = groups.get(e["first"]["path"], []) if e["rule"] == "no-card" and e["first"] is not None else []
        if len(group) > 1 and e is not group[0]:
            continue
        members = group if len(group) > 1 else [e]
        out.append({"outcome": e["outcome"], "rule": e["rule"], "detail": e["detail"], "card": e["card"],
                    "first": e["first"], "members": [{"label": m["label"], "id": m["id"]} for m in members],
                    "sources": by_place({m["first"]["source"]: m["first"] for m in members if m["first"]}.values())})
    return out


def _folders(paths: Iterable[str]) -> list[dict[str, Any]]:
    """Window files by folder, for §8: ``[{"folder": "inbox/jay/", "files": [names]}]``."""
    out: dict[str, list[str]] = defaultdict(list)
    for p in paths:
        folder, _, name = p.rpartition("/")
        out[folder + "/" if folder else ""].append(name)
    return [{"folder": k, "files": v} for k, v in out.items()]
