"""arXiv ids in the forms real feeds write them (issue 20, fault 5): folded once by
kb.extract.arxiv_ids, so the parser, ``kb verify`` and lint read the same id; ids in a
list joined by commas with no space are each read."""

from __future__ import annotations

import pytest

from kb.core.config import KbConfig
from kb.extract.arxiv_ids import find_arxiv, fold_id_text, parse_arxiv_id, scan_arxiv
from kb.read.parse import Parser
from kb.verify.targets import targets_from_inputs

CONFIG = KbConfig(topics={"serving": ["serving"]}, entities={"vLLM": []})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # full-width letters and digits (zh input methods): the id, not a phantom subject
        ("新论文 ａｒＸｉｖ：２６０９．１２３４５ 值得看", [("2609.12345", None, "ａｒＸｉｖ：２６０９．１２３４５")]),
        ("见（２６０９.１２３４５ｖ２）", [("2609.12345", 2, "２６０９.１２３４５ｖ２")]),
        # any case of the prefix and of the version
        ("Preprint ARXIV:2609.12345V4 is out.", [("2609.12345", 4, "ARXIV:2609.12345V4")]),
        ("arxiv：2609.12345v1", [("2609.12345", 1, "arxiv：2609.12345v1")]),
        # a link through a redirect, percent-encoded once or twice
        ("[x](https://out.example.net/go?to=https%3A%2F%2Farxiv.org%2Fabs%2F2609.12345)",
         [("2609.12345", None, "https%3A%2F%2Farxiv.org%2Fabs%2F2609.12345")]),
        ("go?u=https%253A%252F%252Farxiv.org%252Fpdf%252F2609.12345v3&src=feed",
         [("2609.12345", 3, "https%253A%252F%252Farxiv.org%252Fpdf%252F2609.12345v3")]),
        # old-style ids after a slash, and in upper case
        ("mirror: https://inspire.example.org/lit/astro-ph/0512345", [("astro-ph/0512345", None, "astro-ph/0512345")]),
        ("cited as COND-MAT/0207123v2", [("cond-mat/0207123", 2, "COND-MAT/0207123v2")]),
        ("arxiv.org/abs/QUANT-PH/0101042", [("quant-ph/0101042", None, "arxiv.org/abs/QUANT-PH/0101042")]),
    ],
)
def test_real_forms_are_one_id(text: str, expected: list[tuple[str, int | None, str]]) -> None:
    assert [(r.id, r.version, r.raw) for r in find_arxiv(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "viXra:1203.0042 claims a proof",
        "see vixra.org/abs/1203.0042v1",
        "bioRxiv: 2609.12345",
        "SSRN 2609.12345",
        "HAL:1203.0042",
        "x²³⁴⁵.12345",  # superscripts are no digits of an id
        "some/path/cs/1234567",  # month 34: an invalid token inside a path is no mention
    ],
)
def test_other_servers_and_paths_are_no_arxiv_ids(text: str) -> None:
    assert scan_arxiv(text) == []


def test_a_name_ending_like_a_server_is_no_server() -> None:
    assert [r.id for r in find_arxiv("Marshal: 2609.12345")] == ["2609.12345"]


def test_fold_keeps_offsets() -> None:
    text = "ａｒＸｉｖ：２６０９．１２３４５，吞吐 2×"
    folded = fold_id_text(text)
    assert (folded, len(folded)) == ("arXiv:2609.12345，吞吐 2×", len(text))
    assert fold_id_text("plain ascii") == "plain ascii"


def test_parser_verify_and_lint_agree_on_a_full_width_id() -> None:
    parsed = Parser(CONFIG).parse_text("inbox/a/2026-09-20-feed.md",
                                       "- 新方法 ａｒＸｉｖ：２６０９．１２３４５ 把 vLLM 吞吐提到 1.7×。\n")
    [claim] = parsed.claims
    assert [(r.id, r.key) for r in claim.arxiv] == [("2609.12345", "arxiv:2609.12345")]
    assert "arxiv:2609.12345" in claim.subjects
    # the mention is located where its digits are written (line 1, column 13)
    assert [(m.id, m.line, m.column) for m in parsed.mentions] == [("2609.12345", 1, 13)]
    assert parsed.invalid_ids == []
    # kb verify reads an argument with the same fold, and lint (KB103) scans with scan_arxiv
    [target] = targets_from_inputs(["ａｒＸｉｖ：２６０９．１２３４５"])
    assert (target.id, target.error) == ("2609.12345", None)
    assert [c.id for c in scan_arxiv("ａｒＸｉｖ：２６０９．１２３４５")] == ["2609.12345"]


