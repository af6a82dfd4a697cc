"""Outcome rules of DESIGN.md §3, one small case each (claims built by hand, no parser)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from kb.core.claims import Claim, DateRef, Provenance, Quantity
from kb.core.config import KbConfig
from kb.read.cards import Card, card_from_row
from kb.night.model import DiffResult
from kb.night.rules import diff
from kb.extract.arxiv_ids import find_arxiv
from kb.extract.names import NameMatcher, entity_names
from kb.core.window import night_window

CFG = KbConfig(
    topics={"inference": ["inference-systems"], "agent": ["agent"]},
    entities={"SGLang": [], "vLLM": [], "TGI": ["Text Generation Inference"], "FlashInfer": []},
)
WINDOW = night_window(date(2026, 7, 31), CFG)
INBOX = "inbox/jay/2026-07-31T1000-brief.md"
OTHER = "inbox/tom/2026-07-31T1100-brief.md"
DOC = "organized/knowledge/inference.md"
SECTIONS = [(1, "§1", "§1 推理引擎"), (10, "§3", "§3 投机解码"), (20, "§8", "§8 共识与争议")]
BOLE = Card("arxiv:2608.01651", "organized/paper_cards/900-2608-01651.md", "Bole: Tree Speculation for Hybrid Attention",
            ("Bole",), "inference-systems", (), "2026-07-31T10:00:00+08:00", 900)
ACCEPT = Card("arxiv:2607.02989", "organized/paper_cards/901-2607-02989.md", "AcceptMoE", ("AcceptMoE",),
              "inference-systems", (), "2026-07-20T10:00:00+08:00", 901)
RAG = Card("arxiv:2607.24870", "organized/paper_cards/670-2607-24870.md", "Draft-then-Retrieve", (), "rag",
           ("inference-systems",), "2026-07-30T14:05:00+08:00", 670)
AGENT = Card("arxiv:2607.26412", "organized/paper_cards/678-2607-26412.md", "SkillRise", ("SkillRise",), "agent",
             (), "2026-07-31T14:00:00+08:00", 678)
OLD = Card("arxiv:2606.11111", "organized/paper_cards/800-2606-11111.md", "OldPaper", (), "inference-systems", (),
           "2026-07-31T09:00:00+08:00", 800)
FLASH = Card("arxiv:2606.20295", "organized/paper_cards/631-2606-20295.md", "FlashInfer: Token-Operations Kernels", (),
             "inference-systems", (), "2026-07-20T14:00:00+08:00", 631)
CARDS = [BOLE, ACCEPT, RAG, AGENT, OLD, FLASH]


def C(text: str, *, path: str = INBOX, line: int = 1, kind: str = "secondhand", q: tuple[Any, ...] = (),
      d: tuple[Any, ...] = (), subjects: list[str] | None = None, unit: str = "list-item",
      heading: tuple[str, ...] = (), hint: str | None = None) -> Claim:
    """A claim as the parser would give it: ids and kb.yaml entities as subjects, spans computed.

    ``q``: ``(raw, value, unit, metric[, qualifier])`` or ``(raw, (low, high), unit, metric)``;
    ``d``: ``(raw, iso, precision, metric)``.
    """
    role = "card" if "paper_cards" in path else "living-doc" if path == DOC else "inbox"
    refs = find_arxiv(text)
    if subjects is None:
        subjects = list(dict.fromkeys([r.key for r in refs] + [k for k, _, _ in NameMatcher(entity_names(CFG)).find(text)]))
    quantities = []
    for raw, value, unit_, metric, *qual in q:
        start = text.index(raw)
        rng = value if isinstance(value, tuple) else None
        quantities.append(Quantity(raw=raw, value=None if rng else value, low=rng[0] if rng else None,
                                   high=rng[1] if rng else None, unit=unit_, metric=metric,
                                   qualifier=qual[0] if qual else None, start=start, end=start + len(raw)))
    dates = [DateRef(raw=raw, value=iso, precision=prec, metric=metric, start=text.index(raw),
                     end=text.index(raw) + len(raw)) for raw, iso, prec, metric in d]
    written = "2026-07-31T05:00:00+08:00" if role == "living-doc" else "2026-07-31T10:00:00+08:00"
    return Claim(id=f"{path}:{line}", kind=kind, kind_reason="test", text=text, unit=unit, role=role,
                 subjects=subjects, arxiv=refs, quantities=quantities, dates=dates, section_hint=hint,
                 provenance=Provenance(path=path, line=line, end_line=line, author="jay", written_at=written,
                                       heading=list(heading)))


DOC_CLAIMS = [
    C("TGI：Hugging Face TGI 已于 2025 年 12 月进入维护模式", path=DOC, line=2, unit="table-row",
      d=(("2025 年 12 月", "2025-12", "month", "eol_date"),)),
    C("SGLang：MLA 解码 kernel 提速 3.1×", path=DOC, line=3, q=(("3.1×", 3.1, "×", "speedup"),)),
    C("EAGLE 在 SGLang/vLLM 均已集成，聊天负载加速 2.03×", path=DOC, line=11, q=(("2.03×", 2.03, "×", "speedup"),),
      subjects=["entity:sglang", "entity:vllm"]),
    C("AcceptMoE（arXiv:2607.02989）：全专家在显存时约 1.29×", path=DOC, line=12,
      q=(("1.29×", 1.29, "×", "speedup", "in-memory"),)),
    C("FlashInfer 论文报告 inter-token latency 降低 29%–69%", path=DOC, line=13, q=(("29%–69%", (-29.0, -69.0), "%", "tpot"),)),
    C("C101 讨论 vLLM 的调度开销。", path=DOC, line=21, unit="sentence"),
]


def run(claims: list[Claim], *, first: dict[str, str] | None = None, card_claims: dict[str, list[Claim]] | None = None,
        config: KbConfig = CFG, doc: list[Claim] | None = None, files: list[tuple[str, str]] | None = None) -> DiffResult:
    return diff(claims, DOC_CLAIMS if doc is None else doc, CARDS, config, WINDOW, "inference",
                baseline={"path": DOC, "version": 45, "updated": "2026-07-31T05:00:00+08:00"},
                first_mention=(first or {}).get, card_claims=lambda card: (card_claims or {}).get(card.path, []),
                files=files, doc_sections=SECTIONS)


def outcomes(r: DiffResult) -> dict[str, str]:
    return {s.key: s.outcome for s in r.subjects}


# -- one case per rule ---------------------------------------------------------------------

CASES = [
    # (name, claims, first mentions, expected {subject: outcome})
    ("net-new: card category is the topic, first seen in the window",
     [C("Bole（arXiv:2608.01651）：hybrid attention 的 tree speculation")], {}, {"arxiv:2608.01651": "net-new"}),
    ("supplement: mentioned before the window",
     [C("Bole（arXiv:2608.01651）再次被提到")], {"arxiv:2608.01651": "2026-07-29T10:00:00+08:00"},
     {"arxiv:2608.01651": "supplement"}),
    ("net-new: an older arXiv month alone is no supplement (weekly reports cite month-old papers)",
     [C("OldPaper（arXiv:2606.11111）的新解读")], {}, {"arxiv:2606.11111": "net-new"}),
    ("net-new, no card yet: the topic is named in the heading path",
     [C("ToolSmith（arXiv:2607.26071）值得一看", heading=("# Brief", "## Inference serving"))], {},
     {"arxiv:2607.26071": "net-new"}),
    ("net-new, no card yet: the topic is named in the file name",
     [C("ToolSmith（arXiv:2607.26071）值得一看", path="inbox/jay/2026-07-31-inference-radar.md")], {},
     {"arxiv:2607.26071": "net-new"}),
    ("adjacent: no card, topic only inside a longer word of the heading",
     [C("ToolSmith（arXiv:2607.26071）值得一看", heading=("## Inferences",))], {}, {"arxiv:2607.26071": "adjacent"}),
    ("adjacent: the topic only under also",
     [C("Draft-then-Retrieve（arXiv:2607.24870）的复读")], {}, {"arxiv:2607.24870": "adjacent"}),
    ("adjacent: no card at all",
     [C("ToolSmith（arXiv:2607.26071）值得一看")], {}, {"arxiv:2607.26071": "adjacent"}),
    ("not listed: card out of the topic",
     [C("SkillRise（arXiv:2607.26412）技能库")], {}, {}),
    ("covered: same value within tolerance",
     [C("SGLang MLA 解码 kernel 提速 3.12×", q=(("3.12×", 3.12, "×", "speedup"),))], {}, {"entity:sglang": "covered"}),
    ("covered: a node with no values stated",
     [C("TGI 的迁移指南")], {}, {"entity:tgi": "covered"}),
    ("update: a value the doc lacks",
     [C("SGLang 吞吐 1,460 tok/s", q=(("1,460 tok/s", 1460.0, "tok/s", "throughput"),))], {}, {"entity:sglang": "update"}),
    ("update: mentioned in the doc only in passing",
     [C("vLLM 发布了新版本")], {}, {"entity:vllm": "update"}),
    ("conflict: number beyond tolerance",
     [C("SGLang MLA 解码 kernel 提速 3.3×", q=(("3.3×", 3.3, "×", "speedup"),))], {}, {"entity:sglang": "conflict"}),
    ("conflict: dates at the shared precision (day vs month)",
     [C("TGI 于 2026-03-21 进入维护模式", d=(("2026-03-21", "2026-03-21", "day", "eol_date"),))], {},
     {"entity:tgi": "conflict"}),
    ("covered: a day inside the doc's month",
     [C("TGI 于 2025-12-15 进入维护模式", d=(("2025-12-15", "2025-12-15", "day", "eol_date"),))], {},
     {"entity:tgi": "covered"}),
    ("covered: a point inside the doc's range, sign from wording ignored",
     [C("FlashInfer inter-token latency 35%", q=(("35%", 35.0, "%", "tpot"),))], {}, {"entity:flashinfer": "covered"}),
]


@pytest.mark.parametrize(("name", "claims", "first", "expected"), CASES, ids=[c[0] for c in CASES])
def test_outcome_rules(name: str, claims: list[Claim], first: dict[str, str], expected: dict[str, str]) -> None:
    assert outcomes(run(claims, first=first)) == expected


def test_rule_order_also_beats_supplement_and_doc_beats_card_category() -> None:
    r = run([C("Draft-then-Retrieve（arXiv:2607.24870）")], first={"arxiv:2607.24870": "2026-07-01T00:00:00+08:00"})
    assert outcomes(r) == {"arxiv:2607.24870": "adjacent"}
    r = run([C("AcceptMoE（arXiv:2607.02989）：全专家在显存时约 1.29×", q=(("1.29×", 1.29, "×", "speedup", "in-memory"),))])
    assert outcomes(r) == {"arxiv:2607.02989": "covered"}


def test_tolerance_comes_from_config() -> None:
    claims = [C("SGLang MLA 解码 kernel 提速 3.2×", q=(("3.2×", 3.2, "×", "speedup"),))]
    assert outcomes(run(claims)) == {"entity:sglang": "conflict"}  # 3.1 vs 3.2: 3.1 % apart
    assert outcomes(run(claims, config=CFG.model_copy(update={"tolerance": 0.05}))) == {"entity:sglang": "covered"}


# -- conflicts -----------------------------------------------------------------------------

def test_conflict_against_the_doc_lists_both_sources() -> None:
    r = run([C("TGI 于 2026-03-21 进入维护模式", line=12, d=(("2026-03-21", "2026-03-21", "day", "eol_date"),))])
    [c] = r.conflicts
    assert (c.subject, c.metric, c.against) == ("entity:tgi", "eol_date", ["living-doc"])
    assert [(v.raw, v.value, v.sources, v.origin) for v in c.values] == [
        ("2025 年 12 月", "2025-12", [f"{DOC}:2"], ["living-doc"]),
        ("2026-03-21", "2026-03-21", [f"{INBOX}:12"], ["window"]),
    ]


def test_conflict_between_window_sources_does_not_change_the_outcome() -> None:
    claims = [
        C("vLLM 6 月 CI 耗用 1,300 万 job minutes", line=41, q=(("1,300 万", 13e6, None, "ci_job_minutes"),)),
        C("vLLM 6 月 CI 用掉约 1,200 万 job minutes", path=OTHER, line=9, q=(("1,200 万", 12e6, None, "ci_job_minutes"),)),
    ]
    r = run(claims)
    assert outcomes(r) == {"entity:vllm": "update"}
    [c] = r.conflicts
    assert (c.subject, c.metric, c.against) == ("entity:vllm", "ci_job_minutes", ["window"])
    assert sorted((v.raw, tuple(v.sources)) for v in c.values) == [
        ("1,200 万", (f"{OTHER}:9",)), ("1,300 万", (f"{INBOX}:41",))]
    assert r.subjects[0].in_window_conflict is True


def test_two_values_in_one_file_and_a_shared_value_are_not_conflicts() -> None:
    same_file = [C("vLLM 吞吐 100 tok/s", line=1, q=(("100 tok/s", 100.0, "tok/s", "throughput"),)),
                 C("vLLM 吞吐 140 tok/s", line=2, q=(("140 tok/s", 140.0, "tok/s", "throughput"),))]
    assert run(same_file).conflicts == []
    shared = same_file + [C("vLLM 吞吐 100 tok/s", path=OTHER, q=(("100 tok/s", 100.0, "tok/s", "throughput"),))]
    assert run(shared).conflicts == []  # the other file agrees on 100: two conditions, not a conflict


def test_qualifier_separates_facts_explicit_and_from_text() -> None:
    explicit = [C("AcceptMoE offload 到 RTX 5090 时约 2.06×", q=(("2.06×", 2.06, "×", "speedup", "offload RTX 5090"),),
                  subjects=["arxiv:2607.02989"])]
    r = run(explicit)
    assert r.conflicts == []
    assert outcomes(r) == {"arxiv:2607.02989": "update"}
    derived = [C("AcceptMoE：全专家在显存时约 1.29×，offload 到 RTX 5090 时约 2.06×",
                 q=(("1.29×", 1.29, "×", "speedup"), ("2.06×", 2.06, "×", "speedup")))]
    other = [C("AcceptMoE：offload 到 RTX 5090 时约 2.5×", path=OTHER, q=(("2.5×", 2.5, "×", "speedup"),))]
    r = run(derived + other, doc=[])
    assert [(c.subject, c.qualifier) for c in r.conflicts] == [("arxiv:2607.02989", "offload+rtx5090")]
    assert sorted(v.raw for v in r.conflicts[0].values) == ["2.06×", "2.5×"]


# -- subjects ------------------------------------------------------------------------------

def test_card_alias_in_text_is_a_subject_and_a_host_is_not() -> None:
    r = run([C("Bole 集成 SGLang，约 6.2k LoC、2.03× 吞吐", q=(("2.03×", 2.03, "×", "speedup"),))], doc=[])
    assert outcomes(r) == {"arxiv:2608.01651": "net-new"}
    [s] = r.secondhand_only
    assert (s.subject, s.raw) == ("arxiv:2608.01651", "2.03×")


def test_baseline_after_bi_is_not_the_subject_of_the_number() -> None:
    text = "MC-SF：平均端到端延迟比 FCFS 低 38%，比 vLLM 默认调度低 21%"
    r = run([C(text, subjects=["entity:vllm"], q=(("38%", -38.0, "%", "latency"), ("21%", -21.0, "%", None)),
               heading=("增量 2 AcceptMoE（arXiv:2607.02989）",))], doc=[])
    assert outcomes(r) == {"arxiv:2607.02989": "net-new"}  # heading subject; vLLM only a baseline


def test_card_claims_are_about_the_card_and_heading_gives_a_subject() -> None:
    card_claim = C("论文报告：端到端加速 1.38×", path=BOLE.path, kind="paper-fact", subjects=[],
                   q=(("1.38×", 1.38, "×", "speedup"),))
    under_heading = C("[摘要转述] 合并 1,918 commits", line=40, subjects=[],
                      q=(("1,918", 1918.0, None, "commits"),), heading=("# Brief", "### 增量 4 vLLM AI Blog"))
    sentence = C("时间：2026-07-31 原文见博客", line=3, subjects=[], unit="sentence", heading=("# vLLM 周报",))
    r = run([card_claim, under_heading, sentence])
    assert outcomes(r) == {"arxiv:2608.01651": "net-new", "entity:vllm": "update"}
    assert [s.raw for s in r.secondhand_only] == ["1,918"]
    vllm = next(s for s in r.subjects if s.key == "entity:vllm")
    assert vllm.claims == [f"{INBOX}:40"]


def test_counts_of_named_things_are_not_figures() -> None:
    claims = [C("vLLM 课程大纲共 8 个模块", q=(("8 个", 8.0, "个", None),)),
              C("vLLM 平均每天 64 个，规模很大", line=2, q=(("64 个", 64.0, "个", None),))]
    r = run(claims)
    assert [s.raw for s in r.secondhand_only] == ["64 个"]
    assert r.subjects[0].new_values == ["64 个"]


def test_possessive_puts_the_owned_model_first() -> None:
    # "X 的 Y" with Y a model: the model leads (SGLang v0.5.16 的 DeepSeek-V4-Pro …)
    cfg = KbConfig(topics=CFG.topics, entities={**CFG.entities, "DeepSeek-V4-Pro": []})
    doc = [C("SGLang v0.5.16 的 DeepSeek-V4-Pro 投机解码，8×H200 单请求 383.7 tok/s", path=DOC, line=3,
             q=(("383.7 tok/s", 383.7, "tok/s", "throughput"),))]
    r = run([C("DeepSeek-V4-Pro | 383.7 tok/s", unit="table-row", q=(("383.7 tok/s", 383.7, "tok/s", "throughput"),))],
            doc=doc, config=cfg)
    assert outcomes(r) == {"entity:deepseek-v4-pro": "covered"}


def test_an_engine_owns_the_method_it_runs() -> None:
    # "X 的 Y" with X an engine and Y a method it runs (no model, hardware or dataset): X owns the
    # figure, as the row | SGLang | EAGLE3 | 83 | would give it to SGLang
    cfg = KbConfig(topics=CFG.topics, entities={**CFG.entities, "EAGLE3": []})
    doc = [C("SGLang 的 EAGLE3 投机解码，8×H200 单请求 383.7 tok/s", path=DOC, line=3,
             q=(("383.7 tok/s", 383.7, "tok/s", "throughput"),))]
    r = run([C("SGLang | 383.7 tok/s", unit="table-row", q=(("383.7 tok/s", 383.7, "tok/s", "throughput"),))],
            doc=doc, config=cfg)
    assert outcomes(r) == {"entity:sglang": "covered"}


def test_entity_named_like_a_card_compares_with_the_card() -> None:
    doc = [C("§2.4 FlashInfer（arXiv:2606.20295）论文报告 inter-token latency 降低 29%–69%", path=DOC, line=13,
             q=(("29%–69%", (-29.0, -69.0), "%", "tpot"),), subjects=["arxiv:2606.20295"])]
    r = run([C("作者引用 FlashInfer 论文：inter-token latency 降低 29%–69%",
               q=(("29%–69%", (-29.0, -69.0), "%", "tpot"),))], doc=doc)
    assert outcomes(r) == {"entity:flashinfer": "covered"}


def test_mistyped_id_next_to_a_card_title() -> None:
    r = run([C("Bole: Tree Speculation for Hybrid Attention（arXiv:2608.01615）：讨论", line=23)])
    [m] = r.id_mismatches
    assert (m.name, m.card_subject, m.cited, m.source) == (
        "Bole: Tree Speculation for Hybrid Attention", "arxiv:2608.01651", "arxiv:2608.01615", f"{INBOX}:23")
    # listed once, as a suspected typo beside the card it probably means, never as a paper of its own
    assert outcomes(r) == {"arxiv:2608.01651": "net-new"}


def test_baseline_after_yu_xiangbi_is_not_the_subject_and_the_heading_subject_wins() -> None:
    heading = ("# Brief", "## 2. HydraServe（arXiv:2608.01651）")
    r = run([C("与 SGLang 默认调度相比，p99 降低 38%", heading=heading, q=(("38%", 38.0, "%", "latency"),),
               subjects=["arxiv:2608.01651", "entity:sglang"])])
    assert outcomes(r) == {"arxiv:2608.01651": "net-new"}
    assert [(s.subject, s.raw) for s in r.secondhand_only] == [("arxiv:2608.01651", "38%")]


def test_a_number_after_lingxian_x_belongs_to_the_leader() -> None:
    from kb.facts.attributor import Attributor
    at = Attributor(CFG, CARDS)
    v = at.view(C("SGLang 在 MLA 上领先 vLLM 29%", q=(("29%", 29.0, "%", "speedup"),)))
    assert (v.subjects, v.hosts, [f.subject for f in v.facts]) == (["entity:sglang"], ["entity:vllm"], ["entity:sglang"])
    for text, host in (("HydraServe 集成到 SGLang 后吞吐 1,460 tok/s", "entity:sglang"),
                       ("1.8× over vLLM on the same GPUs", "entity:vllm"),
                       ("2.1× higher throughput than SGLang", "entity:sglang"),
                       ("built on top of vLLM: 58.3 tok/s", "entity:vllm"),
                       ("compared with TGI, 35% lower TTFT", "entity:tgi")):
        v = at.view(C(text))
        assert host in v.hosts and host not in v.subjects, text


def test_a_name_with_its_id_in_a_source_bracket_is_one_subject() -> None:
    cfg = CFG.model_copy(update={"entities": {**CFG.entities, "Mooncake": []}})
    doc = [C("Mooncake 以 KV cache 为中心的分离式架构", path=DOC, line=13)]
    r = run([C("Mooncake 的分离式 KV 缓存方案被更多团队采用（来源：arXiv:2407.00079）")], doc=doc, config=cfg)
    assert outcomes(r) == {"arxiv:2407.00079": "covered"}


# -- secondhand-only -----------------------------------------------------------------------

SH = C("上游摘要称 Bole 2.03× 吞吐", q=(("2.03×", 2.03, "×", "speedup"),))


@pytest.mark.parametrize(
    ("support", "flagged"),
    [
        ([], True),
        ([C("论文报告 Bole 2.03× 吞吐", path=OTHER, kind="paper-fact", q=(("2.03×", 2.03, "×", "speedup"),))], False),
        ([C("论文报告 Bole 2.5× 吞吐", path=OTHER, kind="paper-fact", q=(("2.5×", 2.5, "×", "speedup"),))], True),
        ([C("Bole 2.03× 吞吐（我们内部评级 ★★）", path=OTHER, kind="internal-rating",
            q=(("2.03×", 2.03, "×", "speedup"),))], True),
    ],
    ids=["no-paper-fact", "paper-fact-same-value", "paper-fact-other-value", "rating-is-not-support"],
)
def test_secondhand_only_in_the_window(support: list[Claim], flagged: bool) -> None:
    r = run([SH, *support], doc=[])
    assert [(s.subject, s.raw, s.source) for s in r.secondhand_only] == (
        [("arxiv:2608.01651", "2.03×", f"{INBOX}:1")] if flagged else [])


def test_an_older_card_lends_paper_fact_support() -> None:
    card = C("论文报告：Bole 2.03× 吞吐", path=BOLE.path, kind="paper-fact", q=(("2.03×", 2.03, "×", "speedup"),))
    assert run([SH], doc=[], card_claims={BOLE.path: [card]}).secondhand_only == []


def test_sources_checked_lists_files_without_claims_and_what_became_of_them() -> None:
    r = run([C("Bole（arXiv:2608.01651）"), C("无关的 3 条", path=OTHER, subjects=[])],
            files=[(INBOX, "inbox"), (OTHER, "inbox"), ("inbox/flyp/2026-07-31-empty.md", "inbox")])
    assert [(s.path, s.claims, s.outcomes, s.unlisted) for s in r.sources_checked] == [
        ("inbox/flyp/2026-07-31-empty.md", 0, {}, 0),
        (INBOX, 1, {"arxiv:2608.01651": "net-new"}, 0),
        (OTHER, 1, {}, 1),
    ]


def test_result_json_has_the_issue_shape() -> None:
    r = run([C("TGI 于 2026-03-21 进入维护模式", d=(("2026-03-21", "2026-03-21", "day", "eol_date"),))])
    data = r.model_dump(mode="json")
    assert set(data) >= {"topic", "window", "baseline", "subjects", "conflicts", "secondhand_only", "sources_checked"}
    assert data["window"] == {"since": "2026-07-30T22:00:00+08:00", "until": "2026-07-31T22:00:00+08:00"}
    assert set(data["subjects"][0]) >= {"key", "label", "outcome", "section_hint", "claims"}
    assert set(data["conflicts"][0]["values"][0]) >= {"raw", "value", "kinds", "sources"}


def test_card_from_row_reads_the_id_as_written() -> None:
    card = card_from_row("organized/paper_cards/670-2607-24870.md",
                         {"arxiv": "2607.24870", "title": "T", "also": "inference-efficient", "card": 670})
    assert (card.key, card.also, card.number) == ("arxiv:2607.24870", ("inference-efficient",), 670)
    assert card_from_row("x.md", {"arxiv": "2607.2487"}).key is None  # the float YAML would give


def test_conditions_in_a_clause_of_their_own_still_qualify_the_number() -> None:
    """A fresh KB's fault: the doc's set-up stood before a comma, so its value had no qualifier
    while the window's had one, and a clear conflict came out as `update`."""
    doc = [C("vLLM 在 H100 上跑 Llama-3-70B，吞吐 2,400 tok/s", path=DOC, line=13, unit="list-item",
             q=(("2,400 tok/s", 2400.0, "tok/s", "throughput"),))]
    window = [C("vLLM on H100 with Llama-3-70B: throughput 3,100 tok/s", q=(("3,100 tok/s", 3100.0, "tok/s", "throughput"),))]
    r = run(window, doc=doc)
    assert outcomes(r) == {"entity:vllm": "conflict"}
    assert [(c.subject, c.metric, c.qualifier, [v.raw for v in c.values]) for c in r.conflicts] == [
        ("entity:vllm", "throughput", "h100+llama-3-70b", ["2,400 tok/s", "3,100 tok/s"])]


