"""``benchmarks/accuracy.py --realfeeds [DIR]``: accuracy of kb on the real-feed KBs of issue 20.

The labels live in ``benchmarks/realfeeds/<kb>/expected.yaml`` (the shape of the nights' labels,
plus the keys below); the KBs themselves are rebuilt from public repositories by
``benchmarks/realfeeds/rebuild.py`` into ``DIR`` (default ``<repo>/../realfeeds``) and are never
part of this repository. A KB whose folder is absent is skipped with a note.

What differs from the nights (benchmarks/accuracy.py):

* ``window: {since, until}`` runs ``kb diff --since/--until``; ``window: {date}`` runs ``--date``.
* ``subjects_complete: false``: only the labelled subjects are scored; the other subjects kb lists
  are counted (``unlabelled subjects``) but are no mismatch.
* a subject key ``a|b`` (either form is right) may also be used in claim labels for subjects that
  are not in ``subjects:`` (history files): any of its alternatives matches.
* ``subjects: [...]`` on a claim label: each must be among the claim's subjects (field
  ``claim subjects``).
* conflicts, secondhand-only and typos are scored only when the labels have that key.
* the paper-shaped share: of the labelled claims with a number in the ``paper_shaped`` files, the
  share whose every labelled quantity subject kb got right (issue 20's "≥ 90 %" figure); printed
  per KB and overall, claims and quantities.
"""

from __future__ import annotations

import shutil
import tempfile
from collections import defaultdict
from pathlib import Path

from accuracy import (CANONICAL, REPO, Result, _alias_map, _compare_claims, _compare_sets, _compare_subjects,
                      _find_quantity, _kb_json, _mag_label, _pct, print_table, read_claim,
                      read_conflicts, read_secondhand, read_subjects, read_typos)
from ruamel.yaml import YAML

LABELS = REPO / "benchmarks" / "realfeeds"
DEFAULT_DIR = REPO.parent / "realfeeds"


def load(path: Path) -> dict:
    """One KB's labels, quantity labels converted to kb's canonical units (as for the nights)."""
    labels = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    for c in labels.get("claims") or []:
        for q in c.get("quantities") or []:
            unit, factor = CANONICAL.get(q.get("unit"), (None, None))
            if unit is not None:
                q["unit"] = unit
                for f in ("value", "low", "high"):
                    if q.get(f) is not None:
                        q[f] = q[f] * factor
    return labels


def run(kb_dir: Path, labels: dict) -> dict:
    """Copy the rebuilt KB to a temp folder (so kb's store stays out of it), run diff and claims."""
    with tempfile.TemporaryDirectory(prefix="kb-realfeed-") as tmp:
        root = Path(tmp) / kb_dir.name
        shutil.copytree(kb_dir, root, ignore=shutil.ignore_patterns(".kb"))
        win = labels.get("window") or {"date": labels["date"]}
        args = ["--date", str(win["date"])] if "date" in win else ["--since", str(win["since"]), "--until", str(win["until"])]
        diff = _kb_json(root, "diff", labels["topic"], *args, "--format", "json")
        claims = _kb_json(root, "claims", "--format", "json")
    return {"diff": diff, "claims": claims}


def _canon_factory(labels: dict):
    """canon(key) -> the label key: alternatives of ``subjects:`` keys and of every ``a|b`` used in claims."""
    alias = _alias_map(labels)
    for c in labels.get("claims") or []:
        keys = list(c.get("subjects") or []) + [q.get("subject") for q in c.get("quantities") or []]
        for k in keys:
            if isinstance(k, str) and "|" in k:
                for alt in k.split("|"):
                    alias.setdefault(alt, k)
    return lambda key: alias.get(key, key)


def compare(name: str, labels: dict, outputs: dict) -> tuple[Result, dict]:
    """Scores and mismatches of one KB, and its paper-shaped counts ``{claims, claims_ok, qty, qty_ok}``."""
    res = Result(name)
    diff, raw_claims = outputs["diff"], outputs["claims"]
    canon = _canon_factory(labels)
    got = read_subjects(diff)
    _compare_subjects(res, labels, got, canon)
    if "conflicts" in labels:
        _compare_sets(res, "conflicts", [(canon(s), m, v) for s, m, v in read_conflicts(diff)],
                      [(c["subject"], c.get("metric"), tuple(sorted({_mag_label(v) for v in c["values"]}, key=str)))
                       for c in labels["conflicts"]])
    if "secondhand_only" in labels:
        _compare_sets(res, "secondhand-only", [(canon(s), m, v, f) for s, m, v, f in read_secondhand(diff, raw_claims)],
                      [(e["subject"], e.get("metric"), _mag_label(e["value"]), e["file"]) for e in labels["secondhand_only"]])
    if "typos" in labels:
        _compare_sets(res, "typos", [(c, canon(s)) for c, s in read_typos(diff)],
                      [(str(t["cited"]), t["card_subject"]) for t in labels["typos"]])
    claims = [read_claim(c) for c in raw_claims]
    _compare_claims(res, labels, claims, canon)
    shaped = _claim_subjects_and_share(res, labels, claims, canon)
    return res, shaped


