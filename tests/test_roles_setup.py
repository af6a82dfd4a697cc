"""Roles by kind (wave 4): in a claim about no paper, the hardware, the dataset and the model a
tool ran are the set-up of the number and never its owner; the engine or tool beside them is. In a
claim that names a paper by name, the engine it ran on is the set-up. As ``kb claims`` gives them
(the Attributor), zh and en."""

from __future__ import annotations

from kb.core.config import KbConfig
from kb.extract.doc_refs import quotes_doc
from kb.extract.names import short_name
from kb.extract.subjects import setup_kind
from kb.facts.attributor import Attributor
from kb.read.cards import Card
from kb.read.parse import parse_file

CONFIG = KbConfig.model_validate({"entities": {
    "TensorRT-LLM": [], "LMDeploy": [], "ExLlamaV2": [], "AutoAWQ": [], "HQQ": [],
    "Mistral-7B": [], "Qwen2.5-32B": [], "A10G": [], "L40S": [], "MI300X": [], "GSM8K": [], "C-Eval": [],
    "HumanEval": [], "LongBench": [],
}})


def owners(path: str, text: str, titles: list[tuple[str, str]] | None = None
           ) -> list[tuple[list[str], list[tuple[str, str | None]]]]:
    """``(subjects, [(quantity raw, owner)])`` of each claim with a number, in file order."""
    claims = parse_file(CONFIG, path, text.encode()).claims
    at = Attributor(CONFIG, [], titles or [])
    at.learn(claims)
    out = []
    for c in claims:
        a = at.attributed(c)
        if a.quantities:
            out.append((a.subjects, [(q.raw, q.subject or (a.subjects[0] if a.subjects else None))
                                     for q in a.quantities]))
    return out


def test_kinds_read_from_the_name() -> None:
    assert [setup_kind(n) for n in ("L40S", "MI300X", "GSM8K", "C-Eval", "LongBench", "HumanEval", "Qwen2.5-32B",
                                    "Mistral-7B", "LMDeploy", "llama.cpp", "HQQ", "NVIDIA L40S", "Ascend 910B",
                                    "V100", "DGX Spark")] == [
        "hardware", "hardware", "dataset", "dataset", "dataset", "dataset", "model", "model", None, None, None,
        "hardware", "hardware", "hardware", "hardware"]  # DGX Spark: a machine (hardware); alone still a subject


def test_the_engine_owns_its_number_on_hardware_zh() -> None:
    doc = "# 运行时\n\n- LMDeploy W4A16 在 L40S 上首 token 延迟为 180 ms\n- TensorRT-LLM 于 MI300X 上解码吞吐 2400 tok/s\n"
    assert owners("organized/knowledge/rt.md", doc) == [
        (["entity:lmdeploy"], [("180 ms", "entity:lmdeploy")]),
        (["entity:tensorrt-llm"], [("2400 tok/s", "entity:tensorrt-llm")])]


def test_the_tool_owns_its_number_for_the_model_it_loads() -> None:
    zh = "# 内存\n\n- AutoAWQ 载入 Qwen2.5-32B 后显存占用 19 GB\n"
    assert owners("organized/knowledge/mem.md", zh) == [(["entity:autoawq"], [("19 GB", "entity:autoawq")])]
    en = "# Memory\n\n- HQQ loads Mistral-7B into 4.1 GiB of VRAM on an A10G.\n- ExLlamaV2 serves Mistral-7B at 95 tok/s.\n"
    assert owners("inbox/kim/2026-12-01T0900-kim-mem.md", en) == [
        (["entity:hqq"], [("4.1 GiB", "entity:hqq")]), (["entity:exllamav2"], [("95 tok/s", "entity:exllamav2")])]


def test_the_number_before_the_engine_is_the_engines_en() -> None:
    doc = "# Runs\n\n- We saw 31 ms TPOT for LMDeploy AWQ on L40S, far from the figure upstream gives.\n"
    assert owners("inbox/kim/2026-12-01T1000-kim-runs.md", doc) == [(["entity:lmdeploy"], [("31 ms", "entity:lmdeploy")])]


def test_a_benchmark_is_no_owner_beside_a_model_or_a_tool() -> None:
    doc = ("# 评测\n\n- Qwen2.5-32B 在 C-Eval 上准确率 83%\n- ExLlamaV2 4bpw 的 HumanEval 通过率 61%\n"
           "- On LongBench, HQQ keeps 97% of the FP16 score.\n")
    assert owners("inbox/kim/2026-12-01T1100-kim-eval.md", doc) == [
        (["entity:qwen2.5-32b"], [("83%", "entity:qwen2.5-32b")]),
        (["entity:exllamav2"], [("61%", "entity:exllamav2")]),
        (["entity:hqq"], [("97%", "entity:hqq")])]


