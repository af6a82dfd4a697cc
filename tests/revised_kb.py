"""A small KB around a paper revised twice (2608.01234 v1 → v3) and a withdrawn one (2608.05678).

Shared by tests/test_revised.py and tests/test_ledger.py: files are written by
:func:`write_revised_kb`; line numbers in the tests refer to the texts below.
"""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "arxiv-revised"

KB_YAML = """\
timezone: "+08:00"
topics:
  inference: [inference-systems]
entities:
  vLLM: []
  SGLang: []
"""

FILES = {
    "organized/paper_cards/701-2608-01234.md": """\
---
card: 701
arxiv: "2608.01234v2"
title: "KVFlow: Adaptive KV Cache Streaming for Long-Context Serving"
category: inference-systems
created: 2026-08-12T10:00:00+08:00
---
# 701 · KVFlow

- 论文报告 KVFlow 吞吐提升 2.1×（Table 3）。
""",
    "organized/paper_cards/702-2608-05678.md": """\
---
card: 702
arxiv: "2608.05678"
title: "Speculative Prefill with Draft-Free Verification"
category: inference-systems
created: 2026-08-03T10:00:00+08:00
---
# 702 · Speculative Prefill

- 论文报告 TTFT 降低 35%。
""",
    "inbox/jay/2026-08-05-kvflow.md": """\
# KVFlow 速读

- KVFlow（arXiv:2608.01234v1）吞吐提升 2.4×，据作者博客 https://blog.kvflow.dev/launch 。
- Speculative Prefill（arXiv:2608.05678）TTFT 降低 35%，见 https://www.example-news.com/prefill 。
- vLLM 的 TTFT 降低 40%，见 https://www.example-news.com/vllm 。
""",
    "inbox/ana/2026-08-15-engines.md": """\
# 引擎速记

- 据 https://vllm.ai/blog/ttft ，vLLM 的 TTFT 降低 38%。
- 据 https://www.example-news.com/sglang ，SGLang 吞吐 5200 tok/s。
""",
    "inbox/tom/2026-08-21-kvflow-v3.md": """\
# KVFlow v3

- KVFlow v3（arXiv:2608.01234v3）在 H200 上吞吐提升 2.3×。
""",
    "organized/knowledge/inference.md": """\
---
topic: inference
version: 3
updated: 2026-08-22T10:00:00+08:00
---
# inference 活文档

## §2 KV 管理

### §2.1 KVFlow（arXiv:2608.01234）

- 论文报告吞吐提升 2.1×（来源：arXiv:2608.01234v1）。
- v3 补充 H200 结果（来源：https://arxiv.org/abs/2608.01234v3）。

### §2.2 Speculative Prefill（arXiv:2608.05678）

- 论文报告 TTFT 降低 35%。
- 共识候选：prefill 阶段的投机验证可与 KVFlow 叠加（arXiv:2608.05678v1）。

## §3 引擎

- vLLM 的 TTFT 降低 38%。
""",
}


def write_revised_kb(root: Path) -> Path:
    """Write the KB under ``root`` (created) and return ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "kb.yaml").write_text(KB_YAML, encoding="utf-8")
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
