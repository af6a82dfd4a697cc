"""Subjects on real feed shapes, wave 3: a digest's item bullets are no file scope, a numbered
item heading in any language is its one linked paper's scope, and a long paper title may hold a
word that is also a section's name (``Reading``, ``Report``)."""

from __future__ import annotations

from kb.core.config import KbConfig
from kb.extract.subjects import Anchor, attribute, is_role
from kb.extract.titles import numbered_item, paper_title
from kb.read.parse import parse_file
from kb.read.scopes import file_scope

CONFIG = KbConfig.model_validate({"entities": {"vLLM": []}})


def subjects(path: str, text: str) -> list[tuple[str, list[str]]]:
    return [(c.text, c.subjects) for c in parse_file(CONFIG, path, text.encode()).claims]


DIGEST = ("# 科技快讯 - 2026-11-20\n\n**抓取时间**: 2026-11-20 08:15\n\n---\n\n"
          "### 1. 某公司发布新款芯片\n原文: A chip maker ships a new accelerator\n\n"
          "- **评分**: 6.5/10\n- **原文链接**: https://example.com/news/chip\n\n---\n\n"
          "### 2. 稀疏注意力让长上下文更便宜\n原文: Sparse Windows Make Long Context Cheaper\n\n"
          "- **评分**: 5.5/10\n- **原文链接**: https://arxiv.org/abs/2611.05501\n\n---\n\n"
          "### 3. 分层缓存：把显存占用降到三分之一\n原文: Tiered Caching: 3x Memory Savings for Agents\n\n"
          "- **评分**: 4.5/10\n- **原文链接**: https://arxiv.org/abs/2611.05502\n")


def test_an_items_link_bullet_is_no_file_scope() -> None:
    # the first 30 lines hold item 2's labelled link, but under its own "### 2." heading
    assert file_scope({}, DIGEST) == []
    # a note's labelled link above any section heading still scopes the file
    assert file_scope({}, "# Reading\n\n**URL**: http://arxiv.org/abs/2611.05503\n\n## Method\n\n- 提速 1.4 倍\n") == [
        "arxiv:2611.05503"]


def test_a_numbered_item_heading_is_its_linked_papers_scope() -> None:
    got = {t: s for t, s in subjects("inbox/news/2026-11-20-digest.md", DIGEST)}
    assert got["原文: Tiered Caching: 3x Memory Savings for Agents"] == ["arxiv:2611.05502"]
    assert got["评分: 5.5/10"] == ["arxiv:2611.05501"]
    assert got["评分: 6.5/10"] == []  # a news item with no paper link names no paper
    assert numbered_item("### 12. 一条新闻") is False  # the heading's text, without its #s
    assert numbered_item("12. 一条新闻") is True
    assert numbered_item("Sparse Windows Make Long Context Cheaper") is False


def test_section_words_in_long_paper_titles() -> None:
    assert paper_title("Teaching Small Models Arithmetic via Reading Worked Examples",
                       numbered_only=False) == "Teaching Small Models Arithmetic via Reading Worked Examples"
    assert paper_title("Pocket Coder II: tiny-2.5 technical report",
                       numbered_only=False) == "Pocket Coder II: tiny-2.5 technical report"
    # short headings with such a word stay section names
    assert paper_title("3. Evaluation and Main Results") is None
    assert paper_title("Weekly Reading", numbered_only=False) is None
    assert paper_title("Experimental Results on Three Benchmarks", numbered_only=False) is None
    # a digest word rejects a heading of any length
    assert paper_title("Our Reading List of Serving Systems This Month", numbered_only=False) is None


def test_a_long_title_heading_scopes_its_section() -> None:
    doc = ("# 【2026-11-21】论文速览\n\n## Teaching Small Models Arithmetic via Reading Worked Examples\n\n"
           "1. **亮点：** 本文提出的方法让 3B 的模型追平了更大的模型。\n\n"
           "[到论文主页查看详情](https://huggingface.co/papers/2611.05504)\n")
    got = subjects("inbox/wu/2026-11-21-daily.md", doc)
    assert got == [("亮点： 本文提出的方法让 3B 的模型追平了更大的模型。", ["arxiv:2611.05504"])]


def test_a_program_named_after_a_model_family_is_no_model() -> None:
    text = "现有方案各有短板：gemma.cpp 只跑单卡；Llama-3-8B 作为评测模型；llama-cpp 缺少批处理。"
    spans = {name: (text.index(name), text.index(name) + len(name)) for name in ("gemma.cpp", "Llama-3-8B", "llama-cpp")}
    assert {name: is_role(text, a, b) for name, (a, b) in spans.items()} == {
        "gemma.cpp": False, "Llama-3-8B": True, "llama-cpp": False}
    anchors = [Anchor(a, b, f"entity:{name.lower()}", False) for name, (a, b) in spans.items()]
    got = attribute(text, anchors, scoped=True)
    assert (got.keys, got.hosts) == (["entity:gemma.cpp", "entity:llama-cpp"], ["entity:llama-3-8b"])


def test_a_spaced_score_under_a_title_heading_is_its_papers_claim() -> None:
    doc = ("# 【2026-11-22】论文速览\n\n## Quiet Heads Make Faster Small Decoders\n\n4. **打分：**\n\n"
           "   - **实用性：** 3.5 / 5。该方法部署简单。\n\n   - **创新性：** 4 / 5。本文换了一种思路。\n\n"
           "[到论文主页查看详情](https://huggingface.co/papers/2611.05505)\n")
    claims = parse_file(CONFIG, "inbox/wu/2026-11-22-daily.md", doc.encode()).claims
    got = [(c.text, c.kind, c.subjects, [(q.raw, q.value, q.metric, q.unit) for q in c.quantities]) for c in claims]
    assert got == [
        ("实用性： 3.5 / 5。该方法部署简单。", "secondhand", ["arxiv:2611.05505"], [("3.5 / 5", 3.5, None, None)]),
        ("创新性： 4 / 5。本文换了一种思路。", "secondhand", ["arxiv:2611.05505"], [("4 / 5", 4.0, None, None)]),
    ]
