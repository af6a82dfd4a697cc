"""Words around a number that change what it says: decrease words (a percentage after one is
negative), the neutral words that may stand between, words that qualify a metric, change words
(``raises … from 3.1 to 4.4`` is a change, not a range) and figure, table or section words (``Fig.
7`` is no quantity).

Data only, as regex fragments in zh and en: :mod:`kb.extract.number_words` joins them into its
patterns (an English word is matched as a whole word, case-insensitively). The words come from the
seeds (``准确率仅下降 0.27``, ``流量下降 73.6%–77.1%``), C17 and issues 8 and 9.
"""

from __future__ import annotations

DECREASE_WORDS_ZH: tuple[str, ...] = ("下降", "降低", "减少", "缩短", "减小", "下滑", "回落", "下跌", "缩水", "节省", "节约", "(?<!升)降", "跌")
"""zh words before a number that make an unsigned ``%`` or ``pp`` value negative (``下降 0.27 个百分点``)."""

DECREASE_WORDS_EN: tuple[str, ...] = ("drop(?:s|ped)?", "decrease[sd]?", "reduce[sd]?", "reduction", "lower(?:s|ed)?",
                                      "down", "cut(?:s)?", "fall(?:s|en)?", "fell", "decline[sd]?", "dip(?:s|ped)?",
                                      "shr[iau]nk(?:s)?", "slash(?:es|ed)?", "sav(?:e[sd]?|ing)",
                                      "degrad(?:e[sd]?|ing)")
"""en words that do the same (``reduces TTFT by 30%``, ``down 12%``, ``falls by 4%``, ``declined 3%``, ``saves 30%
memory``: a saving is a decrease of what is saved)."""

DECREASE_AFTER_WORDS: tuple[str, ...] = ("lower", "less", "fewer", "smaller", "reduction", "decrease", "drop", "savings?")
"""en words after a number that make it a decrease (``30% lower latency``)."""

NEUTRAL_WORDS_ZH: tuple[str, ...] = ("约为", "约", "仅", "了", "高达", "达", "超过", "近", "平均", "均", "分别为", "分别")
"""zh words that may stand between a decrease word and its number (besides one metric phrase)."""

NEUTRAL_WORDS_EN: tuple[str, ...] = ("by", "of", "about", "around", r"approx\.?", "approximately", "only", "just",
                                     "nearly", "over", "more than", "less than", "up to", "at least", "at most",
                                     "as much as")
"""en words that may stand there (``reduced by about 20%``); no increase word, no "to"."""

METRIC_MODIFIERS_ZH: tuple[str, ...] = ("解码", "推理", "预填充", "端到端", r"首\s*token", "尾部")
"""zh words that qualify a metric phrase between a decrease word and its number (``降低解码延迟 20%``):
set-up and stage words only, never a verb."""

METRIC_MODIFIERS_EN: tuple[str, ...] = (
    "the", "its", "their", "mean", "median", "average", "avg", "overall", "end-to-end", "e2e", "decoding", "decode",
    "prefill", "first-token", "per-token", "tail", "inference", "serving", "generation", "number of", "amount of",
    "count of", "share of", "fraction of",
)
"""en words that do the same (``reduces decoding latency by 20%``, ``cuts the end-to-end TTFT by 27%``)."""

NOUN_GAP_STOPS_EN: tuple[str, ...] = (
    "and", "or", "but", "while", "whereas", "then", "also", "yet", "so", "with", "without", "to", "from", "at",
    "in", "on", "for", "of", "than", "vs", "by", "per", "is", "are", "was", "were", "be", "been",
    "about", "around", "nearly", "roughly", "approximately", "only", "just", "over", "under", "up", "more",
    "less", "least", "most", "not", "no",
)
"""Words that are never one of the nouns a metric phrase may have around it after a decrease word
(``cuts attention latency by 22%``, ``reduces memory usage by 30%``): conjunctions, prepositions,
verbs of being, hedges and bounds, so that ``reduces memory and raises throughput by 20%`` stays
an increase."""

NOUN_GAP_STOPS_ZH: str = "并和与及而但且同再又还也把将被使让给对向从由到至以于为是"
"""Characters that are never in the zh nouns before a metric phrase after a decrease word
(``降低注意力延迟 22%``): conjunctions, coverbs and copulas (``降低显存并提升吞吐 20%`` stays an
increase)."""

CHANGE_WORDS_ZH: tuple[str, ...] = ("提升", "提高", "增加", "增长", "上升", "下降", "降低", "减少", "缩短", "缩小", "压缩", "扩大",
                                    "改善", "变化")
"""zh change words before "从/由 A 到 B" in its clause: a change A → B, not a range."""

