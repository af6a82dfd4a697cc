"""Claim kinds and what is a claim (issue 8): whole-word cues, no cue inside a title, tags and
kind columns always make a claim, bylines and a brief's own title make none, plans and disputed
values are no figures (their ``mood``), and the diff skips them."""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from kb.core.config import KbConfig
from kb.extract.kinds import non_claim
from kb.night.rules import diff
from kb.read.parse import Parser
from kb.core.window import night_window

CONFIG = KbConfig(
    topics={"inference": ["inference-systems"]},
    entities={"TGI": [], "vLLM": [], "SGLang": [], "Tom": []},
    cues={"paper-fact": ["原文"]},
)
INBOX = "inbox/jay/2026-07-31T1000-brief.md"
DOC = "organized/knowledge/inference.md"


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser(CONFIG)


def claims(parser: Parser, text: str, path: str = INBOX):
    return parser.parse_text(path, text).claims


def only(parser: Parser, text: str, path: str = INBOX):
    got = claims(parser, text, path)
    assert len(got) == 1, [c.text for c in got]
    return got[0]


# -- 1. cues match whole words; a strong first-hand cue beats a weak word --------------------------

@pytest.mark.parametrize(
    ("text", "kind", "reason"),
    [
        ("The paper reports a 2.1× speedup via tree attention.", "paper-fact", "cue:The paper reports"),
        ("vLLM reaches 2.1× via tree attention.", "secondhand", "default:inbox"),
        ("Portable serving reaches 2.1× on H100.", "secondhand", "default:inbox"),
        ("Stable decoding reaches 2.1×.", "secondhand", "default:inbox"),
        ("Interpretable pruning cuts the KV cache by 40%.", "secondhand", "default:inbox"),
        ("Table 3 shows 1.9× on H100.", "paper-fact", "cue:Table 3"),
        ("According to the paper, vLLM reaches 2.1×.", "paper-fact", "cue:According to the paper"),
        ("According to the blog, vLLM reaches 2.1×.", "secondhand", "cue:According to the blog"),
        ("According to Tom, vLLM reaches 2.1×.", "secondhand", "cue:According to"),
        ("According to Tom, the paper reports 2.1×.", "paper-fact", "cue:the paper reports"),
        ("据论文报告，吞吐 2.4×。", "paper-fact", "cue:论文报告"),
        ("据 SemiAnalysis 报道，vLLM 吞吐 2.5K TPS。", "secondhand", "cue:据"),
        ("上游摘要称论文报告 2.4×。", "secondhand", "cue:上游摘要"),
        # CJK cues have no word boundaries: a negation before one makes it none
        ("说明大意（我的转写，非原文）：TGI 2026 年起进入维护模式。", "secondhand", "default:inbox"),
        ("原文：TGI 2026 年起进入维护模式。", "paper-fact", "cue:原文"),
        ("非转述，论文报告 2.1×。", "paper-fact", "cue:论文报告"),
    ],
)
def test_cue_words(parser: Parser, text: str, kind: str, reason: str) -> None:
    c = only(parser, text + "\n")
    assert (c.kind, c.kind_reason) == (kind, reason)


# -- 2. no cue inside a paper's title ------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "kind", "reason"),
    [
        ("[Stable Diffusion Serving via Tree Attention](https://arxiv.org/abs/2408.01235) speeds up 3×.",
         "secondhand", "default:inbox"),
        ("[Reportedly Fast Decoding](https://arxiv.org/abs/2408.01235) reaches 3×.", "secondhand", "default:inbox"),
        ("**Reportedly Fast: Decoding at Scale** reaches 3×.", "secondhand", "default:inbox"),
        ("“Reportedly Fast Decoding” reaches 3×.", "secondhand", "default:inbox"),
        ("《上游摘要的局限》一文给出 3×。", "secondhand", "default:inbox"),
        ("以下把“论文已报告”“上游摘要转述”分开，vLLM 2.1×。", "secondhand", "default:inbox"),
        ("**论文报告**：加速 1.38×。", "paper-fact", "cue:论文报告"),
        ("**The paper reports** 1.38×.", "paper-fact", "cue:The paper reports"),
        ("| Date | Title | Speedup |\n|---|---|---|\n| 2024.08 | Lookup Table 3 Enables Reportedly Fast Serving | 2.1× |",
         "secondhand", "default:inbox"),
        ("| 论文 | 结果 |\n|---|---|\n| 上游摘要转述的局限 | 2.1× |", "secondhand", "default:inbox"),
        ("| 项目 | 结果 |\n|---|---|\n| 上游摘要转述 | 2.1× |", "secondhand", "cue:上游摘要"),
    ],
)
def test_no_cue_inside_a_title(parser: Parser, text: str, kind: str, reason: str) -> None:
    c = only(parser, text + "\n")
    assert (c.kind, c.kind_reason) == (kind, reason)


# -- 3. an explicit tag or a kind column always makes a claim ------------------------------------

