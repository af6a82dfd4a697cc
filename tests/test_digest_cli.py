"""kb digest / kb diff on a small KB: window edges, default output, refusing to overwrite, --out -."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import write_files

KB_YAML = """\
timezone: "+08:00"
cutoff: "22:00"
topics: {inference: [inference-systems]}
entities: {TGI: [], vLLM: []}
"""
DOC = """\
---
topic: inference
version: 7
updated: 2026-07-31T05:00:00+08:00
---
# 活文档

## §1 引擎

| 框架 | 状态 | 来源 |
|---|---|---|
| TGI | 已于 2025 年 12 月进入维护模式 | https://github.com/huggingface/text-generation-inference |
| vLLM | v0.26 | https://github.com/vllm-project/vllm |
"""
CARD = """\
---
card: 900
arxiv: "2607.26627"
title: "Revisiting Lossy Verification in Speculative Decoding"
aliases: [Lossy Verification]
category: inference-systems
created: 2026-07-31T16:30:00+08:00
---
# 900

- 论文报告：端到端加速 1.38×。
"""
FILES = {
    "kb.yaml": KB_YAML,
    "organized/knowledge/inference.md": DOC,
    "organized/paper_cards/900-2607-26627.md": CARD,
    # exactly at since: inside the night of 2026-07-31
    "inbox/jay/2026-07-30T2200-at-since.md": "# 简报\n\n- 据 README 落款，TGI 于 2026-03-21 进入维护模式。\n",
    # exactly at until: outside (it belongs to the night of 2026-08-01)
    "inbox/jay/2026-07-31T2200-at-until.md": "# 简报\n\n- vLLM 6 月合并 1,918 commits。\n",
    # before the window: history only
    "inbox/tom/2026-07-30T1000-before.md": "# 日报\n\n- Lossy Verification（arXiv:2607.26627）上了 HF。\n",
    "inbox/tom/2026-07-31T0900-hf.md": "# 日报\n\n- Lossy Verification（arXiv:2607.26627）：★★ 强候选。\n",
    # another topic's brief is a source; our own earlier output is not
    "inbox/spark/2026-07-31-llm-infra-e1prep.md": "# llm-infra\n\n- vLLM 合并 1,918 commits。\n",
}


@pytest.fixture
def small_kb(tmp_path: Path) -> Path:
    return write_files(tmp_path / "kb", FILES)


def test_diff_json_window_edges_and_outcomes(small_kb: Path, run_kb) -> None:  # noqa: ANN001
    res = run_kb(["diff", "inference", "--date", "2026-07-31", "--format", "json"], cwd=small_kb)
    assert res.exit_code == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["window"] == {"since": "2026-07-30T22:00:00+08:00", "until": "2026-07-31T22:00:00+08:00"}
    assert out["baseline"] == {"path": "organized/knowledge/inference.md", "version": 7,
                               "updated": "2026-07-31T05:00:00+08:00", "citations": None}
    assert [s["path"] for s in out["sources_checked"]] == [
        "inbox/jay/2026-07-30T2200-at-since.md",
        "inbox/spark/2026-07-31-llm-infra-e1prep.md",
        "inbox/tom/2026-07-31T0900-hf.md",
        "organized/paper_cards/900-2607-26627.md",
    ]
    assert {s["key"]: s["outcome"] for s in out["subjects"]} == {
        "arxiv:2607.26627": "supplement",  # first mentioned 07-30 10:00, before the window
        "entity:tgi": "conflict",
        "entity:vllm": "update",
    }
    [conflict] = out["conflicts"]
    assert [(v["raw"], v["sources"]) for v in conflict["values"]] == [
        ("2025 年 12 月", ["organized/knowledge/inference.md:12"]),
        ("2026-03-21", ["inbox/jay/2026-07-30T2200-at-since.md:3"]),
    ]
    assert [(s["subject"], s["raw"]) for s in out["secondhand_only"]] == [("entity:vllm", "1,918")]


def test_fail_on_conflict_exits_1(small_kb: Path, run_kb) -> None:  # noqa: ANN001
    res = run_kb(["diff", "--date", "2026-07-31", "--fail-on-conflict"], cwd=small_kb)
    assert res.exit_code == 1
    assert "conflict [living-doc]  entity:tgi  eol_date\n" in res.stdout


def test_digest_writes_refuses_then_forces(small_kb: Path, run_kb) -> None:  # noqa: ANN001
    res = run_kb(["digest", "--date", "2026-07-31", "--executor", "tom"], cwd=small_kb)
    assert res.exit_code == 0, res.stderr
    assert res.stdout.strip() == "inbox/tom/2026-07-31-inference-e1prep.md"
    path = small_kb / "inbox/tom/2026-07-31-inference-e1prep.md"
    first = path.read_bytes()
    mark, heading = first.split(b"\n", 2)[:2]
    assert mark.startswith(b"<!-- kb:brief kb ") and b"topic=inference night=2026-07-31" in mark
    assert heading == "# inference · E1 预消化简报（2026-07-31）".encode()
    assert b"- \xe6\x89\xa7\xe8\xa1\x8c\xe4\xba\xba\xef\xbc\x9atom\n" in first  # "- 执行人：tom"
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []

    again = run_kb(["digest", "--date", "2026-07-31", "--executor", "tom"], cwd=small_kb)
    assert again.exit_code == 2
    assert "--force" in again.stderr and "inbox/tom/2026-07-31-inference-e1prep.md exists" in again.stderr
    assert path.read_bytes() == first

    forced = run_kb(["digest", "--date", "2026-07-31", "--executor", "tom", "--force"], cwd=small_kb)
    assert forced.exit_code == 0, forced.stderr
    assert path.read_bytes() == first  # its own previous output is not a source of the same night
    checked = run_kb(["diff", "--date", "2026-07-31", "--format", "json"], cwd=small_kb)
    assert "inbox/tom/2026-07-31-inference-e1prep.md" not in checked.stdout


def test_out_dash_prints_and_writes_nothing(small_kb: Path, run_kb) -> None:  # noqa: ANN001
    res = run_kb(["digest", "--date", "2026-07-31", "--lang", "en", "--out", "-", "--executor", "tom"], cwd=small_kb)
    assert res.exit_code == 0, res.stderr
    assert res.stdout.split("\n", 1)[1].startswith("# inference · E1 pre-digest brief (2026-07-31)\n\n- Executor: tom\n")
    assert not list((small_kb / "inbox").glob("*/*-inference-e1prep.md"))


def test_out_path_and_default_night(small_kb: Path, run_kb, tmp_path: Path) -> None:  # noqa: ANN001
    target = tmp_path / "brief.md"
    res = run_kb(["digest", "--out", str(target), "--executor", "tom"], cwd=small_kb)
    assert res.exit_code == 0, res.stderr
    assert res.stdout.strip() == str(target)
    # the newest inbox file is stamped 07-31 22:00, so the default night is 2026-08-01
    assert target.read_text(encoding="utf-8").split("\n", 1)[1].startswith("# inference · E1 预消化简报（2026-08-01）\n")


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def test_executor_from_kb_yaml_then_git_user_else_an_error(small_kb: Path, run_kb) -> None:  # noqa: ANN001
    """--executor, else kb.yaml `executor`, else the KB's git user.name; never the author of a file."""
    night = ["digest", "--date", "2026-07-31"]
    none = run_kb(night, cwd=small_kb)  # the newest file is tom's: not a reason to write into inbox/tom/
    assert none.exit_code == 2
    assert "give --executor NAME, or set `executor: NAME` in kb.yaml" in " ".join(none.stderr.split())
    assert not list((small_kb / "inbox").glob("*/*-inference-e1prep.md"))

    _git(small_kb, "init", "-q")
    _git(small_kb, "config", "user.name", "ana")
    by_git = run_kb(night, cwd=small_kb)
    assert (by_git.exit_code, by_git.stdout.strip()) == (0, "inbox/ana/2026-07-31-inference-e1prep.md")

    (small_kb / "kb.yaml").write_text(KB_YAML + "executor: lee\n", encoding="utf-8")
    by_config = run_kb([*night, "--out", "-"], cwd=small_kb)
    assert by_config.exit_code == 0, by_config.stderr
    assert "- 执行人：lee\n" in by_config.stdout
    given = run_kb([*night, "--out", "-", "--executor", "kim"], cwd=small_kb)
    assert "- 执行人：kim\n" in given.stdout

    (small_kb / "kb.yaml").write_text(KB_YAML + "executor: ../lee\n", encoding="utf-8")
    bad = run_kb([*night, "--out", "-"], cwd=small_kb)
    assert bad.exit_code == 2 and "'executor': Value error, '../lee' is not a plain name" in bad.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["digest", "--date", "2026-07-31", "--executor", "../x"], "--executor"),
        (["digest", "--date", "2026-07-31", "--executor", " "], "--executor"),
        (["digest", "nosuch"], "unknown topic"),
        (["digest", "--date", "2026-07-31", "--window", "24h"], "one way only"),
        (["diff", "--date", "31.07.2026"], "YYYY-MM-DD"),
        (["digest", "--template", "/nonexistent/x.md.j2", "--executor", "tom"], "no such file"),
    ],
)
def test_usage_errors_exit_2(small_kb: Path, run_kb, args: list[str], message: str) -> None:  # noqa: ANN001
    res = run_kb(args, cwd=small_kb)
    assert res.exit_code == 2
    assert message in " ".join(res.stderr.split())


