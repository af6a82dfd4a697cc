"""Version-pinned facts (issue 10 part 2): a paper revised twice, a withdrawn paper, KB118.

The KB is tests/revised_kb.py; arXiv is the fake server serving the fresh Atom fixtures of
tests/fixtures/arxiv-revised (2608.01234 v1 → v3, 2026-08-20; 2608.05678 v2 withdrawn).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest_arxiv import fake_arxiv, real_atom  # noqa: F401
from fake_arxiv import FakeArxiv
from revised_kb import FIXTURES, write_revised_kb

KV = "2608.01234"
PREFILL = "2608.05678"
CARD = "organized/paper_cards/701-2608-01234.md"
JAY = "inbox/jay/2026-08-05-kvflow.md"
TOM = "inbox/tom/2026-08-21-kvflow-v3.md"
DOC = "organized/knowledge/inference.md"


@pytest.fixture
def kb_root(tmp_path: Path) -> Path:
    return write_revised_kb(tmp_path / "kb")


@pytest.fixture
def served(fake_arxiv: FakeArxiv) -> FakeArxiv:
    fake_arxiv.add_dir(FIXTURES)
    return fake_arxiv


def verify_json(run_kb, root: Path, *args: str) -> tuple[int, dict[str, dict], str]:
    res = run_kb(["verify", *args, "--format", "json", "--kb", str(root)])
    return res.exit_code, {i["input"]: i for i in json.loads(res.stdout)}, res.stderr


def test_revised_twice_lists_the_claim_pinned_to_v1_and_the_card_written_from_v2(run_kb, kb_root, served) -> None:
    code, items, _ = verify_json(run_kb, kb_root, KV)
    assert code == 0  # warnings only
    item = items[KV]
    assert item["status"] == "ok"
    assert item["arxiv"]["latest_version"] == 3 and item["arxiv"]["updated"] == "2026-08-20T14:05:10+00:00"
    revised = item["revised"]
    assert (revised["latest_version"], revised["latest_date"]) == (3, "2026-08-20")
    assert [(p["path"], p["line"], p["version"], p["kind"], p["card"]) for p in revised["pinned"]] == [
        (CARD, 3, 2, None, True),
        (JAY, 3, 1, "secondhand", False),
        (DOC, 12, 1, "paper-fact", False),
    ]
    assert revised["pinned"][0]["message"] == "paper revised (v2 → v3, 2026-08-20): re-check"
    assert revised["pinned"][1]["message"] == "paper revised (v1 → v3, 2026-08-20): re-check"
    # the places citing v3 are mentions, never pins
    pinned = {(p["path"], p["line"]) for p in revised["pinned"]}
    v3 = [(m["path"], m["line"]) for m in item["mentions"] if m["version"] == 3]
    assert v3 == [(TOM, 3), (DOC, 13)] and not pinned & set(v3)
    assert [c["message"] for c in item["checks"] if c["code"] == "paper-revised"] == [
        f"paper revised (v2 → v3, 2026-08-20): re-check: {CARD}:3 (card written from it)",
        f"paper revised (v1 → v3, 2026-08-20): re-check: {JAY}:3",
        f"paper revised (v1 → v3, 2026-08-20): re-check: {DOC}:12",
    ]
    assert run_kb(["verify", KV, "--strict", "--offline", "--kb", str(kb_root)]).exit_code == 1


def test_revised_in_text_output_and_from_the_cache_for_a_versioned_ask(run_kb, kb_root, served) -> None:
    res = run_kb(["verify", KV, "--kb", str(kb_root)])
    assert f"2608.01234: OK (paper revised (v2 → v3, 2026-08-20): re-check: {CARD}:3 (card written from it); " in res.stdout
    assert f"warning: paper revised (v1 → v3, 2026-08-20): re-check: {JAY}:3" in res.stdout
    # asked for v1 offline: the API would describe v1 only; the cached bare answer says v3 is the latest
    code, items, _ = verify_json(run_kb, kb_root, f"{KV}v1", "--offline")
    assert code == 3  # v1 itself was never fetched
    assert [(p["path"], p["line"]) for p in items[f"{KV}v1"]["revised"]["pinned"]] == [(CARD, 3), (JAY, 3), (DOC, 12)]


def test_an_unrevised_paper_has_no_revised_block(run_kb, kb_root, served) -> None:
    served.entries.pop("2608.01234v3")
    served.entries.pop("2608.01234v2")
    _, items, _ = verify_json(run_kb, kb_root, KV)
    # v1 is arXiv's latest: the card names v2, above it (version-newer), nothing is pinned below it
    assert items[KV]["revised"] is None
    assert items[KV]["status"] == "mismatch"
    assert items[KV]["reasons"] == [f"{TOM}:3 cites v3 but arXiv's latest is v1",
                                    f"{DOC}:13 cites v3 but arXiv's latest is v1",
                                    f"{CARD}:3 cites v2 but arXiv's latest is v1"]


def test_withdrawn_paper_lists_every_dependent_claim_and_doc_line(run_kb, kb_root, served) -> None:
    code, items, _ = verify_json(run_kb, kb_root, PREFILL)
    assert code == 1
    item = items[PREFILL]
    assert item["status"] == "withdrawn" and item["arxiv"]["withdrawn"] is True
    assert item["revised"] is None  # a withdrawal is no revision to re-check against
    assert item["reasons"] == ["v2 withdrawn: This paper has been withdrawn by the authors due to an error in "
                               "the evaluation of Section 4"]
    assert [(d["path"], d["line"], d["role"], d["kind"]) for d in item["dependents"]] == [
        (JAY, 4, "inbox", "secondhand"),
        (DOC, 15, "living-doc", None),           # the heading ### §2.2 Speculative Prefill（arXiv:2608.05678）
        (DOC, 17, "living-doc", "paper-fact"),   # under that heading, no id of its own
        (DOC, 18, "living-doc", "internal-rating"),
        ("organized/paper_cards/702-2608-05678.md", 3, "card", None),
        ("organized/paper_cards/702-2608-05678.md", 10, "card", "paper-fact"),
    ]
    assert item["dependents"][2]["text"] == "论文报告 TTFT 降低 35%。"
    res = run_kb(["verify", PREFILL, "--offline", "--kb", str(kb_root)])
    assert "  withdrawn: 6 places depend on it" in res.stdout
    assert f"    {DOC}:17  paper-fact  论文报告 TTFT 降低 35%。" in res.stdout
    # a paper that is not withdrawn has no dependents listed
    _, items, _ = verify_json(run_kb, kb_root, KV, "--offline")
    assert items[KV]["dependents"] == []


def test_lint_kb118_uses_the_cached_latest_version(run_kb, kb_root, served) -> None:
    def findings() -> list[tuple[int, int | None, str]]:
        res = run_kb(["lint", str(kb_root / DOC), "--select", "KB118", "--format", "json"])
        return [(f["line"], f["column"], f["message"]) for f in json.loads(res.stdout)]

    # before kb verify: the latest the KB knows is the card's v2
    assert findings() == [
        (12, 26, f"arXiv:2608.01234v1: paper revised (v1 → v2): re-check (v2 named by {CARD})"),
    ]
    run_kb(["verify", KV, PREFILL, "--kb", str(kb_root)])
    assert findings() == [
        (12, 26, "arXiv:2608.01234v1: paper revised (v1 → v3, 2026-08-20): re-check"),
        (18, 42, "arXiv:2608.05678v1: paper withdrawn (v1 → v2 withdrawn, 2026-08-18): re-check"),
    ]


def test_cache_keeps_the_higher_latest_version(run_kb, kb_root, served) -> None:
    run_kb(["verify", KV, "--kb", str(kb_root)])
    served.entries.pop("2608.01234v3")  # a stale mirror answers v2 as the latest
    code, items, err = verify_json(run_kb, kb_root, KV, "--refresh")
    assert items[KV]["arxiv"]["version"] == 3 and items[KV]["revised"]["latest_version"] == 3
    assert "2608.01234: arXiv answered v2 at " in err and "below the cached latest v3" in err
    assert "stale-cache" in [c["code"] for c in items[KV]["checks"]]


def test_card_arxiv_version_key_names_the_version_written_from() -> None:
    from kb.read.cards import card_from_row

    path = "organized/paper_cards/702-2608-05678.md"
    assert card_from_row(path, {"arxiv": "2608.05678", "arxiv_version": 2}).version == 2
    assert card_from_row(path, {"arxiv": "2608.05678", "arxiv_version": "v3"}).version == 3
    assert card_from_row(path, {"arxiv": "2608.05678v1", "arxiv_version": 2}).version == 1  # the id's own wins
    assert card_from_row(path, {"arxiv": "2608.05678", "arxiv_version": "latest"}).version is None


def test_real_revised_atom_entry(run_kb, tmp_path: Path, fake_arxiv: FakeArxiv, real_atom: Path) -> None:
    """The real 2016 answer for 1111.2011v2 (published 2011-11-08, v2 updated 2012-04-02)."""
    fake_arxiv.add_file(real_atom / "lukasschwab_arxiv.py@0b39136-2016-10-09-id_list_1111.2011v2.xml")
    root = tmp_path / "real"
    (root / "inbox" / "ana").mkdir(parents=True)
    (root / "kb.yaml").write_text("timezone: \"+00:00\"\n", encoding="utf-8")
    (root / "inbox" / "ana" / "2012-05-01-bethe.md").write_text(
        "# Bethe lattice\n\n- 据 arXiv:1111.2011v1，上临界维数降低 1。\n", encoding="utf-8")
    _, items, _ = verify_json(run_kb, root, "1111.2011")
    revised = items["1111.2011"]["revised"]
    assert (revised["latest_version"], revised["latest_date"]) == (2, "2012-04-02")
    assert [(p["path"], p["line"], p["version"]) for p in revised["pinned"]] == [("inbox/ana/2012-05-01-bethe.md", 3, 1)]


def test_docs_json_shape_is_the_real_output(run_kb, kb_root, served) -> None:
    """The JSON of docs/verify.md "Revised and withdrawn papers" is what kb prints on this KB."""
    import re

    text = (Path(__file__).resolve().parents[1] / "docs" / "verify.md").read_text(encoding="utf-8")
    section = text.split("## Revised and withdrawn papers", 1)[1].split("\n## ", 1)[0]
    [block] = re.findall(r"```json\n(.*?)```", section, re.S)
    doc = json.loads(block)
    _, items, _ = verify_json(run_kb, kb_root, KV, PREFILL)
    real_revised, real_deps = items[KV]["revised"], items[PREFILL]["dependents"]
    assert set(doc["revised"]) == set(real_revised)
    assert {k: v for k, v in doc["revised"].items() if k != "pinned"} == {
        k: v for k, v in real_revised.items() if k != "pinned"}
    assert all(p in real_revised["pinned"] for p in doc["revised"]["pinned"])
    assert all(d in real_deps for d in doc["dependents"]) and set(doc["dependents"][0]) == set(real_deps[0])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_brief_section_6_lists_revised_and_withdrawn_papers(run_kb, kb_root, served, lang: str) -> None:
    before = run_kb(["digest", "inference", "--date", "2026-08-21", "--out", "-", "--executor", "lead",
                     "--lang", lang, "--kb", str(kb_root)])
    assert before.exit_code == 0 and "2608.05678" not in before.stdout  # nothing cached: no block
    run_kb(["verify", "--all", "--kb", str(kb_root)])
    res = run_kb(["digest", "inference", "--date", "2026-08-21", "--out", "-", "--executor", "lead",
                  "--lang", lang, "--kb", str(kb_root)])
    assert res.exit_code == 0, res.stderr
    six = res.stdout.split("## 6.", 1)[1].split("## 7.", 1)[0]
    title = "KVFlow: Adaptive KV Cache Streaming for Long-Context Serving"
    withdrawn = "This paper has been withdrawn by the authors due to an error in the evaluation of Section 4"
    if lang == "zh":
        assert (f"- arXiv:2608.01234（{title}）论文已修订（v1 → v3，2026-08-20）：请重新核对 "
                f"{CARD}、{DOC}:12\n") in six
        assert (f"- arXiv:2608.05678（Speculative Prefill with Draft-Free Verification）v2 已撤回（2026-08-18：{withdrawn}）："
                f"依赖它的 3 处需重新核对：{DOC}:15、{DOC}:17、{DOC}:18\n") in six
    else:
        assert f"- arXiv:2608.01234 ({title}) paper revised (v1 → v3, 2026-08-20): re-check {CARD}, {DOC}:12\n" in six
        assert (f"- arXiv:2608.05678 (Speculative Prefill with Draft-Free Verification) v2 withdrawn (2026-08-18: "
                f"{withdrawn}): re-check what depends on it (3): {DOC}:15, {DOC}:17, {DOC}:18\n") in six
    assert not any(TOM in line for line in six.splitlines() if line.startswith("- arXiv:"))  # it cites v3