def test_tags_and_kind_columns_make_claims_without_anchors(parser: Parser) -> None:
    text = (
        "这是一段没有锚点的叙述。\n\n"
        "[内部评级] ★★ 建议补入 §1.2 的候选。\n\n"
        "- [secondhand] 社区摘要说这是第一篇系统分析有损验证的工作。\n\n"
        "| 条目 | 类型 | 说明 |\n| --- | --- | --- |\n"
        "| HydraServe | 内部评级 | 强候选 |\n| 某方案 | 摘要转述 | 厂商博客 |\n| 无类型 | 未知 | 叙述 |\n"
    )
    got = [(c.provenance.line, c.unit, c.kind, c.kind_reason) for c in claims(parser, text)]
    assert got == [
        (3, "sentence", "internal-rating", "tag:[内部评级]"),
        (5, "list-item", "secondhand", "tag:[secondhand]"),
        (9, "table-row", "internal-rating", "column:类型=内部评级"),
        (10, "table-row", "secondhand", "column:类型=摘要转述"),
    ]


# -- 4. bylines, signatures and a brief's own title are not claims -------------------------------

@pytest.mark.parametrize(
    "text",
    [
        "正文 vLLM 2.1×。\n\nlin · 2026-11-30 09:30\n",
        "正文 vLLM 2.1×。\n\n— jay, 2026-07-31 17:35\n",
        "正文 vLLM 2.1×。\n\n执行人：Tom · 2026-07-31\n",
        "正文 vLLM 2.1×。\n\nAuthor: X, Date: 2026-07-31\n",
        "正文 vLLM 2.1×。\n\nFrom: Infra Roundup, Date: 2026-08-02\n",
        "正文 vLLM 2.1×。\n\n发件人：小周 · 2026-08-02 21:10\n",
        "llm-infra · E1 预消化简报（2026-07-30）\n\n正文 vLLM 2.1×。\n",
        "---\nauthor: spark\n---\nrisk · E1 预消化简报（2026-07-31）\n\n正文 vLLM 2.1×。\n",
        "# 2026-07-31 inference E1 预消化简报\n\n正文 vLLM 2.1×。\n",
    ],
    ids=["dot-byline", "signature", "executor", "author-date", "mail-from", "zh-mail-from", "brief-title", "title-after-front-matter", "h1"],
)
def test_bylines_and_titles_are_no_claims(parser: Parser, text: str) -> None:
    assert [c.text for c in claims(parser, text)] == ["正文 vLLM 2.1×。"]


def test_what_looks_like_a_byline_but_is_a_claim(parser: Parser) -> None:
    text = ("正文 vLLM 2.1×。\n\nTGI · 2026-03-21\n\nTGI 于 2026-03-21 进入维护模式。\n\n"
            "llm-infra · E1 预消化简报（2026-07-30）\n\n| 名称 | 日期 |\n|---|---|\n| Colibri | 2026-07-30 |\n")
    assert [c.text for c in claims(parser, text)] == [
        "正文 vLLM 2.1×。", "TGI · 2026-03-21", "TGI 于 2026-03-21 进入维护模式。", "llm-infra · E1 预消化简报（2026-07-30）",
        "Colibri | 2026-07-30"]


# -- 5./6. plans, advice, forecasts and disputed values: their mood --------------------------------

@pytest.mark.parametrize(
    ("text", "figures"),
    [
        ("建议排 3–6 个月迁移。", [("3–6 个月", "plan")]),
        ("预计 12-03 出结果。", [("12-03", "plan")]),
        ("We plan to ship 2× faster decoding, expected by 2026-09.", [("2×", "plan"), ("2026-09", "plan")]),
        ("vLLM will release v1.0 in 2026-09.", [("2026-09", "plan")]),
        ("SGLang 的 forecast 是 3× 提速。", [("3×", "plan")]),
        ("目标是 2026-09 前把 TTFT 降 30%。", [("30%", "plan"), ("2026-09", "plan")]),
        ("团队打算把吞吐做到 2× 。", [("2×", "plan")]),
        ("论文报告 2.1×，建议排 3 个月迁移。", [("2.1×", None), ("3 个月", "plan")]),
        ("目标模型 70B 上加速 2.1×。", [("70B", None), ("2.1×", None)]),
        ("7-30 的 llm-infra E1 已覆盖 LMCache 的 Roadmap。", [("7-30", None)]),
        # only the doc's value is the quote; the column's 2.31× is what it reports (a conflict)
        ("专栏写的 2.31× 和活文档的 2.03× 对不上。", [("2.31×", None), ("2.03×", "disputed")]),
        ("专栏写的 2.31×，和活文档的 2.03× 对不上。", [("2.31×", None), ("2.03×", "disputed")]),
        ("the blog's 2.31× does not match the doc's 2.03×.", [("2.31×", None), ("2.03×", "disputed")]),
        ("A 说 2.31×，B 说 2.03×，两者对不上。", [("2.31×", "disputed"), ("2.03×", "disputed")]),
        ("The blog reports 2.1× speedup, which does not match the 1.56× in our living doc.",
         [("2.1×", None), ("1.56×", "disputed")]),
        ("论文报告 2.1×，与活文档的 2.03× 不一致。", [("2.1×", None), ("2.03×", "disputed")]),
        ("- TGI 于 2026-03-21 进入维护模式；活文档里写的日期与此对不上，需要核。", [("2026-03-21", None)]),
        ("vLLM 吞吐 2.1×。", [("2.1×", None)]),
    ],
)
def test_moods_of_figures(parser: Parser, text: str, figures: list[tuple[str, str | None]]) -> None:
    c = only(parser, text + "\n")
    assert [(q.raw, q.mood) for q in c.quantities] + [(d.raw, d.mood) for d in c.dates] == figures


