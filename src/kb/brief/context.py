"""The render context of the E1 brief: plain dicts and lists built from one :class:`~kb.night.run.Night`.

Every value a template prints comes from here, in a deterministic order; wording (zh/en)
belongs to the templates. Every claim a template may print is also in ``claims`` (1-based
``i``), so an undefined attribute can be reported with its claim index (CASES.md C15).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from kb import __version__
from kb.core.claims import KINDS, Claim
from kb.extract.titles import title_similarity
from kb.facts.fact import stated_values
from kb.night.model import OUTCOMES, SubjectOut
from kb.night.run import Night

INCREMENT_OUTCOMES = ("net-new", "update", "conflict")
_RATING_RE = re.compile(r"[★☆]+|强候选|候选升档|升档|降级|建议补|共识候选|试金石|strong candidate|promote", re.IGNORECASE)


def _hm(iso: str | None) -> str | None:
    """``2026-07-31T05:00:00+08:00`` -> ``2026-07-31 05:00``."""
    return iso[:16].replace("T", " ") if iso else None


def _pct(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "—"


class _Registry:
    """Claim dicts, numbered in the order the brief first uses them."""

    def __init__(self, secondhand: dict[str, list[str]]) -> None:
        self.items: list[dict[str, Any]] = []
        self._by_id: dict[str, dict[str, Any]] = {}
        self.secondhand = secondhand

    def get(self, c: Claim) -> dict[str, Any]:
        if c.id not in self._by_id:
            p = c.provenance
            d = {"i": len(self.items) + 1, "id": c.id, "kind": c.kind, "text": c.text, "path": p.path,
                 "line": p.line, "source": f"{p.path}:{p.line}", "secondhand_only": self.secondhand.get(c.id, [])}
            self.items.append(d)
            self._by_id[c.id] = d
        return self._by_id[c.id]


def build_context(night: Night, *, executor: str, lang: str = "zh") -> dict[str, Any]:
    """Everything ``templates/e1prep.<lang>.md.j2`` prints, for one night.

    :param executor: who runs the night (header, file name).
    :param lang: ``zh`` or ``en`` (passed through; templates hold the wording).
    :returns: a dict of plain values (str, int, list, dict), stable in order.
    """
    r = night.result
    shonly: dict[str, list[str]] = defaultdict(list)
    for s in r.secondhand_only:
        if s.raw not in shonly[s.claim]:
            shonly[s.claim].append(s.raw)
    reg = _Registry(dict(shonly))
    by_source: dict[str, list[Claim]] = defaultdict(list)
    for c in (*night.claims.values(), *night.doc.claims):
        by_source[f"{c.provenance.path}:{c.provenance.line}"].append(c)

    fold = night.kb.config.brief_fold
    increments, others = [], []
    for s in r.subjects:
        entry = _subject(night, s, reg, fold)
        if s.outcome in INCREMENT_OUTCOMES:
            increments.append(entry)
        else:
            others.append(entry)
    # thin increments (net-new, no card, one row, nothing folded) are one table row each, after the others
    thin = sum(map(is_thin, increments)) >= THIN_TABLE
    increments.sort(key=lambda e: thin and is_thin(e))
    for i, e in enumerate(increments, 1):
        e["n"], e["thin"] = i, thin and is_thin(e)
    others.sort(key=_relevance)
    number = {e["key"]: e["n"] for e in increments}
    labels = {s.key: s.label for s in r.subjects}
    conflicts = [_conflict(i, c, labels, by_source) for i, c in enumerate(r.conflicts, 1)]
    changed = _relay_changes(night)
    for c in conflicts:
        c["changed"] = [x["source"] for x in changed.get((c["subject"], c["metric"]), [])]
    files = night.files
    n_claims = sum(src.claims for src in r.sources_checked)
    prev = [n for n in night.previous if n]
    avg = sum(night.previous) / len(night.previous) if prev else None
    # a judgement only when every one of the previous nights has data; else just the figures
    full = avg is not None and len(prev) == len(night.previous)
    level = None if not full else "below" if n_claims < 0.8 * avg else "above" if n_claims > 1.25 * avg else "par"
    arxiv_rows = _arxiv_rows(night, number, reg)
    verify_rows, verify_more = _verify_rows(night, conflicts, reg, by_source, fold, changed)
    rows_of = defaultdict(list)
    contested_of: dict[str, set[str]] = defaultdict(set)
    for row in verify_rows:
        if row["type"] in ("conflict-doc", "conflict-window"):
            rows_of[row["conflict"]["subject"]].append(row["n"])
            contested_of[row["conflict"]["subject"]].update(v["raw"] for c in row["conflicts"] for v in c["vals"])
    for e in increments:
        e["action"] = _action(e, rows_of.get(e["key"], []), contested_of.get(e["key"], set()))
    covered = [e for e in others if e["outcome"] == "covered"]
    aside = _collapse_uncarded([e for e in others if e["outcome"] != "covered"])
    arxiv_shown = _collapse_offtopic(arxiv_rows)
    # §3 shows every increment's id, then the first ``fold`` of the others (covered, supplement, adjacent)
    arxiv_kept = [a for a in arxiv_shown if a["n"] is not None]
    arxiv_kept += [a for a in arxiv_shown if a["n"] is None][:fold]
    arxiv_kept.sort(key=arxiv_shown.index)
    steps = _next_steps(night, conflicts, increments + others, arxiv_rows)
    relay = _relay(increments, conflicts)
    incr_cards = sum(1 for e in increments if e["card"])
    backed = r.counts.get("numbers", 0) - r.counts.get("secondhand_only", 0)
    return {
        "lang": lang, "topic": night.topic, "executor": executor, "generator": f"kb {__version__}",
        "night": night.window.label_date.isoformat(),
        "window": {"since": _hm(night.window.since_iso), "until": _hm(night.window.until_iso),
                   "tz": night.kb.config.timezone, "hours": f"{night.window.hours:g}"},
        "baseline": {"path": night.doc.path, "version": night.doc.version, "updated": _hm(r.baseline.get("updated")),
                     "citations": night.doc.citations,
                     "sections": sum(1 for s in night.doc.sections if s.numbered and "." not in s.number)},
        "sources": {"files": len(files), "inbox": sum(f.role == "inbox" for f in files),
                    "cards": sum(f.role == "card" for f in files), "claims": n_claims},
        "counts": {o: r.counts.get(o, 0) for o in OUTCOMES}, "outcomes": list(OUTCOMES),
        "density": {"claims": n_claims, "files": len(files), "avg": f"{avg:.1f}" if avg is not None else None,
                    "nights": len(prev), "window_nights": len(night.previous), "level": level},
        "snapshot": baseline_snapshot(night, _touched(increments), fold),
        "increments": increments, "covered": [e["label"] for e in covered], "aside": aside[:fold],
        "aside_more": sum(len(e["members"]) for e in aside[fold:]), "others_total": len(others),
        "conflicts": conflicts,
        "verify": verify_rows, "verify_more": verify_more,
        "arxiv": arxiv_rows, "arxiv_shown": arxiv_kept,
        "arxiv_more": sum(len(a["ids"]) for a in arxiv_shown if a not in arxiv_kept),
        "checked": [{"path": src.path, "role": src.role, "claims": src.claims, "unlisted": src.unlisted,
                     "outcomes": [{"key": k, "label": f"arXiv:{k[6:]}" if k.startswith("arxiv:") else labels[k],
                                   "outcome": o} for k, o in src.outcomes.items()]}
                    for src in r.sources_checked],
        "selfeval": {"increments": len(increments), "with_card": incr_cards, "pct_card": _pct(incr_cards, len(increments)),
                     "numbers": r.counts.get("numbers", 0), "backed": backed,
                     "pct_backed": _pct(backed, r.counts.get("numbers", 0)),
                     "secondhand_only": r.counts.get("secondhand_only", 0), "ids": len(arxiv_rows),
                     "unverified": sum(1 for a in arxiv_rows if a["verified"] is None), "conflicts": len(conflicts)},
        "next": _fold_steps(steps, fold), "next_more": _folded_steps(steps, fold),
        "relay": [a for a in relay if a["type"] != "settle"] + [a for a in relay if a["type"] == "settle"][:fold],
        "relay_more": list(dict.fromkeys(a["n"] for a in relay if a["type"] == "settle"))[fold:],
        "revised": _revised(night),
        "candidates": next_candidates(night),
        "card_stats": _card_stats(night),
        "sources_list": [f.path for f in files],
        "source_folders": _folders(f.path for f in files),
        "notes": list(r.notes),
        "claims": reg.items,
    }


def _facts(c: Claim) -> tuple[Any, ...]:
    """The values ``c`` states, as the brief lists rows (:func:`kb.facts.fact.stated_values`)."""
    return stated_values(c)


def carries_fact(c: Claim, key: str) -> bool:
    """True when ``c``, listed under subject ``key``, says something checkable: a measured
    value or a date (:func:`_facts`), the subject's own arXiv id, or a verdict/rating (an
    ``internal-rating`` claim). Rows without any (``一份课程大纲，共 8 个模块``) are not listed
    under an increment; they are counted (``n_plain``) and stay in §4's per-file counts."""
    if c.kind == "internal-rating" or _facts(c):
        return True
    return key.startswith("arxiv:") and any(a.key == key for a in c.arxiv)


