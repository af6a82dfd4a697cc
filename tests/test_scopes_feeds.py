"""Document scopes on real feed shapes (issue 20, wave 2): a paper section whose id sits only
in its closing link (Hugging Face paper pages carry arXiv ids), a paper note whose id sits only
in its front matter's ``pdf:`` link."""

from __future__ import annotations

import json

from conftest import write_files

from kb.core.config import KbConfig
from kb.extract.names import NameMatcher
from kb.extract.subjects import is_role
from kb.facts.attributor import Attributor
from kb.night.rules import _TopicNames
from kb.read.parse import parse_file
from kb.read.scopes import file_scope, section_ids

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


def test_a_paper_list_item_that_opens_with_its_title_is_the_papers_node() -> None:
    doc = ("# Reading list\n\n## Decoding\n\n"
           "- **Lantern: Sparse Lookahead Decoding for Small Models**  \n"
           "  *Ada Wu, Bo Li.* [[pdf](https://arxiv.org/pdf/2611.07781)], 2026.11.\n"
           "- 其他如 [草稿](https://arxiv.org/abs/2611.07790) 也值得一看\n")
    claims = parse_file(CONFIG, "organized/knowledge/list.md", doc.encode()).claims
    at = Attributor(CONFIG, [])
    assert [at.view(c).leads for c in claims] == [["arxiv:2611.07781"], []]


def test_the_topic_named_inside_a_title_cell_of_the_row() -> None:
    row = parse_file(CONFIG, "inbox/wu/2026-11-28-list.md",
                     ("| Date | Title | PDF |\n|---|---|---|\n"
                      "| 2026-11-27 | **Ember: Tiered Prefix Reuse for LLM Inference** | [2611.07790](http://arxiv.org/abs/2611.07790) |\n"
                      "| 2026-11-27 | **Quiet Heads: Inferences About Pruning** | [2611.07791](http://arxiv.org/abs/2611.07791) |\n"
                      ).encode()).claims
    at = Attributor(CONFIG, [])
    named = _TopicNames("inference", ["inference"], [])
    assert [named.around(at.view(c)) for c in row] == ["row", None]


def test_a_notes_short_name_holds_the_entity_inside_it() -> None:
    cfg = KbConfig.model_validate({"entities": {"Ember": [], "vLLM": []}})
    note = ("---\ntitle: \"Quick Ember: Lossless Prefix Eviction\"\npdf: \"https://arxiv.org/pdf/2611.07795\"\n---\n\n"
            "## 结果\n\n- Quick Ember 在驱逐 55% 的前缀时几乎无损。\n"
            "- 额外开销压到 2% 以内，补上了 Ember 的短板。\n- 相比 vLLM 吞吐高 1.4 倍。\n")
    claims = parse_file(cfg, "inbox/wu/2026-11-28-quick-ember.md", note.encode()).claims
    assert [c.subjects for c in claims] == [["arxiv:2611.07795"], ["arxiv:2611.07795", "entity:ember"],
                                            ["arxiv:2611.07795"]]
    at = Attributor(cfg, [])
    got = [(at.view(c).subjects, [q.subject for q in at.attributed(c).quantities]) for c in claims]
    assert got == [(["arxiv:2611.07795"], [None]),
                   (["arxiv:2611.07795", "entity:ember"], ["arxiv:2611.07795"]),
                   (["arxiv:2611.07795"], [None])]


def test_a_title_resolves_through_another_files_paper_note(tmp_path, run_kb) -> None:
    files = {
        "kb.yaml": "topics: [serving]\nexecutor: ann\nentities:\n  vLLM: []\n",
        "organized/knowledge/serving.md": "---\ntopic: serving\nversion: 1\nupdated: 2026-11-01T09:00:00+08:00\n---\n"
                                          "# Serving\n\n## 1. Prefill\n\n- vLLM 吞吐 1.2×\n",
        "inbox/ann/2026-11-30-daily.md": "# 日报\n\n### 2. Tidewater: Streaming Prefix Reuse at Scale\n\n- 首 token 延迟降低 23%\n",
        "inbox/bo/2026-11-30-tidewater.md": "# Tidewater: Streaming Prefix Reuse at Scale\n"
                                            "**URL**: http://arxiv.org/abs/2611.07799\n\n- 吞吐提升 1.6 倍\n",
        # a heading that is no paper's title: no scope ("Feed export" names no paper)
        "inbox/bo/2026-11-30-export.md": "# Feed export: serving keywords\n\n- vLLM 0.12 把 TTFT 降低 12%\n",
    }

    root = write_files(tmp_path / "kb", files)
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    got = {c["text"]: c["subjects"] for c in json.loads(run_kb(["claims", "--format", "json"], cwd=root).stdout)}
    assert got["首 token 延迟降低 23%"] == ["arxiv:2611.07799"]
    assert got["vLLM 0.12 把 TTFT 降低 12%"] == ["entity:vllm"]


def test_hardware_and_datasets_are_a_papers_set_up() -> None:

    text = "在 B200 NVL36 上，Alpaca 数据集负载下延迟降低 18%；on the LMSYS traces it holds; MI325X 也测了"
    assert is_role(text, text.index("B200"), text.index("B200") + len("B200 NVL36"))
    assert is_role(text, text.index("Alpaca"), text.index("Alpaca") + 6)
    assert is_role(text, text.index("LMSYS"), text.index("LMSYS") + 5)
    assert is_role(text, text.index("MI325X"), text.index("MI325X") + 6)
    assert not is_role("Tidewater 延迟降低 18%", 0, 9)


def test_a_card_name_in_capitals_is_no_ordinary_word() -> None:

    m = NameMatcher({"WARP": "arxiv:2611.07700", "vLLM": "entity:vllm"}, {"WARP"})
    assert m.find("we warp the schedule; WARP cuts TTFT; vllm 0.12") == [("arxiv:2611.07700", 22, 26),
                                                                          ("entity:vllm", 38, 42)]


def test_a_paper_link_inside_an_item_is_no_file_scope() -> None:
    body = ("# Notes\n\n## Routing\n\n- A router ([paper](https://arxiv.org/abs/2611.07701)) cuts p99 by 20%.\n"
            "\n## Ops\n\n- We scale out at 10:00 and TTFT stays under 2 s.\n")
    assert file_scope({}, body) == []
    assert file_scope({}, "# Notes\n\n[Link to the paper](https://arxiv.org/abs/2611.07701)\n\n- cuts p99 by 20%\n") == [
        "arxiv:2611.07701"]
