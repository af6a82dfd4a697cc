"""Control, invisible and direction characters a front-matter value writes as YAML escapes are
removed as decode removes them from a file's text, with one warning naming the keys."""

from __future__ import annotations

from pathlib import Path

from conftest import write_files
from kb.core.frontmatter import split


def test_yaml_escapes_are_removed_from_every_text() -> None:
    fm, _ = split('---\ntitle: ok\nauthor: "red\\u202e\\x1b[31m"\ntags: ["a\\u2066b", 3]\n---\nbody\n', "x.md")
    assert fm.data == {"title": "ok", "author": "red", "tags": ["ab", 3]}
    assert [(p.line, p.message, p.severity) for p in fm.problems] == [
        (3, "control, invisible or direction characters written as YAML escapes in author, tags; removed", "warning")]


def test_plain_front_matter_has_no_warning() -> None:
    fm, _ = split("---\nauthor: 张三\n---\n", "x.md")
    assert (fm.data, fm.problems) == ({"author": "张三"}, [])


def test_the_override_reaches_no_output(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kb = write_files(tmp_path / "kb", {
        "kb.yaml": 'timezone: "+08:00"\ntopics: [inference]\nentities:\n  TGI: []\n',
        "inbox/jay/2026-07-31-i.md": '---\nauthor: "\\x1b[31mred\\u202e"\n---\nTGI 308 tok/s\n',
    })
    r = run_kb(["ingest"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    assert ("warning: inbox/jay/2026-07-31-i.md:2: control, invisible or direction characters written as YAML "
            "escapes in author; removed") in r.stderr
    for args in (["history", "TGI"], ["trace", "TGI"], ["claims", "--format", "json"]):
        r = run_kb(args, cwd=kb)
        assert r.exit_code == 0, r.stderr
        assert "\u202e" not in r.stdout and "\x1b" not in r.stdout
    assert "308 tok/s  #0  red  secondhand" in run_kb(["history", "TGI"], cwd=kb).stdout
