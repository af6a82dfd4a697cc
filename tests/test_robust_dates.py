"""Issue 24, item 4: one range of dates kb accepts (kb.core.moments), a clear error naming the
option, file and field; front matter that does not read is ignored with a warning, the body read."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from conftest import write_files
from kb.core.moments import FIRST, LAST, accepted

KB_YAML = 'timezone: "+08:00"\ntopics: {inference: [inference-systems]}\nentities: {vLLM: []}\nexecutor: ana\n'
DOC = "---\ntopic: inference\nversion: 3\nupdated: {updated}\n---\n# 活文档\n\n## 1. vLLM\n\n- vLLM 吞吐 1.5×。\n"
OUT = "out of range (kb accepts dates from 1000-01-01 to 9000-12-31)"


@pytest.fixture
def kb_root(tmp_path: Path) -> Path:
    return write_files(tmp_path / "kb", {
        "kb.yaml": KB_YAML,
        "organized/knowledge/inference.md": DOC.format(updated="2026-07-31T05:00:00+08:00"),
        "inbox/jay/2026-07-31-a.md": "# a\n\n- vLLM 吞吐 1.6×。\n",
        "organized/paper_cards/.keep": "",
    })


def test_the_one_clamp() -> None:
    assert accepted(date(2026, 7, 31)) and accepted(FIRST) and accepted(LAST)
    assert not accepted(date(9999, 12, 31)) and not accepted(date(999, 12, 31))
    assert not accepted(LAST + timedelta(seconds=1)) and not accepted(FIRST - timedelta(seconds=1))
    assert not accepted(datetime(9000, 12, 31, 23, 59, 59, tzinfo=timezone(-timedelta(hours=23, minutes=59))))
    assert not accepted("2026-07-31")


@pytest.mark.parametrize("args,option", [
    (["claims", "--as-of", "9999-12-31"], "--as-of"),
    (["diff", "inference", "--as-of", "9999-12-31"], "--as-of"),
    (["history", "vLLM", "--as-of", "9999-12-31"], "--as-of"),
    (["claims", "--since", "0999-12-31"], "--since"),
    (["digest", "inference", "--date", "9999-12-31", "--out", "-"], "--date"),
])
def test_a_date_out_of_range_on_the_command_line(run_kb, kb_root: Path, args: list[str], option: str) -> None:  # noqa: ANN001
    res = run_kb([*args, "--kb", str(kb_root)])
    assert res.exit_code == 2
    assert res.stderr.strip() == f"error: {option} '{args[args.index(option) + 1]}': {OUT}"


def test_a_file_stamped_out_of_range_is_read_undated_and_named(run_kb, kb_root: Path) -> None:  # noqa: ANN001
    write_files(kb_root, {"inbox/jay/9999-12-31-far.md": "# far\n\n- vLLM 吞吐 1.7×。\n"})
    res = run_kb(["ingest", "--kb", str(kb_root)])
    assert res.exit_code == 0
    assert ("warning: inbox/jay/9999-12-31-far.md:1: file-name stamp 9999-12-31 is out of range "
            "(kb accepts dates from 1000-01-01 to 9000-12-31); the file is read as undated") in res.stderr
    assert res.stdout.strip().splitlines()[-1] == "3 parsed, 0 unchanged, 0 failed; 3 claims"
    res = run_kb(["sources", "--kb", str(kb_root)])
    assert res.exit_code == 0 and "Traceback" not in res.stderr
    res = run_kb(["claims", "--file", "inbox/jay/9999-12-31-far.md", "--kb", str(kb_root)])
    assert res.stdout.count("inbox/jay/9999-12-31-far.md:3") == 1 and "1.7×" in res.stdout


def test_an_extreme_created_offset_ignores_the_date_not_the_file(run_kb, kb_root: Path) -> None:  # noqa: ANN001
    write_files(kb_root, {"inbox/jay/2026-07-31-off.md":
                          "---\ncreated: 9999-12-31T23:59:00-23:59\n---\n# off\n\n- vLLM 吞吐 1.8×。\n"})
    res = run_kb(["ingest", "--kb", str(kb_root)])
    assert res.exit_code == 0
    assert ("warning: inbox/jay/2026-07-31-off.md:2: created: '9999-12-31 23:59:00-23:59' is out of range "
            "(kb accepts dates from 1000-01-01 to 9000-12-31); ignored") in res.stderr
    assert "failed" not in res.stderr
    res = run_kb(["claims", "--file", "inbox/jay/2026-07-31-off.md", "--format", "json", "--kb", str(kb_root)])
    assert res.exit_code == 0
    assert '"written_at":"2026-07-31T00:00:00+08:00"' in res.stdout  # the file-name stamp instead


def test_bump_with_an_impossible_updated_names_file_line_and_field(run_kb, kb_root: Path) -> None:  # noqa: ANN001
    doc = kb_root / "organized/knowledge/inference.md"
    doc.write_text(DOC.format(updated="2026-02-30"), encoding="utf-8")
    before = doc.read_bytes()
    res = run_kb(["bump", "inference", "--kb", str(kb_root)])
    assert res.exit_code == 2
    assert res.stderr.strip() == ("error: organized/knowledge/inference.md:4: updated: not a date "
                                  "(day is out of range for month); correct it, then run kb bump again")
    assert doc.read_bytes() == before


def test_front_matter_that_does_not_read_is_ignored_the_body_read(run_kb, kb_root: Path) -> None:  # noqa: ANN001
    write_files(kb_root, {"inbox/jay/2026-07-31-bad.md": "---\ncreated: 2026-02-30\n---\n# bad\n\n- vLLM 吞吐 1.9×。\n"})
    res = run_kb(["ingest", "--kb", str(kb_root)])
    assert res.exit_code == 0
    assert ("inbox/jay/2026-07-31-bad.md:2: invalid front matter value: day is out of range for month; "
            "front matter ignored") in res.stderr
    res = run_kb(["claims", "--file", "inbox/jay/2026-07-31-bad.md", "--kb", str(kb_root)])
    assert res.stdout.count("inbox/jay/2026-07-31-bad.md:6") == 1 and "1.9×" in res.stdout


def test_files_at_both_ends_of_the_range_work_everywhere(run_kb, kb_root: Path) -> None:  # noqa: ANN001
    write_files(kb_root, {"inbox/jay/9000-12-31-far.md": "# far\n\n- vLLM 吞吐 1.7×。\n",
                          "inbox/jay/1000-01-01-old.md": "# old\n\n- vLLM 吞吐 1.8×。\n"})
    assert run_kb(["ingest", "--kb", str(kb_root)]).exit_code == 0
    for args in (["sources"], ["history", "vLLM"], ["claims", "--as-of", "9000-12-31"], ["trace", "vLLM"],
                 ["diff", "inference", "--date", "9000-12-31"], ["diff", "inference", "--date", "1000-01-02"],
                 ["digest", "inference", "--date", "9000-12-31", "--out", "-"]):
        res = run_kb([*args, "--kb", str(kb_root)])
        assert res.exit_code == 0, (args, res.stderr)
        assert "Traceback" not in res.stderr


def test_a_file_stamped_with_no_real_date_or_time_is_read_undated_and_named(run_kb, kb_root: Path) -> None:  # noqa: ANN001
    import json

    write_files(kb_root, {"inbox/jay/2026-07-31T2460-late.md": "# late\n\n- vLLM 吞吐 1.7×。\n",
                          "inbox/jay/2026-02-30-nope.md": "# nope\n\n- vLLM 吞吐 1.9×。\n",
                          "inbox/jay/2026-07-30-2599-slug.md": "# slug\n\n- vLLM 吞吐 2.1×。\n"})
    res = run_kb(["ingest", "--kb", str(kb_root)])
    assert res.exit_code == 0
    assert [line for line in res.stderr.splitlines() if "stamp" in line] == [
        "warning: inbox/jay/2026-02-30-nope.md:1: file-name stamp 2026-02-30 is not a valid date or time; "
        "the file is read as undated",
        "warning: inbox/jay/2026-07-31T2460-late.md:1: file-name stamp 2026-07-31T2460 is not a valid date or time; "
        "the file is read as undated",
    ]
    res = run_kb(["claims", "--author", "jay", "--format", "json", "--kb", str(kb_root)])
    assert {c["provenance"]["path"]: c["provenance"]["written_at"] for c in json.loads(res.stdout)} == {
        "inbox/jay/2026-02-30-nope.md": None, "inbox/jay/2026-07-31T2460-late.md": None,
        "inbox/jay/2026-07-30-2599-slug.md": "2026-07-30T00:00:00+08:00",  # 2599 is a slug, not a time
        "inbox/jay/2026-07-31-a.md": "2026-07-31T00:00:00+08:00"}
