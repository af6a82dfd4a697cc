"""Tests for kb.extract.arxiv_ids: scanning, validation, link merging and CLI parsing."""

from __future__ import annotations

import pytest

from kb.extract.arxiv_ids import InvalidArxivId, find_arxiv, parse_arxiv_id, scan_arxiv
from kb.extract.vocab.arxiv import KNOWN_ARCHIVES

# --- forms: (text, id, version, start, end, raw) ----------------------------------------------
FORMS = [
    ("2607.26627", "2607.26627", None, 0, 10, "2607.26627"),
    ("2607.26627v2", "2607.26627", 2, 0, 12, "2607.26627v2"),
    ("见 arXiv:2607.26627 。", "2607.26627", None, 8, 18, "arXiv:2607.26627"),
    ("arxiv:2607.26627", "2607.26627", None, 6, 16, "arxiv:2607.26627"),
    ("ARXIV:2607.26627v3", "2607.26627", 3, 6, 18, "ARXIV:2607.26627v3"),
    ("arXiv：2607.26627v2", "2607.26627", 2, 6, 18, "arXiv：2607.26627v2"),
    ("arXiv: 2607.26627", "2607.26627", None, 7, 17, "arXiv: 2607.26627"),
    ("arXiv.2607.26627", "2607.26627", None, 6, 16, "arXiv.2607.26627"),
    (
        "https://arxiv.org/abs/2607.26627v2",
        "2607.26627", 2, 22, 34, "https://arxiv.org/abs/2607.26627v2",
    ),
    ("http://arxiv.org/pdf/2607.26627", "2607.26627", None, 21, 31, "http://arxiv.org/pdf/2607.26627"),
    (
        "https://arxiv.org/pdf/2607.26627v2.pdf",
        "2607.26627", 2, 22, 34, "https://arxiv.org/pdf/2607.26627v2.pdf",
    ),
    (
        "https://arxiv.org/html/2607.26627v1",
        "2607.26627", 1, 23, 35, "https://arxiv.org/html/2607.26627v1",
    ),
    (
        "https://www.arxiv.org/abs/2607.26627",
        "2607.26627", None, 26, 36, "https://www.arxiv.org/abs/2607.26627",
    ),
    (
        "http://export.arxiv.org/abs/2607.26627?context=cs.",
        "2607.26627", None, 28, 38, "http://export.arxiv.org/abs/2607.26627?context=cs",
    ),
    (
        "(https://arxiv.org/abs/2607.26627#S3)",
        "2607.26627", None, 23, 33, "https://arxiv.org/abs/2607.26627#S3",
    ),
    ("arxiv.org/abs/2607.26627", "2607.26627", None, 14, 24, "arxiv.org/abs/2607.26627"),
    ("hep-th/9901001", "hep-th/9901001", None, 0, 14, "hep-th/9901001"),
    ("math.GT/0309136", "math.GT/0309136", None, 0, 15, "math.GT/0309136"),
    ("hep-ex/0406020v1", "hep-ex/0406020", 1, 0, 16, "hep-ex/0406020v1"),
    ("physics.optics/0101001", "physics.optics/0101001", None, 0, 22, "physics.optics/0101001"),
    ("arXiv:cond-mat/0102536v2", "cond-mat/0102536", 2, 6, 24, "arXiv:cond-mat/0102536v2"),
    (
        "https://arxiv.org/abs/hep-ex/0406020v1",
        "hep-ex/0406020", 1, 22, 38, "https://arxiv.org/abs/hep-ex/0406020v1",
    ),
    (
        "https://arxiv.org/pdf/math.GT/0309136.pdf",
        "math.GT/0309136", None, 22, 37, "https://arxiv.org/pdf/math.GT/0309136.pdf",
    ),
    ("见2607.26627。", "2607.26627", None, 1, 11, "2607.26627"),
    ("(2607.26627)", "2607.26627", None, 1, 11, "2607.26627"),
    ("[2607.26627]", "2607.26627", None, 1, 11, "2607.26627"),
    ("see 2607.26627.", "2607.26627", None, 4, 14, "2607.26627"),
    ("2607.26627.pdf", "2607.26627", None, 0, 10, "2607.26627"),
    ("0704.0001", "0704.0001", None, 0, 9, "0704.0001"),
    ("1412.9999", "1412.9999", None, 0, 9, "1412.9999"),
    ("1501.00001", "1501.00001", None, 0, 10, "1501.00001"),
]


@pytest.mark.parametrize(("text", "id_", "version", "start", "end", "raw"), FORMS)
def test_forms(text: str, id_: str, version: int | None, start: int, end: int, raw: str) -> None:
    refs = find_arxiv(text)
    assert [(r.id, r.version, r.start, r.end, r.raw) for r in refs] == [(id_, version, start, end, raw)]
    assert text[start:end] == id_ + (f"v{version}" if version else "")


