"""Parser: units, kinds with their reasons, subjects, provenance, bad input (C08, C10, C12, C13)."""

from __future__ import annotations

from datetime import date

import pytest

from kb.core.config import KbConfig
from kb.read.parse import Parser, role_of
from kb.read.tables import _raw_cells, _raw_count

CONFIG = KbConfig(
    entities={"TGI": ["Text Generation Inference"], "vLLM": [], "SGLang": [], "vllm-mlx": ["vLLM-MLX"]},
    metrics={"ci_job_minutes": ["CI job minutes", "job minutes"]},
)


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser(CONFIG)


def parse(parser: Parser, text: str | bytes, path: str = "inbox/jay/2026-07-31T1735-jay-briefing.md"):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return parser.parse_bytes(path, data)


def only(parsed):
    assert len(parsed.claims) == 1, [c.text for c in parsed.claims]
    return parsed.claims[0]


# -- kinds -------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "path", "kind", "reason"),
    [
        ("[论文事实] Bole 吞吐 2.03×。", "inbox/jay/2026-07-31-a.md", "paper-fact", "tag:[论文事实]"),
        ("[secondhand] the paper reports 2.03× throughput.", "inbox/jay/2026-07-31-a.md", "secondhand", "tag:[secondhand]"),
        ("[内部评级] ★★ arXiv:2607.26627。", "inbox/jay/2026-07-31-a.md", "internal-rating", "tag:[内部评级]"),
        ("论文报告 TTFT -67.6%。", "inbox/jay/2026-07-31-a.md", "paper-fact", "cue:论文报告"),
        ("The paper reports TTFT -67.6%.", "inbox/jay/2026-07-31-a.md", "paper-fact", "cue:The paper reports"),
        ("上游摘要称其吞吐 2.03×。", "inbox/jay/2026-07-31-a.md", "secondhand", "cue:上游摘要"),
        ("据 CSDN 报道 vLLM 吞吐 2.5K TPS。", "inbox/jay/2026-07-31-a.md", "secondhand", "cue:据"),
        ("vLLM reportedly merged 1,918 commits.", "inbox/jay/2026-07-31-a.md", "secondhand", "cue:reportedly"),
        ("★★ 建议补 arXiv:2607.26627。", "inbox/jay/2026-07-31-a.md", "internal-rating", "cue:★"),
        ("候选升档：SGLang 29% 提升。", "inbox/jay/2026-07-31-a.md", "internal-rating", "cue:候选升档"),
        ("vLLM 合并 1,918 commits。", "inbox/jay/2026-07-31-a.md", "secondhand", "default:inbox"),
        ("吞吐提升 2.03×，上游摘要称。", "organized/paper_cards/681-2607-26627.md", "paper-fact", "role:paper-card"),
        ("数据显示 vLLM 吞吐 2.03×。", "inbox/jay/2026-07-31-a.md", "secondhand", "default:inbox"),
    ],
)
def test_kind_decision(parser: Parser, text: str, path: str, kind: str, reason: str) -> None:
    c = only(parse(parser, text + "\n", path))
    assert (c.kind, c.kind_reason) == (kind, reason)


def test_kind_column_of_a_table(parser: Parser) -> None:
    text = (
        "| 项目 | 数字 | 类型 |\n|---|---|---|\n"
        "| Bole 吞吐 | 2.03× | 论文事实 |\n| vLLM commits | 1,918 | 摘要转述 |\n| Bole 评级 | ★★ arXiv:2608.01651 | 内部评级 |\n"
    )
    claims = parse(parser, text).claims
    assert [(c.kind, c.kind_reason, c.unit, c.provenance.line) for c in claims] == [
        ("paper-fact", "column:类型=论文事实", "table-row", 3),
        ("secondhand", "column:类型=摘要转述", "table-row", 4),
        ("internal-rating", "column:类型=内部评级", "table-row", 5),
    ]


