"""The kinds of fault a held-out blind night (tests/nights/mixed-blind-l12, long-context inference)
found on its first run, each in new wording: 显存 as a memory figure's own word is no set-up, a
plural context word, a statistic after "on", and an engine that 服务 (serves) a model."""

from __future__ import annotations

from kb.core.config import KbConfig
from kb.extract.qualifiers import Qualifiers
from kb.extract.quantities import find_quantities
from kb.facts.attributor import Attributor
from kb.read.parse import parse_file

CONFIG = KbConfig.model_validate({"entities": {"vLLM": [], "Llama-3.1-70B": []}})


def _quals(text: str) -> list[tuple[float | None, str | None, str | None]]:
    (claim,) = parse_file(CONFIG, "inbox/qin/2026-12-06-daily.md", f"# d\n\n- {text}\n".encode()).claims
    q = Qualifiers(claim)
    return [(x.value, x.metric, q.of(x)) for x in claim.quantities]


def test_gpu_memory_as_the_metrics_own_word_is_no_set_up() -> None:
    assert _quals("SnapHead 的 KV 显存降低 38%") == [(-38.0, "memory", None)]
    assert _quals("SnapHead 在 batch 1 时 KV 显存降低 41%") == [(1.0, "batch_size", None), (-41.0, "memory", "batch1")]
    # a speed-up in GPU memory and one with offload stay two set-ups
    assert _quals("全部放在显存时加速 1.3×") == [(1.3, "speedup", "显存")]


def test_plural_context_words_and_a_statistic_after_on() -> None:
    def read(text: str) -> list[tuple[float | None, str | None]]:
        return [(q.value, q.metric) for q in find_quantities(text)]

    assert read("cuts KV memory by 40% on 256K-token prompts") == [(-40.0, "memory"), (256000.0, "context_length")]
    assert read("tested on 64K contexts") == [(64000.0, "context_length")]
    assert read("We page on p99 TPOT, which stayed under 80 ms all week.") == [(0.08, "tpot")]
    assert read("under bursty traffic the hit rate is 64%") == [(64.0, "hit_rate")]


def test_an_engine_that_serves_a_model_owns_its_number() -> None:
    doc = "# 活文档\n\n## 1. 引擎\n\n- vLLM 在 8 张 H100 上服务 Llama-3.1-70B 时，P50 TTFT 为 2.7 s。\n"
    claims = parse_file(CONFIG, "organized/knowledge/longctx.md", doc.encode()).claims
    at = Attributor(CONFIG, [])
    at.learn(claims)
    (a,) = [at.attributed(c) for c in claims]
    assert a.subjects == ["entity:vllm"]  # a number's subject null: the claim's first subject
    assert [(q.value, q.subject or a.subjects[0]) for q in a.quantities] == [(8.0, "entity:vllm"), (2.7, "entity:vllm")]
