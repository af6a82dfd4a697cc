"""Word lists of units: how a unit, a magnitude or a counter is written after a number.

Data only (read by :mod:`kb.extract.numbers` and :mod:`kb.extract.units`, which build their
patterns and look-ups from it). The words come from the field's own writing (the seeds, the
issues' examples: ``2.03×``, ``0.27 个百分点``, ``383.7 tok/s``, ``16 张``) and, for the pint
side, from the false units the issues met (``3 B`` params, ``8 K`` context, ``PR``).
"""

from __future__ import annotations

MAGNITUDES: dict[str, int] = {
    "k": 3, "K": 3, "M": 6, "B": 9, "T": 12, "千": 3, "万": 4, "百万": 6, "千万": 7, "亿": 8, "万亿": 12,
    "thousand": 3, "million": 6, "billion": 9, "trillion": 12,
}
"""Multipliers written after a number, as powers of ten (magnitudes are exact: 6.2k is
``float("6.2e3")``, not 6.2 * 1000)."""

CJK_UNITS: dict[str, str] = {
    "个百分点": "pp", "百分点": "pp", "%": "%", "‰": "‰", "倍": "×",
    "个月": "month", "小时": "h", "分钟": "min", "毫秒": "ms", "微秒": "us", "秒": "s", "天": "day", "周": "week",
    "行代码": "LoC", "行": "LoC", "美元": "$", "元": "¥", "个 tokens": "tokens", "个 token": "tokens", "个tokens": "tokens", "个token": "tokens",
    "個百分點": "pp", "个百分點": "pp", "百分點": "pp", "纳秒": "ns",
    "tokens/秒": "tok/s", "token/秒": "tok/s", "tok/秒": "tok/s", "个 token/秒": "tok/s", "个token/秒": "tok/s",
    # the zh alias table of physical units and currencies (issue 21): a zh unit word to the unit
    # pint reads (kb.extract.units converts it to its canonical unit) or to kb's currency sign
    "公里": "km", "千米": "km", "公分": "cm", "厘米": "cm", "毫米": "mm", "千克": "kg", "公斤": "kg", "毫克": "mg",
    "毫升": "mL", "摄氏度": "°C", "华氏度": "°F", "英镑": "£", "港元": "HK$", "港币": "HK$", "欧元": "€",
    "人民币": "¥", "€": "€", "千字节": "KB", "兆字节": "MB", "吉字节": "GB", "太字节": "TB",
}
"""Written unit → normalised unit, for CJK words and symbols (no word boundary needed after them);
``€`` after its number too (``10 €``, as ``10 欧元``; a ``$`` after a number ends a formula, ``$x = 10$``)."""

CJK_UNITS_GUARDED: dict[str, str] = {"米": "m", "克": "g", "升": "L", "岁": "year", "星": "星"}
"""One-character zh units that begin many words (米哈游, 克隆, 升级, 岁月): a unit only when no other
Chinese character follows, except 的, 以, 之, 左, 内, 多 (``172 米的``, ``35 岁以上``); ``星`` is a
rating on a star scale (``4.5 星``; ``5星级`` is none), kb's own unit."""

COUNTER_CHARS = "张件条个篇家项台次种款位名卡轮块帧步"
"""CJK counters (量词): ``<integer> <counter>`` is a count with the counter as its unit (``16 张``,
``64 个``); the one list (the quantity finder, the unit converter and the diff read it)."""

COUNTERS: frozenset[str] = frozenset(COUNTER_CHARS)
""":data:`COUNTER_CHARS` as a set."""

