"""What a reader writes and kb cannot read is said, never dropped in silence: a number with two
decimal points before a unit, a date that is no calendar date or lies outside the years read in
text; and settings and files that are not what they seem (an infinite time bound, a FIFO given as
a template, front matter kb ignores while it reads the body)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import write_files

from kb.extract.dates import find_dates
from kb.extract.unread import unread_numbers

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


@pytest.mark.parametrize(("text", "expected"), [
    ("Wombat TTFT 6,5 ms", [("6,5", "has a decimal comma or digits not grouped in threes")]),
    ("Wombat 吞吐 2,50,000 tok/s", [("2,50,000", "has a decimal comma or digits not grouped in threes")]),
    ("Wombat 吞吐 4.321,5 tok/s", [("4.321,5", "has a decimal comma or digits not grouped in threes")]),
    ("Wombat 吞吐 3.000.000 tok/s", [("3.000.000", "has more than one decimal point")]),
    ("Wombat 吞吐 40_000 tok/s", [("40_000", "is grouped with underscores")]),
    ("Wombat TPOT .25 s", [(".25", "has no digit before its decimal point")]),
    ("Wombat 吞吐 4,321 tok/s and 4,321.5 tok/s", []),  # thousands: read
])
def test_number_forms_kb_does_not_read_are_named(text: str, expected: list) -> None:
    assert [(text[a:b], why) for a, b, why in unread_numbers(text)] == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Wombat speedup 4e-2x", [(0.04, "×", "4e-2x")]),
    ("Wombat 加速 2.5e1x", [(25.0, "×", "2.5e1x")]),
    ("Wombat throughput 10^5 tok/s", [(100000.0, "tok/s", "10^5 tok/s")]),
    ("Wombat throughput 10⁴ tok/s", [(10000.0, "tok/s", "10⁴ tok/s")]),
    ("Wombat throughput 23 456 tok/s", [(23456.0, "tok/s", "23 456 tok/s")]),
    ("Wombat throughput 7\u2009654 tok/s", [(7654.0, "tok/s", "7\u2009654 tok/s")]),
    ("Wombat throughput 1\u202f000\u202f000 tok/s", [(1000000.0, "tok/s", "1\u202f000\u202f000 tok/s")]),
    ("Wombat throughput 640 tok\u2215s", [(640.0, "tok/s", "640 tok\u2215s")]),
    ("Wombat throughput 2'345 tok/s", [(2345.0, "tok/s", "2'345 tok/s")]),
    ("Wombat 吞吐 ٤٫٥ tok/s 和 ٢٬٥٠٠ tok/s", [(4.5, "tok/s", "٤٫٥ tok/s"), (2500.0, "tok/s", "٢٬٥٠٠ tok/s")]),
])
def test_number_forms_now_read(text: str, expected: list) -> None:
    from kb.extract.quantities import find_quantities

    assert [(q.value, q.unit, q.raw) for q in find_quantities(text)] == expected


def test_a_power_of_ten_out_of_range_is_named_too() -> None:
    text = "Wombat throughput 10^777 tok/s"
    assert [(text[a:b], why) for a, b, why in unread_numbers(text)] == [("10^777", "is out of range")]


@pytest.mark.parametrize(("name", "warning"), [
    ("2026-07-31-2460-late.md", "'2460' after the date is no time of day (HHMM): read as part of the name; the file is "
                                "dated 2026-07-31 with no time"),
    ("2026-7-31-short.md", "file name starts with '2026-7-31', a date not written as a stamp (YYYY-MM-DD, e.g. "
                           "2026-07-31-0900-notes.md); the file is read as undated"),
    ("20260731-compact.md", "file name starts with '20260731', a date not written as a stamp (YYYY-MM-DD, e.g. "
                            "2026-07-31-0900-notes.md); the file is read as undated"),
    ("2026-07-31-0930-ok.md", None),
    ("2026-07-31-vllm.md", None),
    ("notes.md", None),
])
def test_a_stamp_kb_reads_around_is_said(name: str, warning: str | None) -> None:
    from kb.extract.dates import stamp_warning

    assert stamp_warning(name) == warning


def test_ingest_says_how_it_read_a_near_miss_stamp(tmp_path: Path, run_kb) -> None:
    root = _kb(tmp_path, {"inbox/ana/2026-7-31-night.md": "- Wombat 吞吐 12 tok/s\n"})
    res = run_kb(["ingest"], cwd=root)
    assert res.exit_code == 0
    assert res.stderr.splitlines() == [
        "warning: inbox/ana/2026-7-31-night.md:1: file name starts with '2026-7-31', a date not written as a stamp "
        "(YYYY-MM-DD, e.g. 2026-07-31-0900-notes.md); the file is read as undated"]


def test_kb_yaml_warnings_are_said_by_every_command_not_only_ingest(tmp_path: Path, run_kb) -> None:
    """Two entities sharing a name were named only when ``kb ingest`` itself parsed again; a night
    that runs only ``kb digest`` (or ``kb claims``) never saw the warning."""
    root = _kb(tmp_path, yaml=KB_YAML.replace("{Wombat: []}", "{Wombat: [Numbat], Numbat: []}"))
    expected = ("warning: kb.yaml:4: entity 'Numbat' is also 'Numbat', an alias of entity 'Wombat', as kb matches names "
                "(in any case): kb reads entities 'Wombat' and 'Numbat' as one; give each entity names of its own")
    for args in (["claims"], ["claims"], ["digest", "serving", "--date", "2026-07-31", "--out", "-"]):
        res = run_kb(args, cwd=root)
        assert res.exit_code == 0, res.stderr
        assert expected in res.stderr.splitlines(), (args, res.stderr)
        assert res.stderr.count("is also 'Numbat'") == 1
    # kb ingest says what it parsed: nothing changed since, so nothing to say; a fresh store, once
    assert run_kb(["ingest"], cwd=root).stderr == ""
    shutil.rmtree(root / ".kb")
    assert run_kb(["ingest"], cwd=root).stderr.splitlines() == [expected]


@pytest.mark.parametrize(("version", "ok"), [(1, True), (57, True), (0, False), (-5, False), (10**20, False)])
def test_an_arxiv_record_states_a_version_from_1_to_999(version: int, ok: bool) -> None:
    from datetime import datetime, timezone

    from pydantic import ValidationError

    from kb.core.records import SourceRecord

    fields = {"id": "2607.11111", "version": version, "short_id": f"2607.11111v{version}", "title": "T",
              "authors": ["A"], "published": datetime(2026, 7, 1, tzinfo=timezone.utc),
              "updated": datetime(2026, 7, 2, tzinfo=timezone.utc), "primary_category": "cs.DC"}
    if ok:
        assert SourceRecord.model_validate(fields).version == version
    else:
        with pytest.raises(ValidationError):
            SourceRecord.model_validate(fields)


def test_the_quick_test_before_the_unread_forms_scan_never_hides_one() -> None:
    from kb.extract.unread import _UNREAD_FORM_RE, _may_be_unread

    texts = ["a 1.2.3 ms", "1.2.3%", "b 3,5 tok/s", "4,32,100 tok/s", "x 1.234,5 s", "1_0 s", "9_999_999 tok/s",
             "t .5 s", "(.75 s)", "吞吐 .5 倍", "1,2345 tok/s", "12,34 ms", "7.7.7×", "1.000.000,25 tok/s", "2^10 tok/s", "2**10 s", "1 000,5 tok/s",
             "0x1F tok/s"]
    for text in texts:
        assert _UNREAD_FORM_RE.search(text) is not None, text
        assert _may_be_unread(text), text
    for text in ["1,234 tok/s", "v0.5.1", "3.5 ms", "e.g. 2 s", "1,234.5 tok/s"]:
        assert unread_numbers(text) == [], text


def test_lines_past_the_nesting_limit_are_read_one_by_one(tmp_path: Path, run_kb) -> None:
    """Lists nested past 50 levels lost every deeper line's value after one ``error:`` (exit 0);
    now each line is read alone, with one warning."""
    note = "".join("  " * i + f"- Wombat 吞吐 {i + 10} tok/s\n" for i in range(60))
    root = _kb(tmp_path, {"inbox/ana/2026-07-31T0900-deep.md": note})
    res = run_kb(["ingest"], cwd=root)
    assert res.exit_code == 0
    assert res.stderr.splitlines() == ["warning: inbox/ana/2026-07-31T0900-deep.md:50: nested too deep (over 50 lists or "
                                       "quotes): 11 line(s) read one by one as list items (lines 50–60)"]
    res = run_kb(["claims", "--format", "json"], cwd=root)
    values = sorted(q["value"] for c in json.loads(res.stdout) for q in c["quantities"] if q["unit"] == "tok/s")
    assert values == [float(v) for v in range(10, 70)]


@pytest.mark.parametrize(("encoding", "line"), [("latin-1", "Wombat \\u541e\\u5410 2.2×\\u3002"),
                                              ("ascii", "Wombat \\u541e\\u5410 2.2\\xd7\\u3002")])
def test_output_in_another_encoding_is_escaped_not_a_traceback(tmp_path: Path, encoding: str, line: str) -> None:
    import subprocess
    import sys

    root = _kb(tmp_path)
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    res = subprocess.run([sys.executable, "-m", "kb", "claims"], cwd=root, env=env, capture_output=True, check=False)
    assert res.returncode == 0, res.stderr
    assert b"Traceback" not in res.stderr
    assert res.stdout.decode(encoding).splitlines()[1].strip() == line


def test_per_mille_is_a_unit_of_its_own() -> None:
    from kb.extract.quantities import find_quantities

    text = "Wombat 错误率 7‰，丢包 1-2‰"
    assert [(q.value, q.low, q.high, q.unit, q.raw) for q in find_quantities(text)] == [
        (7.0, None, None, "‰", "7‰"), (None, 1.0, 2.0, "‰", "1-2‰")]


@pytest.mark.parametrize(("tail", "warning"), [
    ("```python\nimport vllm\n- Wombat 吞吐 31 tok/s\n\n- Wombat 吞吐 32 tok/s\n",
     "warning: inbox/ana/2026-07-31T0900-n.md:5: code fence opened here is never closed: the 3 line(s) of text after it "
     "are not read"),
    ("<!-- 草稿\n- Wombat 吞吐 31 tok/s\n",
     "warning: inbox/ana/2026-07-31T0900-n.md:5: HTML comment opened here is never closed: the 1 line(s) of text after "
     "it are not read"),
    ("```\nimport vllm\n```\n\n- Wombat 吞吐 31 tok/s\n", None),
    ("<!-- 草稿 -->\n- Wombat 吞吐 31 tok/s\n", None),
])
def test_a_fence_or_comment_never_closed_is_said(tmp_path: Path, run_kb, tail: str, warning: str | None) -> None:
    """CommonMark runs a code fence or HTML comment that is never closed to the end of the file:
    every value after it was gone without a word."""
    root = _kb(tmp_path, {"inbox/ana/2026-07-31T0900-n.md": "# 夜班\n\n- Wombat 吞吐 12 tok/s\n\n" + tail})
    res = run_kb(["ingest"], cwd=root)
    assert res.exit_code == 0
    assert res.stderr.splitlines() == ([warning] if warning else [])


def test_a_living_doc_whose_front_matter_does_not_load_says_so(tmp_path: Path, run_kb) -> None:
    """``updated: …T25:00`` made the whole front matter unreadable; the note said the doc had no
    integer version (it had one)."""
    doc = DOC.replace("updated: 2026-01-01", "updated: 2026-07-30T25:00:00+08:00")
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "organized/knowledge/serving.md": doc})
    res = run_kb(["digest", "serving", "--date", "2026-07-31", "--out", "-"], cwd=root)
    assert res.exit_code == 0
    assert ("note: the living document has no readable front matter (organized/knowledge/serving.md:2: invalid "
            "front matter value: hour must be in 0..23; front matter ignored); fix it: its version and updated are "
            "unknown") in res.stderr.splitlines()
