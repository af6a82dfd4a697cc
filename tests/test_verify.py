"""``kb verify`` on small KBs against the fake arXiv: forms, cross-checks, C01, C03, C07, bad input."""

from __future__ import annotations

import re

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest_arxiv import card, fake_arxiv, make_kb  # noqa: F401
from fake_arxiv import FakeArxiv
from kb.extract.titles import title_similarity
from kb.verify.model import Tally, VerifyResult, sort_worst_first

LOSSY = "Revisiting Lossy Verification in Speculative Decoding"


def verify_json(run_kb, root: Path, *args: str, stdin: str | None = None) -> tuple[int, list[dict], str]:
    res = run_kb(["verify", *args, "--format", "json", "--kb", str(root)], stdin=stdin)
    return res.exit_code, json.loads(res.stdout), res.stderr


def by_input(items: list[dict]) -> dict[str, dict]:
    return {i["input"]: i for i in items}


# -- C01: the version is kept, one paper is one record -------------------------------------------

C01_CARD = (
    "---\ncard: 681\narxiv: arXiv:2607.26627v2\ntitle: \"" + LOSSY + "\"\ncategory: inference-systems\n"
    "created: 2026-07-31T16:30:00+08:00\n---\n"
    "见 https://arxiv.org/abs/2607.26627v2 、 https://arxiv.org/pdf/2607.26627v2 、 "
    "https://arxiv.org/html/2607.26627v2 及 2607.26627。\n"
)


