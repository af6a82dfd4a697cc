"""Phrases to one regex: a character trie over many phrases (longest first), ASCII phrases
bounded by non-word characters, and the lookup key of a phrase (folded, lower case, no spaces).
Used by :class:`kb.extract.metrics.MetricVocab`.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from kb.extract.fold import normalise

_ASCII_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_WS = re.compile(r"\s+")


def _phrase_key(phrase: str) -> str:
    """Lookup key of a phrase or of matched text: folded, lower case, no whitespace."""
    return _WS.sub("", normalise(phrase)).lower()


def _fragments(phrase: str) -> list[str]:
    """Regex fragments of one phrase, one per character; a space becomes flexible whitespace."""
    p = _WS.sub(" ", normalise(phrase).strip()).lower()
    out = []
    for i, ch in enumerate(p):
        if ch == " ":
            glued_words = p[i - 1] in _ASCII_ALNUM and p[i + 1] in _ASCII_ALNUM
            out.append(r"\s+" if glued_words else r"\s*")
        else:
            out.append(re.escape(ch))
    if p[-1] in _ASCII_ALNUM:
        out.append(r"(?![A-Za-z0-9_])")
    return out


def _trie_regex(node: dict[str, dict]) -> str:
    """Regex of a character trie; longer continuations are tried before stopping (longest wins)."""
    stop = "" in node
    # an end-of-word lookahead is a way to stop: tried after every longer continuation
    frags = sorted((f for f in node if f != ""), key=lambda f: f.startswith("(?!"))
    branches = [frag + _trie_regex(node[frag]) for frag in frags]
    if not branches:
        return ""
    alt = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{alt})?" if stop else alt


def _compile_phrases(phrases: Collection[str]) -> re.Pattern[str]:
    """One alternation over all phrases, as a trie, ASCII phrases bounded by non-word chars."""
    root: dict[str, dict] = {}
    for phrase in phrases:
        frags = _fragments(phrase)
        node = root
        for frag in frags:
            node = node.setdefault(frag, {})
        node[""] = {}
    # An ASCII phrase must not continue a word: the check comes after its first character
    # (a lookbehind of two), so that the pattern starts with a literal set and re can skip
    # ahead to candidate characters instead of trying every position.
    parts = []
    for frag, child in root.items():
        lead = rf"(?<![A-Za-z0-9_]{frag})" if frag[0] in _ASCII_ALNUM else ""
        parts.append(frag + lead + _trie_regex(child))
    if not parts:
        return re.compile(r"(?!)")
    return re.compile("|".join(parts))

