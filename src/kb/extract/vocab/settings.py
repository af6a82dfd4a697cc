"""Words that state the setting a figure was measured under: a load or traffic regime, a
scenario, a feature switched on or off (issue 20: ``突发流量下命中率 64%`` against the doc's 82%
"at steady load" is a value of another setting, no conflict).

Data only, as regex fragments over lower-cased text: :mod:`kb.extract.settings` joins them. Unlike
the set-up conditions of :mod:`kb.extract.vocab.qualifiers` (an accelerator, a batch, a model
size: tokens that a broader set-up may hold), a setting is compared whole: two figures are
comparable only under the same stated setting or both under none.
"""

from __future__ import annotations

SETTING_NOUNS_ZH: tuple[str, ...] = (
    "流量", "负载", "负荷", "压力", "场景", "条件", "情况", "工况", "模式", "配置", "设置", "设定",
    "高峰", "峰值", "稳态", "突发", "冷启动", "热启动", "预热", "压测",
)
"""Chinese nouns of a setting, before 下/时/中/期间 (``突发流量下``, ``高并发场景中``, ``冷启动时``)."""

SETTING_NOUNS_EN: tuple[str, ...] = (
    "load", "loads", "traffic", "burst", "bursts", "workload", "workloads", "pressure", "contention",
    "peak", "steady state", "steady-state", "cold start", "cold-start", "warm-up", "warmup", "setting",
    "settings", "scenario", "scenarios", "regime", "regimes", "conditions",
)
"""English nouns of a setting after under/at/during/in/with (``under bursty traffic``, ``at steady load``)."""

SETTING_ADJECTIVES_EN: tuple[str, ...] = (
    "bursty", "steady", "peak", "idle", "heavy", "light", "low", "high", "sustained", "spiky", "mixed",
)
"""Adjectives that make a load or traffic noun a setting without a preposition (``bursty traffic``)."""

SWITCH_WORDS_ZH: tuple[str, ...] = ("开启", "打开", "关闭", "启用", "禁用", "关掉", "打开了", "开启了")
"""Chinese words of a feature switched on or off, before …后/时/下 (``开启前缀缓存后``)."""

SWITCH_WORDS_EN: tuple[str, ...] = ("switched on", "switched off", "turned on", "turned off", "enabled", "disabled")
"""English words of a feature switched on or off, after ``with …`` (``with the prefix cache switched on``)."""

MACHINE_CHIPS: tuple[str, ...] = (
    r"m\d\s*(?:max|pro|ultra)", r"snapdragon\s*\d(?:\s*gen\s*\d)?", r"dimensity\s*\d{3,4}",
    r"jetson\s*(?:orin|agx|nano|xavier)(?:\s*(?:nano|nx))?",
)
"""Chips that name a whole machine (``M3 Ultra``, ``Snapdragon 8 Gen 3``): a figure measured on
one is a figure of that machine."""

MACHINE_NOUNS: tuple[str, ...] = (
    "mac studio", "mac mini", "mac pro", "macbook pro", "macbook air", "macbook", "imac", "mac", "iphone", "ipad",
    "pixel", "raspberry pi", "树莓派", "jetson", "手机", "笔记本", "台式机", "工作站", "laptop", "desktop", "workstation",
    "phone",
)
"""Words of one whole machine an engine runs on (``Mac Studio``, ``手机``, ``laptop``): in a frame
``在 … 上`` / ``on a …`` they make the frame the machine a figure was measured on (issue 22:
``在 128 GB 内存的 Mac Studio（M3 Ultra）上运行 …，解码约 11 tok/s`` against the doc's 9 tok/s on an
M3 Max is a figure of another machine, an update, no conflict). A datacenter accelerator
(``H100``) is a set-up condition of :mod:`kb.extract.vocab.qualifiers`, not a machine."""
