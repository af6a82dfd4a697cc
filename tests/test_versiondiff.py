"""kb diff --from/--to: sections added/removed/changed/renumbered, subjects, citations vs the figure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb.core.config import KbConfig
from kb.core.errors import UsageError
from kb.read.livedoc import parse_living_doc
from kb.read.parse import Parser
from kb.read.livedoc import citations_of
from kb.history.versiondiff import parse_version, version_diff

PARSER = Parser(KbConfig(entities={"vLLM": [], "TGI": []}))

V1 = """---
topic: t
version: 1
citations: 3
---
# 活文档

## §1 引擎

- vLLM v0.25（来源：https://github.com/vllm-project/vllm）。
- TGI 维护模式（来源：arXiv:2401.00001）。

## §2 调度

### §2.1 工具调用与尾延迟

- 工具等待占 40%（来源：arXiv:2604.03367）。

## §3 旧节

- 将被删除（来源：https://example.org/old）。
"""

V2 = """---
topic: t
version: 2
citations: 9
---
# 活文档

## §1 引擎

- vLLM v0.26（来源：https://github.com/vllm-project/vllm · https://arxiv.org/abs/2401.00001v2）。
- TGI 维护模式（来源：arXiv:2401.00001）。

## §2 调度

### §2.1 Memory（arXiv:2607.25380）

- 记忆综述（来源：arXiv:2607.25380 · inbox/spark/2026-07-30-llm-infra-e1prep.md）。

### §2.2 工具调用与尾延迟

- 工具等待占 40%（来源：arXiv:2604.03367）。
"""


def test_sections_subjects_and_citations() -> None:
    out = version_diff(parse_living_doc(PARSER, "v1.md", V1), parse_living_doc(PARSER, "v2.md", V2), "t")
    assert [s.label for s in out.sections_added] == ["§2.1"]
    assert [s.label for s in out.sections_removed] == ["§3"]
    assert [s.label for s in out.sections_changed] == ["§1"]
    assert [(s.old_label, s.label, s.body_changed) for s in out.sections_renumbered] == [("§2.1", "§2.2", False)]
    assert out.subjects_added == ["arxiv:2607.25380"]
    assert out.citations_added == ["arxiv:2607.25380", "inbox/spark/2026-07-30-llm-infra-e1prep.md"]
    assert out.citations_removed == ["https://example.org/old"]
    assert ("§2.1", "arxiv:2607.25380") in out.section_citations_added
    assert out.citations["from"].model_dump() == {"stated": 3, "counted": 4}
    assert out.citations["to"].model_dump() == {"stated": 9, "counted": 5}


def test_arxiv_urls_fold_into_their_id() -> None:
    assert citations_of("见 https://arxiv.org/abs/2607.26627v2 与 arXiv:2607.26627，及 https://x.org/a") == {
        "arxiv:2607.26627", "https://x.org/a"}


@pytest.mark.parametrize(("text", "n"), [("v44", 44), ("45", 45), (" V7 ", 7)])
def test_parse_version(text: str, n: int) -> None:
    assert parse_version(text, "--from") == n


def test_parse_version_rejects_other_text() -> None:
    with pytest.raises(UsageError, match="v44"):
        parse_version("latest", "--from")


def test_demo_v44_to_v45(demo_kb: Path, run_kb) -> None:  # noqa: ANN001 - fixtures from tests/conftest.py
    res = run_kb(["diff", "inference", "--from", "v44", "--to", "v45", "--format", "json"], cwd=demo_kb)
    assert res.exit_code == 0, res.stderr
    out = json.loads(res.stdout)
    assert [s["label"] for s in out["sections_added"]] == ["§2.7", "§5.1", "§6.6", "§7.1"]
    assert [(s["old_label"], s["label"]) for s in out["sections_renumbered"]] == [("§7.1", "§7.2")]
    assert out["sections_removed"] == []
    assert out["citations"] == {"from": {"stated": 98, "counted": 102}, "to": {"stated": 115, "counted": 110}}
    assert {"arxiv:2607.16955", "arxiv:2607.19712", "arxiv:2607.25380"} <= set(out["citations_added"])
    assert ["§2.7", "arxiv:2606.29708"] in out["section_citations_added"]


def test_unknown_version_lists_the_known_ones(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    res = run_kb(["diff", "inference", "--from", "v12", "--to", "v45"], cwd=demo_kb)
    assert res.exit_code == 2
    assert "v44" in res.stderr and "v45" in res.stderr
