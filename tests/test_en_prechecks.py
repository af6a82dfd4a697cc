"""The hints before the English forms' scans (kb.extract.en_quantities): a text they pass over holds
no match of the pattern they guard."""

from __future__ import annotations

import random

from kb.extract.en_quantities import _FRACTION, _FRACTION_HINT, _GLUED_TEMP, _GLUED_TEMP_HINT, en_forms


def test_the_fraction_and_temperature_hints_hold_every_match() -> None:
    rnd = random.Random(7)
    pieces = ["1", "12", " ", "/", "-", "+", "C", "F", ".", "5", "a", "吞吐", "1/2", " 1 1/2 h", "-5C", "+3.5F", "x"]
    matched = 0
    for _ in range(20000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 10)))
        for pattern, hint in ((_FRACTION, _FRACTION_HINT), (_GLUED_TEMP, _GLUED_TEMP_HINT)):
            if pattern.search(text) is not None:
                matched += 1
                assert hint.search(text) is not None, text
    assert matched == 7991  # (the seed's texts: both forms often)
    assert [(f["value"], f["unit"]) for f in en_forms("over 1 1/2 h at -5C")] == [(5400.0, "s"), (-5.0, "°C")]
