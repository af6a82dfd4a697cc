"""Relay chains and ``kb trace`` (issue 10 part 1): labelled fixture KB and the demo's vLLM hop.

``tests/fixtures/relay`` (written for these tests) relays one Quokka throughput figure over
four hops across en and zh files — a shared blog URL, an author+time reference (``据 mira 0900
简报``), a KB path, an author's E1 (``tao's serving E1``) — and changes it at the last
(2,400 → 4,200 tok/s); a fifth file shares the blog URL; two files state 2,400 tok/s with
no citation; two references name files that do not exist.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parent / "fixtures" / "relay"
MIRA = "inbox/mira/2026-05-10T0900-mira-serving-notes.md"
LIN = "inbox/lin/2026-05-10T1120-lin-daily.md"
TAO = "inbox/tao/2026-05-10-serving-e1prep.md"
RAVI = "inbox/ravi/2026-05-11T0830-ravi-digest.md"
KIM = "inbox/kim/2026-05-11T1000-kim-links.md"
WEN = "inbox/wen/2026-05-11T1400-wen-bench.md"
OLGA = "inbox/olga/2026-05-11T1500-olga-bench.md"
JAY = "inbox/jay/2026-07-31T1335-jay-engineering-filter.md"
SPARK = "inbox/spark/2026-07-31-llm-infra-e1prep.md"


@pytest.fixture
def relay_kb(tmp_path: Path) -> Path:
    dest = tmp_path / "relay"
    shutil.copytree(FIXTURE, dest, ignore=shutil.ignore_patterns(".kb"))
    return dest


def _trace(run_kb, root: Path, *args: str) -> dict:  # noqa: ANN001
    res = run_kb(["--kb", str(root), "trace", *args, "--format", "json"])
    assert res.exit_code == 0, res.stderr
    return json.loads(res.stdout)


def _chain_of(result: dict, source: str) -> dict:
    return next(c for c in result["chains"] if any(h["source"] == source for h in c["hops"]))


def test_four_hop_chain_across_zh_and_en_marks_the_changed_hop(relay_kb: Path, run_kb) -> None:  # noqa: ANN001
    result = _trace(run_kb, relay_kb, "Quokka", "--metric", "throughput")
    chain = _chain_of(result, f"{MIRA}:5")
    hops = [(h["source"], h["author"], h["raw"], h["upstream"], h["changed"]) for h in chain["hops"]]
    assert hops == [
        (f"{MIRA}:5", "mira", "2,400 tok/s", "url:quokka.dev/blog/scheduler-release", False),
        (f"{LIN}:5", "lin", "2,400 tok/s", f"{MIRA}:5", False),
        (f"{TAO}:9", "tao", "2.4K tok/s", f"{LIN}:5", False),
        (f"{RAVI}:5", "ravi", "4,200 tok/s", f"{TAO}:9", True),
        (f"{KIM}:3", "kim", "2,400 tok/s", "url:quokka.dev/blog/scheduler-release", False),
    ]
    assert chain["changed_at"] == [f"{RAVI}:5"]
    assert chain["value"] == "2,400 tok/s"
    ravi = chain["hops"][3]
    assert ravi["changed_from"] == "2.4K tok/s" and ravi["value"] == 4200.0 and ravi["unit"] == "tok/s"
    assert ravi["cites"] == {"files": [TAO], "sources": []}
    assert chain["hops"][1]["cites"]["files"] == [MIRA]  # 据 mira 0900 简报
    assert chain["hops"][2]["cites"]["files"] == [LIN]  # a KB path
    assert [h["written_at"] for h in chain["hops"]] == sorted(h["written_at"] for h in chain["hops"])


def test_url_shared_relay_joins_the_chain(relay_kb: Path, run_kb) -> None:  # noqa: ANN001
    chain = _chain_of(_trace(run_kb, relay_kb, "Quokka", "--metric", "throughput"), f"{KIM}:3")
    kim = next(h for h in chain["hops"] if h["source"] == f"{KIM}:3")
    # kim cites the URL with a trailing slash; mira's claim takes it from its section's Source line
    assert kim["cites"]["sources"] == ["url:quokka.dev/blog/scheduler-release", "site:entity:quokka/blog"]
    assert chain["sources"] == ["url:quokka.dev/blog/scheduler-release", "site:entity:quokka/blog"]
    assert chain["source_labels"]["site:entity:quokka/blog"] == "Quokka blog"


def test_independent_sources_with_the_same_value_are_not_linked(relay_kb: Path, run_kb) -> None:  # noqa: ANN001
    result = _trace(run_kb, relay_kb, "Quokka", "--metric", "throughput")
    assert len(result["chains"]) == 3
    for path in (WEN, OLGA):
        chain = _chain_of(result, f"{path}:3")
        assert [h["source"] for h in chain["hops"]] == [f"{path}:3"]
        assert chain["sources"] == [] and chain["changed_at"] == [] and chain["hops"][0]["upstream"] is None
        assert chain["hops"][0]["raw"] == "2,400 tok/s"


def test_unknown_file_references_are_reported(relay_kb: Path, run_kb) -> None:  # noqa: ANN001
    result = _trace(run_kb, relay_kb, "Quokka")
    assert result["unresolved"] == [
        {"source": f"{LIN}:6", "ref": "lin 1530", "reason": "no briefing by lin written at 15:30 on 2026-05-10"},
        {"source": f"{RAVI}:6", "ref": "paper_cards/999", "reason": "no paper card 999 in the KB"},
    ]
    metrics = sorted({c["metric"] for c in result["chains"]})
    assert metrics == ["latency", "throughput", "ttft"]


def test_json_shape_is_the_documented_one(relay_kb: Path, run_kb) -> None:  # noqa: ANN001
    result = _trace(run_kb, relay_kb, "Quokka", "--metric", "throughput")
    assert set(result) == {"subject", "label", "metric", "topic", "chains", "unresolved"}
    assert (result["subject"], result["label"], result["metric"]) == ("entity:quokka", "Quokka", "throughput")
    chain = result["chains"][0]
    assert set(chain) == {"subject", "metric", "sources", "source_labels", "first", "value", "changed_at", "hops"}
    assert set(chain["hops"][0]) == {"source", "path", "line", "author", "written_at", "kind", "raw", "value", "unit",
                                     "qualifier", "cites", "via", "upstream", "changed", "changed_from", "text"}
    assert chain["hops"][0]["written_at"] == "2026-05-10T09:00:00+08:00"
    assert chain["hops"][0]["kind"] == "secondhand"
    # docs/trace.md shows this shape: every key it names is a key of the output
    doc = (Path(__file__).parents[1] / "docs" / "trace.md").read_text(encoding="utf-8")
    for key in (*chain, *chain["hops"][0], *result):
        assert f'"{key}"' in doc, key


def test_text_output_shows_the_chain_and_the_change(relay_kb: Path, run_kb) -> None:  # noqa: ANN001
    res = run_kb(["--kb", str(relay_kb), "trace", "Quokka", "--metric", "throughput"])
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    assert lines[0] == ("Quokka · throughput — 2,400 tok/s — source: quokka.dev/blog/scheduler-release, Quokka blog"
                        f" — changed at {RAVI}:5")
    assert lines[4] == (f"  4. 2026-05-11 08:30  ravi  secondhand  4,200 tok/s  {RAVI}:5  ← {TAO}:9"
                        "  CHANGED (2.4K tok/s → 4,200 tok/s)")


def test_demo_vllm_ci_job_minutes_hop(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    result = _trace(run_kb, demo_kb, "vLLM", "--metric", "ci_job_minutes")
    assert len(result["chains"]) == 1
    chain = result["chains"][0]
    hops = [(h["source"], h["author"], h["kind"], h["raw"], h["value"], h["changed"]) for h in chain["hops"]]
    assert hops == [
        (f"{JAY}:9", "jay", "secondhand", "1,200 万", 12000000.0, True),
        (f"{SPARK}:41", "spark", "secondhand", "1,300 万", 13000000.0, False),
        (f"{SPARK}:84", "spark", "secondhand", "1,300 万", 13000000.0, False),
    ]
    jay = chain["hops"][0]
    assert jay["via"] == ["https://www.infoq.cn/article/vllm-ci-practice"]  # the Chinese reprint
    assert jay["cites"]["sources"] == ["site:entity:vllm/blog"]  # 据 vLLM 博客 7-16 那篇
    assert jay["changed_from"] == "1,300 万"
    assert chain["hops"][1]["cites"]["sources"] == ["url:vllm.ai/blog", "site:entity:vllm/blog"]
    assert chain["changed_at"] == [f"{JAY}:9"] and chain["value"] == "1,300 万"


def test_demo_other_metrics_of_one_blog_are_chains_of_their_own(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    result = _trace(run_kb, demo_kb, "vLLM")
    commits = next(c for c in result["chains"] if c["metric"] == "commits_merged")
    # 1,918 commits in June and 500 between two releases: two figures of one post, no change
    assert [h["raw"] for h in commits["hops"]] == ["1,918", "500", "1,918"] and commits["changed_at"] == []
    memory = next(c for c in result["chains"] if c["metric"] == "memory")
    assert [h["source"] for h in memory["hops"]] == [
        "organized/knowledge/inference.md:76", "inbox/jay/2026-07-31T1735-jay-briefing-inference-stack-vecdb-substack.md:33"]


def test_unknown_metric_and_topic_are_usage_errors(relay_kb: Path, run_kb) -> None:  # noqa: ANN001
    res = run_kb(["--kb", str(relay_kb), "trace", "Quokka", "--metric", "speed"])
    assert res.exit_code == 2 and "--metric 'speed': not a metric key" in res.stderr
    res = run_kb(["--kb", str(relay_kb), "trace", "Quokka", "--topic", "rag"])
    assert res.exit_code == 2 and "--topic 'rag': not a topic of kb.yaml" in res.stderr


def test_metric_phrase_is_read_as_kb_history_reads_it(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    """A breaker's find: `kb trace TGI --metric 维护模式` was refused while `kb history` took it
    (one reading of --metric: kb.facts.query.resolve_metric)."""
    by_key = run_kb(["--kb", str(demo_kb), "trace", "TGI", "--metric", "eol_date", "--format", "json"])
    by_phrase = run_kb(["--kb", str(demo_kb), "trace", "TGI", "--metric", "维护模式", "--format", "json"])
    assert by_phrase.exit_code == by_key.exit_code == 0, by_phrase.stderr
    assert json.loads(by_phrase.stdout) == json.loads(by_key.stdout)


def test_topic_keeps_chains_with_a_hop_of_the_topic(relay_kb: Path, run_kb) -> None:  # noqa: ANN001
    result = _trace(run_kb, relay_kb, "Quokka", "--topic", "serving")
    # only tao's E1 (front matter topic: serving) is a file of the topic
    assert [c["first"] for c in result["chains"]] == [f"{MIRA}:5"]


@pytest.mark.parametrize(("lang", "mark"), [
    ("zh", f"vs 1,300 万（窗口）（在 {JAY}:9 处变了） |"),
    ("en", f"vs 13M (window) (changed at {JAY}:9) |"),  # kb's own words in English
])
def test_brief_conflict_row_says_where_the_value_changed(demo_kb: Path, run_kb, tmp_path: Path,  # noqa: ANN001
                                                         lang: str, mark: str) -> None:
    out = tmp_path / f"brief.{lang}.md"
    res = run_kb(["--kb", str(demo_kb), "digest", "inference", "--date", "2026-07-31", "--lang", lang,
                  "--out", str(out)])
    assert res.exit_code == 0, res.stderr
    rows = [r for r in out.read_text(encoding="utf-8").splitlines() if "ci_job_minutes" in r and r.startswith("| 2 |")]
    assert len(rows) == 1 and mark in rows[0]


def test_ambiguous_and_later_references_are_reported_not_guessed(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    from conftest import write_files

    root = write_files(tmp_path / "kb", {
        "kb.yaml": 'timezone: "+08:00"\ntopics: [serving]\nentities:\n  Quokka: []\n',
        "inbox/ana/2026-06-01T0900-ana-a.md": "- Quokka throughput 3,000 tok/s.\n",
        "inbox/ana/2026-06-01T0900-ana-b.md": "- Quokka throughput 3,100 tok/s.\n",
        "inbox/ana/2026-06-02-serving-e1prep.md": "- Quokka throughput 3,000 tok/s.\n",
        "inbox/bo/2026-06-01T1200-bo-notes.md": ("- 据 ana 0900 简报，Quokka 吞吐 3,000 tok/s。\n"
                                                 "- 见 ana 的 serving E1：Quokka 吞吐 3,000 tok/s。\n"),
    })
    result = _trace(run_kb, root, "Quokka")
    assert result["unresolved"] == [
        {"source": "inbox/bo/2026-06-01T1200-bo-notes.md:1", "ref": "ana 0900",
         "reason": "2 files match: inbox/ana/2026-06-01T0900-ana-a.md, inbox/ana/2026-06-01T0900-ana-b.md"},
        # ana's only serving E1 is dated the next day: no file written before the claim
        {"source": "inbox/bo/2026-06-01T1200-bo-notes.md:2", "ref": "ana 的 serving E1",
         "reason": "no serving E1 by ana written before 2026-06-01 12:00"},
    ]
    # nothing resolved, nothing cited: five statements, five chains of one hop each
    assert [len(c["hops"]) for c in result["chains"]] == [1, 1, 1, 1, 1]


def test_unknown_subject_is_a_usage_error(relay_kb: Path, run_kb) -> None:  # noqa: ANN001
    res = run_kb(["--kb", str(relay_kb), "trace", "Wombat"])
    assert res.exit_code == 2 and "SUBJECT 'Wombat'" in res.stderr  # the argument typed


def test_a_section_source_line_naming_a_kb_file_is_a_citation(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    from conftest import write_files

    root = write_files(tmp_path / "kb", {
        "kb.yaml": 'timezone: "+08:00"\nentities:\n  Quokka: []\n',
        "inbox/ana/2026-06-01T0900-ana-notes.md": "# Notes\n\n- Quokka TTFT 120 ms on the default set-up.\n",
        "inbox/bo/2026-06-02T1000-bo-digest.md": ("# 摘要\n\n## Quokka\n\n- Quokka 的 TTFT 为 150 ms。\n"
                                                  "- 来源：inbox/ana/2026-06-01T0900-ana-notes.md\n"),
    })
    result = _trace(run_kb, root, "Quokka", "--metric", "ttft")
    assert len(result["chains"]) == 1
    hops = [(h["source"], h["raw"], h["upstream"], h["changed"]) for h in result["chains"][0]["hops"]]
    assert hops == [
        ("inbox/ana/2026-06-01T0900-ana-notes.md:3", "120 ms", None, False),
        ("inbox/bo/2026-06-02T1000-bo-digest.md:5", "150 ms", "inbox/ana/2026-06-01T0900-ana-notes.md:3", True),
    ]


def test_only_the_section_holding_the_source_line_takes_it(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """A section runs from its heading to the next heading of any level (found by bisection
    of the file's heading lines): the sections before and after the source line's take none."""
    from conftest import write_files

    bo = "inbox/bo/2026-06-02T1000-bo-digest.md"
    root = write_files(tmp_path / "kb", {
        "kb.yaml": 'timezone: "+08:00"\nentities:\n  Quokka: []\n',
        "inbox/ana/2026-06-01T0900-ana-notes.md": "# Notes\n\n- Quokka TTFT 120 ms on the default set-up.\n",
        bo: ("# 摘要\n\nQuokka TTFT 130 ms.\n\n## Quokka\n\n- Quokka 的 TTFT 为 150 ms。\n"
             "- 来源：inbox/ana/2026-06-01T0900-ana-notes.md\n\n### Later\n\nQuokka TTFT 160 ms.\n"),
    })
    result = _trace(run_kb, root, "Quokka", "--metric", "ttft")
    assert [h["source"] for h in _chain_of(result, f"{bo}:7")["hops"]] == [
        "inbox/ana/2026-06-01T0900-ana-notes.md:3", f"{bo}:7"]
    for line in (3, 12):
        alone = _chain_of(result, f"{bo}:{line}")
        assert len(alone["hops"]) == 1 and alone["hops"][0]["cites"]["files"] == []


def test_a_count_after_an_author_is_no_time_reference(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    from conftest import write_files

    root = write_files(tmp_path / "kb", {
        "kb.yaml": 'timezone: "+08:00"\nentities:\n  Quokka: []\n',
        "inbox/tom/2026-06-01T0900-tom-radar.md": "- Quokka throughput 3,000 tok/s.\n",
        "inbox/bo/2026-06-01T1200-bo-notes.md": ("- tom 1500 stars 的那个 Quokka 仓库，吞吐 3,000 tok/s。\n"
                                                 "- 据 tom 0900 简报，Quokka 吞吐 3,000 tok/s。\n"),
    })
    result = _trace(run_kb, root, "Quokka")
    assert result["unresolved"] == []
    chain = _chain_of(result, "inbox/bo/2026-06-01T1200-bo-notes.md:2")
    assert [h["source"] for h in chain["hops"]] == ["inbox/tom/2026-06-01T0900-tom-radar.md:1",
                                                    "inbox/bo/2026-06-01T1200-bo-notes.md:2"]
    alone = _chain_of(result, "inbox/bo/2026-06-01T1200-bo-notes.md:1")
    assert len(alone["hops"]) == 1 and alone["hops"][0]["cites"]["files"] == []


def test_a_cited_file_stating_the_value_under_more_conditions_or_another_unit_is_the_upstream(
        tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """Issue 8 (tester5's KB): ``据 lin 0930 简报，TurboKV 的 KV 显存…`` resolved to lin's file,
    but lin names the set-up (``Llama-3.1-8B 128K 上下文``) the relay drops: no chain was built.
    A relay links to the cited fact of a compatible set-up (one holds the other's conditions),
    else to the one of the same value under another set-up, in any unit."""
    from conftest import write_files

    root = write_files(tmp_path / "kb", {
        "kb.yaml": 'timezone: "+08:00"\nentities:\n  Quokka: []\n',
        "inbox/lin/2026-06-01T0930-lin-daily.md": (
            "# 日报\n\n"
            "- Quokka 在 Llama-3.1-8B、H100 上的 KV 显存为 4.1 GB。\n"
            "- Quokka 在 H100、batch 8 下 TTFT 为 120 ms。\n"),
        "inbox/ravi/2026-06-01T1400-ravi-digest.md": (
            "# 摘要\n\n"
            "- 据 lin 0930 简报，Quokka 在 H100 上的 KV 显存为 4.1 GB。\n"
            "- 据 lin 0930 简报，Quokka 在 batch 1 下 TTFT 为 0.12 s。\n"
            "- 据 lin 0930 简报，Quokka 在 H100 上的 KV 显存为 5.2 GB。\n"),
    })
    lin, ravi = "inbox/lin/2026-06-01T0930-lin-daily.md", "inbox/ravi/2026-06-01T1400-ravi-digest.md"
    result = _trace(run_kb, root, "Quokka")
    got = [[(h["source"], h["raw"], h["qualifier"], h["upstream"], h["changed"]) for h in c["hops"]]
           for c in result["chains"]]
    assert got == [
        # the same value, conditions dropped (h100 ⊂ h100+llama-3.1-8b; 显存 of a memory figure is its metric's
        # word, no condition: vocab.qualifiers.MEMORY_PLACEMENT); another value: changed
        [(f"{lin}:3", "4.1 GB", "h100+llama-3.1-8b", None, False),
         (f"{ravi}:3", "4.1 GB", "h100", f"{lin}:3", False),
         (f"{ravi}:5", "5.2 GB", "h100", f"{lin}:3", True)],
        # the same value in another unit under another set-up (batch 1 vs batch 8): the relay of it
        [(f"{lin}:4", "120 ms", "batch8+h100", None, False),
         (f"{ravi}:4", "0.12 s", "batch1", f"{lin}:4", False)],
    ]
    assert result["unresolved"] == []
