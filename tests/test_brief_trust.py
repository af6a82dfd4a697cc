"""The brief an analyst signs says what its sources say, and its parts agree: §3's first source
is the line written first (not the first path), a row naming papers on several lines cites each
line. Wording fresh (a storage-engine KB), exact lines."""

from __future__ import annotations

import re

import pytest
from conftest import digest_brief, line_starting, unlinked, write_files

from kb.brief.papers import first_written
from kb.core.claims import Claim, Provenance

CARD = """\
---
card: 12
arxiv: "2606.04321"
title: "Tidepool: Log-Structured Merging without Write Stalls"
category: storage-engines
created: 2026-06-10T12:00:00+08:00
---
# 12 · Tidepool

- [论文事实] 写停顿从 1.9 s 降到 0.2 s。
"""
FILES = {
    "kb.yaml": ('timezone: "+08:00"\ncutoff: "22:00"\nexecutor: noor\ntopics: {storage: [storage-engines]}\n'
                "entities: {Wren: []}\n"),
    "organized/knowledge/storage.md": ("---\ntopic: storage\nversion: 3\nupdated: 2026-06-10T05:00:00+08:00\n---\n"
                                       "# 存储活文档\n\n## §1 引擎\n\n- Wren 压缩吞吐 410 MB/s（来源：https://wren.example.org/blog）。\n"),
    "organized/paper_cards/012-2606-04321.md": CARD,
    # alphabetically first, written last
    "inbox/amy/2026-06-10T2000-amy-storage.md": ("# 存储雷达（2026-06-10 20:00）\n\n"
                                                 "- Tidepool（arXiv:2606.04321）把写停顿压到 0.2 s，值得入 §1。\n"),
    # alphabetically last, written first: a daily page listing three off-topic papers on three lines
    "inbox/zoe/2026-06-10T0700-zoe-daily.md": (
        "# Daily papers（2026-06-10 07:00）\n\n"
        "| # | arXiv | 标题 | 票 |\n|---|---|---|---|\n"
        "| 1 | 2606.04321 | Tidepool | 61 |\n"
        "| 2 | 2606.05555 | Sketching recipes for robots | 40 |\n"
        "| 3 | 2606.06666 | Poems about glaciers | 33 |\n"
        "| 4 | 2606.07777 | Chess openings revisited | 21 |\n"),
}
ZOE = "inbox/zoe/2026-06-10T0700-zoe-daily.md"


@pytest.fixture(scope="module")
def brief(tmp_path_factory: pytest.TempPathFactory) -> str:
    return digest_brief(tmp_path_factory.mktemp("trust") / "kb", FILES, "2026-06-10")


def _claim(path: str, line: int, when: str | None) -> Claim:
    return Claim(id=f"{path}{line}", kind="secondhand", kind_reason="t", text="x",
                 provenance=Provenance(path=path, line=line, end_line=line, written_at=when))


def test_first_written_is_by_moment_then_place() -> None:
    late = _claim("inbox/a/x.md", 3, "2026-06-10T20:00:00+08:00")
    early = _claim("inbox/z/y.md", 9, "2026-06-10T07:00:00+08:00")
    utc = _claim("inbox/m/u.md", 1, "2026-06-09T23:30:00+00:00")  # 07:30 at +08:00
    undated = _claim("inbox/0/n.md", 1, None)
    assert first_written([late, undated, utc, early]) is early
    assert first_written([late, undated, utc]) is utc
    assert first_written([undated, _claim("inbox/0/n.md", 0, None)]).provenance.line == 0
    assert first_written([]) is None


def test_section3_first_source_is_the_earliest_line(brief: str) -> None:
    row = line_starting(brief, "| 2606.04321 |")
    assert row.endswith(f"| `secondhand` {ZOE}:5 |"), row


def test_offtopic_rows_cite_each_papers_line(brief: str) -> None:
    cites = f"`secondhand` {ZOE}:6；`secondhand` {ZOE}:7；`secondhand` {ZOE}:8"  # in file order
    row = line_starting(brief, "- Sketching recipes for robots（arXiv:2606.05555）、Poems")
    assert row.endswith("不作增量 — " + cites), row
    assert line_starting(brief, "| 2606.05555、2606.06666、2606.07777 |").endswith(f"| {cites} |")


