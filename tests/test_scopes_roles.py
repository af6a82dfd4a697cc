"""Roles (issue 20, kind 3): an evaluated model, the engine or hardware hosting a paper's
experiment, a dataset or a baseline qualify the paper's number and never own it; a number a
sentence after a paper's name is not the engine's named in between. As ``kb claims`` gives them
(the Attributor)."""

from __future__ import annotations

from kb.core.config import KbConfig
from kb.facts.attributor import Attributor
from kb.read.parse import parse_file

CONFIG = KbConfig.model_validate({"entities": {"vLLM": [], "SGLang": [], "Qwen2.5-7B": [], "Llama-3-70B": [],
                                               "H100": []}})


def owners(path: str, text: str) -> list[tuple[str, list[str], list[tuple[str, str | None]]]]:
    """``(claim text, subjects, [(quantity raw, owner)])`` of the claims with a number."""
    claims = parse_file(CONFIG, path, text.encode()).claims
    at = Attributor(CONFIG, [])
    at.learn(claims)
    out = []
    for c in claims:
        a = at.attributed(c)
        if a.quantities:
            out.append((a.text, a.subjects, [(q.raw, q.subject or a.subjects[0]) for q in a.quantities]))
    return out


def test_an_evaluated_model_is_no_owner_en() -> None:
    doc = ("# notes\n\nFlashSpec (arXiv:2611.04455) drafts with a tiny head.\n\n"
           "- FlashSpec（arXiv:2611.04455）: up to 2.3× speedup for Qwen2.5-7B at batch 64\n")
    assert owners("inbox/ann/2026-11-30-a.md", doc)[-1] == (
        "FlashSpec（arXiv:2611.04455）: up to 2.3× speedup for Qwen2.5-7B at batch 64",
        ["arxiv:2611.04455"], [("2.3×", "arxiv:2611.04455"), ("64", "arxiv:2611.04455")])  # batch 64: a batch size


def test_an_evaluated_model_is_no_owner_zh_under_a_title_heading() -> None:
    doc = "# 日报\n\n### 2. Quiet Heads Make Faster Decoders\n\n- 在 Llama-3-70B 上解码加速 1.9 倍\n"
    assert owners("inbox/ann/2026-11-30-b.md", doc) == [
        ("在 Llama-3-70B 上解码加速 1.9 倍", ["title:quiet heads make faster decoders"],
         [("1.9 倍", "title:quiet heads make faster decoders")])]


def test_an_engine_hosting_the_experiment_is_no_owner() -> None:
    en = ("# notes\n\nPoisonCache (arXiv:2611.01234) attacks shared prefix caches. With SGLang's prefix cache "
          "switched on, the poisoned prompts reach a 64% hit rate.\n")
    got = owners("inbox/ann/2026-11-30-c.md", en)
    assert got == [("With SGLang's prefix cache switched on, the poisoned prompts reach a 64% hit rate.",
                    ["arxiv:2611.01234"], [("64%", "arxiv:2611.01234")])]
    zh = "# 笔记\n\nPoisonCache（arXiv:2611.01234）攻击共享前缀缓存。开启 SGLang 前缀缓存后，投毒提示的命中率达到 64%。\n"
    assert owners("inbox/ann/2026-11-30-d.md", zh) == [
        ("开启 SGLang 前缀缓存后，投毒提示的命中率达到 64%。", ["arxiv:2611.01234"], [("64%", "arxiv:2611.01234")])]


def test_a_number_a_sentence_after_the_paper_is_not_the_engines() -> None:
    en = ("# notes\n\nFlashSpec (arXiv:2611.04455) is now merged. On vLLM it cuts decode latency by 40% "
          "on an H100.\n")
    assert owners("inbox/ann/2026-11-30-e.md", en) == [
        ("On vLLM it cuts decode latency by 40% on an H100.", ["arxiv:2611.04455"], [("40%", "arxiv:2611.04455")])]


def test_an_engines_own_number_stays_its_own() -> None:
    doc = "# notes\n\n- vLLM 0.9 raises throughput by 1.4× over vLLM 0.8\n- SGLang 吞吐提升 1.3 倍\n"
    assert [(s, o) for _, s, o in owners("inbox/ann/2026-11-30-f.md", doc)] == [
        (["entity:vllm"], [("1.4×", "entity:vllm")]), (["entity:sglang"], [("1.3 倍", "entity:sglang")])]
