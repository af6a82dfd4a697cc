"""Metric phrases and the metric keys they name: the built-in vocabulary of
:class:`kb.extract.metrics.MetricVocab` (``kb.yaml`` ``metrics:`` extends it).

Data only. The phrases come from the design card (DESIGN.md §2), the seeds' own wording and the
issues that met them (issue 8: ratios, set-up sizes; issue 9: acceptance length).
"""

from __future__ import annotations

BUILTIN_METRICS: dict[str, tuple[str, ...]] = {
    "throughput": ("吞吐", "吞吐量", "throughput", "TPS", "tok/s", "tokens/s", "tokens/sec"),
    "ttft": ("TTFT", "P50 TTFT", "P90 TTFT", "P95 TTFT", "P99 TTFT", "TTFT P50", "TTFT P90", "TTFT P95", "TTFT P99", "TTFT 的 P50", "TTFT 的 P99", "首 token 延迟", "首 token 时延", "首字延迟", "time to first token", "time-to-first-token"),
    "tpot": ("TPOT", "P50 TPOT", "P90 TPOT", "P95 TPOT", "P99 TPOT", "TPOT P50", "TPOT P90", "TPOT P95", "TPOT P99", "TPOT 的 P50", "TPOT 的 P99", "ITL", "inter-token latency", "inter-token", "per-token latency", "latency per token", "每 token 延迟", "每个 token 的延迟"),
    "latency": ("延迟", "时延", "latency", "tail latency", "p99", "p95", "p90", "p50", "尾延迟"),
    "hit_rate": ("命中率", "缓存命中率", "hit rate", "hit ratio", "hit-rate", "cache hit rate", "cache hits"),
    "accuracy": ("准确率", "精度", "accuracy", "acc"),
    "speedup": ("加速", "加速比", "提速", "速度提升", "速度提高", "speedup", "speed-up", "speedups", "speed-ups", "faster"),
    "memory": ("显存", "内存", "memory", "VRAM", "Mem"),
    "compression_ratio": ("压缩", "压缩比", "压缩率", "内存压缩", "显存压缩", "memory compression", "compression", "compression ratio", "compresses", "compressed"),
    "size_ratio": ("模型小", "模型大小", "大小的模型", "模型体积", "体积", "model size", "smaller model", "size reduction", "smaller",
                   "shrinks", "shrink"),
    "call_count_ratio": ("调用次数", "调用量", "的次数", "call count", "calls", "API calls", "invocations", "launches",
                         "kernel launches"),
    "write_amplification": ("写放大", "write amplification", "write amp"),
    "error_rate": ("错误率", "出错率", "失败率", "error rate", "failure rate", "errors"),
    "acceptance_rate": ("接受率", "接收率", "acceptance rate", "accept rate", "acceptance ratio"),
    "acceptance_length": ("接受长度", "平均接受长度", "acceptance length", "accepted length", "accepted tokens"),
    "traffic": ("流量", "传输", "传输量", "数据传输", "traffic", "transfer", "transfers", "data transfer", "Host→Device",
                "Host-to-Device"),
    "commits": ("commits", "提交数", "提交次数"),
    "ci_job_minutes": ("job minutes", "CI job minutes", "CI 耗用"),
    "concurrency": ("并发", "concurrent", "concurrency"),
    "loc": ("LoC", "lines of code", "行代码"),
    "params": ("参数", "参数量", "参数规模", "级模型", "模型", "parameters", "params", "parameter", "model", "models"),
    "context_length": ("上下文", "上下文长度", "上下文窗口", "输入长度", "context", "context length", "prompt", "prompts",
                       "prompt length", "prompt lengths", "contexts", "context lengths", "context window", "context windows",
                       "tokens of context", "token context", "context tokens"),
    "batch_size": ("batch size", "batch", "批大小"),
    "gpu_count": ("GPU", "GPUs", "张卡", "块卡", "节点", "nodes"),
    "cost": ("成本", "cost", "$"),
    "eol_date": ("维护模式", "maintenance mode", "EOL", "end of life", "停止维护"),
    "release_date": ("发布", "released", "release"),
    "votes": ("HF 票", "votes", "upvotes", "stars", "HN points", "HN"),
    "count": (),
}
"""Built-in phrases per metric key, zh and en, matched case-insensitively (DESIGN.md §2).

Choices, beyond the list in the design card:
* ``tok/s``, ``TPS``, ``tokens/s(ec)`` are throughput *phrases* as well as units, so that
  ``2.5K TPS`` gets its metric from the text it is written with, not only a unit default.
* ``inter-token`` alone is TPOT (the seed writes ``inter-token -29-69%``); ``ITL`` too.
* ``p50``/``p90``/``p95``/``p99`` and 尾延迟 are latency: a percentile names a latency.
* ``acc`` is matched as a whole ASCII word only (never inside ``acceptance``); every ASCII
  phrase is, so ``HN`` is not found in ``HNSW`` nor ``TPS`` in ``TPSx``.
* 精度 is accuracy as the brief asks, although in quantisation text it can mean numeric
  precision (``FP8 精度``); such a figure rarely carries a number of its own.
* ``$`` is cost: written before a number (``$0.5``) it lies inside the quantity's span.
* votes include ``HN``, ``stars``: the seeds cite ``Raschka 419 HN`` and HF votes as ratings.
* ratios that are not speed-ups have metrics of their own (issue 8): compression_ratio
  (``410x KV cache compression``), size_ratio (``模型小了 60 倍``), call_count_ratio
  (``调用次数减少 7 倍``), write_amplification (``写放大 1.8×``); an error rate is error_rate,
  never latency. Speculative decoding's draft acceptance: acceptance_rate (``接受率 85%``,
  ``acceptance rate above 80%``) and acceptance_length (``平均接受长度 4.2 个 token``), never
  accuracy. A ``×`` with no phrase in its clause has no metric (it never conflicts).
* ``提交`` alone also means "submit" (``提交 3 个 PR``): commits are ``提交数``/``提交次数``.
* ``count`` has no phrases: a plain count keeps metric None rather than a catch-all key.
* set-up sizes (issue 8, :data:`kb.extract.metrics.SETUP_METRICS`): a context length (``128K 上下文``, ``32K
  context``, ``1M tokens of context``), a model size (``8B 级模型``, ``70B 参数``, ``235B params``),
  a batch size or a GPU count describes the set-up of a measurement, not its result. Their
  phrases name only a size written right next to them (:meth:`kb.extract.metrics.MetricVocab._setup_at`), never a
  ratio, a percentage or a unit's value, and never by the clause rule.
* eol_date and release_date are metrics of *dates*; :data:`DATE_METRICS` lets the
  quantity extractor ignore them (``TGI EOL + SGLang 29%`` is not an EOL of 29 %).
"""

