"""Issue 8, on the labelled night mixed-kvcache (a KB a tester wrote from the docs alone): set-up
sizes (``128K 上下文``, ``8B 级模型``) are no facts, and a table's metric column is applied, as
``kb diff``, ``kb lint``, ``kb history``, ``kb trace`` and the brief all see it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

NIGHT = Path(__file__).resolve().parent / "nights" / "mixed-kvcache"
RAVI = "inbox/ravi/2026-11-30T1400-ravi-kvcache-digest.md"


@pytest.fixture
def night(tmp_path: Path) -> Path:
    dest = tmp_path / "kb"
    shutil.copytree(NIGHT, dest, ignore=shutil.ignore_patterns(".kb", "expected.yaml"))
    return dest


def _diff(run_kb, root: Path) -> dict:  # noqa: ANN001
    r = run_kb(["diff", "kvcache", "--date", "2026-11-30", "--format", "json"], cwd=root)
    assert r.exit_code in (0, 1), r.stderr
    return json.loads(r.stdout)


def test_a_conflicting_table_cell_is_a_conflict_like_the_same_prose(night: Path, run_kb) -> None:  # noqa: ANN001
    """The tester's X1: ravi's TTFT cell changed to 0.9 s conflicts with the doc's 380 ms (both
    at 32K context); before, the 指标 column was not read and the cell was an "update"."""
    path = night / RAVI
    text = path.read_text(encoding="utf-8")
    assert "| LMCache | TTFT | 0.38 s（32K 上下文） |" in text
    path.write_text(text.replace("| LMCache | TTFT | 0.38 s（32K 上下文） |", "| LMCache | TTFT | 0.9 s（32K 上下文） |"),
                    encoding="utf-8")
    d = _diff(run_kb, night)
    assert {s["key"]: s["outcome"] for s in d["subjects"]}["entity:lmcache"] == "conflict"
    got = [(c["metric"], c["qualifier"], c["against"], sorted((v["raw"], tuple(v["sources"])) for v in c["values"]))
           for c in d["conflicts"] if c["subject"] == "entity:lmcache"]
    assert got == [("ttft", "ctx32k", ["living-doc"], [
        ("0.9 s", (f"{RAVI}:10",)),
        ("380 ms", ("organized/knowledge/kvcache.md:59",)),
    ])]


def test_the_unchanged_cell_is_the_docs_value_and_sizes_are_no_figures(night: Path, run_kb) -> None:  # noqa: ANN001
    d = _diff(run_kb, night)
    assert {s["key"]: s["outcome"] for s in d["subjects"]}["entity:lmcache"] == "covered"
    assert not [c for c in d["conflicts"] if c["subject"] == "entity:lmcache"]
    shown = {(e["subject"], e["metric"], e["raw"]) for e in d["secondhand_only"]}
    assert ("entity:lmcache", "ttft", "0.38 s") in shown  # the cell now has its metric
    # no set-up size is a figure to verify (they were: 128K memory, 1M memory)
    assert not {r for _, _, r in shown} & {"128K", "1M", "32K", "8B", "70B"}


def test_lint_takes_a_model_size_for_no_consensus_number(night: Path, run_kb) -> None:  # noqa: ANN001
    """`C101 2-bit KV 量化在 8B 级模型上精度损失可控` (§8.1 共识): 8B is the model's size."""
    r = run_kb(["lint"], cwd=night)
    codes = [line.split(": ", 1)[1].split()[0] for line in r.stdout.splitlines() if ": KB" in line]
    assert sorted(codes) == ["KB104", "KB105", "KB106", "KB109"]  # the tester's E47, without KB108 (KB104: one finding, 8 ids)


def test_history_lists_the_table_cell_and_no_context_length(night: Path, run_kb) -> None:  # noqa: ANN001
    r = run_kb(["history", "LMCache", "--metric", "ttft"], cwd=night)
    assert r.exit_code == 0, r.stderr
    rows = [line.split("  ")[:2] for line in r.stdout.splitlines() if line[:4] == "2026"]
    assert rows == [["2026-11-29 05:00+08:00", "420 ms"], ["2026-11-30 05:00+08:00", "380 ms"],
                    ["2026-11-30 05:00+08:00", "380 ms"], ["2026-11-30 14:00+08:00", "0.38 s"]]
    assert "32K" not in "".join(line for line in r.stdout.splitlines() if line[:4] == "2026")