def test_explicit_tag_beats_table_column(parser: Parser) -> None:
    text = "| 项目 | 类型 |\n|---|---|\n| [secondhand] Bole 2.03× | 论文事实 |\n"
    c = only(parse(parser, text))
    assert (c.kind, c.kind_reason) == ("secondhand", "tag:[secondhand]")


# -- units and provenance ----------------------------------------------------------------------

def test_units_sentences_list_items_and_headings(parser: Parser) -> None:
    text = (
        "---\nauthor: jay\n---\n"  # lines 1-3
        "# TGI 维护模式\n"  # 4
        "\n"
        "## 第一节 TGI\n"  # 6
        "\n"
        "TGI 于 2026-03-21 进入维护模式。vLLM 合并 1,918 commits。\n"  # 8
        "没有锚点的叙述不是 claim。\n"  # 9
        "\n"
        "- 父项 vLLM 2026 年 6 月数据：\n"  # 11
        "  - 合并 1,918 commits 到 main\n"  # 12
    )
    parsed = parse(parser, text)
    got = [(c.unit, c.provenance.line, c.provenance.end_line, c.text) for c in parsed.claims]
    assert got == [
        ("sentence", 8, 8, "TGI 于 2026-03-21 进入维护模式。"),
        ("sentence", 8, 8, "vLLM 合并 1,918 commits。"),
        ("list-item", 11, 11, "父项 vLLM 2026 年 6 月数据："),
        ("list-item", 12, 12, "合并 1,918 commits 到 main"),
    ]
    first = parsed.claims[0]
    assert first.provenance.author == "jay"
    assert first.provenance.written_at == "2026-07-31T17:35:00+08:00"
    assert first.provenance.heading == ["TGI 维护模式", "第一节 TGI"]
    assert first.subjects == ["entity:tgi"]
    assert [(d.value, d.precision) for d in first.dates] == [("2026-03-21", "day")]


def test_heading_gives_subject_to_its_list_items(parser: Parser) -> None:
    text = "### 1. AcceptMoE (arXiv:2608.02989)\n\n- 平均准确率仅下降 0.27 个百分点\n- 集成 SGLang，吞吐 1.29×\n"
    claims = parse(parser, text).claims
    assert [c.subjects for c in claims] == [["arxiv:2608.02989"], ["arxiv:2608.02989"]]
    q = claims[0].quantities[0]
    assert (q.value, q.unit, q.metric) == (-0.27, "pp", "accuracy")


def test_nested_list_inherits_parent_subject(parser: Parser) -> None:
    text = "- arXiv:2607.26627 Lossy Verification\n  - 加速 2.03×\n"
    claims = parse(parser, text).claims
    assert [c.subjects for c in claims] == [["arxiv:2607.26627"], ["arxiv:2607.26627"]]


def test_longest_alias_wins_and_host_is_not_subject(parser: Parser) -> None:
    c = only(parse(parser, "vLLM-MLX 在 M4 上吞吐 383.7 tok/s。\n"))
    assert c.subjects == ["entity:vllm-mlx"]
    c = only(parse(parser, "Bole arXiv:2608.01651 集成 SGLang，吞吐 2.03×。\n"))
    assert c.subjects == ["arxiv:2608.01651"]


def test_section_hint_and_sources(parser: Parser) -> None:
    text = (
        "arXiv:2607.26627 建议归入 §3 投机解码，来源 inbox/spark/2026-07-31-llm-infra-e1prep.md 与 "
        "https://vllm.ai/blog、DOI 10.1145/3803798。\n"
    )
    c = only(parse(parser, text))
    assert c.section_hint == "§3"
    assert c.sources == [
        "arxiv:2607.26627", "doi:10.1145/3803798", "https://vllm.ai/blog", "inbox/spark/2026-07-31-llm-infra-e1prep.md",
    ]