def _subject(night: Night, s: SubjectOut, reg: _Registry, fold: int | None = None) -> dict[str, Any]:
    """One subject as the brief shows it: its rule, section, card, rating and fact rows (one
    row per fact; rows without a fact counted in ``n_plain``; beyond ``fold`` rows the rest
    counted in ``n_folded``, see ``kb claims --subject``)."""
    every = [night.claims[i] for i in s.claims if i in night.claims]
    # a claim whose own first subject is another one only mentions this subject in passing
    # ("★★ 建议补入 §3 … 在 vLLM/SGLang 投机解码实现里"): list it under that one, not here
    claims = [c for c in every if not c.subjects or c.subjects[0] == s.key or s.key not in c.subjects] or every
    rating: list[dict[str, Any]] = []
    for c in claims:
        if c.kind != "internal-rating":
            continue
        marks = [m.group(0) for m in _RATING_RE.finditer(c.text)]
        marks += [f"HF 票 {q.raw}" for q in c.quantities if q.metric == "votes"]
        if marks:
            rating.append({"marks": " ".join(dict.fromkeys(marks)), "set": set(marks), "claim": reg.get(c),
                           "also": [], "id": c.id})
    # a rating on the rating line is no fact row too (``5 | Colibri：候选升档前先核实仓库``), unless it states a fact
    rated = {r["id"] for r in rating}
    rows = [c for c in claims if c.id not in rated or _facts(c)]
    listed, also, plain, raws, members = _one_row_per_fact(night, s.key, rows)
    if fold is not None and len(listed) > fold:
        # long subjects fold: rows that state a value the doc lacks (or disputes) first, then by
        # kind (paper-facts first) and place; the rest is one line pointing at kb claims
        wanted = set(s.new_values) | set(s.detail.split(", ")) if s.outcome in INCREMENT_OUTCOMES else set()
        ranked = sorted(listed, key=lambda c: (not wanted & raws[c.id],
                                               KINDS.index(c.kind), claims.index(c)))
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
            "created": _hm(card.created)},
        "rating": rating, "groups": [g for g in groups if g["claims"]], "n_claims": len(claims),
        "also": also, "n_plain": plain, "n_folded": folded,
        # a row's secondhand-only figures: those of every claim it lists (its head's alone otherwise)
        "row_secondhand": {c.id: list(dict.fromkeys(x for m in members[c.id] for x in reg.secondhand.get(m, [])))
                           for c in listed if len(members[c.id]) > 1},
        "first": reg.get(claims[0]) if claims else None,
        "secondhand_only": list(dict.fromkeys(x.raw for x in night.result.secondhand_only if x.subject == s.key)),
    }


