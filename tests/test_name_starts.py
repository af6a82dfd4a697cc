"""kb.extract.names: the pattern of the places a name may start consumes the name's first
character (so that re skips to one in C) and finds the names the zero-width look-ahead it
replaced found: the same matches on random texts of names, their neighbours and separators."""

from __future__ import annotations

import random
import re

from kb.extract.names import NameMatcher, _starts_source, _word

NAMES = {"vLLM": "entity:vllm", "TGI": "entity:tgi", "text-generation-inference": "entity:tgi", "SGLang": "entity:sglang",
         "FlexKV": "entity:flexkv", "吞吐引擎": "entity:zh", "-x": "entity:dash", "KM": "entity:km", "o1": "entity:o1",
         "llama.cpp": "entity:llama.cpp", "H100": "entity:h100", "Prism": "entity:prism", "a]b": "entity:ab",
         "^^": "entity:caret", "Te": "entity:te", "te st": "entity:test"}
PIECES = ["vllm", "VLLM", "vLLM", "tgi", "text generation inference", "text-generation-inference", "sglang", "flexkv", "FlexKV",
          "吞吐引擎", "-x", "km", "KM", "o1", "llama.cpp", "h100", "Prism", "prism", "a]b", "^^", "te", "te st", " ", ".", "-", "_",
          "a", "1", "\n", "x", "吞"]


def _zero_width(firsts: set[str]) -> str:
    """The look-ahead pattern the matcher used before (the reference)."""
    inside = sorted(sorted(p for p in firsts if _word(p[0])), key=len, reverse=True)
    other = sorted(sorted(p for p in firsts if not _word(p[0])), key=len, reverse=True)
    alts = []
    if inside:
        alts.append("(?<![a-z0-9.])(?=(?:" + "|".join(re.escape(p) for p in inside) + "))")
    if other:
        alts.append("(?=(?:" + "|".join(re.escape(p) for p in other) + "))")
    return "|".join(alts)


def test_the_starts_pattern() -> None:
    assert _starts_source({"te", "to", "vl", "-x", "吞吐", "a]"}) == (
        r"\-(?=[x])|a(?=[\]])(?<![a-z0-9.].)|t(?=[eo])(?<![a-z0-9.].)|v(?=[l])(?<![a-z0-9.].)|吞(?=[吐])")
    assert re.compile(_starts_source({"te"})).search("a te x").start() == 2
    assert re.compile(_starts_source({"te"})).search("ate te") .start() == 4  # not inside a word


def test_names_found_as_with_the_look_ahead() -> None:
    new = NameMatcher(NAMES, as_written=("FlexKV", "Prism"))
    old = NameMatcher.from_state(new.state())
    old._starts = re.compile(_zero_width({n[:2] for n in new.key_of}))
    rnd = random.Random(3)
    found = 0
    for _ in range(50000):
        text = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 8)))
        got = new.find(text)
        assert got == old.find(text), text
        found += bool(got)
    assert found > 15000
