"""Compiled regular expressions kept between runs, as Python keeps a module's bytecode.

kb compiles ~300 patterns when it starts (its vocabulary's tries, the quantity pattern, and
those of the libraries it loads); :mod:`re` parses and compiles each in pure Python, which was
~45 % of the instructions of a cold ``kb ingest``'s start-up (callgrind: 1.94G of imports and
parser set-up, 1.08G with the patterns kept). :func:`install` makes :mod:`re` look a pattern up
here first: what ``re._compiler.compile`` hands to ``_sre.compile`` (the pattern's opcode list,
its flags and its groups), kept per ``(pattern, flags)`` in one file beside this module's
bytecode (``__pycache__/re-patterns.<cache tag>.marshal``), written at exit when a run compiled
a pattern the file did not hold. Values computed from patterns at start-up are kept there too
(:func:`kept_value`).

The same :class:`re.Pattern` as :func:`re.compile` makes (the same arguments to
``_sre.compile``; ``tests/test_recache.py``): a pattern not yet kept is compiled both ways and
kept only when the two are equal; once they differ (another Python's :mod:`re`), the run keeps
and writes nothing. The file is read only when it was written by this
very interpreter (its version and the regex engine's magic number); a file that does not read is
ignored, and one that cannot be written (a read-only install, ``PYTHONDONTWRITEBYTECODE``) is
not written: every pattern is then compiled as before. A pattern whose text changed is another
key; a kept pattern no run used in the last :data:`KEEP_WRITES` writes of the file is dropped
(an edited pattern's old text; a pattern a library builds from a set, whose text changes with the
hash seed: ``tokenize``'s string prefixes, markdown-it's inline terminators).
"""

from __future__ import annotations

import _sre
import atexit
import marshal
import os
import sys
from re import _compiler, _parser
from collections.abc import Callable
from typing import Any

#: A kept pattern is dropped when none of the runs that wrote the file since used it, this many.
KEEP_WRITES = 16
_FORMAT = 2
_STAMP = (_FORMAT, sys.hexversion, _sre.MAGIC, _sre.CODESIZE)
_DEBUG = 128  # re.DEBUG: its compile prints the program, so it is never looked up


def cache_path() -> str | None:
    """The file the patterns are kept in, or None when this interpreter keeps no bytecode
    files beside the sources (``sys.pycache_prefix`` set, no ``cache_tag``)."""
    tag = sys.implementation.cache_tag
    if tag is None or sys.pycache_prefix is not None:
        return None
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__", f"re-patterns.{tag}.marshal")


class _Kept:
    """The kept patterns (``(pattern, flags)`` -> the file's write that last used it and
    ``_sre.compile``'s other arguments), the file's writes so far, the keys this run used and
    whether it compiled one the file did not hold."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.writes, self.entries = _read(path) if path else (0, {})
        self.used: set[tuple[str, int]] = set()
        self.missed = False
        self.off = False  # set when a pattern compiled here differs from re's own: none is kept
        self.plain = _compiler.compile

    def compile(self, p: Any, flags: int = 0) -> Any:
        """``re._compiler.compile(p, flags)``: from the kept arguments when held, else compiled
        (and kept) as :mod:`re` does it."""
        if type(p) is not str or type(flags) is not int or flags & _DEBUG:  # (re passes a plain int)
            return self.plain(p, flags)
        if self.off:
            return self.plain(p, flags)
        key = (p, flags)
        kept = self.entries.get(key)
        if kept is None:
            plain = self.plain(p, flags)  # (re's own errors are raised here, as without kb)
            try:
                arguments = _arguments(p, flags)
                made = _sre.compile(p, *arguments)
            except (RuntimeError, TypeError, ValueError, OverflowError, AttributeError):
                made = None
            if made != plain:  # another Python's re compiles otherwise: kept patterns are never used
                self.off, self.entries, self.missed = True, {}, False
                return plain
            self.entries[key] = (self.writes, arguments)
            self.missed = True
            self.used.add(key)
            return plain
        self.used.add(key)
        return _sre.compile(p, *kept[1])

    def value(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        """``make()``, kept under ``key`` (see :func:`kept_value`)."""
        kept = self.entries.get(key)
        if kept is None:
            got = make()
            try:
                marshal.dumps(got)
            except ValueError:  # (no value marshal cannot write is kept)
                return got
            kept = self.entries[key] = (self.writes, got)
            self.missed = True
        self.used.add(key)
        return kept[1]

    def save(self) -> None:
        """Write the file when this run compiled a pattern it did not hold (atomically: a
        temporary file renamed over it), without the patterns :data:`KEEP_WRITES` writes did
        not use. Errors are ignored: the file is only a cache."""
        if not self.missed or self.path is None or sys.dont_write_bytecode:
            return
        self.missed = False
        write = self.writes + 1
        used = self.used
        entries = {k: (write, v[1]) if k in used else v for k, v in self.entries.items()
                   if k in used or v[0] > write - KEEP_WRITES}
        tmp = f"{self.path}.{os.getpid()}.tmp"
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            with open(tmp, "wb") as f:
                f.write(marshal.dumps((_STAMP, write, entries)))
            os.replace(tmp, self.path)
        except (OSError, ValueError):
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _arguments(p: str, flags: int) -> tuple[Any, ...]:
    """What ``re._compiler.compile(p, flags)`` passes to ``_sre.compile`` after the pattern
    (the same steps; the opcodes as plain ints, so that marshal writes them)."""
    parsed = _parser.parse(p, flags)
    code = [int(c) for c in _compiler._code(parsed, flags)]
    groupindex = parsed.state.groupdict
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for k, i in groupindex.items():
        indexgroup[i] = k
    return (flags | parsed.state.flags, code, parsed.state.groups - 1, dict(groupindex), tuple(indexgroup))


def _read(path: str) -> tuple[int, dict[tuple[str, int], tuple[int, tuple[Any, ...]]]]:
    """The writes and entries of the file at ``path``; none when it is absent, unreadable or
    written by another interpreter or engine."""
    try:
        with open(path, "rb") as f:
            stamp, writes, entries = marshal.loads(f.read())  # (load(f) reads the file in many small calls)
    except (OSError, EOFError, ValueError, TypeError):
        return 0, {}
    if stamp != _STAMP or not isinstance(writes, int) or not isinstance(entries, dict):
        return 0, {}
    return writes, entries


_kept: _Kept | None = None


def kept_value(key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    """``make()``, kept in the file between runs under ``key``: for a value computed from
    patterns at start-up (a pattern's prefilter, :mod:`kb.perf.literals`). ``key`` holds all the
    value depends on, including a digest of the code that computes it (its text is kept in
    the file: short), and only what marshal writes (str, int, tuples …); so must the value. Without
    :func:`install`, ``make()``."""
    if _kept is None:
        return make()
    return _kept.value(("\x00value", *key), make)


def install() -> None:
    """Make :mod:`re` compile through the kept patterns (once per process; later calls do
    nothing), and write new ones at exit. Raises nothing."""
    global _kept
    if _kept is not None:
        return
    _kept = _Kept(cache_path())
    _compiler.compile = _kept.compile
    atexit.register(_kept.save)