def test_a_set_up_name_alone_keeps_what_is_said_of_it() -> None:
    doc = "# 硬件\n\n- L40S 的显存为 48 GB\n- MI300X has 192 GB of HBM3.\n"
    assert owners("inbox/kim/2026-12-01T1200-kim-hw.md", doc) == [
        (["entity:l40s"], [("48 GB", "entity:l40s")]), (["entity:mi300x"], [("192 GB", "entity:mi300x")])]


def test_a_paper_note_owns_the_benchmark_number() -> None:
    doc = "**URL**: https://arxiv.org/abs/2611.40404\n\n## 读后\n\n- 作者称 GSM8K 得分保持在 98% 以上\n"
    assert owners("inbox/kim/2026-12-01T1300-kim-paper.md", doc) == [
        (["arxiv:2611.40404"], [("98%", "arxiv:2611.40404")])]


def test_a_paper_named_by_its_short_title_owns_the_number_run_on_an_engine() -> None:
    titles = [("arxiv:2610.77777", "SkipQuant: Fewer Bits Where They Do Not Matter")]
    zh = "# 日报\n\n- SkipQuant 的作者补了 W2 结果，在 LMDeploy 里解码吞吐提升 27%。\n"
    assert owners("inbox/kim/2026-12-01T1400-kim-daily.md", zh, titles) == [
        (["arxiv:2610.77777"], [("27%", "arxiv:2610.77777")])]
    en = "# Daily\n\n- SkipQuant's authors added W2 numbers: on TensorRT-LLM decode gets 1.3× faster.\n"
    assert owners("inbox/kim/2026-12-01T1500-kim-daily.md", en, titles) == [
        (["arxiv:2610.77777"], [("1.3×", "arxiv:2610.77777")])]


def test_a_one_word_card_name_is_no_ordinary_word() -> None:
    cards = [Card("arxiv:2611.50001", "organized/paper_cards/950-2611-50001.md", "Lantern: Lighting Up Outlier Channels",
                  ("Lantern",)),
             Card("arxiv:2611.50002", "organized/paper_cards/951-2611-50002.md", "Harbor: Safe Ports for KV Pages",
                  ("Harbor",))]
    doc = ("# Ops\n\n- The lantern on the status page shows 4% drift.\n- We harbor no doubt: 12 ms p50 stays.\n"
           "- Lantern cuts W4 error by 9%.\n- HARBOR frees 30% of KV pages.\n")
    claims = parse_file(CONFIG, "inbox/kim/2026-12-01T1600-kim-ops.md", doc.encode()).claims
    at = Attributor(CONFIG, cards)
    assert [at.attributed(c).subjects for c in claims] == [[], [], ["arxiv:2611.50001"], ["arxiv:2611.50002"]]


def test_the_value_the_doc_cites_is_the_docs() -> None:
    text = "We clocked 40 ms TTFT on LMDeploy, not the 33 ms the doc cites."
    a, b = text.index("33 ms"), text.index("33 ms") + 5
    assert quotes_doc(text, 0, len(text), a, b) is True
    a, b = text.index("40 ms"), text.index("40 ms") + 5
    assert quotes_doc(text, 0, len(text), a, b) is False


def test_models_in_a_list_of_what_a_tool_supports_stay_subjects() -> None:
    doc = "# 版本\n\n- LMDeploy 0.8 新增支持 HQQ、Mistral-7B 与 Qwen2.5-32B\n"
    claims = parse_file(CONFIG, "inbox/kim/2026-12-01T1700-kim-rel.md", doc.encode()).claims
    assert Attributor(CONFIG, []).attributed(claims[-1]).subjects == [
        "entity:lmdeploy", "entity:hqq", "entity:mistral-7b", "entity:qwen2.5-32b"]


def test_short_names_of_titles() -> None:
    assert [short_name(t) for t in ("SkipQuant: Fewer Bits Where They Do Not Matter", "QKV: Quantized KV for All",
                                    "Pruning at Scale: A Survey", "Quiet Heads Make Faster Decoders")] == [
        "SkipQuant", None, None, None]


def test_a_papers_own_name_is_never_its_set_up() -> None:
    titles = [("arxiv:2609.12121", "Serve-Bench: Measuring LLM Serving Under Bursts")]
    doc = "# 笔记\n\n## 精读 (arXiv:2609.12121)\n\n- 作者用 Serve-Bench 在 8 个引擎上复现了 12% 的尾延迟差异。\n"
    assert owners("inbox/kim/2026-12-01T1800-kim-bench.md", doc, titles) == [
        (["arxiv:2609.12121"], [("8 个", "arxiv:2609.12121"), ("12%", "arxiv:2609.12121")])]