def test_a_filing_hint_is_read_as_the_diff_reads_it(parser: Parser) -> None:
    """Issue 19: the parser and the Attributor held two copies of the §-hint rule (the parser's
    with fewer words and a 12-character gap), so ``kb claims`` printed no hint where ``kb diff``
    filed the same line under §1.2. One rule (kb.extract.sections) now serves both; an explicit
    hint beats the enclosing heading's section."""
    from kb.extract.sections import hinted_section

    text = "## §4 杂项\n\n- vLLM 吞吐 1.3×，建议补到 §1.2\n- vLLM 吞吐 1.4×，归入 abcdefghijklmn §3\n- vLLM 吞吐 1.5×\n"
    hints = [c.section_hint for c in parse(parser, text).claims if c.unit == "list-item"]
    assert hints == ["§1.2", "§3", "§4"]
    assert [hinted_section(t) for t in ("建议补到 §1.2", "归入 abcdefghijklmn §3", "见 §2.13")] == ["§1.2", "§3", None]


def test_month_day_shorthand_resolves_against_file_date(parser: Parser) -> None:
    c = only(parse(parser, "681 于 7-31 16:30 建卡，HF 7-30 推。\n", "inbox/tom/2026-07-31-0900-hf-daily.md"))
    assert [(d.value, d.precision) for d in c.dates] == [("2026-07-31T16:30", "minute"), ("2026-07-30", "day")]


def test_link_text_and_href_are_one_mention(parser: Parser) -> None:
    """C04: a link whose text and href name the same id is one mention, with the href's version."""
    text = "见 arXiv:2301.00001。对比 https://arxiv.org/pdf/2301.00001v3.pdf，以及（2402.12345v1）、[2403.00002](https://arxiv.org/abs/2403.00002v2)\n"
    parsed = parse(parser, text)
    assert [(m.id, m.version) for m in parsed.mentions] == [
        ("2301.00001", None), ("2301.00001", 3), ("2402.12345", 1), ("2403.00002", 2),
    ]


def test_versions_are_kept_and_one_paper_one_subject(parser: Parser) -> None:
    """C01: five mentions, one base id, four with version 2."""
    text = (
        "---\narxiv: arXiv:2607.26627v2\n---\n"
        "见 https://arxiv.org/abs/2607.26627v2 、 https://arxiv.org/pdf/2607.26627v2 、 "
        "https://arxiv.org/html/2607.26627v2 及 2607.26627。\n"
    )
    parsed = parse(parser, text, "organized/paper_cards/681-2607-26627.md")
    assert [(m.id, m.version, m.line) for m in parsed.mentions] == [
        ("2607.26627", 2, 2), ("2607.26627", 2, 4), ("2607.26627", 2, 4), ("2607.26627", 2, 4), ("2607.26627", None, 4),
    ]
    assert only(parsed).subjects == ["arxiv:2607.26627"]
    assert parsed.front["arxiv"] == "arXiv:2607.26627v2"


# -- bad input ---------------------------------------------------------------------------------

def test_bom_and_crlf_front_matter_equal_their_lf_twin(parser: Parser) -> None:
    """C08."""
    bom = b"\xef\xbb\xbf---\r\ntitle: \xe6\xb5\x8b\xe8\xaf\x95\xe5\x8d\xa1\xe7\x89\x87\r\ndate: 2026-03-21\r\n---\r\n\xe6\xad\xa3\xe6\x96\x87 2.03\xc3\x97\r\n"
    lf = "---\ntitle: 测试卡片\ndate: 2026-03-21\n---\n正文 2.03×\n".encode()
    a, b = parse(parser, bom, "organized/paper_cards/1-2603-00001.md"), parse(parser, lf, "organized/paper_cards/1-2603-00001.md")
    assert a.front == b.front == {"title": "测试卡片", "date": date(2026, 3, 21)}
    assert a.headings == b.headings == []
    assert [c.model_dump() for c in a.claims] == [c.model_dump() for c in b.claims]
    assert only(a).text == "正文 2.03×"
    assert a.problems == []