def _one_row_per_fact(night: Night, key: str, claims: list[Claim]
                      ) -> tuple[list[Claim], dict[str, list[dict[str, str]]], int, dict[str, set[str]],
                                 dict[str, list[str]]]:
    """The rows of subject ``key``: one per fact (issue 9). A claim whose facts about ``key``
    (:class:`kb.facts.attributor.Fact` of its Attributor view: metric, value, unit) are all stated by
    one other row — the same, or fewer — is a source of that row, its kind kept; the row keeps
    the claim stating the most, paper-facts first. Sameness is :func:`kb.facts.same.same_fact`
    (kb.facts.values at the KB's tolerance; a value no word gives a metric repeats any of that value:
    ``端到端 1.38×`` and ``1.38× end-to-end speed-up``). Claims whose facts have no number of
    ``key`` (dates, counts) are one row per equal :func:`_facts`; rows without a fact are
    counted, not listed.

    :returns: ``(rows in claims' order, {row claim id: [{"kind", "source"}]}, plain count, {row
        claim id: raw values of every claim of the row}, {row claim id: ids of its claims, head
        first})``. A fold ranks a row by all its raw values, so a value to settle that a source
        of the row states keeps the row shown.
    """
    from kb.facts.query import attributor
    from kb.facts.same import same_fact

    at = night.attributor or attributor(night.kb)
    tol = night.kb.config.tolerance

    def within(mine: tuple[frozenset, list[Any]], theirs: tuple[frozenset, list[Any]]) -> bool:
        # same_fact needs one unit: a row lacking one of mine's units cannot hold them (cheap test first)
        return mine[0] <= theirs[0] and all(any(same_fact(f, t, tol) for t in theirs[1]) for f in mine[1])

    # rows: (claim, its facts): (units, [Fact]) when the view has facts of ``key``, else the
    # _facts key (a tuple of tuples), else None (a rating, the subject's id: never merged)
    rows: list[tuple[Claim, Any]] = []
    also: dict[str, list[dict[str, str]]] = {}
    raws: dict[str, set[str]] = {}
    members: dict[str, list[str]] = {}  # row claim id -> ids of every claim of the row
    plain = 0
    for c in sorted(claims, key=lambda c: KINDS.index(c.kind)):  # paper-facts first
        if not carries_fact(c, key):
            plain += 1
            continue
        mine = [f for f in at.view(c).facts if f.subject == key]
        facts: Any = (frozenset(f.unit for f in mine), mine) if mine else (_facts(c) or None)
        numbers = bool(mine)

        def same(fs: Any) -> bool:
            if facts is None or fs is None or numbers != isinstance(fs[-1], list):
                return False
            return within(facts, fs) if numbers else facts == fs

        i = next((i for i, (_, fs) in enumerate(rows) if same(fs)), None)
        if i is not None:
            also.setdefault(rows[i][0].id, []).append({"kind": c.kind, "source": _source(c)})
            raws[rows[i][0].id].update(q.raw for q in c.quantities)
            members[rows[i][0].id].append(c.id)
            continue
        raws[c.id] = {q.raw for q in c.quantities}
        members[c.id] = [c.id]
        less = [x for x in rows if numbers and x[1] is not None and isinstance(x[1][-1], list) and within(x[1], facts)]
        for r, _ in less:  # a row stating less than c: its sources become c's
            also.setdefault(c.id, []).extend([{"kind": r.kind, "source": _source(r)}, *also.pop(r.id, [])])
            raws[c.id] |= raws.pop(r.id)
            members[c.id] += members.pop(r.id)
        if less:
            rows = [x for x in rows if not any(x is y for y in less)]
        rows.append((c, facts))
    order = {c.id: i for i, c in enumerate(claims)}
    return sorted((c for c, _ in rows), key=lambda c: order[c.id]), also, plain, raws, members


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
    """A thin increment: net-new, no paper card, no rating, at most one fact row and nothing
    folded. The brief lists such increments as one table row each (after the full ones)
    instead of a block: they are all "build a card first"."""
    rows = sum(len(g["claims"]) for g in e["groups"])
    return (e["outcome"] == "net-new" and e["card"] is None and not e["rating"] and rows <= 1
            and not e["n_folded"])


