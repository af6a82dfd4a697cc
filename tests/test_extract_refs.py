"""Tests for kb.extract.refs: URLs, DOIs and KB paths, and where each one ends."""

from __future__ import annotations

import pytest

from kb.extract.refs import find_dois, find_kb_paths, find_urls


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://vllm.ai/blog", ["https://vllm.ai/blog"]),
        ("见 https://vllm.ai/blog。", ["https://vllm.ai/blog"]),
        ("对比 https://arxiv.org/pdf/2301.00001v3.pdf，以及", ["https://arxiv.org/pdf/2301.00001v3.pdf"]),
        ("（https://x.com/a）、", ["https://x.com/a"]),
        ("详见https://vllm.ai/blog中的说明", ["https://vllm.ai/blog"]),
        ("https://x.com/a；https://y.com/b：", ["https://x.com/a", "https://y.com/b"]),
        ("https://x.com/a【注】", ["https://x.com/a"]),
        ("See https://x.com/a.", ["https://x.com/a"]),
        ("See https://x.com/a, then", ["https://x.com/a"]),
        ("(see https://x.com/a)", ["https://x.com/a"]),
        ("[t](https://x.com/a)", ["https://x.com/a"]),
        ("[https://x.org/a](https://x.org/a)", ["https://x.org/a", "https://x.org/a"]),
        ("https://en.wikipedia.org/wiki/Foo_(bar)", ["https://en.wikipedia.org/wiki/Foo_(bar)"]),
        ("(https://en.wikipedia.org/wiki/Foo_(bar))", ["https://en.wikipedia.org/wiki/Foo_(bar)"]),
        ("'https://x.com/a'", ["https://x.com/a"]),
        ('"https://x.com/a"', ["https://x.com/a"]),
        ("<https://a.b/c?d=1&e=2#f>", ["https://a.b/c?d=1&e=2#f"]),
        ("| https://a.b/c | x |", ["https://a.b/c"]),
        ("`https://a.b/c`", ["https://a.b/c"]),
        ("HTTPS://A.B/C!", ["HTTPS://A.B/C"]),
        ("http://127.0.0.1:8080/api/query?id_list=2607.26627v2", ["http://127.0.0.1:8080/api/query?id_list=2607.26627v2"]),
        ("http:// 与 https://", []),
        ("xhttps://a.b", []),
    ],
)
def test_find_urls(text: str, expected: list[str]) -> None:
    found = find_urls(text)
    assert [u for u, _, _ in found] == expected
    assert all(text[s:e] == u for u, s, e in found)


def test_url_offsets() -> None:
    assert find_urls("见 https://vllm.ai/blog。") == [("https://vllm.ai/blog", 2, 22)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("DOI 10.1145/3803798）：可作为", [("10.1145/3803798", 4, 19)]),
        ("doi:10.1145/3803798", [("10.1145/3803798", 4, 19)]),
        ("DOI: 10.1000/ABC.def.", [("10.1000/abc.def", 5, 20)]),
        ("https://doi.org/10.1145/3803798", [("10.1145/3803798", 16, 31)]),
        ("http://dx.doi.org/10.1145/3803798，", [("10.1145/3803798", 18, 33)]),
        ("https://doi.org/10.48550/arXiv.2607.26627", [("10.48550/arxiv.2607.26627", 16, 41)]),
        ("(10.1002/(SICI)1097-4571)", [("10.1002/(sici)1097-4571", 1, 24)]),
        ("10.1145/3803798；10.1145/3803799", [("10.1145/3803798", 0, 15), ("10.1145/3803799", 16, 31)]),
        ("10.0.0.1", []),
        ("10.1/x", []),
        ("110.1145/3803798", []),
        ("v10.1145/3803798", []),
        ("10.1145/", []),
        ("1.10.1145/3", []),
    ],
)
def test_find_dois(text: str, expected: list[tuple[str, int, int]]) -> None:
    assert find_dois(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("inbox/jay/2026-07-31T1735-jay-briefing.md", ["inbox/jay/2026-07-31T1735-jay-briefing.md"]),
        ("源：paper_cards/681-2607-26627.md（主分类", ["paper_cards/681-2607-26627.md"]),
        ("organized/paper_cards/681-2607-26627.md", ["organized/paper_cards/681-2607-26627.md"]),
        ("organized/knowledge/inference.md,x", ["organized/knowledge/inference.md"]),
        ("knowledge/inference.md.", ["knowledge/inference.md"]),
        (
            "organized/knowledge/history/inference/v44.md",
            ["organized/knowledge/history/inference/v44.md"],
        ),
        ("./inbox/tom/2026-07-31-0900-hf-daily.md。", ["inbox/tom/2026-07-31-0900-hf-daily.md"]),
        ("paper_cards/681 arXiv:2607.26627", ["paper_cards/681"]),
        ("paper_cards/681：Revisiting", ["paper_cards/681"]),
        ("paper_cards/681-2607-26627 卡", ["paper_cards/681-2607-26627"]),
        ("paper_cards/12-hep-th-9901001.md", ["paper_cards/12-hep-th-9901001.md"]),
        ("inbox/jay/推测解码笔记.md的结论", ["inbox/jay/推测解码笔记.md"]),
        ("inbox/jay/a.md中的说明", ["inbox/jay/a.md"]),
        ("inbox/jay/a.md+inbox/tom/b.md", ["inbox/jay/a.md", "inbox/tom/b.md"]),
        ("inbox/jay/a.md→paper_cards/681", ["inbox/jay/a.md", "paper_cards/681"]),
        ("(inbox/jay/a.md)", ["inbox/jay/a.md"]),
        ("（inbox/jay/a.md）", ["inbox/jay/a.md"]),
        ("`inbox/jay/a.md`", ["inbox/jay/a.md"]),
        ("paper_cards/666-681 近3天", []),
        ("inbox/jay/(2026-07-31T1735-jay-briefing)", []),
        ("https://github.com/a/inbox/x.md", []),
        ("src/inbox/x.md", []),
        ("inbox/jay/a.mdx", []),
        ("paper_cards/abc", []),
        ("the inbox is empty", []),
    ],
)
def test_find_kb_paths(text: str, expected: list[str]) -> None:
    found = find_kb_paths(text)
    assert [p for p, _, _ in found] == expected
    assert all(text[s:e] == p for p, s, e in found)


def test_kb_path_offsets() -> None:
    text = "源：./paper_cards/681-2607-26627.md（"
    assert find_kb_paths(text) == [("paper_cards/681-2607-26627.md", 4, 33)]
