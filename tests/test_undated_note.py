"""Inbox files with no date in their name or front matter are in no night's window: kb digest
and kb diff name them once, in a note (text and JSON)."""

from __future__ import annotations

from pathlib import Path

from conftest import write_files

NOTE = ("note: 2 inbox file(s) without a date in their name or front matter are in no night's window "
        "(give each a date to have it read): inbox/jay/-2026-07-31-dash.md, inbox/jay/notes.md\n")


def _kb(tmp_path: Path) -> Path:
    return write_files(tmp_path / "kb", {
        "kb.yaml": 'timezone: "+08:00"\ncutoff: "22:00"\ntopics: [inference]\nentities:\n  TGI: []\n',
        "organized/knowledge/inference.md": "---\ntopic: inference\nversion: 2\nupdated: 2026-07-30T05:00:00+08:00\n"
                                            "---\n# inference\n## §1 O\n- TGI 300 tok/s.\n",
        "inbox/jay/2026-07-31-real.md": "- TGI 310 tok/s.\n",
        "inbox/jay/notes.md": "- TGI 320 tok/s.\n",
        "inbox/jay/-2026-07-31-dash.md": "- TGI 330 tok/s.\n",
    })


def test_digest_and_diff_name_the_undated_files_once(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kb = _kb(tmp_path)
    assert run_kb(["ingest"], cwd=kb).exit_code == 0
    for args in (["digest", "--out", "-", "--executor", "x", "--date", "2026-07-31"],
                 ["digest", "--format", "json", "--executor", "x", "--date", "2026-07-31"],
                 ["diff", "inference", "--date", "2026-07-31"],
                 ["diff", "inference", "--date", "2026-07-31", "--format", "json"]):
        r = run_kb(args, cwd=kb)
        assert r.exit_code == 0, (args, r.stderr)
        assert r.stderr.count(NOTE) == 1, (args, r.stderr)
        assert "330" not in r.stdout and "320" not in r.stdout


def test_no_note_when_every_file_is_dated(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kb = _kb(tmp_path)
    (kb / "inbox/jay/notes.md").unlink()
    (kb / "inbox/jay/-2026-07-31-dash.md").write_text("---\ndate: 2026-07-31\n---\n- TGI 330 tok/s.\n", encoding="utf-8")
    r = run_kb(["diff", "inference", "--date", "2026-07-31"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    assert "without a date" not in r.stderr
    assert "330" in r.stdout
