"""Which version a snapshot is (its file name's), a snapshot of the current version with other
content (the current file wins), both named on stderr; and a bare bracket after a figure cites
the figure, so an entity written before it is no paper (kb history's label and values)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import write_files

HIST = "organized/knowledge/history/inference"
YAML = 'timezone: "+08:00"\ncutoff: "22:00"\ntopics: [inference]\nentities:\n  TGI: [Text Generation Inference]\n'


def _doc(version: int, updated: str, value: int) -> str:
    return f"---\ntopic: inference\nversion: {version}\nupdated: {updated}T05:00:00+08:00\n---\n# inference\n## §1 O\n- TGI {value} tok/s.\n"


def _kb(tmp_path: Path) -> Path:
    return write_files(tmp_path / "kb", {
        "kb.yaml": YAML,
        f"{HIST}/v3.md": _doc(4, "2026-07-20", 200),       # says 4, named v3
        f"{HIST}/v5.md": _doc(5, "2026-07-30", 290),       # the current version, other content
        "organized/knowledge/inference.md": _doc(5, "2026-07-31", 300),
    })


V3_NOTE = (f"{HIST}/v3.md: its front matter says version 4, its file name v3; read as v3 "
           "(a snapshot is the version its file name numbers)")
V5_NOTE = (f"{HIST}/v5.md: v5 as the current organized/knowledge/inference.md (version 5), with other content; "
           "passed over: the current file is v5")


def test_history_names_both_snapshots_and_reads_the_rule(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kb = _kb(tmp_path)
    assert run_kb(["ingest"], cwd=kb).exit_code == 0
    r = run_kb(["history", "TGI", "--format", "json"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    h = json.loads(r.stdout)
    assert [(v["version"], v["path"], v["current"], [d["raw"] for d in v["values"]]) for v in h["versions"]] == [
        (3, f"{HIST}/v3.md", False, ["200 tok/s"]),
        (5, "organized/knowledge/inference.md", True, ["300 tok/s"]),  # v5.md's 290 passed over
    ]
    assert h["notes"] == [V3_NOTE, V5_NOTE]
    assert f"note: {V3_NOTE}\nnote: {V5_NOTE}\n" in r.stderr


def test_version_diff_warns_and_as_of_names_v3(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kb = _kb(tmp_path)
    r = run_kb(["diff", "inference", "--from", "v3", "--to", "v5"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    assert f"warning: {V3_NOTE}\nwarning: {V5_NOTE}\n" in r.stderr
    assert "inference: v3 → v5" in r.stdout
    r = run_kb(["claims", "--as-of", "2026-07-21"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    assert ("note: organized/knowledge/inference.md as of 2026-07-21: v3 "
            f"({HIST}/v3.md, updated 2026-07-20 05:00+08:00)") in r.stderr


def test_agreeing_snapshots_say_nothing(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    doc = _doc(5, "2026-07-31", 300)
    kb = write_files(tmp_path / "kb", {"kb.yaml": YAML, f"{HIST}/v4.md": _doc(4, "2026-07-20", 200),
                                       f"{HIST}/v5.md": doc, "organized/knowledge/inference.md": doc})
    r = run_kb(["history", "TGI", "--format", "json"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["notes"] == []


def test_a_bare_bracket_after_a_figure_makes_no_paper_of_the_entity(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kb = write_files(tmp_path / "kb", {
        "kb.yaml": YAML,
        "organized/knowledge/inference.md": "---\ntopic: inference\nversion: 2\nupdated: 2026-07-30T05:00:00+08:00\n---\n"
                                            "# inference\n## §1 O\n- TGI throughput 300 tok/s (2607.26627).\n"
                                            "- TGI 维护模式 2025-12.\n",
        "inbox/jay/2026-07-31T1735-a.md": "# brief\n- Mooncake（arXiv:2407.00079）的吞吐 500 tok/s。\n",
    })
    r = run_kb(["history", "TGI", "--format", "json"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    h = json.loads(r.stdout)
    assert (h["subject"], h["label"]) == ("entity:tgi", "TGI")
    assert [d["raw"] for v in h["versions"] for d in v["values"]] == ["300 tok/s", "2025-12"]
    r = run_kb(["history", "2607.26627", "--format", "json"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    p = json.loads(r.stdout)
    assert (p["subject"], p["label"], p["values"]) == ("arxiv:2607.26627", "2607.26627", [])
    # a name right before its id is still the paper's
    r = run_kb(["history", "2407.00079", "--format", "json"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    m = json.loads(r.stdout)
    assert [(s["raw"], s["line"]) for s in m["sources"]] == [("500 tok/s", 2)]


def test_a_snapshot_numbered_past_the_range_is_skipped_and_named(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kb = write_files(tmp_path / "kb", {
        "kb.yaml": YAML,
        f"{HIST}/v0.md": _doc(0, "2026-07-01", 100),
        f"{HIST}/v9999999.md": _doc(9999999, "2026-07-25", 250),
        "organized/knowledge/inference.md": _doc(5, "2026-07-31", 300),
    })
    r = run_kb(["history", "TGI", "--format", "json"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    h = json.loads(r.stdout)
    assert [(v["version"], [d["raw"] for d in v["values"]]) for v in h["versions"]] == [(5, ["300 tok/s"])]
    assert h["notes"] == [
        f"{HIST}/v0.md: its number must be a positive integer such as 45, got 0; skipped",
        f"{HIST}/v9999999.md: its number is 9,999,999, over 999,999, the highest version kb reads (a typo?); skipped",
    ]
    assert "v0" not in r.stdout.replace("v0.md", "")