def test_a_value_the_other_source_states_under_another_set_up_is_no_conflict() -> None:
    win = [C("The paper reports 1.38× end-to-end speed-up for Bole", kind="paper-fact", q=(("1.38×", 1.38, "×", "speedup"),)),
           C("Bole 在 Llama-3.1-8B 上端到端加速 1.38×", path="inbox/tom/2026-07-31-b.md", kind="paper-fact",
             q=(("1.38×", 1.38, "×", "speedup"),)),
           C("Bole 按上界选阈值时加速 1.21×", path="inbox/tom/2026-07-31-b.md", line=2, kind="paper-fact",
             q=(("1.21×", 1.21, "×", "speedup"),))]
    assert run(win).conflicts == []  # the second file also states 1.38× (under another set-up)


def test_living_doc_heading_names_are_subjects_of_the_window() -> None:
    """A second fresh KB's fault: GPTQ was only a heading of the doc, so an inbox line naming it
    had no subject and its conflict was lost."""
    from kb.extract.names import heading_names

    assert heading_names(["### 1.1 AWQ", "## 2.4 FlashInfer（arXiv:2606.20295）", "## Scheduling", "## 9 开放问题与试金石",
                          "### §1.2 SmoothQuant", "## 3. llama.cpp", "## KV Cache"]) == [
        ("AWQ", "entity:awq"), ("FlashInfer", "arxiv:2606.20295"), ("SmoothQuant", "entity:smoothquant"),
        ("llama.cpp", "entity:llama.cpp")]
    sections = [(10, "§1.1", "1.1 GPTQ")]
    doc = [C("OPT-175B 上 W4 准确率 71.2%", path=DOC, line=12, heading=("# 量化", "1.1 GPTQ"),
             q=(("71.2%", 71.2, "%", "accuracy"),), subjects=[])]
    window = [C("GPTQ on OPT-175B: W4 accuracy 64.0%", subjects=[], q=(("64.0%", 64.0, "%", "accuracy"),))]
    r = diff(window, doc, CARDS, CFG, WINDOW, "inference", baseline={"path": DOC, "version": 7, "updated": None},
             doc_sections=sections)
    assert outcomes(r) == {"entity:gptq": "conflict"}


