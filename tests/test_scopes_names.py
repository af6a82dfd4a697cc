"""Names as written tokens (issue 20, kind 4) and names at the ends of a text (issue 24, item 1):
the one name matcher (kb.extract.names.NameMatcher) over every alias length, zh and en."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import write_files

from kb.core.config import KbConfig
from kb.extract.names import NameMatcher
from kb.facts.attributor import Attributor
from kb.read.cards import Card
from kb.read.parse import parse_file

ALIASES = ["K", "KM", "KVC", "KVMx"]


@pytest.mark.parametrize("alias", ALIASES)
@pytest.mark.parametrize("frame", [
    "{a} 降低 21%", "吞吐来自 {a}", "数据来自 {a}，其余不变", "{a}", "{a} cuts latency", "latency from {a}",
    "from {a}, not others", "（{a}）", "来自{a}",
])
def test_every_alias_length_at_start_middle_and_end(alias: str, frame: str) -> None:
    m = NameMatcher({alias: "entity:x"})
    text = frame.format(a=alias)
    found = m.find(text)
    if len(alias) < 2:  # one-character names are never names
        assert found == []
        return
    start = text.index(alias)
    assert found == [("entity:x", start, start + len(alias))]


@pytest.mark.parametrize("alias", ALIASES)
def test_an_alias_inside_a_word_or_cut_at_the_end_is_none(alias: str) -> None:
    m = NameMatcher({alias: "entity:x"})
    assert m.find(f"来自 {alias}Z") == []
    assert m.find(f"来自 x{alias}") == []
    assert m.find(alias[:-1]) == []  # the text ends inside the name


def test_a_mixed_case_card_alias_matches_as_written_only() -> None:
    names = {"FlexKV": "arxiv:2611.00001", "MoLE": "arxiv:2611.00002", "GPTQ": "arxiv:2210.17323",
             "Prefill Batching for MoE": "arxiv:2611.00003"}
    m = NameMatcher(names, as_written=set(names))
    assert m.find("flexkv style caching cut TTFT 30%") == []
    assert m.find("a mole of tokens") == []
    assert m.find("Flexkv 又快了") == []
    assert m.find("FlexKV cut TTFT 30%") == [("arxiv:2611.00001", 0, 6)]
    assert m.find("FLEXKV 降低 30%") == [("arxiv:2611.00001", 0, 6)]
    assert m.find("用 MoLE 之后") == [("arxiv:2611.00002", 2, 6)]
    assert m.find("gptq 4bit") == [("arxiv:2210.17323", 0, 4)]  # capitals only: any case
    assert m.find("prefill batching for MoE 2×") == [("arxiv:2611.00003", 0, 24)]  # its mixed word as written
    assert m.find("prefill batching for moe 2×") == []
    # the same name given in small letters too, or a kb.yaml entity (not as written): any case
    both = NameMatcher({"FlexKV": "arxiv:2611.00001", "flexkv": "arxiv:2611.00001"}, as_written={"FlexKV", "flexkv"})
    assert both.find("flexkv 降低 30%") == [("arxiv:2611.00001", 0, 6)]
    assert NameMatcher({"vLLM": "entity:vllm"}).find("github.com/vllm-project/vllm") == [("entity:vllm", 24, 28)]


def test_the_state_keeps_the_spellings() -> None:
    m = NameMatcher({"MoLE": "arxiv:2611.00002"}, as_written={"MoLE"})
    back = NameMatcher.from_state(json.loads(json.dumps(m.state())))
    assert back.find("mole 12%") == [] and back.find("MoLE 12%") == [("arxiv:2611.00002", 0, 4)]


FILES = {
    "kb.yaml": "topics: [serving]\nexecutor: ann\nentities:\n  KM: []\n  KV: []\n",
    "organized/knowledge/serving.md": "---\ntopic: serving\nversion: 1\nupdated: 2026-11-01T09:00:00+08:00\n---\n# Serving\n\n"
                            "## 1. 缓存 KV\n\n- 命中率 82%\n",
    "inbox/ann/2026-11-30-notes.md": "# notes\n\n- 命中率提升到 64%，数据来自 KM\n- the cache hit rate is 70% per KV\n",
}


def test_a_two_letter_name_at_the_end_of_a_line_or_heading_is_read(tmp_path: Path, run_kb) -> None:
    root = write_files(tmp_path / "kb", FILES)
    res = run_kb(["ingest"], cwd=root)
    assert res.exit_code == 0, res.stderr
    assert "could not be parsed" not in res.stdout + res.stderr
    claims = run_kb(["claims", "--format", "json"], cwd=root)
    texts = {c["text"]: c["subjects"] for c in json.loads(claims.stdout)}
    assert texts["命中率提升到 64%，数据来自 KM"] == ["entity:km"]
    assert texts["the cache hit rate is 70% per KV"] == ["entity:kv"]
    for args in (["diff", "serving", "--date", "2026-11-30"], ["digest", "serving", "--date", "2026-11-30"],
                 ["lint"], ["history", "KV"], ["claims", "--subject", "KV"]):
        res = run_kb(args, cwd=root)
        assert "Traceback" not in res.stdout + res.stderr, (args, res.stderr)
        assert res.exit_code in (0, 1), (args, res.exit_code, res.stderr)


def test_a_card_alias_is_no_ordinary_word_in_a_claim() -> None:
    config = KbConfig.model_validate({"entities": {"vLLM": []}})
    cards = [Card("arxiv:2611.00001", "organized/paper_cards/2611.00001-flexkv.md", "FlexKV: Flexible KV Offload",
                  ("FlexKV",)),
             Card("arxiv:2611.00002", "organized/paper_cards/2611.00002-mole.md", "MoLE: Mixture of LoRA Experts",
                  ("MoLE",))]
    at = Attributor(config, cards)
    text = ("# notes\n\n- flexkv-style caching cuts TTFT by 30% in HydraCache\n- a mole of tokens: 12% fewer misses\n"
            "- FlexKV cuts TTFT by 25%\n- 用 MoLE 后准确率提升 3%\n")
    got = [(c.text, at.attributed(c).subjects) for c in parse_file(config, "inbox/ann/2026-11-30-a.md", text.encode()).claims]
    assert got == [("flexkv-style caching cuts TTFT by 30% in HydraCache", []),
                   ("a mole of tokens: 12% fewer misses", []),
                   ("FlexKV cuts TTFT by 25%", ["arxiv:2611.00001"]),
                   ("用 MoLE 后准确率提升 3%", ["arxiv:2611.00002"])]
