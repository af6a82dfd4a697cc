"""Physical and data units, from the pint units library: recognise, normalise, convert.

kb's own vocabulary (``%``, ``pp``, ``×``, ``tok/s``, ``req/s``, ``LoC``, CJK counters, ``$``)
lives in :mod:`kb.extract.vocab.units`; everything a physicist or an engineer writes after a
number (``ms``, ``GiB``, ``W``, ``°C``, ``MPa``, ``keV``, ``km s−1``, ``TB/s``, ``Gbps``) is
looked up here, in pint's registry, and stored in one *canonical* unit per dimension
(:data:`CANONICAL`): a time in ``s``, data in ``B`` (bytes), a data rate in ``B/s``, and so
on, so that ``120 ms`` and ``0.12 s`` are the same value.

Cost: importing pint and building its registry takes about half a second, so both happen on
the first lookup only (``kb --version`` and the no-change nightly path never pay), and every
lookup is cached per written token.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, NamedTuple

from kb.extract.vocab.units import (
    KB_OWN,
    MIXED_SYMBOLS,
    NAME_ENDINGS,
    NOT_UNITS,
    PINT_NAMES,
    UPPER_UNITS,
)

# Canonical unit per kind of quantity: (pint expression, unit as kb writes it). The first
# whose dimension matches is used; data and data rates are found from pint's base unit (bit).
_PREFERRED: tuple[tuple[str, str], ...] = (
    ("second", "s"), ("hertz", "Hz"), ("meter", "m"), ("meter/second", "m/s"),
    ("meter/second**2", "m/s^2"), ("kilogram", "kg"), ("watt", "W"), ("joule", "J"),
    ("pascal", "Pa"), ("degree_Celsius", "°C"), ("ampere", "A"), ("volt", "V"), ("ohm", "Ω"),
    ("newton", "N"), ("tesla", "T"), ("sievert", "Sv"), ("mole", "mol"), ("meter**2", "m^2"), ("liter", "L"), ("kilogram/meter**3", "kg/m^3"),
)
CANONICAL_UNITS: frozenset[str] = frozenset({shown for _, shown in _PREFERRED} | {"B", "B/s"})
"""Every canonical unit :func:`canonical` gives (one per dimension, so two differ in kind)."""
_EXPONENT = str.maketrans({"⁻": "-", "¹": "1", "²": "2", "³": "3", "⁴": "4", "·": "*", "⋅": "*"})
_POWER_RE = re.compile(r"(?<=[A-Za-zµμΩ°])(?:\*\*|\^)?(-?\d)(?!\d)")


class Canonical(NamedTuple):
    """A written unit in kb's canonical unit: ``value_canonical = scale * value + offset``."""

    unit: str
    """Canonical unit as stored in :attr:`kb.core.claims.Quantity.unit` (``s``, ``B``, ``B/s`` …)."""
    scale: float
    offset: float = 0.0
    """Non-zero for temperatures only (°F → °C)."""

    def apply(self, value: float) -> float:
        """``value`` in the canonical unit, rounded to 12 significant digits (0.12, not
        0.12000000000000001); a whole number at 15 digits is kept whole (``2 TiB`` is
        2199023255552 bytes, not 2199023255550)."""
        v = self.scale * value + self.offset
        whole = float(f"{v:.15g}")
        return whole if whole.is_integer() and abs(whole) >= 1e12 else float(f"{v:.12g}")


_REGISTRY: Any = None


def registry() -> Any:
    """pint's unit registry, built on the first call and kept (about 0.5 s with the import)."""
    global _REGISTRY
    if _REGISTRY is None:
        import pint

        _REGISTRY = pint.UnitRegistry(cache_folder=None)
    return _REGISTRY


def _expression(token: str) -> str:
    """pint expression of a written unit: ``km s-1`` → ``km*s**-1``, ``m s⁻²`` → ``m*s**-2``."""
    t = token.translate(_EXPONENT).replace("−", "-")
    t = _POWER_RE.sub(lambda m: "**" + m.group(1), t)
    return re.sub(r"\s+", "*", t.strip())


