"""Which files `kb lint PATH…` reads: folders give their regular *.md files; links are not
followed when expanding folders (as in kb ingest); a named folder with no Markdown is exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

DOC = "---\ntopic: t\nversion: 1\nupdated: 2026-07-31T05:00:00+08:00\n---\n# t\n\n## §1 a\n\n- text\n"


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    (root / "organized" / "knowledge").mkdir(parents=True)
    a = root / "inbox" / "a"
    a.mkdir(parents=True)
    (a / "x.md").write_text(DOC, encoding="utf-8")
    return root


def _files(stderr: str) -> str:
    return stderr.strip().splitlines()[-1]


def test_a_folder_given_as_a_link_is_not_followed(kb: Path, run_kb) -> None:
    (kb / "inbox" / "a" / "loop").symlink_to("../a")
    r = run_kb(["lint", "inbox/a/loop"], cwd=kb)
    assert r.exit_code == 2
    assert ("error: nothing to lint: inbox/a/loop (-> inbox/a): a link to a folder is not followed (as in kb "
            "ingest); name the folder itself") in " ".join(r.stderr.split())
    both = run_kb(["lint", "inbox/a/loop", "inbox/a"], cwd=kb)
    assert both.exit_code == 0
    assert ("note: inbox/a/loop: a link to a folder, not followed (kb lint, like kb ingest, does not follow links "
            "to folders); name the folder itself: inbox/a") in both.stderr
    assert _files(both.stderr) == "0 errors, 0 warnings, 0 info in 1 file"


def test_links_in_a_folder_are_not_followed(kb: Path, run_kb) -> None:
    a = kb / "inbox" / "a"
    (a / "y.md").symlink_to("x.md")
    (a / "z.md").symlink_to("../a")
    r = run_kb(["lint", "--format", "json", "inbox/a"], cwd=kb)
    assert r.exit_code == 0 and r.stdout.strip() == "[]"
    assert ("note: inbox/a: 2 link(s) not followed (y.md, z.md): kb lint, like kb ingest, does not follow links "
            "when expanding a folder; name a link to lint it") in r.stderr
    named = run_kb(["lint", "inbox/a/y.md"], cwd=kb)  # a link named explicitly is read
    assert named.exit_code == 0 and _files(named.stderr) == "0 errors, 0 warnings, 0 info in 1 file"


def test_a_link_that_loops_is_an_input_error(kb: Path, run_kb) -> None:
    (kb / "inbox" / "self").symlink_to("self")
    r = run_kb(["lint", "inbox/self"], cwd=kb)
    assert r.exit_code == 2 and "inbox/self: a link that leads nowhere (broken, or a loop)" in r.stderr


@pytest.mark.parametrize("make", ["x.md", "empty", "only-subfolder"])
def test_a_named_folder_without_markdown_is_a_usage_error(kb: Path, run_kb, make: str) -> None:
    folder = kb / "inbox" / make
    folder.mkdir()
    if make == "only-subfolder":
        (folder / "sub.md").mkdir()  # a folder named *.md is a folder, not a file
        (folder / "sub.md" / "deep.md").write_text(DOC, encoding="utf-8")
        (folder / "notes.txt").write_text("x", encoding="utf-8")
    r = run_kb(["lint", f"inbox/{make}"], cwd=kb)
    assert r.exit_code == 2
    assert (f"error: inbox/{make}: a folder with no Markdown file (*.md) in it to lint; kb lint reads the *.md "
            "files of a folder, not its subfolders nor links") in " ".join(r.stderr.split())


def test_a_folder_named_md_among_files_is_skipped(kb: Path, run_kb) -> None:
    (kb / "inbox" / "a" / "w.md").mkdir()
    r = run_kb(["lint", "inbox/a"], cwd=kb)
    assert r.exit_code == 0 and _files(r.stderr) == "0 errors, 0 warnings, 0 info in 1 file"


def test_an_empty_kb_is_still_fine_when_no_path_is_given(kb: Path, run_kb) -> None:
    r = run_kb(["lint"], cwd=kb)
    assert r.exit_code == 0 and _files(r.stderr) == "0 errors, 0 warnings, 0 info in 0 files"
