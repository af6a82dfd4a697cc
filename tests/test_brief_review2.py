"""Issue 22, second review (an analyst's own KB): a disputed value never heads a row, a
rating keeps its request beside it, a rating hold is no demotion, placement from a subject-less hint line and from a doc entry naming the window's name
for an id. Wording fresh (a retrieval KB), exact lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import line_starting, unlinked, write_files

FILES = {
    'kb.yaml': 'timezone: "+08:00"\ncutoff: "22:00"\nexecutor: kim\ntopics: {rag: [retrieval-systems]}\nentities: {llama.cpp: []}\n',
    'organized/knowledge/rag.md': '---\ntopic: rag\nversion: 4\nupdated: 2026-05-02T05:00:00+08:00\n---\n# 检索活文档\n\n## §1 端侧\n\n- llama.cpp 在 32 GB 内存的 M2 Pro 上运行 13B 模型，解码约 24 tok/s（来源：https://github.com/ggml-org/llama.cpp/discussions/100）。\n\n## §2 重排序\n\n- 交叉编码器仍是默认重排方案（来源：arXiv:2401.00001）。\n\n## §3 检索压缩\n\n- O17 PrismCut 这类按句压缩检索结果的做法能否并入 §3？\n',
    'organized/paper_cards/310-2605-01234.md': '---\ncard: 310\narxiv: "2605.01234"\ntitle: "LoomRank: Listwise Reranking with Draft Queries"\naliases: [LoomRank]\ncategory: retrieval-systems\ncreated: 2026-05-02T09:00:00+08:00\n---\n# 310 · LoomRank: Listwise Reranking with Draft Queries\n\n## 结果\n\n- 论文报告：nDCG@10 提升 >12%（表 2）。\n',
    'inbox/ada/2026-05-02T0800-ada-rag.md': '# 检索雷达（2026-05-02 08:00）\n\n## 1. LoomRank（arXiv:2605.01234）\n\n- 论文报告：nDCG@10 提升 >18%，延迟增加 9 ms。\n- 建议归入 §2，顺带回答 O16。\n- [内部评级] ★ 待看。\n\n## 2. PrismCut（arXiv:2605.04321）\n\n- 上游摘要称检索上下文压缩 3×，尚无卡片。\n\n## 3. llama.cpp 复测\n\n- 在 96 GB 内存的 M2 Max 上运行 13B 模型，解码约 31 tok/s（来源：https://github.com/ggml-org/llama.cpp/discussions/200）。\n',
    'inbox/bo/2026-05-02T1500-bo-rag.md': '# 重排复核（2026-05-02 15:00）\n\n## 1. LoomRank 复核\n\n- 卡片写的是 nDCG@10 提升 >12%；ada 早上写的 >18% 和论文对不上，可能是抄错。\n- [内部评级] ★★ 值得跟；值不值得升档请晚班判断。\n- 代码没公开之前先别升级评级。\n',
}


@pytest.fixture
def brief(tmp_path: Path, run_kb) -> str:
    kb = write_files(tmp_path / "kb", FILES)
    res = run_kb(["digest", "--date", "2026-05-02", "--out", "-"], cwd=kb)
    assert res.exit_code == 0, res.stderr
    return unlinked(res.stdout)


def test_disputed_value_heads_no_row_and_is_marked(brief: str) -> None:
    """>18% that bo says ada miscopied: the card's >12% heads the row, >18% marked beside it."""
    assert line_starting(brief, "- 论文报告：nDCG@10") == (
        "- 论文报告：nDCG@10 提升 \\>12%（表 2）。 — `paper-fact` organized/paper_cards/310-2605-01234.md:13；"
        "`paper-fact` inbox/ada/2026-05-02T0800-ada-rag.md:5；`secondhand` inbox/bo/2026-05-02T1500-bo-rag.md:5"
        " ⚠ \\>18% 被来源指为有误（inbox/bo/2026-05-02T1500-bo-rag.md:5）")


def test_rating_with_request_is_kept_newest_first_and_hold_is_no_demotion(brief: str) -> None:
    """★★ 值得跟；值不值得升档请晚班判断: the rating stays (newest), the request beside it;
    先别升级评级 holds the rating, LoomRank stays increment 1."""
    assert line_starting(brief, "### 增量 1") == "### 增量 1【净新增】LoomRank: Listwise Reranking with Draft Queries（arXiv:2605.01234）"
    assert line_starting(brief, "- 卡片：organized/paper_cards/310") == (
        "- 卡片：organized/paper_cards/310-2605-01234.md（卡 310 · 主分类 retrieval-systems · 建卡 2026-05-02 09:00）；"
        "评级：★★（`internal-rating` inbox/bo/2026-05-02T1500-bo-rag.md:6），作者请晚班判断：「值不值得升档请晚班判断」；"
        "早先：★（`internal-rating` inbox/ada/2026-05-02T0800-ada-rag.md:7）；"
        "作者暂不升评级：「先别升级」（inbox/bo/2026-05-02T1500-bo-rag.md:7）")
    assert "作者降级" not in brief


def test_placement_from_hint_line_and_from_doc_entry_naming_the_window_name(brief: str) -> None:
    assert line_starting(brief, "- 判定：活文档未收，窗口内首次出现，卡片主分类") == (
        "- 判定：活文档未收，窗口内首次出现，卡片主分类 retrieval-systems；建议归入：§2（来源行的归入提示："
        "inbox/ada/2026-05-02T0800-ada-rag.md:6；该行并提到 O16）")
    assert line_starting(brief, "### 增量 2") == "### 增量 2【净新增】PrismCut（arXiv:2605.04321）"
    assert line_starting(brief, "- 判定：活文档未收，窗口内首次出现，尚无卡片") == (
        "- 判定：活文档未收，窗口内首次出现，尚无卡片（主题见于文件名）：建卡候选；建议归入：§3（活文档 O17 提到它："
        "organized/knowledge/rag.md:18）")
    assert "未被本窗口触及" not in brief  # §1, §2, §3 all touched or placed
