"""kb.facts.values: the one decision of whether two stated values are the same."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kb.core.claims import DateRef, Quantity
from kb.lint.kbfacts import PaperFact
from kb.facts.values import close, date_prefix, same_date, same_value

TOL = 0.02
SRC = Path(__file__).resolve().parents[1] / "src" / "kb"


def q(value: float | None = None, unit: str | None = "%", *, low: float | None = None, high: float | None = None,
      bound: str | None = None) -> Quantity:
    return Quantity(raw="x", value=value, low=low, high=high, unit=unit, bound=bound)


def d(value: str, precision: str) -> DateRef:
    return DateRef(raw=value, value=value, precision=precision)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        # points, relative tolerance 2 %
        (q(2.03, "×"), q(2.05, "×"), True),
        (q(2.03, "×"), q(2.31, "×"), False),
        (q(100.0), q(102.0), True),
        (q(100.0), q(102.1), False),
        (q(0.0), q(0.0), True),
        # signs from wording are magnitudes
        (q(-30.0), q(30.0), True),
        # units: must match or convert (120 ms = 0.12 s; bytes)
        (q(0.12, "s"), q(0.12, "s"), True),
        (q(120.0, "ms"), q(0.12, "s"), True),
        (q(0.12, "s"), q(120.0, "ms"), True),
        (q(120.0, "ms"), q(0.2, "s"), False),
        (q(1.0, "GiB"), q(1073741824.0, "B"), True),
        (q(1.0, "GiB"), q(1.0, "GB"), False),  # 2**30 vs 10**9 bytes: 7 % apart
        (q(25.0, "°C"), q(77.0, "°F"), True),
        (q(30.0, "%"), q(30.0, "pp"), False),
        (q(2.0, "×"), q(2.0, "%"), False),
        (q(2.0, None), q(2.0, "%"), False),
        (q(2.0, None), q(2.0, None), True),
        # a point and a range: inside the range widened by the tolerance
        (q(75.0), q(low=73.6, high=77.1), True),
        (q(low=73.6, high=77.1), q(78.0), True),
        (q(79.0), q(low=73.6, high=77.1), False),
        (q(-75.0), q(low=-77.1, high=-73.6), True),
        # two ranges: both ends
        (q(low=1.29, high=2.06, unit="×"), q(low=1.3, high=2.05, unit="×"), True),
        (q(low=70.0, high=80.0), q(low=73.6, high=77.1), False),  # overlap is not sameness
        # bounds: consistent is the same
        (q(80.0, bound=">"), q(85.0), True),
        (q(85.0), q(80.0, bound=">"), True),
        (q(80.0, bound=">"), q(70.0), False),
        (q(80.0, bound=">"), q(80.0), True),
        (q(80.0, bound=">"), q(90.0, bound=">"), True),
        (q(100.0, "LoC", bound="<"), q(200.0, "LoC", bound=">"), False),
        (q(100.0, "LoC", bound="<"), q(60.0, "LoC"), True),
        (q(7.0, "×", bound="≥"), q(6.0, "×"), False),
        (q(2.0, "×", bound="≤"), q(low=1.5, high=3.0, unit="×"), True),
        (q(32000.0, "tokens", bound="≤"), q(40000.0, "tokens"), False),
        (q(3000.0, None, bound="~"), q(3050.0, None), True),  # ~ is a point with the tolerance
        (q(3000.0, None, bound="~"), q(3300.0, None), False),
        # a value with no number is never the same
        (q(None), q(None), False),
    ],
)
def test_same_value_numbers(a: Quantity, b: Quantity, same: bool) -> None:
    assert same_value(a, b, TOL) is same
    assert same_value(b, a, TOL) is same  # symmetric


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (d("2026-03", "month"), d("2026-03-21", "day"), True),
        (d("2025-12", "month"), d("2026-01", "month"), False),
        (d("2026", "year"), d("2026-07-31T16:30", "minute"), True),
        (d("2026-07-31T16:30", "minute"), d("2026-07-31T16:31", "minute"), False),
        (d("2026-03-21", "day"), q(2026.0, None), False),  # a date is no number
    ],
)
def test_same_value_dates(a, b, same: bool) -> None:  # noqa: ANN001
    assert same_value(a, b, TOL) is same
    assert same_value(b, a, TOL) is same


def test_paper_fact_and_quantity_compare() -> None:
    card = PaperFact(unit="%", metric="accuracy", value=None, low=73.6, high=77.1, path="c.md", line=3)
    assert same_value(q(76.0), card, TOL) is True
    assert same_value(q(72.0), card, TOL) is False


def test_helpers() -> None:
    assert date_prefix("2026-03-21", "month") == "2026-03"
    assert date_prefix("2026-03-21", None) == "2026-03-21"
    assert same_date("2026-03", "month", "2026-03-21", "day") is True
    assert close(100.0, 102.0, 0.02) is True and close(100.0, 102.1, 0.02) is False


def test_one_definition() -> None:
    """grep finds one definition of value sameness and of the precision table."""
    defs = []
    for p in SRC.rglob("*.py"):
        text = p.read_text(encoding="utf-8")
        for pat in (r"^def (same_value|_differ|_interval)\b", r"\"minute\": 16"):
            defs += [(p.name, m.group(0)) for m in re.finditer(pat, text, re.MULTILINE)]
    assert sorted(defs) == [("values.py", "\"minute\": 16"), ("values.py", "def _interval"), ("values.py", "def same_value")]