def test_yaml_scalars_keep_their_types(parser: Parser) -> None:
    """C09: YAML 1.2, offsets kept, no sexagesimal or Norway problem."""
    text = "---\ndate: 2026-03-21\npublished: 2026-03-21T23:30:00-04:00\nwindow: 10:00\nlang: no\nstatus: on\n---\n"
    front = parse(parser, text, "organized/paper_cards/1-2603-00001.md").front
    assert front["date"] == date(2026, 3, 21)
    assert front["published"].date() == date(2026, 3, 21)
    assert (front["window"], front["lang"], front["status"]) == ("10:00", "no", "on")


def test_duplicate_key_and_tab_are_reported_at_file_lines(parser: Parser) -> None:
    """C10: the body is still parsed."""
    a = parse(parser, "---\ntitle: 初版\ntitle: 修订版\n---\nvLLM 2.03×\n", "organized/paper_cards/7-2607-00001.md")
    assert [str(p) for p in a.problems] == [
        "organized/paper_cards/7-2607-00001.md:3: duplicate front-matter key 'title' (first at line 2); front matter ignored"
    ]
    assert only(a).text == "vLLM 2.03×"
    b = parse(parser, "---\ntags:\n\t- llm\n---\n", "organized/paper_cards/7-2607-00001.md")
    assert [str(p) for p in b.problems] == [
        "organized/paper_cards/7-2607-00001.md:3:1: tab used for indentation in front matter; use spaces; front matter ignored"
    ]


def test_nul_bytes_skip_their_line_only(parser: Parser) -> None:
    parsed = parse(parser, b"vLLM 2.03\xc3\x97\n\x00\x00bad 3.1\xc3\x97\nSGLang 29%\n")
    assert [c.text for c in parsed.claims] == ["vLLM 2.03×", "SGLang 29%"]
    assert [str(p) for p in parsed.problems] == [
        "inbox/jay/2026-07-31T1735-jay-briefing.md:2: NUL bytes on 1 line(s) (2); those lines skipped"
    ]


def test_gb18030_is_read_with_a_warning(parser: Parser) -> None:
    parsed = parse(parser, "TGI 于 2025 年 12 月进入维护模式。\n".encode("gb18030"))
    assert only(parsed).dates[0].value == "2025-12"
    assert [(p.severity, p.message) for p in parsed.problems] == [
        ("warning", "not UTF-8 (first bad byte on line 1); read as GB18030")
    ]


def test_unclosed_cjk_emphasis_leaves_no_markers(parser: Parser) -> None:
    """C12: literal ** is dropped from claim text and the numbers still parse."""
    claims = parse(parser, "- **“引用”**后的结论 vLLM\n- 结论：**2.03×**加速\n- 延迟降低**−67.6%**以上\n").claims
    assert [c.text for c in claims] == ["“引用”后的结论 vLLM", "结论：2.03×加速", "延迟降低−67.6%以上"]
    assert [(q.value, q.unit) for c in claims for q in c.quantities] == [(2.03, "×"), (-67.6, "%")]


def test_pipe_in_code_cell_keeps_the_provenance_cell(parser: Parser) -> None:
    """C13: markdown-it drops the 4th cell of row B; kb reads the raw line and warns."""
    text = "| 方法 | 命令 | 来源 |\n|---|---|---|\n| A 2.03× | `grep a \\| wc` | paper |\n| B 1.9× | `grep b | wc` | paper |\n"
    parsed = parse(parser, text)
    # a pipe written in a cell is shown as ¦, so that " | " parts cells only (kb.read.tables.cell_text)
    assert [c.text for c in parsed.claims] == ["A 2.03× | grep a ¦ wc | paper", "B 1.9× | `grep b | wc` | paper"]
    assert [(p.line, p.message) for p in parsed.problems] == [(4, "4 cells, header has 3; row read from the raw line")]


