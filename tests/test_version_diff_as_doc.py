"""``kb diff --from/--to`` reads a kept version (``history/<topic>/vN.md``) as it reads the current
doc: the same parser path and the same subjects, so only real changes show (docs/diff.md
*Versions*). Blind night: after ``kb bump`` the older version's table rows belonged to a
made-up subject ``title:<the doc's H1>``, unchanged rows showed as removed and re-added, and the
one real cell edit (11.8 → 11.2) was not in ``values_changed``."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import write_files

KB_YAML = """\
timezone: "+08:00"
cutoff: "22:00"
default_topic: specdec
topics: {specdec: [specdec]}
entities: {vLLM: [], SGLang: []}
"""
BODY = """\
# Speculative decoding — living document

## §1 A

| Engine | GPU | TPOT (ms) |
|---|---|---|
| vLLM | H100 | 12.5 |
| SGLang | H100 | {sglang} |
"""


def _front(version: int, updated: str) -> str:
    return f"---\ntopic: specdec\nversion: {version}\nupdated: {updated}\n---\n"


def _kb(tmp_path: Path, old: str, new: str) -> Path:
    return write_files(tmp_path / "kb", {
        "kb.yaml": KB_YAML,
        "organized/knowledge/history/specdec/v1.md": _front(1, "2026-12-03T05:00:00+08:00") + BODY.format(sglang=old),
        "organized/knowledge/specdec.md": _front(2, "2026-12-04T23:36:47+08:00") + BODY.format(sglang=new),
    })


def test_only_the_edited_cell_changes(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    kb = _kb(tmp_path, "11.8", "11.2")
    r = run_kb(["diff", "specdec", "--from", "v1", "--to", "v2", "--format", "json"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["subjects_added"] == [] and d["subjects_removed"] == []
    [sec] = d["sections_changed"]
    assert sec["values_changed"] == [{"subject": "entity:sglang", "metric": "tpot", "old": ["11.8"], "new": ["11.2"],
                                      "line": 13}]
    assert sec["values_added"] == [] and sec["values_removed"] == []
    assert [c["text"] for c in sec["claims_added"]] == ["SGLang | H100 | 11.2"]
    assert [c["text"] for c in sec["claims_removed"]] == ["SGLang | H100 | 11.8"]


def test_identical_bodies_change_nothing(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    kb = _kb(tmp_path, "11.8", "11.8")
    r = run_kb(["diff", "specdec", "--from", "v1", "--to", "v2", "--format", "json"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert (d["subjects_added"], d["subjects_removed"], d["sections_changed"]) == ([], [], [])
    text = run_kb(["diff", "specdec", "--from", "v1", "--to", "v2"], cwd=kb).stdout
    assert "title:" not in text and "subjects: +0\nsubjects: -0\n" in text
