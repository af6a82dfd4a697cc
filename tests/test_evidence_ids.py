"""arXiv ids in the forms real feeds write them (issue 20, fault 5): folded once by
kb.extract.arxiv_ids, so the parser, ``kb verify`` and lint read the same id."""

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
