"""--diff prints a patch `git apply` takes (no final newline, CRLF, CR alone, GB18030, odd
names); fixes never change code or HTML comments; a fix that cannot be written is exit 2."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kb.lint.base import Edit, Finding
from kb.lint.fix import fix_bytes, unified_diff
from kb.lint.lines import LineIndex, protected_spans

HEAD = "---\ntopic: t\nversion: 1\nupdated: 2026-07-31T05:00:00+08:00\ncitations: 5\n---\n# t\n\n## §1 a\n\n"
BODY = "- 见 ARXIV:2401.12345（arXiv：2401.12346）。\n- 末行"
DOC = HEAD + BODY  # no final newline


def _fixed(text: str) -> str:
    """What --fix makes of DOC-like text: both prefixes canonical, citations counted."""
    return (text.replace("citations: 5", "citations: 2").replace("ARXIV:2401", "arXiv:2401")
            .replace("arXiv：2401", "arXiv:2401"))


def _git(repo: Path, *args: str, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-c", "user.email=t@example.org", "-c", "user.name=t", "-c", "core.autocrlf=false",
                           "-C", str(repo), *args], input=data, capture_output=True)


def _repo(tmp_path: Path, name: str, data: bytes) -> tuple[Path, Path]:
    root = tmp_path / "kb"
    (root / "organized" / "knowledge").mkdir(parents=True)
    doc = root / "organized" / "knowledge" / name
    doc.write_bytes(data)
    assert _git(root, "init", "-q").returncode == 0
    assert _git(root, "add", "-A").returncode == 0
    assert _git(root, "commit", "-qm", "init").returncode == 0
    return root, doc


def _kb_diff(root: Path) -> subprocess.CompletedProcess[bytes]:
    """``kb lint --diff`` in a real process: stdout is the bytes a shell pipe would carry."""
    return subprocess.run([sys.executable, "-m", "kb", "lint", "--diff"], cwd=root, capture_output=True,
                          env={**os.environ, "NO_COLOR": "1"})


needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

VARIANTS = {
    "no-final-newline": (DOC.encode(), _fixed(DOC).encode()),
    "crlf": (DOC.replace("\n", "\r\n").encode(), _fixed(DOC).replace("\n", "\r\n").encode()),
    "crlf-final": ((DOC + "\n").replace("\n", "\r\n").encode(), (_fixed(DOC) + "\n").replace("\n", "\r\n").encode()),
    "cr-only": (DOC.replace("\n", "\r").encode(), _fixed(DOC).replace("\n", "\r").encode()),
    "mixed": (DOC.replace("\n", "\r\n", 4).replace("\n", "\r", 3).encode(),
              _fixed(DOC).replace("\n", "\r\n", 4).replace("\n", "\r", 3).encode()),
    "gb18030": ((DOC + "\n").encode("gb18030"), (_fixed(DOC) + "\n").encode("gb18030")),
    "gb18030-crlf": (DOC.replace("\n", "\r\n").encode("gb18030"), _fixed(DOC).replace("\n", "\r\n").encode("gb18030")),
    "bom": (b"\xef\xbb\xbf" + DOC.encode(), b"\xef\xbb\xbf" + _fixed(DOC).encode()),
}


@needs_git
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_diff_is_a_patch_git_apply_takes(tmp_path: Path, variant: str) -> None:
    original, expected = VARIANTS[variant]
    root, doc = _repo(tmp_path, "t.md", original)
    r = _kb_diff(root)
    assert r.returncode == 1, r.stderr.decode(errors="replace")
    assert doc.read_bytes() == original  # --diff writes nothing
    check = _git(root, "apply", "--check", "-", data=r.stdout)
    assert check.returncode == 0, check.stderr.decode(errors="replace")
    assert _git(root, "apply", "-", data=r.stdout).returncode == 0
    assert doc.read_bytes() == expected  # the patch does exactly what --fix does
    assert _kb_diff(root).stdout == b""  # nothing left to fix


@needs_git
@pytest.mark.parametrize("name", ["my file.md", "中文.md", 'q"b\\s.md'])
def test_diff_names_files_as_git_does(tmp_path: Path, name: str) -> None:
    root, doc = _repo(tmp_path, name, DOC.encode())
    r = _kb_diff(root)
    assert _git(root, "apply", "-", data=r.stdout).returncode == 0
    assert doc.read_bytes() == _fixed(DOC).encode()


def test_diff_marks_a_missing_final_newline() -> None:
    old = b"a\nARXIV:2401.12345"
    f = Finding("d.md", 2, 1, "KB116", "n", "info", "m", (Edit(2, 0, 6, "arXiv:"),))
    out = fix_bytes("d.md", old, "utf-8", ["a", "ARXIV:2401.12345"], [f])
    assert unified_diff(out) == (b"diff --git a/d.md b/d.md\n--- a/d.md\n+++ b/d.md\n@@ -1,2 +1,2 @@\n a\n"
                                 b"-ARXIV:2401.12345\n\\ No newline at end of file\n"
                                 b"+arXiv:2401.12345\n\\ No newline at end of file\n")


def test_diff_of_a_gb18030_file_is_in_gb18030_and_says_so(tmp_path: Path) -> None:
    root = tmp_path / "kb"
    (root / "organized" / "knowledge").mkdir(parents=True)
    (root / "organized" / "knowledge" / "t.md").write_bytes((DOC + "\n").encode("gb18030"))
    r = _kb_diff(root)
    assert "- 见 ARXIV:2401.12345（arXiv：2401.12346）。".encode("gb18030") in r.stdout
    assert "见".encode() not in r.stdout
    assert "note: organized/knowledge/t.md: GB18030 file: its diff lines are GB18030 bytes" in r.stderr.decode()


CODE_AND_COMMENTS = HEAD.replace("citations: 5\n", "") + (
    "- prose ARXIV:2401.10001 <!-- ARXIV:2401.10002 --> and `ARXIV:2401.10003`\n"
    "<!--\nARXIV:2401.10004\n-->\n"
    "- a span `across\n  ARXIV:2401.10005` lines; an escaped \\`ARXIV:2401.10006\n"
    "- a comment <!-- across\n  ARXIV:2401.10007 --> lines\n\n"
    "```\nARXIV:2401.10008\n```\n\n"
    "~~~markdown\narXiv：2401.10009\n~~~\n\n"
    "    ARXIV:2401.10010\n\n"
    "- list\n\n  ```\n  ARXIV:2401.10011\n  ```\n\n"
    "> quoted\n> ```\n> ARXIV:2401.10012\n> ```\n\n"
    "<pre>\nARXIV:2401.10013\n</pre>\n\n"
    "| id | note |\n|---|---|\n| `ARXIV:2401.10014` | ARXIV:2401.10015 |\n"
)


def test_fix_never_touches_code_or_comments(tmp_path: Path, run_kb) -> None:
    root = tmp_path / "kb"
    (root / "organized" / "knowledge").mkdir(parents=True)
    doc = root / "organized" / "knowledge" / "t.md"
    doc.write_bytes(CODE_AND_COMMENTS.encode())
    r = run_kb(["lint", "--select", "KB116", "--format", "json"], cwd=root)
    import json

    lines = CODE_AND_COMMENTS.split("\n")
    hit = sorted(lines[f["line"] - 1][f["column"] - 1:f["column"] + 15] for f in json.loads(r.stdout))
    assert hit == ["ARXIV:2401.10001", "ARXIV:2401.10006", "ARXIV:2401.10015"]
    fixed = run_kb(["lint", "--fix", "--select", "KB116"], cwd=root)
    assert "fixed 3 findings" in fixed.stderr
    assert doc.read_bytes() == (CODE_AND_COMMENTS.replace("ARXIV:2401.10001", "arXiv:2401.10001")
                                .replace("ARXIV:2401.10006", "arXiv:2401.10006")
                                .replace("ARXIV:2401.10015", "arXiv:2401.10015").encode())


def test_protected_spans_cover_code_and_comments_only() -> None:
    lines = CODE_AND_COMMENTS.split("\n")
    index = LineIndex(lines, set())
    for n, line in enumerate(lines, 1):
        for col in range(len(line)):
            if line.startswith("ARXIV:2401.100", col) or line.startswith("arXiv：2401.100", col):
                free = line[col:col + 16] in ("ARXIV:2401.10001", "ARXIV:2401.10006", "ARXIV:2401.10015")
                assert index.protected(n, col, col + 6) is not free, (n, line)
    assert not protected_spans(["---", "x: `a` <!-- b -->", "---", "text"], 3)  # front matter is not code


def test_a_fix_inside_code_or_a_comment_is_never_applied() -> None:
    lines = ["a `b` <!-- c -->", ""]
    edits = [Finding("p", 1, 1, "KB116", "n", "info", "m", (Edit(1, s, e, "X"),)) for s, e in [(3, 4), (11, 12), (0, 1)]]
    out = fix_bytes("p", b"a `b` <!-- c -->\n", "utf-8", lines, edits)
    assert out.data == b"X `b` <!-- c -->\n" and out.applied == 1
    assert out.notes == ["p: 2 fix(es) not applied: they would change code or an HTML comment"]


def _fixable(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "kb"
    (root / "organized" / "knowledge").mkdir(parents=True)
    doc = root / "organized" / "knowledge" / "t.md"
    doc.write_bytes(DOC.encode())
    return root, doc


def test_fix_that_cannot_be_written_is_an_input_error(tmp_path: Path, run_kb, monkeypatch) -> None:
    root, doc = _fixable(tmp_path)
    other = doc.with_name("a.md")
    other.write_bytes(DOC.encode())

    def refuse(path: Path, data: bytes) -> None:
        if path.name == "t.md":
            raise PermissionError(13, "Permission denied", str(path.parent))
        path.write_bytes(data)

    monkeypatch.setattr("kb.lint.fix.write_atomic", refuse)
    r = run_kb(["lint", "--fix"], cwd=root)
    assert r.exit_code == 2
    assert ("error: organized/knowledge/t.md: cannot write the fixes (Permission denied); the file is unchanged; "
            "already fixed: organized/knowledge/a.md") in " ".join(r.stderr.split())
    assert "Traceback" not in r.stderr
    assert doc.read_bytes() == DOC.encode() and other.read_bytes() == _fixed(DOC).encode()


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs POSIX permissions and a non-root user")
def test_fix_in_a_read_only_folder(tmp_path: Path, run_kb) -> None:
    root, doc = _fixable(tmp_path)
    doc.parent.chmod(0o555)
    try:
        r = run_kb(["lint", "--fix"], cwd=root)
    finally:
        doc.parent.chmod(0o755)
    assert r.exit_code == 2
    assert "organized/knowledge/t.md: cannot write the fixes (Permission denied); the file is unchanged" in r.stderr
    assert doc.read_bytes() == DOC.encode() and list(doc.parent.iterdir()) == [doc]