@pytest.mark.parametrize("line", ["", "   ", "|", "||", "|||", "a", "a|b", "| a | b |", "| a | b", "a | b |", "|a||b|",
                                  "| `x \\| y` | z |", "| a \\|", "\\|", "| a | b \\| c | d |", "  | a | b |  "])
def test_raw_cell_count_is_the_number_of_raw_cells(line: str) -> None:
    """C13's cheap test: kb.read.tables._raw_count counts the cells _raw_cells splits a raw table line into."""
    cells = _raw_cells(line)
    assert _raw_count(line) == (len(cells) if cells is not None else 0)


@pytest.mark.parametrize(
    ("path", "role"),
    [
        ("inbox/jay/2026-07-31-a.md", "inbox"),
        ("organized/paper_cards/681-2607-26627.md", "card"),
        ("organized/knowledge/inference.md", "living-doc"),
        ("organized/knowledge/history/inference/v44.md", "living-doc"),  # a kept version reads as the doc
        ("organized/knowledge/history/inference/notes.md", "other"),
        ("organized/knowledge/history/inference/.bumped-in/v45.md", "other"),
    ],
)
def test_role_of(path: str, role: str) -> None:
    assert role_of(path) == role


def test_entity_headed_table_columns_own_their_numbers(parser: Parser) -> None:
    text = (
        "| 场景 | SGLang v0.6 | vLLM 0.26.0 | 说明 |\n|---|---|---|---|\n"
        "| GPT-OSS-20B 单请求解码 | 58.3 tok/s | 52.9 tok/s | DGX Spark |\n"
    )
    c = only(parse(parser, text))
    assert [(q.raw, q.subject) for q in c.quantities] == [
        ("58.3 tok/s", "entity:sglang"),
        ("52.9 tok/s", "entity:vllm"),
    ]
    assert c.subjects == ["entity:sglang", "entity:vllm"]


def test_mention_and_invalid_id_columns_are_file_columns(parser: Parser) -> None:
    """C04/C03: each mention's column points at its id's first character in the source line."""
    text = (
        "# 标题\n"
        "见 **arXiv:2301.00001**。对比 https://arxiv.org/pdf/2301.00001v3.pdf，以及（2402.12345v1）、"
        "[2403.00002](https://arxiv.org/abs/2403.00002v2)\n"
        "坏号 arXiv:2313.00001 与 [GEAR](https://arxiv.org/abs/203.05527) 2.03×\n"
    )
    parsed = parse(parser, text)
    line2 = text.split("\n")[1]
    assert [(m.id, m.version, m.line, m.column) for m in parsed.mentions] == [
        ("2301.00001", None, 2, line2.index("2301.00001") + 1),
        ("2301.00001", 3, 2, line2.index("2301.00001v3") + 1),
        ("2402.12345", 1, 2, line2.index("2402.12345") + 1),
        ("2403.00002", 2, 2, line2.index("2403.00002") + 1),
    ]
    line3 = text.split("\n")[2]
    # a link path that is no id at all (GEAR's 203.05527) is KB103's to report
    assert [(ln, col, raw) for ln, col, raw, _ in parsed.invalid_ids] == [
        (3, line3.index("2313.00001") + 1, "arXiv:2313.00001"),
    ]


def test_a_brief_row_with_a_provenance_stamp_is_a_quote(parser: Parser) -> None:
    text = (
        "- [论文事实] 宽松阈值端到端 1.38×。 — `paper-fact` inbox/spark/2026-07-31-llm-infra-e1prep.md:50\n"
        "| 2607.26627 | 标题 | 增量 1 | §3 | `secondhand` inbox/jay/2026-07-31T1505-jay-five.md:23 |\n"
    )
    claims = parse(parser, "| a | b | c | d | e |\n|---|---|---|---|---|\n" + text.split("\n")[1] + "\n\n" + text.split("\n")[0] + "\n").claims
    assert [(c.kind, c.kind_reason, c.quote_of) for c in claims] == [
        ("secondhand", "quote:inbox/jay/2026-07-31T1505-jay-five.md:23", "inbox/jay/2026-07-31T1505-jay-five.md:23"),
        ("paper-fact", "quote:inbox/spark/2026-07-31-llm-infra-e1prep.md:50", "inbox/spark/2026-07-31-llm-infra-e1prep.md:50"),
    ]


