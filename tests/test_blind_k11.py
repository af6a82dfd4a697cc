"""The kinds of fault a blind night (tests/nights/mixed-blind-k11, GPU kernels) found on its first
run, each in new wording: a note whose only paper link is in its front matter, a name written
with its id in one file and alone in another, an engine running a model (跑, runs, serving), a
bound before "是 B 的 N 倍", a decrease verb with nouns before its metric, and a link in the
second sentence of a paragraph."""

from __future__ import annotations

from kb.core.config import KbConfig
from kb.extract.quantities import find_quantities
from kb.facts.attributor import Attributor
from kb.read.parse import parse_file
from kb.read.scopes import file_scope

CONFIG = KbConfig.model_validate({"entities": {"vLLM": [], "SGLang": [], "TensorRT-LLM": ["TRT-LLM"],
                                               "Llama-3.1-70B": [], "DeepSeek-V3": [], "NCCL": []}})


def _owners(files: dict[str, str]) -> dict[str, list[tuple[float | None, str | None]]]:
    """claim text -> ``[(value, owner)]`` for the claims with a number, the files' claims learnt together."""
    claims = [c for path, text in files.items() for c in parse_file(CONFIG, path, text.encode()).claims]
    at = Attributor(CONFIG, [])
    at.learn(claims)
    out = {}
    for c in claims:
        a = at.attributed(c)
        if a.quantities:
            out[a.text] = [(q.value, q.subject or (a.subjects or [None])[0]) for q in a.quantities]
    return out


def test_a_front_matter_pdf_link_is_the_notes_paper_without_a_title() -> None:
    body = "## 读后\n\n- split 数按序列长度自适应。\n- 长上下文下 decode 延迟最多降低 31%。\n"
    assert file_scope({"pdf": "https://arxiv.org/pdf/2612.07771v1"}, body) == ["arxiv:2612.07771"]
    claims = parse_file(CONFIG, "inbox/kai/2026-12-05T1400-kai-note.md",
                        ("---\nauthor: kai\npdf: https://arxiv.org/pdf/2612.07771v1\n---\n" + body).encode()).claims
    assert [(c.text, c.subjects) for c in claims] == [("长上下文下 decode 延迟最多降低 31%。", ["arxiv:2612.07771"])]
    # a body that names another paper: the front matter's link alone does not scope the file
    assert file_scope({"pdf": "https://arxiv.org/pdf/2612.07771"}, body + "- 对比 arXiv:2611.00042\n") == []


def test_a_name_written_with_its_id_in_one_file_is_that_paper_in_another() -> None:
    got = _owners({
        "inbox/ana/2026-12-05T0900-ana.md": "# notes\n\n- FuseRing (arXiv:2612.06610) overlaps the all-reduce with the GEMM.\n",
        "inbox/bo/2026-12-05T1000-bo.md": "# 笔记\n\n- FuseRing 把 all-reduce 延迟降低了 38%。\n- ringwise 的延迟降低 5%。\n",
    })
    assert got["FuseRing 把 all-reduce 延迟降低了 38%。"] == [(-38.0, "arxiv:2612.06610")]
    assert got["ringwise 的延迟降低 5%。"] == [(-5.0, None)]  # a word, not the name as written


def test_an_engine_running_a_model_owns_its_number() -> None:
    got = _owners({"inbox/bo/2026-12-05T1100-bo.md": (
        "# 实测\n\n- SGLang 在 H200 上跑 Llama-3.1-70B 的解码吞吐为 3,100 tok/s\n"
        "- TRT-LLM 运行 DeepSeek-V3 时每卡吞吐 1,420 tok/s\n"
        "- vLLM serving Llama-3.1-70B reaches 2,900 tok/s\n")})
    assert got == {
        "SGLang 在 H200 上跑 Llama-3.1-70B 的解码吞吐为 3,100 tok/s": [(3100.0, "entity:sglang")],
        "TRT-LLM 运行 DeepSeek-V3 时每卡吞吐 1,420 tok/s": [(1420.0, "entity:tensorrt-llm")],
        "vLLM serving Llama-3.1-70B reaches 2,900 tok/s": [(2900.0, "entity:vllm")],
    }


