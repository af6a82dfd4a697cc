"""Issue 24, item 9 and the brief's long lines: a template renders within a time and an output
limit (kb.yaml brief_seconds, brief_max_mb), past which kb digest stops, exit 2, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.brief.render import MAX_LINE, fold_lines

NIGHT = ["digest", "inference", "--date", "2026-07-31", "--executor", "ana"]


def _template(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t" / "mine.md.j2"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_template_that_loops_forever_is_stopped(demo_kb: Path, run_kb, tmp_path: Path) -> None:  # noqa: ANN001
    (demo_kb / "kb.yaml").write_text((demo_kb / "kb.yaml").read_text(encoding="utf-8") + "brief_seconds: 1\n",
                                     encoding="utf-8")
    loop = _template(tmp_path, "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}\n")
    out = tmp_path / "brief.md"
    res = run_kb([*NIGHT, "--template", str(loop), "--out", str(out)], cwd=demo_kb)
    assert res.exit_code == 2
    assert res.stderr.strip().splitlines()[-1] == ("error: mine.md.j2: rendering took more than 1 s (kb.yaml brief_seconds); "
                                                   "stopped, nothing written: check the template's loops")
    assert not out.exists()


def test_a_template_that_writes_too_much_is_stopped(demo_kb: Path, run_kb, tmp_path: Path) -> None:  # noqa: ANN001
    (demo_kb / "kb.yaml").write_text((demo_kb / "kb.yaml").read_text(encoding="utf-8") + "brief_max_mb: 0.5\n",
                                     encoding="utf-8")
    big = _template(tmp_path, "{% for i in range(100000) %}0123456789{% endfor %}\n")
    res = run_kb([*NIGHT, "--template", str(big), "--out", "-"], cwd=demo_kb)
    assert res.exit_code == 2
    assert res.stderr.strip().splitlines()[-1] == ("error: mine.md.j2: the brief grew past 0.5 MB (kb.yaml brief_max_mb); "
                                                   "rendering stopped, nothing written: check the template's loops")
    assert res.stdout == ""


def test_one_huge_value_is_refused_before_it_is_made(demo_kb: Path, run_kb, tmp_path: Path) -> None:  # noqa: ANN001
    bomb = _template(tmp_path, '{{ "x" * 10000000000 }}\n')
    res = run_kb([*NIGHT, "--template", str(bomb), "--out", "-"], cwd=demo_kb)
    assert res.exit_code == 2
    assert res.stderr.strip().splitlines()[-1] == (
        f"error: {bomb}:1: SecurityError: a sequence of 10,000,000,000 items is too big for a template; fix the template")


def test_the_limits_are_kb_yaml_keys_with_defaults() -> None:
    from kb.core.config import KbConfig

    assert (KbConfig().brief_seconds, KbConfig().brief_max_mb) == (60.0, 20.0)
    with pytest.raises(ValueError):
        KbConfig.model_validate({"brief_seconds": 0})


def test_long_lines_fold_after_a_separator_never_inside_a_link() -> None:
    values = "、".join(f"{i}.5×" for i in range(5000))
    folded = fold_lines(f"- 仅二手：{values}\nshort\n", limit=100)
    first, second, _ = folded.split("\n")
    line = f"- 仅二手：{values}"
    head = "- 仅二手：" + "、".join(f"{i}.5×" for i in range(17))  # cut after the last 、 within 100 characters
    assert first == f"{head} … (+{len(line) - len(head):,} characters folded)"
    assert second == "short"
    link = "[inbox/a.md:1](inbox/a.md#L1)"
    row = "| 1 | vLLM | " + "；".join([link] * 2000) + " | 🟡 |"
    folded_row = fold_lines(row, limit=1000)
    assert folded_row.startswith("| 1 | vLLM | [inbox/a.md:1](inbox/a.md#L1)；") and folded_row.endswith(" | 🟡 |")
    assert folded_row.count("[") == folded_row.count("](")  # no link cut in half
    assert fold_lines("x" * MAX_LINE) == "x" * MAX_LINE
