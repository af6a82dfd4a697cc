"""What the brief asks the executor to do: §2's rows of conflicts and claims to verify (with the relay changes
behind them, and the source records derived from them), §6's next minimal verification set and revised papers,
§7's relay actions and each increment's action."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from kb.brief.registry import INCREMENT_OUTCOMES, PAPER_KEYS, Registry, source_of, urls_of
from kb.brief.snapshot import doc_id_names
from kb.core.claims import Claim
from kb.facts.firsthand import doc_citation, primary_source
from kb.facts.relay import changes
from kb.night.ledger import brief_ledger
from kb.night.model import ConflictOut
from kb.night.run import Night


def conflict_entry(n: int, c: ConflictOut, labels: dict[str, str], by_source: dict[str, list[Claim]]) -> dict[str, Any]:
    """Conflict ``n`` of the diff as the brief shows it: its subject's label, metric, the values
    with their kinds, sources and origin, and the URLs the claims stating them cite."""
    values = [{"raw": v.raw, "kinds": v.kinds, "sources": v.sources, "origin": v.origin} for v in c.values]
    claims = [x for v in c.values for src in v.sources for x in by_source.get(src, [])]
    return {"n": n, "subject": c.subject, "label": labels.get(c.subject, c.subject), "metric": c.metric,
            "qualifier": c.qualifier, "against": c.against, "vals": values, "urls": urls_of(claims)}


def relay_changes(night: Night) -> dict[tuple[str, str | None], list[dict[str, str]]]:
    """Where the values of the conflicts and secondhand-only numbers changed along relays
    (:func:`kb.facts.relay.changes`, among the window's and the living doc's claims and the files
    they cite): ``(subject, metric)`` -> ``[{"source", "raw", "from"}]``."""
    r = night.result
    wanted = [(c.subject, c.metric) for c in r.conflicts]
    wanted += [(s.subject, s.metric) for s in r.secondhand_only if s.metric]
    if not wanted:
        return {}
    return changes(night.kb, night.attributor, [*night.claims.values(), *night.doc.claims], wanted)


#: At most this many §2 rows beyond the fold are listed rather than folded.
FEW = 2


def check_rows(night: Night, conflicts: list[dict[str, Any]], reg: Registry,
               by_source: dict[str, list[Claim]], fold: int | None = None,
               changed: dict[tuple[str, str | None], list[dict[str, str]]] | None = None,
               skip: set[str] = frozenset(),  # type: ignore[assignment]
               tables: dict[str, tuple[str, str]] | None = None,
               ) -> tuple[list[dict[str, Any]], int]:
    """Section 2 rows: conflicts (one row per subject, each metric it conflicts on), secondhand-only
    numbers per subject, mistyped ids; and how many secondhand-only rows were folded away. Conflicts and mistyped ids are always
    listed; of the secondhand-only rows the first ``fold`` are (all of them when no more than
    :data:`FEW` would be folded), increments' subjects first
    (then arXiv ids, then by key). Each row's ``changed``: the ``path:line`` where one of its
    values changed along a relay (:mod:`kb.facts.relay`), for conflicts those of its subject and
    metric, for secondhand-only rows those among its own sources. Subjects in ``skip`` (their
    author demoted them: 仅作线索) and adjacent subjects get no secondhand-only row
    (issue 22: noise; the generated large night listed 179 items to verify). ``tables``: member
    key -> (the table's first member, its label) of an increment merging one table's subjects:
    their secondhand-only numbers are one row, labelled as the increment."""
    changed = changed or {}
    rows: list[dict[str, Any]] = []
    by_subject: dict[str, list[dict[str, Any]]] = {}
    for c in conflicts:
        by_subject.setdefault(c["subject"], []).append(c)
    index = _Lines(night)  # the doc's lines and the night's claims by line, once for every row
    for cs in by_subject.values():  # one row per subject: every metric it conflicts on, in order
        kind = "conflict-doc" if any("living-doc" in c["against"] for c in cs) else "conflict-window"
        srcs = list({(x["kind"], x["source"]): x for x in (
            {"kind": "/".join(v["kinds"]), "source": s, "raw": v["raw"]}
            for c in cs for v in c["vals"] for s in v["sources"])}.values())
        rows.append({"type": kind, "conflict": cs[0], "conflicts": cs, "sources": srcs,
                     "relay": _relay_against_firsthand(night, cs, index) if kind == "conflict-doc" else None,
                     "urls": list(dict.fromkeys(u for c in cs for u in c["urls"])),
                     "changed": list(dict.fromkeys(x for c in cs for x in c.get("changed", [])))})
    # a value already in its subject's conflict row is settled there, not listed again below
    in_conflict = {(c["subject"], c["metric"], v["raw"]) for c in conflicts for v in c["vals"]}
    per: dict[str, list[Any]] = defaultdict(list)
    tables = tables or {}
    # an adjacent subject (off the topic, no card) is not tonight's to verify; a covered one is (the doc may
    # hold its value from a relay only: C103 上游摘要称 …)
    aside = {s.key for s in night.result.subjects if s.outcome == "adjacent"}
    for s in night.result.secondhand_only:
        if (s.subject, s.metric, s.raw) not in in_conflict and s.subject not in skip and s.subject not in aside:
            per[tables[s.subject][0] if s.subject in tables else s.subject].append(s)
    labels = {s.key: s.label for s in night.result.subjects}
    labels.update({first: label for first, label in tables.values()})
    increments = {s.key for s in night.result.subjects if s.outcome in INCREMENT_OUTCOMES}
    keys = sorted(per, key=lambda k: (k not in increments, not k.startswith("arxiv:"), k))
    if any(labels.get(k) in (k[6:], f"arXiv:{k[6:]}") for k in keys):  # a bare id: the name the window gives it
        named = doc_id_names([line for p in dict.fromkeys(c.provenance.path for c in night.claims.values())
                              for line in _read_lines(night, p)])
        labels.update({k: named[k[6:]] for k in keys if labels.get(k) in (k[6:], f"arXiv:{k[6:]}") and k[6:] in named})
    folded = max(0, len(keys) - fold) if fold is not None else 0
    if folded <= FEW:  # a pointer to ``kb diff`` in place of one or two rows hides more than it saves
        folded = 0
    for key in keys[:len(keys) - folded]:
        items = per[key]
        claims = [x for s in items for x in by_source.get(s.source, []) if x.id == s.claim]
        mine = {s.source for s in items}
        moved = [x["source"] for s in items for x in changed.get((s.subject, s.metric), []) if x["source"] in mine]
        rows.append({"type": "secondhand", "key": key, "label": labels.get(key, key), "changed": list(dict.fromkeys(moved)),
                     "id": key[6:] if key.startswith("arxiv:") and key not in tables else None,
                     "raws": list(dict.fromkeys(s.raw for s in items)),
                     "sources": [{"kind": "secondhand", "source": src, "raw": ""} for src in dict.fromkeys(s.source for s in items)],
                     "urls": urls_of(claims), "primary": [u for u in urls_of(claims) if primary_source(u)]})
    for m in night.result.id_mismatches:
        card = night.cards.get(m.card_subject)
        rows.append({"type": "id-mismatch", "name": m.name, "cited": m.cited[6:], "card_id": m.card_subject[6:],
                     "card": card.number if card else None,
                     "sources": [{"kind": x.kind, "source": m.source, "raw": ""} for x in by_source.get(m.source, [])[:1]],
                     "urls": [], "changed": []})
    rows += _disputed_rows(night, conflicts)
    for i, row in enumerate(rows, 1):
        row["n"] = i
        row.setdefault("relay", None)
        row.setdefault("primary", False)
        if row["relay"]:  # the relay's own links are what to check
            row["urls"] = [u for u in row["urls"] if not primary_source(u)] or row["urls"]
        for c in row.get("conflicts", ()):
            c["row"] = i  # the §2 row that lists this conflict
    return rows, folded


class _Lines:
    """The doc's lines, its claims by line (the last) and window claims by ``path:line`` (the first)."""
    def __init__(self, night: Night) -> None:
        self.lines = night.doc.text.split("\n")
        self.doc = {c.provenance.line: c for c in night.doc.claims}
        self.window: dict[str, Claim] = {}
        for c in night.claims.values():
            self.window.setdefault(f"{c.provenance.path}:{c.provenance.line}", c)


def _relay_against_firsthand(night: Night, cs: list[dict[str, Any]], index: _Lines) -> str | None:
    """The primary source the doc's side of a doc conflict cites (:func:`kb.facts.firsthand.doc_citation`)
    when the doc states one value and every window value against it is secondhand only (a relay:
    ``据一篇 CSDN 转载 25%`` vs the doc's 35% citing the official blog): the relay is what to check,
    the doc stays; else None."""
    cited: list[str] = []
    if sum("living-doc" in v["origin"] for c in cs for v in c["vals"]) != 1:
        return None  # the doc disagrees with itself (2025 年 12 月 vs 2026 年 1 月): settle it
    for c in cs:
        for v in c["vals"]:
            if "living-doc" in v["origin"]:
                for src in v["sources"]:
                    path, _, n = src.rpartition(":")
                    doc = index.doc.get(int(n)) if path == night.doc.path and n.isdigit() else None
                    if doc is not None and (hit := doc_citation(doc, index.lines)):
                        cited.append(hit)
            elif set(v["kinds"]) != {"secondhand"} or not all(_relayed(index.window.get(src)) for src in v["sources"]):
                return None
    return cited[0] if cited else None


def _relayed(c: Claim | None) -> bool:
    """Whether window claim ``c`` relays: it cites links, none first-hand (``据 CSDN 转载 …``), or says 转载/转引."""
    if c is None:
        return False
    return bool(re.search(r"转载|转引|reposted|republished", c.text)) or (
        bool(c.sources) and not any(primary_source(u) for u in c.sources))


def _disputed_rows(night: Night, conflicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """§2 rows of the values a window line disputes (:func:`kb.extract.kinds.moods` ``disputed``), per listed subject,
    quoting that line (``words``: never 抄错 in its mouth); the diff compares no such value (issue 22). A value a
    ``conflicts`` row sets against the disputing line's own (the doc's 1.8× vs its 2.1×) is no row again."""
    at = night.attributor
    labels = {s.key: s.label for s in night.result.subjects}
    shown = {(c["subject"], v["raw"], x) for c in conflicts for v in c["vals"] for w in c["vals"] if w is not v for x in w["sources"]}
    per: dict[str, list[tuple[str, Claim]]] = defaultdict(list)
    for c in sorted(night.claims.values(), key=lambda c: (c.provenance.path, c.provenance.line)):
        v = at.view(c)
        for x in (*c.quantities, *c.dates):
            key = x.subject or (v.subjects[0] if v.subjects else None)
            if x.mood == "disputed" and key in labels and (key, x.raw, source_of(c)) not in shown:
                per[key].append((x.raw, c))
    return [{"type": "disputed", "key": key, "label": labels[key], "changed": [], "words": items[0][1].text,
             "raws": list(dict.fromkeys(raw for raw, _ in items)),
             "sources": list({source_of(c): {"kind": c.kind, "source": source_of(c), "raw": ""} for _, c in items}.values()),
             "urls": urls_of(c for _, c in items)} for key, items in per.items()]


#: What a §2 row sets an author's value against, in the order a record names them.
_AGAINST = ("doc", "paper", "disputed", "source")
_AGAINST_WORDS = {"zh": {"doc": "与活文档不符", "paper": "与论文不符", "disputed": "被来源指为有误", "source": "与其他来源不符"},
                  "en": {"doc": "against the doc", "paper": "against a paper", "disputed": "disputed by a source",
                         "source": "against other sources"}}


def source_records(night: Night, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """来源记录 under §2, derived from §2's own ``rows`` (so the record never says "none" of an
    author a row above sets against the doc): per author of a window source in a row, its
    secondhand numbers (:func:`kb.night.ledger.brief_ledger`) and the rows that set one of its
    values against the living doc (a ``conflict-doc`` row), a paper (a conflict whose other side
    is a paper-fact), another source (a ``conflict-window`` row: only the author at whose line the
    value changed along the relay when the row knows it) or that another line disputes (a
    ``disputed`` row: the author stating the disputed value, not the disputing one). The text says
    the ledger's numbers and contradicted (``kb sources``' figures: no dates), then §2's rows.
    :returns: ``[{"source", "numbers", "against": {"doc": [row n, …], …}, "zh", "en"}]``, authors in the ledger's order (most numbers first), then the others by name."""
    author = {source_of(c): c.provenance.author for c in night.claims.values() if c.provenance.author}
    against: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    seen: list[str] = []

    def mark(who: str | None, what: str | None, n: int) -> None:
        if who and who not in seen:
            seen.append(who)
        if who and what and n not in against[who][what]:
            against[who][what].append(n)

    for row in rows:
        n = row["n"]
        if row["type"] in ("conflict-doc", "conflict-window"):
            for c in row["conflicts"]:
                vals = c["vals"]
                for v in vals:
                    if "living-doc" in v["origin"]:
                        continue
                    others = [w for w in vals if w is not v]
                    what = ("doc" if any("living-doc" in w["origin"] for w in others)
                            else "paper" if any("paper-fact" in w["kinds"] for w in others) else "source")
                    where = [x for x in v["sources"] if x in author]
                    if what == "source" and row["changed"] and not set(where) & set(row["changed"]):
                        what = None  # the value changed at another author's line
                    for x in where:
                        mark(author[x], what, n)
        elif row["type"] == "disputed":
            by = {x["source"] for x in row["sources"]}
            for c in night.claims.values():
                if source_of(c) not in by and any(q.raw in row["raws"] and q.mood != "disputed" for q in c.quantities):
                    if row["key"] in night.attributor.view(c).subjects:
                        mark(c.provenance.author, "disputed", n)
        else:
            for x in row["sources"]:
                mark(author.get(x["source"]), None, n)
    ledger = {r.source: r for r in brief_ledger(night).records if r.type == "author"} if seen else {}
    order = [a for a in ledger if a in seen] + sorted(a for a in seen if a not in ledger)
    out = []
    for a in order:  # two counts, each saying what it counts
        got = {k: against[a][k] for k in _AGAINST if against[a].get(k)}
        zh = "、".join(f"{_rows(v, '、', 'zh')}{_AGAINST_WORDS['zh'][k]}" for k, v in got.items())
        en = ", ".join(f"{_rows(v, ', ', 'en')} {_AGAINST_WORDS['en'][k]}" for k, v in got.items())
        rec = ledger.get(a)
        n_zh, n_en = (f"{rec.numbers} 个数字（被论文或活文档反驳 {rec.contradicted} 个），", f"{rec.numbers} number{'s' * (rec.numbers != 1)} ({rec.contradicted} contradicted by a paper or the doc), ") if rec else ("", "")
        out.append({"source": a, "numbers": rec.numbers if rec else None, "against": got,
                    "zh": f"{a}：{n_zh}§2 " + (zh or "无与活文档/论文/其他来源不符的项"),
                    "en": f"{a}: {n_en}§2 " + (en or "sets none against the doc, a paper or another source")})
    return out


def _read_lines(night: Night, path: str) -> list[str]:
    """The lines of the KB file ``path``; none when unreadable."""
    try:
        return (night.kb.root / path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def _rows(rows: list[int], sep: str, lang: str, shown: int = 3) -> str:
    """§2 rows as a record names them, the first ``shown`` then ``…`` with their count: ``第 1 项``,
    ``4 项（第 2、3、4… 项）``; ``row 1``, ``rows 1, 5``, ``4 rows (2, 3, 4…)``."""
    some, many = sep.join(map(str, rows[:shown])) + ("…" if len(rows) > shown else ""), len(rows) > shown
    return ((f"{len(rows)} 项（第 {some} 项）" if many else f"第 {some} 项") if lang == "zh"
            else f"{len(rows)} rows ({some})" if many else f"row{'s' * (len(rows) > 1)} {some}")


def next_steps(night: Night, conflicts: list[dict[str, Any]], subjects: list[dict[str, Any]],
                arxiv_rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Section 6: the smallest set of checks that settles tonight's open items: each conflict,
    the secondhand-only figures of each increment, and one ``kb verify`` line."""
    steps: list[dict[str, Any]] = []
    for c in conflicts:
        steps.append({"type": "conflict", "label": c["label"], "metric": c["metric"],
                      "raws": [v["raw"] for v in c["vals"]], "urls": c["urls"],
                      "sources": [s for v in c["vals"] for s in v["sources"]]})
    settled = {(c["subject"], v["raw"]) for c in conflicts for v in c["vals"]}  # settled by its conflict step
    for s in subjects:
        raws = [x for x in s["secondhand_only"] if (s["key"], x) not in settled]
        if not raws or s["outcome"] not in INCREMENT_OUTCOMES:
            continue  # the other subjects' secondhand-only figures stay listed in §2
        if s["id"]:
            steps.append({"type": "paper", "key": s["key"], "label": s["label"], "id": s["id"], "raws": raws})
        else:
            urls = urls_of(night.claims[i] for i in _claim_ids(s) if i in night.claims)
            # a line citing the first-hand source itself (release notes, the repo): check that one
            steps.append({"type": "source", "key": s["key"], "label": s["label"], "raws": raws, "urls": urls,
                          "primary": [u for u in urls if primary_source(u)]})
    # ids of increments not verified yet, ids verify already found wrong, mistyped ids
    todo = [a["id"] for a in arxiv_rows
            if a["verified"] != "found" and (a["outcome"] in INCREMENT_OUTCOMES or a["verified"])]
    todo += [m.cited[6:] for m in night.result.id_mismatches]
    if todo:
        steps.append({"type": "verify", "ids": list(dict.fromkeys(todo))})
    return steps


def fold_steps(steps: list[dict[str, Any]], fold: int) -> list[dict[str, Any]]:
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


def folded_steps(steps: list[dict[str, Any]], fold: int) -> dict[str, int]:
    """How many §6 steps :func:`fold_steps` left out: ``{"conflict": n, "source": n}``."""
    n_conf = sum(st["type"] == "conflict" for st in steps)
    n_src = sum(st["type"] in ("paper", "source") for st in steps)
    return {"conflict": max(0, n_conf - fold), "source": max(0, n_src - fold)}


def relay_actions(increments: list[dict[str, Any]], conflicts: list[dict[str, Any]],
                  checks: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """建议今晚活文档接力动作: one line per increment (what goes into which § of the doc, with its
    action's kind and flags: ``secondhand`` values are to be checked first-hand before they go in,
    at §2 row ``check``), one for all thin increments (write their cards), and one per conflict
    not already an increment's own (which values to settle, its §2 row).

    :param checks: subject key -> the §2 row of its secondhand-only figures."""
    checks = checks or {}
    out: list[dict[str, Any]] = [
        {"type": e["outcome"], "n": e["n"], "label": e["label"], "id": e["id"], "paper": e["paper"], "section": e["section"],
         "new_values": e["action"]["raws"] if e["outcome"] == "update" else e["new_values"],
         "contested": e["action"]["contested"], "rows": e["action"]["rows"],
         "doc_sections": e["action"]["sections"] if e["outcome"] == "conflict" else e["doc_sections"], "card": e["card"] is not None, "action": e["action"]["type"],
         "relay": e["action"].get("relay"), "secondhand": e["action"].get("secondhand", False),
         "check": checks.get(e["key"])}
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
    before adding values (``Mooncake：先裁定 §2 第 2 项…``, :func:`increment_action` ``contested``)."""
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


def increment_action(e: dict[str, Any], rows: list[int], contested: set[str] = frozenset()) -> dict[str, Any]:  # type: ignore[assignment]
    """可操作结论 of one increment: what to do to which § of the doc, from its outcome and the
    rule that decided it (:mod:`kb.night.rules`); the template words it and marks what needs the
    executor's judgement.

    :param rows: §2 row numbers of this subject's conflicts.
    :param contested: the values those conflicts set against each other: an update does not
        ask to add both sides of an open conflict (a breaker's find: "把 1,200 万、1,300 万补入
        §1.2" beside §2's "settle 1,200 万 vs 1,300 万"); they are settled first.
    :returns: ``{"type", "sections", "raws", "rows", "secondhand", "contested"}``; type
        ``new-node`` (net-new with a card), ``card-first`` (a paper, net-new, no card yet: an
        arXiv id or a title subject), ``source-first`` (no paper, net-new, its figures only
        secondhand: check a first-hand source, then place it), ``place`` (no paper, net-new:
        place it in ``sections``),
        ``add-values`` (update: values the doc lacks, the uncontested ones in ``raws``),
        ``own-node`` (update: the doc names it only in passing), ``settle`` (conflict: settle
        §2 ``rows`` first, then correct ``sections``), ``check-relay`` (conflict whose doc side cites a
        primary source against relays only, ``e["relay"]``: check the relay, the doc stays)."""
    sections = [e["section"]] if e["section"] else []
    values: list[str] = []
    held: list[str] = []
    if e["outcome"] == "net-new":
        paper = e["key"].startswith(PAPER_KEYS)
        kind = ("new-node" if e["card"] else "card-first" if paper
                else "source-first" if e["secondhand_only"] else "place")
        values = list(e["secondhand_only"]) if kind == "source-first" else []
    elif e["outcome"] == "update":
        kind = "add-values" if e["rule"] == "doc-new-values" else "own-node"
        sections = sections or e["doc_sections"][:1]
        values = [v for v in e["new_values"] if v not in contested]
        held = [v for v in e["new_values"] if v in contested]
    else:
        kind = "check-relay" if e.get("relay") else "settle"
        sections = e.get("fix_sections") or e["doc_sections"] or sections  # where the doc states the other value
        values = [v for v in e["detail"].split(", ") if v]
    return {"type": kind, "sections": sections, "raws": values, "rows": rows, "contested": held, "relay": e.get("relay"),
            "secondhand": bool(values) and set(values) <= set(e["secondhand_only"])}