# --- invalid but id-shaped: (text, raw, start, reason) -----------------------------------------
INVALID = [
    ("0703.0001", "0703.0001", 0, "new-style ids start at 0704"),
    ("1501.0001", "1501.0001", 0, "4-digit sequence after 1412 (5 digits from 1501)"),
    ("2608.1028", "2608.1028", 0, "4-digit sequence after 1412 (5 digits from 1501)"),
    ("1412.00001", "1412.00001", 0, "5-digit sequence before 1501"),
    ("2313.00001", "2313.00001", 0, "month 13 does not exist"),
    ("2300.00001", "2300.00001", 0, "month 00 does not exist"),
    ("2301.00000", "2301.00000", 0, "sequence number 0 does not exist"),
    ("2301.00001v0", "2301.00001v0", 0, "version v0 does not exist (versions start at v1)"),
    ("2301.00001v000", "2301.00001v000", 0, "version v0 does not exist (versions start at v1)"),
    ("2301.00001v1000", "2301.00001v1000", 0, "version v1000 is past v999, the highest kb takes"),
    ("arXiv:2301.00001v" + "9" * 5000, "arXiv:2301.00001v" + "9" * 5000, 6,
     "version v999999999999… is past v999, the highest kb takes"),
    ("arXiv:2607.266270", "arXiv:2607.266270", 6, "6-digit sequence (4 digits to 1412, 5 from 1501)"),
    ("arXiv:2607.266", "arXiv:2607.266", 6, "3-digit sequence (4 digits to 1412, 5 from 1501)"),
    ("ARXIV：2608.1028", "ARXIV：2608.1028", 6, "4-digit sequence after 1412 (5 digits from 1501)"),
    (
        "https://arxiv.org/abs/foo/1234567",
        "https://arxiv.org/abs/foo/1234567", 22, "unknown archive 'foo'",
    ),
    ("arXiv:foo/1234567", "arXiv:foo/1234567", 6, "unknown archive 'foo'"),
    ("arXiv:hep-th/9913001", "arXiv:hep-th/9913001", 6, "month 13 does not exist"),
    ("arXiv:hep-th/0801001", "arXiv:hep-th/0801001", 6, "old-style ids run from 9108 to 0703"),
    ("arXiv:hep-th/990101", "arXiv:hep-th/990101", 6, "old-style ids have 7 digits after the archive, not 6"),
]


@pytest.mark.parametrize(("text", "raw", "start", "reason"), INVALID)
def test_invalid_candidates(text: str, raw: str, start: int, reason: str) -> None:
    (cand,) = scan_arxiv(text)
    assert (cand.raw, cand.id, cand.start, cand.error) == (raw, None, start, reason)
    assert find_arxiv(text) == []


