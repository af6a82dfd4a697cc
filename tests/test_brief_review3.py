"""Issue 22, third review (a blind analyst on both briefs): author caveats by kind (not
comparable, set-up missing, relative positions only, an opinion heading), a card only for a
paper, lines about what the living doc names are on topic, one definition of "touched", the
source record derived from §2's rows, the relay line keeping its "secondhand only" flag, names
for bare ids. Wording fresh (a cache-engine KB), exact lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import digest_brief, line_starting

from kb.brief.snapshot import doc_id_names
from kb.extract.caveats import is_opinion, line_mood
from kb.night.doc_index import doc_terms, lead_term

ADA = """\
# 缓存雷达（2026-06-10 09:00）

## 1. Tarn

- Tarn 单节点命中率升到 88%，新增分层淘汰（据一篇转载）。

## 2. Kestrel

- Kestrel 宣称写放大降低 40%，尚无论文。

## 3. Quarry 价格

- Quarry 托管缓存报 $0.12/GB·月。
- 这是预留实例的价，与按需价不可比。

## 4. 三家对比

| 引擎 | QPS | 硬件 |
|---|---|---|
| Alder | 91,000 | 1×c7 |
| Birch | 84,000 | 1×c7 |
| Cedar | 77,000 | 1×c7 |

- 帖子没交代数据集和并发，只能看相对位置。

## 5. 选购建议（作者观点）

- Nimbus 比 Tarn 省 30% 内存，小团队可以先上它。

## 6. 路由

- Halyard 新版支持热点键复制，读尾延迟降低 22%。
- 顺带可以回答 O12。
"""
DOC = """\
---
topic: cache
version: 7
updated: 2026-06-10T05:00:00+08:00
---
# 缓存活文档

## §1 引擎

- Tarn 单节点命中率约 81%（来源：https://tarn.example.org/blog/hits）。

## §2 路由

- Halyard 按键前缀做一致性哈希（来源：https://github.com/halyard/halyard）。
- Ferrule 式分桶已是默认做法（来源：arXiv:2501.00002）。

## §3 开放问题

- O12 冷热分层什么时候值得单独成节？
"""
FILES = {
    "kb.yaml": ('timezone: "+08:00"\ncutoff: "22:00"\nexecutor: noor\ntopics: {cache: [cache-systems]}\n'
                "entities: {Quarry: [], Kestrel: [], Alder: [], Birch: [], Cedar: [], Nimbus: [], Tarn: []}\n"),
    "organized/knowledge/cache.md": DOC,
    "inbox/ada/2026-06-10T0900-ada-cache.md": ADA,
    "inbox/bo/2026-06-10T1700-bo-check.md": "# 复核（2026-06-10 17:00）\n\n## 1. Kestrel\n\n- ada 写的写放大 40% 和官方说明对不上，可能是抄错。\n",
}
ADA_PATH = "inbox/ada/2026-06-10T0900-ada-cache.md"


@pytest.fixture(scope="module")
def brief(tmp_path_factory: pytest.TempPathFactory) -> str:
    return digest_brief(tmp_path_factory.mktemp("review3") / "kb", FILES, "2026-06-10")


def test_caveat_kinds_read_by_line_mood() -> None:
    """Not comparable, set-up missing, relative positions only, not for the doc: each demotes;
    a not-comparable line naming the living doc is about the doc's set-up, no demotion."""
    assert line_mood("按小时计费的报价，和包年套餐不可比") == ("demote", "不可比")
    assert line_mood("原帖没有给出硬件配置") == ("demote", "没有给出硬件配置")
    assert line_mood("榜单只看相对排序就好") == ("demote", "只看相对排序")
    assert line_mood("Numbers are from a slide; no concurrency level given.") == ("demote", "no concurrency level given")
    assert line_mood("Vendor prices, not comparable to list prices.") == ("demote", "not comparable")
    assert line_mood("机型和活文档里那台不同，两者不能直接比较") is None


def test_opinion_heading_and_lead() -> None:
    assert is_opinion("二、挑选建议（个人观点）", heading=True)
    assert is_opinion("- 我的看法：这家明年会被收购。")
    assert not is_opinion("- 论文报告：与我的判断一致，命中率 90%。")


def test_doc_terms_and_lead_terms() -> None:
    lines = ["# 文档", "## §1 存储", "- Wisp 把冷键放到对象存储。", "## §2 版本记录", "- Gale 已删除。"]
    assert doc_terms(lines, [(2, "§1", "§1 存储"), (4, "§2", "§2 版本记录")]) == {"Wisp": ("§1", 3)}
    assert lead_term("- [更新] Wisp2 新增压缩") == "Wisp2"
    assert lead_term("- API 价格下调") is None


