"""One line of thousands of values: what each row reads of it is bounded (an opinion's lead is
matched at the line's first positions only; kb history shows the text around the row's value)."""

from __future__ import annotations

from kb.cli.history_cmd import _around
from kb.extract.caveats import is_opinion


def test_an_opinions_lead_starts_within_three_characters_of_the_line() -> None:
    assert [is_opinion(t) for t in ("我的看法：x", "- 我的看法：x", "abc我的看法", "abcd我的看法", "In my opinion, y",
                                    "in my opinionated way", "")] == [True, True, True, False, True, False, False]
    long_line = "SGLang 吞吐 2 tok/s，" * 5000 + "我的看法"
    assert is_opinion(long_line) is False
    assert is_opinion("x 我的看法", heading=True) is True


def test_history_shows_the_text_around_the_rows_value_of_a_long_line() -> None:
    line = "，".join(f"throughput {i} tok/s" for i in range(100, 400))
    got = _around(line, "throughput 250 tok/s")
    assert got.startswith("…") and got.endswith("…") and "throughput 250 tok/s" in got
    assert len(got) == 162
    assert _around("short line 3 tok/s", "3 tok/s") == "short line 3 tok/s"
    assert _around(line, None) == line[:160] + "…"