NEGATIVES = [
    "vLLM 0.26.0",
    "v0.5.16",
    "2.03",
    "383.7",
    "1,918",
    "2026-03-21",
    "2026.05",
    "2026.03.21",
    "10.0.0.1",
    "1.29×",
    "12607.26627",
    "2607.266270",
    "2607.26627123",
    "1.2607.26627",
    "2607.26627.5",
    "v2607.26627",
    "2607.26627abc",
    "2607.26627vx",
    "-2607.26627",
    "−2607.26627",
    "1234.5678%",
    "1234.5678×",
    "1,2345.6789",
    "$1234.5678",
    "foo/1234567",
    "inbox/1234567",
    "x-hep-th/9901001",
    "hep-th/99010012",
    "TTFT 1234.5 ms, 4.2 GB",
    "arXiv: a survey",
    "https://example.org/abs/2607.266",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_no_false_positives(text: str) -> None:
    assert scan_arxiv(text) == []


@pytest.mark.parametrize(
    ("text", "raw"),
    [
        ("2607.26627）", "2607.26627"),
        ("2607.26627。", "2607.26627"),
        ("2607.26627，", "2607.26627"),
        ("2607.26627、", "2607.26627"),
        ("2607.26627】", "2607.26627"),
        ("2607.26627」", "2607.26627"),
        ("2607.26627：", "2607.26627"),
        ("2607.26627；", "2607.26627"),
        ("2607.26627, 2601.00001", "2607.26627"),
        ("2607.26627; x", "2607.26627"),
        ("2607.26627!", "2607.26627"),
        ("2607.26627\n", "2607.26627"),
    ],
)
def test_id_ends_at_punctuation(text: str, raw: str) -> None:
    assert find_arxiv(text)[0].raw == raw


def test_known_archives() -> None:
    assert {"hep-th", "math", "cs", "cond-mat", "q-bio", "cmp-lg", "solv-int"} <= KNOWN_ARCHIVES
    assert "foo" not in KNOWN_ARCHIVES


def test_same_id_twice_is_two_mentions() -> None:
    refs = find_arxiv("2607.26627 与 2607.26627v2 是同一篇")
    assert [(r.id, r.version, r.start) for r in refs] == [("2607.26627", None, 0), ("2607.26627", 2, 13)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # link text + href of the same id: one mention, version from whichever states one
        (
            "[2403.00002](https://arxiv.org/abs/2403.00002v2)",
            [("2403.00002", 2, 1, 11, "[2403.00002](https://arxiv.org/abs/2403.00002v2)")],
        ),
        (
            "[2403.00002v1](https://arxiv.org/abs/2403.00002)",
            [("2403.00002", 1, 1, 13, "[2403.00002v1](https://arxiv.org/abs/2403.00002)")],
        ),
        (
            "[arXiv:2403.00002](https://arxiv.org/pdf/2403.00002.pdf)",
            [("2403.00002", None, 7, 17, "[arXiv:2403.00002](https://arxiv.org/pdf/2403.00002.pdf)")],
        ),
        # different ids, or conflicting versions: two mentions
        (
            "[2403.00002](https://arxiv.org/abs/2403.00003)",
            [
                ("2403.00002", None, 1, 11, "2403.00002"),
                ("2403.00003", None, 35, 45, "https://arxiv.org/abs/2403.00003"),
            ],
        ),
        (
            "[2403.00002v1](https://arxiv.org/abs/2403.00002v2)",
            [
                ("2403.00002", 1, 1, 13, "2403.00002v1"),
                ("2403.00002", 2, 37, 49, "https://arxiv.org/abs/2403.00002v2"),
            ],
        ),
        # link text that is not an id
        (
            "[paper](https://arxiv.org/abs/2403.00002v2)",
            [("2403.00002", 2, 30, 42, "https://arxiv.org/abs/2403.00002v2")],
        ),
    ],
)
def test_markdown_links(text: str, expected: list[tuple[object, ...]]) -> None:
    assert [(r.id, r.version, r.start, r.end, r.raw) for r in find_arxiv(text)] == expected


# --- CASES.md --------------------------------------------------------------------------------
C01 = (
    "见 https://arxiv.org/abs/2607.26627v2 、 https://arxiv.org/pdf/2607.26627v2 、 "
    "https://arxiv.org/html/2607.26627v2 及 2607.26627。"
)


def test_c01_version_kept_one_base_id() -> None:
    refs = find_arxiv(C01) + find_arxiv("arxiv: arXiv:2607.26627v2")
    assert [r.id for r in refs] == ["2607.26627"] * 5
    assert sorted((r.version or 0) for r in refs) == [0, 2, 2, 2, 2]
    assert [r.version for r in find_arxiv(C01)] == [2, 2, 2, None]
    assert [r.start for r in find_arxiv(C01)] == [24, 61, 99, 114]
    assert {r.key for r in refs} == {"arxiv:2607.26627"}


C03 = "0704.0001 1412.9999 1501.00001 2301.00001v1 | 0703.0001 1501.0001 1412.00001 2313.00001"


def test_c03_four_and_five_digit_sequences() -> None:
    cands = scan_arxiv(C03)
    assert [(c.id, c.version, c.start) for c in cands[:4]] == [
        ("0704.0001", None, 0),
        ("1412.9999", None, 10),
        ("1501.00001", None, 20),
        ("2301.00001", 1, 31),
    ]
    assert all(c.error is None for c in cands[:4])
    assert [(c.raw, c.start, c.error) for c in cands[4:]] == [
        ("0703.0001", 46, "new-style ids start at 0704"),
        ("1501.0001", 56, "4-digit sequence after 1412 (5 digits from 1501)"),
        ("1412.00001", 66, "5-digit sequence before 1501"),
        ("2313.00001", 77, "month 13 does not exist"),
    ]
    assert all(c.id is None for c in cands[4:])
    assert len(find_arxiv(C03)) == 4


C04 = (
    "见 arXiv:2301.00001。对比 https://arxiv.org/pdf/2301.00001v3.pdf，以及（2402.12345v1）、"
    "[2403.00002](https://arxiv.org/abs/2403.00002v2)"
)


def test_c04_id_ends_before_pdf_and_cjk_punctuation() -> None:
    refs = find_arxiv(C04)
    assert [(r.id, r.version, r.start, r.end) for r in refs] == [
        ("2301.00001", None, 8, 18),
        ("2301.00001", 3, 44, 56),
        ("2402.12345", 1, 64, 76),
        ("2403.00002", 2, 79, 89),
    ]
    for r in refs:
        assert C04[r.start].isdigit()
        for bad in (".pdf", "。", "，", "）", "、"):
            assert bad not in r.id
            assert bad not in C04[r.start : r.end]
    assert refs[1].raw == "https://arxiv.org/pdf/2301.00001v3.pdf"
    assert refs[3].raw == "[2403.00002](https://arxiv.org/abs/2403.00002v2)"


