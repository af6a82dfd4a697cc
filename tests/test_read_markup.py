"""How Markdown and HTML markup become claim text (kb.read.inline._inline_text, kb.read.htmlblock):
no tag glues two values together, no value inside markup is silently dropped, struck-out text
is a corrected value and not read. Fresh wording, exact values."""

from __future__ import annotations

import pytest

from kb.core.config import KbConfig
from kb.read.parse import Parser

CONFIG = KbConfig(entities={"vLLM": [], "SGLang": []})


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser(CONFIG)


def _claims(parser: Parser, text: str) -> list[tuple[int, str, str, list[tuple[str, float | None, str | None]]]]:
    parsed = parser.parse_bytes("inbox/ann/2026-07-31-0900-markup.md", text.encode("utf-8"))
    return [(c.provenance.line, c.unit, c.text, [(q.raw, q.value, q.unit) for q in c.quantities]) for c in parsed.claims]


def _one(parser: Parser, text: str) -> tuple[str, list[tuple[str, float | None, str | None]]]:
    (claim,) = _claims(parser, text)
    return claim[2], claim[3]


# -- inline HTML between values ----------------------------------------------------------------

def test_br_parts_the_values_of_a_list_item(parser: Parser) -> None:
    text, qs = _one(parser, "- vLLM throughput 41 tok/s<br>ttft 42 ms<br/>throughput 43 tok/s<br />ttft 44 ms<BR>45 tok/s\n")
    assert text == "vLLM throughput 41 tok/s ttft 42 ms throughput 43 tok/s ttft 44 ms 45 tok/s"
    assert qs == [("41 tok/s", 41.0, "tok/s"), ("42 ms", 0.042, "s"), ("43 tok/s", 43.0, "tok/s"),
                  ("44 ms", 0.044, "s"), ("45 tok/s", 45.0, "tok/s")]


def test_br_parts_the_values_of_a_table_cell(parser: Parser) -> None:
    text, qs = _one(parser, "| engine | throughput |\n| --- | --- |\n| vLLM | 46 tok/s<br>47 tok/s |\n")
    assert text == "vLLM | 46 tok/s 47 tok/s"
    assert qs == [("46 tok/s", 46.0, "tok/s"), ("47 tok/s", 47.0, "tok/s")]


@pytest.mark.parametrize("tag", ["</p><p>", "<hr>", "<span>", "</span>", "<!-- note -->", "<div>", "<li>", "<td>"])
def test_any_tag_between_two_values_keeps_them_apart(parser: Parser, tag: str) -> None:
    text, qs = _one(parser, f"- SGLang 71 tok/s{tag}ttft 72 ms\n")
    assert text == "SGLang 71 tok/s ttft 72 ms"
    assert qs == [("71 tok/s", 71.0, "tok/s"), ("72 ms", 0.072, "s")]


@pytest.mark.parametrize(("line", "text", "qs"), [
    ("- vLLM <b>362</b> tok/s", "vLLM 362 tok/s", [("362 tok/s", 362.0, "tok/s")]),
    ("- vLLM <i>throughput</i> <code>363</code> tok/s", "vLLM throughput 363 tok/s", [("363 tok/s", 363.0, "tok/s")]),
    ("- vLLM (<a href=\"https://example.org/x\">blog</a>) 364 tok/s", "vLLM (blog) 364 tok/s",
     [("364 tok/s", 364.0, "tok/s")]),
    ("- vLLM <b>365</b>tok/s", "vLLM 365 tok/s", [("365 tok/s", 365.0, "tok/s")]),
    ("- vLLM 吞吐<b>提升</b>3倍", "vLLM 吞吐提升 3倍", [("3倍", 3.0, "×")]),
    ("- vLLM 1<wbr>234 tok<wbr>/s", "vLLM 1234 tok/s", [("1234 tok/s", 1234.0, "tok/s")]),
])
def test_inline_tags_are_dropped_without_joining_words(parser: Parser, line: str, text: str, qs: list) -> None:
    assert _one(parser, line + "\n") == (text, qs)


