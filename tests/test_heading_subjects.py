"""Names a living doc's headings give (a third fresh KB, written by a tester from the docs alone).

``### §1.2 Medusa（arXiv:2401.10774）`` names the paper by a plain word: before, only name-like
tokens (a capital inside, a digit) counted, so every inbox line about Medusa had no subject and
its conflict with the doc was silently lost. ``kb claims --subject EAGLE-3`` was refused, and
``--subject arXiv:2503.01840`` missed inbox lines that name the paper ``EAGLE-3``; ``kb diff
--from/--to`` gave the C201 line no subject although ``kb claims`` gave it the paper.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import write_files
from kb.extract.names import heading_labels, heading_names

DOC = """\
---
topic: specdec
version: {v}
updated: 2026-11-{d}T05:00:00+08:00
---
# 投机解码活文档

## §1 方法

### §1.1 EAGLE-3（arXiv:2503.01840）

- 论文报告：EAGLE-3 在 H100、batch 1 上加速 3.4×。

### §1.2 Medusa（arXiv:2401.10774）

- 论文报告：Medusa 在 A100、batch 1 上加速 2.2×。

### §1.3 Lookahead Decoding（arXiv:2402.02057）

- 免草稿模型。

## §3 共识

- C201 EAGLE-3 在低 batch 下仍是最稳的选择，加速 {c201}（见 §1.1）。
"""
FILES = {
    "kb.yaml": 'timezone: "+08:00"\ncutoff: "22:00"\ntopics: {specdec: [specdec]}\nentities: {vLLM: []}\n',
    "organized/knowledge/specdec.md": DOC.format(v=12, d="30", c201="3.6×"),
    "organized/knowledge/history/specdec/v11.md": DOC.format(v=11, d="29", c201="3.4×"),
    "inbox/raj/2026-11-30T1400-raj-watch.md": (
        "# Paper watch\n\n"
        "- Medusa decoding is 1.8× faster on A100 at batch 1, per a blog post.\n"
        "- EAGLE-3 now ships in vLLM nightly.\n"),
}


def test_a_plain_word_beside_one_id_is_the_papers_name() -> None:
    headings = ["### §1.2 Medusa（arXiv:2401.10774）", "### §1.1 EAGLE-3（arXiv:2503.01840）", "## Scheduling",
                "### §1.3 Lookahead Decoding（arXiv:2402.02057）", "## 5 Overview (arXiv:2401.00001, arXiv:2401.00002)"]
    assert heading_names(headings) == [("Medusa", "arxiv:2401.10774"), ("EAGLE-3", "arxiv:2503.01840")]
    assert heading_labels(headings) == {"arxiv:2401.10774": "Medusa", "arxiv:2503.01840": "EAGLE-3",
                                        "arxiv:2402.02057": "Lookahead Decoding"}


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    return write_files(tmp_path / "kb", FILES)


def test_the_heading_name_finds_the_conflict(kb: Path, run_kb) -> None:  # noqa: ANN001
    res = run_kb(["diff", "specdec", "--date", "2026-11-30", "--format", "json"], cwd=kb)
    out = json.loads(res.stdout)
    medusa = [c for c in out["conflicts"] if c["subject"] == "arxiv:2401.10774"]
    assert [(c["metric"], c["qualifier"], [v["raw"] for v in c["values"]]) for c in medusa] == [
        ("speedup", "a100+batch1", ["2.2×", "1.8×"])]
    labels = {s["key"]: s["label"] for s in out["subjects"]}
    assert labels["arxiv:2401.10774"] == "Medusa"


def test_claims_subject_takes_a_heading_name_and_finds_its_lines(kb: Path, run_kb) -> None:  # noqa: ANN001
    by_name = run_kb(["claims", "--subject", "EAGLE-3", "--format", "json"], cwd=kb)
    assert by_name.exit_code == 0, by_name.stderr
    by_id = run_kb(["claims", "--subject", "arXiv:2503.01840", "--format", "json"], cwd=kb)
    lines = [(c["provenance"]["path"], c["provenance"]["line"]) for c in json.loads(by_id.stdout)]
    assert lines == [(c["provenance"]["path"], c["provenance"]["line"]) for c in json.loads(by_name.stdout)]
    assert ("inbox/raj/2026-11-30T1400-raj-watch.md", 4) in lines  # "EAGLE-3 now ships …": the name, not the id


def test_version_diff_gives_a_value_the_subject_kb_claims_gives(kb: Path, run_kb) -> None:  # noqa: ANN001
    res = run_kb(["diff", "specdec", "--from", "v11", "--to", "v12", "--format", "json"], cwd=kb)
    out = json.loads(res.stdout)
    changed = [v for s in out["sections_changed"] for v in s["values_changed"]]
    assert [(v["subject"], v["metric"], v["old"], v["new"]) for v in changed] == [
        ("arxiv:2503.01840", "speedup", ["3.4×"], ["3.6×"])]
