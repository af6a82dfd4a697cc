"""Tests for kb.extract.dates: dates in text at their precision, and file-name stamps."""

from __future__ import annotations

import datetime as dt

import pytest

from kb.extract.arxiv_ids import find_arxiv
from kb.extract.dates import find_dates, parse_stamp

REF = dt.date(2026, 7, 31)


@pytest.mark.parametrize(
    ("text", "value", "precision", "raw", "start"),
    [
        ("2026-03-21", "2026-03-21", "day", "2026-03-21", 0),
        ("TGI 2026-03-21 进入维护模式", "2026-03-21", "day", "2026-03-21", 4),
        ("2026/03/21", "2026-03-21", "day", "2026/03/21", 0),
        ("2026.03.21", "2026-03-21", "day", "2026.03.21", 0),
        ("2026-3-5", "2026-03-05", "day", "2026-3-5", 0),
        ("（2026-02-20）", "2026-02-20", "day", "2026-02-20", 1),
        ("2026-07-31 16:30 建卡", "2026-07-31T16:30", "minute", "2026-07-31 16:30", 0),
        ("2026-07-31T16:30", "2026-07-31T16:30", "minute", "2026-07-31T16:30", 0),
        ("2026-07-31 16:30:59", "2026-07-31T16:30", "minute", "2026-07-31 16:30:59", 0),
        ("2026-07-31 25:00", "2026-07-31", "day", "2026-07-31", 0),
        ("2026-07-31T1735-jay-briefing", "2026-07-31", "day", "2026-07-31", 0),
        ("2026-07-31-0900-hf-daily", "2026-07-31", "day", "2026-07-31", 0),
        ("2025 年 12 月", "2025-12", "month", "2025 年 12 月", 0),
        ("2025年12月进入", "2025-12", "month", "2025年12月", 0),
        ("2026年8月13日", "2026-08-13", "day", "2026年8月13日", 0),
        ("2026 年 8 月 13 日", "2026-08-13", "day", "2026 年 8 月 13 日", 0),
        ("2026年8月13号", "2026-08-13", "day", "2026年8月13号", 0),
        ("2026-03", "2026-03", "month", "2026-03", 0),
        ("HuggingFace Blog 2026-06）", "2026-06", "month", "2026-06", 17),
        ("2026 年", "2026", "year", "2026 年", 0),
        ("2023-2024 年标配", "2024", "year", "2024 年", 5),
        # month-day shorthand against ref's year
        ("7-31", "2026-07-31", "day", "7-31", 0),
        ("07-31", "2026-07-31", "day", "07-31", 0),
        ("HF 7-31 推", "2026-07-31", "day", "7-31", 3),
        ("在 7-30 E1 收官时覆盖", "2026-07-30", "day", "7-30", 2),
        ("7-30 22:00", "2026-07-30T22:00", "minute", "7-30 22:00", 0),
        ("7-3 22:00", "2026-07-03T22:00", "minute", "7-3 22:00", 0),
        ("7/31", "2026-07-31", "day", "7/31", 0),
        ("8月13日", "2026-08-13", "day", "8月13日", 0),
        ("于 8 月 13 日发布", "2026-08-13", "day", "8 月 13 日", 2),
        ("8月13日 09:05", "2026-08-13T09:05", "minute", "8月13日 09:05", 0),
        ("7-31 25:00", "2026-07-31", "day", "7-31", 0),
    ],
)
def test_forms(text: str, value: str, precision: str, raw: str, start: int) -> None:
    (d,) = find_dates(text, ref=REF)
    assert (d.value, d.precision, d.raw, d.start, d.end) == (value, precision, raw, start, start + len(raw))
    assert text[d.start : d.end] == d.raw
    assert d.metric is None