@pytest.mark.parametrize(("line", "text", "qs"), [
    ("- vLLM throughput 8<b>16</b> tok/s", "vLLM throughput 816 tok/s", [("816 tok/s", 816.0, "tok/s")]),
    ("- vLLM throughput 8<span>17</span> tok/s", "vLLM throughput 817 tok/s", [("817 tok/s", 817.0, "tok/s")]),
    ("- vLLM throughput <i>8</i>18 tok/s", "vLLM throughput 818 tok/s", [("818 tok/s", 818.0, "tok/s")]),
    ("- vLLM throughput 8<b>.</b>19 tok/s", "vLLM throughput 8.19 tok/s", [("8.19 tok/s", 8.19, "tok/s")]),
    # a digit and a letter are still two words; a line break still parts two digits
    ("- vLLM 820 tok/s<span>ttft 9 ms", "vLLM 820 tok/s ttft 9 ms", [("820 tok/s", 820.0, "tok/s"), ("9 ms", 0.009, "s")]),
    ("- vLLM throughput 8<br>21 tok/s", "vLLM throughput 8 21 tok/s", [("8", 8.0, None), ("21 tok/s", 21.0, "tok/s")]),
])
def test_an_inline_tag_between_two_digits_keeps_the_number_whole(parser: Parser, line: str, text: str, qs: list) -> None:
    assert _one(parser, line + "\n") == (text, qs)


def test_an_inline_tag_inside_a_number_in_an_html_cell(parser: Parser) -> None:
    text, qs = _one(parser, "<table>\n<tr><td>vLLM</td><td>8<b>22</b> tok/s</td></tr>\n</table>\n")
    assert (text, qs) == ("vLLM | 822 tok/s", [("822 tok/s", 822.0, "tok/s")])


def test_an_html_link_gives_its_href(parser: Parser) -> None:
    parsed = parser.parse_bytes("inbox/ann/2026-07-31-0900-markup.md",
                                b'- vLLM 366 tok/s (<a href="https://arxiv.org/abs/2607.26627">paper</a>)\n')
    (claim,) = parsed.claims
    assert "arxiv:2607.26627" in claim.subjects


# -- superscripts, ** and struck-out text --------------------------------------------------------

@pytest.mark.parametrize(("line", "text", "qs"), [
    ("- vLLM throughput 10<sup>3</sup> tok/s", "vLLM throughput 10^3 tok/s", [("10^3 tok/s", 1000.0, "tok/s")]),
    ("- vLLM ttft 10<sup>-3</sup> s", "vLLM ttft 10^-3 s", [("10^-3 s", 0.001, "s")]),
    # not 13 tok/s: the base and the exponent stay apart, and a power of another base than ten is
    # named (kb.extract.unread.unread_numbers), no part of it read
    ("- vLLM throughput 1<sup>3</sup> tok/s", "vLLM throughput 1^3 tok/s", []),
    # a footnote mark is no digit of the value after it (was 1 500 tok/s, read as 1500)
    ("- vLLM throughput<sup>1</sup> 367 tok/s", "vLLM throughput^1 367 tok/s", [("367 tok/s", 367.0, "tok/s")]),
    ("- SGLang T<sub>1</sub> 368 ms", "SGLang T_1 368 ms", [("368 ms", 0.368, "s")]),
])
def test_superscripts_never_join_digits(parser: Parser, line: str, text: str, qs: list) -> None:
    assert _one(parser, line + "\n") == (text, qs)


def test_double_star_between_digits_is_no_emphasis(parser: Parser) -> None:
    text, qs = _one(parser, "- vLLM throughput 2**10 tok/s\n")
    assert text == "vLLM throughput 2^10 tok/s"
    assert qs == []  # not 210 tok/s, nor 2 alone: 2^10 is named as a power kb does not read
    # two of them CommonMark pairs as bold: still no 210 nor 106
    text, qs = _one(parser, "- vLLM 2**10 tok/s and 10**6 tokens\n")
    assert text == "vLLM 2^10 tok/s and 10^6 tokens"
    assert ("10^6 tokens", 1e6, "tokens") in qs and all(q[1] not in (210.0, 106.0) for q in qs)
    # emphasis that CommonMark could not close elsewhere still drops its markers (C12)
    assert _one(parser, "- **吞吐**提升 vLLM 4 倍\n")[0] == "吞吐提升 vLLM 4 倍"


