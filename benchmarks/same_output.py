"""What the parser reads from a set of KBs, hashed: a speed change must leave it unchanged.

Usage:
    python benchmarks/same_output.py [KB_DIR ...] [--write FILE | --check FILE] [--gen 300]

Each KB (default: the repo's demo KB, every labelled night under ``tests/nights/`` and a
:mod:`gen_kb` KB of ``--gen`` inbox files, seed 7) is parsed file by file with
:class:`kb.read.parse.Parser` and its own ``kb.yaml``; every file's claims (kinds, subjects,
quantities, provenance …), mentions, headings, problems and invalid ids are dumped as JSON.
Prints one line per KB: files, claims and the SHA-256 of the dump. ``--write FILE`` keeps the
dumps (one JSON line per file); ``--check FILE`` compares with them and names the first
differing file of each KB and what differs, exiting 1 when any does.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import gen_kb  # noqa: E402  (beside this file)


def _plain(o: Any) -> Any:
    if hasattr(o, "model_dump"):
        return o.model_dump(mode="json")
    if dataclasses.is_dataclass(o) and not isinstance(o, type):
        return {f.name: getattr(o, f.name) for f in dataclasses.fields(o)}
    return str(o)


def dump(root: Path) -> dict[str, str]:
    """File path -> the JSON of what the parser reads of it."""
    from kb.core.config import load_config
    from kb.read.parse import Parser
    from kb.store.walk import iter_kb_files

    parser = Parser(load_config(root))
    out = {}
    for rel, _ in iter_kb_files(root):
        parsed = parser.parse_bytes(rel, (root / rel).read_bytes())
        out[rel] = json.dumps(_plain(parsed), default=_plain, ensure_ascii=False, sort_keys=True)
    return out


def _first_difference(a: str, b: str) -> str:
    x, y = json.loads(a), json.loads(b)
    for key in sorted(set(x) | set(y)):
        if x.get(key) != y.get(key):
            xs, ys = json.dumps(x.get(key), ensure_ascii=False), json.dumps(y.get(key), ensure_ascii=False)
            i = next((i for i, (p, q) in enumerate(zip(xs, ys)) if p != q), min(len(xs), len(ys)))
            return f"{key}: …{xs[max(0, i - 60):i + 80]}… vs …{ys[max(0, i - 60):i + 80]}…"
    return "?"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kbs", nargs="*", type=Path)
    ap.add_argument("--write", type=Path)
    ap.add_argument("--check", type=Path)
    ap.add_argument("--gen", type=int, default=300)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        kbs = list(a.kbs)
        if not kbs:
            gen = Path(tmp) / "gen"
            gen_kb.generate(gen, a.gen, a.gen // 5, 5, seed=7)
            kbs = [REPO, *sorted(p for p in (REPO / "tests" / "nights").iterdir() if (p / "inbox").is_dir()), gen]
        kept: dict[str, dict[str, str]] = {}
        if a.check:
            for line in a.check.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                kept.setdefault(row["kb"], {})[row["file"]] = row["dump"]
        rows, differ = [], 0
        for root in kbs:
            # (named apart from where the tree lies, so that two worktrees' dumps compare)
            name = ("gen" if root.parent == Path(tmp) else
                    str(root.resolve().relative_to(REPO)) if root.resolve().is_relative_to(REPO) else str(root))
            got = dump(root)
            digest = hashlib.sha256("\n".join(f"{k}\t{v}" for k, v in got.items()).encode()).hexdigest()[:16]
            claims = sum(len(json.loads(v)["claims"]) for v in got.values())
            print(f"{name:<60} {len(got):5} files {claims:6} claims  {digest}", flush=True)
            rows += [{"kb": name, "file": k, "dump": v} for k, v in got.items()]
            if a.check:
                before = kept.get(name, {})
                for k in sorted(set(before) | set(got)):
                    if before.get(k) != got.get(k):
                        differ += 1
                        why = _first_difference(before[k], got[k]) if k in before and k in got else "missing"
                        print(f"  differs: {k}: {why}")
                        break
    if a.write:
        a.write.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