CHANGE_WORDS_EN: tuple[str, ...] = (
    "rais(?:e[sd]?|ing)", "increas(?:e[sd]?|ing)", "improv(?:e[sd]?|ing|ement)", "boost(?:s|ed)?", "lift(?:s|ed)?",
    "grow(?:s|n)?", "grew", "rise[sn]?", "rising", "rose", "jump(?:s|ed)?", "climb(?:s|ed)?", "cut(?:s|ting)?",
    "reduc(?:e[sd]?|ing|tion)", "lower(?:s|ed)?", "drop(?:s|ped)?", "decreas(?:e[sd]?|ing)", "fall(?:s|en)?", "fell",
    "shr[iau]nk(?:s)?", "shorten(?:s|ed)?", "change[sd]?", "went", "goes", "gain(?:s|ed)?",
)
"""en change words before "from A to B" (``raises … from 3.1 to 4.4``); without one, ``models from
400 million to 8B parameters`` is a range."""

REF_WORDS_EN: tuple[str, ...] = (
    "fig(?:ure)?s?", "tab(?:le)?s?", "sec(?:tion)?s?", "eqs?", "equations?", "alg(?:orithm)?s?", "appendix", "steps?",
    "chapters?", "ch", "thm", "theorem", "lemma", "def(?:inition)?", "ref", "no", "item", "page", "p", "pp", "line",
)
"""en words before a figure, table, section, equation, step or list number (``Fig. 7``, ``Table 3``,
``Sec. 4``, ``Eq. (2)``): that number is no quantity."""

REF_WORDS_ZH: tuple[str, ...] = ("[表图式节]", "步骤", "公式", "附录", "章")
"""zh words that do the same (``表 2``, ``图 5``, ``步骤 3``)."""

ONE_TIMES_VERBS: tuple[str, ...] = ("快", "提升", "提高", "增加", "增长", "加快", "加速", "扩大", "翻", "高", "多", "大")
"""zh change words before ``一倍`` (``快了一倍``, ``提升一倍``, ``翻一倍``): the value doubled, 2× (a
change of 1× would be none; docs/claims.md says which reading kb takes of ``N 倍``)."""

HALF_VERBS: tuple[str, ...] = ("减少", "降低", "下降", "缩短", "减小", "节省", "节约", "降", "提升", "提高", "增加",
                               "增长")
"""zh change words before ``一半`` (``减少了一半``, ``TTFT 降低一半``, ``显存节省一半``): a change of 50 %
(a decrease word makes it −50 %, as it does any percentage: only words whose sign kb reads, so no
省/少); ``一半`` alone (``一半的请求``) is no figure."""

HALF_BEFORE_UNITS: dict[str, str] = {"小时": "h", "钟头": "h", "月": "month", "星期": "week", "礼拜": "week"}
"""zh time words after ``个半`` (``1个半小时``, ``两个半月``: N and a half of them), as kb's units."""

HALF_AFTER_UNITS: dict[str, str] = {"年": "year", "天": "day", "周": "week", "星期": "week", "小时": "h",
                                    "分钟": "min", "秒钟": "s", "秒": "s"}
"""zh time words before ``半`` (``一年半``, ``三天半``: N and a half of them), as kb's units."""

HALF_SCHEDULE_AFTER: tuple[str, ...] = ("后", "前", "以后", "以前", "载")
"""Words after such a time that make it no measured duration: a point in time (``三天半后``) or an
idiom (``一年半载``, about a year)."""

BOUND_WORDS_ZH: dict[str, tuple[str, ...]] = {
    "ge": (">=", "≥", "⩾", "至少", "最少", "不少于", "不低于"),
    "le": ("<=", "≤", "⩽", "不超过", "不高于", "最多", "最高", "高达", "多达"),
    "gt": (r"(?<![-=])>", "超过", "超出", "多于", "大于", "高于", "超", "逾"),
    "lt": (r"<(?![-=])", "不到", "不足", "少于", "小于", "低于"),
    "approx": (r"(?<![\d~])~", "≈", "约为", "大约", "约", "大概", r"(?<!最)近", "将近", "接近"),
}
"""Bound words (and symbols) written before a number, by the bound they give (``≥ ≤ > < ~`` of
:attr:`kb.core.claims.Quantity.bound`): ``至少 4 倍``, ``超80%``, ``不到 5%``, ``约 3 千``. Regex
fragments; a longer word before its prefix (``超过`` before ``超``)."""

BOUND_PARTICLES_ZH: tuple[str, ...] = ("(?<!约)了", "有")
"""zh particles that may stand between a bound word and its number and leave the bound as it is
(``超过了 30%`` is ``超过 30%``: >; ``至少有 8 张 A100`` is ``至少 8 张``: ≥). Regex fragments: ``约了``
is a verb (``约了 3 个人``, made a date with three), no bound."""

