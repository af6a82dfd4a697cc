"""Accuracy of kb on the labelled nights of tests/nights/ (issue 8).

Usage:
    python benchmarks/accuracy.py [NIGHT ...] [--quiet]
    python benchmarks/accuracy.py --realfeeds [DIR] [KB ...] [--quiet]

Each night is a small KB (``tests/nights/<name>/``) with its labels in ``expected.yaml`` (the
shape is described at the top of each expected.yaml). The night is copied to a temporary folder
(plus any ``realdata:`` files from ``../shared/realdata``; a night that needs them is skipped
when that folder is absent), then kb is run as a user would run it:

    kb diff TOPIC --date DATE --format json      (docs/diff.md)
    kb claims --format json                      (docs/claims.md)

and its output is compared with the labels. Printed: precision and recall per outcome and per
field (kinds, quantity fields, conflicts, secondhand-only, typos, no-card, non-claims), then
every mismatch. The row ``outcome unlisted`` scores the subjects that must not be listed (a
mistyped id, an off-topic card): its ``kb`` column counts the labelled subjects kb left out. Exit code 0 when every night matches its labels exactly, 1 otherwise.

``--realfeeds [DIR]`` scores the real-feed KBs of issue 20 instead: the labels are
``benchmarks/realfeeds/<kb>/expected.yaml`` and the KBs are rebuilt from public repositories by
``benchmarks/realfeeds/rebuild.py`` into ``DIR`` (default ``<repo>/../realfeeds``); a KB whose
folder is absent is skipped with a note. See benchmarks/realfeeds/README.md for what differs from
the nights (windows, subject keys ``a|b``, incomplete subject lists, the paper-shaped share).

kb's JSON is read in one place only, the ``read_*`` functions below, defensively (``.get``),
because its shape may still gain or rename fields.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml import YAML

REPO = Path(__file__).resolve().parents[1]
NIGHTS = REPO / "tests" / "nights"
REALDATA = REPO.parent / "shared" / "realdata"

OUTCOMES = ("net-new", "update", "covered", "conflict", "adjacent", "supplement", "unlisted")


# --------------------------------------------------------------------------- running kb


#: Labels are written in the units the text uses; kb stores a physical or data unit in its
#: canonical unit with the value converted (docs/claims.md, "quantities"): label -> (unit, factor).
CANONICAL = {"ms": ("s", 1e-3), "s": ("s", 1.0), "day": ("s", 86400.0), "days": ("s", 86400.0),
             "week": ("s", 604800.0), "KiB": ("B", 2.0 ** 10), "MiB": ("B", 2.0 ** 20),
             "GiB": ("B", 2.0 ** 30), "TiB": ("B", 2.0 ** 40), "GB": ("B", 1e9), "MB": ("B", 1e6)}


def load_labels(night: Path) -> dict:
    """The night's ``expected.yaml`` as plain Python data (ruamel safe loader), quantity labels
    converted to kb's canonical units (:data:`CANONICAL`)."""
    labels = YAML(typ="safe").load((night / "expected.yaml").read_text(encoding="utf-8"))
    for c in labels.get("claims") or []:
        for q in c.get("quantities") or []:
            unit, factor = CANONICAL.get(q.get("unit"), (None, None))
            if unit is not None:
                q["unit"] = unit
                for f in ("value", "low", "high"):
                    if q.get(f) is not None:
                        q[f] = q[f] * factor
    return labels


def needs_realdata(labels: dict) -> bool:
    """True when the night copies files from ../shared/realdata (``realdata: {dest: name}``)."""
    return bool(labels.get("realdata"))


def run_kb(night: Path, labels: dict) -> dict:
    """Copy ``night`` to a temp KB, run kb's diff and claims; returns ``{"diff": …, "claims": […]}``.

    Raises RuntimeError (naming the command, exit code and stderr) when kb prints no JSON.
    """
    with tempfile.TemporaryDirectory(prefix="kb-night-") as tmp:
        root = Path(tmp) / night.name
        shutil.copytree(night, root, ignore=shutil.ignore_patterns(".kb", "expected.yaml"))
        for dest, name in (labels.get("realdata") or {}).items():
            (root / dest).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(REALDATA / name, root / dest)
        diff = _kb_json(root, "diff", labels["topic"], "--date", str(labels["date"]), "--format", "json")
        claims = _kb_json(root, "claims", "--format", "json")
    return {"diff": diff, "claims": claims}


def _kb_json(root: Path, *args: str) -> object:
    cmd = [sys.executable, "-m", "kb", *args, "--kb", str(root)]
    proc = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", cwd=root)
    if proc.returncode not in (0, 1) or not proc.stdout.strip():
        raise RuntimeError(f"{' '.join(args)}: exit {proc.returncode}: {proc.stderr.strip()[-800:]}")
    return json.loads(proc.stdout)


