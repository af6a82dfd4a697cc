"""Citations no relay can be are named and never drawn as a hop: a file citing one written
later, files of one time citing each other, a file citing itself (by path or by its author's
time), a path through ``../`` with no file extension. The citing line is then a first
statement (kb.facts.relay, kb.facts.cites)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import write_files

KB_YAML = 'timezone: "+08:00"\ntopics: {serving: [serving]}\nentities: {Pangolin: []}\n'
EARLY = "inbox/odo/2026-06-02T0815-early.md"
LATE = "inbox/wen/2026-06-02T1440-late.md"
TWIN = "inbox/wen/2026-06-02T0815-twin.md"


def _trace(run_kb, tmp_path: Path, files: dict[str, str]) -> dict:
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, **files})
    (root / "organized/knowledge").mkdir(parents=True, exist_ok=True)
    res = run_kb(["--kb", str(root), "trace", "Pangolin", "--format", "json"])
    assert res.exit_code == 0, res.stderr
    return json.loads(res.stdout)


def _hops(got: dict) -> list[tuple[str, str | None, bool]]:
    return [(h["source"], h["upstream"], h["changed"]) for ch in got["chains"] for h in ch["hops"]]


def test_a_citation_of_a_later_file_is_named_and_is_no_hop(run_kb, tmp_path: Path) -> None:
    got = _trace(run_kb, tmp_path, {
        EARLY: f"# e\n\n- 转述 {LATE} 的说法：Pangolin 解码 310 tok/s。\n",
        LATE: "# l\n\n- Pangolin 解码 330 tok/s。\n",
    })
    assert _hops(got) == [(f"{EARLY}:3", None, False), (f"{LATE}:3", None, False)]
    assert [len(ch["hops"]) for ch in got["chains"]] == [1, 1]
    assert got["unresolved"] == [
        {"source": f"{EARLY}:3", "ref": LATE,
         "reason": "written 2026-06-02 14:40, after the citing file (2026-06-02 08:15): a relay cannot repeat it"}]


def test_a_cycle_broken_by_time_keeps_the_later_files_hop(run_kb, tmp_path: Path) -> None:
    got = _trace(run_kb, tmp_path, {
        EARLY: f"# e\n\n- 转述 {LATE} 的说法：Pangolin 解码 310 tok/s。\n",
        LATE: f"# l\n\n- 转述 {EARLY} 的说法：Pangolin 解码 330 tok/s。\n",
    })
    assert _hops(got) == [(f"{EARLY}:3", None, False), (f"{LATE}:3", f"{EARLY}:3", True)]
    assert got["chains"][0]["changed_at"] == [f"{LATE}:3"]
    assert [u["reason"] for u in got["unresolved"]] == [
        "written 2026-06-02 14:40, after the citing file (2026-06-02 08:15): a relay cannot repeat it",
        "the files cite each other (a citation cycle): no file of it is the first"]
    text = run_kb(["--kb", str(tmp_path / "kb"), "trace", "Pangolin"]).stdout
    assert f"{EARLY}:3  ←" not in text and f"{LATE}:3  ← {EARLY}:3  CHANGED (310 tok/s → 330 tok/s)" in text


def test_files_of_one_time_citing_each_other_are_both_first_statements(run_kb, tmp_path: Path) -> None:
    got = _trace(run_kb, tmp_path, {
        EARLY: f"# e\n\n- 转述 {TWIN} 的说法：Pangolin 解码 310 tok/s。\n",
        TWIN: f"# t\n\n- 转述 {EARLY} 的说法：Pangolin 解码 330 tok/s。\n",
    })
    assert _hops(got) == [(f"{EARLY}:3", None, False), (f"{TWIN}:3", None, False)]
    assert got["unresolved"] == [
        {"source": f"{EARLY}:3", "ref": f"{EARLY} → {TWIN} → {EARLY}",
         "reason": "the files cite each other (a citation cycle): no file of it is the first"}]


def test_self_citations_and_paths_leaving_the_kb_are_listed(run_kb, tmp_path: Path) -> None:
    got = _trace(run_kb, tmp_path, {
        EARLY: (f"# e\n\n- 转述 {EARLY} 的说法：Pangolin 解码 310 tok/s。\n"
                "- 按 odo 0815 笔记，Pangolin 预填 5,200 tok/s。\n"
                "- 按 ../../../../var/log/syslog 所记，Pangolin 解码 290 tok/s。\n"),
    })
    assert got["unresolved"] == [
        {"source": f"{EARLY}:3", "ref": EARLY,
         "reason": "the file cites itself: a citation of its own file is no source"},
        {"source": f"{EARLY}:4", "ref": EARLY,  # by its author and time: the file it names
         "reason": "the file cites itself: a citation of its own file is no source"},
        {"source": f"{EARLY}:5", "ref": "../../../../var/log/syslog",
         "reason": "a path that leaves the KB (../); kb follows citations of KB files only (inbox/…, organized/…)"},
    ]
    assert all(upstream is None for _, upstream, _ in _hops(got))


def test_a_path_relative_to_the_citing_file_is_listed(run_kb, tmp_path: Path) -> None:
    got = _trace(run_kb, tmp_path, {
        EARLY: "# e\n\n- 见 ./2026-06-02T0815-early.md，Pangolin 解码 300 tok/s。\n",
    })
    assert got["unresolved"] == [
        {"source": f"{EARLY}:3", "ref": "./2026-06-02T0815-early.md",
         "reason": "a path relative to the citing file (./); kb follows KB-relative citations only (inbox/…, organized/…)"},
    ]
    assert all(upstream is None for _, upstream, _ in _hops(got))
