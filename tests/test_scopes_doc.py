"""The living doc's own forms (issue 20, kind 6): a paper named in the doc only by a link's text
is in the doc; the doc's ``updated`` time is never a first mention; a title-only line saved
before the window is an earlier mention (``supplement``)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import write_files

from kb.night.run import first_mention_before
from kb.store.workspace import open_kb

DOC = ("---\ntopic: serving\nversion: 3\nupdated: {updated}\n---\n# Serving\n\n## 1. Models\n\n"
       "- [Qwen3 Technical Report](https://arxiv.org/abs/2505.09388) is our base model family.\n"
       "- vLLM 吞吐 1.2×\n")
FILES = {
    "kb.yaml": "topics: [serving]\nexecutor: ann\nentities:\n  vLLM: []\n",
    "inbox/ann/2026-11-30-serving.md": "# serving notes\n\n- Qwen3 Technical Report 称 MoE 版本吞吐提升 1.5×\n"
                                       "- Quiet Heads Make Faster Decoders cuts decode latency by 30%\n",
    "inbox/cat/2026-11-30-links.md": "# links\n\n- [Quiet Heads Make Faster Decoders](https://arxiv.org/abs/2611.07777)\n",
}


def outcomes(root: Path, run_kb) -> dict[str, tuple[str, str]]:
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    res = run_kb(["diff", "serving", "--date", "2026-11-30", "--format", "json"], cwd=root)
    return {s["key"]: (s["outcome"], s["rule"]) for s in json.loads(res.stdout)["subjects"]}


def test_a_link_text_in_the_doc_names_the_paper(tmp_path: Path, run_kb) -> None:
    root = write_files(tmp_path / "kb", {**FILES, "organized/knowledge/serving.md": DOC.format(updated="2026-11-20T09:00:00+08:00")})
    got = outcomes(root, run_kb)
    assert got["arxiv:2505.09388"] == ("update", "doc-new-values")
    assert got["arxiv:2611.07777"][0] != "supplement"


def test_the_docs_updated_time_is_no_first_mention(tmp_path: Path, run_kb) -> None:
    # an earlier version of the doc named the paper (its lines carry that version's updated time)
    old = ("---\ntopic: serving\nversion: 2\nupdated: 2026-11-10T09:00:00+08:00\n---\n# Serving\n\n## 1. Models\n\n"
           "- [Quiet Heads Make Faster Decoders](https://arxiv.org/abs/2611.07777) 解码加速 1.3×\n")
    root = write_files(tmp_path / "kb", {**FILES, "organized/knowledge/serving.md": DOC.format(updated="2026-11-20T09:00:00+08:00"),
                                         "organized/knowledge/history/serving/v2.md": old})
    got = outcomes(root, run_kb)
    assert got["arxiv:2611.07777"] == ("net-new", "no-card-on-topic")
    kb = open_kb(root)
    try:  # the living doc's claims and mentions are no first mention; an inbox line is one
        first = first_mention_before(kb, "2026-11-29T22:00:00+08:00")
        assert (first("arxiv:2611.07777"), first("arxiv:2505.09388")) == (None, None)
    finally:
        kb.close()


def test_a_title_only_line_before_the_window_is_an_earlier_mention(tmp_path: Path, run_kb) -> None:
    files = {**FILES, "organized/knowledge/serving.md": DOC.format(updated="2026-11-20T09:00:00+08:00"),
             "inbox/bob/2026-11-25-reading.md": "# 待读\n\n- Quiet Heads Make Faster Decoders\n"}
    root = write_files(tmp_path / "kb", files)
    got = outcomes(root, run_kb)
    assert got["arxiv:2611.07777"] == ("supplement", "mentioned-before")
