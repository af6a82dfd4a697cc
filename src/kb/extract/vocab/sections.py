"""Words that file a claim under a section of the living doc (``建议归入 §2.3``, ``file under
§4``): a filing hint, read by :func:`kb.extract.sections.hinted_section`.

Data only, as regex fragments. The union of the two lists the parser and the diff kept apart
until issue 19: the seeds' and testers' wording (建议归入/归位/补入, 建议补到, 建议放入 …) and the
English forms of the design card.
"""

from __future__ import annotations

HINT_WORDS: tuple[str, ...] = (
    "建议(?:归入|归位|补入|补到|补充到|写入|放入|并入|收入|入)", "归入", "归位", "补入", "写入",
    "建议补[:：]?[^§\\n。；]{0,24}?入(?=\\s*§)",  # ★★ 建议补：TreeSpec 入 §2 (a rating, then where it goes)
    "suggested section", "file under", "belongs in", "add to",
)
"""Words before a ``§`` number that make it where the claim belongs (case-insensitive)."""

SECTION_METRIC_WORDS: dict[str, tuple[str, ...]] = {
    "cost": ("价格", "租赁", "定价", "成本", "price", "prices", "pricing", "rental", "cost", "costs"),
    "throughput": ("吞吐", "throughput"),
    "ttft": ("TTFT", "首 token"),
    "energy": ("能耗", "energy"),
}
"""Words of a doc section's title that name a metric: ``§6.1 GPU 租赁价格`` is where a GPU's cost
goes (read by the brief's placement, :mod:`kb.night.placement`). Only these: a metric phrase
of the parser (``memory``) may name something else in a title (``Memory for LLMs``)."""