def test_a_digest_written_into_the_inbox_adds_no_evidence(demo_kb, run_kb) -> None:
    """New-user finding: a brief kb wrote must not come back as sources of another night's diff."""
    import json

    def outcome() -> dict:
        out = json.loads(run_kb(["diff", "inference", "--date", "2026-07-31", "--format", "json"], cwd=demo_kb).stdout)
        return {"subjects": {s["key"]: s["outcome"] for s in out["subjects"]},
                "secondhand_only": out["secondhand_only"], "conflicts": out["conflicts"]}

    before = outcome()
    brief = run_kb(["digest", "inference", "--date", "2026-07-31", "--out", "-"], cwd=demo_kb).stdout
    assert brief.startswith("<!-- kb:brief kb ")
    # the same text filed as another topic's brief (own-topic briefs are skipped by name anyway)
    (demo_kb / "inbox/tom/2026-07-31-llm-infra-e1prep.md").write_text(brief, encoding="utf-8")
    assert outcome() == before
    rows = [json.loads(x) for x in run_kb(["claims", "--file", "inbox/tom/2026-07-31-llm-infra-e1prep.md",
                                            "--format", "jsonl", "--quotes"], cwd=demo_kb).stdout.splitlines()]
    assert rows and all(c["quote_of"] or c["kind_reason"] == "brief:kb" for c in rows)


@pytest.mark.parametrize(
    ("front", "message"),
    [
        ("date: 2026-02-30", "invalid front matter value: day is out of range for month; front matter ignored"),
        ("created: 2026-07-31T25:61:00", "invalid front matter value: hour must be in 0..23; front matter ignored"),
        ("date: 0000-01-01", "invalid front matter value: year 0 is out of range; front matter ignored"),
    ],
)
def test_impossible_front_matter_dates_are_reported_not_raised(parser: Parser, front: str, message: str) -> None:
    parsed = parse(parser, f"---\n{front}\n---\nvLLM 2.03×\n")
    assert [(p.line, p.message) for p in parsed.problems] == [(2, message)]
    assert only(parsed).text == "vLLM 2.03×"


def test_yaml_alias_bomb_is_refused(parser: Parser) -> None:
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]")
    lines.append("author: *i")
    parsed = parse(parser, "---\n" + "\n".join(lines) + "\n---\nvLLM 2.03×\n")
    assert parsed.front == {} and parsed.author == "jay"
    assert [p.message for p in parsed.problems] == [
        "front matter holds more than 10,000 values (YAML aliases?); ignored"]


def test_a_non_scalar_author_is_no_author(parser: Parser) -> None:
    parsed = parse(parser, "---\nauthor: {a: 1}\n---\nvLLM 2.03×\n")
    assert parsed.author == "jay"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_files_are_read_with_a_warning(parser: Parser, encoding: str) -> None:
    parsed = parse(parser, "TGI 于 2026-03-21 进入维护模式。\nvLLM 2.03×\n".encode(encoding))
    assert [c.text for c in parsed.claims] == ["TGI 于 2026-03-21 进入维护模式。", "vLLM 2.03×"]
    assert [p.severity for p in parsed.problems] == ["warning"]
    assert "UTF-16 file" in parsed.problems[0].message


def test_binary_files_are_skipped_not_mined_for_numbers(parser: Parser) -> None:
    import random

    rnd = random.Random(3)
    data = bytes(rnd.randrange(256) for _ in range(5000))
    parsed = parse(parser, data)
    assert parsed.claims == []
    assert [p.message for p in parsed.problems] == ["binary file (NUL or control bytes, not text); skipped"]


