"""Document scopes on real feed shapes (issue 20, wave 2): a paper section whose id sits only
in its closing link (Hugging Face paper pages carry arXiv ids), a paper note whose id sits only
in its front matter's ``pdf:`` link."""

from __future__ import annotations

from kb.core.config import KbConfig
from kb.read.parse import parse_file
from kb.read.walk import file_scope, section_ids

CONFIG = KbConfig.model_validate({"entities": {"vLLM": []}})


def subjects(path: str, text: str) -> list[tuple[str, list[str]]]:
    return [(c.text, c.subjects) for c in parse_file(CONFIG, path, text.encode()).claims]


def test_a_title_section_takes_the_id_of_its_closing_paper_link() -> None:
    doc = ("# 【2026-11-28】每日论文速览\n\n"
           "## Lantern: Sparse Lookahead Decoding for Small Models\n\n**亮点：**\n\n- 解码吞吐提升 2.6 倍。\n\n"
           "[到论文主页查看详情](https://huggingface.co/papers/2611.07781)\n"
           "## Ember Cache: Reusing Prefixes Across Tenants\n\n- 首 token 延迟降低 31%。\n\n"
           "[原文](https://arxiv.org/abs/2611.07790)\n")
    assert section_ids(doc) == {3: "arxiv:2611.07781", 10: "arxiv:2611.07790"}
    got = [(t, s) for t, s in subjects("inbox/wu/2026-11-28-daily.md", doc) if "%" in t or "倍" in t]
    assert got == [("解码吞吐提升 2.6 倍。", ["arxiv:2611.07781"]), ("首 token 延迟降低 31%。", ["arxiv:2611.07790"])]
    # the top heading's section links two papers: it names neither
    assert 1 not in section_ids(doc)


def test_a_note_whose_id_is_only_in_its_front_matter_pdf_link() -> None:
    front = {"title": "Ember Cache: Reusing Prefixes Across Tenants", "pdf": "https://arxiv.org/pdf/2611.07790v2"}
    assert file_scope(front, "## 摘要\n\n首 token 延迟降低 31%。\n") == ["arxiv:2611.07790"]
    note = ("---\ntitle: \"Ember Cache: Reusing Prefixes Across Tenants\"\npdf: \"https://arxiv.org/pdf/2611.07790v2\"\n---\n\n"
            "## 摘要\n\n在 vLLM 上首 token 延迟降低 31%。\n")
    assert subjects("inbox/wu/2026-11-28-ember.md", note) == [("在 vLLM 上首 token 延迟降低 31%。",
                                                                ["arxiv:2611.07790", "entity:vllm"])]
