"""Files kb does not read are failures said by every command: a file over ``max_file_mb``
(kb.store.walk TOO_BIG) fails ``kb ingest`` (exit 2) like a refused name, keeps what the store
holds of it, and ``kb digest`` names it (a blind tester's R9)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files

KB_YAML = 'timezone: "+08:00"\nentities: {vLLM: []}\ntopics: {inference: [inference-systems]}\n'
DOC = "---\ntopic: inference\nversion: 3\nupdated: 2026-07-30T05:00:00+08:00\n---\n# 活文档\n\n- 正文。\n"
BIG = "inbox/zz/2026-07-31-0930-big.md"
BIG_TEXT = "- vLLM throughput 991 tok/s\n" + "filler line of text\n" * 100  # 2,028 bytes


@pytest.fixture
def kb_root(tmp_path: Path) -> Path:
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "organized/knowledge/inference.md": DOC,
                                         BIG: BIG_TEXT, "inbox/zz/2026-07-31-0900-ok.md": "- vLLM ttft 12 ms\n"})
    (root / "organized/paper_cards").mkdir()
    return root


def _limit(root: Path, mb: str) -> None:
    (root / "kb.yaml").write_text(KB_YAML + f"max_file_mb: {mb}\n", encoding="utf-8")


def test_a_file_over_the_limit_fails_ingest_and_digest_names_it(run_kb, kb_root: Path) -> None:
    _limit(kb_root, "0.002")
    msg = (f"{BIG}: 2,028 bytes, over the limit of 0.002 MB (kb.yaml max_file_mb); skipped "
           "(what the store holds of it is kept)")
    for _ in range(2):  # every run, not only the one that first saw it
        res = run_kb(["ingest", "--kb", str(kb_root)])
        assert res.exit_code == 2
        assert f"error: {msg}\n" in res.stderr
        assert res.stdout.endswith(" 1 failed; 1 claim\n")
    res = run_kb(["digest", "--kb", str(kb_root), "--date", "2026-07-31", "--executor", "tom", "--out", "-"])
    assert res.exit_code == 0
    assert res.stderr.splitlines() == [f"warning: {msg}"]
    assert BIG not in res.stdout


def test_lowering_the_limit_keeps_the_stored_claims_of_files_now_over_it(run_kb, kb_root: Path) -> None:
    res = run_kb(["ingest", "--kb", str(kb_root)])
    assert (res.exit_code, res.stdout) == (0, "3 parsed, 0 unchanged, 0 failed; 2 claims\n")
    _limit(kb_root, "0.002")
    res = run_kb(["ingest", "--kb", str(kb_root)])
    assert res.exit_code == 2
    assert res.stdout == "0 parsed, 2 unchanged, 1 failed; 2 claims\n"  # 991 tok/s kept, not removed
    assert "configuration or kb version changed" not in res.stderr  # the limit is no parse setting
    res = run_kb(["claims", "--kb", str(kb_root), "--subject", "vLLM", "--format", "json"])
    assert res.exit_code == 0
    assert "991" in res.stdout
    assert f"warning: {BIG}: 2,028 bytes, over the limit" in res.stderr
    res = run_kb(["digest", "--kb", str(kb_root), "--date", "2026-07-31", "--executor", "tom", "--out", "-"])
    assert res.exit_code == 0 and f"warning: {BIG}: 2,028 bytes, over the limit" in res.stderr
    assert f"| {BIG} | 1 | vLLM（邻接） |" in res.stdout  # its stored claim is still in the brief
    _limit(kb_root, "1")  # raised again: its stored parse is current, nothing parsed again
    res = run_kb(["ingest", "--kb", str(kb_root)])
    assert (res.exit_code, res.stdout, res.stderr) == (0, "0 parsed, 3 unchanged, 0 failed; 2 claims\n", "")


def test_a_name_kb_refuses_is_said_by_commands_that_read_the_store(run_kb, kb_root: Path) -> None:
    write_files(kb_root, {"inbox/zz/2026-07-31-a\tb.md": "- vLLM ttft 13 ms\n"})
    res = run_kb(["ingest", "--kb", str(kb_root)])
    assert res.exit_code == 2
    res = run_kb(["digest", "--kb", str(kb_root), "--date", "2026-07-31", "--executor", "tom", "--out", "-"])
    assert res.exit_code == 0
    assert res.stderr == ("warning: inbox/zz/2026-07-31-a\\x09b.md: file name holds a control character; "
                          "skipped (rename it)\n")
