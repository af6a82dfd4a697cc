"""The papers of a night as the brief lists them: §3's arXiv rows (off-topic ids one file lists
together collapsed), the cards created in the window by category, the next free candidate numbers.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from kb.brief.reading import Reading
from kb.brief.registry import Registry
from kb.core.claims import Claim
from kb.extract.titles import title_similarity
from kb.night.run import Night


def _written(c: Claim) -> tuple[bool, float, str, int]:
    when = c.provenance.written_at
    try:
        at = datetime.fromisoformat(when).timestamp() if when else None
    except ValueError:
        at = None
    return at is None, at or 0.0, c.provenance.path, c.provenance.line


def first_written(claims: Iterable[Claim]) -> Claim | None:
    """The brief's first source of a subject: the claim written earliest (``written_at`` as a
    moment, offsets compared: ``09:00+08:00`` before ``18:50+08:00``), then by path and line;
    undated claims after every dated one; None for no claims. Never the alphabetical first
    path: a file named ``spark/…`` written at 18:50 is no earlier than ``tom/…`` at 09:00."""
    return min(claims, key=_written, default=None)


def by_place(cited: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cited rows (:meth:`kb.brief.registry.Registry.get` dicts) in file order: by path, then line."""
    return sorted(cited, key=lambda d: (d["path"], d["line"]))


def arxiv_entries(night: Night, number: dict[str, int], reg: Registry, sections: dict[str, str] | None,
                  rd: Reading) -> list[dict[str, Any]]:
    """§3 rows, one per arXiv subject (its section: ``sections``' placement, else the diff's hint;
    its first source: the window line written first (:func:`first_written`) that writes this id). Its title (论文/主题): the card's; else the arXiv
    cache's; else a title the KB knows (:meth:`kb.facts.attributor.Attributor.title`: a link text
    ``[Title](https://arxiv.org/abs/…)``); else the subject's label when it is a name, not the
    bare id (``CacheGen``, ``H2O``); else None (``—``). ``rd``: the night's reading (a claim's
    ids read once, :meth:`kb.brief.reading.Reading.arxiv_keys`)."""
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
        mine = [night.claims[i] for i in s.claims if i in night.claims]
        # the first line writing this very id (a line citing a mistyped id is no source of it)
        first = first_written(c for c in mine if s.key in rd.arxiv_keys(c)) or first_written(mine)
        rows.append({
            "id": arxiv_id, "arxiv_title": arxiv_title,
            "title": s.label if card else (arxiv_title or at.title(s.key)
                                           or (s.label if s.label != arxiv_id else None)),
            "outcome": s.outcome, "n": number.get(s.key), "section": (sections or {}).get(s.key, s.section_hint),
            "card": card.number or card.path if card else None, "card_path": card.path if card else None,
            "verified": state, "fetched": hit[0][:10] if hit else None,
            "first": reg.get(first) if first else None,
        })
    return rows


def collapse_offtopic(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """§3 rows as shown: the off-topic ids (``adjacent``) without a card that one file lists
    together (an HF daily page of 7 papers) become one row naming them all (``ids``), at the
    place of the first, citing the first line of each (``sources``, once each, :func:`by_place`); every other row
    keeps ``ids == [id]`` and ``sources == [first]``. Counts use the full rows."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for a in rows:
        if a["outcome"] == "adjacent" and a["card"] is None and a["first"] is not None and a["n"] is None:
            groups[a["first"]["path"]].append(a)
    grouped = {id(a) for g in groups.values() for a in g}  # by identity: `a in group` compared dicts, N² a file
    out: list[dict[str, Any]] = []
    for a in rows:
        group = groups.get(a["first"]["path"]) if a["first"] is not None else None
        if group is None or len(group) < 2 or id(a) not in grouped:
            out.append({**a, "ids": [a["id"]], "sources": [a["first"]] if a["first"] else []})
        elif a is group[0]:
            out.append({**a, "ids": [g["id"] for g in group],
                        "sources": by_place({g["first"]["source"]: g["first"] for g in group}.values())})
    return out


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


def card_stats(night: Night) -> dict[str, Any]:
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