# --------------------------------------------------------------------------- reading kb's JSON (the one place)


def read_subjects(diff: dict) -> dict[str, dict]:
    """``{subject key: {"outcome", "card": bool}}`` from ``kb diff --format json``."""
    out = {}
    for s in diff.get("subjects") or []:
        out[s.get("key")] = {"outcome": s.get("outcome"), "card": bool(s.get("card"))}
    return out


def read_conflicts(diff: dict) -> list[tuple[str, str | None, tuple]]:
    """``(subject, metric, sorted magnitudes)`` per conflict; a range value adds ``(low, high)``."""
    out = []
    for c in diff.get("conflicts") or []:
        vals = []
        for v in c.get("values") or []:
            low, high = v.get("value"), v.get("high")
            vals.append(_mag(low) if high is None else (_mag(low), _mag(high)))
        out.append((c.get("subject"), c.get("metric"), tuple(sorted(set(vals), key=str))))
    return out


def read_secondhand(diff: dict, claims: list[dict]) -> list[tuple[str, str | None, object, str]]:
    """``(subject, metric, magnitude, file)`` per secondhand-only entry.

    The value is that of the entry's claim's quantity with the same ``raw`` (``(low, high)`` for a
    range), else parsed from ``raw``; the file is ``source`` without its ``:line``.
    """
    by_id = {c.get("id"): c for c in claims}
    out = []
    for e in diff.get("secondhand_only") or []:
        raw = e.get("raw") or ""
        value = _parse_number(raw)
        for q in (by_id.get(e.get("claim")) or {}).get("quantities") or []:
            if q.get("raw") == raw:
                value = q.get("value") if q.get("high") is None else (q.get("low"), q.get("high"))
        source = str(e.get("source") or "")
        path = source.rsplit(":", 1)[0] if re.search(r":\d+$", source) else source
        out.append((e.get("subject"), e.get("metric"), _mag_label(value), path))
    return out


def read_typos(diff: dict) -> list[tuple[str, str]]:
    """``(cited id, card subject)`` per entry of ``id_mismatches``."""
    out = []
    for m in diff.get("id_mismatches") or []:
        cited = m.get("cited")
        if isinstance(cited, list):
            cited = cited[0] if cited else None
        cited = re.sub(r"^(arxiv:)", "", str(cited or ""), flags=re.I)
        out.append((cited, m.get("card_subject")))
    return out


def read_claim(c: dict) -> dict:
    """A claim as ``{"file", "text", "kind", "subjects", "quantities": [field dicts]}``.

    A quantity's subject is its own ``subject``, else the claim's subject when it has exactly one.
    """
    subjects = list(c.get("subjects") or [])
    qs = []
    for q in c.get("quantities") or []:
        qs.append(
            {
                "value": q.get("value"),
                "low": q.get("low"),
                "high": q.get("high"),
                "unit": q.get("unit"),
                "bound": _bound(q.get("bound")),
                "metric": q.get("metric"),
                "transition": q.get("transition"),
                "subject": q.get("subject") or (subjects[0] if len(subjects) == 1 else None),
            }
        )
    prov = c.get("provenance") or {}
    return {"file": prov.get("path"), "text": c.get("text") or "", "kind": c.get("kind"),
            "subjects": subjects, "quantities": qs}


def _bound(b: object) -> object:
    return {">=": "≥", "<=": "≤", "≈": "~"}.get(b, b) if isinstance(b, str) else b


def _mag(v: object) -> object:
    """|v| rounded to 6 significant digits (numbers), or the value itself (dates, None)."""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return 0.0 if v == 0 else round(abs(float(v)), 5 - int(math.floor(math.log10(abs(v)))))
    return v


def _parse_number(raw: str) -> float | None:
    m = re.search(r"(\d[\d,]*(?:\.\d+)?)\s*([kK万]?)", raw)
    if not m:
        return None
    return float(m.group(1).replace(",", "")) * {"k": 1e3, "K": 1e3, "万": 1e4}.get(m.group(2), 1)


# --------------------------------------------------------------------------- comparing


@dataclass
class Score:
    """Counts of one field: ``gold`` labelled, ``pred`` given by kb, ``tp`` both and equal."""

    gold: int = 0
    pred: int = 0
    tp: int = 0

    def add(self, other: Score) -> None:
        self.gold, self.pred, self.tp = self.gold + other.gold, self.pred + other.pred, self.tp + other.tp


