"""kb.read.scopes.section_ids reads each line as the tests one after another on each line did
(fence, ATX heading, link line, labelled id line), now in one scan of the body: the line numbers,
a first line, fenced code, CR before LF, spaces and a vertical tab around a link."""

from __future__ import annotations

from kb.read.scopes import section_ids


def test_first_line_and_last_line_without_newline() -> None:
    body = "## Paper A\n[PDF](https://arxiv.org/pdf/2401.00001)\n## Paper B\n**arXiv:** 2309.05793"
    assert section_ids(body) == {1: "arxiv:2401.00001", 3: "arxiv:2309.05793"}


def test_fenced_lines_are_not_read() -> None:
    body = ("# Top\n```\n## Not a heading\n[x](https://arxiv.org/abs/2401.00002)\n```\n## Real\n"
            "  - [p](https://huggingface.co/papers/2309.05793)  \n")
    assert section_ids(body) == {1: "arxiv:2309.05793", 6: "arxiv:2309.05793"}


def test_crlf_and_space_around_a_link() -> None:
    body = "## One\r\n[论文](https://arxiv.org/abs/2402.00004)\r\n## Two\r\n原文链接：https://arxiv.org/abs/2402.00005\r\n"
    assert section_ids(body) == {1: "arxiv:2402.00004", 3: "arxiv:2402.00005"}
    assert section_ids("## V\n\x0b[y](arxiv.org/abs/2405.00007)\x0c\n") == {1: "arxiv:2405.00007"}


def test_a_heading_over_two_ids_gets_none() -> None:
    body = "# Digest\n## A\n arXiv 2403.00006\n## B\n> [b](http://arxiv.org/abs/2403.00007v2)\n"
    assert section_ids(body) == {2: "arxiv:2403.00006", 4: "arxiv:2403.00007"}
