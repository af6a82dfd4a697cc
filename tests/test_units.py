"""kb.extract.units: the table of common units saves pint's 0.5 s start and decides nothing.

Every entry of :data:`kb.extract.units._COMMON` must equal pint's own reading of the same
expression, so a night that writes only common units (ms, GiB, Wh, tok/s) never builds the
registry and still gets pint's answer to the last digit.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from kb.extract import units


@pytest.mark.parametrize("expr", sorted(units._COMMON))
def test_common_table_is_pints_reading(expr: str) -> None:
    assert units._COMMON[expr] == units._pint_lookup(expr, compound=False) == units._pint_lookup(expr, compound=True)


@pytest.mark.parametrize("word", sorted(w for w in units._COMMON if w.isalpha() and w.islower() and len(w) >= 4))
def test_common_words_are_names_pint_spells_out(word: str) -> None:
    readings = units.registry().parse_unit_name(word)
    assert any(word.startswith(prefix) for prefix, _, _ in readings)


def test_common_units_do_not_build_the_registry() -> None:
    code = (
        "from kb.extract import units as u\n"
        "got = [u.canonical(t) for t in ('ms', 'GiB', 'Wh', 'kWh', 'Gbps', 'hours', 'µs', 'TB/s', '°C')]\n"
        "print(u._REGISTRY is None, [(c.unit, c.scale) for c in got])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ("True [('s', 0.001), ('B', 1073741824.0), ('J', 3600.0), ('J', 3600000.0), ('B/s', 125000000.0), "
                   "('s', 3600.0), ('s', 1e-06), ('B/s', 1000000000000.0), ('°C', 1.0)]")


def test_rare_units_still_ask_pint() -> None:
    assert units.canonical("keV") == units._pint_lookup("keV", compound=False)
    assert units.canonical("keV") is not None and units.canonical("keV").unit == "J"
