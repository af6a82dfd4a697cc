"""What a reader writes and kb cannot read is said, never dropped in silence: a number with two
decimal points before a unit, a date that is no calendar date or lies outside the years read in
text; and settings and files that are not what they seem (an infinite time bound, a FIFO given as
a template, front matter kb ignores while it reads the body)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import write_files

from kb.extract.dates import find_dates
from kb.extract.numbers import unread_numbers

KB_YAML = 'timezone: "+08:00"\nexecutor: ana\ntopics: {serving: [serving]}\nentities: {Wombat: []}\n'
DOC = "---\ntopic: serving\nversion: 1\nupdated: 2026-01-01\n---\n# d\n\n## 1. Wombat\n\n- Wombat 吞吐 2.2×。\n"


def _kb(tmp_path: Path, files: dict[str, str] | None = None, yaml: str = KB_YAML) -> Path:
    return write_files(tmp_path / "kb", {"kb.yaml": yaml, "organized/knowledge/serving.md": DOC, **(files or {})})


@pytest.mark.parametrize(("text", "expected"), [
    ("Wombat decode 4.5.6 ms per step", [("4.5.6", "has more than one decimal point")]),
    ("Wombat 提速 2.0.1 倍", [("2.0.1", "has more than one decimal point")]),
    ("hit rate 7.7.7% and 3e-999x", [("7.7.7", "has more than one decimal point"), ("3e-999", "is out of range")]),
    ("Wombat 0.9.12 shipped; upgrade from v2.1.0", []),  # versions with no unit after them
    ("see 4.2.1 节 and §3.1.4", []),
])
def test_numbers_kb_cannot_read_are_named_with_why(text: str, expected: list) -> None:
    assert [(text[a:b], why) for a, b, why in unread_numbers(text)] == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Wombat EOL 2027-02-29", [("2027-02-29", "is no calendar date")]),
    ("上线时间 2026年4月31日", [("2026年4月31日", "is no calendar date")]),
    ("frozen until 2026.00.10", [("2026.00.10", "is no calendar date")]),
    ("support ends 3020-06-30", [("3020-06-30", "is outside the years read in text (1900 to 2099)")]),
    ("batch 2-30 and 1234-5-6", []),  # a range; a number with dashes, not written as a date
])
def test_dates_kb_cannot_read_are_named_with_why(text: str, expected: list) -> None:
    bad: list[tuple[int, int, str]] = []
    assert find_dates(text, invalid=bad) == []
    assert [(text[a:b], why) for a, b, why in sorted(bad)] == expected


def test_a_real_date_beside_no_date_is_still_read() -> None:
    bad: list[tuple[int, int, str]] = []
    got = find_dates("moved from 2026-06-31 to 2026-07-01", invalid=bad)
    assert [d.value for d in got] == ["2026-07-01"] and [(a, b) for a, b, _ in bad] == [(11, 21)]


def test_ingest_warns_of_each_unread_number_and_date_with_file_and_line(tmp_path: Path, run_kb) -> None:
    note = ("# 夜班\n\n- Wombat throughput 8.8.8 tok/s\n\n- Wombat 维护截止 2026-11-31\n\n"
            "- Wombat GA 2200-01-15\n\n- Wombat 吞吐 12 tok/s\n")
    root = _kb(tmp_path, {"inbox/ana/2026-07-31T0900-n.md": note})
    res = run_kb(["ingest"], cwd=root)
    assert res.exit_code == 0, res.stderr
    assert res.stderr.splitlines() == [
        "warning: inbox/ana/2026-07-31T0900-n.md:3: number '8.8.8' has more than one decimal point; no quantity",
        "warning: inbox/ana/2026-07-31T0900-n.md:5: date '2026-11-31' is no calendar date; no date",
        "warning: inbox/ana/2026-07-31T0900-n.md:7: date '2200-01-15' is outside the years read in text (1900 to 2099); "
        "no date",
    ]


@pytest.mark.parametrize("value", ["1e400", ".inf", ".nan"])
def test_a_time_bound_that_is_no_finite_number_is_a_config_error(tmp_path: Path, run_kb, value: str) -> None:
    root = _kb(tmp_path, yaml=KB_YAML + f"brief_seconds: {value}\n")
    res = run_kb(["digest", "serving", "--date", "2026-07-31", "--out", "-"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr.splitlines()[-1] == f"error: {root / 'kb.yaml'}: line 5: 'brief_seconds': Input should be a finite number"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_given_as_template_is_named_as_no_regular_file(tmp_path: Path, run_kb) -> None:
    root = _kb(tmp_path)
    os.mkfifo(root / "brief.md.j2")
    res = run_kb(["digest", "serving", "--date", "2026-07-31", "--out", "-", "--template", "./brief.md.j2"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr.splitlines()[-1] == "error: --template brief.md.j2: is not a regular file"


def test_front_matter_kb_ignores_while_reading_the_body_is_a_warning(tmp_path: Path, run_kb) -> None:
    note = "---\nauthor: [unclosed\n---\n# 夜班\n\n- Wombat 吞吐 12 tok/s\n"
    root = _kb(tmp_path, {"inbox/ana/2026-07-31T0900-n.md": note})
    res = run_kb(["ingest"], cwd=root)
    assert res.exit_code == 0
    assert res.stderr.splitlines() == ["warning: inbox/ana/2026-07-31T0900-n.md:3:1: invalid front matter: did not find "
                                       "expected ',' or ']'; front matter ignored"]
    assert res.stdout == "2 parsed, 0 unchanged, 0 failed; 2 claims\n"  # the doc's claim and the note's