def test_topic_without_living_doc(small_kb: Path, run_kb) -> None:  # noqa: ANN001
    (small_kb / "kb.yaml").write_text(KB_YAML.replace("{inference: [inference-systems]}",
                                                      "{inference: [inference-systems], rag: [rag]}"), encoding="utf-8")
    res = run_kb(["digest", "rag", "--date", "2026-07-31"], cwd=small_kb)
    assert res.exit_code == 2
    assert "organized/knowledge/rag.md" in res.stderr


def test_snapshot_and_actions_name_a_section_the_doc_lacks(small_kb: Path, run_kb) -> None:  # noqa: ANN001
    """基线快照 on a small KB: a suggested § the living doc does not have says so; the § the
    conflict lives in shows the doc's latest value of each subject there; the actions name both."""
    (small_kb / "inbox/jay/2026-07-31T1200-hint.md").write_text(
        "# 简报\n\n- vLLM 吞吐 2.5×，建议归入 §4.2。\n", encoding="utf-8")
    res = run_kb(["digest", "--date", "2026-07-31", "--executor", "tom", "--out", "-"], cwd=small_kb)
    assert res.exit_code == 0, res.stderr
    snap = res.stdout.split("- 基线快照（organized/knowledge/inference.md v7 已收，本窗口涉及的节）：\n", 1)[1]
    assert snap.split("\n\n", 1)[0].splitlines() == ["  - §4.2：活文档无此节", "  - §1 引擎：TGI（2025 年 12 月）、vLLM"]
    assert "- 可操作结论：把 2.5×、1,918 补入 §4.2，但这些数字仅二手：先核对一手来源（§2）；【执行人判断：是补充还是取代旧值】\n" in res.stdout
    assert "- 可操作结论：先裁定 §2 第 1 项（2026-03-21），再改正 §1；【执行人判断：采信哪个来源】\n" in res.stdout