def test_c01_versioned_id_sent_as_is(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    root = make_kb({"organized/paper_cards/681-2607-26627.md": C01_CARD})
    fake_arxiv.add("2607.26627v1", LOSSY, published="2026-07-24T10:00:00Z")
    fake_arxiv.add("2607.26627v2", LOSSY, published="2026-07-24T10:00:00Z", updated="2026-07-29T10:00:00Z")
    code, items, _ = verify_json(run_kb, root, "2607.26627v2")
    assert fake_arxiv.id_lists == [["2607.26627v2"]]
    assert code == 0
    [item] = items
    assert (item["id"], item["version"], item["status"], item["reasons"]) == ("2607.26627", 2, "ok", [])
    assert item["arxiv"]["version"] == 2 and item["arxiv"]["latest_version"] is None
    assert item["card"] == {"path": "organized/paper_cards/681-2607-26627.md", "card": 681, "title": LOSSY,
                            "similarity": 1.0, "category": "inference-systems"}
    assert [(m["line"], m["version"]) for m in item["mentions"]] == [(3, 2), (8, 2), (8, 2), (8, 2), (8, None)]
    assert [m["kind"] for m in item["mentions"]] == [None, "paper-fact", "paper-fact", "paper-fact", "paper-fact"]


def test_c01_bare_id_gets_latest_and_checks_kb_versions(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    root = make_kb({"organized/paper_cards/681-2607-26627.md": C01_CARD})
    fake_arxiv.add("2607.26627v1", LOSSY, published="2026-07-24T10:00:00Z")
    code, items, _ = verify_json(run_kb, root, "2607.26627")
    assert fake_arxiv.id_lists == [["2607.26627"]]
    [item] = items
    assert item["arxiv"]["latest_version"] == 1
    assert item["status"] == "mismatch" and code == 1
    assert item["reasons"] == [
        "organized/paper_cards/681-2607-26627.md:3 cites v2 but arXiv's latest is v1",
        "organized/paper_cards/681-2607-26627.md:8 cites v2 but arXiv's latest is v1",
        "organized/paper_cards/681-2607-26627.md:8 cites v2 but arXiv's latest is v1",
    ]


# -- C03: invalid ids are never sent -----------------------------------------------------------------


def test_c03_four_and_five_digit_sequences(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    root = make_kb({})
    for sid in ("0704.0001v1", "1412.9999v1", "1501.00001v1", "2301.00001v1"):
        fake_arxiv.add(sid, f"Paper {sid}", published="2000-01-01T00:00:00Z")
    args = "0704.0001 1412.9999 1501.00001 2301.00001v1 0703.0001 1501.0001 1412.00001 2313.00001".split()
    code, items, _ = verify_json(run_kb, root, *args)
    assert fake_arxiv.id_lists == [["0704.0001", "1412.9999", "1501.00001", "2301.00001v1"]]
    got = {i["input"]: (i["status"], i["id"], i["version"]) for i in items}
    assert got == {
        "0704.0001": ("ok", "0704.0001", None), "1412.9999": ("ok", "1412.9999", None),
        "1501.00001": ("ok", "1501.00001", None), "2301.00001v1": ("ok", "2301.00001", 1),
        "0703.0001": ("invalid", None, None), "1501.0001": ("invalid", None, None),
        "1412.00001": ("invalid", None, None), "2313.00001": ("invalid", None, None),
    }
    reasons = {i["input"]: i["reasons"] for i in items if i["status"] == "invalid"}
    assert reasons == {
        "0703.0001": ["not a valid arXiv id: new-style ids start at 0704; not sent to arXiv"],
        "1501.0001": ["not a valid arXiv id: 4-digit sequence after 1412 (5 digits from 1501); not sent to arXiv"],
        "1412.00001": ["not a valid arXiv id: 5-digit sequence before 1501; not sent to arXiv"],
        "2313.00001": ["not a valid arXiv id: month 13 does not exist; not sent to arXiv"],
    }
    assert code == 1


def test_only_invalid_ids_send_nothing(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    code, items, _ = verify_json(run_kb, make_kb({}), "2313.00001", "hello")
    assert [i["status"] for i in items] == ["invalid", "invalid"]
    assert fake_arxiv.log == [] and code == 1


# -- bad input forms, stdin ---------------------------------------------------------------------------


def test_input_forms_normalise_and_dedupe(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2607.26627v1", LOSSY, published="2026-07-24T10:00:00Z")
    fake_arxiv.add("2607.26627v2", LOSSY, published="2026-07-24T10:00:00Z")
    args = ["2607.26627）", "2607.26627。", "  2607.26627\t", "ARXIV:2607.26627",
            "https://arxiv.org/abs/2607.26627v2?context=cs.CL#x", "arXiv：2607.26627v2，"]
    code, items, _ = verify_json(run_kb, make_kb({}), *args)
    assert fake_arxiv.id_lists == [["2607.26627", "2607.26627v2"]]
    assert [(i["input"], i["id"], i["version"], i["status"]) for i in items] == [
        ("2607.26627）", "2607.26627", None, "ok"),
        ("https://arxiv.org/abs/2607.26627v2?context=cs.CL#x", "2607.26627", 2, "ok"),
    ]
    assert code == 0


def test_ids_from_stdin(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2607.26627v1", LOSSY, published="2026-07-24T10:00:00Z")
    stdin = "2607.26627\n\n  arXiv:2607.26203 \n2607.2620\n"
    code, items, _ = verify_json(run_kb, make_kb({}), "-", stdin=stdin)
    assert [(i["input"], i["status"]) for i in items] == [
        ("2607.26627", "ok"), ("arXiv:2607.26203", "not-found"), ("2607.2620", "invalid")]
    assert fake_arxiv.id_lists == [["2607.26627", "2607.26203"], ["2607.26203"]]  # the missing one asked alone
    assert code == 1


def test_ten_thousand_ids_in_batches_of_100(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.synthesize = True
    ids = [f"2601.{i:05d}" for i in range(1, 10_001)]
    code, items, _ = verify_json(run_kb, make_kb({}), "-", stdin="\n".join(ids) + "\n")
    assert len(fake_arxiv.log) == 100
    assert all(len(x) == 100 for x in fake_arxiv.id_lists)
    assert [i for batch in fake_arxiv.id_lists for i in batch] == ids
    assert len(items) == 10_000 and {i["status"] for i in items} == {"ok"}
    assert code == 0


# -- C07: wrong paper, withdrawn ----------------------------------------------------------------------

C07_TITLE = "Speculative decoding for long-context serving"


@pytest.fixture
def c07_kb(make_kb: Callable) -> Path:
    path, text = card(700, "2501.01234v1", C07_TITLE, created="2026-01-20T10:00:00+08:00", name="700-2501-01234.md")
    return make_kb({path: text})


def test_c07_title_mismatch(run_kb, c07_kb: Path, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2501.01234v1", "A survey of autonomous driving", published="2025-01-02T10:00:00Z")
    code, items, _ = verify_json(run_kb, c07_kb, "2501.01234v1")
    [item] = items
    assert item["status"] == "mismatch" and code == 1
    assert item["card"]["similarity"] < 0.5
    assert item["reasons"] == [
        f"ID/TITLE MISMATCH: card '{C07_TITLE}' vs arXiv 'A survey of autonomous driving' "
        f"(similarity {item['card']['similarity']:.2f} < 0.85)"]
    text = run_kb(["verify", "2501.01234v1", "--kb", str(c07_kb)])
    assert "2501.01234v1: MISMATCH (ID/TITLE MISMATCH: card" in text.stdout


def test_c07_latest_withdrawn_while_kb_cites_v1_is_a_warning(run_kb, c07_kb: Path, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2501.01234v1", C07_TITLE, published="2025-01-02T10:00:00Z")
    fake_arxiv.add("2501.01234v3", C07_TITLE, published="2025-01-02T10:00:00Z",
                   comment="This paper has been withdrawn")
    code, items, _ = verify_json(run_kb, c07_kb, "2501.01234")
    [item] = items
    assert (item["status"], code) == ("ok", 0)
    assert item["reasons"] == ["cited v1; latest v3 withdrawn (This paper has been withdrawn)"]
    assert item["arxiv"]["withdrawn"] is True and item["arxiv"]["latest_version"] == 3
    strict = run_kb(["verify", "2501.01234", "--strict", "--kb", str(c07_kb)])
    assert strict.exit_code == 1
    assert "2501.01234: OK (cited v1; latest v3 withdrawn (This paper has been withdrawn))" in strict.stdout


def test_c07_cited_version_itself_withdrawn(run_kb, c07_kb: Path, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2501.01234v3", C07_TITLE, published="2025-01-02T10:00:00Z", comment="This paper has been withdrawn")
    code, items, _ = verify_json(run_kb, c07_kb, "2501.01234v3")
    assert (items[0]["status"], items[0]["reasons"], code) == (
        "withdrawn", ["v3 withdrawn: This paper has been withdrawn"], 1)


def test_withdrawn_when_kb_names_no_version(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    root = make_kb({"inbox/jay/2026-07-31-a.md": "见 arXiv:2501.01234。\n"})
    fake_arxiv.add("2501.01234v2", "T", published="2025-01-02T10:00:00Z", comment="Withdrawn: a flaw in Lemma 2")
    code, items, _ = verify_json(run_kb, root, "2501.01234")
    assert (items[0]["status"], items[0]["reasons"], code) == ("withdrawn", ["v2 withdrawn: Withdrawn: a flaw in Lemma 2"], 1)


# -- cross-checks against the KB ------------------------------------------------------------------------


def test_card_file_name_against_front_matter(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    path, text = card(675, "2607.25941", "CoRT", name="675-2607-25914.md")
    root = make_kb({path: text})
    fake_arxiv.add("2607.25941v1", "CoRT", published="2026-07-20T10:00:00Z")
    fake_arxiv.add("2607.25914v1", "Something else", published="2026-07-20T10:00:00Z")
    code, items, _ = verify_json(run_kb, root, "2607.25941", "2607.25914")
    got = by_input(items)
    assert got["2607.25941"]["reasons"] == [
        "organized/paper_cards/675-2607-25914.md: file name says 2607.25914 but front-matter arxiv is 2607.25941"]
    assert got["2607.25914"]["reasons"] == [
        "organized/paper_cards/675-2607-25914.md: file name names 2607.25914 but front-matter arxiv is '2607.25941'"]
    assert got["2607.25914"]["card"] is None
    assert code == 1


def test_unquoted_float_arxiv_in_front_matter_is_read_as_text(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    text = "---\ncard: 670\narxiv: 2607.24870\ntitle: \"Draft-then-Retrieve\"\ncategory: rag\n---\nbody\n"
    root = make_kb({"organized/paper_cards/670-2607-24870.md": text})
    fake_arxiv.add("2607.24870v1", "Draft-then-Retrieve", published="2026-07-20T10:00:00Z", primary="cs.IR")
    code, items, _ = verify_json(run_kb, root, "2607.24870")
    assert items[0]["card"]["path"] == "organized/paper_cards/670-2607-24870.md"
    assert items[0]["status"] == "ok" and code == 0
    assert {"level": "info", "code": "category", "status": None,
            "message": "card category rag; arXiv primary category cs.IR"} in items[0]["checks"]


def test_first_mention_before_publication(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    root = make_kb({"inbox/tom/2026-07-01-radar.md": "新论文 arXiv:2607.26627 值得看。\n"})
    fake_arxiv.add("2607.26627v1", LOSSY, published="2026-07-24T10:00:00Z")
    code, items, _ = verify_json(run_kb, root, "2607.26627")
    assert items[0]["reasons"] == [
        "first mentioned 2026-07-01 (inbox/tom/2026-07-01-radar.md:1), before arXiv's first publication "
        "2026-07-24: wrong id?"]
    assert items[0]["mentions"] == [{"path": "inbox/tom/2026-07-01-radar.md", "line": 1, "column": 11,
                                     "kind": "secondhand", "version": None, "raw": "arXiv:2607.26627",
                                     "written_at": "2026-07-01T00:00:00+08:00"}]
    assert code == 1


def test_same_day_in_kb_timezone_is_not_before_publication(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    root = make_kb({"inbox/tom/2026-07-25-radar.md": "arXiv:2607.26627\n"})
    fake_arxiv.add("2607.26627v1", LOSSY, published="2026-07-24T17:00:00Z")  # 07-25 01:00 +08:00
    code, items, _ = verify_json(run_kb, root, "2607.26627")
    assert (items[0]["status"], code) == ("ok", 0)


def test_sentence_naming_another_cards_title(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    path, text = card(681, "2607.26627", LOSSY)
    root = make_kb({path: text, "inbox/jay/2026-07-31T1505-b.md": f"- {LOSSY}（arXiv:2607.26672）：HF 今日推荐。\n"})
    fake_arxiv.add("2607.26627v1", LOSSY, published="2026-07-24T10:00:00Z")
    fake_arxiv.add("2607.26672v1", "Photonic Crystal Cavities", published="2026-07-24T10:00:00Z")
    code, items, _ = verify_json(run_kb, root, "2607.26672", "2607.26627")
    got = by_input(items)
    assert got["2607.26672"]["reasons"] == [
        f"inbox/jay/2026-07-31T1505-b.md:1 names '{LOSSY}', the title of organized/paper_cards/681-2607-26627.md "
        "(2607.26627), next to 2607.26672: mistyped id?"]
    assert got["2607.26627"]["status"] == "ok"


def test_not_found_is_cached_and_answered_offline(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    root = make_kb({})
    code, items, _ = verify_json(run_kb, root, "2607.99999")
    assert (items[0]["status"], items[0]["reasons"], code) == ("not-found", ["arXiv has no paper 2607.99999"], 1)
    code, items, _ = verify_json(run_kb, root, "2607.99999", "--offline")
    assert (items[0]["status"], code) == ("not-found", 1)
    assert len(items[0]["reasons"]) == 1
    assert re.fullmatch(r"arXiv has no paper 2607\.99999 \(cached answer of 20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00\)",
                        items[0]["reasons"][0]), items[0]["reasons"]
    assert len(fake_arxiv.log) == 1


# -- usage ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    [], ["2607.26627", "--all"], ["2607.26627", "--topic", "inference"], ["--all", "--topic", "nope"],
    ["2607.26627", "--offline", "--refresh"], ["--all", "--since", "yesterday"],
])
def test_usage_errors_exit_2(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv, args: list[str]) -> None:
    res = run_kb(["verify", *args, "--kb", str(make_kb({}))])
    assert res.exit_code == 2, res.stderr
    assert fake_arxiv.log == []


def test_help_has_an_example(run_kb) -> None:
    res = run_kb(["verify", "--help"])
    assert res.exit_code == 0 and "Example:" in res.stdout and "--offline" in res.stdout


# -- pure helpers ------------------------------------------------------------------------------------


def test_title_similarity_normalises() -> None:
    assert title_similarity("Revisiting  Lossy-Verification in $\\mathrm{Spec}$ Decoding.",
                            "revisiting lossy verification in spec decoding") == 1.0
    assert title_similarity("ＦＵＬＬ　ＷＩＤＴＨ", "full width") == 1.0
    assert title_similarity(C07_TITLE, "A survey of autonomous driving") < 0.5


def _r(status: str, inp: str, warned: bool = False) -> VerifyResult:
    checks = [{"level": "warning", "code": "w", "message": "w"}] if warned else []
    return VerifyResult(input=inp, id=inp, version=None, status=status, reasons=[], checks=checks,
                        arxiv=None, card=None, mentions=[])


def test_worst_first_and_exit_codes() -> None:
    rs = [_r("ok", "a"), _r("ok", "b", warned=True), _r("unverified", "c"), _r("mismatch", "d"),
          _r("invalid", "e"), _r("not-found", "f"), _r("withdrawn", "g")]
    assert [r.input for r in sort_worst_first(rs)] == ["e", "f", "d", "g", "c", "b", "a"]
    t = Tally()
    for r in rs[:2]:
        t.add(r)
    assert (t.exit_code(), t.exit_code(strict=True)) == (0, 1)
    assert t.summary() == "2 ids: 2 ok (1 ok with warnings)"
    t.add(rs[3])
    assert t.exit_code() == 1
