"""Invisible characters kb removes from text, however they are written: as they are, as an HTML
character reference (``4&#8203;09``, ``&#x202E;``, ``&zwnj;``: decoded by markdown-it or the HTML
block reader after the file is decoded), and the joiners scripts need (ZWNJ, ZWJ, U+034F, U+180E)
where they join or part nothing: next to an ASCII character (``9<U+200C>06`` is 906). Fresh
wording, exact values."""

from __future__ import annotations

import pytest

from kb.core.config import KbConfig
from kb.core.textio import decode, drop_invisible, invisible_references
from kb.read.parse import Parser

CONFIG = KbConfig(entities={"vLLM": [], "SGLang": []})
PATH = "inbox/ann/2026-07-31-0900-refs.md"


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser(CONFIG)


def _read(parser: Parser, text: str) -> tuple[list[tuple[int, str, list[tuple[float | None, str | None]]]], list[str]]:
    parsed = parser.parse_bytes(PATH, text.encode("utf-8"))
    claims = [(c.provenance.line, c.text, [(q.value, q.unit) for q in c.quantities]) for c in parsed.claims]
    return claims, [str(p) for p in parsed.problems]


# -- joiners between digits ---------------------------------------------------------------------

@pytest.mark.parametrize(("mark", "value"), [
    ("\u200c", 806.0), ("\u200d", 807.0), ("\u034f", 808.0), ("\u180e", 809.0), ("\u061c", 810.0),
    ("\u200c\u200d", 811.0),
])
def test_a_joiner_or_mark_between_digits_is_removed(parser: Parser, mark: str, value: float) -> None:
    digits = str(int(value))
    claims, problems = _read(parser, f"- vLLM throughput {digits[0]}{mark}{digits[1:]} tok/s\n")
    assert claims == [(1, f"vLLM throughput {digits} tok/s", [(value, "tok/s")])]
    assert problems == [f"{PATH}:1: control characters or terminal escape sequences on 1 line(s) (1); removed"]


def test_a_joiner_next_to_a_unit_or_a_decimal_point_is_removed() -> None:
    got = decode("- vLLM 8\u200c.5 tok\u200d/s\n- 家 \u200d家\n".encode("utf-8"), "inbox/a.md")
    assert got.text == "- vLLM 8.5 tok/s\n- 家 \u200d家\n"  # (a space is no neighbour it joins)
    assert [str(p) for p in got.problems] == [
        "inbox/a.md:1: control characters or terminal escape sequences on 1 line(s) (1); removed"]


def test_joiners_between_letters_of_other_scripts_are_kept() -> None:
    # emoji sequence, Persian ZWNJ, Hebrew grapheme joiner, Mongolian vowel separator: none next to ASCII
    line = "👩\u200d🔬 می\u200cروم א\u034fב ᠬᠠ\u180eᠠ 12\n"
    got = decode(line.encode("utf-8"), "inbox/a.md")
    assert got.text == line and got.problems == []


def test_the_arabic_letter_mark_is_removed_anywhere() -> None:
    got = decode("مرحبا\u061c عالم\n".encode("utf-8"), "inbox/a.md")
    assert got.text == "مرحبا عالم\n"
    assert len(got.problems) == 1


# -- character references --------------------------------------------------------------------------

def test_character_references_to_invisible_characters_are_removed(parser: Parser) -> None:
    text = ("- vLLM throughput 8&#8203;21 tok/s\n\n- vLLM throughput 8&shy;22 tok/s\n\n"
            "- vLLM throughput 8&#x200B;23 tok/s\n\n- vLLM throughput 824 tok/s &#x202E; s/kot 009\n\n"
            "- vLLM throughput 8&zwnj;25 tok/s\n\n- vLLM throughput 8&ZeroWidthSpace;26 tok/s\n\n"
            "- vLLM throughput 8&#8204;27 tok/s &amp; 家&zwj;人\n\n"
            "| engine | throughput |\n| --- | --- |\n| vLLM | 8&#8203;28 tok/s |\n")
    claims, problems = _read(parser, text)
    assert claims == [
        (1, "vLLM throughput 821 tok/s", [(821.0, "tok/s")]),
        (3, "vLLM throughput 822 tok/s", [(822.0, "tok/s")]),
        (5, "vLLM throughput 823 tok/s", [(823.0, "tok/s")]),
        (7, "vLLM throughput 824 tok/s s/kot 009", [(824.0, "tok/s")]),
        (9, "vLLM throughput 825 tok/s", [(825.0, "tok/s")]),
        (11, "vLLM throughput 826 tok/s", [(826.0, "tok/s")]),
        (13, "vLLM throughput 827 tok/s & 家\u200d人", [(827.0, "tok/s")]),
        (17, "vLLM | 828 tok/s", [(828.0, "tok/s")]),
    ]
    assert problems == [f"{PATH}:1: character references to invisible or direction characters on 8 line(s) "
                        "(1, 3, 5, 7, 9 …); removed"]


def test_character_references_in_an_html_block_are_removed(parser: Parser) -> None:
    claims, problems = _read(parser, "<table>\n<tr><td>vLLM</td><td>8&#8203;31 tok/s</td></tr>\n</table>\n\n"
                                     "<div>SGLang 8&#x2060;32 tok/s &#x202e;x</div>\n")
    assert claims == [(2, "vLLM | 831 tok/s", [(831.0, "tok/s")]), (5, "SGLang 832 tok/s x", [(832.0, "tok/s")])]
    assert problems == [f"{PATH}:2: character references to invisible or direction characters on 2 line(s) "
                        "(2, 5); removed"]


def test_other_references_are_read_and_give_no_warning(parser: Parser) -> None:
    claims, problems = _read(parser, "- vLLM 833 tok/s &amp; &lt;b&gt; &#169; &nbsp;x\n")
    assert claims == [(1, "vLLM 833 tok/s & <b> \u00a9 \u00a0x", [(833.0, "tok/s")])]
    assert problems == []


def test_drop_invisible_and_invisible_references() -> None:
    assert drop_invisible("4\u200b09 \u202e 9\u200c1 👩\u200d🔬") == "409  91 👩\u200d🔬"
    assert drop_invisible("plain ascii") == "plain ascii"
    assert invisible_references("a &amp; b\nc &#8203;\n&copy;\n&zwj;x\n") == [2, 4]
    assert invisible_references("👩&zwj;🔬\n") == []


def test_references_in_code_are_kept_and_give_no_warning(parser: Parser) -> None:
    claims, problems = _read(parser, "- vLLM 834 tok/s `&#8203;`\n\n```\n&#8203; 835\n```\n\n    &#x202E; 836\n")
    assert claims == [(1, "vLLM 834 tok/s &#8203;", [(834.0, "tok/s")])]
    assert problems == []


def test_a_card_without_references_gives_no_warning(parser: Parser) -> None:
    parsed = parser.parse_bytes("organized/paper_cards/001-2607-26627.md",
                                b'---\ncard: 1\narxiv: "2607.26627"\ntitle: "X"\n---\n# 001 X\n\n- vLLM 837 tok/s\n')
    assert parsed.problems == []
    assert [q.value for c in parsed.claims for q in c.quantities] == [837.0]