@pytest.mark.parametrize("line", ["- vLLM ~~354 tok/s~~ 355 tok/s", "- vLLM <del>354 tok/s</del> 355 tok/s",
                                  "- vLLM <s>354 tok/s</s> 355 tok/s", "- vLLM <strike>354 tok/s</strike> 355 tok/s"])
def test_struck_out_text_is_not_read(parser: Parser, line: str) -> None:
    assert _one(parser, line + "\n") == ("vLLM 355 tok/s", [("355 tok/s", 355.0, "tok/s")])


def test_a_lone_tilde_is_no_strikethrough(parser: Parser) -> None:
    text, qs = _one(parser, "- vLLM ~356 tok/s, SGLang ~357 tok/s\n")
    assert text == "vLLM ~356 tok/s, SGLang ~357 tok/s"
    assert [q[1] for q in qs] == [356.0, 357.0]


@pytest.mark.parametrize(("line", "text", "qs"), [
    # a pair of single tildes strikes, as on GitHub
    ("- vLLM throughput ~851 tok/s~ 852 tok/s", "vLLM throughput 852 tok/s", [("852 tok/s", 852.0, "tok/s")]),
    ("- vLLM throughput (~853 tok/s~) 854 tok/s", "vLLM throughput () 854 tok/s", [("854 tok/s", 854.0, "tok/s")]),
    ("- vLLM ~[855 tok/s](https://example.org/a)~ 856 tok/s", "vLLM 856 tok/s", [("856 tok/s", 856.0, "tok/s")]),
    # a tilde inside a word or number neither opens nor closes one: ranges stay ranges
    ("- vLLM 延迟 3~5 ms，7~9 ms", "vLLM 延迟 3~5 ms，7~9 ms", [("3~5 ms", None, "s"), ("7~9 ms", None, "s")]),
    ("- vLLM ~857 tok/s，~858 tok/s", "vLLM ~857 tok/s，~858 tok/s",
     [("857 tok/s", 857.0, "tok/s"), ("858 tok/s", 858.0, "tok/s")]),
    ("- vLLM 吞吐约~300~400 tok/s", "vLLM 吞吐约~300~400 tok/s", [("300~400 tok/s", None, "tok/s")]),
    # escaped, or next to a double tilde: text
    ("- vLLM throughput \\~859 tok/s~ 860", "vLLM throughput ~859 tok/s~ 860", [("859 tok/s", 859.0, "tok/s")]),
])
def test_a_pair_of_single_tildes_strikes_outside_words(parser: Parser, line: str, text: str, qs: list) -> None:
    assert _one(parser, line + "\n") == (text, qs)


def test_a_pair_of_single_tildes_strikes_in_a_table_cell(parser: Parser) -> None:
    text, qs = _one(parser, "| engine | throughput |\n| --- | --- |\n| vLLM | ~861 tok/s~ 862 tok/s |\n")
    assert (text, qs) == ("vLLM | 862 tok/s", [("862 tok/s", 862.0, "tok/s")])


def test_tildes_inside_an_html_block_are_text(parser: Parser) -> None:
    # Markdown inside an HTML block is not Markdown: the tildes show and both values are read
    text, qs = _one(parser, "<table><tr><td>vLLM</td><td>~~863 tok/s~~ 864 tok/s</td></tr></table>\n")
    assert (text, qs) == ("vLLM | ~~863 tok/s~~ 864 tok/s", [("863 tok/s", 863.0, "tok/s"), ("864 tok/s", 864.0, "tok/s")])


# -- HTML blocks --------------------------------------------------------------------------------

def test_html_tables_are_read_as_table_rows(parser: Parser) -> None:
    text = ("<table><tr><th>engine</th><th>throughput</th></tr><tr><td>vLLM</td><td>81 tok/s</td></tr></table>\n"
            "\n"
            "<table>\n"
            "<tr><td>SGLang</td><td>82 tok/s</td></tr>\n"
            "</table>\n"
            "\n"
            "<table>\n"
            "  <thead>\n"
            "    <tr><th>engine</th><th>ttft</th></tr>\n"
            "  </thead>\n"
            "  <tbody>\n"
            "    <tr>\n"
            "      <td><b>SGLang</b></td>\n"
            "      <td>83 ms<br>84 ms</td>\n"
            "    </tr>\n"
            "    <tr><td>vLLM</td><td><del>90 ms</del> 85 ms</td></tr>\n"
            "  </tbody>\n"
            "</table>\n")
    assert _claims(parser, text) == [
        (1, "table-row", "vLLM | 81 tok/s", [("81 tok/s", 81.0, "tok/s")]),
        (4, "table-row", "SGLang | 82 tok/s", [("82 tok/s", 82.0, "tok/s")]),
        (12, "table-row", "SGLang | 83 ms 84 ms", [("83 ms", 0.083, "s"), ("84 ms", 0.084, "s")]),
        (16, "table-row", "vLLM | 85 ms", [("85 ms", 0.085, "s")]),
    ]


