"""Document scopes (issue 20, kinds 1 and 2): a heading that is a paper title, a paper note's
top, and a name first written with its id give their claims that paper; a title the KB does not
know is a ``title:`` subject that resolves to the id once the KB knows the title."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import write_files

from kb.core.config import KbConfig
from kb.extract.titles import paper_title, title_key
from kb.read.parse import parse_file
from kb.read.scopes import file_scope

CONFIG = KbConfig.model_validate({"entities": {"vLLM": [], "SGLang": []}})


def subjects(path: str, text: str) -> list[tuple[str, list[str]]]:
    """``(claim text, parser subjects)`` of ``text`` parsed as ``path``."""
    return [(c.text, c.subjects) for c in parse_file(CONFIG, path, text.encode()).claims]


def test_a_numbered_title_heading_takes_the_id_below_it() -> None:
    doc = ("# 日报 — 2026 年 11 月 30 日\n\n## 论文\n\n### 4. Tidal Prefill for Long Context Serving\n\n"
           "**arXiv:** [2611.04455](https://arxiv.org/abs/2611.04455)\n\n- 首 token 延迟降低 38%\n"
           "- 在 vLLM 上吞吐提升 1.7×\n\n### 5. Quiet Heads Make Faster Decoders\n\n- 解码速度提升 2.1×\n")
    got = subjects("inbox/ann/2026-11-30-daily.md", doc)
    assert got == [
        ("arXiv: 2611.04455", ["arxiv:2611.04455"]),
        ("首 token 延迟降低 38%", ["arxiv:2611.04455"]),
        ("在 vLLM 上吞吐提升 1.7×", ["arxiv:2611.04455", "entity:vllm"]),
        ("解码速度提升 2.1×", ["title:quiet heads make faster decoders"]),
    ]


def test_a_paper_note_top_gives_every_claim_its_paper() -> None:
    note = ("---\ntitle: \"Tidal Prefill: Chunked Prefill for Long Context Serving\"\n---\n\n"
            "# Tidal Prefill: Chunked Prefill for Long Context Serving\n\n**URL**: http://arxiv.org/abs/2611.04455\n\n"
            "## Results\n\nThe method cuts TTFT by 38% at 128k tokens.\n\nIt also beats the baseline of "
            "[Other Work](https://arxiv.org/abs/2501.00001) by 12%.\n")
    got = subjects("inbox/ann/2026-11-30-note.md", note)
    assert got[1:] == [("The method cuts TTFT by 38% at 128k tokens.", ["arxiv:2611.04455"]),
                       ("It also beats the baseline of Other Work by 12%.", ["arxiv:2501.00001"])]
    # no id at all: the note's title is the subject
    bare = "# Quiet Heads Make Faster Decoders\n\n## 结果\n\n- 解码速度提升 2.1×\n"
    assert subjects("inbox/ann/2026-11-30-n2.md", bare) == [("解码速度提升 2.1×", ["title:quiet heads make faster decoders"])]
    # a digest (several ids, no labelled paper line) has no file scope
    assert file_scope({"title": "Daily Updates — 2026 年 11 月 30 日"},
                      "# Daily\n\n- A arXiv:2611.00001\n- B arXiv:2611.00002\n") == []


def test_a_name_written_with_its_id_keeps_it() -> None:
    zh = ("# 笔记\n\n- FlashSpec（arXiv:2611.04455）是一种新的推测解码方法。\n- 另外两行无关。\n"
          "- FlashSpec 把解码延迟降低 40%\n")
    assert subjects("inbox/ann/2026-11-30-a.md", zh)[-1] == ("FlashSpec 把解码延迟降低 40%", ["arxiv:2611.04455"])
    en = ("# notes\n\nFlashSpec (arXiv:2611.04455) is a new speculative decoder.\n\nUnrelated line.\n\n"
          "FlashSpec cuts decode latency by 40% on vLLM.\n")
    assert subjects("inbox/ann/2026-11-30-b.md", en)[-1] == ("FlashSpec cuts decode latency by 40% on vLLM.",
                                                            ["arxiv:2611.04455", "entity:vllm"])


def test_paper_titles() -> None:
    assert paper_title("4. Tidal Prefill for Long Context Serving") == "Tidal Prefill for Long Context Serving"
    assert paper_title("1️⃣ Quiet Heads Make Faster Decoders") == "Quiet Heads Make Faster Decoders"
    assert paper_title("Tidal Prefill for Long Context Serving") is None  # not numbered
    assert paper_title("2.3 Related Work and Baselines") is None
    assert paper_title("1. 低比特 KV 量化方案") is None
    assert paper_title("1. kernel kernel Colibri") is None  # three words, not Title Case: a section name
    assert paper_title("3. Hardware-Aware DNN Compression") == "Hardware-Aware DNN Compression"
    assert paper_title("cache cache kernel briefing #11", numbered_only=False) is None
    assert paper_title("2. FlexKV: Flexible KV Offload") == "FlexKV: Flexible KV Offload"
    assert paper_title("Top ML Papers of the Week", numbered_only=False) is None
    assert title_key("Quiet Heads: Make Faster Decoders!") == "title:quiet heads make faster decoders"


FILES = {
    "kb.yaml": "topics: [serving]\nexecutor: ann\nentities:\n  vLLM: []\n",
    "organized/knowledge/serving.md": "---\ntopic: serving\nversion: 1\nupdated: 2026-11-01T09:00:00+08:00\n---\n"
                                      "# Serving\n\n## 1. Prefill\n\n- vLLM 吞吐 1.2×\n",
    "inbox/ann/2026-11-30-serving-daily.md": "# 日报\n\n### 4. Quiet Heads Make Faster Decoders\n\n- 解码速度提升 2.1×\n",
}


def test_a_title_subject_resolves_once_the_kb_knows_the_title(tmp_path: Path, run_kb) -> None:
    root = write_files(tmp_path / "kb", FILES)
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    before = json.loads(run_kb(["claims", "--format", "json"], cwd=root).stdout)
    assert [c["subjects"] for c in before if c["text"] == "解码速度提升 2.1×"] == [["title:quiet heads make faster decoders"]]
    diff = json.loads(run_kb(["diff", "serving", "--date", "2026-11-30", "--format", "json"], cwd=root).stdout)
    assert [(s["key"], s["label"], s["outcome"]) for s in diff["subjects"] if s["key"].startswith("title:")] == [
        ("title:quiet heads make faster decoders", "Quiet Heads Make Faster Decoders", "net-new")]
    # a link text elsewhere in the KB names the paper: the claim is the id's, nothing re-parsed
    write_files(root, {"inbox/bob/2026-11-29-links.md": "# links\n\n- [Quiet Heads Make Faster Decoders]"
                                                       "(https://arxiv.org/abs/2611.07777)\n"})
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    after = json.loads(run_kb(["claims", "--format", "json"], cwd=root).stdout)
    assert [c["subjects"] for c in after if c["text"] == "解码速度提升 2.1×"] == [["arxiv:2611.07777"]]
