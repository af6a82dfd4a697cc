"""kb bump: snapshot first, never overwritten; only version and updated change, byte for byte."""

from __future__ import annotations

import json
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from kb.history.bump import bump, bump_text
from kb.core.errors import InputError

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
    res = bump(root, "inference", now=NOW, tz=TZ, force=True)
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
    res = run_kb(["bump", "inference", "--updated", "2026-08-01T05:00", "--force"], cwd=tmp_path)
    assert res.exit_code == 0, res.stderr
    assert res.stdout.strip() == ("organized/knowledge/history/inference/v45.md written; "
                                  "organized/knowledge/inference.md v45 → v46 (updated 2026-08-01T05:00:00+08:00)")
    res = run_kb(["bump", "nosuch"], cwd=tmp_path)
    assert res.exit_code == 2
    assert "organized/knowledge/nosuch.md" in res.stderr


def test_bump_twice_without_edits_writes_nothing(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root = tmp_path / "kb"
    (root / "organized/knowledge").mkdir(parents=True)
    (root / "kb.yaml").write_text("topics: [inference]\n")
    doc = root / "organized/knowledge/inference.md"
    doc.write_text("---\ntopic: inference\nversion: 45\nupdated: 2026-07-31T05:00:00+08:00\n---\n## §1 引擎\n")
    assert run_kb(["bump", "--updated", "2026-08-01T05:00", "--force"], cwd=root).exit_code == 0
    again = run_kb(["bump", "--updated", "2026-08-02T05:00"], cwd=root)
    assert again.exit_code == 0
    assert again.stdout == ("organized/knowledge/inference.md stays v46: nothing changed in the body since v46 was "
                            "bumped in (organized/knowledge/history/inference/.bumped-in/v46.md); nothing written: "
                            "edit the document first (or pass --force)\n")
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


EDIT_DOC = ("---\ntopic: inference\nversion: 45\nupdated: 2026-07-31T05:00:00+08:00\n---\n"
            "## §1 引擎\n\n- vLLM 解码提速 2.03×（来源：arXiv:2607.26627）。\n- 另见 arXiv:2606.20295 的 kernel。\n\n"
            "## §2 缓存\n\n- LMCache 多轮 TTFT 降低 3×。\n")
EDITED = EDIT_DOC.replace("2.03×", "2.50×").replace("- 另见 arXiv:2606.20295 的 kernel。\n", "")


def _edit_kb(root: Path) -> Path:
    (root / "organized/knowledge").mkdir(parents=True)
    (root / "kb.yaml").write_text("topics: [inference]\n", encoding="utf-8")
    doc = root / "organized/knowledge/inference.md"
    doc.write_text(EDIT_DOC, encoding="utf-8")
    return doc


def _the_edit(run_kb, root: Path, old: int) -> dict:  # noqa: ANN001
    res = run_kb(["diff", "--from", f"v{old}", "--to", f"v{old + 1}", "--format", "json"], cwd=root)
    assert res.exit_code == 0, res.stderr
    out = json.loads(res.stdout)
    assert (out["sections_added"], out["sections_removed"], out["sections_renumbered"]) == ([], [], [])
    [section] = out["sections_changed"]
    return section


def _assert_exactly_the_edit(section: dict) -> None:
    assert section["label"] == "§1"
    assert [c["text"] for c in section["claims_added"]] == ["vLLM 解码提速 2.50×（来源：arXiv:2607.26627）。"]
    assert sorted(c["text"] for c in section["claims_removed"]) == [
        "vLLM 解码提速 2.03×（来源：arXiv:2607.26627）。", "另见 arXiv:2606.20295 的 kernel。"]
    assert [(v["old"], v["new"]) for v in section["values_changed"]] == [(["2.03×"], ["2.50×"])]
    assert section["values_added"] == [] and section["values_removed"] == []


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                          check=True, capture_output=True, text=True).stdout