def test_an_html_table_header_gives_its_columns_metric(parser: Parser) -> None:
    parsed = parser.parse_bytes("inbox/ann/2026-07-31-0900-markup.md",
                                b"<table><tr><th>engine</th><th>TTFT</th></tr><tr><td>vLLM</td><td>86 ms</td></tr></table>\n")
    (claim,) = parsed.claims
    assert [(q.raw, q.metric, q.subject) for q in claim.quantities] == [("86 ms", "ttft", None)]
    assert claim.subjects == ["entity:vllm"]


def test_html_block_text_is_read_as_paragraphs_with_their_lines(parser: Parser) -> None:
    text = ("<div>\n"
            "vLLM throughput 91 tok/s\n"
            "</div>\n"
            "\n"
            "<div align=\"center\">\n"
            "<p>SGLang throughput <b>92</b> tok/s.</p>\n"
            "<p>vLLM\n"
            "ttft 93 ms</p>\n"
            "<!-- vLLM 99 tok/s -->\n"
            "<pre>vLLM 98 tok/s</pre>\n"
            "</div>\n"
            "\n"
            "<!-- an aside\n"
            "vLLM 97 tok/s -->\n"
            "\n"
            "<details>\n"
            "<summary>SGLang 94 tok/s</summary>\n")
    assert _claims(parser, text) == [
        (2, "sentence", "vLLM throughput 91 tok/s", [("91 tok/s", 91.0, "tok/s")]),
        (6, "sentence", "SGLang throughput 92 tok/s.", [("92 tok/s", 92.0, "tok/s")]),
        (7, "sentence", "vLLM ttft 93 ms", [("93 ms", 0.093, "s")]),
        (17, "sentence", "SGLang 94 tok/s", [("94 tok/s", 94.0, "tok/s")]),
    ]


def test_html_headings_are_headings(parser: Parser) -> None:
    parsed = parser.parse_bytes("inbox/ann/2026-07-31-0900-markup.md",
                                b"<h2>vLLM notes</h2>\n\n- 95 tok/s\n\n<h3 id=\"s\">About <b>SGLang</b> (3)</h3>\n\n- 96 tok/s\n")
    assert [(h.level, h.text, h.line) for h in parsed.headings] == [(2, "vLLM notes", 1), (3, "About SGLang (3)", 5)]
    assert [(c.text, c.provenance.heading) for c in parsed.claims] == [
        ("95 tok/s", ["vLLM notes"]), ("96 tok/s", ["vLLM notes", "About SGLang (3)"])]


def test_an_unclosed_html_comment_still_warns(parser: Parser) -> None:
    parsed = parser.parse_bytes("inbox/ann/2026-07-31-0900-markup.md", b"- vLLM 1 tok/s\n\n<!-- draft\n- vLLM 2 tok/s\n")
    assert [c.text for c in parsed.claims] == ["vLLM 1 tok/s"]
    assert [(p.line, p.code) for p in parsed.problems] == [(3, "unclosed")]


def test_a_row_read_from_its_raw_line_is_flattened_too(parser: Parser) -> None:
    """A row with more cells than its header is read from the raw line (C13); its cells' markup
    is read as any cell's (was ``**26** tok/s`` -> 26 with no unit, ``<br>`` kept as text)."""
    parsed = parser.parse_bytes("inbox/ann/2026-07-31-0900-markup.md", (
        "| engine | throughput |\n| --- | --- |\n"
        "| vLLM | 24 tok/s<br>25 tok/s | **26** tok/s [p](https://arxiv.org/abs/2607.26627) |\n").encode())
    (claim,) = parsed.claims
    assert claim.text == "vLLM | 24 tok/s 25 tok/s | 26 tok/s p"
    assert [(q.raw, q.value, q.unit) for q in claim.quantities] == [
        ("24 tok/s", 24.0, "tok/s"), ("25 tok/s", 25.0, "tok/s"), ("26 tok/s", 26.0, "tok/s")]
    assert "arxiv:2607.26627" in claim.subjects
    assert [p.message for p in parsed.problems] == ["3 cells, header has 2; row read from the raw line"]


