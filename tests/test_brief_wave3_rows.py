"""The brief's rows after the third review, on a small KB of their own: a price placed by its
metric with a first-hand-source action (no card for a non-paper), a relay against the doc's
first-hand value as a 🟡 row that keeps the doc, an opinion heading's figure never a value to add,
an author's "只能看相对位置" demoting a table, and the snapshot's untouched line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import write_files

KB_YAML = """\
timezone: "+08:00"
cutoff: "22:00"
executor: night
topics: {serving: [serving-systems]}
entities: {Lumen: [], Corvid: [], Brisk: [], Tarn: [], Gale: []}
"""
DOC = """\
---
topic: serving
version: 2
updated: 2026-08-05T05:00:00+08:00
---
# Serving 活文档

## §1 引擎

- Lumen 的长 prompt TTFT 降低 42%。
  来源：官方博客 https://blog.lumen.dev/2026/07/prefill
- Brisk 吞吐约 900 tok/s（来源：https://github.com/brisk/brisk）。

## §2 成本

### §2.1 GPU 租赁价格

| GPU | 按需价格（$/GPU·h） |
|---|---|
| A100 | 1.6–2.4 |

### §2.2 每百万 token 成本

- 开源 8B 模型托管约 $0.05/百万 token。

## §3 开放问题

- O21 Tarn 的批调度何时值得写成节点？
"""
NOTES = """\
# Serving 笔记（2026-08-05 14:00）

kai · 扫读。

## 1. Corvid 价格页

- Corvid 更新了按需价格：A100 报 $0.99/GPU·h（来源：https://corvid.example/pricing）。

## 2. Lumen 转载

- 据一篇知乎转载，Lumen 的长 prompt TTFT 降低 28%（来源：https://zhuanlan.zhihu.com/p/777）。

## 3. 选型（作者观点）

- Brisk 比 Lumen 慢 15% 左右。

## 4. 新引擎对比

| 引擎 | 吞吐（tok/s） |
|---|---|
| Gale | 1,250 |
| Tarn | 1,100 |

- 博文没给配置，只能看相对位置。
"""
FILES = {"kb.yaml": KB_YAML, "organized/knowledge/serving.md": DOC, "inbox/kai/2026-08-05T1400-serving-notes.md": NOTES}


@pytest.fixture
def brief(tmp_path: Path, run_kb) -> list[str]:  # noqa: ANN001
    kb = write_files(tmp_path / "kb", FILES)
    res = run_kb(["digest", "--date", "2026-08-05", "--out", "-"], cwd=kb)
    assert res.exit_code == 0, res.stderr
    return re.sub(r"\]\([^)\s]+\)", "]", res.stdout).replace("[", "").replace("]", "").splitlines()


def _block(lines: list[str], head: str) -> list[str]:
    i = next(n for n, x in enumerate(lines) if x.startswith(head))
    j = next((n for n in range(i + 1, len(lines)) if lines[n].startswith(("### ", "## "))), len(lines))
    return lines[i:j]


def test_a_price_goes_where_a_section_title_names_its_metric_and_gets_no_card(brief: list[str]) -> None:
    block = _block(brief, "### 增量 1【净新增】Corvid")
    assert block[1] == ("- 判定：活文档未收，窗口内首次出现，尚无卡片（主题见于标题路径）；不是论文，不建卡；建议归入：§2.1"
                        "（该节标题点名了数值的指标 cost：inbox/kai/2026-08-05T1400-serving-notes.md:7）")
    assert "- 可操作结论：先核对一手来源（$0.99 仅二手，§2），核实后归入 §2.1；【执行人判断：是否收录】" in block


def test_a_relay_against_the_docs_first_hand_value_is_checked_not_settled(brief: list[str]) -> None:
    row = next(x for x in brief if x.startswith("| 1 | Lumen"))
    assert row.split(" | ")[3:] == [
        "🟡 转载与活文档的一手来源不符",
        "活文档引一手来源（https://blog.lumen.dev/2026/07/prefill）：核对转载 https://zhuanlan.zhihu.com/p/777，未核前不改活文档 |"]
    assert ("- 可操作结论：核对转载的 28%（§2 第 1 项）；§1 引一手来源（https://blog.lumen.dev/2026/07/prefill），"
            "未核前不改；【执行人判断：是否通知转载者】") in brief


def test_an_opinion_headings_figure_is_no_value_to_add(brief: list[str]) -> None:
    """Brisk's only new value stands under ``## 3. 选型（作者观点）``: nothing to add, no increment."""
    assert [x for x in brief if x.startswith("- Brisk【")] == [
        "- Brisk【作者观点】：「Brisk 比 Lumen 慢 15% 左右。」 — inbox/kai/2026-08-05T1400-serving-notes.md:15；"
        "本应建议补，只有作者观点或设置值，没有可补的数值；归属 §1（活文档已收于此：organized/knowledge/serving.md:12）"]
    assert not any(x.startswith("### 增量") and "Brisk" in x for x in brief)
    assert not any("Brisk：" in x and "只有摘要转述来源" in x for x in brief)


def test_only_relative_positions_demote_the_table_and_the_untouched_line_is_true(brief: list[str]) -> None:
    assert [x.split("：", 1)[0] for x in brief if "只能看相对位置。」" in x] == ["- Gale【作者降级】", "- Tarn【作者降级】"]
    assert not any(x.startswith("| ") and ("Gale：" in x or "Tarn：" in x) for x in brief)
    # §3 holds O21, an entry naming Tarn, a subject of tonight: no section is untouched
    assert not any(x.startswith("  - 其余") for x in brief)


def test_a_merged_table_is_one_row_of_section_2(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """Without the author's caveat the table's engines are one increment, and one §2 row."""
    files = {**FILES, "inbox/kai/2026-08-05T1400-serving-notes.md": NOTES.replace("- 博文没给配置，只能看相对位置。\n", ""),
             "organized/knowledge/serving.md": DOC.replace("- O21 Tarn 的批调度何时值得写成节点？\n", "")}
    res = run_kb(["digest", "--date", "2026-08-05", "--out", "-"], cwd=write_files(tmp_path / "kb", files))
    rows = [x.split(" | ")[1] for x in res.stdout.splitlines() if "只有摘要转述来源" in x]
    assert rows == ["Corvid：$0.99 只有摘要转述来源，无论文事实或一手引用支撑",
                    "「4. 新引擎对比」 Gale / Tarn：1,250、1,100 只有摘要转述来源，无论文事实或一手引用支撑"]


def test_an_adjacent_subjects_secondhand_figure_is_not_an_item_to_verify(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """An off-topic subject (no card, the topic named nowhere around it) is listed apart; its
    relayed figure is no §2 row and no item of §0's count (the generated night: 179 → 24)."""
    files = {**FILES, "kb.yaml": KB_YAML.replace("Gale: []}", "Gale: [], Quill: []}"),
             "inbox/kai/2026-08-05T1500-misc.md": "# 杂记\n\n- 据报道 Quill 的日活涨到 3 万。\n"}
    res = run_kb(["digest", "--date", "2026-08-05", "--out", "-"], cwd=write_files(tmp_path / "kb", files))
    lines = res.stdout.splitlines()
    assert any(x.startswith("- Quill【邻接】") for x in lines)
    assert not any("Quill：" in x and "只有摘要转述来源" in x for x in lines)
    assert next(x for x in lines if x.startswith("- 增量 ")).endswith("；矛盾 1 组，待核实 2 项（§2）。")