COMPOUND_WORDS: tuple[str, ...] = ("加速器", "加速卡", "加速芯片", "加速库", "加速框架", "压缩包", "流量控制",
                                   "混合精度", "半精度", "单精度", "双精度", "全精度", "低精度")
"""zh words that hold a metric phrase and name something else (``加速器`` is an accelerator, not a
speed-up; ``混合精度`` a number format, not an accuracy): a phrase inside one of them is no metric
word (issue 21: ``在国产加速器上训练 200B`` has no speed-up)."""

SIM_WORDS: tuple[str, ...] = ("模拟", "仿真", "simulation", "simulated", "simulate", "simulating")
"""Words that make a time next to them a simulation's length (``模拟 12 周``, ``a 12-week
simulation``): a set-up (``sim_length``), never a result."""

MODEL_FAMILIES: tuple[str, ...] = ("Llama", "Qwen", "Mistral", "Mixtral", "Gemma", "Phi", "DeepSeek", "GPT", "Falcon",
                                   "GLM", "ChatGLM", "Baichuan", "InternLM", "OLMo", "Pythia", "OPT", "BLOOM", "Yi",
                                   "Kimi", "MiniCPM", "Vicuna", "StarCoder", "CodeLlama")
"""Model families whose name may stand alone before a size (``Llama 70B``); a name with letters
and digits (``Qwen2.5 72B``, ``DeepSeek-V3 671B``) needs no list."""

