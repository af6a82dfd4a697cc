"""A template cannot make a huge value in one step (a signal cannot stop Python while it
allocates, so brief_seconds and brief_max_mb come too late): padding and format widths, ``+``,
``~``, joins and replacements are sized first and refused past brief_max_mb (at most 10,000,000
characters) with a SecurityError, exit 2; a template cannot change a list (kb.brief.sandbox)."""

from __future__ import annotations

from pathlib import Path

import pytest

NIGHT = ["digest", "inference", "--date", "2026-07-31", "--executor", "ana"]


def _run(run_kb, demo_kb: Path, tmp_path: Path, text: str):
    path = tmp_path / "t" / "mine.md.j2"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")
    out = tmp_path / "brief.md"
    res = run_kb([*NIGHT, "--template", str(path), "--out", str(out)], cwd=demo_kb)
    assert not out.exists() and "Traceback" not in res.stderr
    return res, path


@pytest.mark.parametrize(("text", "why"), [
    ('{{ ("x\\n"*1000)|indent(99999999) }}', "a width of 99,999,999"),
    ('{{ "%999999999s"|format(1) }}', "a width of 999,999,999"),
    ('{{ "%0999999999d" % 1 }}', "a width of 999,999,999"),
    ('{{ "%*d" % (999999999, 1) }}', "a width of 999,999,999"),
    ('{{ "%.999999999f" % 1.5 }}', "a width of 999,999,999"),
    ('{{ "x"|center(999999999) }}', "a width of 999,999,999"),
    ('{{ "{:>999999999}".format(1) }}', "a width of 999,999,999"),
    ('{{ "{:{}}".format(1, 999999999) }}', "a width of 999,999,999"),
    ('{{ "x".ljust(999999999) }}', "a width of 999,999,999"),
    ('{{ "x".zfill(999999999) }}', "a width of 999,999,999"),
    ('{{ [1]|batch(999999999, 0)|list }}', "a width of 999,999,999"),
    ('{{ "\\t".expandtabs(tabsize=999999999) }}', "a width of 999,999,999"),
    ('{{ ("x"*1000000).translate({120: "y"*1000}) }}', "a sequence of 1,000,000,000 items"),
    ('{{ ("\\t"*1000).expandtabs(99999) }}', "a sequence of 100,000,000 items"),
    ('{{ ("x"*100000)|replace("", "y"*1000) }}', "a sequence of 100,101,000 items"),
    ('{{ ("x"*100000).replace("", "y"*1000) }}', "a sequence of 100,101,000 items"),
    ('{{ (["x"*9000000]*1000)|join }}', "a sequence of 9,000,001,000 items"),
    ('{{ ["x"*9000000]*1000 }}', "a sequence of 9,000,001,000 items"),
    ('{% set a = "x"*9000000 %}{% set b = a ~ a %}{{ b|length }}', "a sequence of 18,000,000 items"),
    ('{% set a = "x"*9000000 %}{% set b = a + a %}{{ b|length }}', "a sequence of 18,000,000 items"),
    ('{{ lipsum(999999999) }}', "a sequence of 999,999,999,000 items"),
    ('{% set a = "x"*9000000 %}{{ [a, a, a, a, a, a, a, a, a, a]|pprint|length }}', "a sequence of 90,000,010 items"),
    ('{% set a = "x"*9000000 %}{{ "{}".format([a, a, a, a, a, a, a, a, a, a])|length }}', "a sequence of 90,000,010 items"),
    ('{{ [1, 2, 3]|tojson(999999999) }}', "a width of 999,999,999"),
    ('{{ ("x"*9000000)|wordwrap(1, wrapstring="y"*100) }}', "a sequence of 909,000,100 items"),
])
def test_a_huge_value_is_refused_before_it_is_made(demo_kb: Path, run_kb, tmp_path: Path, text: str, why: str) -> None:
    res, path = _run(run_kb, demo_kb, tmp_path, text)
    assert res.exit_code == 2
    assert res.stderr.strip().splitlines() == [f"error: {path}:1: SecurityError: {why} is too big for a template; fix the template"]


def test_the_bound_is_brief_max_mb_when_smaller(demo_kb: Path, run_kb, tmp_path: Path) -> None:
    (demo_kb / "kb.yaml").write_text((demo_kb / "kb.yaml").read_text(encoding="utf-8") + "brief_max_mb: 0.5\n",
                                     encoding="utf-8")
    res, path = _run(run_kb, demo_kb, tmp_path, '{{ "x"|center(400000)|length }} {{ "x"|center(600000) }}')
    assert res.exit_code == 2
    assert res.stderr.strip().splitlines() == [f"error: {path}:1: SecurityError: a width of 600,000 is too big for a template; "
                                               "fix the template"]


def test_a_template_cannot_change_a_list(demo_kb: Path, run_kb, tmp_path: Path) -> None:
    res, _ = _run(run_kb, demo_kb, tmp_path,
                  '{% set l=[] %}{% for i in range(100000) %}{{ l.append("x"*10000) or "" }}{% endfor %}')
    assert res.exit_code == 2
    assert res.stderr.strip().splitlines() == [
        "error: mine.md.j2: access to attribute 'append' of 'list' object is unsafe in a brief's template; fix the template"]


def test_ordinary_padding_formatting_and_joins_still_render(demo_kb: Path, run_kb, tmp_path: Path) -> None:
    path = tmp_path / "t" / "mine.md.j2"
    path.parent.mkdir()
    path.write_text('{{ "{:>4}|{}".format(7, "a") }}|{{ "a"|center(5) }}|{{ "%05.1f"|format(3.14159) }}|{{ "%-3d" % 7 }}|'
                    '{{ "x\\ny"|indent(2) }}|{{ [1, 2]|join(",") }}|{{ "ab" ~ "cd" }}|{{ [1] + [2] }}|{{ "q".ljust(3) }}|'
                    '{{ "ab"|replace("a", "xy") }}|{{ "-" * 3 }}|{{ 2 ** 10 }}|{{ [1, [2]]|tojson }}|{{ "a b"|wordwrap(1) }}|'
                    '{{ [1]|string }}|{{ "A"|lower }}\n', encoding="utf-8")
    res = run_kb([*NIGHT, "--template", str(path), "--out", "-"], cwd=demo_kb)
    assert res.exit_code == 0, res.stderr
    assert res.stdout == "   7|a|  a  |003.1|7  |x\n  y|1,2|abcd|[1, 2]|q  |xyb|---|1024|[1, [2]]|a\nb|[1]|a\n"
