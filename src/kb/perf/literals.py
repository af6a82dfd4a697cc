"""Cheap prefilters for the extractors' regexes: literal strings one of which every match contains.

A large alternation of cue words with look-behind guards (``(?<![a-z])plans?\\s+to``) is tried
at every position of a text; most texts contain none of its words. :func:`required_literals`
reads a pattern's parse tree once and returns literals such that *every* match contains at
least one of them, so ``hint.search(text) is None`` (see :func:`literal_hint`) proves the
pattern cannot match and the full search can be skipped: the results are the same, only
found sooner. The hint of a pattern that ignores case ignores case too, with the same
folding as the pattern (``ſ`` matches ``s`` under ``re.IGNORECASE``: a substring test of
lower-cased text would not be the same).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

from kb.perf.recache import kept_value

try:  # the parser of the re module (Python 3.11+); without it there is no prefilter
    from re import _constants as _c
    from re import _parser as _p
except ImportError:  # pragma: no cover - other Pythons
    _p = _c = None  # type: ignore[assignment]

#: This module's code, in the key of what it computes kept between runs (kb.perf.recache).
_CODE = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
_ZERO_WIDTH = frozenset(() if _c is None else (_c.AT, _c.ASSERT, _c.ASSERT_NOT))


#: Most strings a run of fixed parts may stand for before it is cut (``下(?:周|个?月)`` is four).
_MAX_STRINGS = 64


def _exact(op, av, ci: bool) -> frozenset[str] | None:
    """Every string one item of a parse tree can match, when that is a small fixed set; else None.
    Zero-width items match the empty string (they only restrict where the others match)."""
    if op is _c.LITERAL:
        return frozenset([chr(av)])
    if op in _ZERO_WIDTH:
        return frozenset([""])
    if op is _c.IN:
        return frozenset(chr(v) for _, v in av) if all(o is _c.LITERAL for o, _ in av) else None
    if op is _c.SUBPATTERN:
        return None if _adds_case(av, ci) else _exact_seq(list(av[3]), ci)
    if op is _c.BRANCH:
        alts = [_exact_seq(list(alt), ci) for alt in av[1]]
        if any(a is None for a in alts):
            return None
        out = frozenset().union(*alts)  # type: ignore[arg-type]
        return out if len(out) <= _MAX_STRINGS else None
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) and av[1] <= 1:
        body = _exact_seq(list(av[2]), ci)
        if body is None:
            return None
        return body | {""} if av[0] == 0 else body
    return None


def _exact_seq(items: list, ci: bool) -> frozenset[str] | None:
    """:func:`_exact` of a sequence: the concatenations of its items' strings."""
    out = frozenset([""])
    for op, av in items:
        part = _exact(op, av, ci)
        if part is None:
            return None
        out = frozenset(a + b for a in out for b in part)
        if len(out) > _MAX_STRINGS:
            return None
    return out


def _better(cand: frozenset[str] | None, best: frozenset[str] | None) -> bool:
    """A candidate set is better when its shortest string is longer (then: fewer strings)."""
    if not cand or "" in cand:
        return False
    if best is None:
        return True
    a, b = min(map(len, cand)), min(map(len, best))
    return a > b or (a == b and len(cand) < len(best))


#: A literal may end in a character class (``schedule\\s+`` gives ``schedule`` and one ``\\s``):
#: the class stands in the candidate strings as one private-use character, its last.
_TAIL_OF: dict[str, str] = {}
_CLASS_OF: dict[str, str] = {}
_CATEGORIES = {} if _c is None else {
    _c.CATEGORY_SPACE: r"\s", _c.CATEGORY_NOT_SPACE: r"\S", _c.CATEGORY_DIGIT: r"\d",
    _c.CATEGORY_NOT_DIGIT: r"\D", _c.CATEGORY_WORD: r"\w", _c.CATEGORY_NOT_WORD: r"\W",
}


def _tail(op, av) -> str | None:
    """The private-use character standing for the class that item ``(op, av)`` starts with
    (a class, or a repeat of at least one of a class or character), else None."""
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) and av[0] >= 1 and len(av[2]) == 1:
        op, av = list(av[2])[0]
    if op is _c.LITERAL:
        src = re.escape(chr(av))
    elif op is _c.NOT_LITERAL:
        src = f"[^{re.escape(chr(av))}]"
    elif op is _c.IN:
        parts = []
        for o, v in av:
            if o is _c.NEGATE:
                parts.append("^")
            elif o is _c.LITERAL:
                parts.append(re.escape(chr(v)))
            elif o is _c.RANGE:
                parts.append(f"{re.escape(chr(v[0]))}-{re.escape(chr(v[1]))}")
            elif o is _c.CATEGORY and v in _CATEGORIES:
                parts.append(_CATEGORIES[v])
            else:
                return None
        src = "[" + "".join(parts) + "]"
    else:
        return None
    if src not in _TAIL_OF:
        mark = chr(0xF0000 + len(_TAIL_OF))
        _TAIL_OF[src], _CLASS_OF[mark] = mark, src
    return _TAIL_OF[src]


