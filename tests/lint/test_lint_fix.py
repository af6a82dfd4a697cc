"""--fix and --diff: only the fixed bytes change (BOM, CRLF, mode kept), a second run changes
nothing, --diff writes nothing."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from kb.lint.base import Edit, Finding
from kb.lint.fix import fix_bytes

BOM = b"\xef\xbb\xbf"
DOC = (
    "---\r\ntopic: t\r\nversion: 1\r\nupdated: 2026-07-31T05:00:00+08:00\r\ncitations: 9  # 手工维护\r\n---\r\n"
    "# t\r\n\r\n## §1 a\r\n\r\n"
    "- Lossy Verification（arXiv：2607.26627v2）与 ARXIV:2607.26627 是同一篇。\r\n"
    "- 代码原样：`arXiv：2607.26627`。\n"          # one LF line among CRLF lines
    "- vLLM 发布说明：https://github.com/vllm-project/vllm/releases\r\n"
)


def _kb(tmp_path: Path, data: bytes) -> tuple[Path, Path]:
    root = tmp_path / "kb"
    (root / "organized" / "knowledge").mkdir(parents=True)
    doc = root / "organized" / "knowledge" / "t.md"
    doc.write_bytes(data)
    os.chmod(doc, 0o644)
    return root, doc


def test_fix_changes_only_the_fixed_bytes_and_is_idempotent(tmp_path: Path, run_kb) -> None:
    original = BOM + DOC.encode()
    root, doc = _kb(tmp_path, original)
    r = run_kb(["lint", "--fix"], cwd=root)
    assert "fixed 3 findings in organized/knowledge/t.md" in r.stderr
    expected = (original.replace(b"citations: 9", b"citations: 2")
                .replace("（arXiv：2607".encode(), "（arXiv:2607".encode())
                .replace(b"ARXIV:2607", b"arXiv:2607"))
    fixed = doc.read_bytes()
    assert fixed == expected
    assert fixed.startswith(BOM) and fixed.count(b"\r\n") == original.count(b"\r\n") == 12
    assert "`arXiv：2607.26627`".encode() in fixed  # code is never touched
    assert stat.S_IMODE(doc.stat().st_mode) == 0o644
    assert r.exit_code == 0  # nothing left at error level; the card-less id is a warning
    assert [ln.split(": ")[1].split()[0] for ln in r.stdout.splitlines()] == ["KB104"]
    again = run_kb(["lint", "--fix"], cwd=root)
    assert doc.read_bytes() == expected and "fixed" not in again.stderr
    assert list(doc.parent.iterdir()) == [doc]  # no temporary file left behind


def test_diff_previews_and_writes_nothing(tmp_path: Path, run_kb) -> None:
    original = DOC.encode()
    root, doc = _kb(tmp_path, original)
    before = doc.stat().st_mtime_ns
    r = run_kb(["lint", "--diff", "organized/knowledge/t.md"], cwd=root)
    assert r.exit_code == 1
    assert doc.read_bytes() == original and doc.stat().st_mtime_ns == before
    minus = [ln for ln in r.stdout.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    plus = [ln for ln in r.stdout.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    assert r.stdout.startswith("diff --git a/organized/knowledge/t.md b/organized/knowledge/t.md\n"
                               "--- a/organized/knowledge/t.md\n+++ b/organized/knowledge/t.md\n")
    assert [m.rstrip("\r") for m in minus] == ["-citations: 9  # 手工维护",
                                              "-- Lossy Verification（arXiv：2607.26627v2）与 ARXIV:2607.26627 是同一篇。"]
    assert [p.rstrip("\r") for p in plus] == ["+citations: 2  # 手工维护",
                                             "+- Lossy Verification（arXiv:2607.26627v2）与 arXiv:2607.26627 是同一篇。"]
    assert run_kb(["lint", "--fix", "--diff"], cwd=root).exit_code == 1 and doc.read_bytes() == original
    run_kb(["lint", "--fix"], cwd=root)
    clean = run_kb(["lint", "--diff"], cwd=root)
    assert clean.exit_code == 0 and clean.stdout == ""


def test_gb18030_files_are_fixed_in_their_encoding(tmp_path: Path, run_kb) -> None:
    original = DOC.encode("gb18030")
    root, doc = _kb(tmp_path, original)
    r = run_kb(["lint", "--fix"], cwd=root)
    assert doc.read_bytes() == (original.replace(b"citations: 9", b"citations: 2")
                                .replace("（arXiv：2607".encode("gb18030"), "（arXiv:2607".encode("gb18030"))
                                .replace(b"ARXIV:2607", b"arXiv:2607"))
    assert r.exit_code == 0


def test_undecodable_files_are_not_fixed(tmp_path: Path, run_kb) -> None:
    original = DOC.encode() + b"\xff\xfe\x81\n"
    root, doc = _kb(tmp_path, original)
    r = run_kb(["lint", "--fix"], cwd=root)
    assert doc.read_bytes() == original
    assert "not fixed: the file is neither UTF-8 nor GB18030" in r.stderr
    assert r.exit_code == 1  # the KB109 error is still there


def test_overlapping_edits_keep_the_first() -> None:
    lines = ["abcdef"]
    f1 = Finding("p", 1, 1, "KB116", "n", "warning", "m", (Edit(1, 0, 3, "X"),))
    f2 = Finding("p", 1, 3, "KB116", "n", "warning", "m", (Edit(1, 2, 4, "Y"),))
    out = fix_bytes("p", b"abcdef\n", "utf-8", lines, [f1, f2])
    assert out.data == b"Xdef\n" and out.applied == 1
    assert out.notes == ["p: 1 fix(es) not applied (overlapping or changed lines)"]


def test_an_edit_on_a_line_that_changed_is_skipped() -> None:
    f = Finding("p", 1, 1, "KB109", "n", "error", "m", (Edit(1, 0, 1, "Z"),))
    out = fix_bytes("p", b"abc\n", "utf-8", ["xbc"], [f])
    assert out.data == b"abc\n" and not out.changed and out.applied == 0