def test_a_struck_tag_never_closed_strikes_nothing(parser: Parser) -> None:
    assert _one(parser, "- vLLM <del>old build 357 tok/s\n") == ("vLLM old build 357 tok/s", [("357 tok/s", 357.0, "tok/s")])


def test_an_html_link_text_is_a_title_span_like_a_markdown_link(parser: Parser) -> None:
    md = parser.parse_bytes("inbox/ann/2026-07-31-0900-markup.md",
                            b"- [The paper reports fast decoding](https://example.org/a) 358 tok/s\n").claims[0]
    html = parser.parse_bytes("inbox/ann/2026-07-31-0900-markup.md",
                              b'- <a href="https://example.org/a">The paper reports fast decoding</a> 358 tok/s\n').claims[0]
    assert html.text == md.text == "The paper reports fast decoding 358 tok/s"
    assert (html.kind, html.kind_reason) == (md.kind, md.kind_reason)
    assert html.sources == md.sources == ["https://example.org/a"]


# -- an HTML block that runs to the end of the file ------------------------------------------------

@pytest.mark.parametrize(("opening", "tag"), [
    ("<pre>", "pre"), ("<script>", "script"), ("<style type=\"text/css\">", "style"), ("<TEXTAREA>", "textarea"),
    ("<pre class=\"x\">var x = 1;", "pre"),
])
def test_a_raw_html_element_never_closed_is_said(parser: Parser, opening: str, tag: str) -> None:
    parsed = parser.parse_bytes("inbox/ann/2026-07-31-0900-markup.md",
                                f"- vLLM throughput 841 tok/s\n\n{opening}\n\n- vLLM throughput 842 tok/s\n\n"
                                "- vLLM throughput 843 tok/s\n".encode("utf-8"))
    assert [q.value for c in parsed.claims for q in c.quantities] == [841.0]
    assert [str(p) for p in parsed.problems] == [
        f"inbox/ann/2026-07-31-0900-markup.md:3: <{tag}> element opened here is never closed: the 2 line(s) of text "
        "after it are not read"]


@pytest.mark.parametrize("block", ["<pre>\n844 tok/s\n</pre>", "<script>\nx = 844;\n</SCRIPT>",
                                   "<pre>\n844 tok/s\n</style>", "<div>\nSGLang 844 tok/s"])
def test_a_closed_raw_html_element_or_another_block_is_not_said(parser: Parser, block: str) -> None:
    parsed = parser.parse_bytes("inbox/ann/2026-07-31-0900-markup.md",
                                f"- vLLM throughput 845 tok/s\n\n{block}\n\n- vLLM throughput 846 tok/s\n".encode())
    assert parsed.problems == []
    assert [q.value for c in parsed.claims for q in c.quantities] == ([845.0, 844.0, 846.0] if "div" in block
                                                                       else [845.0, 846.0])


def test_a_marked_section_the_html_parser_cannot_name_is_text(parser: Parser) -> None:
    """``<![`` before no name made the standard library's HTML parser raise: the whole file was
    skipped. The section is read as text, as a browser reads it, and the block's figures stay."""
    doc = "<div>\n<![\ufffdCDATA[ vLLM 310 tok/s\n</div>\n\n<div><![x[ SGLang 320 tok/s ]]></div>\n"
    parsed = parser.parse_bytes("inbox/ann/2026-07-31-0900-markup.md", doc.encode("utf-8"))
    assert [p.message for p in parsed.problems] == []
    assert [(c.provenance.line, c.subjects, [(q.raw, q.value) for q in c.quantities]) for c in parsed.claims] == [
        (2, ["entity:vllm"], [("310 tok/s", 310.0)]), (5, ["entity:sglang"], [("320 tok/s", 320.0)])]