def _diff(parser: Parser, window_text: str, doc_text: str):
    window = night_window(date(2026, 7, 31), CONFIG)
    doc = claims(parser, "---\ntopic: inference\nversion: 3\nupdated: 2026-07-30T05:00:00+08:00\n---\n" + doc_text, DOC)
    return diff(claims(parser, window_text), doc, [], CONFIG, window, "inference",
                baseline={"path": DOC, "version": 3, "updated": "2026-07-30T05:00:00+08:00"})


def test_a_plan_is_no_secondhand_only_figure(parser: Parser) -> None:
    r = _diff(parser, "- 仍在生产用 TGI 的团队应该排 3–6 个月的迁移计划。\n- TGI 的迁移要 3–6 个月。\n", "")
    assert [(s.subject, s.raw, s.source) for s in r.secondhand_only] == [("entity:tgi", "3–6 个月", f"{INBOX}:2")]


def test_a_forecast_date_is_no_conflict(parser: Parser) -> None:
    doc = "## §1 引擎\n\n- TGI 于 2025 年 12 月进入维护模式。\n"
    assert _diff(parser, "- TGI 预计 2026-03 进入维护模式。\n", doc).conflicts == []
    [conflict] = _diff(parser, "- TGI 于 2026-03-21 进入维护模式。\n", doc).conflicts
    assert (conflict.subject, conflict.metric, [v.raw for v in conflict.values]) == (
        "entity:tgi", "eol_date", ["2025 年 12 月", "2026-03-21"])


def test_a_disputed_value_is_no_support_and_no_new_value(parser: Parser) -> None:
    doc = "## §1 引擎\n\n- SGLang：MLA 解码提速 2.03×。\n"
    r = _diff(parser, "- 专栏写的 SGLang 提速 2.31× 和活文档的 2.03× 对不上。\n", doc)
    # the quoted doc value is no support and no new value; the column's 2.31× conflicts
    assert [(s.key, s.outcome, s.rule) for s in r.subjects] == [("entity:sglang", "conflict", "doc-conflict")]
    assert [[v.raw for v in c.values] for c in r.conflicts] == [["2.03×", "2.31×"]]
    assert [sh.raw for sh in r.secondhand_only] == ["2.31×"]
    r = _diff(parser, "- 专栏写的 SGLang 提速 2.31×。\n", doc)  # the same value stated, not disputed
    assert [(s.key, s.outcome, s.rule) for s in r.subjects] == [("entity:sglang", "conflict", "doc-conflict")]


# -- real public files (../shared/realdata) ----------------------------------------------------------

REAL_LISTS = [
    ("living-docs/xlite-dev_Awesome-LLM-Inference@acd86b8-2026-07-26.md", DOC),
    ("living-docs/October2001_Awesome-KV-Cache-Compression@1cdb974-2026-04-15.md", DOC),
    ("briefings/dair-ai_ML-Papers-of-the-Week@a9189f3-week-2025-06-23_2025-06-29.md", INBOX),
]


@pytest.mark.parametrize(("name", "path"), REAL_LISTS, ids=lambda v: v.split("/")[-1][:30])
def test_real_paper_lists_have_no_cue_inside_words_or_titles(shared: Path, name: str, path: str) -> None:
    """Before: "Lookup Table Enables", "Interpretable " made paper-facts (9 claims over these
    files), "via" inside titles made 193 claims secondhand by cue; none of it is a cue."""
    parsed = Parser(KbConfig()).parse_bytes(path, (shared / "realdata" / name).read_bytes())
    assert parsed.claims
    assert Counter(c.kind for c in parsed.claims) == {"secondhand": len(parsed.claims)}
    assert [c.kind_reason for c in parsed.claims if c.kind_reason.startswith("cue:")] == []


def test_non_claim_reads_a_byline_through_long_blank_runs() -> None:
    # a blanked date and the spaces, tabs and words around it make runs of 3 to 17 blanks; the
    # quick test of non_claim cuts them to two spaces and must keep the same answer either way
    signature = "—  jay\t\t\t 2026-07-31 17:35   整理"
    at = signature.index("2026")
    assert non_claim(signature, [(at, at + 16)], first=False) == "byline"
    labelled = "written by   lin ·   2026-11-30 09:30"
    at = labelled.index("2026")
    assert non_claim(labelled, [(at, at + 16)], first=False) == "byline"
    release = "Ollama 于 2026-03-21 发布 batch batch serving；"
    at = release.index("2026")
    assert non_claim(release, [(at, at + 10)], first=False) is None
