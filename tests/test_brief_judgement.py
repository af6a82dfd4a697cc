"""Issue 22 on a small KB of its own: placement with its evidence, the author's caveats,
first-hand cited doc values, a card's limits and non-numeric results, bounds, line links."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import line_starting, unlinked, write_files
from kb.extract.caveats import line_mood

KB_YAML = """\
timezone: "+08:00"
cutoff: "22:00"
executor: night
topics: {inference: [inference-systems]}
entities: {vLLM: [], DeepEP: [], AcceptMoE: [], Bole: [], Muse: []}
"""
DOC = """\
---
topic: inference
version: 3
updated: 2026-07-31T05:00:00+08:00
---
# 活文档

## §1 引擎

- vLLM：MRV2 让小 batch 解码 CPU 开销下降约 30%。
  来源：官方博客 https://blog.vllm.ai/2026/06/mrv2
- DeepEP：解码阶段通信时延降低约 35%（来源：https://github.com/deepseek-ai/DeepEP）。

## §3 投机解码

- EAGLE3 聊天负载加速 3.0–6.5×（来源：arXiv:2503.01840）。

## §9 开放问题

- O12 AcceptMoE 的专家子集验证能否并入 §3？
"""
CARD = """\
---
card: 901
arxiv: "2607.26627"
title: "Revisiting Lossy Verification in Speculative Decoding"
aliases: [Lossy Verification]
category: inference-systems
created: 2026-07-31T16:30:00+08:00
---
# 901 · Revisiting Lossy Verification in Speculative Decoding

## 结果

- 论文报告：端到端加速 1.38×。
- 论文报告：没有在生产环境测试，只有单 GPU 结果。

## 局限

- 实验只覆盖稠密模型，没有 MoE target。
"""
BRIEF = """\
# inference 简报

## §3 投机解码

- Bole（arXiv:2608.01651）：上游摘要称 TTFT 降低超过 40%。
- 值不值得升档请晚班判断。
- Lossy Verification（arXiv:2607.26627）：论文报告端到端 1.38×。

## 其他