@pytest.fixture(scope="module")
def demo_outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The demo night's brief, ``kb diff`` and ``kb sources`` for the same window."""
    import shutil

    from typer.testing import CliRunner

    from conftest import REPO
    from kb.cli import app

    kb = tmp_path_factory.mktemp("trustdemo") / "demo"
    kb.mkdir()
    shutil.copy2(REPO / "kb.yaml", kb / "kb.yaml")
    for folder in ("organized", "inbox"):
        shutil.copytree(REPO / folder, kb / folder, ignore=shutil.ignore_patterns(".kb"))
    out = {}
    for name, args in {"brief": ["digest", "--out", "-"], "diff": ["diff"],
                       "sources": ["sources", "--since", "2026-07-30T22:00", "--until", "2026-07-31T22:00"]}.items():
        res = CliRunner().invoke(app, [*args, "--kb", str(kb)], env={"COLUMNS": "200"})
        assert res.exit_code == 0, res.output
        out[name] = unlinked(res.stdout)
    return out


def test_source_record_counts_what_kb_sources_counts(demo_outputs: dict[str, str]) -> None:
    """The record's numbers are the ledger's (no dates: jay's TGI date is a §2 row, no number)."""
    assert line_starting(demo_outputs["brief"], "来源记录") == (
        "来源记录（kb sources）：jay：23 个数字（被论文或活文档反驳 0 个），§2 第 1 项与活文档不符、第 2 项与其他来源不符；"
        "spark：8 个数字（被论文或活文档反驳 0 个），§2 无与活文档/论文/其他来源不符的项")
    assert "jay  author  23 numbers  1 backed  0 contradicted" in demo_outputs["sources"]
    assert "spark  author  8 numbers  1 backed  0 contradicted" in demo_outputs["sources"]


def test_diff_splits_secondhand_only_down_to_the_briefs_count(demo_outputs: dict[str, str]) -> None:
    assert ("29 secondhand-only numbers: 8 first-hand cited by the living doc, 3 set-up values or opinions, "
            "2 on a row its author keeps out of the doc, 16 to check (the brief's count); 29 files checked"
            ) in demo_outputs["diff"]
    assert "；仅二手数字 16 个；" in demo_outputs["brief"]


def test_vllm_increment_lists_one_set_of_values(demo_outputs: dict[str, str]) -> None:
    """jay 1620's table: 52.9 tok/s is vLLM's value to add; its 并发 32 row (1,390 / 1,460 tok/s)
    the author keeps out of the doc (line 36): in no list of the brief."""
    brief = demo_outputs["brief"]
    assert "未收这些数值：~1,200 万, 52.9 tok/s, 1,918, 64 个, 1,300 万, 1,400, ~500；" in brief
    assert "⚠ 仅二手数字：~1,200 万、52.9 tok/s、1,918、64 个、1,300 万、1,400、~500\n" in brief
    assert "3. 为 vLLM 找一手来源，核对：52.9 tok/s、1,918、64 个、1,400、~500\n" in brief
    assert "| 4 | SGLang：29%、3.1× 只有摘要转述来源" in brief
    assert "1,390" not in brief and "1,460" not in brief


def test_record_rows_fold_with_their_count() -> None:
    from kb.brief.steps import _rows

    assert _rows([1], "、", "zh") == "第 1 项"
    assert _rows([2, 3, 4, 9], "、", "zh") == "4 项（第 2、3、4… 项）"
    assert _rows([1, 5], ", ", "en") == "rows 1, 5"
    assert _rows([2, 3, 4, 9, 11], ", ", "en") == "5 rows (2, 3, 4…)"


BENCH = """\
# 压缩评测精读（2026-06-10 10:00）

| 场景 | Wren | Finch | 说明 |
|---|---|---|---|
| 单流压缩 | 520 MB/s | 470 MB/s | c7 实例 |
| 并发 16 压缩 | 3,900 MB/s | 3,100 MB/s | c7 实例 |

## 备注

- 并发 16 那一行只跑了一次，不建议入文档。
"""
BENCH_PATH = "inbox/amy/2026-06-10T1000-amy-bench.md"


def test_row_named_by_a_demotion() -> None:
    from kb.extract.caveats import demoted_rows, row_named

    assert row_named("- 并发 16 那一行只跑了一次，不建议入文档。") == "并发 16"
    assert row_named("Don't promote the batch 64 row: one run, not for the doc.") == "batch 64"
    assert row_named("- 并发 16 那一行是新数字。") is None  # no demotion: the row stays
    assert row_named("reportedly 这是社区算力池的价格，SLA 与主流云不可比。") is None  # the line's item, no row
    lines = BENCH.splitlines()
    assert demoted_rows(lines, [10]) == {6}
    assert demoted_rows(lines, [5]) == set()  # a row names no row
    assert demoted_rows(["| 并发 16 A | 1 |", "| 并发 16 B | 2 |", "- 并发 16 那一行不建议入文档"], [3]) == set()  # two rows