def _claim_subjects_and_share(res: Result, labels: dict, claims: list[dict], canon) -> dict:
    """Score ``subjects:`` of claim labels; count the paper-shaped share (see the module doc)."""
    shaped_files = set(labels.get("paper_shaped") or [])
    counts = {"claims": 0, "claims_ok": 0, "qty": 0, "qty_ok": 0}
    for lab in labels.get("claims") or []:
        found = [c for c in claims if c["file"] == lab["file"] and lab["text"] in c["text"]]
        claim = found[0] if len(found) == 1 else None
        for want in lab.get("subjects") or []:
            s = res.scores["claim subjects"]
            s.gold += 1
            if claim is None:
                continue
            s.pred += 1
            have = {canon(x) for x in claim["subjects"]}
            if want in have:
                s.tp += 1
            else:
                res.mismatches.append(f"claim subjects {lab['file']} «{lab['text']}»: expected {want!r}, kb {sorted(have)!r}")
        qs = [q for q in lab.get("quantities") or [] if "subject" in q]
        if lab["file"] not in shaped_files or not qs:
            continue
        counts["claims"] += 1
        ok_all = True
        for ql in qs:
            counts["qty"] += 1
            q = _find_quantity(claim, ql) if claim else None
            have = canon(q["subject"]) if q and q["subject"] else None
            if have == ql["subject"]:
                counts["qty_ok"] += 1
            else:
                ok_all = False
        counts["claims_ok"] += ok_all
    return counts


def kbs(names: list[str]) -> list[Path]:
    """The label folders of benchmarks/realfeeds (those with an expected.yaml), optionally by name."""
    found = sorted(p.parent for p in LABELS.glob("*/expected.yaml"))
    return [p for p in found if not names or p.name in names]


def _bucket(m: str) -> str:
    """A mismatch line's field (for the grouped listing)."""
    if m.startswith("claim subjects"):
        return "claim subjects"
    if m.startswith("claim "):
        return "claim missing or ambiguous"
    if m.startswith("quantity "):
        field = m.split(" ", 2)[1]
        return f"quantity {field}" if field in ("value", "low", "high", "unit", "bound", "metric",
                                                 "transition", "subject") else "quantity missing"
    if m.startswith("subject "):
        return "subject outcome"
    if m.startswith("non-claim "):
        return "non-claims"
    return m.split(":", 1)[0]


def evaluate_realfeeds(out_dir: Path | None, names: list[str], quiet: bool) -> int:
    """Score every rebuilt KB; print per field, the paper-shaped share, then the mismatches by field."""
    out_dir = out_dir or DEFAULT_DIR
    results, shares = [], {}
    for lab_dir in kbs(names):
        kb_dir = out_dir / lab_dir.name
        if not kb_dir.is_dir():
            print(f"{lab_dir.name}: skipped ({kb_dir} absent; run benchmarks/realfeeds/rebuild.py)")
            continue
        labels = load(lab_dir / "expected.yaml")
        res, shaped = compare(lab_dir.name, labels, run(kb_dir, labels))
        results.append(res)
        shares[lab_dir.name] = shaped
    if not results:
        print("no real-feed KB found: nothing scored")
        return 0
    print_table(results)
    tot = defaultdict(int)
    print("\npaper-shaped share (claims with a number in paper-shaped files carrying the right subject)")
    for name, c in shares.items():
        for k, v in c.items():
            tot[k] += v
        if c["claims"]:
            print(f"  {name:18} claims {c['claims_ok']:4}/{c['claims']:<4} {_pct(c['claims_ok'], c['claims'])}"
                  f"   quantities {c['qty_ok']:4}/{c['qty']:<4} {_pct(c['qty_ok'], c['qty'])}")
    print(f"  {'all':18} claims {tot['claims_ok']:4}/{tot['claims']:<4} {_pct(tot['claims_ok'], tot['claims'])}"
          f"   quantities {tot['qty_ok']:4}/{tot['qty']:<4} {_pct(tot['qty_ok'], tot['qty'])}")
    bad = 0
    for r in results:
        bad += len(r.mismatches)
        print(f"\n## {r.night}: {len(r.mismatches)} mismatches")
        if quiet:
            continue
        groups: dict[str, list[str]] = defaultdict(list)
        for m in r.mismatches:
            groups[_bucket(m)].append(m)
        for g in sorted(groups):
            print(f"  ### {g} ({len(groups[g])})")
            for m in groups[g]:
                print("    - " + m)
    return 1 if bad else 0