@dataclass
class Result:
    """One night's scores per field and its mismatches (human-readable lines)."""

    night: str
    scores: dict[str, Score] = field(default_factory=lambda: defaultdict(Score))
    mismatches: list[str] = field(default_factory=list)


def compare(name: str, labels: dict, outputs: dict) -> Result:
    """Compare kb's outputs of one night with its labels (see expected.yaml for the shapes)."""
    res = Result(name)
    diff, claims = outputs["diff"], outputs["claims"]
    alias = _alias_map(labels)
    canon = lambda key: alias.get(key, key)  # noqa: E731
    _compare_subjects(res, labels, read_subjects(diff), canon)
    _compare_sets(res, "conflicts", [(canon(s), m, tuple(sorted({_mag_label(v) for v in vals}, key=str)))
                                     for s, m, vals in read_conflicts(diff)],
                  [(c["subject"], c.get("metric"), tuple(sorted({_mag_label(v) for v in c["values"]}, key=str)))
                   for c in labels.get("conflicts") or []])
    _compare_sets(res, "secondhand-only", [(canon(s), m, v, f) for s, m, v, f in read_secondhand(diff, claims)],
                  [(e["subject"], e.get("metric"), _mag_label(e["value"]), e["file"]) for e in labels.get("secondhand_only") or []])
    _compare_sets(res, "typos", [(c, canon(s)) for c, s in read_typos(diff)],
                  [(str(t["cited"]), t["card_subject"]) for t in labels.get("typos") or []])
    _compare_claims(res, labels, [read_claim(c) for c in claims], canon)
    return res


def _alias_map(labels: dict) -> dict[str, str]:
    """Every alternative of a label key ``a|b`` -> the label key."""
    return {alt: key for key in (labels.get("subjects") or {}) for alt in str(key).split("|")}


def _mag_label(v: object) -> object:
    return (_mag(v[0]), _mag(v[1])) if isinstance(v, (list, tuple)) else _mag(v)


def _compare_subjects(res: Result, labels: dict, got: dict[str, dict], canon) -> None:
    """Outcomes per subject against ``subjects:``; with ``subjects_complete: false`` (a real-feed
    KB labels a sample) subjects outside the labels are counted apart, not scored."""
    gold = {str(k): v for k, v in (labels.get("subjects") or {}).items()}
    complete = labels.get("subjects_complete", True)
    seen: dict[str, list[str]] = defaultdict(list)
    for key, s in got.items():
        seen[canon(key)].append(s["outcome"])
    extra = 0
    for key in sorted(set(gold) | set(seen)):
        if key not in gold and not complete:
            extra += 1
            continue
        want = gold.get(key, "unlisted")
        outs = seen.get(key) or ["unlisted"]
        have = outs[0] if len(outs) == 1 else "listed %d times (%s)" % (len(outs), ", ".join(outs))
        res.scores[f"outcome {want}"].gold += 1
        if have in OUTCOMES:
            res.scores[f"outcome {have}"].pred += 1
        if have == want:
            res.scores[f"outcome {want}"].tp += 1
        else:
            res.mismatches.append(f"subject {key}: expected {want}, kb {have}")
    if extra:
        res.scores["unlabelled subjects (not scored)"].pred += extra
    no_card_got = {canon(k) for k, s in got.items() if s["outcome"] == "net-new" and not s["card"]}
    if not complete:
        no_card_got &= set(gold)
    _compare_sets(res, "no-card", sorted(no_card_got), list(labels.get("no_card") or []))


def _compare_sets(res: Result, name: str, got: list, gold: list) -> None:
    score = res.scores[name]
    score.gold += len(gold)
    score.pred += len(got)
    rest = list(got)
    for item in gold:
        if item in rest:
            rest.remove(item)
            score.tp += 1
        else:
            res.mismatches.append(f"{name}: missing {item}")
    for item in rest:
        res.mismatches.append(f"{name}: unexpected {item}")


def _compare_claims(res: Result, labels: dict, claims: list[dict], canon) -> None:
    for lab in labels.get("claims") or []:
        where = f"{lab['file']} «{lab['text']}»"
        found = [c for c in claims if c["file"] == lab["file"] and lab["text"] in c["text"]]
        claim = found[0] if len(found) == 1 else None
        if claim is None:
            res.mismatches.append(f"claim {where}: {'no claim' if not found else f'{len(found)} claims match'}")
        if "kind" in lab and claim is None:
            res.scores["kind"].gold += 1
        elif "kind" in lab:
            _field(res, "kind", where, lab["kind"], claim["kind"])
        for ql in lab.get("quantities") or []:
            q = _find_quantity(claim, ql) if claim else None
            label = ql.get("value", (ql.get("low"), ql.get("high")))
            if claim and q is None:
                res.mismatches.append(f"quantity {where} {label}: kb has no quantity of this value")
            for f in ("value", "low", "high", "unit", "bound", "metric", "transition", "subject"):
                if f not in ql:
                    continue
                if q is None:
                    res.scores[f"quantity {f}"].gold += 1
                    continue
                have = canon(q[f]) if f == "subject" and q[f] else q[f]
                _field(res, f"quantity {f}", f"{where} {label}", ql[f], have)
    for lab in labels.get("not_claims") or []:
        bad = [c for c in claims if c["file"] == lab["file"] and c["text"].startswith(lab["text"])]
        s = res.scores["non-claims"]
        s.gold += 1
        s.pred += 1
        if bad:
            res.mismatches.append(f"non-claim {lab['file']} «{lab['text']}»: kb made a {bad[0]['kind']} claim")
        else:
            s.tp += 1


