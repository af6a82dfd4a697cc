"""Words around a name that make it a host or a baseline rather than the subject of a claim's
numbers (DESIGN.md §3: "integrated into SGLang", "比 vLLM 低 21%", "compared with X", "than X").

Data only, as regex fragments (a word with its optional endings, ``outperforms?``):
:mod:`kb.extract.subjects` joins them into its patterns. The words come from the seeds and the
testers' documents (zh and en); the one list for the parser (kb.yaml entities) and the diff
(entities and card names).
"""

from __future__ import annotations

HOST_BEFORE_WORDS: tuple[str, ...] = (
    "集成(?:到|至|进|于)?", "合(?:进|入|并到)", "接入", "接进", "接到", "基于", "依托", "运行于", "跑在", "相对于?",
    "相比(?:于)?", "相较(?:于)?", "对比", "对照", "比", "较",
    "领先", "优于", "快于", "慢于", "高于", "低于", "超过", "胜过", "强于", "弱于",
    r"vs\.?", "versus", "baselines?", "基线", "integrated into", "merged into", "on top of", "built on",
    "compared (?:with|to)", "relative to",
    "than", "over", "against", "outperforms?", "beats?", "that of", "those of",
)
"""Words right before a name that make it a host or baseline (``集成到 SGLang``, ``than vLLM``)."""

HOST_BEFORE_QUALIFIERS: tuple[str, ...] = ("the", "stock", "vanilla", "default", "默认(?:的)?", "原生(?:的)?", "原版(?:的)?")
"""Words that may stand between such a word and the name (``than the stock vLLM``, ``比默认的 X``)."""

HOST_AFTER_WORDS: tuple[str, ...] = (
    "后端", "backend", "插件", "plugin", "中集成", "上集成", "作为基线", "为基线", "基线", r"[(（]\s*baseline",
    "as (?:the )?baseline",
)
"""Words right after a name (and its version) that make it a host, platform or baseline
(``SGLang 后端``, ``vLLM 中集成``, ``vLLM (baseline)``)."""

PAIR_OPEN_WORDS: tuple[str, ...] = ("与", "和", "跟", "同", "较之?", "相对")
"""The opening word of "与/和/跟/同 X … 相比", before the name."""

PAIR_CLOSE_WORDS: tuple[str, ...] = ("相比", "相较", "对比", "比较", "比起来", "比")
"""The closing word of "与 X … 相比", after the name in the same clause."""

RATIO_OPEN_WORDS: tuple[str, ...] = ("为", "是", "达到?", "相当于", "约为", "仅为", "只有", "不到")
"""The copula of "A 为 B 的 N 倍" (A is N times B), right before B: with :data:`RATIO_CLOSE` after
B it makes B the baseline of the ratio, never its owner (``vLLM 吞吐为 SGLang 的两倍多`` is vLLM's)."""

RATIO_CLOSE: str = r"\s*的\s*(?:约\s*)?[\d.一二两三四五六七八九十半几]+\s*(?:倍|%|成)"
"""What follows B in "A 为 B 的 N 倍" (also ``的 80%``, ``的八成``), right after the name."""

ROLE_BEFORE_WORDS: tuple[str, ...] = (
    "for", "on", "with", "using", "in", "at", "across", "under", "via", "atop", "inside", "running",
    "在", "用", "使用", "采用", "对", "针对", "配合", "开启", "启用", "打开", "搭配", "以",
    "loads?", "loading", "加载", "载入", "跑", "运行", "部署", "服务", "runs?", "serving", "serves?",
)
"""Words right before a name that make it the set-up of a paper's experiment (the evaluated model,
the engine or hardware it ran on: ``speedup for Qwen2.5-7B``, ``with SGLang's prefix cache``,
``在 vLLM 上``, ``加载 Llama-3.1-70B``, ``SGLang 在 H200 上跑 Llama-3.1-70B``) when the claim is about a paper (issue 20: roles are
qualifiers, never owners); before a model, they make it a tool's set-up in any claim."""

