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


def test_a_change_log_entry_is_a_line_not_a_value(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """A value only the change log states is no value of the doc (docs/diff.md): the new entry is
    listed as an added line, its date and figures are no value change of SGLang."""
    log = "\n## §2 Changelog\n\n- v1 (2026-12-03): first table.\n"
    kb = write_files(tmp_path / "kb", {
        "kb.yaml": KB_YAML,
        "organized/knowledge/history/specdec/v1.md": _front(1, "2026-12-03T05:00:00+08:00") + BODY.format(sglang="11.8") + log,
        "organized/knowledge/specdec.md": _front(2, "2026-12-04T23:36:47+08:00") + BODY.format(sglang="11.2") + log
        + "- v2 (2026-12-05): SGLang TPOT 11.8 → 11.2 ms.\n",
    })
    r = run_kb(["diff", "specdec", "--from", "v1", "--to", "v2", "--format", "json"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    log_sec = next(s for s in d["sections_changed"] if s["label"] == "§2")
    assert [c["text"] for c in log_sec["claims_added"]] == ["v2 (2026-12-05): SGLang TPOT 11.8 → 11.2 ms."]
    assert (log_sec["values_added"], log_sec["values_removed"], log_sec["values_changed"]) == ([], [], [])
    body = next(s for s in d["sections_changed"] if s["label"] == "§1")
    assert [(v["subject"], v["metric"], v["old"], v["new"]) for v in body["values_changed"]] == [
        ("entity:sglang", "tpot", ["11.8"], ["11.2"])]
