"""A comparison table with the engines as columns: each column's numbers are its engine's, in
``kb claims``, ``kb history`` and the diff (they all went to the first engine of the header, a
false conflict of vLLM with SGLang's own figures)."""

from __future__ import annotations

import json
from pathlib import Path

TABLE = """| metric | vLLM | SGLang |
| --- | --- | --- |
| throughput | 501 tok/s | 601 tok/s |
| ttft | 52 ms | 62 ms |
"""


def _kb(root: Path) -> None:
    (root / "kb.yaml").write_text('timezone: "+08:00"\ntopics:\n  t: [t]\nentities:\n  vLLM: []\n  SGLang: []\n',
                                  encoding="utf-8")
    (root / "inbox" / "a").mkdir(parents=True)
    (root / "inbox" / "a" / "2026-07-31-0900-t.md").write_text(TABLE, encoding="utf-8")
    (root / "organized" / "knowledge").mkdir(parents=True)
    (root / "organized" / "knowledge" / "t.md").write_text(
        "---\ntopic: t\nversion: 1\nupdated: 2026-07-30T05:00:00+08:00\n---\n# t\n\n## 共识\n\n"
        "- vLLM throughput 501 tok/s\n", encoding="utf-8")


def test_each_column_of_an_entity_headed_table_is_its_entitys(tmp_path: Path, run_kb) -> None:
    _kb(tmp_path)
    assert run_kb(["ingest"], cwd=tmp_path).exit_code == 0
    r = run_kb(["claims", "--format", "json"], cwd=tmp_path)
    rows = {c["text"]: [(q["raw"], q["subject"]) for q in c["quantities"]] for c in json.loads(r.stdout)
            if c["provenance"]["path"].startswith("inbox/")}
    assert rows == {
        "throughput | 501 tok/s | 601 tok/s": [("501 tok/s", "entity:vllm"), ("601 tok/s", "entity:sglang")],
        "ttft | 52 ms | 62 ms": [("52 ms", "entity:vllm"), ("62 ms", "entity:sglang")],
    }
    diff = run_kb(["diff", "t", "--date", "2026-07-31"], cwd=tmp_path)
    assert "conflict" not in diff.stdout, diff.stdout  # vLLM's 501 tok/s is the doc's; 601 is SGLang's


def test_a_row_whose_label_names_a_subject_keeps_it(tmp_path: Path, run_kb) -> None:
    """``| DeepSeek-V4-Pro MTP | 383.7 tok/s | — |`` under engine columns: the row's label names a
    subject of kb's, which keeps the row's numbers (as the living doc's section on it does)."""
    _kb(tmp_path)
    (tmp_path / "kb.yaml").write_text('timezone: "+08:00"\ntopics:\n  t: [t]\nentities:\n  vLLM: []\n  SGLang: []\n'
                                      "  DeepSeek-V4-Pro: []\n", encoding="utf-8")
    (tmp_path / "inbox" / "a" / "2026-07-31-0900-t.md").write_text(
        "| 场景 | SGLang | vLLM |\n|---|---|---|\n| DeepSeek-V4-Pro MTP | 383.7 tok/s | — |\n| 单请求解码 | 58.3 tok/s | 52.9 tok/s |\n",
        encoding="utf-8")
    assert run_kb(["ingest"], cwd=tmp_path).exit_code == 0
    r = run_kb(["claims", "--format", "json"], cwd=tmp_path)
    rows = [(c["subjects"][0], [(q["raw"], q["subject"]) for q in c["quantities"]]) for c in json.loads(r.stdout)
            if c["provenance"]["path"].startswith("inbox/")]
    assert rows == [("entity:deepseek-v4-pro", [("383.7 tok/s", None)]),  # (None: the claim's first subject)
                    ("entity:sglang", [("58.3 tok/s", "entity:sglang"), ("52.9 tok/s", "entity:vllm")])]