def test_names_for_bare_ids() -> None:
    assert doc_id_names(["- Loom 与 Weft 的两种切分（来源：arXiv:2502.00011 · arXiv:2502.00022）。",
                         "- Spindle 式复制已是默认（来源：arXiv:2502.00033 · arXiv:2502.00044）。",
                         "- C7 这条共识引的是 arXiv:2502.00055。",
                         "- 见 Reel（arXiv:2502.00066）。"]) == {
        "2502.00066": "Reel", "2502.00011": "Loom", "2502.00022": "Weft", "2502.00033": "Spindle"}


def test_caveated_items_are_listed_apart_with_the_authors_words(brief: str) -> None:
    part = brief.split("### 邻接与不应过度解读的材料（作者降级 5 · 已收 / 补遗 / 邻接 0 个）\n\n", 1)[1].split("\n\n## 2.", 1)[0]
    assert part.splitlines() == [
        f"- 「4. 三家对比」 Alder / Birch / Cedar【作者降级】：「帖子没交代数据集和并发，只能看相对位置。」 — {ADA_PATH}:24；"
        "本应净新增，kb 因作者的附注（见引文）暂不列为增量",
        f"- Nimbus【作者观点】：「Nimbus 比 Tarn 省 30% 内存，小团队可以先上它。」 — {ADA_PATH}:28；本应净新增，只有作者观点或设置值，没有可补的数值",
        f"- Quarry【作者降级】：「这是预留实例的价，与按需价不可比。」 — {ADA_PATH}:14；本应净新增，kb 因作者的附注（见引文）暂不列为增量",
        # a line about what the doc names (Halyard, §2) though kb.yaml does not: on topic
        f"- Halyard【活文档已有：§2】：「Halyard 新版支持热点键复制，读尾延迟降低 22%。」 — {ADA_PATH}:32；"
        "kb 未列为主体，活文档 organized/knowledge/cache.md:14 已写到它：【执行人判断：是否补入 §2】"]
    # Tarn: 命中率 is a metric (hit_rate), so the reprint's 88% conflicts with the doc's first-hand 81%
    assert (f"| {ADA_PATH} | 8 | Tarn（矛盾/待核实）、Kestrel（净新增）、Quarry（作者降级）、Alder（作者降级）、Birch（作者降级）、"
            "Cedar（作者降级）、Nimbus（作者观点）、Halyard（活文档 §2 已有） |") in brief
    assert "不涉及本主题" not in brief


def test_a_card_only_for_a_paper(brief: str) -> None:
    assert line_starting(brief, "- 判定：活文档未收") == "- 判定：活文档未收，窗口内首次出现，尚无卡片（主题见于文件名）；不是论文，不建卡；建议归入：—"
    assert line_starting(brief, "- 可操作结论：先核对") == (
        "- 可操作结论：先核对一手来源（40% 仅二手，§2），核实后归入 【执行人定节】；【执行人判断：是否收录】")
    assert "建卡" not in brief.split("## 1.", 1)[1].split("## 2.", 1)[0].replace("不建卡", "")


def test_touched_has_one_definition(brief: str) -> None:
    assert line_starting(brief, "  - 另有") == "  - 另有 2 节也被本窗口触及（增量、已收材料或 C/O 条目）：§2、§3（O12）"
    assert "未被本窗口触及" not in brief


def test_source_record_from_the_rows_and_relay_flag(brief: str) -> None:
    assert line_starting(brief, "| 3 |") == ("| 3 | Kestrel：40% 有来源提出异议：「ada 写的写放大 40% 和官方说明对不上，可能是抄错。」"
                                     "（kb 不拿它们比较） | `secondhand` "
                                    "inbox/bo/2026-06-10T1700-bo-check.md:5 | 🟡 来源称有误 | 回原文核对，确认哪一方有误 |")
    assert line_starting(brief, "来源记录") == ("来源记录（kb sources）：ada：7 个数字（被论文或活文档反驳 1 个），§2 第 1 项与活文档不符、"
                                     "第 3 项被来源指为有误")
    relay = brief.split("- 建议今晚活文档接力动作：\n", 1)[1].split("\n- 下一个", 1)[0].splitlines()
    assert relay == ["  1. Kestrel：先核对一手来源（§2 第 2 项），再入 【执行人定节】（增量 1）",
                     "  2. Tarn：核对转载（§2），§1 暂不改（增量 2）",
                     "- 本窗口触及的活文档条目：§3 的 O12：【执行人判断：今晚可回答或补证哪些】"]


def test_no_density_line_without_a_judgement(brief: str) -> None:
    assert "前 7 晚" not in brief and "，**9** 条 claim，" in line_starting(brief, "- 检查来源：")
