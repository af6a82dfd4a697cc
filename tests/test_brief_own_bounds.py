"""Each value the brief lists carries its own statement's bound (claims.md: "Each end keeps its
bound"), never the bound another subject's line writes for the same raw (blind night: EAGLE3's
``从 80% 提升到 83%`` was listed as ``≥80%`` because Ladder's line in the same file said ``不低于 80%``;
the blind line said ``SGLang 的 EAGLE3 接受率 …``, which is now SGLang's: kb.extract.subjects' engine rule)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import write_files

KB_YAML = """\
timezone: "+08:00"
cutoff: "22:00"
executor: night
topics: {specdec: [specdec]}
entities: {SGLang: [], EAGLE3: [], Ladder: []}
metrics:
  acceptance_rate: [acceptance rate, 接受率]
"""
DOC = """\
---
topic: specdec
version: 1
updated: 2026-12-03T05:00:00+08:00
---
# specdec

## §1 A

- EAGLE3 average acceptance length is 6.5 tokens.
"""
INBOX = """\
- Ladder 接受率不低于 80%。
- EAGLE3 接受率从 80% 提升到 83%（提升 3 个百分点），H100，batch 1。
"""


def _kb(tmp_path: Path) -> Path:
    return write_files(tmp_path / "kb", {
        "kb.yaml": KB_YAML,
        "organized/knowledge/specdec.md": DOC,
        "inbox/ana/2026-12-04T1000-specdec.md": INBOX,
    })


def test_each_subject_lists_its_own_bound(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    kb = _kb(tmp_path)
    r = run_kb(["digest", "--date", "2026-12-04", "--format", "json", "--out", "-"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    ctx = json.loads(r.stdout)
    shown = {e["label"]: e["secondhand_only"] for e in ctx["increments"] if e["secondhand_only"]}
    assert shown == {"Ladder": ["≥80%"], "EAGLE3": ["80%", "83%", "3 个百分点"]}
    assert {row["label"]: row["raws"] for row in ctx["verify"]} == shown
    assert {step["label"]: step["raws"] for step in ctx["next"] if step["type"] == "source"} == shown
    assert [c["secondhand_only"] for c in ctx["claims"]] == [["≥80%"], ["80%", "83%", "3 个百分点"]]


def test_the_text_brief_prints_each_rows_own_bound(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    kb = _kb(tmp_path)
    r = run_kb(["digest", "--date", "2026-12-04", "--lang", "en", "--out", "-"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    assert "1. Find a first-hand source for Ladder and check: ≥80%\n" in r.stdout
    assert "2. Find a first-hand source for EAGLE3 and check: 80%, 83%, 3 pp\n" in r.stdout
    assert "| EAGLE3: 80%, 83%, 3 pp have only secondhand sources" in r.stdout
    assert "≥80%, 83%" not in r.stdout
