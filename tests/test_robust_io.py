"""Issue 12: OS errors are one line and exit 2; writes stay inside the KB; messages print as written."""

from __future__ import annotations

import errno
import logging
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import write_files
from conftest_arxiv import fake_arxiv, make_kb  # noqa: F401
from fake_arxiv import FakeArxiv
from kb.core.errors import describe_os_error
from kb.core.textio import write_atomic_all

DOC = "---\ntopic: inference\nversion: 3\nupdated: 2026-07-31T05:00:00+08:00\n---\n# 活文档\n\n- 正文。\n"
KB_YAML = 'timezone: "+08:00"\ntopics: {inference: [inference-systems]}\n'


@pytest.fixture
def doc_kb(tmp_path: Path) -> Path:
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "organized/knowledge/inference.md": DOC})
    (root / "inbox").mkdir()
    (root / "organized/paper_cards").mkdir()
    return root


def _raise_on(monkeypatch: pytest.MonkeyPatch, module: object, name: str, code: int) -> None:
    """``module.name`` raises OSError(code) naming the file it was given."""
    real = getattr(module, name)

    def failing(*args, **kwargs):  # type: ignore[no-untyped-def]
        target = kwargs.get("dir") or (args[-1] if args else None)
        raise OSError(code, os.strerror(code), str(target))

    monkeypatch.setattr(module, name, failing)
    assert real is not failing


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".kb" not in p.parts}