- Muse 在 Q2 基准上吞吐 1,200 tok/s。
- 这组数只能看个趋势，暂不进活文档。
- AcceptMoE 平均准确率仅下降 0.27 个百分点。
- vLLM MRV2 小 batch 解码 CPU 开销下降约 30%。
- 上游摘要把 AcceptMoE 的 1.29× 抄成了 1.92×，对不上。
"""
FILES = {
    "kb.yaml": KB_YAML,
    "organized/knowledge/inference.md": DOC,
    "organized/paper_cards/901-2607-26627.md": CARD,
    "inbox/jay/2026-07-31T1000-inference-brief.md": BRIEF,
}


@pytest.fixture
def night_kb(tmp_path: Path) -> Path:
    return write_files(tmp_path / "kb", FILES)


def _brief(kb: Path, run_kb, *args: str) -> str:  # noqa: ANN001
    res = run_kb(["digest", "--date", "2026-07-31", "--out", "-", *args], cwd=kb)
    assert res.exit_code == 0, res.stderr
    return res.stdout


def test_placement_cites_its_evidence(night_kb: Path, run_kb) -> None:  # noqa: ANN001
    """The § heading a mention sits under, and the doc's open entry naming the subject and
    the section it belongs in (O12 … 能否并入 §3？), each cited; the entry outranks where it stands (§9)."""
    text = unlinked(_brief(night_kb, run_kb))
    assert line_starting(text, "- 判定：活文档未收，窗口内首次出现，尚无卡片") == (
        "- 判定：活文档未收，窗口内首次出现，尚无卡片（主题见于标题路径）：建卡候选；建议归入：§3（提及所在标题「§3 投机解码」："
        "inbox/jay/2026-07-31T1000-inference-brief.md:5）")
    assert line_starting(text, "- 判定：活文档已收该主体") == (
        "- 判定：活文档已收该主体，未收这些数值：0.27 个百分点；建议归入：§3（活文档 O12 提到它："
        "organized/knowledge/inference.md:20）（活文档现有位置：§9）")
    # §3 is where tonight's papers go, §9 holds O12 the window's AcceptMoE answers, §1 vLLM (covered):
    # every section is touched, none "untouched"
    assert line_starting(text, "  - 另有") == "  - 另有 2 节也被本窗口触及（增量、已收材料或 C/O 条目）：§9（O12）、§1"
    assert "未被本窗口触及" not in text
    en = unlinked(_brief(night_kb, run_kb, "--lang", "en"))
    assert "suggested section: §3 (the living doc's O12 names it: organized/knowledge/inference.md:20)" in en


def test_author_demotion_and_request(night_kb: Path, run_kb) -> None:  # noqa: ANN001
    """这组数只能看个趋势，暂不进活文档 takes Muse out of the increments, next to its line;
    值不值得升档请晚班判断 is a request beside Bole, not a rating."""
    text = unlinked(_brief(night_kb, run_kb))
    assert line_starting(text, "- Muse【") == (
        "- Muse【作者降级】：「这组数只能看个趋势，暂不进活文档。」 — inbox/jay/2026-07-31T1000-inference-brief.md:12；"
        "本应净新增，kb 因作者的附注（见引文）暂不列为增量")
    assert "【净新增】Muse" not in text and "增量 3 项（净新增 2 · 建议补 1 · 矛盾/待核实 0）" in text
    assert "· 邻接 0 · 作者降级 1\n" in text
    assert line_starting(text, "- 卡片：无；评级：无内部评级；作者请晚班判断") == (
        "- 卡片：无；评级：无内部评级；作者请晚班判断：「值不值得升档请晚班判断」（inbox/jay/2026-07-31T1000-inference-brief.md:6）"
        "；⚠ 仅二手数字：>40%")
    en = unlinked(_brief(night_kb, run_kb, "--lang", "en"))
    assert ('- Muse [demoted by its author]: "这组数只能看个趋势，暂不进活文档。" — '
            "inbox/jay/2026-07-31T1000-inference-brief.md:12; would be net-new, kept out tonight by kb for its author's caveat (quoted)\n") in en


def test_primary_source_doc_value_is_not_secondhand_only(night_kb: Path, run_kb) -> None:  # noqa: ANN001
    """The doc's vLLM 30% cites the official blog on the next line (来源：官方博客 …): the window's
    30% is first-hand cited, not 仅二手 and not sent to 找一手来源 (kb diff still lists it, with the
    doc's citation: one decision, kb.facts.firsthand)."""
    res = run_kb(["diff", "inference", "--date", "2026-07-31", "--format", "json"], cwd=night_kb)
    assert [s["cited"] for s in json.loads(res.stdout)["secondhand_only"] if (s["subject"], s["raw"]) == ("entity:vllm", "30%")] \
        == ["https://blog.vllm.ai/2026/06/mrv2"]
    text = unlinked(_brief(night_kb, run_kb))
    assert "- 已收 1 个（活文档已收，窗口内数值均已在文档中，不是增量）：vLLM\n" in text
    rows = [x for x in text.splitlines() if x.startswith("| ") and "只有摘要转述来源" in x]
    assert [r.split(" | ")[1] for r in rows] == [
        "Bole：\\>40% 只有摘要转述来源，无论文事实或一手引用支撑",
        "AcceptMoE：0.27 个百分点 只有摘要转述来源，无论文事实或一手引用支撑"]  # Muse: demoted, no §2 row
    assert "为 vLLM 找一手来源" not in text


def test_card_limits_and_non_numeric_results_under_the_increment(night_kb: Path, run_kb) -> None:  # noqa: ANN001
    text = unlinked(_brief(night_kb, run_kb))
    block = text.split("### 增量 1【净新增】Revisiting Lossy Verification", 1)[1].split("\n### ", 1)[0]
    assert [x for x in block.splitlines() if x.startswith(("- 结果（", "- 局限（"))] == [
        "- 结果（非数值，卡片）：论文报告：没有在生产环境测试，只有单 GPU 结果。 — organized/paper_cards/901-2607-26627.md:14",
        "- 局限（卡片）：实验只覆盖稠密模型，没有 MoE target。 — organized/paper_cards/901-2607-26627.md:18"]
    en = unlinked(_brief(night_kb, run_kb, "--lang", "en"))
    assert "- Limitation (card): 实验只覆盖稠密模型，没有 MoE target。 — organized/paper_cards/901-2607-26627.md:18\n" in en


def test_bounds_in_value_lists(night_kb: Path, run_kb) -> None:  # noqa: ANN001
    """超过 40% is >40% wherever kb lists it (the row's own text keeps its words)."""
    text = unlinked(_brief(night_kb, run_kb))
    assert ("- Bole（arXiv:2608.01651）：上游摘要称 TTFT 降低超过 40%。 — `secondhand` "
            "inbox/jay/2026-07-31T1000-inference-brief.md:5 ⚠ 仅二手：>40%\n") in text
    assert "1. 打开 arXiv:2608.01651（Bole），核对：>40%\n" in text


@pytest.mark.parametrize(("setting", "link"), [
    ("", "(inbox/jay/2026-07-31T1000-inference-brief.md?plain=1#L5)"),
    ("links: {style: gitlab}\n", "(inbox/jay/2026-07-31T1000-inference-brief.md?plain=1#L5)"),
    ("links: {style: plain}\n", "(inbox/jay/2026-07-31T1000-inference-brief.md#L5)"),
    ("links: {base: 'https://gitlab.com/o/kb/-/blob/main', style: gitlab}\n",
     "(https://gitlab.com/o/kb/-/blob/main/inbox/jay/2026-07-31T1000-inference-brief.md?plain=1#L5)"),
])
def test_line_links_open_the_line_of_a_markdown_file(night_kb: Path, run_kb, setting: str, link: str) -> None:  # noqa: ANN001
    """GitHub and GitLab render a .md file and ignore #L5 unless ?plain=1 (kb.yaml links.style, default github)."""
    config = night_kb / "kb.yaml"
    config.write_text(config.read_text(encoding="utf-8") + setting, encoding="utf-8")
    text = _brief(night_kb, run_kb)
    assert f"`secondhand` [inbox/jay/2026-07-31T1000-inference-brief.md:5]{link}" in text


@pytest.mark.parametrize(("text", "mood"), [
    ("这组数只能看个趋势", ("demote", "只能看个趋势")),
    ("暂不进活文档", ("demote", "暂不进活文档")),
    ("先别升级评级", ("hold", "先别升级")),
    ("暂不升档，值不值得升档请晚班判断", ("hold", "暂不升档")),
    ("仓库地址待确认", ("demote", "仓库地址待确认")),
    ("仅作线索", ("lead", "仅作线索")),
    ("值不值得升档请晚班判断", ("evaluate", "值不值得升档请晚班判断")),
    ("These numbers are just a trend.", ("demote", "just a trend")),
    ("Don't promote yet.", ("demote", "Don't promote")),
    ("Lead only.", ("lead", "Lead only")),
    ("Please judge whether it is worth a card.", ("evaluate", "Please judge whether")),
    ("论文报告：端到端 1.38×。", None),
])
def test_line_moods_zh_and_en(text: str, mood: tuple[str, str] | None) -> None:
    assert line_mood(text) == mood


def test_disputed_values_reach_section_2(night_kb: Path, run_kb) -> None:  # noqa: ANN001
    """A source saying another miscopied a value: kb compares neither, the brief names both in §2."""
    text = unlinked(_brief(night_kb, run_kb))
    row = next(x for x in text.splitlines() if "有来源提出异议" in x)  # the source's own words, quoted
    assert row == ("| 3 | AcceptMoE：1.29×、1.92× 有来源提出异议：「上游摘要把 AcceptMoE 的 1.29× 抄成了 1.92×，对不上。」"
                   "（kb 不拿它们比较） | `secondhand` "
                   "inbox/jay/2026-07-31T1000-inference-brief.md:15 | 🟡 来源称有误 | 回原文核对，确认哪一方有误 |")


def test_no_claim_is_cut_before_the_clause_that_qualifies_it(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    kb = write_files(tmp_path / "kb", {**FILES, "inbox/jay/2026-07-31T1000-inference-brief.md": (
        "# inference 简报\n\nBole 在 SGLang 上吞吐 2.03×；但只在单 GPU 上测过。另一句 Bole 的 TTFT 降低 67.6%；TPOT 降低 49.9%。\n")})
    res = run_kb(["claims", "--format", "json"], cwd=kb)
    texts = [c["text"] for c in json.loads(res.stdout) if c["provenance"]["path"].startswith("inbox/")]
    assert texts == ["Bole 在 SGLang 上吞吐 2.03×；但只在单 GPU 上测过。", "另一句 Bole 的 TTFT 降低 67.6%；", "TPOT 降低 49.9%。"]


def test_a_benchmark_table_is_one_increment(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    table = ("# inference 周报\n\n## Q2 引擎 benchmark\n\n| 引擎 | 吞吐 |\n|---|---|\n"
             "| Orion | 1,500 tok/s |\n| Glimmer | 900 tok/s |\n| Nimbus | 700 tok/s |\n")
    kb = write_files(tmp_path / "kb", {**FILES, "kb.yaml": KB_YAML.replace("Muse: []}", "Muse: [], Orion: [], Glimmer: [], Nimbus: []}"),
                                       "inbox/tom/2026-07-31T1100-inference-bench.md": table})
    text = unlinked(_brief(kb, run_kb))
    heads = [x for x in text.splitlines() if x.startswith("### 增量")]
    assert heads == ["### 增量 1【净新增】Revisiting Lossy Verification in Speculative Decoding（arXiv:2607.26627）",
                     "### 增量 2【净新增】Bole（arXiv:2608.01651）",
                     "### 增量 3【净新增】「Q2 引擎 benchmark」 Orion / Glimmer / Nimbus",
                     "### 增量 4【建议补】AcceptMoE"]
    block = text.split("「Q2 引擎 benchmark」 Orion / Glimmer / Nimbus\n", 1)[1].split("\n### ", 1)[0]
    assert [x.split(" — ")[0] for x in block.splitlines() if x.startswith("- Orion") or x.startswith("- Glimmer")
            or x.startswith("- Nimbus")] == ["- Orion | 1,500 tok/s", "- Glimmer | 900 tok/s", "- Nimbus | 700 tok/s"]


def test_demo_night_demotions_and_first_hand_values(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    """The demo night: jay's own caveats take Colibri (真实地址待查) and DGX Spark (不建议入文档) out of
    the increments; DeepSeek-V4-Pro's 383.7 tok/s is first-hand cited by the doc (the SGLang v0.5.16
    release on GitHub): no §2 row; 8 周 and 128 GB are set-up values, never offered."""
    res = run_kb(["digest", "--out", "-"], cwd=demo_kb)
    text = unlinked(res.stdout)
    demoted = [x for x in text.splitlines() if "【作者降级】" in x]
    assert demoted == [
        "- Colibri【作者降级】：「仓库链接在原帖里写成 github.com/pricing/Colibri，这个组织名很可疑（像是从价格页粘过来的），"
        "真实地址待查。」 — inbox/jay/2026-07-31T1735-jay-briefing-inference-stack-vecdb-substack.md:21；本应净新增，kb 因作者的附注（见引文）暂不列为增量；"
        "评级：候选升档",
        # SLA 与主流云不可比: a not-comparable caveat about the price page demotes it too
        "- Spheron【作者降级】：「reportedly 这是社区算力池的价格，SLA 与主流云不可比。」 — "
        "inbox/jay/2026-07-31T1735-jay-briefing-inference-stack-vecdb-substack.md:27；本应净新增，kb 因作者的附注（见引文）暂不列为增量；"
        # placed by its value's metric (cost) in §6.1 GPU 租赁价格
        "归属 §6.1（该节标题点名了数值的指标 cost：inbox/jay/2026-07-31T1735-jay-briefing-inference-stack-vecdb-substack.md:26）",
        "- DGX Spark【作者降级】：「并发 32 那一行是新数字，但只有博主单次测量，不建议入文档。」 — "
        "inbox/jay/2026-07-31T1620-jay-csdn-sglang-bench-eval.md:36；本应建议补，kb 因作者的附注（见引文）暂不列为增量；"
        # DGX Spark is hardware: a host in §1.2 (vLLM 支持 DGX Spark) and beside SGLang in §1.3 (DGX Spark 上
        # SGLang … 58.3 tok/s); only §1.3:38 names it as a subject (DSpark：面向 DGX Spark 的单机部署预设), and
        # §1.3 holds the benchmark the line speaks of
        "归属 §1.3（活文档已收于此：organized/knowledge/inference.md:38）"]
    assert "DeepSeek-V4-Pro：383.7 tok/s" not in text
    assert "128 GB" not in text.split("## 1.", 1)[1] and "把 8 周" not in text


def test_a_caveat_under_a_table_demotes_the_whole_table(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    table = ("# inference 周报\n\n## Q2 引擎 benchmark\n\n| 引擎 | 吞吐 |\n|---|---|\n"
             "| Orion | 1,500 tok/s |\n| Glimmer | 900 tok/s |\n| Nimbus | 700 tok/s |\n\n- 这组数只能看个趋势。\n")
    kb = write_files(tmp_path / "kb", {**FILES, "kb.yaml": KB_YAML.replace("Muse: []}", "Muse: [], Orion: [], Glimmer: [], Nimbus: []}"),
                                       "inbox/tom/2026-07-31T1100-inference-bench.md": table})
    text = unlinked(_brief(kb, run_kb))
    assert [x for x in text.splitlines() if "【作者降级】" in x] == [
        "- 「Q2 引擎 benchmark」 Orion / Glimmer / Nimbus【作者降级】：「这组数只能看个趋势。」 — "
        "inbox/tom/2026-07-31T1100-inference-bench.md:11；本应净新增，kb 因作者的附注（见引文）暂不列为增量",
        "- Muse【作者降级】：「这组数只能看个趋势，暂不进活文档。」 — inbox/jay/2026-07-31T1000-inference-brief.md:12；本应净新增，kb 因作者的附注（见引文）暂不列为增量"]
    assert "- 增量 3 项（净新增 2 · 建议补 1 · 矛盾/待核实 0）；" in text and "· 作者降级 4\n" in text