ASCII_UNITS_CI: dict[str, str] = {
    "pp": "pp", "p.p.": "pp", "percentage points": "pp", "percentage point": "pp", "percent": "%", "pct": "%",
    "t/s": "tok/s", "tps": "tok/s", "req/s": "req/s", "qps": "req/s", "rps": "req/s",
    "kb": "KB", "mb": "MB", "gb": "GB", "tb": "TB", "kib": "KiB", "mib": "MiB", "gib": "GiB", "tib": "TiB",
    "kb/s": "KB/s", "mb/s": "MB/s", "gb/s": "GB/s", "tb/s": "TB/s", "gbps": "Gbps",
    "kib/s": "KiB/s", "mib/s": "MiB/s", "gib/s": "GiB/s", "tib/s": "TiB/s",
    "gflops": "GFLOPS", "tflops": "TFLOPS", "pflops": "PFLOPS", "ghz": "GHz",
    "loc": "LoC", "lines of code": "LoC", "lines": "LoC", "tokens": "tokens", "token": "tokens",
    "bits": "bit", "bit": "bit", "fold": "×",
    "seconds": "s", "second": "s", "secs": "s", "sec": "s", "minutes": "min", "minute": "min", "mins": "min",
    "hours": "h", "hour": "h", "hrs": "h", "days": "day", "day": "day", "weeks": "week", "week": "week",
    "months": "month", "month": "month",
}
"""Written ASCII unit (lower case) → normalised unit, matched case-insensitively as whole words
(a token rate is :data:`TOKEN_RATE`)."""

PER_DEVICE_NOUNS: tuple[str, ...] = ("gpu", "device", "card", "accelerator", "卡")
"""What a token rate is per when it is per accelerator (``tok/s/GPU``, ``tokens/s per card``,
``tok/s/卡``), in lower case: the end of a :data:`TOKEN_RATE` that is ``tok/s/GPU``."""

PER_STREAM_NOUNS: tuple[str, ...] = ("user", "request", "req", "sequence", "seq", "stream", "用户", "请求")
"""What a token rate is per when it is per user or request (``30 tok/s per user``, ``tok/s/req``): the
end of a :data:`TOKEN_RATE` that is ``tok/s/user``, a decode speed, never a system's rate."""

RATE_WORDS: tuple[str, ...] = ("per", "a", "an")
"""Words written for a rate's slash between a unit and a time (``3 GB per second``, ``200 tokens a
second``, ``188 miles an hour``): read as ``/`` before one of :data:`RATE_WORD_TIMES` only."""

RATE_WORD_TIMES: tuple[str, ...] = ("second", "sec", "minute", "min", "hour", "hr")
"""Times a rate word may stand before (``per second``, ``an hour``); not ``day``: ``8 hours a day`` is
a time, and a time per time no unit."""

NOT_A_RATE_AFTER: tuple[str, ...] = ("later", "earlier", "ago", "time", "times", "round", "pass", "run", "try",
                                     "attempt", "half")
"""Words after a time that make ``a second`` or ``an hour`` a time, not a rate's denominator (``2 GB a
second time``, ``200 tokens a second later``); a hyphen too (``3 GB per hour-long run``)."""

_PER_WORD = r"[ \t](?:" + "|".join(RATE_WORDS) + r")[ \t]"
"""A rate word between spaces, as a regex (``per`` of ``tokens per second``)."""
_TIME_END = r"(?![A-Za-z0-9_-])(?![ \t]+(?:" + "|".join(NOT_A_RATE_AFTER) + r")(?![A-Za-z]))"
"""The end of the time after a rate word, as a regex (:data:`NOT_A_RATE_AFTER`)."""
RATE_WORD = _PER_WORD + "(?=(?:" + "|".join(RATE_WORD_TIMES) + ")" + _TIME_END + ")"
"""A rate word between a unit and a time, as a regex (``per`` of ``3 GB per second``): read as the slash
of ``3 GB/s`` (:func:`kb.extract.numbers.per_unit`), the time after it not included."""

TOKEN_RATE = (r"tok(?:ens?)?(?:[ \t]?/[ \t]?(?:s|secs?|seconds?)|" + _PER_WORD + r"(?:second|sec)" + _TIME_END + r"|[ \t·]s(?:⁻¹|\^-1))"
              r"(?:(?:[ \t]?/[ \t]?|[ \t]per[ \t])(?:" + "|".join((*PER_DEVICE_NOUNS, *PER_STREAM_NOUNS)) + "))?")
"""How a token rate is written after a number, matched case-insensitively as a whole word:
``tok/s``, ``tokens/sec``, ``token/s``, ``tokens per second``, ``tokens a second`` (:data:`RATE_WORDS`), with spaces round its slash (``500 tok /
s``) or as a power (``378 tok·s⁻¹``, ``379 tokens s^-1``) → ``tok/s``; per accelerator
(``369 tok/s/GPU``, ``370 tokens/s per GPU``, ``tokens/sec/card``, ``tok/s/卡``) → ``tok/s/GPU``,
kb's own unit, never compared with a whole system's rate (so is a token rate after
:data:`PER_DEVICE_BEFORE`); per user or request (``30 tok/s per user``) → ``tok/s/user``."""

