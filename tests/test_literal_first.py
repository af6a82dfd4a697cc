"""Boundary patterns written with a literal first in every alternative (re skips in C to the next;
a class or a look-behind first, it tried every position): the same matches as their former forms,
in any window (pos, endpos) of the texts tried."""

from __future__ import annotations

import random
import re

from kb.extract.bind import _CLAUSE_END, _SENTENCE_END
from kb.extract.metrics import _BOUNDARY

_FORMER = [
    (_BOUNDARY, re.compile(r"[;。!?！？:\n|()\[\]【】、]|(?<!\d),|,(?!\d)|\.(?![\dA-Za-z])")),
    (_SENTENCE_END, re.compile(r"[。!?！？\n]|\.(?![\dA-Za-z])")),
    (_CLAUSE_END, re.compile(r"[，,；;。!?！？\n|]|\.(?![\dA-Za-z])")),
]


def test_the_literal_first_boundaries_match_as_their_former_forms() -> None:
    rnd = random.Random(1)
    pieces = [*";。!?！？:\n|()[]【】、,.，；", "1", "a", "A", " ", "吞", "1,2", "x.y", "3.5", "v0.11", "llama.cpp"]
    found = 0
    for _ in range(30000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 15)))
        a, b = sorted((rnd.randint(0, len(text)), rnd.randint(0, len(text))))
        for new, old in _FORMER:
            got = [m.span() for m in new.finditer(text, a, b)]
            assert got == [m.span() for m in old.finditer(text, a, b)], text
            found += len(got)
    assert found == 106457  # (the seed's texts: boundaries in most windows)
    assert [m.start() for m in _BOUNDARY.finditer("吞吐 1,300 tok/s, 延迟 3.5 ms. v0.11 (llama.cpp)")] == [14, 25, 33, 43]