def test_a_bound_before_the_baseline_of_a_ratio() -> None:
    def read(text: str) -> list[tuple[float | None, str | None, str | None]]:
        return [(q.value, q.unit, q.bound) for q in find_quantities(text)]

    assert read("FP4 GEMM 的吞吐至少是 FP8 GEMM 的 1.8 倍") == [(1.8, "×", "≥")]
    assert read("新内核的延迟不超过为旧版本的 0.6 倍") == [(0.6, "×", "≤")]
    assert read("吞吐超过是 SGLang 的 1.2 倍") == [(1.2, "×", ">")]
    assert read("至少需要 8 张卡，吞吐是原来的 2 倍") == [(8.0, "devices", None), (2.0, "×", None)]


def test_a_decrease_verb_with_nouns_before_its_metric() -> None:
    def read(text: str) -> list[tuple[float | None, str | None]]:
        return [(q.value, q.metric) for q in find_quantities(text)]

    assert read("it cuts softmax latency by 17% at 64K context") == [(-17.0, "latency"), (64000.0, "context_length")]
    assert read("lowers kernel launch latency by 40%") == [(-40.0, "latency")]
    assert read("reduces memory and raises throughput by 20%") == [(20.0, "throughput")]
    assert read("drops when batch latency rises by 12%") == [(12.0, "latency")]
    # nouns after the metric, nouns with no metric, zh nouns before it
    assert read("reduces GPU memory usage by 30%") == [(-30.0, "memory")]
    assert read("reduces communication overhead by 25%") == [(-25.0, None)]
    assert read("reduces it by 25%") == [(-25.0, None)]
    assert read("降低注意力延迟 22%") == [(-22.0, "latency")]
    assert read("降低通信开销 25%") == [(-25.0, None)]
    assert read("降低显存并提升吞吐 20%") == [(20.0, "throughput")]
    assert read("reduces latency but increases memory by 10%") == [(10.0, "memory")]
    assert read("Its accuracy falls below 85% at INT2.") == [(85.0, "accuracy")]  # a level, not a change


def test_a_link_in_a_paragraphs_second_sentence_names_its_paper() -> None:
    doc = ("# kernels\n\n## 2. DSL\n\n其他 DSL 只跟踪发布说明。调度搜索参考 "
           "[TileProbe: Profiling Tile Schedules](https://arxiv.org/abs/2610.55501)，还没有自己的数字。\n")
    claims = parse_file(CONFIG, "organized/knowledge/kernels.md", doc.encode()).claims
    assert [(c.text, c.subjects) for c in claims] == [
        ("调度搜索参考 TileProbe: Profiling Tile Schedules，还没有自己的数字。", ["arxiv:2610.55501"])]


def test_a_halving_is_a_change_of_fifty_percent() -> None:
    def read(text: str) -> list[tuple[float | None, str | None, str | None]]:
        return [(q.value, q.unit, q.metric) for q in find_quantities(text)]

    assert read("the fused kernel halves TTFT") == [(-50.0, "%", "ttft")]
    assert read("cuts GPU memory in half") == [(-50.0, "%", "memory")]
    assert read("reduces decode latency by half") == [(-50.0, "%", "latency")]
    assert read("throughput increased by half") == [(50.0, "%", "throughput")]
    assert read("split the batch in half") == []  # no change word: no figure
    assert read("half the requests time out") == []
    assert read("reduces the number of kernel launches by 90%") == [(-90.0, "%", "call_count_ratio")]


def test_a_halving_alone_on_a_line_under_a_paper_heading_is_a_claim() -> None:
    doc = "# 日报\n\n### 3. Quiet Heads Make Faster Decoders\n\n- 显存占用减少了一半\n- halves the TTFT on long prompts\n"
    claims = parse_file(CONFIG, "inbox/ann/2026-12-05-daily.md", doc.encode()).claims
    assert [(c.text, [(q.value, q.unit) for q in c.quantities]) for c in claims] == [
        ("显存占用减少了一半", [(-50.0, "%")]), ("halves the TTFT on long prompts", [(-50.0, "%")])]