def test_deep_nesting_keeps_what_follows_and_reports_what_it_cannot_read(parser: Parser) -> None:
    deep = "".join("  " * i + f"- 项 2.{i}×\n" for i in range(25)) + "\n后面段落 7.7×\n\n## 下一节\n\n再一段 8.8×\n"
    parsed = parse(parser, deep)
    assert len(parsed.claims) == 27 and parsed.problems == []
    assert [c.text for c in parsed.claims[-2:]] == ["后面段落 7.7×", "再一段 8.8×"]
    deeper = "".join("  " * i + f"- x {i}.5×\n" for i in range(150))
    parsed = parse(parser, deeper)
    assert [(p.line, p.severity, p.message) for p in parsed.problems] == [
        (50, "warning", "nested too deep (over 50 lists or quotes): 101 line(s) read one by one as list items (lines 50–150)")]
    # nothing past the limit is lost: each line is a claim of its own, its value and line kept
    assert [(c.provenance.line, c.quantities[0].value, c.unit) for c in parsed.claims[-2:]] == [
        (149, 148.5, "list-item"), (150, 149.5, "list-item")]
    assert len(parsed.claims) == 150


@pytest.mark.parametrize(("front", "message"), [
    ("created: 2026-07-31T25:61", "created: '2026-07-31T25:61' is not an ISO date or date-time"),
    ("created: yesterday", "created: 'yesterday' is not an ISO date or date-time"),
])
def test_a_date_kb_cannot_read_is_reported(parser: Parser, front: str, message: str) -> None:
    parsed = parse(parser, f"---\n{front}\n---\nvLLM 2.03×\n", "organized/paper_cards/1-2607-11111.md")
    assert [(p.line, p.severity, p.message.split(" (")[0]) for p in parsed.problems] == [(2, "warning", message)]
    assert parsed.written_at is None


@pytest.mark.parametrize("value", ['["2607.11111", "2607.22222"]', "{a: 1}", "2607.3333", "true"])
def test_a_card_arxiv_that_is_not_one_id_is_reported(parser: Parser, value: str) -> None:
    parsed = parse(parser, f"---\narxiv: {value}\n---\n论文报告 2.03×\n", "organized/paper_cards/1-2607-11111.md")
    assert [(p.line, p.message.split(";")[0][:40]) for p in parsed.problems] == [(2, "arxiv: expected one arXiv id written as ")]


def test_claims_leaves_brief_quotes_out_unless_asked(demo_kb, run_kb) -> None:
    import json

    def count(*extra: str) -> int:
        out = run_kb(["claims", "--subject", "arXiv:2607.26627", "--format", "jsonl", *extra], cwd=demo_kb).stdout
        return len(out.splitlines())

    before = count()
    brief = run_kb(["digest", "inference", "--date", "2026-07-31", "--out", "-"], cwd=demo_kb).stdout
    (demo_kb / "inbox/tom/2026-07-31-llm-infra-e1prep.md").write_text(brief, encoding="utf-8")
    assert count() == before
    assert count("--quotes") > before
    del json


def test_an_id_only_in_a_link_target_is_a_mention(parser: Parser) -> None:
    parsed = parse(parser, "* [Link to the paper](https://arxiv.org/abs/1701.06538)\n")
    assert [(m.id, m.line, m.column) for m in parsed.mentions] == [("1701.06538", 1, None)]
    assert only(parsed).subjects == ["arxiv:1701.06538"]


# -- table metric columns, set-up sizes (issue 8) ------------------------------------------------