BOUND_WORDS_EN: dict[str, tuple[str, ...]] = {
    "ge": ("at least",),
    "le": ("up to", "at most", "within", "no more than", "(?:tops|topped|peaks|peaked) out at", "peaks? at", "peaked at"),
    "gt": ("over", "more than", "greater than", "above", "exceed(?:s|ing)?", "tops", "topped", "topping"),
    "lt": ("under", "less than", "fewer than", "below"),
    "approx": ("about", "around", r"approx\.?", "approximately", "roughly", "nearly", "almost", "circa"),
}
"""The same in English, matched as whole words (``up to 3×``, ``by under 1%``)."""

BOUND_AFTER_WORDS: dict[str, tuple[str, ...]] = {"le": ("以内", "以下", "之内"), "ge": ("以上",),
                                                 "gt": ("多(?![卡个张台块种项条位名])",),
                                                 "approx": ("左右", "上下(?!文)")}
"""zh bound words written after a number (``32K 以内``, ``99% 以上``, ``3 千左右``, ``两倍多``: more
than 2×, not before a counter: ``2 倍多卡`` is no bound); after the last value of a list they bound
every value (``分别在 300 ms 和 20 ms 以内``: both ≤)."""

LEVEL_BOUND_WORDS_EN: tuple[str, ...] = ("under", "below", "above", "within")
"""English bound words that after a decrease word name the level reached, not the size of the
change (``falls below 5%`` is a level), unless ``by`` stands before them (``drops by under 1%``:
a change of less than 1 %)."""

BOUND_VERBS_ZH: tuple[str, ...] = ("减少", "降低", "提升", "提高", "增加", "缩短", "加快", "下降", "上升", "压缩")
"""zh verbs that may stand between a bound word and its number (``至少减少 7 倍``, ``不到 … 降低``)."""

BETWEEN_OPEN: tuple[str, ...] = ("between", "介于", "在")
"""Words that open a range written ``between A and B`` (``between 40 and 55 ms``, ``介于 40 和 55 ms
之间``, ``在 2 到 3 GB 之间``); ``在`` only with :data:`BETWEEN_CLOSE` after the second end."""

BETWEEN_AND: tuple[str, ...] = ("and", "和", "与", "到", "至", "-", "–", "~")
"""Words that join the two ends of such a range."""

BETWEEN_CLOSE: tuple[str, ...] = ("之间",)
"""Words that close such a range (zh)."""

RESPECTIVELY_BEFORE: tuple[str, ...] = ("分别", "各自")
"""Words between a list of metric words and a list of values that pair them in order (``TTFT 和 TPOT
分别为 300 ms 和 20 ms``: the first value is the TTFT, the second the TPOT)."""

RESPECTIVELY_AFTER: tuple[str, ...] = ("respectively",)
"""The English word after the values that does the same (``TTFT and TPOT are 300 ms and 20 ms,
respectively``)."""

TIMES_WORDS_EN: dict[str, float] = {"doubl(?:e[sd]|ing)": 2.0, "tripl(?:e[sd]|ing)": 3.0, "quadrupl(?:e[sd]|ing)": 4.0}
"""English verbs that say a ratio (``throughput doubled`` → 2 ``×``, like 翻倍): a quantity only with a
metric word right beside them (``the team doubled`` gives none); the verb forms only (``double precision``
is no ratio)."""

TO_VERBS_ZH: tuple[str, ...] = ("提升", "提高", "增加", "增长", "上升", "下降", "降低", "减少", "减小", "缩短", "缩小", "压缩", "扩大",
                                "扩展", "延长", "下滑", "回落", "更正", "修正", "调整", "改", "调", "提", "降", "升", "增", "减", "涨", "跌")
"""zh change verbs that, with 到/至/为 after them, join the two ends of a change A → B (``由 320 ms 降到 210
ms``, ``上下文从 32K 扩展到 128K``); a longer verb before its first character alone."""

TO_WORDS_ZH: tuple[str, ...] = ("变为", "变成", "改成", "调成")
"""zh change words that join the two ends of a change A → B as they are (``并发上限由 64 改成 128``)."""

RANGE_WORDS_EN: tuple[str, ...] = ("rang(?:e[sd]?|ing)", "var(?:y|ies|ied|ying)", "spann?(?:s|ed|ing)?")
"""en words before "from A to B" that make it a range even with a unit on both ends (``speedups ranging from
1.2x to 2.1x``, ``latency varies from 80 ms to 120 ms``)."""

ACCELERATOR_MODELS = r"[A-Z]{1,3}\d{2,4}[A-Z]?|RTX[ \t]?\d{4}|MI\d{3}X?"
"""An accelerator's model as a count is written before it (``4 张 A100``, ``on 8 H100s``, ``2×MI300X``,
``8 x RTX 4090``): with such a count the number is the set-up's device count, never a figure."""
