"""kb.perf.recache: a kept pattern is the pattern re compiles; the file is read back, aged and
ignored when it is not this interpreter's."""

from __future__ import annotations

import marshal
import re
import sys
from pathlib import Path

import pytest

from kb.extract.numbers import _QTY_RE
from kb.perf import recache
from kb.perf.recache import KEEP_WRITES, _Kept

SOURCES = [
    (r"a(?P<x>b)c", 0),
    (r"(?i)straße|ǅ", 0),
    (r"(?<![a-z0-9])(?:according to|据)\s+(?P<who>\w+)", re.IGNORECASE.value),
    (r"[\u4e00-\u9fff]+(?=[，。])|\d{1,3}(?:,\d{3})+", 0),
    (r"^(?:[-+*]|\d{1,9}[.)])[ \t]+\S", re.MULTILINE.value),
    (r"(?>a+)b|(?:x)*+y", re.ASCII.value),
    (_QTY_RE.pattern, 0),
]


@pytest.fixture(autouse=True)
def _writes_bytecode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # (whatever PYTHONDONTWRITEBYTECODE says)


def _same(a: re.Pattern[str], b: re.Pattern[str]) -> None:
    assert a == b  # (pattern, flags and the compiled program)
    assert (a.flags, a.groups, a.groupindex) == (b.flags, b.groups, b.groupindex)


def test_a_kept_pattern_is_the_one_re_compiles(tmp_path: Path) -> None:
    path = str(tmp_path / "re.marshal")
    first = _Kept(path)
    made = [first.compile(p, f) for p, f in SOURCES]
    assert first.missed
    first.save()
    again = _Kept(path)
    assert again.writes == 1 and len(again.entries) == len(SOURCES)
    for (p, f), one in zip(SOURCES, made):
        kept = again.compile(p, f)
        plain = re._compiler.compile(p, f) if recache._kept is None else recache._kept.plain(p, f)
        _same(kept, plain)
        _same(one, plain)
    assert not again.missed  # every pattern was held: nothing to write
    m = again.compile(*SOURCES[2]).search("As reported, ACCORDING TO  Ann, yes")
    assert m is not None and m.group("who") == "Ann" and m.span() == (13, 30)


def test_bytes_debug_and_flag_typed_patterns_are_compiled_as_before(tmp_path: Path) -> None:
    kept = _Kept(str(tmp_path / "re.marshal"))
    assert kept.compile(rb"a+b", 0).match(b"aab") is not None
    assert kept.compile("a+b", re.DEBUG.value | re.I.value).match("AAB") is not None  # (DEBUG prints the program)
    assert kept.compile("a+b", re.I) == re.compile("a+b", re.I)  # a flag of re's own type
    assert kept.entries == {} and not kept.missed


def test_a_file_of_another_interpreter_or_garbage_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "re.marshal"
    path.write_bytes(b"\x00not marshal")
    assert _Kept(str(path)).entries == {}
    path.write_bytes(marshal.dumps(((recache._FORMAT, sys.hexversion + 1, 0, 0), 3, {("a", 0): (3, ())})))
    kept = _Kept(str(path))
    assert (kept.writes, kept.entries) == (0, {})
    assert kept.compile("a", 0).match("a") is not None and kept.missed


def test_patterns_no_write_used_lately_are_dropped(tmp_path: Path) -> None:
    path = str(tmp_path / "re.marshal")
    old = _Kept(path)
    old.compile("old", 0)
    old.save()
    for n in range(KEEP_WRITES):
        run = _Kept(path)
        run.compile(f"new{n}", 0)
        run.save()
        assert (("old", 0) in _Kept(path).entries) == (n < KEEP_WRITES - 1), n
    assert len(_Kept(path).entries) == KEEP_WRITES


def test_nothing_is_written_without_bytecode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    path = tmp_path / "re.marshal"
    run = _Kept(str(path))
    run.compile("x+", 0)
    run.save()
    assert not path.exists()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    run = _Kept(str(tmp_path / "no-such-dir" / "deeper" / "re.marshal"))
    run.compile("x+", 0)
    run.save()  # (the folder is made)
    assert _Kept(str(tmp_path / "no-such-dir" / "deeper" / "re.marshal")).entries.keys() == {("x+", 0)}


def test_a_kept_value_is_made_once(tmp_path: Path) -> None:
    path = str(tmp_path / "re.marshal")
    calls: list[int] = []

    def make() -> tuple[str, int]:
        calls.append(1)
        return ("(?=[ab])(?:a|b)", 2)

    run = _Kept(path)
    assert run.value(("\x00value", "guard", "v1", "a|b"), make) == ("(?=[ab])(?:a|b)", 2)
    assert run.value(("\x00value", "none", "v1"), lambda: None) is None
    assert run.value(("\x00value", "odd", "v1"), lambda: {1, 2}.__iter__) is not None  # (marshal cannot: not kept)
    run.save()
    again = _Kept(path)
    assert again.value(("\x00value", "guard", "v1", "a|b"), make) == ("(?=[ab])(?:a|b)", 2)
    assert again.value(("\x00value", "none", "v1"), make) is None
    assert len(calls) == 1 and not again.missed
    assert ("\x00value", "odd", "v1") not in again.entries


def test_a_pattern_compiled_otherwise_than_re_does_turns_the_keeping_off(monkeypatch) -> None:
    """When the arguments kb would keep do not make re's own pattern (another Python's re), the
    run uses re's pattern and keeps nothing from then on."""
    import re

    from kb.perf import recache

    kept = recache._Kept(None)
    monkeypatch.setattr(recache, "_arguments", lambda p, flags: (flags, [1, 0], 0, {}, ()))  # a wrong program
    got = kept.compile(r"wombat\d+", 0)
    assert got == re.compile(r"wombat\d+") and got.match("wombat42") is not None
    assert kept.off and kept.entries == {} and not kept.missed
    assert kept.compile(r"numbat", 0).match("numbat") is not None


def test_a_valid_but_other_program_turns_the_keeping_off_too(monkeypatch) -> None:
    import re

    from kb.perf import recache

    other = recache._arguments(r"numbat", 0)
    kept = recache._Kept(None)
    monkeypatch.setattr(recache, "_arguments", lambda p, flags: other)
    assert kept.compile(r"wombat", 0).match("wombat") is not None
    assert kept.compile(r"wombat", 0) == re.compile(r"wombat")
    assert kept.off and kept.entries == {}
