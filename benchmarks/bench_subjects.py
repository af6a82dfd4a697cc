"""Subject coverage on paper-shaped real files (issue 20): the share of claims with a number that
carry a subject, in files shaped around papers (paper-per-file notes; daily reports whose papers
are title headings), as ``kb claims`` prints them (the Attributor's answer).

Usage:
    python benchmarks/bench_subjects.py [--shared ../shared] [--verbose]

Reads ``realdata/paper-notes/*.md`` and the title-heading briefings of ``realdata/briefings``
(``langq1225…``) from ``../shared`` (never copied into the repo: each run puts them in a
temporary KB's inbox with the repo's kb.yaml). Prints, per file and in all, the claims with a
number and how many of them have a subject; with ``--verbose`` every such claim and its subjects. Exits 0
and prints a note when ``../shared`` is absent.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHAPED = ("paper-notes/", "briefings/langq1225_")


def _files(realdata: Path) -> list[Path]:
    """The paper-shaped files of ``realdata``, sorted."""
    out = sorted((realdata / "paper-notes").glob("*.md"))
    out += sorted((realdata / "briefings").glob("langq1225_*.md"))
    return out


def _kb(args: list[str], root: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    res = subprocess.run([sys.executable, "-m", "kb", *args], cwd=root, env=env, capture_output=True, text=True, check=False)
    if res.returncode not in (0, 1):
        raise SystemExit(f"kb {' '.join(args)} failed ({res.returncode}): {res.stderr}")
    return res.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default=str(REPO.parent / "shared"))
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    realdata = Path(args.shared) / "realdata"
    if not realdata.is_dir():
        print(f"skipped: {realdata} is not present")
        return
    files = _files(realdata)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copy2(REPO / "kb.yaml", root / "kb.yaml")
        names = {}
        for i, f in enumerate(files):
            rel = f"inbox/bench/2026-11-{i + 1:02d}-{f.stem[-40:].strip('-.@')}.md"
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, root / rel)
            names[rel] = f"{f.parent.name}/{f.name}"
        _kb(["ingest"], root)
        claims = json.loads(_kb(["claims", "--format", "json"], root) or "[]")
    total = have = 0
    print(f"{'file':70} {'numbers':>7} {'subject':>7} {'share':>6}")
    for rel, name in names.items():
        mine = [c for c in claims if c["provenance"]["path"] == rel and c.get("quantities")]
        ok = [c for c in mine if c.get("subjects")]
        total += len(mine)
        have += len(ok)
        share = f"{100 * len(ok) / len(mine):.0f}%" if mine else "-"
        print(f"{name[:70]:70} {len(mine):7} {len(ok):7} {share:>6}")
        if args.verbose:
            for c in mine:
                print(f"    {c['provenance']['line']:4}: {','.join(c.get('subjects') or ['-'])[:60]:60} {c['text'][:70]}")
    print(f"{'all':70} {total:7} {have:7} {100 * have / max(total, 1):5.1f}%")


if __name__ == "__main__":
    main()