def test_edit_then_bump_in_a_git_kb_keeps_the_committed_text(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """The seeds' habit: edit at night, bump at 05:00; v45 is the text before the edits (git HEAD)."""
    root = tmp_path / "kb"
    doc = _edit_kb(root)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "v45")
    doc.write_text(EDITED, encoding="utf-8")
    res = run_kb(["bump", "--updated", "2026-08-01T05:00"], cwd=root)
    assert res.exit_code == 0, res.stderr
    assert "v45 taken from git" in res.stderr
    assert (root / "organized/knowledge/history/inference/v45.md").read_text(encoding="utf-8") == EDIT_DOC
    assert "version: 46" in doc.read_text(encoding="utf-8") and "2.50×" in doc.read_text(encoding="utf-8")
    _assert_exactly_the_edit(_the_edit(run_kb, root, 45))


def test_edit_then_bump_without_git_uses_the_bumped_in_copy(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root = tmp_path / "kb"
    doc = _edit_kb(root)
    first = run_kb(["bump", "--updated", "2026-08-01T05:00", "--force"], cwd=root)  # no copy of v45 anywhere
    assert first.exit_code == 0 and "holds the current text, edits included" in first.stderr
    bumped_in = doc.read_text(encoding="utf-8")
    assert (root / "organized/knowledge/history/inference/.bumped-in/v46.md").read_text(encoding="utf-8") == bumped_in
    doc.write_text(bumped_in.replace("2.03×", "2.50×").replace("- 另见 arXiv:2606.20295 的 kernel。\n", ""), encoding="utf-8")
    second = run_kb(["bump", "--updated", "2026-08-02T05:00"], cwd=root)
    assert second.exit_code == 0, second.stderr
    assert (root / "organized/knowledge/history/inference/v46.md").read_text(encoding="utf-8") == bumped_in
    _assert_exactly_the_edit(_the_edit(run_kb, root, 46))
    lint = run_kb(["lint", "organized/knowledge/inference.md", "--select", "KB102"], cwd=root)
    assert lint.exit_code == 0, lint.stdout  # the hidden copy of v47 is not a "newer snapshot"


def test_git_history_serves_a_version_history_lacks(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """No history/ at all: both versions come from git, v45 as first committed."""
    root = tmp_path / "kb"
    doc = _edit_kb(root)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "v45")
    doc.write_text(EDITED.replace("version: 45", "version: 46"), encoding="utf-8")
    _git(root, "commit", "-q", "-am", "v46")
    doc.write_text(EDITED.replace("version: 45", "version: 46") + "\n## §3 新节\n", encoding="utf-8")
    _git(root, "commit", "-q", "-am", "v46 edited")
    (root / "organized/knowledge/inference.md").write_text(EDITED.replace("version: 45", "version: 47"), encoding="utf-8")
    _assert_exactly_the_edit(_the_edit(run_kb, root, 45))


def test_two_bumps_at_once_never_bump_the_same_version(tmp_path: Path) -> None:
    import threading

    doc = _kb(tmp_path)
    gate = threading.Barrier(2)
    got: list[tuple[int, int]] = []

    def run() -> None:
        gate.wait()
        res = bump(tmp_path, "inference", now=NOW, tz=TZ, force=True)
        got.append((res.old_version, res.new_version))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == [(45, 46), (46, 47)]
    assert "version: 47  # bumped nightly" in doc.read_text(encoding="utf-8")
    assert sorted(p.name for p in (tmp_path / "organized/knowledge/history/inference").glob("v*.md")) == ["v45.md", "v46.md"]


def test_a_bump_waits_for_the_lock_then_reads_the_new_version(tmp_path: Path) -> None:
    import threading

    from kb.store.locks import writer_lock

    doc = _kb(tmp_path)
    told: list[str] = []
    done: list[int] = []
    with writer_lock(tmp_path):
        doc.write_text(ODD.replace("version: 45", "version: 50"), encoding="utf-8")  # what the holder did
        t = threading.Thread(target=lambda: done.append(bump(tmp_path, "inference", now=NOW, tz=TZ, force=True,
                                                             on_wait=told.append).new_version))
        t.start()
        t.join(0.5)
        assert done == [] and len(told) == 1
        assert told[0].startswith("another kb (pid ") and told[0].endswith("waiting for it to finish…")
    t.join()
    assert done == [51]


def _versions_kb(tmp_path: Path, version_line: str) -> tuple[Path, Path]:
    """A KB whose history holds v3 (and kb's copy of v4), its doc's version line ``version_line``."""
    root = tmp_path / "kb"
    hist = root / "organized/knowledge/history/inference"
    (hist / ".bumped-in").mkdir(parents=True)
    (root / "kb.yaml").write_text("topics: [inference]\n")
    front = "---\ntopic: inference\n{}updated: 2026-07-31T05:00:00+08:00\n---\n"
    (hist / "v3.md").write_text(front.format("version: 3\n") + "## §1 引擎\n")
    (hist / ".bumped-in" / "v4.md").write_text(front.format("version: 4\n") + "## §1 引擎\n\n- v4 行。\n")
    doc = root / "organized/knowledge/inference.md"
    doc.write_text(front.format(version_line) + "## §1 引擎\n\n- v4 行。\n- 今晚新行 1.5×。\n")
    return root, doc


def test_a_doc_without_version_is_told_the_one_after_history(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root, doc = _versions_kb(tmp_path, "")
    before = doc.read_bytes()
    res = run_kb(["bump"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr == ("error: organized/knowledge/inference.md:2: front matter has no integer `version:`; add "
                          "`version: 4` (one above the newest snapshot in history, v3), then run kb bump again\n")
    res = run_kb(["lint", "organized/knowledge/inference.md", "--select", "KB101", "--format", "json"], cwd=root)
    assert [(f["line"], f["message"]) for f in json.loads(res.stdout)] == [
        (4, "front matter has no 'version': add `version: 4` (one above the newest snapshot in history, v3)")]
    res = run_kb(["digest", "--out", "-", "--date", "2026-07-31"], cwd=root)
    assert "vNone" not in res.stderr + res.stdout
    assert doc.read_bytes() == before


def test_bump_refuses_a_version_below_history(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root, doc = _versions_kb(tmp_path, "version: 1\n")
    before = doc.read_bytes()
    res = run_kb(["bump"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr == ("error: organized/knowledge/inference.md:3: version 1 is not greater than the newest snapshot "
                          "organized/knowledge/history/inference/v3.md: set `version: 4`, then run kb bump again "
                          "(a bump of version 1 would write v1.md below the history's newest)\n")
    assert doc.read_bytes() == before
    assert sorted(p.name for p in (root / "organized/knowledge/history/inference").glob("v*.md")) == ["v3.md"]
    doc.write_text(doc.read_text().replace("version: 1", "version: 4"))
    res = run_kb(["bump", "--updated", "2026-08-01T05:00"], cwd=root)
    assert res.exit_code == 0, res.stderr
    assert res.stdout == ("organized/knowledge/history/inference/v4.md written; organized/knowledge/inference.md "
                          "v4 → v5 (updated 2026-08-01T05:00:00+08:00)\n")


def test_a_bump_without_any_text_of_n_keeps_a_copy_and_bumps_nothing(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    doc = _kb(tmp_path)
    (tmp_path / "kb.yaml").write_text("topics: [inference]\n", encoding="utf-8")
    res = run_kb(["bump", "--updated", "2026-08-01T05:00"], cwd=tmp_path)
    copy = "organized/knowledge/history/inference/.bumped-in/v45.md"
    assert res.exit_code == 0
    assert res.stdout == (f"organized/knowledge/inference.md stays v45: kb had no text of v45 before tonight's edits "
                          f"(no {copy}, no git commit with that version), so it cannot tell what changed: kept the "
                          f"current text as v45's ({copy}); nothing bumped. Edit the document, then run kb bump again "
                          "(or pass --force to bump now: v45.md would hold the current text)\n")
    assert doc.read_text(encoding="utf-8") == ODD and (tmp_path / copy).read_text(encoding="utf-8") == ODD
    assert not (tmp_path / "organized/knowledge/history/inference/v45.md").exists()
    doc.write_text(ODD.replace("不动", "改了"), encoding="utf-8")
    res = run_kb(["bump", "--updated", "2026-08-01T05:00", "--format", "json"], cwd=tmp_path)
    got = json.loads(res.stdout)
    assert (got["bumped"], got["source"], got["new_version"], got["changed"]) == (True, "bumped-in", 46, 2)
    assert (tmp_path / "organized/knowledge/history/inference/v45.md").read_text(encoding="utf-8") == ODD