def test_c17_id_found_in_quantity_sentence() -> None:
    text = "延迟下降 −67.6%，吞吐提升 2.03×（另一组 1.9x），准确率 73.6%–77.1%，发布于 2026-03-21，见 2607.26627。"
    refs = find_arxiv(text)
    assert [(r.id, r.version, r.raw) for r in refs] == [("2607.26627", None, "2607.26627")]
    assert text[refs[0].start : refs[0].end] == "2607.26627"


# --- parse_arxiv_id --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("arg", "id_", "version"),
    [
        ("2607.26627", "2607.26627", None),
        ("  2607.26627v2\n", "2607.26627", 2),
        ("2607.26627）", "2607.26627", None),
        ("2607.26627。", "2607.26627", None),
        ("（2607.26627）", "2607.26627", None),
        ("ARXIV:2607.26627", "2607.26627", None),
        ("arXiv：2607.26627v3", "2607.26627", 3),
        ("arXiv 2607.26627", "2607.26627", None),
        ("https://arxiv.org/abs/2607.26627v2?context=cs.LG", "2607.26627", 2),
        ("https://arxiv.org/pdf/2607.26627v2.pdf", "2607.26627", 2),
        ("arxiv.org/html/2607.26627v1#S2", "2607.26627", 1),
        ("hep-th/9901001", "hep-th/9901001", None),
        ("math.GT/0309136v2", "math.GT/0309136", 2),
        ("https://arxiv.org/abs/hep-ex/0406020v1", "hep-ex/0406020", 1),
    ],
)
def test_parse_arxiv_id(arg: str, id_: str, version: int | None) -> None:
    ref = parse_arxiv_id(arg)
    assert (ref.id, ref.version) == (id_, version)
    assert arg[ref.start : ref.end] == id_ + (f"v{version}" if version else "")


@pytest.mark.parametrize(
    ("arg", "reason"),
    [
        ("0703.0001", "new-style ids start at 0704"),
        ("1501.0001", "4-digit sequence after 1412 (5 digits from 1501)"),
        ("1412.00001", "5-digit sequence before 1501"),
        ("2313.00001", "month 13 does not exist"),
        ("2608.1028", "4-digit sequence after 1412 (5 digits from 1501)"),
        ("foo/1234567", "unknown archive 'foo'"),
        ("2607.266270", "6-digit sequence (4 digits to 1412, 5 from 1501)"),
        ("2607.26627v99999999999999999999", "version v999999999999… is past v999, the highest kb takes"),
        ("2607.26627v" + "9" * 5000, "version v999999999999… is past v999, the highest kb takes"),
        ("", "expected YYMM.NNNNN[vN], archive/YYMMNNN or an arxiv.org URL"),
        ("2026.05", "2-digit sequence (4 digits to 1412, 5 from 1501)"),
        ("see 2607.26627", "expected YYMM.NNNNN[vN], archive/YYMMNNN or an arxiv.org URL"),
        ("2607.26627 2607.26628", "expected YYMM.NNNNN[vN], archive/YYMMNNN or an arxiv.org URL"),
        ("https://example.org/abs/2607.26627", "expected YYMM.NNNNN[vN], archive/YYMMNNN or an arxiv.org URL"),
    ],
)
def test_parse_arxiv_id_rejects(arg: str, reason: str) -> None:
    with pytest.raises(InvalidArxivId) as info:
        parse_arxiv_id(arg)
    assert info.value.reason == reason
    assert isinstance(info.value, ValueError)
    assert reason in str(info.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("见hep-th/9901001。", [("hep-th/9901001", None, 1)]),
        ("(cs/0101001v2)", [("cs/0101001", 2, 1)]),
        ("a" * 50 + "hep-th/9901001", []),
        # an id in an arxiv.org URL's query string belongs to that URL
        ("https://arxiv.org/abs/2607.26627?ref=2601.00001", [("2607.26627", None, 22)]),
        # an id in another site's URL still names the paper
        ("https://huggingface.co/papers/2607.26627", [("2607.26627", None, 30)]),
        ("arXiv:2607.26627 and 2607.26627", [("2607.26627", None, 6), ("2607.26627", None, 21)]),
    ],
)
def test_context_edges(text: str, expected: list[tuple[object, ...]]) -> None:
    assert [(r.id, r.version, r.start) for r in find_arxiv(text)] == expected