def _fragment(s: str) -> str:
    """Regex source of one candidate string (its class mark, if any, back to its class)."""
    if s and s[-1] in _CLASS_OF:
        return re.escape(s[:-1]) + _CLASS_OF[s[-1]]
    return re.escape(s)


def _adds_case(av, ci: bool) -> bool:
    """Whether a group ``(?i:…)`` makes its literals case-insensitive where the hint is not."""
    return not ci and bool(av[1] & re.IGNORECASE)


def _required(items: list, ci: bool) -> frozenset[str] | None:
    """Literals one of which every match of the sequence ``items`` contains, or None.

    Consecutive items with small fixed sets of strings are joined (their concatenations);
    an item without one ends the run and offers its own required literals."""
    best: frozenset[str] | None = None
    run = frozenset([""])
    for op, av in items:
        part = _exact(op, av, ci)
        if part is not None:
            joined = frozenset(a + b for a in run for b in part)
            if len(joined) <= _MAX_STRINGS:
                run = joined
                continue
        if _better(run, best):
            best = run
        mark = _tail(op, av) if part is None and "" not in run else None
        if mark is not None and _better(frozenset(r + mark for r in run), best):
            best = frozenset(r + mark for r in run)
        run = frozenset([""]) if part is None else part
        inner: frozenset[str] | None = None
        if part is not None:
            pass
        elif op is _c.SUBPATTERN and not _adds_case(av, ci):
            inner = _required(list(av[3]), ci)
        elif op is _c.ATOMIC_GROUP:
            inner = _required(list(av), ci)
        elif op is _c.BRANCH:
            alts = [_required(list(alt), ci) for alt in av[1]]
            if all(a is not None for a in alts):
                inner = frozenset().union(*alts)  # type: ignore[arg-type]
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) and av[0] >= 1:
            inner = _required(list(av[2]), ci)
        if _better(inner, best):
            best = inner
    if _better(run, best):
        best = run
    return best


def _parsed(pattern: re.Pattern[str] | str) -> tuple[list, bool] | None:
    """The parse tree of ``pattern`` and whether it ignores case; None when it cannot be read."""
    if _p is None:
        return None
    src, flags = (pattern.pattern, pattern.flags) if isinstance(pattern, re.Pattern) else (pattern, 0)
    try:
        tree = _p.parse(src, flags)
        return list(tree), bool(tree.state.flags & re.IGNORECASE)
    except Exception:  # noqa: BLE001 - unknown parser internals: no prefilter, never an error
        return None


def required_literals(pattern: re.Pattern[str] | str) -> tuple[str, ...] | None:
    """Literals one of which every match of ``pattern`` contains (compared as ``pattern``
    compares them: ignoring case when it does), longest first; None when none can be named
    (a pattern that may match without any fixed text, or a Python whose ``re`` parser is not
    at hand).

    :param pattern: a compiled pattern (its flags count) or its source.
    """
    got = _candidates(pattern)
    if got is None:
        return None
    plain = {s[:-1] if s[-1] in _CLASS_OF else s for s in got[0]}  # the class a literal ends in left out
    return tuple(sorted(_minimal(plain), key=lambda s: (-len(s), s)))


def _minimal(found: Iterable[str]) -> list[str]:
    """``found`` without the strings that hold another of them ("plans" when "plan" is there)."""
    found = list(found)
    return [s for s in found if not any(t != s and t in s for t in found)]


def _candidates(pattern: re.Pattern[str] | str) -> tuple[list[str], bool] | None:
    """Minimal candidate strings of ``pattern`` (class marks kept) and whether it ignores case."""
    parsed = _parsed(pattern)
    if parsed is None:
        return None
    try:
        found = _required(*parsed)
    except Exception:  # noqa: BLE001
        return None
    return (_minimal(found), parsed[1]) if found else None


def literal_hint(patterns: Iterable[re.Pattern[str] | str]) -> re.Pattern[str] | None:
    """One pattern of plain literals that finds a place in every text (or slice of a text:
    same ``pos`` and ``endpos``) where any of ``patterns`` matches: the
    :func:`required_literals` of each, ignoring case when one of them does; None when one of
    them has no literals (then there is no prefilter: search with the pattern itself)."""
    given = list(patterns)
    pats = [(p.pattern, p.flags) if isinstance(p, re.Pattern) else (p, 0) for p in given]
    hint = kept_value(("literal_hint", _CODE, *pats), lambda: _hint_source(given))
    return re.compile(*hint) if hint is not None else None