def test_bump_disk_full_at_the_rename_leaves_doc_and_snapshot_as_before(run_kb, doc_kb: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    before = _tree(doc_kb)
    _raise_on(monkeypatch, os, "replace", errno.ENOSPC)
    res = run_kb(["bump", "inference", "--force", "--kb", str(doc_kb)])
    assert res.exit_code == 2
    assert "Traceback" not in res.stderr and len(res.stderr.strip().splitlines()) == 1
    # the first rename that fails is named (the copy of the new version, renamed before the doc)
    assert ("organized/knowledge/history/inference/.bumped-in/v4.md: No space left on device (ENOSPC): "
            "the disk is full") in res.stderr
    assert _tree(doc_kb) == before  # no v3.md snapshot, no bumped-in copy, doc unchanged, no temporary file


def test_bump_read_only_folder_is_exit_2(run_kb, doc_kb: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = _tree(doc_kb)
    _raise_on(monkeypatch, tempfile, "mkstemp", errno.EROFS)
    res = run_kb(["bump", "inference", "--force", "--kb", str(doc_kb)])
    assert res.exit_code == 2 and "Read-only file system (EROFS)" in res.stderr
    assert "organized/knowledge/history/inference: " in res.stderr
    assert _tree(doc_kb) == before


def test_card_new_on_a_full_disk_is_exit_2(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    fake_arxiv.add("2607.26627v1", "Revisiting Lossy Verification", published="2026-07-24T10:00:00Z")
    root = make_kb({})
    _raise_on(monkeypatch, os, "fsync", errno.ENOSPC)
    res = run_kb(["card", "new", "2607.26627", "--kb", str(root)])
    assert res.exit_code == 2 and "(ENOSPC): the disk is full" in res.stderr and "Traceback" not in res.stderr
    assert list((root / "organized/paper_cards").iterdir()) == []


@pytest.mark.parametrize("code, text", [
    (errno.EACCES, "Permission denied (EACCES): permission denied"),
    (errno.EDQUOT, "(EDQUOT): the disk quota is used up"),
    (errno.EIO, "Input/output error (EIO): input/output error"),
])
def test_describe_os_error(code: int, text: str) -> None:
    assert describe_os_error(OSError(code, os.strerror(code), "/x/y.md")).startswith("/x/y.md: ")
    assert text in describe_os_error(OSError(code, os.strerror(code), "/x/y.md"))


def test_write_atomic_all_removes_a_created_file_when_a_later_rename_fails(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "doc.md").write_text("old")
    _raise_on(monkeypatch, os, "replace", errno.EIO)
    with pytest.raises(OSError):
        write_atomic_all([(tmp_path / "new.md", "snap", False), (tmp_path / "doc.md", "new", True)])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.md"] and (tmp_path / "doc.md").read_text() == "old"


def test_real_read_only_tmpfs_if_mount_works(run_kb, doc_kb: Path) -> None:
    """A real EROFS: a read-only bind mount of history/ (root in CI, where chmod stops nobody)."""
    hist = doc_kb / "organized/knowledge/history"
    hist.mkdir(parents=True)
    if os.system(f"mount --bind {hist} {hist} 2>/dev/null && mount -o remount,ro,bind {hist} 2>/dev/null") != 0:
        os.system(f"umount {hist} 2>/dev/null")
        pytest.skip("cannot mount a read-only folder here")
    try:
        res = run_kb(["bump", "inference", "--kb", str(doc_kb)])
        assert res.exit_code == 2 and "(EROFS)" in res.stderr
        assert (doc_kb / "organized/knowledge/inference.md").read_text() == DOC
    finally:
        os.system(f"umount {hist}")


# -- paths inside the KB ---------------------------------------------------------------------------


def test_symlinked_brief_path_is_refused_without_force(run_kb, doc_kb: Path, tmp_path: Path) -> None:
    write_files(doc_kb, {"inbox/tom/2026-07-31T0900-hf.md": "# 日报\n\n- vLLM 合并 1,918 commits。\n"})
    elsewhere = tmp_path / "elsewhere.md"
    link = doc_kb / "inbox/tom/2026-07-31-inference-e1prep.md"
    link.symlink_to(elsewhere)  # dangling: digest would create it outside the KB
    res = run_kb(["digest", "--date", "2026-07-31", "--executor", "tom", "--kb", str(doc_kb)])
    assert res.exit_code == 2, res.stderr
    assert "inbox/tom/2026-07-31-inference-e1prep.md: the brief is a symbolic link" in res.stderr
    assert not elsewhere.exists()


def test_dangling_out_link_is_refused_without_force(run_kb, doc_kb: Path, tmp_path: Path) -> None:
    write_files(doc_kb, {"inbox/tom/2026-07-31T0900-hf.md": "# 日报\n\n- vLLM。\n"})
    link = tmp_path / "out.md"
    link.symlink_to(tmp_path / "far" / "target.md")
    res = run_kb(["digest", "--date", "2026-07-31", "--executor", "tom", "--out", str(link), "--kb", str(doc_kb)])
    assert res.exit_code == 2 and "symbolic link" in res.stderr
    assert not (tmp_path / "far").exists()


def test_bump_through_a_history_folder_linked_out_of_the_kb_is_refused(run_kb, doc_kb: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (doc_kb / "organized/knowledge/history").symlink_to(outside, target_is_directory=True)
    res = run_kb(["bump", "inference", "--force", "--kb", str(doc_kb)])
    assert res.exit_code == 2
    assert "the snapshot would be outside the KB" in res.stderr
    assert list(outside.iterdir()) == [] and (doc_kb / "organized/knowledge/inference.md").read_text() == DOC


def test_init_through_a_linked_folder_is_refused(run_kb, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "new"
    (root / "organized").mkdir(parents=True)
    (root / "organized/knowledge").symlink_to(outside, target_is_directory=True)
    res = run_kb(["init", str(root)])
    assert res.exit_code == 2 and "outside the KB" in res.stderr
    assert list(outside.iterdir()) == []


# -- messages --------------------------------------------------------------------------------------


def test_empty_topic_is_a_usage_error(run_kb, doc_kb: Path) -> None:
    res = run_kb(["bump", "", "--kb", str(doc_kb)])
    assert res.exit_code == 2 and "topic '' is not a plain name" in res.stderr
    assert not (doc_kb / "organized/knowledge/history").exists()


def test_messages_are_not_markup_and_controls_are_escaped(run_kb, doc_kb: Path) -> None:
    res = run_kb(["verify", "--all", "--topic", "demo.md:100:[bold]x\x1b[31m", "--kb", str(doc_kb)])
    assert res.exit_code == 2
    assert "--topic 'demo.md:100:[bold]x\\x1b[31m': not in kb.yaml topics (inference)" in res.stderr
    assert "\x1b" not in res.stderr and "💯" not in res.stderr


def test_arxiv_library_logging_stays_out_of_stderr(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.errors = {"2607.26627"}  # arXiv's "Error" entry has no <published>: the client warns and skips it
    root = make_kb({})
    res = run_kb(["verify", "2607.26627", "--kb", str(root)])
    assert res.exit_code == 1 and "Skipping entry" not in res.stderr and "Requesting page" not in res.stderr
    logger = logging.getLogger("arxiv")
    try:
        loud = run_kb(["--verbose", "verify", "2607.26627", "--refresh", "--kb", str(root)])
    finally:
        for h in [h for h in logger.handlers if getattr(h, "kb_verbose", False)]:
            logger.removeHandler(h)
        logger.setLevel(logging.NOTSET)
    assert f"arxiv: Requesting page (first: True, try: 0): {fake_arxiv.url}?search_query=" in loud.stderr
    assert ("arxiv._feed: Skipping entry http://arxiv.org/api/errors#incorrect_id_format_for_2607.26627 missing <published>"
            in loud.stderr)


@pytest.mark.parametrize("src, line, first", [
    ("version: 1\ntopic: a\ntopic: b\n", 4, 3),  # the mapping starts at line 2, the first topic is on 3
    ("a: 1\nnested:\n  x: 0\n  k: 1\n  k: 3\n", 6, 5),
    ("items:\n  - a: 1\n    b: 2\n    b: 3\n", 5, 4),
])
def test_duplicate_key_message_names_the_first_keys_own_line(src: str, line: int, first: int) -> None:
    from kb.core.frontmatter import load_yaml

    problems: list = []
    assert load_yaml(src, "x.md", problems, first_line=2) == {}
    assert [(p.line, p.message.split(";")[0]) for p in problems] == [
        (line, f"duplicate front-matter key '{src.splitlines()[line - 2].split(':')[0].strip(' -')}' (first at line {first})")]


def test_files_over_the_size_limit_are_reported_and_skipped(run_kb, doc_kb: Path) -> None:
    cfg = doc_kb / "kb.yaml"
    cfg.write_text(cfg.read_text() + "max_file_mb: 0.001\n")
    write_files(doc_kb, {"inbox/tom/2026-07-31T0900-big.md": "- vLLM 合并 1,918 commits。\n" * 100,
                         "inbox/tom/2026-07-31T0901-small.md": "- TGI 进入维护模式。\n"})
    res = run_kb(["ingest", "--kb", str(doc_kb)])
    assert res.exit_code == 2, res.stderr  # a file kb did not read is a failure (R9)
    assert ("error: inbox/tom/2026-07-31T0900-big.md: 3,100 bytes, over the limit of 0.001 MB (kb.yaml max_file_mb); "
            "skipped (what the store holds of it is kept)\n") in res.stderr
    assert res.stdout == "2 parsed, 0 unchanged, 1 failed; 0 claims\n"
    from kb.store.workspace import open_kb

    with open_kb(doc_kb) as kb:
        assert sorted(f.path for f in kb.store.files(role="inbox")) == ["inbox/tom/2026-07-31T0901-small.md"]


def test_lint_escapes_control_characters_of_file_names(run_kb, tmp_path: Path) -> None:
    bad = tmp_path / "evil\x1b[2Jname.md"
    bad.write_text("- 见 §9.9\n", encoding="utf-8")
    res = run_kb(["lint", str(bad), "--select", "KB105"])
    assert res.exit_code == 1
    assert "evil\\x1b[2Jname.md:1:" in res.stdout and "\x1b" not in res.stdout


def test_styled_text_keeps_styles_when_escaped() -> None:
    from rich.text import Text

    from kb.cli.common import _escaped_text

    t = Text("a\x1bb")
    t.stylize("bold", 0, 1)
    out = _escaped_text(t)
    assert out.plain == "a\\x1bb" and [(s.start, s.end, str(s.style)) for s in out.spans] == [(0, 1, "bold")]


def test_lint_fix_never_writes_through_a_link(run_kb, tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_text("---\ntopic: inference\nversion: 1\nupdated: 2026-07-31T05:00:00+08:00\n---\n"
                    "- Lossy（arxiv:2607.26627）。\n", encoding="utf-8")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    before = real.read_bytes()
    res = run_kb(["lint", "--fix", "--select", "KB116", str(link)])
    assert res.exit_code == 2 and "link.md: the file to fix is a symbolic link" in res.stderr
    assert real.read_bytes() == before


def test_digest_into_an_inbox_folder_linked_out_of_the_kb_is_refused(run_kb, doc_kb: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    write_files(doc_kb, {"inbox/jay/2026-07-31T0900-hf.md": "# 日报\n\n- vLLM 合并 1,918 commits。\n"})
    (doc_kb / "inbox/tom").symlink_to(outside, target_is_directory=True)
    res = run_kb(["digest", "--date", "2026-07-31", "--executor", "tom", "--kb", str(doc_kb)])
    assert res.exit_code == 2 and "the brief would be outside the KB" in res.stderr
    assert list(outside.iterdir()) == []


def test_lint_skips_files_over_the_size_limit(run_kb, doc_kb: Path) -> None:
    cfg = doc_kb / "kb.yaml"
    cfg.write_text(cfg.read_text() + "max_file_mb: 0.001\n")
    write_files(doc_kb, {"inbox/tom/big.md": "- 见 §9.9\n" * 200})
    res = run_kb(["lint", "--select", "KB105", str(doc_kb / "inbox/tom/big.md")])
    assert res.exit_code == 0 and res.stdout == ""
    assert "inbox/tom/big.md: 2,400 bytes, over the limit of 0.001 MB (kb.yaml max_file_mb); not linted" in res.stderr


def test_a_living_doc_linked_out_of_the_kb_is_not_read(run_kb, doc_kb: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(DOC.replace("正文", "SECRET"), encoding="utf-8")
    doc = doc_kb / "organized/knowledge/inference.md"
    doc.unlink()
    doc.symlink_to(outside)
    write_files(doc_kb, {"inbox/tom/2026-07-31T0900-hf.md": "# 日报\n\n- vLLM 合并 1,918 commits。\n"})
    res = run_kb(["digest", "--date", "2026-07-31", "--executor", "tom", "--out", "-", "--kb", str(doc_kb)])
    assert res.exit_code == 2 and "the living document would be outside the KB" in res.stderr
    assert "SECRET" not in res.stdout