ROLE_AFTER_WORDS: tuple[str, ...] = (
    "混合负载", "负载", "数据集", "语料", "轨迹", "trace", "traces", "workload", "workloads", "dataset",
    "datasets", "benchmark", "corpus",
)
"""Words right after a name that make it the data a paper's experiment ran on (``ShareGPT 混合负载``,
``the ShareGPT traces``) when the claim is about a paper (issue 20: a dataset is a qualifier)."""

HARDWARE_PATTERN = (r"(?:(?:NVIDIA|AMD|Intel|Google|Apple|Huawei)\s+)?"
                    r"(?:(?:GB|[ABHLV])\d{2,3}[A-Za-z]?(?:\s*NVL\d+)?|[LT]4|MI\d{3}[A-Za-z]?"
                    r"|RTX\s*(?:PRO\s*)?[A-Z]?\d{4}(?:\s*(?:Ti|Ada))?|TPU\s*v?\d\w*|Gaudi\s*\d|Ascend\s*\d{3}\w*"
                    r"|M\d\s*(?:Pro|Max|Ultra)|DGX\s*(?:Spark|Station|(?:GB|[ABH])\d{2,3})|HGX\s*(?:GB|[ABH])\d{2,3}"
                    r"|Jetson\s*(?:AGX\s*)?(?:Orin|Thor|Xavier)(?:\s*Nano)?)")
"""An accelerator's name, a vendor's name before it or not (``H200``, ``GB200 NVL72``, ``A100``,
``NVIDIA L40S``, ``MI300X``, ``RTX 4090``, ``Gaudi 3``, ``Ascend 910B``, ``M3 Ultra``, NVIDIA's
machines ``DGX Spark``, ``DGX H100``, ``HGX B200``, ``Jetson AGX Orin``): the hardware
an experiment ran on, never the owner of its number (issue 20)."""

MODEL_FAMILIES: tuple[str, ...] = (
    "qwen", "llama", "mistral", "mixtral", "deepseek", "gemma", "phi", "falcon", "vicuna", "yi", "glm",
    "chatglm", "baichuan", "internlm", "gpt", "claude", "olmo", "bloom", "opt", "t5", "kimi", "minimax",
    "gemini", "codellama", "starcoder", "pythia",
)
"""Model families: a name of one of them (``Qwen2.5-7B``, ``Llama-3-70B``) in a claim about a
paper is the model it was evaluated on, not the paper's subject."""

DATASET_NAMES: tuple[str, ...] = (
    r"c?mmlu(?:[- ]pro)?", r"c-?eval", r"gsm-?8k", r"math-?500", r"human-?eval(?:\+|[- ]?plus)?", r"mbpp",
    r"wiki-?text(?:[- ]?(?:2|103))?", r"c4", r"the pile", r"sharegpt", r"lmsys-chat(?:-1m)?", r"burstgpt",
    r"hellaswag", r"arc[- ](?:easy|challenge|e|c)", r"piqa", r"winogrande", r"truthfulqa", r"gpqa(?:[- ]diamond)?",
    r"boolq", r"lambada", r"squad(?:\s*v?2(?:\.0)?)?", r"bbh", r"big-?bench(?:[- ]hard)?", r"ifeval",
    r"aime(?:\s*\d{2,4})?", r"ruler", r"openwebtext", r"alpaca[- ]?eval(?:\s*2(?:\.0)?)?", r"arena[- ]hard(?:[- ]auto)?",
    r"[a-z0-9-]*[- ]?bench", r"[a-z0-9-]*eval",
)
"""Benchmarks and datasets by name (``MMLU``, ``WikiText-2``, ``GSM8K``, ``ShareGPT``, ``MT-Bench``, a
name ending in ``Bench`` or ``Eval``), matched whole and in any case: the data a number was measured
on, a qualifier of the number and never its owner (a set-up role, like the evaluated model and the
hardware). kb.yaml lists such names as entities with no kind, so the kind is read from the name."""