@lru_cache(maxsize=4096)
def canonical(token: str) -> Canonical | None:
    """The canonical unit of a unit written after a number, or None when it is none here.

    :param token: a unit as written after a number: ``ms``, ``GiB``, ``km s-1``, ``°C``,
        ``TB/s``, ``Gbps``; the parser folds U+2212 to ``-`` first.
    :returns: :class:`Canonical` (``ms`` → ``("s", 0.001)``, ``GiB`` → ``("B", 1073741824)``,
        ``Gbps`` → ``("B/s", 1.25e8)``, ``°F`` → ``("°C", 5/9, -160/9)``), or None for a word
        that is no unit after a number in this field (:data:`NOT_UNITS`: single letters such
        as ``B`` of ``3 B`` params and ``K`` of ``8 K`` context, English words, ``dB``) and
        for anything pint cannot parse or that has no dimension (``percent``).
    """
    name = PINT_NAMES.get(token)
    if name is None and " " in token and (worded := _WORDED.fullmatch(token)) is not None:
        return _worded(worded)
    if not token or (name is None and (token in NOT_UNITS or (token.isupper() and token not in UPPER_UNITS))):
        return None  # an acronym (PT, ML, CI, HBM) is not peta-tesla nor a megalitre
    if name is None and token.isalpha() and token.islower() and len(token) >= 4 and not _written_name(token):
        return None  # rare is not ronto-are: a word must spell its prefix out (kilometers)
    if name is None and token.isalpha() and not token.islower() and token not in MIXED_SYMBOLS and (
            len(token) >= 5 or sum(c.isupper() for c in token) >= 2 or token[0].isupper() and len(token) >= 4):
        return None  # Ollama, SGLang, vLLM, arXiv, LMCache: names, never units (no registry built)
    if name is None and any(part in NOT_UNITS for part in _PARTS_RE.split(token) if part):
        return None  # k/s, G/s, K/s: a magnitude letter (pint: Boltzmann's k, gravity's G, kelvin) is no part of a unit
    expr = name or _expression(token)
    return _lookup(expr, compound=any(c in expr for c in "/*"))


#: What parts a compound unit as written (``km s-1``, ``erg cm-2 s-1``, ``kg·m/s``): its
#: separators and the powers of its parts.
_PARTS_RE = re.compile(r"[/·*\s]+|\^?[-−+]?\d+|[⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹]+")


_WORDED = re.compile(r"(?P<power>square|sq|cubic)[ \t]+(?P<unit>[A-Za-z]+)|(?i:degrees?[ \t]+(?P<temp>fahrenheit|celsius))")


def _worded(m: re.Match[str]) -> Canonical | None:
    """A unit written in words (``square miles``, ``cubic meters``, ``degrees Fahrenheit``: a
    match of _WORDED), else None: the power or the scale named in words, then one unit name pint
    reads."""
    if m["temp"]:
        return _lookup(f"degree_{m['temp'].capitalize()}")
    unit = m["unit"]
    if not (_written_name(unit) or unit in ("m", "km", "cm", "mm", "ft", "mi", "in")):
        return None  # square brackets, square root: no unit
    return _lookup(f"{unit}**{3 if m['power'] == 'cubic' else 2}")


def _written_name(word: str) -> bool:
    """Whether pint reads ``word`` as a unit name with its prefix spelt out in full
    (``terabytes``, ``seconds``), not as a one-letter prefix glued to a name (``rare``)."""
    if word in _COMMON:
        return True  # every word of the table is such a name (tests/test_units.py asks pint)
    stem = word[:-2] if word.endswith("es") and not word.endswith(("bytes", "minutes")) else word.rstrip("s")
    if not (stem.endswith(NAME_ENDINGS) or word.rstrip("s").endswith(NAME_ENDINGS)):
        return False  # papers, tokens, users, layers: no unit name at all
    try:
        readings = registry().parse_unit_name(word)
    except Exception:  # noqa: BLE001
        return False
    return any(word.startswith(prefix) for prefix, _, _ in readings)


_STORED = {"B": "byte", "B/s": "byte/second"}
"""Canonical units as stored whose written form :func:`canonical` refuses after a number."""


