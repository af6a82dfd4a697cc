"""The mood of a whole line (issue 22): an author's caveat or request about the item it is
about, apart from the figure moods of :func:`kb.extract.kinds.moods`.

* ``demote``: the author keeps the item out of tonight's increments (``这组数只能看个趋势``,
  ``暂不进活文档``, ``仓库地址待确认``; ``just a trend``, ``don't promote yet``);
* ``lead``: only a lead (``仅作线索``, ``lead only``);
* ``hold``: the rating stays where it is (``先别升级评级``, ``暂不升档``): about the rating only,
  the item stays an increment;
* ``evaluate``: a request to judge (``值不值得升档请晚班判断``, ``please judge whether …``).

The words are :data:`kb.extract.vocab.kinds.DEMOTE_CUES`, ``LEAD_CUES``, ``HOLD_CUES`` and
``EVALUATE_CUES``.
"""

from __future__ import annotations

import re
from typing import Literal

from kb.extract.vocab.kinds import DEMOTE_CUES, EVALUATE_CUES, HOLD_CUES, LEAD_CUES

LineMood = Literal["demote", "lead", "hold", "evaluate"]

_LINE_MOOD_RE = re.compile("|".join(
    f"(?P<{name}>{'|'.join(words)})" for name, words in
    (("demote", DEMOTE_CUES), ("lead", LEAD_CUES), ("hold", HOLD_CUES), ("evaluate", EVALUATE_CUES))))


def line_mood(text: str) -> tuple[LineMood, str] | None:
    """The mood of ``text`` (one line) and the words that say it, else None. A demotion
    outranks a lead, a lead a rating hold, a hold a request (``先别升级评级，值不值得升档请晚班判断``
    holds the rating; only ``demote`` and ``lead`` move an item out of the increments).

    >>> line_mood("这组数只能看个趋势，暂不进活文档")
    ('demote', '只能看个趋势')
    >>> line_mood("Lead only; please judge whether it is worth a card.")
    ('lead', 'lead only')
    """
    low = text.lower()
    found: dict[str, str] = {}
    for m in _LINE_MOOD_RE.finditer(low):
        name = m.lastgroup or ""
        found.setdefault(name, text[m.start():m.end()])
    for name in ("demote", "lead", "hold", "evaluate"):
        if name in found:
            return name, found[name]  # type: ignore[return-value]
    return None