def _source(c: Claim) -> str:
    return f"{c.provenance.path}:{c.provenance.line}"


_OTHER_ORDER = ("supplement", "covered", "adjacent")


def _relevance(entry: dict[str, Any]) -> tuple[Any, ...]:
    """Order of the non-increment subjects in the brief, most relevant to the topic first:
    supplement, then covered, then adjacent; within one outcome, carded before uncarded,
    more claims first, then the key (stable)."""
    outcome = entry["outcome"]
    rank = _OTHER_ORDER.index(outcome) if outcome in _OTHER_ORDER else len(_OTHER_ORDER)
    return rank, entry["card"] is None, -entry["n_claims"], entry["key"]


def _urls(claims: Iterable[Claim]) -> list[str]:
    return list(dict.fromkeys(u for c in claims for u in c.sources if u.startswith("http")))


def _conflict(n: int, c: Any, labels: dict[str, str], by_source: dict[str, list[Claim]]) -> dict[str, Any]:
    values = [{"raw": v.raw, "kinds": v.kinds, "sources": v.sources, "origin": v.origin} for v in c.values]
    claims = [x for v in c.values for src in v.sources for x in by_source.get(src, [])]
    return {"n": n, "subject": c.subject, "label": labels.get(c.subject, c.subject), "metric": c.metric,
            "qualifier": c.qualifier, "against": c.against, "vals": values, "urls": _urls(claims)}


def _relay_changes(night: Night) -> dict[tuple[str, str | None], list[dict[str, str]]]:
    """Where the values of the conflicts and secondhand-only numbers changed along relays
    (:func:`kb.facts.relay.changes`, among the window's and the living doc's claims and the files
    they cite): ``(subject, metric)`` -> ``[{"source", "raw", "from"}]``."""
    r = night.result
    wanted = [(c.subject, c.metric) for c in r.conflicts]
    wanted += [(s.subject, s.metric) for s in r.secondhand_only if s.metric]
    if not wanted:
        return {}
    from kb.facts.query import attributor
    from kb.facts.relay import changes

    return changes(night.kb, night.attributor or attributor(night.kb), [*night.claims.values(), *night.doc.claims], wanted)


