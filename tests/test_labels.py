"""The label of a subject, decided once (kb.facts.attributor.Attributor.label), in every place of the brief.

Issue 8 (tester5's kvcache KB, written from the docs alone): a paper without a card was shown
by its bare id although the line names it (``打开 arXiv:2310.07240（2310.07240）`` beside
``CacheGen（arXiv:2310.07240）``), the baseline snapshot repeated the section's own subject
(``H2O（arXiv:2306.14048）：H2O（arXiv:2306.14048）（5×）``), §3 showed ``—`` for a paper the doc
links by title, and a name before *another* name's bracketed id was taken as that id's
(``vLLM 的分页管理来自 PagedAttention（arXiv:2309.06180）`` grouped vLLM with the paper). The
small KB below is written fresh for these tests in the tester's idioms.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.facts.attributor import Attributor
from kb.extract.names import id_names
from kb.core.config import KbConfig

DOC = """---
topic: kvcache
version: 3
updated: 2026-11-30T05:00:00+08:00
---

# kvcache 活文档

## §2 淘汰

### §2.2 H2O（arXiv:2306.14048）

- H2O 以 heavy-hitter 淘汰把 KV cache 压缩 5×。

### §2.4 StreamingLLM（arXiv:2309.17453）

- [Efficient Streaming Language Models with Attention Sinks](https://arxiv.org/abs/2309.17453) 用 sink token 稳定流式生成。

## §3 服务系统

KV 传输压缩方面，CacheGen（arXiv:2310.07240）等工作也值得关注。

### §3.1 vLLM

- vLLM 的分页管理来自 PagedAttention（arXiv:2309.06180）。

### §3.3 Mooncake

- Mooncake（arXiv:2407.00079）以 KVCache 为中心做 prefill/decode 分离。

## §9 版本记录

- v3（2026-11-30）：新增 §3.3 Mooncake。
"""

FILES = {
    "kb.yaml": ('timezone: "+08:00"\ncutoff: "22:00"\ndefault_topic: kvcache\n'
                "topics: {kvcache: [kv-cache]}\nentities:\n  vLLM: []\n  Mooncake: []\nexecutor: kim\n"),
    "organized/knowledge/kvcache.md": DOC,
    "inbox/ravi/2026-11-30T1400-ravi-kvcache-digest.md": (
        "# ravi · kvcache 11-30\n\n## 转述\n\n"
        "- CacheGen（arXiv:2310.07240）压缩 KV 流 4.3×。\n"
        "- H2O（arXiv:2306.14048）压缩 KV cache 10×。\n"
        "- Efficient Streaming Language Models with Attention Sinks 仍是流式基线。\n"),
}


@pytest.fixture
def label_kb(tmp_path: Path) -> Path:
    from conftest import write_files

    return write_files(tmp_path / "kb", FILES)


def _brief(root: Path, run_kb, *args: str) -> str:  # noqa: ANN001
    res = run_kb(["--kb", str(root), "digest", "--date", "2026-11-30", "--out", "-", *args])
    assert res.exit_code == 0, res.stderr
    return res.stdout


def test_a_name_right_before_its_bracketed_id_labels_the_id() -> None:
    known = {"mooncake": "Mooncake"}.get
    text = ("CacheGen（arXiv:2310.07240）压缩 4.3×；Mooncake（arXiv:2407.00079）；KVSplice (2611.09981)；"
            "Outlier Channels (arXiv:2611.04521)；见 arXiv:2402.02750")
    refs = [("arxiv:2310.07240", text.index("2310")), ("arxiv:2407.00079", text.index("2407")),
            ("arxiv:2611.09981", text.index("2611.09")), ("arxiv:2611.04521", text.index("2611.04")),
            ("arxiv:2402.02750", text.index("2402"))]
    # "Channels" is a word, not a name; a bare "见 arXiv:…" names nothing
    assert id_names(text, refs, lambda t: known(t.lower())) == [
        ("arxiv:2310.07240", "CacheGen"), ("arxiv:2407.00079", "Mooncake"), ("arxiv:2611.09981", "KVSplice")]


def test_label_order_card_heading_then_the_name_written_with_the_id() -> None:
    from kb.core.claims import ArxivRef, Claim, Provenance

    at = Attributor(KbConfig(entities={"vLLM": [], "Mooncake": []}), [], [("arxiv:2309.17453", "Efficient Streaming")],
                    ["### §2.2 H2O（arXiv:2306.14048）"])
    texts = ["H2O-Lite（arXiv:2306.14048）压缩 10×", "CacheGen（arXiv:2310.07240）压缩 4.3×",
             "vLLM 的分页管理来自 PagedAttention（arXiv:2309.06180）"]
    claims = []
    for i, t in enumerate(texts, 1):
        ident = t[t.index("arXiv:") + 6:t.index("arXiv:") + 16]
        claims.append(Claim(id=f"c{i}", text=t, kind="secondhand", kind_reason="default:inbox", unit="list-item", role="inbox",
                            arxiv=[ArxivRef(id=ident, raw=f"arXiv:{ident}", start=t.index(ident), end=t.index(ident) + 10)],
                            provenance=Provenance(path="inbox/a/x.md", line=i, end_line=i)))
    at.learn(claims)
    assert [at.label(k) for k in ("arxiv:2306.14048", "arxiv:2310.07240", "arxiv:2309.06180", "arxiv:2407.00079")] == [
        "H2O", "CacheGen", "PagedAttention", "2407.00079"]  # the heading's name beats a later spelling
    assert at.title("arxiv:2309.17453") == "Efficient Streaming" and at.title("arxiv:2310.07240") is None
    # another name's bracketed id is not vLLM's own: vLLM stays a subject of its own
    assert at.group("entity:vllm") == "entity:vllm"


def test_every_place_of_the_brief_uses_the_one_label(label_kb: Path, run_kb) -> None:  # noqa: ANN001
    text = _brief(label_kb, run_kb)
    assert "### 增量 1【建议补】CacheGen（arXiv:2310.07240）\n" in text
    assert "打开 arXiv:2310.07240（CacheGen），核对：4.3×" in text
    assert "| CacheGen：4.3× 只有摘要转述来源" in text
    assert "  1. CacheGen：把 4.3× 补入 §3，但仅二手：先核对一手来源（§2 第 2 项）（增量 1）\n" in text
    snap = text.split("本窗口涉及的节）：\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert snap[:4] == [
        "  - §3 服务系统：CacheGen（arXiv:2310.07240）、vLLM、PagedAttention（arXiv:2309.06180）、Mooncake（arXiv:2407.00079）",
        "  - §2.2 H2O（arXiv:2306.14048）：5×",  # the title names H2O: its values only
        "  - 另有 1 节也被本窗口触及（增量、已收材料或 C/O 条目）：§2.4",  # StreamingLLM, covered there
        "  - 其余 1 节（1 个主体）未被本窗口触及：§9"]
    rows = {r.split(" | ")[0].lstrip("| "): r.split(" | ")[1] for r in text.splitlines() if r.startswith("| 23")}
    assert rows == {"2310.07240": "CacheGen", "2306.14048": "H2O",
                    "2309.17453": "Efficient Streaming Language Models with Attention Sinks"}
    en = _brief(label_kb, run_kb, "--lang", "en")
    assert "Open arXiv:2310.07240 (CacheGen) and check: 4.3×" in en
    assert "  - §2.2 H2O（arXiv:2306.14048）: 5×\n" in en
