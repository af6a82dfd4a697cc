"""Issue 24, item 10: the minor findings, each with its exit code and message."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import write_files
from kb.core import textio

KB_YAML = 'timezone: "+08:00"\ntopics: {inference: [inference-systems]}\nentities: {vLLM: []}\nexecutor: ana\n'
DOC = "---\ntopic: inference\nversion: 3\nupdated: 2026-07-30T05:00:00+08:00\n---\n# 活文档\n\n- vLLM 吞吐 1.5×。\n"


@pytest.fixture
def kb_root(tmp_path: Path) -> Path:
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "organized/knowledge/inference.md": DOC,
                                         "inbox/jay/2026-07-31-a.md": "# a\n\n- vLLM 吞吐 1.6×。\n"})
    (root / "organized/paper_cards").mkdir()
    return root


def test_an_executor_with_a_nul_byte_is_a_config_error(run_kb, kb_root: Path) -> None:  # noqa: ANN001
    (kb_root / "kb.yaml").write_text(KB_YAML.replace("executor: ana", 'executor: "a\\0b"'), encoding="utf-8")
    res = run_kb(["digest", "inference", "--date", "2026-07-31", "--kb", str(kb_root)])
    assert res.exit_code == 2
    assert res.stderr.strip() == (f"error: {kb_root / 'kb.yaml'}: line 4: 'executor': Value error, 'a\\x00b' holds a "
                                  "control character; it names the inbox folder (e.g. tom)")


def test_bump_force_writes_through_a_symlinked_doc(run_kb, kb_root: Path) -> None:  # noqa: ANN001
    real = kb_root / "organized/knowledge/real/inference.md"
    real.parent.mkdir()
    (kb_root / "organized/knowledge/inference.md").rename(real)
    (kb_root / "organized/knowledge/inference.md").symlink_to("real/inference.md")
    refused = run_kb(["bump", "inference", "--kb", str(kb_root)])
    assert refused.exit_code == 2
    assert refused.stderr.strip() == ("error: organized/knowledge/inference.md: the living document is a symbolic link "
                                      "(to real/inference.md); kb does not write through links: remove it, or pass "
                                      "--force to write to its target")
    res = run_kb(["bump", "inference", "--force", "--kb", str(kb_root)])
    assert res.exit_code == 0, res.stderr
    assert (kb_root / "organized/knowledge/inference.md").is_symlink()
    assert "version: 4\n" in real.read_text(encoding="utf-8")
    assert (kb_root / "organized/knowledge/history/inference/v3.md").read_text(encoding="utf-8") == DOC


def test_a_killed_kbs_temporary_copies_are_removed_on_rerun(tmp_path: Path) -> None:
    target = tmp_path / "doc.md"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True).stdout.strip()
    left = tmp_path / f".doc.md.kb{dead}.abcd1234.tmp"
    left.write_text("half a bump", encoding="utf-8")
    mine_alive = tmp_path / f".doc.md.kb{os.getppid()}.efgh5678.tmp"  # a running process's copy: kept
    mine_alive.write_text("being written", encoding="utf-8")
    other = tmp_path / ".other.md.kb1.x.tmp"
    other.write_text("not ours", encoding="utf-8")
    textio.write_atomic(target, "new text")
    assert target.read_text(encoding="utf-8") == "new text"
    assert not left.exists() and mine_alive.exists() and other.exists()


def test_a_failing_write_names_its_file(run_kb, kb_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(textio.os, "fsync", full)
    res = run_kb(["bump", "inference", "--force", "--kb", str(kb_root)])  # (--force: no text of v3 before edits)
    assert res.exit_code == 2
    assert res.stderr.strip() == (f"error: {kb_root}/organized/knowledge/history/inference/v3.md: No space left on "
                                  "device (ENOSPC): the disk is full; free space and run the command again")
    assert (kb_root / "organized/knowledge/inference.md").read_text(encoding="utf-8") == DOC
    assert [p.name for p in (kb_root / "organized/knowledge").rglob("*.tmp")] == []


def test_digest_force_keeps_the_replaced_brief(run_kb, kb_root: Path) -> None:  # noqa: ANN001
    args = ["digest", "inference", "--date", "2026-07-31", "--kb", str(kb_root)]
    assert run_kb(args).exit_code == 0
    brief = kb_root / "inbox/ana/2026-07-31-inference-e1prep.md"
    first = brief.read_text(encoding="utf-8")
    brief.write_text(first + "\n分析员：我认为 1.6× 可信。\n", encoding="utf-8")
    res = run_kb([*args, "--force"])
    assert res.exit_code == 0
    assert "note: the replaced brief is kept as inbox/ana/2026-07-31-inference-e1prep.md.bak" in res.stderr
    assert (kb_root / "inbox/ana/2026-07-31-inference-e1prep.md.bak").read_text(encoding="utf-8").endswith(
        "分析员：我认为 1.6× 可信。\n")
    assert brief.read_text(encoding="utf-8") == first
    again = run_kb([*args, "--force"])  # the same text: nothing to keep
    assert "kept as" not in again.stderr


def test_a_symlink_out_of_the_kb_is_named_at_ingest(run_kb, kb_root: Path, tmp_path: Path) -> None:  # noqa: ANN001
    outside = write_files(tmp_path / "elsewhere", {"x.md": "# x\n\n- vLLM 吞吐 9.9×。\n"})
    (kb_root / "inbox/jay/2026-07-31-link.md").symlink_to(outside / "x.md")
    (kb_root / "inbox/mo").symlink_to(outside)
    (kb_root / "inbox/jay/2026-07-31-gone.md").symlink_to(tmp_path / "nowhere.md")
    res = run_kb(["ingest", "--kb", str(kb_root)])
    assert res.exit_code == 0
    lines = res.stderr.strip().splitlines()
    assert (f"warning: inbox/jay/2026-07-31-link.md: a symbolic link out of the KB (to {outside / 'x.md'}); "
            "skipped: kb reads only files inside the KB") in lines
    assert f"warning: inbox/mo: a symbolic link out of the KB (to {outside}); skipped: kb reads only files inside the KB" in lines
    assert f"warning: inbox/jay/2026-07-31-gone.md: a symbolic link to {tmp_path / 'nowhere.md'}, which does not exist; skipped" in lines


@pytest.mark.parametrize("make", ["folder", "link"])
def test_one_bad_snapshot_is_skipped_with_a_note(run_kb, kb_root: Path, tmp_path: Path, make: str) -> None:  # noqa: ANN001
    history = kb_root / "organized/knowledge/history/inference"
    history.mkdir(parents=True)
    (history / "v2.md").write_text(DOC.replace("version: 3", "version: 2").replace("07-30T05", "07-29T05"), encoding="utf-8")
    bad = history / "v1.md"
    if make == "folder":
        bad.mkdir()
        why = "a folder, not a snapshot"
    else:
        (tmp_path / "out.md").write_text("x", encoding="utf-8")
        bad.symlink_to(tmp_path / "out.md")
        why = f"a link out of the KB (to {tmp_path / 'out.md'})"
    for args in (["history", "vLLM"], ["claims", "--as-of", "2026-07-29"], ["diff", "inference", "--as-of", "2026-07-29"]):
        res = run_kb([*args, "--kb", str(kb_root)])
        assert res.exit_code == 0, (args, res.stderr)
        assert f"note: organized/knowledge/history/inference/v1.md: {why}; skipped" in res.stderr.splitlines()


def test_kb_files_under_dot_kb_are_never_written_through_a_link(run_kb, kb_root: Path, tmp_path: Path) -> None:  # noqa: ANN001
    """A breaker linked ``.kb/config.json`` and ``.kb/ingest.lock`` to files outside the KB: kb wrote
    its config and its pid into them. kb's own files replace such a link; the target is untouched."""
    (kb_root / ".kb").mkdir()
    outside = {name: tmp_path / f"outside-{name}" for name in ("config.json", "ingest.lock", "kb.sqlite")}
    for name, target in outside.items():
        target.write_text("KEEP ME\n", encoding="utf-8")
        (kb_root / ".kb" / name).symlink_to(target)
    res = run_kb(["claims", "--kb", str(kb_root)])
    assert res.exit_code == 0, res.stderr
    assert {n: t.read_text(encoding="utf-8") for n, t in outside.items()} == dict.fromkeys(outside, "KEEP ME\n")
    assert not any((kb_root / ".kb" / n).is_symlink() for n in outside)


def test_a_second_forced_digest_keeps_every_replaced_brief(run_kb, kb_root: Path) -> None:  # noqa: ANN001
    """``kb digest --force`` twice over edited briefs: the first edit is kept in ``.bak``, the
    second in ``.bak.1`` (the breaker lost the first edit when ``.bak`` was replaced)."""
    args = ["digest", "inference", "--date", "2026-07-31", "--kb", str(kb_root)]
    assert run_kb(args).exit_code == 0
    brief = next((kb_root / "inbox/ana").glob("*.md"))
    for n, edit in enumerate(("FIRST EDIT", "SECOND EDIT")):
        brief.write_text(brief.read_text(encoding="utf-8") + f"\n{edit}\n", encoding="utf-8")
        res = run_kb([*args, "--force"])
        assert res.exit_code == 0, res.stderr
        kept = brief.with_name(brief.name + (".bak" if n == 0 else ".bak.1"))
        assert f"the replaced brief is kept as inbox/ana/{kept.name}" in res.stderr
    assert "FIRST EDIT" in brief.with_name(brief.name + ".bak").read_text(encoding="utf-8")
    assert "SECOND EDIT" in brief.with_name(brief.name + ".bak.1").read_text(encoding="utf-8")
