"""A blind night written from docs/ alone: the faults it found in how a number's metric, unit and
conditions are read, each with the value an analyst expects.

* a unit written in a table's header (``吞吐 (tok/s)``) is the unit of its column's bare numbers;
* a percentile before a latency (``P99 TTFT``) names that latency, in a 指标 cell as in prose, and
  two percentiles are two facts (P99 never conflicts with P50);
* a set-up word (``100 并发``, ``at 32 concurrent requests``) is a condition: it neither takes the
  metric nor hides the sentence's own;
* one condition written in zh and en, or with a count glued to a GPU (``8xH100``, ``8 H100s``), is one
  qualifier; a hit rate (命中率) is a metric;
* a quoted title with its id names the paper by its short name (``"ShardKV: …"（arXiv:…）``, then
  ``ShardKV …``); B in ``A 为 B 的 N 倍`` is the baseline; ``两倍多`` is more than 2×.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb.extract.arxiv_ids import find_arxiv
from kb.extract.metrics import DEFAULT_VOCAB
from kb.extract.names import id_names
from kb.extract.qualifiers import _conditions
from kb.extract.quantities import find_quantities
from kb.facts.firsthand import primary_source
from kb.facts.same import same_setup
from kb.read.tables import header_column, header_unit

KB_YAML = """timezone: "+08:00"
cutoff: "22:00"
topics:
  serving: [serving]
entities:
  SGLang: []
  vLLM: []
  LMCache: []
"""
FRONT = "---\ntopic: serving\nversion: 1\nupdated: 2026-11-29T05:00:00+08:00\n---\n# serving\n\n## §1 引擎\n\n"


def _kb(root: Path, doc: str, night: str) -> Path:
    (root / "organized" / "knowledge").mkdir(parents=True)
    (root / "inbox" / "wei").mkdir(parents=True)
    (root / "kb.yaml").write_text(KB_YAML, encoding="utf-8")
    (root / "organized" / "knowledge" / "serving.md").write_text(FRONT + doc, encoding="utf-8")
    (root / "inbox" / "wei" / "2026-11-30T1500-wei.md").write_text(night, encoding="utf-8")
    return root


def _conflicts(run_kb, root: Path) -> list[tuple]:  # noqa: ANN001
    r = run_kb(["diff", "serving", "--date", "2026-11-30", "--format", "json"], cwd=root)
    assert r.exit_code in (0, 1), r.stderr
    return sorted((c["subject"], c["metric"], c["qualifier"], sorted(v["raw"] for v in c["values"]))
                  for c in json.loads(r.stdout)["conflicts"])


def _read(text: str) -> list[tuple]:
    return [(q.raw, q.value, q.unit, q.metric) for q in find_quantities(text, vocab=DEFAULT_VOCAB)]


@pytest.mark.parametrize(("cell", "unit"), [
    ("吞吐 (tok/s)", "tok/s"), ("TTFT（ms）", "ms"), ("Memory [GB]", "GB"), ("延迟/ms", "ms"), ("显存 (GiB)", "GiB"),
    ("提升 (%)", "%"), ("speedup (×)", "×"),
    ("吞吐 / 延迟", None), ("Model (FP8)", None), ("Llama (70B)", None), ("SGLang v0.6", None), ("HF 票", None),
    # the unit is the longest tail that reads as one (a breaker's tok/s headers were read as seconds)
    ("tok/s", "tok/s"), ("吞吐 / tok/s", "tok/s"), ("Throughput (tok/s", "tok/s"), ("k tok/s", "k tok/s"), ("TTFT/ms/req", None),
])
def test_the_unit_a_header_writes(cell: str, unit: str | None) -> None:
    assert header_unit(cell, DEFAULT_VOCAB) == unit


def test_a_bare_cell_under_a_header_with_a_unit_conflicts(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """Before, ``2,750`` under ``吞吐 (tok/s)`` had no unit, so 3,000 tok/s was an "update"."""
    root = _kb(tmp_path, "| 引擎 | 吞吐 (tok/s) |\n|---|---|\n| SGLang | 2,750 |\n",
               "- SGLang reportedly reaches 3,000 tok/s.\n")
    assert _conflicts(run_kb, root) == [("entity:sglang", "throughput", None, ["2,750", "3,000 tok/s"])]
    r = run_kb(["claims", "--file", "organized/", "--format", "json"], cwd=root)
    (claim,) = json.loads(r.stdout)
    assert [(q["raw"], q["value"], q["unit"], q["metric"], claim["text"][q["start"]:q["end"]])
            for q in claim["quantities"]] == [("2,750", 2750.0, "tok/s", "throughput", "2,750")]


def test_percentiles_name_their_latency_and_stay_apart(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """A 指标 cell ``P99 TTFT`` is a TTFT (it named two metrics, so none); the window's P99 conflicts
    with the doc's P99 only, never with its P50 (200 ms is not among the values)."""
    root = _kb(tmp_path, "| 对象 | 指标 | 数值 |\n|---|---|---|\n| LMCache | P99 TTFT | 420 ms |\n"
                         "| LMCache | P50 TTFT | 200 ms |\n",
               "- LMCache P99 TTFT 610 ms。\n")
    assert _conflicts(run_kb, root) == [("entity:lmcache", "ttft", "p99", ["420 ms", "610 ms"])]