REQUEST_RATE = (r"(?:req(?:uest)?s?|quer(?:y|ies))(?:[ \t]?/[ \t]?(?:s|secs?|seconds?)|" + _PER_WORD + r"(?:second|sec)"
                + _TIME_END + ")")
"""How a request rate is written after a number, matched case-insensitively as a whole word:
``requests/s``, ``req/sec``, ``requests per second``, ``queries a second`` → ``req/s`` (as ``req/s``,
``QPS``, ``RPS`` of :data:`ASCII_UNITS_CI`)."""

PER_STREAM_BEFORE: tuple[str, ...] = ("每用户", "每个用户", "per-user", "per user", "每请求", "每个请求",
                                      "per-request", "per request", "per-sequence", "per sequence")
"""Words before a token rate, in its clause, that make it a rate per user or request (``per-user
throughput 30 tok/s``, ``每用户解码速度 35 tok/s`` → ``tok/s/user``). Not 单用户/单请求: a single user's
rate is a set-up (``单用户解码吞吐为 12 tok/s`` is the system's rate serving one user)."""

PER_DEVICE_BEFORE: tuple[str, ...] = ("每卡", "单卡", "每张卡", "每 GPU", "每GPU", "单 GPU", "单GPU", "per-GPU", "per GPU",
                                      "per-device", "per device", "per-card", "per card", "per accelerator")
"""Words before a token rate, in its clause, that make it a rate per accelerator (``每卡吞吐 502
tok/s``, ``per-GPU throughput 506 tok/s``, ``throughput per GPU: 509 tok/s`` → ``tok/s/GPU``)."""

COUNTED_NOUNS: tuple[str, ...] = (
    "frames", "configurations", "configs", "images", "videos", "samples", "sequences", "prompts", "queries",
    "tasks", "benchmarks", "datasets", "languages", "layers", "experts", "iterations", "epochs", "trials",
    "questions", "documents", "examples", "workloads", "scenarios", "domains", "steps", "turns", "episodes",
    "models", "agents",
)
"""English plural nouns that make a plain integer before them a count (``up to 64 frames``, ``across
79 configurations``, ``5 AI models``: one acronym may stand between): a quantity with no unit and no metric, never a fact; the noun is not kept (a
count of things, like ``25+ engines``)."""

ASCII_UNITS_CS: dict[str, str] = {"ms": "ms", "us": "us", "μs": "us", "µs": "us", "ns": "ns", "s": "s", "min": "min",
                                  "h": "h", "FLOPs": "FLOPs"}
"""ASCII units whose case matters (``MS``, ``H`` are not units; ``M`` is a magnitude)."""

NOT_HYPHENATED: frozenset[str] = frozenset({"s", "min", "h", "day", "week", "month"})
"""Units (normalised) of :data:`ASCII_UNITS_CI` and :data:`ASCII_UNITS_CS` never read after a hyphen:
a hyphenated time of a second or longer is an event's length (``a 2-day outage``), read only before a
simulation word (``a 5-week simulation``, :mod:`kb.extract.en_quantities`); every other unit of kb's
words may be hyphenated to a number (``a 10-ms SLO``, ``an 80-GB card``, ``32K-token``, ``3-fold``;
``16-bit`` is a width, an adjective, no quantity: :func:`kb.extract.quantities.find_quantities`)."""

KB_OWN: frozenset[str] = frozenset({"%", "‰", "pp", "×", "tok/s", "tok/s/GPU", "tok/s/user", "req/s", "LoC", "tokens", "bit", "$", "¥", "£", "€", "HK$",
                                    "+", "devices", "FLOPs", "星",
                                    "GFLOPS", "TFLOPS", "PFLOPS", *COUNTER_CHARS})
"""kb's own units as stored, which convert to nothing else (never looked up in pint: the
field's words, DESIGN.md §2)."""