def test_a_set_up_clause_joins_the_qualifier_and_a_subset_set_up_is_comparable() -> None:
    doc = [C("AWQ INT4 端到端加速 3.2×，测试平台为 RTX 4090、batch 1", path=DOC, line=13,
             q=(("3.2×", 3.2, "×", "speedup"),))]
    window = [C("AWQ on an RTX 4090 at batch 1: 2.4× speedup", q=(("2.4×", 2.4, "×", "speedup"),))]
    cfg = CFG.model_copy(update={"entities": {**CFG.entities, "AWQ": []}})
    r = run(window, doc=doc, config=cfg)
    assert [(c.subject, c.qualifier, [v.raw for v in c.values]) for c in r.conflicts] == [
        ("entity:awq", "batch1+rtx4090", ["3.2×", "2.4×"])]
    # different set-ups are two facts, not a conflict
    r = run([C("AWQ with offload: 2.4× speedup", q=(("2.4×", 2.4, "×", "speedup"),))], doc=doc, config=cfg)
    assert r.conflicts == []


def test_a_change_log_restating_a_body_value_is_cited_at_the_body_section() -> None:
    """tester5's X1 (issue 8): the conflict cited the doc's 380 ms at ``§9 版本记录`` (its change
    log, ``kvcache.md:92``) rather than ``§3.2`` (line 59), which states it. A value only the
    change log states is no value of the doc (issue 20: a change log is no section to correct):
    the window's 4,000 tok/s is a new value, not a conflict with the log's 5,000 tok/s."""
    from kb.night.doc_index import changelog_ranges

    sections = [(50, "§3.2", "§3.2 SGLang"), (90, "§9", "§9 版本记录"), (91, "§9.1", "§9.1 v12"), (95, "§10", "§10 展望")]
    assert changelog_ranges(sections) == [(90, 90), (91, 94)]
    doc = [C("SGLang 在 32K 上下文下 TTFT 为 380 ms", path=DOC, line=59, q=(("380 ms", 0.38, "s", "ttft", "32k上下文"),)),
           C("v12：SGLang TTFT 更新为 0.38 s", path=DOC, line=92, q=(("0.38 s", 0.38, "s", "ttft"),)),
           C("v12：SGLang 吞吐 5,000 tok/s", path=DOC, line=93, q=(("5,000 tok/s", 5000.0, "tok/s", "throughput"),))]
    window = [C("SGLang 的 TTFT 为 0.9 s，吞吐 4,000 tok/s", q=(("0.9 s", 0.9, "s", "ttft"),
                                                         ("4,000 tok/s", 4000.0, "tok/s", "throughput")))]
    r = diff(window, doc, CARDS, CFG, WINDOW, "inference", baseline={"path": DOC, "version": 12, "updated": None},
             doc_sections=sections)
    assert [(c.metric, [(v.raw, v.sources) for v in c.values]) for c in r.conflicts] == [
        ("ttft", [("380 ms", [f"{DOC}:59"]), ("0.9 s", [INBOX + ":1"])])]