def _verify_rows(night: Night, conflicts: list[dict[str, Any]], reg: _Registry,
                 by_source: dict[str, list[Claim]], fold: int | None = None,
                 changed: dict[tuple[str, str | None], list[dict[str, str]]] | None = None,
                 ) -> tuple[list[dict[str, Any]], int]:
    """Section 2 rows: conflicts (one row per subject, each metric it conflicts on), secondhand-only
    numbers per subject, mistyped ids; and how
    many secondhand-only rows were folded away. Conflicts and mistyped ids are always
    listed; of the secondhand-only rows the first ``fold`` are, increments' subjects first
    (then arXiv ids, then by key). Each row's ``changed``: the ``path:line`` where one of its
    values changed along a relay (:mod:`kb.facts.relay`), for conflicts those of its subject and
    metric, for secondhand-only rows those among its own sources."""
    changed = changed or {}
    rows: list[dict[str, Any]] = []
    by_subject: dict[str, list[dict[str, Any]]] = {}
    for c in conflicts:
        by_subject.setdefault(c["subject"], []).append(c)
    for cs in by_subject.values():  # one row per subject: every metric it conflicts on, in order
        kind = "conflict-doc" if any("living-doc" in c["against"] for c in cs) else "conflict-window"
        srcs = list({(x["kind"], x["source"]): x for x in (
            {"kind": "/".join(v["kinds"]), "source": s, "raw": v["raw"]}
            for c in cs for v in c["vals"] for s in v["sources"])}.values())
        rows.append({"type": kind, "conflict": cs[0], "conflicts": cs, "sources": srcs,
                     "urls": list(dict.fromkeys(u for c in cs for u in c["urls"])),
                     "changed": list(dict.fromkeys(x for c in cs for x in c.get("changed", [])))})
    # a value already in its subject's conflict row is settled there, not listed again below
    in_conflict = {(c["subject"], c["metric"], v["raw"]) for c in conflicts for v in c["vals"]}
    per: dict[str, list[Any]] = defaultdict(list)
    for s in night.result.secondhand_only:
        if (s.subject, s.metric, s.raw) not in in_conflict:
            per[s.subject].append(s)
    labels = {s.key: s.label for s in night.result.subjects}
    increments = {s.key for s in night.result.subjects if s.outcome in INCREMENT_OUTCOMES}
    keys = sorted(per, key=lambda k: (k not in increments, not k.startswith("arxiv:"), k))
    folded = max(0, len(keys) - fold) if fold is not None else 0
    records = _records(night) if keys else {}
    for key in keys[:len(keys) - folded]:
        items = per[key]
        claims = [x for s in items for x in by_source.get(s.source, []) if x.id == s.claim]
        authors = list(dict.fromkeys(x.provenance.author for x in claims if x.provenance.author))
        mine = {s.source for s in items}
        moved = [x["source"] for s in items for x in changed.get((key, s.metric), []) if x["source"] in mine]
        rows.append({"type": "secondhand", "key": key, "label": labels.get(key, key), "changed": list(dict.fromkeys(moved)),
                     "id": key[6:] if key.startswith("arxiv:") else None,
                     "raws": list(dict.fromkeys(s.raw for s in items)),
                     "sources": [{"kind": "secondhand", "source": src, "raw": ""} for src in dict.fromkeys(s.source for s in items)],
                     "urls": _urls(claims), "records": [records[a] for a in authors if a in records]})
    for m in night.result.id_mismatches:
        card = night.cards.get(m.card_subject)
        rows.append({"type": "id-mismatch", "name": m.name, "cited": m.cited[6:], "card_id": m.card_subject[6:],
                     "card": card.number if card else None,
                     "sources": [{"kind": x.kind, "source": m.source, "raw": ""} for x in by_source.get(m.source, [])[:1]],
                     "urls": [], "changed": []})
    for i, row in enumerate(rows, 1):
        row["n"] = i
        for c in row.get("conflicts", ()):
            c["row"] = i  # the §2 row that lists this conflict
    return rows, folded


def _records(night: Night) -> dict[str, dict[str, Any]]:
    """Each author's record in the source ledger of the night (:func:`kb.night.ledger.brief_ledger`):
    author -> ``{"source", "numbers", "contradicted", "en", "zh"}`` (``jay: 41 numbers, 3
    contradicted by the doc or a paper`` / ``jay：41 个数字，3 个与活文档/论文不符``)."""
    from kb.night.ledger import brief_ledger, record_line

    ledger = brief_ledger(night)
    return {r.source: {"source": r.source, "numbers": r.numbers, "contradicted": r.contradicted,
                       "en": record_line(r, "en"), "zh": record_line(r, "zh")}
            for r in ledger.records if r.type == "author"}