def test_a_kb_process_leaves_its_objects_to_its_exit_and_writes_all_it_printed(small_kb: Path, run_kb) -> None:  # noqa: ANN001
    """The console script freezes what the command left before the interpreter's shutdown
    (kb.cli._no_collection_at_exit); in-process calls (main(argv)) do not; and nothing the
    command printed or wrote is lost by it: the brief of a real process, on standard output and
    in a file, is the in-process one byte for byte."""
    import gc
    import os
    import sys

    args = ["digest", "inference", "--date", "2026-07-31", "--executor", "tom"]
    frozen = gc.get_freeze_count()
    brief = run_kb([*args, "--out", "-"], cwd=small_kb)
    assert brief.exit_code == 0, brief.stderr
    assert brief.stdout.startswith("<!-- kb:brief") and gc.get_freeze_count() == frozen
    env = {k: v for k, v in os.environ.items() if k != "KB_CONFIG_DIR"}
    probe = ("import atexit, gc, sys; atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0, "
             "file=sys.stderr)); from kb.cli import main; main()")
    for out in ("-", "brief.md"):
        proc = subprocess.run([sys.executable, "-c", probe, *args, "--out", out], cwd=small_kb, env=env,
                              capture_output=True, text=True, timeout=300, check=False)
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr.splitlines()[-1] == "frozen True"
        written = proc.stdout if out == "-" else (small_kb / out).read_text(encoding="utf-8")
        assert written == brief.stdout