NOT_UNITS: frozenset[str] = frozenset(
    "A B C D E F G H I K L M N P Q R S T U X Y Z a b c d e f i j k l n o p q r t u v w x y z "
    "am an as at be by do go he if in is it me my no of on or pm so to up us we the and for per via vs "
    "are bar dB dBm dBi ppm ppb pt ct ch px dpi ppi bit bits stone stones barn barns Ms Gs Ts Ps Es Mb Gb Tb kb count point points line lines turn turns cycle cycles drop drops "
    "hand chain link links stone grain shot cord pixel pixels dozen gross rad sr pts fps pcs cts st nd rd th".split()
)
"""Words after a number that are no unit to pint here (the issue's false units): a single letter
is a magnitude or a model size in this field (3 B params, 8 K context, 2 T tokens, 5 M users), an
English word (a, at, in, on …) is never a unit, and ``dB``/``ppm`` are ratios kb does not convert;
``pts`` are points (not pints), ``fps`` frames per second (not feet), ``pcs`` pieces (not parsecs);
``st``, ``nd``, ``rd``, ``th`` end an ordinal (``2nd`` is no nanoday, ``3rd`` no rod)."""

PINT_NAMES: dict[str, str] = {
    "KB": "kilobyte", "MB": "megabyte", "GB": "gigabyte", "TB": "terabyte", "PB": "petabyte",
    "KiB": "kibibyte", "MiB": "mebibyte", "GiB": "gibibyte", "TiB": "tebibyte",
    "KB/s": "kilobyte/second", "MB/s": "megabyte/second", "GB/s": "gigabyte/second", "TB/s": "terabyte/second",
    "KiB/s": "kibibyte/second", "MiB/s": "mebibyte/second", "GiB/s": "gibibyte/second", "TiB/s": "tebibyte/second",
    "bps": "bit/second", "Kbps": "kilobit/second", "kbps": "kilobit/second", "Mbps": "megabit/second",
    "Gbps": "gigabit/second", "Tbps": "terabit/second", "us": "microsecond", "μs": "microsecond",
    "µs": "microsecond", "°C": "degree_Celsius", "℃": "degree_Celsius", "°F": "degree_Fahrenheit",
    "PB": "petabyte", "EB": "exabyte", "L": "liter", "mL": "milliliter", "day": "day", "week": "week", "month": "month", "year": "year", "years": "year", "yr": "year",
}
"""Written unit → pint's name, for forms pint does not read as the field means them."""

UPPER_UNITS: frozenset[str] = frozenset("W V J N KB MB GB TB PB EB GW MW TW PW GV MV GJ MJ TJ PJ GN MN".split())
"""All-capital units (other capitals are acronyms of the field: PT, ML, ET, CI, HBM, GPU)."""

NAME_ENDINGS: tuple[str, ...] = (
    "second", "meter", "metre", "gram", "byte", "bit", "watt", "hertz", "pascal", "joule", "volt", "ampere",
    "kelvin", "celsius", "fahrenheit", "liter", "litre", "minute", "hour", "day", "week", "month", "year",
    "newton", "ohm", "electronvolt", "calorie", "mile", "foot", "feet", "inch", "yard", "degree", "radian",
    "tesla", "gauss", "farad", "coulomb", "henry", "siemens", "weber", "lumen", "lux", "mole", "candela",
    "parsec", "gallon", "ounce", "pound", "ton", "tonne", "atmosphere", "torr", "psi", "knot", "erg",
)
"""Unit names a written-out unit word ends with (``kilometers``, ``terabytes``, ``megawatts``): a
word ending in none of them is no unit, decided without building pint's registry (0.5 s)."""

MIXED_SYMBOLS: frozenset[str] = frozenset(
    "GiB MiB TiB KiB PiB EiB GB MB TB KB PB kB MPa GPa kPa hPa GHz MHz kHz THz keV MeV GeV TeV meV "
    "Gbps Mbps Tbps Kbps kbps mAh kWh MWh GWh TWh kW MW GW TW mW nW pW Wh Mb Gb Tb kg mg μg Gy Sv Bq cd".split())
"""Unit symbols written in mixed case (other mixed-case words are names: vLLM, SGLang, arXiv)."""

PER_SECOND_BEFORE: tuple[str, ...] = ("每秒钟", "每秒")
"""zh words before a token count that make it a rate (``每秒 3,200 个 token`` → 3,200 ``tok/s``)."""