def _arxiv_rows(night: Night, number: dict[str, int], reg: _Registry) -> list[dict[str, Any]]:
    """§3 rows, one per arXiv subject. Its title (论文/主题): the card's; else the arXiv
    cache's; else a title the KB knows (:meth:`kb.facts.attributor.Attributor.title`: a link text
    ``[Title](https://arxiv.org/abs/…)``); else the subject's label when it is a name, not the
    bare id (``CacheGen``, ``H2O``); else None (``—``)."""
    at = night.attributor
    rows = []
    for s in night.result.subjects:
        if not s.key.startswith("arxiv:"):
            continue
        arxiv_id = s.key[6:]
        hit = night.kb.store.cache_get(arxiv_id)
        card = night.cards.get(s.key)
        arxiv_title = (hit[2] or {}).get("title") if hit else None
        state = hit[1] if hit else None
        if state == "found" and card is not None and arxiv_title:
            state = ("found" if title_similarity(card.title, arxiv_title) >= night.kb.config.arxiv.title_threshold
                     else "title-mismatch")
        first = next((night.claims[i] for i in s.claims if i in night.claims), None)
        rows.append({
            "id": arxiv_id, "arxiv_title": arxiv_title,
            "title": s.label if card else (arxiv_title or (at.title(s.key) if at is not None else None)
                                           or (s.label if s.label != arxiv_id else None)),
            "outcome": s.outcome, "n": number.get(s.key), "section": s.section_hint,
            "card": card.number or card.path if card else None, "card_path": card.path if card else None,
            "verified": state, "fetched": hit[0][:10] if hit else None,
            "first": reg.get(first) if first else None,
        })
    return rows


