"""kb bump: snapshot first, never overwritten; only version and updated change, byte for byte."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from kb.bump import bump, bump_text
from kb.errors import InputError

TZ = timezone(timedelta(hours=8))
NOW = datetime(2026, 8, 1, 5, 0, tzinfo=TZ)

ODD = (
    "---\n"
    "# living doc of the inference topic\n"
    "topic: 'inference'   # quoted, two spaces\n"
    "citations: 115\n"
    "version: 45  # bumped nightly\n"
    'updated: "2026-07-31T05:00:00+08:00"\n'
    "tags: [a,   b, 'c d']\n"
    "note: >-\n"
    "  folded text\n"
    "  kept as is\n"
    "---\n"
    "# 活文档\n\n正文 2.03× 不动。\n"
)


def test_only_version_and_updated_change() -> None:
    new, old, nv, written = bump_text(ODD, "doc.md", now=NOW, tz=TZ)
    assert (old, nv, written) == (45, 46, "2026-08-01T05:00:00+08:00")
    assert new == ODD.replace("version: 45  #", "version: 46  #").replace(
        '"2026-07-31T05:00:00+08:00"', '"2026-08-01T05:00:00+08:00"')


def test_crlf_and_bom_survive(tmp_path: Path) -> None:
    root = tmp_path
    doc = root / "organized/knowledge/inference.md"
    doc.parent.mkdir(parents=True)
    original = b"\xef\xbb\xbf" + ODD.replace("\n", "\r\n").encode("utf-8")
    doc.write_bytes(original)
    res = bump(root, "inference", now=NOW, tz=TZ)
    assert (res.snapshot, res.old_version, res.new_version) == ("organized/knowledge/history/inference/v45.md", 45, 46)
    assert (root / res.snapshot).read_bytes() == original
    expected = original.replace(b"version: 45 ", b"version: 46 ").replace(b"2026-07-31T05:00", b"2026-08-01T05:00")
    assert doc.read_bytes() == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("updated: 2026-07-31", "updated: 2026-08-01"),
        ("updated: 2026-07-31 05:00", "updated: 2026-08-01 05:00"),
        ("updated: '2026-07-31T05:00'", "updated: '2026-08-01T05:00'"),
        ("updated: 2026-07-30T21:00:00Z", "updated: 2026-07-31T21:00:00Z"),
        ("updated: 2026-07-31T05:00:00+0800", "updated: 2026-08-01T05:00:00+0800"),
    ],
)
def test_updated_keeps_its_style(line: str, expected: str) -> None:
    text = f"---\ntopic: inference\nversion: 3\n{line}\n---\nbody\n"
    assert bump_text(text, "doc.md", now=NOW, tz=TZ)[0] == f"---\ntopic: inference\nversion: 4\n{expected}\n---\nbody\n"


def test_missing_updated_is_added_after_version() -> None:
    text = "---\ntopic: inference\nversion: 3\ncitations: 9\n---\n"
    assert bump_text(text, "doc.md", now=NOW, tz=TZ)[0] == (
        "---\ntopic: inference\nversion: 4\nupdated: 2026-08-01T05:00:00+08:00\ncitations: 9\n---\n")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# no front matter\n", "no front matter"),
        ("---\ntopic: x\n", "never closed"),
        ("---\ntopic: x\nversion: '45'\n---\n", "integer `version:`"),
        ("---\ntopic: x\nversion: true\n---\n", "integer `version:`"),
        ("---\ntopic: [x\n---\n", "invalid front matter"),
    ],
)
def test_bad_front_matter(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        bump_text(text, "doc.md", now=NOW, tz=TZ)


def _kb(tmp_path: Path, text: str = ODD) -> Path:
    doc = tmp_path / "organized/knowledge/inference.md"
    doc.parent.mkdir(parents=True)
    doc.write_text(text, encoding="utf-8")
    return doc


def test_existing_different_snapshot_is_never_overwritten(tmp_path: Path) -> None:
    doc = _kb(tmp_path)
    snap = tmp_path / "organized/knowledge/history/inference/v45.md"
    snap.parent.mkdir(parents=True)
    snap.write_text("another v45\n", encoding="utf-8")
    with pytest.raises(InputError, match="never overwritten"):
        bump(tmp_path, "inference", now=NOW, tz=TZ)
    assert snap.read_text(encoding="utf-8") == "another v45\n"
    assert doc.read_text(encoding="utf-8") == ODD


def test_identical_snapshot_is_accepted(tmp_path: Path) -> None:
    _kb(tmp_path)
    snap = tmp_path / "organized/knowledge/history/inference/v45.md"
    snap.parent.mkdir(parents=True)
    snap.write_text(ODD, encoding="utf-8")
    res = bump(tmp_path, "inference", now=NOW, tz=TZ)
    assert (res.snapshot_existed, res.new_version) == (True, 46)


def test_no_doc_and_not_utf8(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no living document"):
        bump(tmp_path, "inference", now=NOW, tz=TZ)
    doc = _kb(tmp_path)
    doc.write_bytes("---\ntopic: 推理\nversion: 1\n---\n".encode("gb18030"))
    with pytest.raises(InputError, match="not UTF-8"):
        bump(tmp_path, "inference", now=NOW, tz=TZ)


def test_cli_bump(tmp_path: Path, run_kb) -> None:  # noqa: ANN001 - fixture from tests/conftest.py
    _kb(tmp_path)
    (tmp_path / "kb.yaml").write_text("topics: [inference]\n", encoding="utf-8")
    res = run_kb(["bump", "inference", "--updated", "2026-08-01T05:00"], cwd=tmp_path)
    assert res.exit_code == 0, res.stderr
    assert res.stdout.strip() == ("organized/knowledge/history/inference/v45.md written; "
                                  "organized/knowledge/inference.md v45 → v46 (updated 2026-08-01T05:00:00+08:00)")
    res = run_kb(["bump", "nosuch"], cwd=tmp_path)
    assert res.exit_code == 2
    assert "organized/knowledge/nosuch.md" in res.stderr


def test_bump_twice_without_edits_is_refused(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root = tmp_path / "kb"
    (root / "organized/knowledge").mkdir(parents=True)
    (root / "kb.yaml").write_text("topics: [inference]\n")
    doc = root / "organized/knowledge/inference.md"
    doc.write_text("---\ntopic: inference\nversion: 45\nupdated: 2026-07-31T05:00:00+08:00\n---\n## §1 引擎\n")
    assert run_kb(["bump", "--updated", "2026-08-01T05:00"], cwd=root).exit_code == 0
    again = run_kb(["bump", "--updated", "2026-08-02T05:00"], cwd=root)
    assert again.exit_code == 2
    assert "nothing changed in the body since v45" in again.stderr
    assert "version: 46" in doc.read_text() and not (root / "organized/knowledge/history/inference/v46.md").exists()
    forced = run_kb(["bump", "--force", "--updated", "2026-08-02T05:00"], cwd=root)
    assert forced.exit_code == 0 and "version: 47" in doc.read_text()


@pytest.mark.parametrize(("front", "args", "message"), [
    ("version: -1\nupdated: 2026-07-31T05:00:00+08:00", [], "version: -1 is not a version"),
    ("version: 45\nupdated: 2026-07-31T05:00:00+08:00", ["--updated", "2020-01-01"], "is before the current one"),
])
def test_bump_refuses_impossible_versions_and_dates(tmp_path: Path, run_kb, front: str, args: list[str], message: str) -> None:  # noqa: ANN001
    root = tmp_path / "kb"
    (root / "organized/knowledge").mkdir(parents=True)
    (root / "kb.yaml").write_text("topics: [inference]\n")
    doc = root / "organized/knowledge/inference.md"
    doc.write_text(f"---\ntopic: inference\n{front}\n---\n## §1 引擎\n")
    before = doc.read_bytes()
    res = run_kb(["bump", *args], cwd=root)
    assert res.exit_code == 2 and message in res.stderr
    assert doc.read_bytes() == before
