"""The nightly diff (DESIGN.md §3): window claims against a living document -> outcomes.

``from kb.diff import diff, DiffResult`` is the public surface; :mod:`kb.diff.attrib` decides
subjects and facts, :mod:`kb.diff.rules` the outcomes, :mod:`kb.diff.model` the JSON shape.
"""

from kb.cards import Card
from kb.diff.attrib import Attributor, Fact, View
from kb.diff.model import (OUTCOMES, ConflictOut, DiffResult, MismatchOut, SecondhandOut, SourceOut,
                           SubjectOut, ValueOut)
from kb.diff.rules import diff

__all__ = [
    "OUTCOMES", "Attributor", "Card", "ConflictOut", "DiffResult", "Fact", "MismatchOut", "SecondhandOut",
    "SourceOut", "SubjectOut", "ValueOut", "View", "diff",
]
