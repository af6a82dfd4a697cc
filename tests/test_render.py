"""Rendering: golden briefs of the demo night (zh, en), strict undefined (C15), CJK emphasis (C12).

Regenerate the golden files on purpose with ``KB_UPDATE_GOLDEN=1 python -m pytest tests/test_render.py``
and review the diff (a pytest option cannot be added from a conftest we do not own).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from kb.errors import ExitCode, TemplateError
from kb.render import cell, clip, md, render, template_dirs

GOLDEN = Path(__file__).resolve().parent / "golden" / "demo-2026-07-31"
UPDATE = os.environ.get("KB_UPDATE_GOLDEN") == "1"


def _brief(demo_kb: Path, run_kb, *args: str) -> str:  # noqa: ANN001
    res = run_kb(["digest", "--out", "-", *args], cwd=demo_kb)
    assert res.exit_code == 0, res.stderr
    return res.stdout


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_golden_brief_of_the_demo_night(demo_kb: Path, run_kb, lang: str) -> None:  # noqa: ANN001
    text = _brief(demo_kb, run_kb, "--lang", lang)
    expected = GOLDEN / f"expected.{lang}.md"
    if UPDATE:
        expected.parent.mkdir(parents=True, exist_ok=True)
        expected.write_text(text, encoding="utf-8", newline="")
    assert text == expected.read_text(encoding="utf-8"), f"run KB_UPDATE_GOLDEN=1 to refresh {expected.name} and review"


def _unlinked(text: str) -> str:
    """The brief with ``[path:line](…#Lline)`` links back to their text."""
    return re.sub(r"\[([^\]]+)\]\([^)\s]+\)", r"\1", text)


def test_sources_are_links_to_the_line(demo_kb: Path, run_kb, tmp_path: Path) -> None:  # noqa: ANN001
    """kb.yaml `links`: relative from the brief's folder (default), a web base URL, or none."""
    row = "`paper-fact` [organized/paper_cards/681-2607-26627.md:30]({}organized/paper_cards/681-2607-26627.md#L30)"
    assert row.format("") in _brief(demo_kb, run_kb)  # stdout: relative to the KB root
    wrote = run_kb(["digest", "--date", "2026-07-31"], cwd=demo_kb)
    assert row.format("../../") in (demo_kb / wrote.stdout.strip()).read_text(encoding="utf-8")
    config = (demo_kb / "kb.yaml").read_text(encoding="utf-8")
    (demo_kb / "kb.yaml").write_text(config + "links: https://github.com/o/kb/blob/main\n", encoding="utf-8")
    assert row.format("https://github.com/o/kb/blob/main/") in _brief(demo_kb, run_kb)
    (demo_kb / "kb.yaml").write_text(config + "links: none\n", encoding="utf-8")
    plain = _brief(demo_kb, run_kb)
    assert "`paper-fact` organized/paper_cards/681-2607-26627.md:30\n" in plain and "#L" not in plain


def test_demo_night_shows_what_the_issue_asks(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    text = _unlinked(_brief(demo_kb, run_kb))
    assert "### 增量 1【净新增】Revisiting Lossy Verification in Speculative Decoding（arXiv:2607.26627）" in text
    assert "- 建议归入：§3\n" in text
    assert ("| TGI eol_date：2025 年 12 月（活文档） vs 2026 年 1 月（活文档） vs 2026-03-21（窗口）"
            "（在 inbox/jay/2026-07-31T1735-jay-briefing-inference-stack-vecdb-substack.md:12 处变了） | "
            "`secondhand` organized/knowledge/inference.md:21；") in text
    assert "inbox/jay/2026-07-31T1735-jay-briefing-inference-stack-vecdb-substack.md:12" in text
    assert "⚠ 仅二手：1,918、64 个" in text and "⚠ 仅二手：1,300 万、1,400" in text
    assert "| MC-SF: Memory-Constrained Shortest-First Scheduling for Online LLM Inference（arXiv:2607.24410） | 补遗 |" in text
    assert "2026-07-30" not in "".join(line for line in text.splitlines() if line.startswith("| inbox/"))
    # long groups fold (kb.yaml brief_fold, default 5): supplement first, then carded covered ones
    others = text.split("### 其他主体（已收 / 补遗 / 邻接，22 个）", 1)[1].split("## 2.", 1)[0]
    assert [r.split(" | ")[1] for r in others.splitlines() if r.startswith("| ") and "---" not in r][1:] == [
        "补遗", "已收", "已收", "已收", "已收"]
    assert "\n… 另有 17 个（kb diff --format json）\n" in others and "| LMDeploy | 已收 |" not in text
    assert "\n… 另有 4 个仅二手主体（kb diff --format json）\n" in text and "待核实 12 项（§2）" in text
    # one row per fact: the card's 1.38× sentence is a second source of spark's row, not a row of its own
    # (Spheron's $1.49 is stated at lines 26 and 73 of one file: one row, both sources)
    assert ("明显低于主流云。 — `secondhand` inbox/jay/2026-07-31T1735-jay-briefing-inference-stack-vecdb-substack.md:26；"
            "`secondhand` inbox/jay/2026-07-31T1735-jay-briefing-inference-stack-vecdb-substack.md:73 ⚠ 仅二手：$1.49\n") in text
    assert ("62%。 — `paper-fact` inbox/spark/2026-07-31-llm-infra-e1prep.md:55；`paper-fact` inbox/spark/"
            "2026-07-31-llm-infra-e1prep.md:86；`paper-fact` organized/paper_cards/673-2607-16955.md:27\n") in text
    # off-topic uncarded ids listed together by one file: one §3 row
    assert ("| 2607.25668、2607.25790、2607.25877、2607.26071、2607.26159、2607.26244、2607.26305 | — | 邻接 | — | 无 |"
            in text) and "| 2607.25790 |" not in text
    assert "- 涉及 arXiv 号 16 个，未核验 16 个\n" in text  # counts still count every id
    # the seeds' closing sections: relay action per increment/conflict, next free C/O, card statistics
    assert "  1. Revisiting Lossy Verification in Speculative Decoding（arXiv:2607.26627） 入 §3（增量 1）\n" in text
    assert "  9. 裁定 vLLM 的 ci_job_minutes（1,200 万 / 1,300 万，§2 第 2 项），再改活文档\n" in text
    assert "- 下一个空闲候选编号：共识候选 C117 · 试金石 O173（扫描活文档与窗口内文件）\n" in text  # C116/O172 in use
    assert ("- 窗口内新卡 9 张：主分类 agent 3 张（676、678、679）；coding 2 张（674、675）；inference-systems 1 张（681）；"
            "llm-infra 1 张（673）；multimodal 1 张（677）；rag 1 张（680）；副分类 evaluation 2 张（675、680）；agent 1 张（677）\n") in text
    assert "- 准确性：【执行人填写】\n" in text and "- 结论：【执行人填写" in text
    assert text.endswith("stephen · 2026-07-31 22:00（+08:00，窗口截止）· E1 预消化骨架（kb 0.1.0）\n")
    # §4: files about no subject of the topic are one line, with their claim counts
    assert ("\n不涉及本主题的 17 个文件：inbox/flyp/2026-07-31-1550-VisualPatchWorld-code-world-model-as-third-paradigm-"
            "critical-read.md（4）、") in text and "| inbox/flyp/2026-07-31-risk-e1prep.md |" not in text
    # rows without a fact are counted, not listed
    assert "一份从零到能读懂 vLLM 源码的课程大纲" not in text.split("## 2.", 1)[0]
    assert "- 另有 10 条提及不含数值、日期、编号或评级，未列出（按文件计入 §4）\n" in text


def test_rendered_brief_has_no_literal_double_asterisk(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    """C12: every ** kb emits closes (bold next to CJK needs a space or punctuation outside)."""
    for lang in ("zh", "en"):
        tokens = MarkdownIt("commonmark").enable("table").parse(_brief(demo_kb, run_kb, "--lang", lang))
        texts = [c.content for t in tokens if t.type == "inline" for c in (t.children or []) if c.type == "text"]
        assert [t for t in texts if "**" in t] == []
        assert any(t.type == "strong_open" for tok in tokens if tok.type == "inline" for t in tok.children or [])


def test_c15_undefined_value_fails_with_template_variable_and_claim(tmp_path: Path) -> None:
    tpl = tmp_path / "brief.md.j2"
    tpl.write_text("{% for c in claims %}| {{ c.value }} | {{ c.source }} |\n{% endfor %}", encoding="utf-8")
    with pytest.raises(TemplateError) as info:
        render(tpl, {"claims": [{"value": "2.03×", "source": "a.md:1"}, {"value": "2.03×"}]})
    assert str(info.value).startswith("brief.md.j2: undefined 'source' (claim 2)")
    assert info.value.exit_code == ExitCode.USAGE


def test_c15_cli_writes_nothing(demo_kb: Path, run_kb, tmp_path: Path) -> None:  # noqa: ANN001
    tpl = tmp_path / "brief.md.j2"
    tpl.write_text("{% for c in claims %}| {{ c.text }} | {{ c.nope }} |\n{% endfor %}", encoding="utf-8")
    out = tmp_path / "out.md"
    res = run_kb(["digest", "--template", str(tpl), "--out", str(out)], cwd=demo_kb)
    assert res.exit_code == 2
    assert "brief.md.j2: undefined 'nope' (claim 1)" in " ".join(res.stderr.split())
    assert not out.exists()
    out.write_text("old", encoding="utf-8")
    res = run_kb(["digest", "--template", str(tpl), "--out", str(out), "--force"], cwd=demo_kb)
    assert res.exit_code == 2 and out.read_text(encoding="utf-8") == "old"


def test_other_template_errors(tmp_path: Path) -> None:
    (tmp_path / "bad.md.j2").write_text("{% for %}", encoding="utf-8")
    with pytest.raises(TemplateError, match=r"bad\.md\.j2:1"):
        render(tmp_path / "bad.md.j2", {})
    with pytest.raises(TemplateError, match="not found"):
        render("nosuch.md.j2", {})
    with pytest.raises(TemplateError, match="no such file"):
        render(tmp_path / "missing.md.j2", {})


def test_templates_dir_comes_before_the_shipped_templates(tmp_path: Path) -> None:
    (tmp_path / "e1prep.zh.md.j2").write_text("mine {{ topic }}\n", encoding="utf-8")
    assert render("e1prep.zh.md.j2", {"topic": "t"}, templates_dir=tmp_path) == "mine t\n"
    dirs = template_dirs(tmp_path)
    assert dirs[0] == tmp_path and any((d / "e1prep.en.md.j2").is_file() for d in dirs[1:])


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("a | b", "a \\| b"),
        ("line1\nline2", "line1 line2"),
        ("**2.03×**加速", "\\*\\*2.03×\\*\\*加速"),
        ("`x` <br>", "\\`x\\` \\<br\\>"),
    ],
)
def test_cell_escapes_markdown(value: str, expected: str) -> None:
    assert cell(value) == expected


def test_md_and_clip() -> None:
    assert md("a * b") == "a \\* b"
    assert clip("x" * 10, 5) == "xxxx…"
    assert clip(" a \n b ", 5) == "a b"


def test_a_file_name_with_a_pipe_does_not_split_table_rows(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    src = demo_kb / "inbox/jay/2026-07-31T1735-jay-briefing-inference-stack-vecdb-substack.md"
    src.rename(src.with_name("2026-07-31T1735-jay|briefing.md"))
    text = run_kb(["digest", "--date", "2026-07-31", "--out", "-"], cwd=demo_kb).stdout
    rows = [line for line in text.splitlines() if line.startswith("| ") and "jay|briefing" in line.replace("\\|", "|")]
    assert rows
    assert all("jay\\|briefing" in line and "jay|briefing" not in line.replace("\\|", "") for line in rows)