def _common_units() -> dict[str, Canonical]:
    """The units this field writes most, as pint reads them, without building pint's registry
    (0.5 s a process): SI prefixes on ``s W Wh J Hz m g V A Pa``, decimal and binary bytes and
    their rates, bits per second, and time words. Keyed like :func:`_lookup`'s ``expr``; every
    entry equals pint's own answer (tests/test_units.py compares them all), so the table only
    saves time and decides nothing."""
    def exact(x: float) -> float:
        return float(f"{x:.15g}")

    table: dict[str, Canonical] = {}
    si = (("n", 1e-9), ("µ", 1e-6), ("μ", 1e-6), ("u", 1e-6), ("m", 1e-3), ("", 1.0), ("k", 1e3), ("M", 1e6),
          ("G", 1e9), ("T", 1e12))
    for symbol, unit, scale in (("s", "s", 1.0), ("W", "W", 1.0), ("Wh", "J", 3600.0), ("J", "J", 1.0),
                                ("Hz", "Hz", 1.0), ("m", "m", 1.0), ("g", "kg", 1e-3), ("V", "V", 1.0),
                                ("A", "A", 1.0), ("Pa", "Pa", 1.0)):
        for prefix, times in si:
            table[prefix + symbol] = Canonical(unit, exact(times * scale))
    decimal = ("", "kilo", "mega", "giga", "tera", "peta", "exa")
    for power, prefix in enumerate(decimal):
        table[f"{prefix}byte"] = Canonical("B", exact(1000.0 ** power))
        table[f"{prefix}byte/second"] = Canonical("B/s", exact(1000.0 ** power))
        table[f"{prefix}bit/second"] = Canonical("B/s", exact(1000.0 ** power / 8))
    for power, prefix in enumerate(("kibi", "mebi", "gibi", "tebi"), start=1):
        table[f"{prefix}byte"] = Canonical("B", exact(1024.0 ** power))
    for word, seconds in (("nanosecond", 1e-9), ("microsecond", 1e-6), ("millisecond", 1e-3), ("second", 1.0),
                          ("minute", 60.0), ("hour", 3600.0), ("day", 86400.0), ("week", 604800.0),
                          ("month", 2629800.0), ("year", 31557600.0), ("min", 60.0), ("h", 3600.0),
                          ("hr", 3600.0)):
        table[word] = Canonical("s", seconds)
        if len(word) > 3:
            table[word + "s"] = Canonical("s", seconds)
    for word in ("byte", "kilobyte", "megabyte", "gigabyte", "terabyte"):
        table[word + "s"] = table[word]
    table["degree_Celsius"] = Canonical("°C", 1.0)
    return table


_COMMON: dict[str, Canonical] = _common_units()


def _lookup(expr: str, compound: bool = True) -> Canonical | None:
    """One expression in kb's canonical unit, or None: from :data:`_COMMON` when it is there,
    else pint's reading (:func:`_pint_lookup`)."""
    known = _COMMON.get(expr)
    return known if known is not None else _pint_lookup(expr, compound)


@lru_cache(maxsize=4096)
def _pint_lookup(expr: str, compound: bool = True) -> Canonical | None:
    """pint's reading of one expression, in kb's canonical unit, or None. A unit outside
    :data:`_PREFERRED` is taken only when written as a compound (``erg cm-2 s-1``)."""
    ureg = registry()
    try:
        q = ureg.Quantity(1.0, expr)
        base = q.to_base_units()
    except Exception:  # noqa: BLE001 - pint raises many kinds of error for a non-unit
        return None
    base_units = str(base.units)
    if base_units == "bit":
        return Canonical("B", float(f"{base.magnitude / 8:.15g}"))
    if base_units == "bit / second":
        return Canonical("B/s", float(f"{base.magnitude / 8:.15g}"))
    if q.dimensionless:
        return None
    for target_expr, shown in _PREFERRED:
        target = ureg.Unit(target_expr)
        if q.is_compatible_with(target):
            zero = ureg.Quantity(0.0, q.units).to(target).magnitude
            one = ureg.Quantity(1.0, q.units).to(target).magnitude
            return Canonical(shown, float(f"{one - zero:.15g}"), float(f"{zero:.15g}"))
    if not compound:
        return None  # PR (peta × gas constant), Gy: a lone token pint reads oddly is no unit here
    return Canonical(f"{base.units:~}".replace(" ", ""), float(f"{base.magnitude:.15g}"))


def _stored(unit: str) -> Canonical | None:
    """Canonical reading of a unit as stored in a Quantity (canonical or as written)."""
    if unit in _STORED:
        return _lookup(_STORED[unit])
    return canonical(unit)


@lru_cache(maxsize=4096)
def factor(unit_from: str, unit_to: str) -> tuple[float, float] | None:
    """``(scale, offset)`` that converts a value in ``unit_from`` to ``unit_to``, or None.

    Both are units as stored (canonical or as written). Units kb keeps in its own vocabulary
    (``%``, ``×``, ``tok/s``) convert only to themselves: ``(1.0, 0.0)`` when equal.
    """
    if unit_from == unit_to:
        return 1.0, 0.0
    if unit_from in KB_OWN or unit_to in KB_OWN:
        return None  # pp, tok/s, LoC …: kb's own units convert to nothing else (no registry needed)
    if (unit_from in CANONICAL_UNITS and unit_to in CANONICAL_UNITS) or not (
        any(c.isalpha() for c in unit_from) and any(c.isalpha() for c in unit_to)
    ):
        return None  # two canonical units are two dimensions; %, ×, ¥, 张 convert to nothing
    a, b = _stored(unit_from), _stored(unit_to)
    if a is None or b is None or a.unit != b.unit:
        return None
    # v_to = (a.scale * v + a.offset - b.offset) / b.scale
    return a.scale / b.scale, (a.offset - b.offset) / b.scale