def test_trace_and_the_brief_see_the_table_row(night: Path, run_kb, tmp_path: Path) -> None:  # noqa: ANN001
    r = run_kb(["trace", "TurboKV", "--metric", "memory"], cwd=night)
    assert r.exit_code == 0, r.stderr
    assert f"secondhand  16.4 GB  {RAVI}:7" in r.stdout
    out = tmp_path / "brief.md"
    r = run_kb(["digest", "kvcache", "--date", "2026-11-30", "--executor", "t", "--out", str(out), "--force"], cwd=night)
    assert r.exit_code in (0, 1), r.stderr
    brief = out.read_text(encoding="utf-8")
    row = next(line for line in brief.splitlines() if line.startswith("- 论文报告：在 Llama-3.1-8B、128K 上下文下"))
    # one fact, five sources: the card first, then prose zh and en, ravi's table row and his reprint
    assert [s.split("`")[1:3] for s in row.split(" — ", 1)[1].split("；")] == [
        ["paper-fact", " organized/paper_cards/701-2611-04512.md:26"],
        ["secondhand", " inbox/lin/2026-11-30T0930-lin-kvcache-daily.md:10"],
        ["secondhand", " inbox/mira/2026-11-30T1100-mira-serving-notes.md:9"],
        ["secondhand", f" {RAVI}:7"],
        ["secondhand", f" {RAVI}:14"],
    ]
    card_line = next(line for line in brief.splitlines() if line.startswith("- 卡片：organized/paper_cards/701"))
    assert "HF 票 96（`internal-rating` inbox/mira/2026-11-30-hf-daily-2026-11-30.md:5）" in card_line
    assert "128K" not in card_line  # no "⚠ 仅二手：128K"


def test_a_set_up_column_takes_only_plausible_sizes(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """A Batch / 并发 cell that is no set-up size (0, 1.5, 1e24, a negative) gives no set-up
    token nor a batch figure, and a warning naming file, line and cell; 32 and 8 stay set-ups."""
    from conftest import write_files

    write_files(tmp_path, {
        "kb.yaml": "topics:\n  inference: [inference]\nexecutor: tom\nentities:\n  vLLM: []\n",
        "organized/knowledge/.keep": "",
        "inbox/tom/2026-07-31_t.md": (
            "# vLLM 测试\n\n| 系统 | Batch | 吞吐 |\n| --- | --- | --- |\n| vLLM | 0 | 1200 tok/s |\n"
            "| vLLM | 1.5 | 1300 tok/s |\n| vLLM | 1e24 | 1400 tok/s |\n| vLLM | -4 | 1500 tok/s |\n"
            "| vLLM | 32 | 1600 tok/s |\n\n| 系统 | 并发 | 吞吐 |\n| --- | --- | --- |\n| vLLM | 0 | 1700 tok/s |\n"
            "| vLLM | 8 | 1800 tok/s |\n"),
    })
    r = run_kb(["ingest"], cwd=tmp_path)
    assert r.exit_code == 0, r.stderr
    f = "inbox/tom/2026-07-31_t.md"
    assert [line for line in r.stderr.splitlines() if "set-up" in line] == [
        f"warning: {f}:5: set-up cell '0' is not a whole number from 1 up to 1,000,000 (batch_size); no set-up",
        f"warning: {f}:6: set-up cell '1.5' is not a whole number from 1 up to 1,000,000 (batch_size); no set-up",
        f"warning: {f}:7: set-up cell '1e24' is not a whole number from 1 up to 1,000,000 (batch_size); no set-up",
        f"warning: {f}:8: set-up cell '-4' is not a whole number from 1 up to 1,000,000 (batch_size); no set-up",
        f"warning: {f}:13: set-up cell '0' is not a whole number from 1 up to 10,000,000 (concurrency); no set-up",
    ]
    r = run_kb(["claims", "--format", "json"], cwd=tmp_path)
    got = [[(q["metric"], q["raw"], q["qualifier"]) for q in c["quantities"]] for c in json.loads(r.stdout)]
    assert got == [
        [("throughput", "1200 tok/s", None)], [("throughput", "1300 tok/s", None)],
        [("throughput", "1400 tok/s", None)], [("throughput", "1500 tok/s", None)],
        [("batch_size", "32", None), ("throughput", "1600 tok/s", "batch32")],
        [("throughput", "1700 tok/s", None)],
        [("concurrency", "8", None), ("throughput", "1800 tok/s", "conc8")],
    ]


def test_setup_token_needs_a_set_up_size() -> None:
    from kb.extract.qualifiers import setup_token, size_problem

    assert [setup_token("batch_size", v) for v in (32, 0, 1.5, -4, 1e24, 1e6)] == [
        "batch32", None, None, None, None, "batch1m"]
    assert setup_token("context_length", 1.1 * 1000) == "ctx1.1k"  # 1.1K is 1100, a whole number
    assert setup_token("params", 1.5e9) == "params1.5b"
    assert setup_token("gpu_count", None, 0, 8) is None
    assert size_problem("params", 0.0) == "is not a positive number up to 1,000,000,000,000,000"
    assert size_problem("throughput", -1.0) is None
