"""The nightly diff (DESIGN.md §3): window claims against a living document -> outcomes.

``from kb.diff import diff, DiffResult`` is the public surface; :mod:`kb.diff.attrib` decides
subjects and facts, :mod:`kb.diff.rules` the outcomes, :mod:`kb.diff.model` the JSON shape.

The names are imported on first use (PEP 562 ``__getattr__``): a look-up that needs only the
Attributor (``kb claims --subject``: ``kb.diff.attrib``) builds none of the result models of
:mod:`kb.diff.model` and loads no :mod:`kb.diff.rules` (issue 11: ~10 ms of its start-up).
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kb.cards import Card
    from kb.diff.attrib import Attributor, Fact, View
    from kb.diff.model import (OUTCOMES, ConflictOut, DiffResult, MismatchOut, SecondhandOut, SourceOut,
                               SubjectOut, ValueOut)
    from kb.diff.rules import diff

_HOME = {
    "Card": "kb.cards", "Attributor": "kb.diff.attrib", "Fact": "kb.diff.attrib", "View": "kb.diff.attrib",
    "OUTCOMES": "kb.diff.model", "ConflictOut": "kb.diff.model", "DiffResult": "kb.diff.model",
    "MismatchOut": "kb.diff.model", "SecondhandOut": "kb.diff.model", "SourceOut": "kb.diff.model",
    "SubjectOut": "kb.diff.model", "ValueOut": "kb.diff.model", "diff": "kb.diff.rules",
}
"""Each public name -> the module that defines it."""

__all__ = [
    "OUTCOMES", "Attributor", "Card", "ConflictOut", "DiffResult", "Fact", "MismatchOut", "SecondhandOut",
    "SourceOut", "SubjectOut", "ValueOut", "View", "diff",
]


def __getattr__(name: str) -> Any:
    """A public name of the package, imported from its module on first use (then kept here)."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'kb.diff' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