def test_metric_column_gives_the_row_its_metric(parser: Parser) -> None:
    text = (
        "| 对象 | 指标 | 数值 | 来源 |\n| --- | --- | --- | --- |\n"
        "| TurboKV | KV 显存 | 16.4 GB → 4.1 GB | arXiv:2611.04512 |\n"
        "| KIVI | 峰值显存 | 降低 2.6× | arXiv:2402.02750 |\n"
        "| LMCache | TTFT | 0.38 s（32K 上下文） | https://lmcache.ai/blog |\n"
        "| TurboKV | 见上文 | — | — |\n"
    )
    claims = parse(parser, text, "inbox/ravi/2026-11-30T1400-ravi-kvcache-digest.md").claims
    assert [[(q.raw, q.value, q.unit, q.metric) for q in c.quantities] for c in claims[:3]] == [
        [("16.4 GB", 16.4e9, "B", "memory"), ("4.1 GB", 4.1e9, "B", "memory")],
        [("2.6×", 2.6, "×", "memory")],
        [("0.38 s", 0.38, "s", "ttft"), ("32K", 32000.0, None, "context_length")],  # the size keeps its own
    ]
    assert [c.kind for c in claims[:3]] == ["secondhand"] * 3


def test_bare_cell_under_hf_votes_is_a_rating(parser: Parser) -> None:
    """The en header ``HF votes`` does what the zh cue ``HF 票`` does: a vote count, a rating."""
    text = (
        "| # | Paper | arXiv | HF votes |\n| --- | --- | --- | --- |\n"
        "| 1 | TurboKV: 2-bit Asymmetric KV Cache Quantization with Outlier Channels | 2611.04512 | 96 |\n"
        "| 2 | AgentForge: Tool-Use Curricula for Web Agents | 2611.03318 | 41 |\n"
    )
    claims = parse(parser, text, "inbox/mira/2026-11-30-hf-daily-2026-11-30.md").claims
    assert [(c.kind, c.kind_reason, [(q.raw, q.value, q.unit, q.metric) for q in c.quantities]) for c in claims] == [
        ("internal-rating", "column:HF votes", [("96", 96.0, None, "votes")]),
        ("internal-rating", "column:HF votes", [("41", 41.0, None, "votes")]),
    ]
    row = claims[0]
    q = row.quantities[0]
    assert row.text[q.start:q.end] == "96"


def test_a_row_with_facts_beside_its_votes_keeps_its_kind(parser: Parser) -> None:
    text = (
        "| 系统 | 结果 | HF 票 |\n| --- | --- | --- |\n"
        "| TurboKV | 吞吐提升 2.6× | 96 |\n"
    )
    c = only(parse(parser, text))
    assert (c.kind, [(q.raw, q.metric) for q in c.quantities]) == (
        "secondhand", [("2.6×", "throughput"), ("96", "votes")])


def test_setup_sizes_feed_the_qualifier_not_the_facts() -> None:
    """``128K 上下文`` and ``at 128K context`` give the same condition; the size is no fact."""
    from kb.facts.attributor import Attributor

    cfg = KbConfig(entities={"TurboKV": []})
    p = Parser(cfg)
    zh = parse(p, "TurboKV 把 Llama-3.1-8B 128K 上下文的 KV 显存从 16.4 GB 降到 4.1 GB。\n").claims[0]
    en = parse(p, "TurboKV cuts KV-cache memory from 16.4 GB to 4.1 GB on Llama-3.1-8B at 128K context.\n").claims[0]
    att = Attributor(cfg, cards=[])
    zq = [(q.raw, q.metric, q.qualifier) for q in att.attributed(zh).quantities]
    eq = [(q.raw, q.metric, q.qualifier) for q in att.attributed(en).quantities]
    # 显存 is the memory figure's own word, no set-up (vocab.qualifiers.MEMORY_PLACEMENT): zh and en alike
    assert zq == [("128K", "context_length", None), ("16.4 GB", "memory", "ctx128k+llama-3.1-8b"),
                  ("4.1 GB", "memory", "ctx128k+llama-3.1-8b")]
    assert eq == [("16.4 GB", "memory", "ctx128k+llama-3.1-8b"), ("4.1 GB", "memory", "ctx128k+llama-3.1-8b"),
                  ("128K", "context_length", None)]
    assert [(f.metric, f.raw) for f in att.view(zh).facts] == [("memory", "16.4 GB"), ("memory", "4.1 GB")]