@pytest.fixture(scope="module")
def bench_brief(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    from typer.testing import CliRunner

    from kb.cli import app

    files = {**FILES, BENCH_PATH: BENCH,
             "kb.yaml": FILES["kb.yaml"].replace("entities: {Wren: []}", "entities: {Wren: [], Finch: []}")}
    kb = write_files(tmp_path_factory.mktemp("bench") / "kb", files)
    out = []
    for args in (["digest", "--date", "2026-06-10", "--out", "-"], ["diff", "--date", "2026-06-10"]):
        res = CliRunner().invoke(app, [*args, "--kb", str(kb)], env={"COLUMNS": "200"})
        assert res.exit_code == 0, res.output
        out.append(unlinked(res.stdout))
    return out[0], out[1]


def test_table_cells_are_their_columns_values_and_the_demoted_row_none(bench_brief: tuple[str, str]) -> None:
    """A table's cells are values of the column's subject (Wren 520 MB/s: a value to add, as
    its ⚠ list says); the row its author keeps out of the doc adds nothing, asks no check."""
    brief, diff = bench_brief
    assert line_starting(brief, "- 判定：活文档已收该主体，未收这些数值：") == (
        "- 判定：活文档已收该主体，未收这些数值：520 MB/s；建议归入：§1（活文档已收于此：organized/knowledge/storage.md:10）")
    assert line_starting(brief, "- 卡片：无；") == "- 卡片：无；评级：无内部评级；⚠ 仅二手数字：520 MB/s"
    assert line_starting(brief, "- 可操作结论：把") == (
        "- 可操作结论：把 520 MB/s 补入 §1，但这些数字仅二手：先核对一手来源（§2）；【执行人判断：是补充还是取代旧值】")
    assert line_starting(brief, "| 1 | Wren").startswith("| 1 | Wren：520 MB/s 只有摘要转述来源")
    assert ("4 secondhand-only numbers: 2 on a row its author keeps out of the doc, 2 to check (the brief's count)"
            in diff)


MINE = {
    "kb.yaml": ('timezone: "+08:00"\ncutoff: "22:00"\nexecutor: noor\ntopics: {storage: [storage-engines]}\n'
                "entities: {Wren: [], Pika: []}\n"),
    "organized/knowledge/storage.md": (
        "---\ntopic: storage\nversion: 3\nupdated: 2026-06-10T05:00:00+08:00\n---\n# 存储活文档\n\n"
        "## §1 概览\n\n- Wren 与 Pika 是两个常用引擎（来源：https://wren.example.org）。\n\n"
        "## §2 压缩\n\n- Wren 的压缩比 3.1×（来源：inbox/amy/2026-06-01-notes.md）。\n"),
    "inbox/noor/2026-06-10T1500-noor-compress.md": (
        "# 压缩日报（2026-06-10 15:00）\n\n## 1. Wren\n\n"
        "- 据转述，Wren 的压缩比 3.4×，与活文档的 3.1× 不一致。\n\n## 2. Pika\n\n"
        "- Pika 托管版报价 $0.08/GB，这是社区节点的价，SLA 与主流云不可比。\n"),
}


@pytest.fixture(scope="module")
def mine_brief(tmp_path_factory: pytest.TempPathFactory) -> str:
    return digest_brief(tmp_path_factory.mktemp("mine") / "kb", MINE, "2026-06-10")


def test_a_quoted_doc_value_is_the_conflict_not_a_miscopy(mine_brief: str) -> None:
    """'与活文档的 3.1× 不一致' is the conflict row 1 states; no second row says the source called
    3.1× miscopied; the action corrects §2 (where the doc states 3.1×), not §1 (Wren only named)."""
    rows = [x for x in mine_brief.splitlines() if re.match(r"\| \d+ \|", x) and "压缩" not in x[:4]]
    assert [r.split(" | ")[1] for r in rows if r.startswith("| 1 |") or r.startswith("| 2 |")] == [
        "Wren compression_ratio：3.1×（活文档） vs 3.4×（窗口）"]
    assert "抄错" not in mine_brief
    assert line_starting(mine_brief, "- 可操作结论：先裁定") == "- 可操作结论：先裁定 §2 第 1 项（3.4×），再改正 §2；【执行人判断：采信哪个来源】"


def test_a_caveat_is_quoted_not_made_the_authors_verdict(mine_brief: str) -> None:
    row = line_starting(mine_brief, "- Pika【作者降级】")
    assert "kb 因作者的附注（见引文）暂不列为增量" in row and "作者说" not in row


def test_values_kb_lists_are_english_in_the_en_brief() -> None:
    from kb.brief.bounds import in_english

    assert [in_english(x) for x in ("~1,200 万", "1,300 万", "59 万", "1.2 亿", "64 个", "3.4 个百分点", "2 倍",
                                    "8 周", "2025 年 12 月", "2026 年 1 月 5 日", "52.9 tok/s", "3 家公司")] == [
        "~12M", "13M", "590,000", "120M", "64", "3.4 pp", "2×", "8 weeks", "2025-12", "2026-01-05", "52.9 tok/s",
        "3 家公司"]


def test_en_brief_lists_english_values_and_quotes_sources_as_written(tmp_path_factory: pytest.TempPathFactory) -> None:
    import shutil

    from typer.testing import CliRunner

    from conftest import REPO
    from kb.cli import app

    kb = tmp_path_factory.mktemp("trusten") / "demo"
    kb.mkdir()
    shutil.copy2(REPO / "kb.yaml", kb / "kb.yaml")
    for folder in ("organized", "inbox"):
        shutil.copytree(REPO / folder, kb / folder, ignore=shutil.ignore_patterns(".kb"))
    res = CliRunner().invoke(app, ["digest", "--out", "-", "--lang", "en", "--kb", str(kb)])
    assert res.exit_code == 0, res.output
    text = unlinked(res.stdout)
    assert "  2. CADENCE: Coverage-Adaptive On-Policy Distillation under Deployment Drift: add 3.4 pp to §5.1 (increment 2)\n" in text
    assert "3. Find a first-hand source for vLLM and check: 52.9 tok/s, 1,918, 64, 1,400, ~500\n" in text
    assert "| 1 | TGI eol_date: 2025-12 (living doc) vs 2026-01 (living doc) vs 2026-03-21 (window)" in text
    # the source's own line stays as written; kb's flag after it is English
    assert ("6 月 CI 耗用 1,300 万 job minutes，峰值 1,400 并发 runner。 — `secondhand` inbox/spark/2026-07-31-llm-infra-e1prep.md:41; "
            "`secondhand` inbox/spark/2026-07-31-llm-infra-e1prep.md:84 ⚠ secondhand only: 13M, 1,400\n") in text


def test_readers_of_one_primary_source_are_not_where_it_changed(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Two notes citing the project's repository itself disagree: a conflict, and neither author
    is 'where the value changed'; a note that read it through a reprint still is compared."""
    from typer.testing import CliRunner

    from kb.cli import app

    files = {
        "kb.yaml": 'timezone: "+08:00"\nentities: {Wren: []}\n',
        "inbox/amy/2026-06-09T0900-amy.md": ("# 笔记\n\n- Wren 的压缩吞吐为 410 MB/s（来源：https://github.com/wren/wren）。\n"),
        "inbox/bo/2026-06-10T0900-bo.md": ("# 笔记\n\n- Wren 的压缩吞吐为 450 MB/s（来源：https://github.com/wren/wren）。\n"),
    }
    kb = write_files(tmp_path_factory.mktemp("reads") / "kb", files)
    res = CliRunner().invoke(app, ["trace", "Wren", "--kb", str(kb)])
    assert res.exit_code == 0, res.output
    assert "changed at" not in res.stdout and "CHANGED" not in res.stdout
    assert "410 MB/s  inbox/amy/2026-06-09T0900-amy.md:3  ← github.com/wren/wren" in res.stdout
    assert "450 MB/s  inbox/bo/2026-06-10T0900-bo.md:3  ← github.com/wren/wren" in res.stdout


def test_a_rating_line_naming_where_it_goes_is_a_hint() -> None:
    from kb.extract.sections import hinted_section

    assert hinted_section("★★ 建议补：Tidepool 入 §2。") == "§2"
    assert hinted_section("★★ 建议补 试金石 O12") is None
    assert hinted_section("建议补 3 个数字，见 §4 的表") is None  # 见 §4 is a reference, no filing


def test_section_hint_on_the_rating_line_places_the_paper(tmp_path_factory: pytest.TempPathFactory) -> None:
    from typer.testing import CliRunner

    from kb.cli import app

    files = {**FILES, "inbox/amy/2026-06-10T2000-amy-storage.md": (
        "# 存储雷达（2026-06-10 20:00）\n\n- Tidepool（arXiv:2606.04321）把写停顿压到 0.2 s。\n"
        "- ★★ 建议补：Tidepool 入 §1。\n")}
    kb = write_files(tmp_path_factory.mktemp("hint") / "kb", files)
    res = CliRunner().invoke(app, ["digest", "--date", "2026-06-10", "--out", "-", "--kb", str(kb)])
    assert res.exit_code == 0, res.output
    text = unlinked(res.stdout)
    assert line_starting(text, "| 2606.04321 |").split(" | ")[3] == "§1"
    assert line_starting(text, "- 可操作结论：在 §1 新增「Tidepool")