def _find_quantity(claim: dict, ql: dict) -> dict | None:
    """The claim's quantity with the label's magnitude (value, or low and high)."""
    for q in claim["quantities"]:
        if "value" in ql and q["value"] is not None and _mag(q["value"]) == _mag(ql["value"]):
            return q
        if "low" in ql and _mag(q["low"]) == _mag(ql["low"]) and _mag(q["high"]) == _mag(ql["high"]):
            return q
    return None


def _field(res: Result, name: str, where: str, want: object, have: object) -> None:
    """Score one labelled field that kb gave a value for; a difference is a mismatch."""
    score = res.scores[name]
    score.gold += 1
    score.pred += 1
    if have == want or (isinstance(have, float) and isinstance(want, (int, float)) and not isinstance(want, bool)
                        and abs(have - want) <= 1e-9 * max(abs(have), abs(want))):  # 2 TiB in bytes, floats
        score.tp += 1
    else:
        res.mismatches.append(f"{name} {where}: expected {want!r}, kb {have!r}")


# --------------------------------------------------------------------------- report


def nights(names: list[str] | None = None) -> list[Path]:
    """The labelled nights (folders of tests/nights with an expected.yaml), optionally by name."""
    found = sorted(p.parent for p in NIGHTS.glob("*/expected.yaml"))
    return [p for p in found if not names or p.name in names]


def evaluate(night: Path) -> Result | None:
    """Run kb on one night and compare; None when it needs ../shared/realdata and that is absent."""
    labels = load_labels(night)
    if needs_realdata(labels) and not REALDATA.is_dir():
        return None
    return compare(night.name, labels, run_kb(night, labels))


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:5.1f}%" if b else "   - "


def print_table(results: list[Result]) -> None:
    """Print gold / kb / ok counts, precision and recall per field, summed over ``results``."""
    total: dict[str, Score] = defaultdict(Score)
    for r in results:
        for k, s in r.scores.items():
            total[k].add(s)
    print(f"{'field':28} {'gold':>5} {'kb':>5} {'ok':>5} {'precision':>9} {'recall':>7}")
    for k in sorted(total):
        s = total[k]
        print(f"{k:28} {s.gold:5} {s.pred:5} {s.tp:5} {_pct(s.tp, s.pred):>9} {_pct(s.tp, s.gold):>7}")


def main(argv: list[str]) -> int:
    """Print precision/recall per field (all nights together and per night) and every mismatch."""
    quiet = "--quiet" in argv
    if "--realfeeds" in argv:
        return main_realfeeds(argv, quiet)
    results = []
    for night in nights([a for a in argv if not a.startswith("--")]):
        r = evaluate(night)
        if r is None:
            print(f"{night.name}: skipped (../shared/realdata absent)")
            continue
        results.append(r)
    print_table(results)
    bad = 0
    for r in results:
        bad += len(r.mismatches)
        print(f"\n## {r.night}: {len(r.mismatches)} mismatches")
        if not quiet:
            for m in r.mismatches:
                print("  - " + m)
    return 1 if bad else 0


def main_realfeeds(argv: list[str], quiet: bool) -> int:
    """``--realfeeds [DIR] [KB ...]``: score the rebuilt real-feed KBs (benchmarks/realfeeds)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from accuracy_realfeeds import evaluate_realfeeds  # noqa: PLC0415 (loaded only for --realfeeds)

    rest = [a for a in argv if a not in ("--realfeeds", "--quiet")]
    i = argv.index("--realfeeds")
    out_dir = None
    nxt = argv[i + 1] if i + 1 < len(argv) else "--"
    if not nxt.startswith("--") and (Path(nxt).is_dir() or "/" in nxt or nxt.startswith(".")):
        out_dir = Path(nxt)
        rest.remove(nxt)
    return evaluate_realfeeds(out_dir, rest, quiet)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
