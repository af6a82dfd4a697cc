"""Control characters: terminal escape sequences in a KB file's text are removed where files are
decoded (no value read out of them, a warning naming file and lines), and a file name holding
one is refused at the walk (kb.store.walk), its name escaped in the error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import write_files
from kb.core.textio import decode


def test_decode_removes_escape_sequences_and_control_characters_with_one_warning() -> None:
    data = b"- SGLang latency 37 ms \x1b]2;title\x07\x1b[5A\x1b[1;33mbold\n\tkept tab\n\x0b\x7fend\xc2\x9b3K\n"
    got = decode(data, "inbox/ann/x.md")
    assert got.text == "- SGLang latency 37 ms bold\n\tkept tab\nend\n"
    assert [str(p) for p in got.problems] == [
        "inbox/ann/x.md:1: control characters or terminal escape sequences on 2 line(s) (1, 3); removed"]
    assert got.problems[0].severity == "warning"


def test_lint_keeps_columns_by_spaces() -> None:
    got = decode(b"a\x1b[4Cb\n", "x.md", keep_nul_lines=True)
    assert got.text == "a    b\n"


def test_no_quantity_from_an_escape_sequence_and_a_file_name_with_one_is_refused(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A file name holding ESC was stored and printed escaped (``q\\x1b[32mz.md``: a name no one can
    open); like a newline or tab in a name it is now refused at the walk, with its name escaped,
    counted as failed (exit 2), so no path kb prints or renders holds a control character."""
    root = tmp_path / "kb"
    assert run_kb(["init", str(root)]).exit_code == 0
    name = "inbox/ann/2026-08-02-0900-q.md"
    write_files(root, {name: "# 速报\n\n- SGLang throughput 618 tok/s \x1b[7J\x1b]0;T\x07done\n",
                       "inbox/ann/2026-08-02-0901-q\x1b[32mz.md": "- SGLang throughput 619 tok/s\n"})
    r = run_kb(["ingest"], cwd=root)
    assert r.exit_code == 2, r.stderr
    assert r.stderr.splitlines() == [
        "error: inbox/ann/2026-08-02-0901-q\\x1b[32mz.md: file name holds a control character; skipped (rename it)",
        ("warning: inbox/ann/2026-08-02-0900-q.md:3: control characters or terminal escape sequences on 1 line(s) (3); "
         "removed")]
    claims = json.loads(run_kb(["claims", "--format", "json"], cwd=root).stdout)
    assert [[q["value"] for q in c["quantities"]] for c in claims] == [[618.0]]
    r = run_kb(["digest", "--executor", "ann", "--date", "2026-08-02", "--out", "-"], cwd=root)
    assert r.exit_code == 0, r.stderr
    assert "\x1b" not in r.stdout and "0901" not in r.stdout
    assert name in r.stdout

@pytest.mark.parametrize(("line", "text"), [
    ("- Wombat 吞吐 9\u200b04 tok/s", "Wombat 吞吐 904 tok/s"),
    ("- Wombat 吞吐 9\u00ad05 tok/s", "Wombat 吞吐 905 tok/s"),
    ("- Wombat 吞吐 903 tok/s \u202es/kot 009\u202c", "Wombat 吞吐 903 tok/s s/kot 009"),
])
def test_invisible_characters_are_removed_before_numbers_are_read(line: str, text: str) -> None:
    """A zero-width space or soft hyphen split one number in two (9 and 4 tok/s); a bidi override
    passed raw into the brief, showing text other than the file's."""
    from kb.core.textio import decode

    got = decode((line + "\n").encode("utf-8"), "inbox/a.md")
    assert got.text == line.replace("\u200b", "").replace("\u00ad", "").replace("\u202e", "").replace("\u202c", "") + "\n"
    assert [str(p) for p in got.problems] == [
        "inbox/a.md:1: control characters or terminal escape sequences on 1 line(s) (1); removed"]
    assert text in got.text


def test_joiners_that_scripts_and_emoji_need_are_kept() -> None:
    from kb.core.textio import decode

    line = "家庭 👨\u200d👩\u200d👧 and می\u200cخواهم\n"
    got = decode(line.encode("utf-8"), "inbox/a.md")
    assert got.text == line and got.problems == []