def _hint_source(patterns: list[re.Pattern[str] | str]) -> tuple[str, int] | None:
    """Source and flags of :func:`literal_hint`'s pattern."""
    lits: set[str] = set()
    ci = False
    for pat in patterns:
        got = _candidates(pat)
        if got is None:
            return None
        lits.update(got[0])
        ci = ci or got[1]
    return _trie(_minimal(lits)), re.IGNORECASE.value if ci else 0


def _trie(strings: Iterable[str]) -> str:
    """One alternation of ``strings`` (candidate strings, class marks kept) grouped by their
    common prefixes: ``ab[\\s]|ac`` is ``a(?:b[\\s]|c)``. It matches where one of the strings
    does, and ``re``, which tries an alternation's branches one by one at each position, tests
    each first character once there, not once per string (a hint of 60 words: ~3x fewer
    instructions where none matches, most texts). No string may be a prefix of another
    (:func:`_minimal` leaves none). A single string is its own :func:`_fragment`."""
    root: dict[str, dict] = {}
    for s in strings:
        node = root
        for ch in s:
            node = node.setdefault(ch, {})

    def source(node: dict[str, dict]) -> str:
        branches = [_fragment(ch) + source(node[ch]) for ch in sorted(node)]
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")" if branches else ""

    top = [_fragment(ch) + source(root[ch]) for ch in sorted(root)]
    return "|".join(top)


def _first(items: list, ci: bool) -> tuple[list[str], bool] | None:
    """Class fragments (sources to stand inside ``[…]``) one of which every first character a
    match of the sequence ``items`` consumes matches, and whether the sequence may match the
    empty string (then the characters after it may come first); None when it cannot say (a
    negated class, any character, a group reference, a case-insensitive group)."""
    out: list[str] = []
    for op, av in items:
        if op is _c.LITERAL:
            got: tuple[list[str], bool] | None = ([re.escape(chr(av))], False)
        elif op in _ZERO_WIDTH:
            got = ([], True)  # a look-around or anchor consumes nothing: it only restricts
        elif op is _c.IN:
            mark = _tail(op, av)  # its class's source, "[…]"
            cls = _CLASS_OF[mark] if mark is not None else "[^"
            got = None if cls.startswith("[^") else ([cls[1:-1]], False)
        elif op is _c.SUBPATTERN:
            got = None if _adds_case(av, ci) else _first(list(av[3]), ci)
        elif op is _c.ATOMIC_GROUP:
            got = _first(list(av), ci)
        elif op is _c.BRANCH:
            alts = [_first(list(alt), ci) for alt in av[1]]
            got = None if any(a is None for a in alts) else (
                [f for a in alts for f in a[0]], any(a[1] for a in alts))  # type: ignore[index]
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
            body = _first(list(av[2]), ci)
            got = None if body is None else (body[0], body[1] or av[0] == 0)
        else:
            got = None
        if got is None:
            return None
        out += got[0]
        if not got[1]:
            return out, False
    return out, True


def first_char_guard(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern`` led by a look-ahead for the characters its matches can start with
    (``(?=[…])(?:pattern)``, same flags, groups and matches), or ``pattern`` itself when they
    cannot be named (a match may be empty or start with any character, or a ``(?i:…)`` group
    ignores case in a pattern that does not). The look-ahead is compiled with ``pattern``'s
    flags: under ``re.IGNORECASE`` its class folds case as the pattern's literals do (``ſ``
    for ``s``, ``K`` for ``k``).

    A pattern led by look-behind guards (``(?<![a-z0-9])(?:the paper reports|…)|据…``) gives
    ``re`` no first character to skip to: every alternative is entered at every position. The
    look-ahead fails at once where none can start (3x faster on the cue words); where one can,
    the pattern runs as before, so every search, match and ``finditer`` finds the same.
    """
    guarded = kept_value(("first_char_guard", _CODE, pattern.pattern, pattern.flags), lambda: _guard_source(pattern))
    return re.compile(guarded, pattern.flags) if guarded is not None else pattern


def _guard_source(pattern: re.Pattern[str]) -> str | None:
    """Source of :func:`first_char_guard`'s pattern, None for ``pattern`` itself."""
    parsed = _parsed(pattern)
    if parsed is None:
        return None
    try:
        got = _first(*parsed)
    except Exception:  # noqa: BLE001 - unknown parser internals: no guard, never an error
        return None
    if got is None or got[1] or not got[0]:
        return None
    return f"(?=[{''.join(dict.fromkeys(got[0]))}])(?:{pattern.pattern})"