# -- transitions (issue 9) ------------------------------------------------------------------

def _parsed(text: str, **kw: Any) -> Claim:
    """``C(text)`` with the parser's quantities (kb.extract.quantities: a change A → B is two ends)."""
    from kb.extract.quantities import find_quantities

    return C(text, **kw).model_copy(update={"quantities": find_quantities(text)})


@pytest.mark.parametrize(("held", "outcome", "new", "conflicts"), [
    ("1,200 tok/s", "update", ["1,500 tok/s"], 0),  # the doc holds A: an update to B, not a conflict with A
    ("1,500 tok/s", "covered", [], 0),  # the doc holds B already: A is where it came from, no new value
    ("1,000 tok/s", "conflict", ["1,200 tok/s", "1,500 tok/s"], 1),  # neither end: a conflict on both
])
def test_a_change_a_to_b_against_the_doc(held: str, outcome: str, new: list[str], conflicts: int) -> None:
    doc = [*DOC_CLAIMS, _parsed(f"SGLang 吞吐 {held}", path=DOC, line=4)]
    r = run([_parsed("SGLang 吞吐从 1,200 tok/s 提到 1,500 tok/s")], doc=doc)
    [s] = r.subjects
    assert (s.key, s.outcome, s.new_values if outcome == "update" else s.detail.split(", ") if s.detail else []) == (
        "entity:sglang", outcome, new)
    assert len(r.conflicts) == conflicts
