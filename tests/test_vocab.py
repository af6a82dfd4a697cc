"""kb.extract.vocab: the word lists became data, and the patterns built from them match exactly
what they matched before (the same pattern strings, the same flags).

``fixtures/vocab/patterns_before.json`` holds the patterns as the extractors built them from their
inline word lists (commit 13a72b3), keyed by where they are built now. The cue matcher's pattern
orders equal-length cues by set order (it varies with the hash seed): its alternatives and
first characters are compared as sorted lists.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from kb.extract import kinds, number_words, numbers, qualifiers, subjects
from kb.extract.metrics import METRIC_COLUMN_HEADERS, MetricVocab
from kb.extract.vocab import units as vocab_units

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "vocab" / "patterns_before.json"
BEFORE = json.loads(FIXTURE.read_text(encoding="utf-8"))
VOCAB = Path(__file__).resolve().parents[1] / "src" / "kb" / "extract" / "vocab"


def _rx(p: re.Pattern[str]) -> list:
    return [p.pattern, p.flags]


def _cue_key(pattern: str) -> list:
    """The cue pattern with its set-ordered parts sorted: the guard's first characters, and per
    group (strong/weak, kind) the pieces of its alternatives."""
    m = re.match(r"\(\?=\[([^\]]*)\]\)", pattern)
    assert m is not None, pattern[:40]
    groups = pattern[m.end():].split("(?P<k")
    return [sorted(m.group(1)), [sorted(x for x in re.split(r"\||\(\?:|\)", g) if x) for g in groups]]



NOW = {
    "subjects.HOST_BEFORE_RE": lambda: _rx(subjects.HOST_BEFORE_RE),
    "subjects.HOST_AFTER_RE": lambda: _rx(subjects.HOST_AFTER_RE),
    "subjects._PAIR_OPEN_RE": lambda: _rx(subjects._PAIR_OPEN_RE),
    "subjects._PAIR_CLOSE_RE": lambda: _rx(subjects._PAIR_CLOSE_RE),
    "qualifiers._COND_RE": lambda: _rx(qualifiers._COND_RE),
    "qualifiers._PASSING_RE": lambda: _rx(qualifiers._PASSING_RE),
    "kinds.TAG_RE": lambda: _rx(kinds.TAG_RE),
    "kinds._MOOD_PLAIN": lambda: _rx(kinds._MOOD_PLAIN),
    "kinds.CueMatcher": lambda: _cue_key(kinds.CueMatcher({"secondhand": ["我们听说"]})._re.pattern),
    "numbers._QTY_RE": lambda: _rx(numbers._QTY_RE),
    "number_words._DECREASE_WORD": lambda: _rx(number_words._DECREASE_WORD),
    "number_words._NEUTRAL_GAP": lambda: _rx(number_words._NEUTRAL_GAP),
    "number_words._DECREASE_AFTER": lambda: _rx(number_words._DECREASE_AFTER),
    "number_words._METRIC_MODIFIERS": lambda: _rx(number_words._METRIC_MODIFIERS),
    "number_words._CHANGE_BEFORE": lambda: _rx(number_words._CHANGE_BEFORE),
    "number_words._REF_BEFORE": lambda: _rx(number_words._REF_BEFORE),
    "numbers._UNIT": lambda: numbers._UNIT,
    "numbers._PARSE_RE": lambda: _rx(numbers._PARSE_RE),
    "numbers._UNIT_OF": lambda: [list(kv) for kv in sorted(numbers._UNIT_OF.items())],
    "vocab.units.KB_OWN": lambda: sorted(vocab_units.KB_OWN),
    "metrics.MetricVocab().pattern": lambda: _rx(MetricVocab().pattern),
    "metrics.MetricVocab(extra).pattern": lambda: _rx(MetricVocab({"foo": ["bar baz", "TTFT"]}).pattern),
    "metrics.METRIC_COLUMN_HEADERS": lambda: sorted(METRIC_COLUMN_HEADERS),
}


def test_every_pattern_of_before_is_checked() -> None:
    assert sorted(NOW) == sorted(BEFORE)


@pytest.mark.parametrize("name", sorted(NOW))
def test_the_pattern_built_from_the_word_list_is_the_one_of_before(name: str) -> None:
    assert NOW[name]() == BEFORE[name]


@pytest.mark.parametrize("path", sorted(VOCAB.glob("*.py")), ids=lambda p: p.name)
def test_a_vocab_module_is_data_with_docstrings(path: Path) -> None:
    """Each word list is a plain constant with a docstring saying what it lists; no functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if path.name == "__init__.py":
        assert not tree.body
        return
    assert ast.get_docstring(tree), path.name
    assert not [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    body = tree.body
    for i, node in enumerate(body):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            nxt = body[i + 1] if i + 1 < len(body) else None
            documented = isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant) \
                and isinstance(nxt.value.value, str)
            assert documented, f"{path.name}:{node.lineno}: a constant without a docstring"