def test_conditions_written_two_ways_are_one(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root = _kb(tmp_path, "- SGLang 在 8×H100 上吞吐 2,750 tok/s。\n- vLLM v0.30 单请求 TTFT 约 180 ms。\n"
                         "- vLLM 并发 32 下 TTFT 300 ms。\n",
               "- SGLang reaches 3,000 tok/s on 8xH100.\n- vLLM's TTFT is about 260 ms for a single request.\n"
               "- vLLM TTFT at 32 concurrent requests is 400 ms.\n")
    assert _conflicts(run_kb, root) == [
        ("entity:sglang", "throughput", "h100", ["2,750 tok/s", "3,000 tok/s"]),
        ("entity:vllm", "ttft", "conc32", ["300 ms", "400 ms"]),
        ("entity:vllm", "ttft", "单请求", ["180 ms", "260 ms"]),
    ]


@pytest.mark.parametrize(("text", "want"), [
    ("TTFT 据称在 100 并发下 P50 为 95 ms", [("100", 100.0, None, "concurrency"), ("95 ms", 0.095, "s", "ttft")]),
    ("TTFT at 64 concurrent requests: P99 is 300 ms", [("64", 64.0, None, "concurrency"), ("300 ms", 0.3, "s", "ttft")]),
    ("vLLM TTFT at 32 concurrent requests is 400 ms.", [("32", 32.0, None, "concurrency"), ("400 ms", 0.4, "s", "ttft")]),
    ("TTFT 降低 30%，P99 延迟 95 ms", [("30%", -30.0, "%", "ttft"), ("95 ms", 0.095, "s", "latency")]),
    ("TTFT 120 ms。P99 为 300 ms", [("120 ms", 0.12, "s", "ttft"), ("300 ms", 0.3, "s", "latency")]),
    ("LMCache P99 TTFT 610 ms", [("610 ms", 0.61, "s", "ttft")]),
    ("LMCache 命中率 64%", [("64%", 64.0, "%", "hit_rate")]),
    ("vLLM's prefix cache hit rate is 90% on multi-turn chat", [("90%", 90.0, "%", "hit_rate")]),
])
def test_the_metric_of_a_number_beside_set_up_and_percentile_words(text: str, want: list[tuple]) -> None:
    assert _read(text) == want


@pytest.mark.parametrize(("clause", "want"), [
    ("on 8 H100s", "h100"), ("on 8xH100", "h100"), ("8×H100", "h100"), ("H100 GPUs", "h100"),
    ("for a single request", "单请求"), ("单请求", "单请求"), ("one request at a time", "单请求"),
    ("P99 TTFT", "p99"), ("TTFT P50", "p50"), ("median TTFT", "p50"), ("TPOT 中位数", "p50"),
    ("HP99", None), ("p99x", None), ("p99999", None),
    ("p999", "p999"),  # the 99.9th percentile, as latency SLOs write it (kb.extract.vocab.metrics.PERCENTILE)
])
def test_conditions_of_a_clause(clause: str, want: str | None) -> None:
    assert _conditions(clause) == want


@pytest.mark.parametrize(("a", "b", "same"), [
    ("p99", "p99", True), ("p50", "p99", False), ("conc32", "conc32+p50", True), ("conc32+p99", "conc32+p50", False),
    ("h100+p99", "p99", True), (None, "p99", False),
    # every percentile is a statistic (the one word): a P75 stated by one and not the other is two facts
    ("conc32+p75", "conc32+p75+p99", False), ("conc32", "conc32+p995", True), ("p99.99", "p99.9", False),
])
def test_two_statistics_never_conflict(a: str | None, b: str | None, same: bool) -> None:
    assert same_setup(a, b) is same


@pytest.mark.parametrize(("text", "want"), [
    ('昨晚热议的 "ShardKV: Elastic KV Sharding for Serving at Scale"（arXiv:2611.09915）。', [("arxiv:2611.09915", "ShardKV")]),
    ("《KVFlow: Prefix-Aware Scheduling》(2611.09916)", [("arxiv:2611.09916", "KVFlow")]),
    ('"Attention Is All You Need"（arXiv:1706.03762）', []),  # no short name before a colon
    ("ShardKV（arXiv:2611.09915）", [("arxiv:2611.09915", "ShardKV")]),
])
def test_a_quoted_title_names_its_id_by_its_short_name(text: str, want: list[tuple[str, str]]) -> None:
    refs = [(f"arxiv:{r.id}", r.start) for r in find_arxiv(text)]
    assert id_names(text, refs) == want


def test_the_name_of_a_quoted_title_is_the_papers_later(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root = _kb(tmp_path, "- vLLM 吞吐 2,400 tok/s。\n",
               '## ShardKV\n\n- 热议的 "ShardKV: Elastic KV Sharding for Serving at Scale"（arXiv:2611.09915）。\n'
               "- ShardKV claims up to 3.5x higher throughput than vLLM.\n- ShardKV 的 TTFT 据称 95 ms。\n")
    r = run_kb(["claims", "--file", "inbox/", "--format", "json"], cwd=root)
    assert [(c["subjects"], [(q["raw"], q["bound"]) for q in c["quantities"]]) for c in json.loads(r.stdout)] == [
        (["arxiv:2611.09915"], []),
        (["arxiv:2611.09915"], [("3.5x", "≤")]),
        (["arxiv:2611.09915"], [("95 ms", None)]),
    ]


@pytest.mark.parametrize(("line", "owner", "bound"), [
    ("vLLM 吞吐为 SGLang 的两倍多。", "entity:vllm", ">"),
    ("vLLM 的吞吐是 SGLang 的 1.5 倍。", "entity:vllm", None),
    ("vLLM's throughput is 2× that of SGLang.", "entity:vllm", None),
    ("SGLang 的 2 倍加速来自 RadixAttention。", "entity:sglang", None),  # no copula: SGLang's own
])
def test_b_in_a_is_n_times_b_is_the_baseline(tmp_path: Path, run_kb, line: str, owner: str, bound: str | None) -> None:  # noqa: ANN001
    root = _kb(tmp_path, "- vLLM 吞吐 2,400 tok/s。\n", f"- {line}\n")
    r = run_kb(["claims", "--file", "inbox/", "--format", "json"], cwd=root)
    (claim,) = json.loads(r.stdout)
    assert (claim["subjects"], [(q["subject"], q["bound"]) for q in claim["quantities"]]) == ([owner], [(owner, bound)])


@pytest.mark.parametrize(("text", "want"), [
    ("两倍多", [("两倍", 2.0, "×", ">")]), ("2 倍多。", [("2 倍", 2.0, "×", ">")]),
    ("1.5 GB 多", [("1.5 GB", 1.5e9, "B", ">")]), ("提升 3 倍多卡扩展", [("3 倍", 3.0, "×", None)]),
])
def test_duo_after_a_number_is_more_than(text: str, want: list[tuple]) -> None:
    assert [(q.raw, q.value, q.unit, q.bound) for q in find_quantities(text, vocab=DEFAULT_VOCAB)] == want


def test_a_section_naming_a_subject_only_as_a_baseline_is_no_place_to_correct_it(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """The doc's §3 names vLLM only as SplitServe's baseline (``相对 vLLM 共置部署``): vLLM's conflict
    is to be corrected in §1, where the doc holds it (before: "改正 §1、§3")."""
    doc = ("- vLLM 吞吐 2,400 tok/s。\n\n## §3 分离式部署\n\n| 系统 | 端到端加速 | 条件 |\n|---|---|---|\n"
           "| SplitServe | 1.8× | 相对 vLLM 共置部署 |\n")
    root = _kb(tmp_path, doc, "- vLLM 吞吐 2,650 tok/s。\n")
    r = run_kb(["diff", "serving", "--date", "2026-11-30", "--format", "json"], cwd=root)
    (s,) = [s for s in json.loads(r.stdout)["subjects"] if s["key"] == "entity:vllm"]
    assert (s["outcome"], s["doc_sections"]) == ("conflict", ["§1"])
    # named only as a baseline, it is still in the doc (its sections are those that name it)
    root2 = _kb(tmp_path / "b", doc.split("\n\n", 1)[1], "- vLLM 吞吐 2,650 tok/s。\n")
    r = run_kb(["diff", "serving", "--date", "2026-11-30", "--format", "json"], cwd=root2)
    (s,) = [s for s in json.loads(r.stdout)["subjects"] if s["key"] == "entity:vllm"]
    assert (s["outcome"], s["doc_sections"]) == ("update", ["§3"])


@pytest.mark.parametrize(("cited", "primary"), [
    ("https://nvidia.github.io/TensorRT-LLM/performance/perf-overview.html", True),
    ("https://lmcache.readthedocs.io/en/latest/", True),
    ("https://blog.csdn.net/x/article/details/1", False),
])
def test_a_projects_docs_site_is_a_primary_source(cited: str, primary: bool) -> None:
    assert primary_source(cited) is primary


@pytest.mark.parametrize(("text", "want"), [
    ("TTFT 减少了一半", [("一半", -50.0, "%", "ttft")]), ("显存节省一半", [("一半", -50.0, "%", "memory")]),
    ("吞吐提升一半", [("一半", 50.0, "%", "throughput")]), ("一半的请求命中缓存", []), ("其中一半", []), ("省了一半", []),
])
def test_half_after_a_change_word(text: str, want: list[tuple]) -> None:
    assert _read(text) == want


def test_a_kv_transfer_size_is_traffic_and_conflicts(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """传输/transfer name the traffic metric: a size with no metric never conflicts, so 0.75 GB against
    800 MB (both per request at 32K context) was an update."""
    root = _kb(tmp_path, "- LMCache 每请求 KV 传输 0.75 GB（32K 上下文）。\n",
               "- LMCache 每请求 KV 传输 800 MB（32K 上下文）。\n")
    assert _conflicts(run_kb, root) == [("entity:lmcache", "traffic", "ctx32k", ["0.75 GB", "800 MB"])]
    en = _kb(tmp_path / "en", "- LMCache 每请求 KV 传输 0.75 GB（32K 上下文）。\n",
             "- LMCache's KV transfer is 768 MB per request at 32K context.\n")  # 0.75 GiB: the same value
    assert _conflicts(run_kb, en) == []


def test_a_conflict_inside_a_wider_one_is_listed_once(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """jay's 3,000 tok/s (8 H100, Llama-3.1-70B) against wei's and the doc's 2,750: one conflict, not a
    second one under the narrower set-up ``gpus8+h100`` with the same two values."""
    root = _kb(tmp_path, "| 引擎 | 硬件 | 模型 | 吞吐 (tok/s) |\n|---|---|---|---|\n| SGLang | 8 张 H100 | Llama-3.1-70B | 2,750 |\n",
               "- SGLang 在 8 张 H100 上吞吐 2,750 tok/s。\n")
    (root / "inbox" / "jay").mkdir()
    (root / "inbox" / "jay" / "2026-11-30T1700-jay.md").write_text(
        "- SGLang on 8 H100 GPUs with Llama-3.1-70B reportedly reaches 3,000 tok/s.\n", encoding="utf-8")
    assert _conflicts(run_kb, root) == [
        ("entity:sglang", "throughput", "gpus8+h100+llama-3.1-70b", ["2,750", "3,000 tok/s"])]


@pytest.mark.parametrize(("text", "want"), [
    # a token count is no latency: the latency is the time after it (blind night 10, r2)
    ("SGLang per-request end-to-end latency for a 512-token answer is 6.2 s on H100.",
     [("512-token", 512.0, "tokens", None, None), ("6.2 s", 6.2, "s", "latency", None)]),
    # a set-up size right before a phrase does not own it (r4)
    ("vLLM batch 1 加速 2.0×。", [("1", 1.0, None, "batch_size", None), ("2.0×", 2.0, "×", "speedup", None)]),
    ("1109 tokens/sec 13M", [("1109 tokens/sec", 1109.0, "tok/s", "throughput", None)]),
    # a prompt's length is a context length, a set-up (r5)
    ("LMCache 在 32K prompt 上 TTFT 为 500 ms（H100）。",
     [("32K", 32000.0, None, "context_length", None), ("500 ms", 0.5, "s", "ttft", None)]),
    # a latency per output token is a TPOT (r12)
    ("SGLang latency is 12 ms per token on H100.", [("12 ms", 0.012, "s", "tpot", None)]),
    ("latency 12 ms/token", [("12 ms", 0.012, "s", "tpot", None)]),
    ("latency is 120 ms per request", [("120 ms", 0.12, "s", "latency", None)]),
    # tops is more than; tops out at, peaks at are at most (r14)
    ("SGLang accept rate tops 90% on short chat prompts", [("90%", 90.0, "%", "acceptance_rate", ">")]),
    ("throughput tops out at 900 tok/s", [("900 tok/s", 900.0, "tok/s", "throughput", "≤")]),
    # Mem is memory (a table header Mem [GiB], r1)
    ("Mem 9.5 GiB", [("9.5 GiB", 10200547328.0, "B", "memory", None)]),
])
def test_blind_night_10_metrics_and_bounds(text: str, want: list[tuple]) -> None:
    assert [(q.raw, q.value, q.unit, q.metric, q.bound) for q in find_quantities(text, vocab=DEFAULT_VOCAB)] == want


def test_a_mem_column_with_its_unit_is_read(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root = _kb(tmp_path, "| Engine | GPU | Mem [GiB] |\n|---|---|---|\n| vLLM | H100 | 9.5 |\n",
               "- vLLM memory is 11 GiB on H100.\n")
    assert _conflicts(run_kb, root) == [("entity:vllm", "memory", "h100", ["11 GiB", "9.5"])]


@pytest.mark.parametrize(("cell", "unit", "setup"), [
    ("Batch", None, "batch_size"), ("batch size", None, "batch_size"), ("上下文", None, "context_length"),
    ("并发", None, "concurrency"), ("Speedup (×)", "×", None), ("吞吐 / batch", None, None), ("GPU", None, "gpu_count"),
])
def test_what_a_header_gives_its_bare_numbers(cell: str, unit: str | None, setup: str | None) -> None:
    assert header_column(cell, DEFAULT_VOCAB) == (unit, setup)


def test_a_bare_cell_under_batch_is_the_rows_batch(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """``| vLLM | H100 | 1 | 2.0 |`` under ``| Engine | GPU | Batch | Speedup (×) |``: batch 1 is a condition
    of the row, so 1.3× at batch 32 is another set-up (before: a false conflict) and 2.5× at batch 1 conflicts."""
    root = _kb(tmp_path, "| Engine | GPU | Batch | Speedup (×) |\n|---|---|---|---|\n| vLLM | H100 | 1 | 2.0 |\n",
               "- vLLM speedup is only 1.3× at batch 32 on H100.\n- vLLM speedup 2.5× at batch 1 on H100.\n")
    assert _conflicts(run_kb, root) == [("entity:vllm", "speedup", "batch1+h100", ["2.0", "2.5×"])]


@pytest.mark.parametrize("text", ["翻9999番", "0分之3", "〇分之五 tok/s", "零分之一", "百分之零分之一"])
def test_zh_forms_that_are_no_number_give_none_and_never_raise(text: str) -> None:
    """2^9999 overflowed and a zero denominator divided by zero: the file failed to ingest."""
    assert find_quantities(text, vocab=DEFAULT_VOCAB) == []


def test_a_value_only_the_change_log_states_is_not_in_the_doc_for_kb_sources(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """As the diff reads it (a change log holds no value of the doc): the reddit 2× was "in doc" in
    ``kb sources`` while ``kb diff`` called it new."""
    root = _kb(tmp_path, "- vLLM speedup drops to 1.3× at batch 32.\n\n## §2 Changelog\n\n- v1 (2026-11-26): vLLM speedup 2x recorded.\n",
               "- A r/LocalLLaMA thread reports a 2× speedup for vLLM (https://www.reddit.com/r/LocalLLaMA/x).\n")
    r = run_kb(["sources", "--format", "json"], cwd=root)
    assert r.exit_code == 0, r.stderr
    got = {(x["source"], x["numbers"], x["in_doc"], x["unsettled"]) for x in json.loads(r.stdout)["sources"]}
    assert got == {("wei", 1, 0, 1), ("reddit.com", 1, 0, 1)}


def test_bare_cells_with_a_bound_or_a_range_take_the_headers_unit(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root = _kb(tmp_path, "| Engine | 吞吐 / tok/s | HF 票 |\n|---|---|---|\n| vLLM | ~50 | 96 |\n| SGLang | >1,000 | 3 |\n"
                         "| TGI | 40–80 | 1 |\n| LMCache | 1200+ | 2 |\n", "- x\n")
    r = run_kb(["claims", "--file", "organized/", "--format", "json"], cwd=root)
    got = [[(q["raw"], q["value"], q["low"], q["high"], q["unit"], q["metric"], q["bound"]) for q in c["quantities"]]
           for c in json.loads(r.stdout)]
    assert got == [
        [("50", 50.0, None, None, "tok/s", "throughput", "~"), ("96", 96.0, None, None, None, "votes", None)],
        [("1,000", 1000.0, None, None, "tok/s", "throughput", ">"), ("3", 3.0, None, None, None, "votes", None)],
        [("40–80", None, 40.0, 80.0, "tok/s", "throughput", None), ("1", 1.0, None, None, None, "votes", None)],
        [("1200+", 1200.0, None, None, "tok/s", "throughput", "≥"), ("2", 2.0, None, None, None, "votes", None)],
    ]


@pytest.mark.parametrize(("text", "want"), [
    ("vLLM throughput 0分之3", []), ("显存节省3分之1", []),  # the 0 and the 3 were stored alone
    ("5分之3 tok/s", [("5分之3 tok/s", 0.6, "tok/s")]),
    ("吞吐提升两倍半", [("两倍半", 2.5, "×")]), ("三倍半的吞吐", [("三倍半", 3.5, "×")]), ("2倍半", [("2倍半", 2.5, "×")]),
])
def test_zh_fractions_and_halves(text: str, want: list[tuple]) -> None:
    assert [(q.raw, q.value, q.unit) for q in find_quantities(text, vocab=DEFAULT_VOCAB)] == want


def test_bump_refuses_a_next_version_over_the_range(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root = _kb(tmp_path, "- vLLM 吞吐 2,400 tok/s。\n", "- x\n")
    doc = root / "organized" / "knowledge" / "serving.md"
    doc.write_text(doc.read_text(encoding="utf-8").replace("version: 1\n", "version: 999999\n"), encoding="utf-8")
    before = doc.read_bytes()
    r = run_kb(["bump", "serving"], cwd=root)
    assert r.exit_code == 2
    assert "organized/knowledge/serving.md:3: front matter 'version' 999999 + 1 is 1,000,000, over 999,999" in r.stderr
    assert doc.read_bytes() == before


@pytest.mark.parametrize(("form", "shown", "why"), [
    ("1⁄0 tok/s", "1⁄0", "is a fraction written with the fraction slash ⁄, which kb does not read"),
    ("1200 tok/s/s", "1200 tok/s/s", "has a rate per second of a rate (tok/s/s), a unit kb does not read"),
    ("5 k/s", "5 k/s", "has a magnitude per second with no noun (k/s: thousands of what?)"),
    ("1e3万 tok/s", "1e3万", "has both an exponent and a magnitude (1e3万: 1e3 or 1.3万?)"),
    ("1.2万k tok/s", "1.2万k", "has two magnitudes (1.2万k, 1.5kk)"),
])
def test_forms_kb_does_not_read_are_warned_and_give_no_value(tmp_path: Path, run_kb, form: str, shown: str,  # noqa: ANN001
                                                            why: str) -> None:
    """A breaker's forms that gave a wrong value with no word (0 tok/s, 1200 tok/s, 5, 1e7, 12,000)."""
    root = _kb(tmp_path, "- vLLM 吞吐 2,400 tok/s。\n", f"- vLLM throughput {form}\n")
    r = run_kb(["ingest"], cwd=root)
    assert f"inbox/wei/2026-11-30T1500-wei.md:1: number '{shown}' {why}; no quantity" in r.stderr
    r = run_kb(["claims", "--file", "inbox/", "--format", "json"], cwd=root)
    assert [c["quantities"] for c in json.loads(r.stdout)] in ([], [[]])


def test_half_a_point_is_no_five() -> None:
    assert find_quantities("vLLM 点五 tok/s", vocab=DEFAULT_VOCAB) == []


def test_a_zh_magnitude_chain_that_overflows_gives_no_value() -> None:
    """41 亿 in a row made an infinite value, listed in kb diff and the brief as a conflicting value."""
    assert find_quantities("vLLM 吞吐 1" + "亿" * 41 + " tok/s", vocab=DEFAULT_VOCAB) == []
    assert [(q.value, q.unit) for q in find_quantities("vLLM 吞吐 1" + "亿" * 10 + " tok/s", vocab=DEFAULT_VOCAB)] == [(1e80, "tok/s")]


def test_a_new_users_mistakes_get_a_way_out(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """A new user's tryout: a typo in a topic, a --kb that does not exist or is the kb.yaml file."""
    root = _kb(tmp_path, "- vLLM 吞吐 2,400 tok/s。\n", "- x\n")
    r = run_kb(["diff", "servng"], cwd=root)
    assert r.exit_code == 2
    assert "unknown topic 'servng' (kb.yaml topics: serving); did you mean 'serving'? Or add it to kb.yaml `topics:`" in r.stderr
    r = run_kb(["--kb", str(tmp_path / "nope"), "claims"], cwd=root)
    assert (r.exit_code, r.stderr.strip()) == (2, f"error: --kb {tmp_path / 'nope'}: no such folder")
    r = run_kb(["--kb", str(root / "kb.yaml"), "claims"], cwd=root)
    assert (r.exit_code, r.stderr.strip()) == (
        2, f"error: --kb {root / 'kb.yaml'}: a file, not a folder: pass the folder that holds it (--kb {root})")


def test_an_unknown_subject_names_the_argument_typed_and_the_nearest_name(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root = _kb(tmp_path, "- vLLM 吞吐 2,400 tok/s。\n", "- x\n")
    r = run_kb(["history", "vLLMM"], cwd=root)
    assert (r.exit_code, r.stderr.strip()) == (2, "error: SUBJECT 'vLLMM': not an arXiv id, DOI, kb.yaml entity, card alias "
                                                  "or living-doc heading name (did you mean 'vLLM'?)")
    r = run_kb(["claims", "--subject", "vLLMM"], cwd=root)
    assert r.exit_code == 2 and "error: --subject 'vLLMM':" in r.stderr and "(did you mean 'vLLM'?)" in r.stderr


@pytest.mark.parametrize(("text", "unit"), [
    ("vLLM 30 tok/s per user", "tok/s/user"), ("per-user throughput 30 tok/s", "tok/s/user"),
    ("每用户解码速度 35 tok/s", "tok/s/user"), ("40 tokens/s/req", "tok/s/user"),
    ("vLLM 514 tok/s（每 GPU）", "tok/s/GPU"), ("vLLM 514 tok/s (per GPU)", "tok/s/GPU"),
    ("KTransformers 单用户解码吞吐为 12 tok/s", "tok/s"), ("vLLM 514 tok/s (H100)", "tok/s"),
])
def test_a_rate_per_user_or_per_gpu_is_no_systems_rate(text: str, unit: str) -> None:
    """A breaker's per-user, per-request and bracketed per-GPU rates conflicted with a system's 4000 tok/s."""
    (q,) = find_quantities(text, vocab=DEFAULT_VOCAB)
    assert (q.unit, q.metric) == (unit, "throughput")


def test_a_per_user_rate_does_not_conflict_with_the_systems(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root = _kb(tmp_path, "- SGLang throughput 4000 tok/s。\n", "- SGLang decodes 35 tok/s per user.\n")
    assert _conflicts(run_kb, root) == []