@pytest.mark.parametrize(
    ("arg", "id_", "version"),
    [
        ("ARXIV:2609.12345V2", "2609.12345", 2),
        ("https://out.example.net/go?to=https%3A%2F%2Farxiv.org%2Fabs%2F2609.12345", "2609.12345", None),
        ("ＨＥＰ－ＴＨ／０６０１００１", "hep-th/0601001", None),
        ("HEP-TH/0601001v1", "hep-th/0601001", 1),
    ],
)
def test_verify_arguments_in_real_forms(arg: str, id_: str, version: int | None) -> None:
    ref = parse_arxiv_id(arg)
    assert (ref.id, ref.version) == (id_, version)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a list joined by commas with no space: every id, as each is written
        ("TGI papers 2607.00001,2607.00002,2607.00003",
         [("2607.00001", None, "2607.00001"), ("2607.00002", None, "2607.00002"), ("2607.00003", None, "2607.00003")]),
        ("TGI 300 tok/s 2607.00019,2607.00020", [("2607.00019", None, "2607.00019"), ("2607.00020", None, "2607.00020")]),
        ("2607.00001v2,2607.00002v3", [("2607.00001", 2, "2607.00001v2"), ("2607.00002", 3, "2607.00002v3")]),
        ("arXiv:2607.00001,2607.00002", [("2607.00001", None, "arXiv:2607.00001"), ("2607.00002", None, "2607.00002")]),
        ("https://arxiv.org/abs/2607.00001,2607.00002",
         [("2607.00001", None, "https://arxiv.org/abs/2607.00001"), ("2607.00002", None, "2607.00002")]),
        ("hep-th/9901001,2607.00002", [("hep-th/9901001", None, "hep-th/9901001"), ("2607.00002", None, "2607.00002")]),
        # the other separators with no space
        ("2607.00001、2607.00002，2607.00003;2607.00004/2607.00005",
         [(f"2607.0000{i}", None, f"2607.0000{i}") for i in range(1, 6)]),
        # a comma and a digit after an id is no second id nor a version
        ("2607.00001,2 and 2607.00003,25", [("2607.00001", None, "2607.00001"), ("2607.00003", None, "2607.00003")]),
        # after a number's comma the digits stay a number
        ("1,2607.00001 and 12,3456.7890 and 1,234 and v1.2,2607.00002", []),
    ],
)
def test_ids_joined_by_a_comma_with_no_space_are_each_read(text: str, expected: list[tuple[str, int | None, str]]) -> None:
    assert [(r.id, r.version, r.raw) for r in find_arxiv(text)] == expected


def test_an_invalid_id_before_the_comma_still_lets_the_next_be_read() -> None:
    assert [(c.raw, c.id, c.error) for c in scan_arxiv("2613.00001,2607.00002")] == [
        ("2613.00001", None, "month 13 does not exist"), ("2607.00002", "2607.00002", None)]


def test_the_parser_gives_a_claim_every_comma_joined_id() -> None:
    parsed = Parser(CONFIG).parse_text("inbox/a/2026-07-31-ids.md", "- vLLM papers 2607.00001,2607.00002,2607.00003\n")
    [claim] = parsed.claims
    assert [r.key for r in claim.arxiv] == ["arxiv:2607.00001", "arxiv:2607.00002", "arxiv:2607.00003"]
    assert [(m.id, m.line, m.column) for m in parsed.mentions] == [
        ("2607.00001", 1, 15), ("2607.00002", 1, 26), ("2607.00003", 1, 37)]
