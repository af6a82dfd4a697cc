"""The quick tests before unread_numbers' scans for odd forms (kb.extract.unread._may_be_odd) and numbers
before another's unit (_SHARED_HINT, _SHARED_ROW_HINT) and find_dates' scan for years out of range (kb.extract.dates._OTHER_YEAR_HINT): a text they pass over
holds no match of the pattern they guard, random texts and the repo's own KB alike."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from kb.extract.dates import _OTHER_YEAR_HINT, _OTHER_YEAR_RE, find_dates
from kb.extract.overflow import has_exponent_hint
from kb.extract.unread import (
    _ODD_FORM_RE,
    _SHARED_HINT,
    _SHARED_ROW_HINT,
    _SHARED_UNIT_RE,
    _SHARED_UNIT_ROW_RE,
    _may_be_odd,
    unread_numbers,
)

_REPO = Path(__file__).resolve().parent.parent


def test_no_odd_form_hides_from_the_precheck() -> None:
    rnd = random.Random(41)
    pieces = ["1", "5", "12", "1.5", "３", ".", ",", " ", "\t", "⁄", "/s", "/s/s", "tok", "tok/s", "k/s", "K/s",
              "M/s", "GiB", "k", "K", "M", "B", "T", "e3", "E-2", "万", "亿", "萬", "億", "的", "a", "x", "0.000"]
    branches: Counter[str] = Counter()
    passed = odd = 0
    for _ in range(60000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 7)))
        found = [m.lastgroup for m in _ODD_FORM_RE.finditer(text)]
        branches.update(found)
        odd += bool(found)
        hint = _may_be_odd(text, has_exponent_hint(text))
        passed += hint
        assert hint or not found, text
    assert branches == {"magps": 1373, "twomag": 499, "expmag": 136, "slash": 75, "perper": 72}
    # (the seed's texts: 2,148 hold an odd form; 45,886 hold /s, ⁄, 0.000, 万亿萬億 or kk/MM, the tests before)
    assert (odd, passed) == (2148, 22899)


def test_the_prechecks_on_the_repo_kb_lines() -> None:
    lines = [line for path in sorted((_REPO / "inbox").rglob("*.md")) + sorted((_REPO / "organized").rglob("*.md"))
             for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) > 500
    for line in lines:
        assert _may_be_odd(line, has_exponent_hint(line)) or _ODD_FORM_RE.search(line) is None, line
        assert _OTHER_YEAR_HINT.search(line) is not None or _OTHER_YEAR_RE.search(line) is None, line
        assert _SHARED_HINT.search(line) is not None or _SHARED_UNIT_RE.search(line) is None, line
        assert _SHARED_ROW_HINT.search(line) is not None or _SHARED_UNIT_ROW_RE.search(line) is None, line


def test_no_number_before_another_unit_hides_from_its_hint() -> None:
    rnd = random.Random(47)
    pieces = ["1", "358", "1,200", "2.5", "３", "/", "|", "¦", " ", "\t", "tok/s", "a", "的", ".", ",", " / ", " | "]
    found = hinted = 0
    for _ in range(60000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 6)))
        for hint, pattern in ((_SHARED_HINT, _SHARED_UNIT_RE), (_SHARED_ROW_HINT, _SHARED_UNIT_ROW_RE)):
            match = pattern.search(text) is not None
            passed = hint.search(text) is not None
            assert passed or not match, text
            found += match
            hinted += passed
    assert (found, hinted) == (3082, 21234)  # (the seed's texts, both patterns: 120,000 asks)
    assert [w for _, _, w in unread_numbers("吞吐 358 / 359 tok/s")] == [
        "stands before another number's unit with none of its own (which unit is it in?)"]


def test_no_year_out_of_range_hides_from_its_hint() -> None:
    rnd = random.Random(43)
    pieces = ["9999-", "1850/", "2026-", "1999/", "0000-", "12-", "07/", "13-", "31", "01", "1", "-", "/", ".", " ",
              "a", "年", "３", "19", "20", "0"]
    found = hinted = 0
    for _ in range(60000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 6)))
        match = _OTHER_YEAR_RE.search(text) is not None
        hint = _OTHER_YEAR_HINT.search(text) is not None
        assert hint or not match, text
        found += match
        hinted += hint
    assert (found, hinted) == (147, 2318)  # (the seed's texts; the hint passes over 2026-12-31, not over 9999-12-31)
    bad: list[tuple[int, int, str]] = []
    assert find_dates("停服 9999-12-31，上线 2026-07-31", invalid=bad)[0].value == "2026-07-31"
    assert bad == [(3, 13, "is outside the years read in text (1900 to 2099)")]


def test_plain_rates_and_magnitudes_pass_over_odd_forms_still_found() -> None:
    assert not _may_be_odd("吞吐 1.2万 tok/s，3 req/s", False)
    assert not _may_be_odd("三万卡集群 500 tok/s", True)
    whys = {t: [w for _, _, w in unread_numbers(t)] for t in ("吞吐 5 k/s", "吞吐 1,k/s", "吞吐 1200 tok/s/s", "吞吐 1e3 万 次",
                                                               "吞吐 1.2 万 k 次")}
    assert whys == {
        "吞吐 5 k/s": ["has a magnitude per second with no noun (k/s: thousands of what?)"],
        "吞吐 1,k/s": ["has a magnitude per second with no noun (k/s: thousands of what?)"],
        "吞吐 1200 tok/s/s": ["has a rate per second of a rate (tok/s/s), a unit kb does not read"],
        "吞吐 1e3 万 次": ["has both an exponent and a magnitude (1e3万: 1e3 or 1.3万?)"],
        "吞吐 1.2 万 k 次": ["has two magnitudes (1.2万k, 1.5kk)"],
    }