PERCENTILE = r"p(?:\d{2}(?:\.\d{1,2})?|99\d{1,2})|median|中位数"
"""A percentile word, as a regex source matched ignoring case: ``P50``, ``p99``, ``P99.9``,
``p995``, ``p999``, ``p9999`` (99.5, 99.9, 99.99), ``median``, ``中位数`` (``p128`` is none).
The one pattern of it: a percentile is a set-up condition (P99 TTFT and P50 TTFT are two
figures, :mod:`kb.extract.vocab.qualifiers`), part of the metric phrase after a decrease word
(``cuts p99 TTFT by 27%``, :mod:`kb.extract.number_words`), no condition word after ``on``
(``alert on p95 TTFT``, :mod:`kb.extract.metrics`) and refines a latency
(:data:`PERCENTILE_OF`); each compiles it with the word bounds it needs."""

PERCENTILE_OF: frozenset[str] = frozenset({"ttft", "tpot"})
"""Latencies a percentile word (``p50``, ``P99``) refines when its sentence names one before it:
``TTFT 在 100 并发下 P50 为 95 ms`` is a TTFT (:func:`kb.extract.bind.percentiles`)."""

DATE_METRICS: frozenset[str] = frozenset({"eol_date", "release_date"})
"""Metric keys whose values are dates, never quantities."""

UNIT_DEFAULTS: dict[str, str] = {
    "tok/s": "throughput", "tokens/s": "throughput", "tokens/sec": "throughput", "TPS": "throughput",
    "tok/s/GPU": "throughput", "tok/s/user": "throughput",
}
"""Units whose metric is known when no phrase names one (the brief's rule): the normalised unit
and the written forms a caller may pass instead. A ratio (×, 倍) has none: "2.4×" names no metric
(issue 8), only a phrase does."""

SENTENCE_UNITS: dict[str, frozenset[str]] = {
    "ttft": frozenset({"s", "%"}), "tpot": frozenset({"s", "%"}), "latency": frozenset({"s", "%"}),
    "throughput": frozenset({"tok/s", "tok/s/GPU", "tok/s/user", "req/s", "%"}), "memory": frozenset({"B", "%"}),
}
"""Units a number may have to take its metric from a phrase outside its clause, in its sentence
(:func:`kb.extract.bind.sentence_metrics`): a time is a latency's, a percentage a
change of it (``Our TPOT rises …, about +9% per doubling``, ``38 ms TPOT …, not the 45 ms``)."""

METRIC_UNITS: dict[str, str] = {"acceptance_length": "tokens"}
"""Metrics counted in one unit only: a number of one written without a unit has it (issue 9:
``接受长度 3.1 → 4.4`` in a table cell states what ``从 3.1 提到 4.4 个 token`` does)."""

METRIC_COLUMN_WORDS: tuple[str, ...] = ("指标", "指标名", "测量指标", "metric", "metrics", "measure", "measures",
                                        "measurement")
"""Header names of a table column whose cells name the metric of their row (``| 对象 | 指标 | 数值 |``)."""

SETUP_CELL_FORMS: dict[str, str] = {"gpu_count": "{n} 张卡"}
"""How a bare number under a set-up table header is read when the header's first phrase before it
does not read (``GPU 8`` is a name, as ``RTX 5090`` is): ``{n}`` is the cell (``8`` under
``GPU`` → ``8 张卡``, 8 devices). Other set-ups read as ``<phrase> <n>`` (``batch 8``)."""