@pytest.mark.parametrize(
    "text",
    [
        "2026",
        "共 2026 个",
        "2603.21354",
        "arXiv:2603.21354",
        "2026.05",
        "2024.1.2",
        "vLLM 0.26.0",
        "v0.5.16",
        "10.0.0.1",
        "1,918",
        "1.29×",
        "383.7",
        "2026-02-30",
        "2026-13",
        "2026-13-01",
        "2025 年 13 月",
        "2026年2月30日",
        "2026-03-2100",
        "12026-03-21",
        "3-6 个月迁移计划",
        "-29-69%",
        "inter-token -29-69%",
        "6-8 周",
        "1-2x",
        "1-2×",
        "2-3 天",
        "10-12 层",
        "3-5 GPUs",
        "12-24 hours",
        "3-6",
        "1/2 的显存",
        "a7-31",
        "v7-31",
        "12607-31",
        "1.7-31",
        "7-31.5",
        "7-31-2026",
        "2/30",
        "13-01",
        "7-32",
        "§2-13",
        "第 7-12 节",
        "paper_cards/666-681",
        "8月32日",
    ],
)
def test_not_a_date(text: str) -> None:
    assert find_dates(text, ref=REF) == []


def test_month_day_needs_ref() -> None:
    assert find_dates("7-31 与 8月13日 及 7-30 22:00") == []
    assert [d.value for d in find_dates("7-31 与 8月13日", ref=dt.date(2025, 1, 1))] == [
        "2025-07-31",
        "2025-08-13",
    ]
    assert find_dates("2/29", ref=dt.date(2026, 1, 1)) == []
    assert [d.value for d in find_dates("2/29", ref=dt.date(2028, 1, 1))] == ["2028-02-29"]


def test_skip_spans() -> None:
    text = "2026-03-21 见 x 2026-07-31"
    assert [d.value for d in find_dates(text, skip=[(0, 3)])] == ["2026-07-31"]
    assert [d.value for d in find_dates(text, skip=[(20, 21), (100, 200)])] == ["2026-03-21"]
    assert [d.value for d in find_dates(text, skip=[(10, 14)])] == ["2026-03-21", "2026-07-31"]
    assert find_dates(text, skip=[(0, 100)]) == []


def test_range_of_dates() -> None:
    text = "覆盖时段： 2026-07-30 22:00 → 2026-07-31 22:00"
    assert [(d.value, d.precision, d.start) for d in find_dates(text)] == [
        ("2026-07-30T22:00", "minute", 6),
        ("2026-07-31T22:00", "minute", 25),
    ]


def test_c17_date_and_no_date_from_id() -> None:
    text = "延迟下降 −67.6%，吞吐提升 2.03×（另一组 1.9x），准确率 73.6%–77.1%，发布于 2026-03-21，见 2607.26627。"
    skip = [(r.start, r.end) for r in find_arxiv(text)]
    dates = find_dates(text, ref=REF, skip=skip)
    assert [(d.value, d.precision, d.raw) for d in dates] == [("2026-03-21", "day", "2026-03-21")]
    assert text[dates[0].start : dates[0].end] == "2026-03-21"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("2026-07-31T1735-jay-briefing.md", (dt.date(2026, 7, 31), dt.time(17, 35))),
        ("2026-07-31-0900-hf-daily.md", (dt.date(2026, 7, 31), dt.time(9, 0))),
        ("2026-07-31-csdn-weekly.md", (dt.date(2026, 7, 31), None)),
        ("2026-07-31.md", (dt.date(2026, 7, 31), None)),
        ("2026-07-31-0900.md", (dt.date(2026, 7, 31), dt.time(9, 0))),
        ("2026-07-31-0900", (dt.date(2026, 7, 31), dt.time(9, 0))),
        ("inbox/jay/2026-08-13T1505-jay-five-categ.md", (dt.date(2026, 8, 13), dt.time(15, 5))),
        ("2026-07-31-2500-x.md", (dt.date(2026, 7, 31), None)),
        ("2026-07-31-09001-x.md", (dt.date(2026, 7, 31), None)),
        ("2026-07-31-0900x.md", (dt.date(2026, 7, 31), None)),
        ("2026-02-30-x.md", None),
        ("2026-07-312.md", None),
        ("x-2026-07-31.md", None),
        ("README.md", None),
    ],
)
def test_parse_stamp(name: str, expected: object) -> None:
    assert parse_stamp(name) == expected
