"""kb.perf.memo.PerObject: an answer about an object is read once per question, and an id
another object reuses is never answered with the first one's answer."""

from __future__ import annotations

from kb.perf.memo import PerObject


class _Line:
    def __init__(self, text: str) -> None:
        self.text = text


def test_each_question_about_an_object_is_read_once() -> None:
    memo, reads = PerObject(), []
    line = _Line("TGI 2607.00001 2607.00002")

    def ids(x: _Line) -> list[str]:
        reads.append(x.text)
        return x.text.split()[1:]

    assert [memo.get("ids", line, ids) for _ in range(3)] == [["2607.00001", "2607.00002"]] * 3
    assert memo.get("len", line, lambda x: len(x.text)) == 25
    assert reads == ["TGI 2607.00001 2607.00002"]


def test_an_object_with_a_reused_id_is_read_again() -> None:
    memo = PerObject()
    first = _Line("a")
    assert memo.get("text", first, lambda x: x.text) == "a"
    other = _Line("b")
    memo._hits["text", id(other)] = (first, "a")  # as if ``other`` were born at ``first``'s freed address
    assert memo.get("text", other, lambda x: x.text) == "b"
    assert memo.get("text", first, lambda x: x.text) == "a"


def test_substrings_answer_as_in_for_every_length() -> None:
    from kb.perf.memo import Substrings

    text = "2607.00001 2607.00002 hep-th/9901001"
    cell = Substrings(text)
    asked = ["2607.00002", "2607.00003", "607.00001 ", "hep-th/9901001", "hep-th/9901002", "", text, text + " ",
             "1", "x", "01 2607.0"]
    assert [s in cell for s in asked] == [s in text for s in asked]
    assert [s in cell for s in asked] == [True, False, True, True, False, True, True, False, True, False, True]
    assert sorted(cell._by_len) == [1, 9, 10, 14, 36]  # one set a length asked ("" and the too long need none)
    assert len(cell._by_len[10]) == 27  # 36 - 10 + 1 windows, all distinct here