def _collapse_offtopic(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """§3 rows as shown: the off-topic ids (``adjacent``) without a card that one file lists
    together (an HF daily page of 7 papers) become one row naming them all (``ids``), at the
    place of the first; every other row keeps ``ids == [id]``. Counts use the full rows."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for a in rows:
        if a["outcome"] == "adjacent" and a["card"] is None and a["first"] is not None and a["n"] is None:
            groups[a["first"]["path"]].append(a)
    out: list[dict[str, Any]] = []
    for a in rows:
        group = groups.get(a["first"]["path"]) if a["first"] is not None else None
        if group is None or len(group) < 2 or a not in group:
            out.append({**a, "ids": [a["id"]]})
        elif a is group[0]:
            out.append({**a, "ids": [g["id"] for g in group]})
    return out


def _next_steps(night: Night, conflicts: list[dict[str, Any]], subjects: list[dict[str, Any]],
                arxiv_rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Section 6: the smallest set of checks that settles tonight's open items: each conflict,
    the secondhand-only figures of each increment, and one ``kb verify`` line."""
    steps: list[dict[str, Any]] = []
    for c in conflicts:
        steps.append({"type": "conflict", "label": c["label"], "metric": c["metric"],
                      "raws": [v["raw"] for v in c["vals"]], "urls": c["urls"],
                      "sources": [s for v in c["vals"] for s in v["sources"]]})
    for s in subjects:
        if not s["secondhand_only"] or s["outcome"] not in INCREMENT_OUTCOMES:
            continue  # the other subjects' secondhand-only figures stay listed in §2
        if s["id"]:
            steps.append({"type": "paper", "label": s["label"], "id": s["id"], "raws": s["secondhand_only"]})
        else:
            steps.append({"type": "source", "label": s["label"], "raws": s["secondhand_only"],
                          "urls": _urls(night.claims[i] for i in _claim_ids(s) if i in night.claims)})
    # ids of increments not verified yet, ids verify already found wrong, mistyped ids
    todo = [a["id"] for a in arxiv_rows
            if a["verified"] != "found" and (a["outcome"] in INCREMENT_OUTCOMES or a["verified"])]
    todo += [m.cited[6:] for m in night.result.id_mismatches]
    if todo:
        steps.append({"type": "verify", "ids": list(dict.fromkeys(todo))})
    return steps


_CANDIDATE_RE = re.compile(r"(?<![A-Za-z0-9])([CO])(\d{2,5})(?![\d.])")


def next_candidates(night: Night) -> dict[str, int]:
    """The next free 共识候选 (``C<n>``) and 试金石 (``O<n>``) numbers: one more than the
    highest written in the living document or in any claim of the window (``C116``, ``O172``
    → ``{"C": 117, "O": 173}``); 1 when none is written yet."""
    texts = [night.doc.text, *(c.text for c in night.claims.values())]
    high = {"C": 0, "O": 0}
    for text in texts:
        for m in _CANDIDATE_RE.finditer(text):
            high[m.group(1)] = max(high[m.group(1)], int(m.group(2)))
    return {k: v + 1 for k, v in high.items()}


def _card_stats(night: Night) -> dict[str, Any]:
    """Cards created in the window by main category (卡片主分类) and by secondary category
    (``also``): ``{"total": n, "main": [{"category", "cards"}], "also": [...]}``, categories
    by count then name, card numbers (or paths) in order."""
    main: dict[str, list[str]] = defaultdict(list)
    also: dict[str, list[str]] = defaultdict(list)
    written = {f.path for f in night.files if f.role == "card"}  # once, not once per card of the KB
    new = [c for c in night.cards.values() if c.path in written]
    for card in sorted(new, key=lambda c: c.path):
        name = card.number or card.path
        main[card.category or "—"].append(name)
        for cat in card.also:
            also[cat].append(name)

    def rows(d: dict[str, list[str]]) -> list[dict[str, Any]]:
        return [{"category": k, "cards": v} for k, v in sorted(d.items(), key=lambda kv: (-len(kv[1]), kv[0]))]

    return {"total": len(new), "main": rows(main), "also": rows(also)}


def _relay(increments: list[dict[str, Any]], conflicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """建议今晚活文档接力动作: one line per increment (what goes into which § of the doc), one
    for all thin increments (write their cards), and one per conflict not already an
    increment's own (which values to settle, its §2 row)."""
    out: list[dict[str, Any]] = [
        {"type": e["outcome"], "n": e["n"], "label": e["label"], "id": e["id"], "section": e["section"],
         "new_values": e["action"]["raws"] if e["outcome"] == "update" else e["new_values"],
         "contested": e["action"]["contested"], "rows": e["action"]["rows"],
         "doc_sections": e["doc_sections"], "card": e["card"] is not None}
        for e in increments if not e["thin"]]
    thin = [e["n"] for e in increments if e["thin"]]
    if thin:  # the thin increments are all "write a card first": one line for them
        out.append({"type": "cards", "n": thin[0], "last": thin[-1], "count": len(thin)})
    out += [{"type": "settle", "n": c.get("row", c["n"]), "label": c["label"], "metric": c["metric"],
             "raws": [v["raw"] for v in c["vals"]]} for c in conflicts if not _own_conflict(c, increments)]
    return out


def _own_conflict(c: dict[str, Any], increments: list[dict[str, Any]]) -> bool:
    """A conflict is an increment's own (docs/brief.md §7: no line of its own) when that
    increment's relay line already settles it: a ``conflict`` increment of its subject (its
    action names its §2 rows), or an ``update`` whose action settles the conflict's §2 row
    before adding values (``Mooncake：先裁定 §2 第 2 项…``, :func:`_action` ``contested``)."""
    row = c.get("row", c["n"])
    for e in increments:
        if e["key"] != c["subject"] or e["thin"]:
            continue
        if e["outcome"] == "conflict" or (e["outcome"] == "update" and e["action"]["contested"]
                                          and row in e["action"]["rows"]):
            return True
    return False


def _claim_ids(s: dict[str, Any]) -> list[str]:
    return [c["id"] for g in s["groups"] for c in g["claims"]]


def _action(e: dict[str, Any], rows: list[int], contested: set[str] = frozenset()) -> dict[str, Any]:  # type: ignore[assignment]
    """可操作结论 of one increment: what to do to which § of the doc, from its outcome and the
    rule that decided it (:mod:`kb.night.rules`); the template words it and marks what needs the
    executor's judgement.

    :param rows: §2 row numbers of this subject's conflicts.
    :param contested: the values those conflicts set against each other: an update does not
        ask to add both sides of an open conflict (a breaker's find: "把 1,200 万、1,300 万补入
        §1.2" beside §2's "settle 1,200 万 vs 1,300 万"); they are settled first.
    :returns: ``{"type", "sections", "raws", "rows", "secondhand", "contested"}``; type
        ``new-node`` (net-new with a card), ``card-first`` (net-new, no card yet),
        ``add-values`` (update: values the doc lacks, the uncontested ones in ``raws``),
        ``own-node`` (update: the doc names it only in passing), ``settle`` (conflict: settle
        §2 ``rows`` first, then correct ``sections``).
    """
    sections = [e["section"]] if e["section"] else []
    values: list[str] = []
    held: list[str] = []
    if e["outcome"] == "net-new":
        kind = "new-node" if e["card"] else "card-first"
    elif e["outcome"] == "update":
        kind = "add-values" if e["rule"] == "doc-new-values" else "own-node"
        sections = sections or e["doc_sections"][:1]
        values = [v for v in e["new_values"] if v not in contested]
        held = [v for v in e["new_values"] if v in contested]
    else:
        kind = "settle"
        sections = e["doc_sections"] or sections
        values = [v for v in e["detail"].split(", ") if v]
    return {"type": kind, "sections": sections, "raws": values, "rows": rows, "contested": held,
            "secondhand": bool(values) and set(values) <= set(e["secondhand_only"])}


def _touched(increments: list[dict[str, Any]]) -> list[str]:
    """Doc sections tonight's increments point at (their actions' sections), once each: the
    most pointed at first, then in the order of the increments."""
    every = [sec for e in increments for sec in e["action"]["sections"]]
    first = list(dict.fromkeys(every))
    return sorted(first, key=lambda sec: (-every.count(sec), first.index(sec)))


def _collapse_uncarded(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The supplement and adjacent subjects as the brief lists them, each with the rule that
    made it so (its reason not to over-read it). Uncarded off-topic subjects (rule ``no-card``)
    that one file lists together (an HF daily page) are one row naming them all; every other
    subject is a row of its own. Order is ``entries``' (most relevant first).

    :returns: rows ``{"outcome", "rule", "detail", "members": [{"label", "id"}], "card", "first"}``.
    """
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
                    "first": e["first"], "members": [{"label": m["label"], "id": m["id"]} for m in members]})
    return out


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
    from bisect import bisect_right

    from kb.facts.query import attributor

    at = night.attributor or attributor(night.kb)
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
    rest = [x.label for x in secs if subjects.get(x.label) and not any(inside(x.label, t) for t in touched)]
    return {"sections": rows, "touched_more": touched[fold:], "untouched": rest,
            "untouched_subjects": len({k for label in rest for k in subjects[label]})}


def _fold_steps(steps: list[dict[str, Any]], fold: int) -> list[dict[str, Any]]:
    """§6 as shown: the first ``fold`` conflicts to settle and the first ``fold`` sources to
    find (every conflict is a row of §2), then the ``kb verify`` line."""
    kept, seen = [], {"conflict": 0, "source": 0}
    for st in steps:
        group = "conflict" if st["type"] == "conflict" else "source" if st["type"] in ("paper", "source") else None
        if group is not None:
            seen[group] += 1
            if seen[group] > fold:
                continue
        kept.append(st)
    return kept


def _folded_steps(steps: list[dict[str, Any]], fold: int) -> dict[str, int]:
    """How many §6 steps :func:`_fold_steps` left out: ``{"conflict": n, "source": n}``."""
    n_conf = sum(st["type"] == "conflict" for st in steps)
    n_src = sum(st["type"] in ("paper", "source") for st in steps)
    return {"conflict": max(0, n_conf - fold), "source": max(0, n_src - fold)}


def _folders(paths: Iterable[str]) -> list[dict[str, Any]]:
    """Window files by folder, for §8: ``[{"folder": "inbox/jay/", "files": [names]}]``."""
    out: dict[str, list[str]] = defaultdict(list)
    for p in paths:
        folder, _, name = p.rpartition("/")
        out[folder + "/" if folder else ""].append(name)
    return [{"folder": k, "files": v} for k, v in out.items()]


def _revised(night: Night) -> list[dict[str, Any]]:
    """Section 6's revised and withdrawn papers (:mod:`kb.facts.revised`, against arXiv's latest as
    ``kb verify`` cached it): per paper of the night's subjects or cited by the living doc,
    the places of the window and the doc pinned to an older version (and its card, when written
    from one), or, for a withdrawn paper, every window claim and doc line about it.

    :returns: ``[{"id", "label", "latest", "date", "withdrawn", "comment", "en", "zh",
        "places": ["path:line" or a card path, …]}]`` by id (``en``/``zh``: the revised note
        from the oldest pinned version; None for a withdrawn paper); empty when the cache
        knows no later version and no withdrawal.
    """
    from kb.facts.revised import is_older, latest_of, revised_note

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
            from kb.core.paths import doc_path
            from kb.facts.dependents import dependents

            window = {_source(c) for c in night.claims.values()}
            docs = {night.doc.path, doc_path(night.topic)}
            places = [f"{d.path}:{d.line}" for d in dependents(night.kb, arxiv_id)
                      if d.path in docs or f"{d.path}:{d.line}" in window]
            versions = []
        else:
            pinned = [(c, v) for c, v in cited.get(arxiv_id, []) if is_older(v, latest)]
            card = night.cards.get(f"arxiv:{arxiv_id}")
            card_pinned = card is not None and is_older(card.version, latest)
            places = ([card.path] if card_pinned else []) + list(dict.fromkeys(_source(c) for c, _ in pinned))
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
