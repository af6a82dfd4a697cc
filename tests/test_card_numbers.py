"""A card's number: two cards numbered alike, a ``card:`` that is no card number, and ``kb card
new`` past the highest number kb takes (a blind tester's R4; kb.read.cards card_number_problem,
kb.store.cards duplicate_numbers, lint KB119)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from conftest_arxiv import card, fake_arxiv, make_kb  # noqa: F401
from fake_arxiv import FakeArxiv

from kb.read.cards import card_number, card_number_problem

A = card(681, "2607.26627", "Lossy")
B = card(681, "2607.30009", "Copy", name="681-2607-30009.md")
DUP = ("card number 681 is also that of organized/paper_cards/681-2607-26627.md; each card needs its own "
       "number (renumber one: its `card:` and file name)")


def test_two_cards_with_one_number_ingest_warns_once_lint_errs(run_kb, make_kb: Callable) -> None:
    root = make_kb({A[0]: A[1], B[0]: B[1]})
    res = run_kb(["ingest", "--kb", str(root)])
    assert res.exit_code == 0
    assert f"warning: organized/paper_cards/681-2607-30009.md: {DUP}\n" in res.stderr
    res = run_kb(["ingest", "--kb", str(root)])  # nothing changed: said once, by the ingest that read it
    assert DUP not in res.stderr
    res = run_kb(["lint", "--kb", str(root), "--select", "KB119", "--format", "json"])
    assert res.exit_code == 1
    assert [(f["path"], f["line"], f["code"], f["severity"], f["message"]) for f in json.loads(res.stdout)] == [
        ("organized/paper_cards/681-2607-30009.md", 2, "KB119", "error", DUP)]
    res = run_kb(["lint", "--kb", str(root), "--ignore", "KB119", "--format", "json"])
    assert all(f["code"] != "KB119" for f in json.loads(res.stdout))


@pytest.mark.parametrize("written, shown", [('"x"', "'x'"), ("1e400", "'inf'"), ("null", "'null'"),
                                            ("[682]", "'[682]'"), ("-1", "'-1'"), ("0", "'0'"), ("true", "'True'"),
                                            ('"681"', "'681'")])
def test_a_card_value_that_is_no_card_number_is_reported_at_its_line(run_kb, make_kb: Callable, written: str,
                                                                      shown: str) -> None:
    root = make_kb({A[0]: A[1].replace("card: 681", f"card: {written}")})
    msg = (f"organized/paper_cards/681-2607-26627.md:2: card: expected the card's number, a whole number from 1 "
           f"to 999,999, got {shown}; the number in the file name is used")
    res = run_kb(["ingest", "--kb", str(root)])
    assert (res.exit_code, res.stderr.count(msg)) == (0, 1)
    assert f"warning: {msg}\n" in res.stderr
    res = run_kb(["lint", "--kb", str(root), "--select", "KB119"])
    assert res.exit_code == 1
    assert res.stdout == f"{msg} (card-number-invalid)\n".replace(":2: card:", ":2: KB119 [error] card:")


def test_card_new_refuses_to_number_past_the_bound(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2607.30001v1", "Next", published="2026-07-24T10:00:00Z")
    root = make_kb({A[0]: A[1].replace("card: 681", "card: 99999999999999999999999")})
    res = run_kb(["card", "new", "2607.30001", "--kb", str(root)])
    assert res.exit_code == 2
    assert res.stderr.endswith("error: organized/paper_cards/681-2607-26627.md: card number 99999999999999999999999 "
                               "is over 999,999, the highest kb numbers cards to; fix its `card:` and file name (a "
                               "typo?), then make the card\n")
    assert sorted(p.name for p in (root / "organized/paper_cards").iterdir()) == ["681-2607-26627.md"]
    (root / "organized/paper_cards/681-2607-26627.md").write_text(A[1].replace("card: 681", "card: 999999"))
    res = run_kb(["card", "new", "2607.30001", "--kb", str(root)])  # the bound itself is a number, none past it
    assert res.exit_code == 2
    assert res.stderr.endswith("error: organized/paper_cards/681-2607-26627.md: card number 999,999 is the highest "
                               "kb numbers cards to; kb card new numbers no card past it\n")
    (root / "organized/paper_cards/681-2607-26627.md").write_text(A[1].replace("card: 681", "card: 999998"))
    res = run_kb(["card", "new", "2607.30001", "--kb", str(root)])
    assert res.exit_code == 0, res.stderr
    assert (root / "organized/paper_cards/999999-2607-30001.md").is_file()


def test_card_number_reads_only_whole_numbers_of_at_least_one() -> None:
    assert [card_number(v) for v in (681, 1, 0, -1, True, "681", 6.81e2, None, [682])] == [
        681, 1, None, None, None, None, None, None, None]
    assert card_number_problem(681) is None and card_number_problem(999_999) is None
    assert card_number_problem(1_000_000) == ("card: 1000000 is over 999,999, the highest card number kb takes; "
                                              "kb card new numbers no card after it (a typo?)")


def _lint119(run_kb, root) -> list[tuple[str, int, str]]:
    res = run_kb(["lint", "--kb", str(root), "--select", "KB119", "--format", "json"])
    return [(f["path"], f["line"], f["message"]) for f in json.loads(res.stdout)]


def test_a_card_named_by_its_id_only_has_no_number(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    """``2607-30009.md`` without ``card:`` was card 2607, and the next card 2608."""
    fake_arxiv.add("2607.30001v1", "Next", published="2026-07-24T10:00:00Z")
    idonly = card(1, "2607.30009", "Named by id", name="2607-30009.md")
    root = make_kb({A[0]: A[1], idonly[0]: idonly[1].replace("card: 1\n", "")})
    msg = ("organized/paper_cards/2607-30009.md:1: file name '2607-30009.md' is not <card>-<YYMM>-<NNNNN>.md "
           "(e.g. 682-2607-26627.md): the card has no number (write its card: and rename the file)")
    res = run_kb(["ingest", "--kb", str(root)])
    assert (res.exit_code, res.stderr.count(msg), f"warning: {msg}\n" in res.stderr) == (0, 1, True)
    assert _lint119(run_kb, root) == [("organized/paper_cards/2607-30009.md", 1, msg.split(":1: ", 1)[1])]
    res = run_kb(["card", "new", "2607.30001", "--kb", str(root)])
    assert (res.exit_code, res.stdout) == (0, "organized/paper_cards/682-2607-30001.md\n")


def test_a_card_off_the_pattern_with_a_card_number_keeps_it(run_kb, make_kb: Callable) -> None:
    odd = card(682, "2607.30009", "Odd name", name="notes.md")
    root = make_kb({A[0]: A[1], odd[0]: odd[1]})
    assert _lint119(run_kb, root) == [("organized/paper_cards/notes.md", 2, "file name 'notes.md' is not "
                                       "<card>-<YYMM>-<NNNNN>.md (e.g. 682-2607-26627.md): it states no card number")]


def test_a_card_value_disagreeing_with_its_file_name_is_reported(run_kb, make_kb: Callable,
                                                                 fake_arxiv: FakeArxiv) -> None:
    """``card: 700`` in ``681-…``: the card is 700 (its ``card:`` wins), said by ingest and lint;
    ``kb card new`` numbers past both numbers (701), never reusing one a file states."""
    fake_arxiv.add("2607.30001v1", "Next", published="2026-07-24T10:00:00Z")
    root = make_kb({A[0]: A[1].replace("card: 681", "card: 700")})
    msg = ("card: 700 disagrees with the number in the file name, 681; the card is numbered 700 (its card:) and "
           "kb card new numbers past both: make them agree")
    res = run_kb(["ingest", "--kb", str(root)])
    assert f"warning: organized/paper_cards/681-2607-26627.md:2: {msg}\n" in res.stderr
    assert _lint119(run_kb, root) == [("organized/paper_cards/681-2607-26627.md", 2, msg)]
    res = run_kb(["card", "new", "2607.30001", "--kb", str(root)])
    assert (res.exit_code, res.stdout) == (0, "organized/paper_cards/701-2607-30001.md\n")


def test_a_huge_file_name_number_is_reported(run_kb, make_kb: Callable) -> None:
    big = card(682, "2607.30009", "Big", name="100000000000000000000000-2607-30009.md")
    root = make_kb({big[0]: big[1]})
    assert _lint119(run_kb, root) == [(big[0], 2, "card: 682 disagrees with the number in the file name, "
                                       "100000000000000000000000; the card is numbered 682 (its card:) and kb card "
                                       "new numbers past both: make them agree")]
    root = make_kb({big[0]: big[1].replace("card: 682\n", "")})
    assert _lint119(run_kb, root) == [(big[0], 1, "the number in the file name, 100000000000000000000000, is over "
                                       "999,999, the highest card number kb takes; kb card new numbers no card after "
                                       "it (a typo?)")]


@pytest.mark.parametrize("written", ["0x2A9", "6_81", "0o1251", "0681", "+681", "!!int 681"])
def test_a_card_number_not_written_in_decimal_is_named(run_kb, make_kb: Callable, written: str) -> None:
    """YAML reads ``0x2A9``, ``6_81``, ``0o1251`` and ``0681`` as 681: the card is 681, but its
    writer may have meant another number; said at the line of ``card:``."""
    root = make_kb({A[0]: A[1].replace("card: 681", f"card: {written}")})
    assert _lint119(run_kb, root) == [("organized/paper_cards/681-2607-26627.md", 2, f"card: {written} is read as "
                                       "681 (YAML), not written as plain decimal digits; write card: 681")]
