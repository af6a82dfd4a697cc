"""What a night keeps in the store between runs (issue 11): the Attributor's names and the title
index (kb.store.db.Store.kept, keyed by their inputs), the same as building them afresh, and built
again when a card, an alias or a title changes between two digests."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from conftest import write_files
from kb.extract.names import NameMatcher
from kb.core.paths import STORE_DIR
from kb.store.db import Store

KB_YAML = 'timezone: "+08:00"\ncutoff: "22:00"\ntopics: {inference: [inference-systems]}\nentities: {vLLM: []}\n'
DOC = ("---\ntopic: inference\nversion: 7\nupdated: 2026-07-31T05:00:00+08:00\n---\n# 活文档\n\n## §1 引擎\n\n"
       "- vLLM v0.26\n")
CARD = ('---\ncard: {no}\narxiv: "{id}"\ntitle: "{title}"\naliases: [{aliases}]\ncategory: inference-systems\n'
        "created: {created}\n---\n# {no}\n\n- 论文报告：端到端加速 1.38×。\n")
LOSSY = "organized/paper_cards/900-2607-26627.md"
BENCH = "organized/paper_cards/901-2607-11111.md"
INBOX = "inbox/tom/2026-07-31T0900-hf.md"
FILES = {
    "kb.yaml": KB_YAML,
    "organized/knowledge/inference.md": DOC,
    LOSSY: CARD.format(no=900, id="2607.26627", title="Revisiting Lossy Verification in Speculative Decoding",
                       aliases="", created="2026-07-31T16:30:00+08:00"),
    INBOX: "# 日报\n\n- Lossy Verification 端到端加速 1.42×。\n- SpecBench Plus 吞吐 2.0×。\n",
}
NIGHT = ["diff", "inference", "--date", "2026-07-31", "--format", "json"]


def subjects(run_kb, root: Path) -> dict[str, tuple[str, list[str]]]:  # noqa: ANN001
    """Tonight's subjects -> (outcome, the window files about them), as kb diff reports them."""
    res = run_kb(NIGHT, cwd=root)
    assert res.exit_code == 0, res.stderr
    out = json.loads(res.stdout)
    return {s["key"]: (s["outcome"], sorted(f["path"] for f in out["sources_checked"] if s["key"] in f["outcomes"]))
            for s in out["subjects"]}


def kept_digest(root: Path, name: str) -> str:
    db = sqlite3.connect(root / STORE_DIR / "kb.sqlite")
    try:
        return json.loads(db.execute("SELECT value FROM meta WHERE key=?", (name,)).fetchone()[0])[0]
    finally:
        db.close()


def test_kept_names_follow_an_alias_a_new_card_and_a_renamed_card(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root = write_files(tmp_path / "kb", FILES)
    first = subjects(run_kb, root)
    assert first == {"arxiv:2607.26627": ("net-new", [LOSSY])}  # no name of the card in the inbox line yet
    names, titles = kept_digest(root, "attributor_names_more"), kept_digest(root, "title_index")
    assert subjects(run_kb, root) == first  # read back: the same night
    assert (kept_digest(root, "attributor_names_more"), kept_digest(root, "title_index")) == (names, titles)

    # an alias: the inbox line names the card's paper now
    (root / LOSSY).write_text(FILES[LOSSY].replace("aliases: []", "aliases: [Lossy Verification]"), encoding="utf-8")
    assert subjects(run_kb, root) == {"arxiv:2607.26627": ("net-new", [INBOX, LOSSY])}
    assert kept_digest(root, "attributor_names_more") != names
    assert kept_digest(root, "title_index") != titles

    # a new card (created before the window: not a window file), named by the title before its colon
    (root / BENCH).write_text(CARD.format(no=901, id="2607.11111", title="SpecBench Plus: Benchmarking Drafts",
                                          aliases="", created="2026-07-01T10:00:00+08:00"), encoding="utf-8")
    assert subjects(run_kb, root) == {"arxiv:2607.26627": ("net-new", [INBOX, LOSSY]),
                                      "arxiv:2607.11111": ("supplement", [INBOX])}  # its card is older than the window

    # the card renamed: its old name names nothing any more
    (root / BENCH).write_text(CARD.format(no=901, id="2607.11111", title="SpecBench Max: Benchmarking Drafts",
                                          aliases="", created="2026-07-01T10:00:00+08:00"), encoding="utf-8")
    assert subjects(run_kb, root) == {"arxiv:2607.26627": ("net-new", [INBOX, LOSSY])}


NAMES = {"prefill": "entity:prefill", "Prefill Batch": "arxiv:1", "prefill batch scheduling for MoE": "arxiv:2",
         "prefill batch scheduling": "arxiv:3", "pre": "entity:pre", "vLLM": "entity:vllm", "vllm-mlx": "entity:mlx",
         "前缀 复用": "arxiv:4", "前缀 复用 调度 系统 的 设计": "arxiv:5"}
TEXTS = [
    ("Prefill batch scheduling for MoE gives 2×; prefill batch too, and prefill alone; pre-", [
        ("arxiv:2", 0, 32), ("arxiv:1", 43, 56), ("entity:prefill", 66, 73), ("entity:pre", 81, 84)]),
    ("prefill-batch-scheduling is vllm-mlx on vLLM", [("arxiv:3", 0, 24), ("entity:mlx", 28, 36),
                                                     ("entity:vllm", 40, 44)]),
    ("前缀 复用 调度 系统 的 设计，前缀 复用 调度", [("arxiv:5", 0, 16), ("arxiv:4", 17, 22)]),
]


@pytest.mark.parametrize(("text", "found"), TEXTS)
def test_name_matcher_longest_first_and_from_its_state(text: str, found: list) -> None:
    fresh = NameMatcher(NAMES)
    assert fresh.find(text) == found
    again = NameMatcher.from_state(json.loads(json.dumps(fresh.state())))  # as read back from the store
    assert again.find(text) == found
    assert again.key_of == fresh.key_of


def test_store_kept_builds_once_per_inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kb.store import memos

    monkeypatch.setitem(memos.MEMOS, "memo", "a toy value of this test, keyed by its inputs")
    store = Store(tmp_path, "fp")
    calls: list[int] = []

    def build() -> dict[str, object]:
        calls.append(1)
        return {"n": len(calls), "pair": ("a", "b")}

    assert store.kept("memo", ["x", 1], build) == {"n": 1, "pair": ["a", "b"]}  # its JSON round trip
    assert store.kept("memo", ["x", 1], build) == {"n": 1, "pair": ["a", "b"]}
    assert len(calls) == 1
    assert store.kept("memo", ["x", 2], build) == {"n": 2, "pair": ["a", "b"]}  # other inputs: built again
    assert store.kept("memo", ["x", 1], build) == {"n": 3, "pair": ["a", "b"]}  # one memo per name
    store.close()


INBOX_FILES = {
    "kb.yaml": KB_YAML,
    "organized/knowledge/inference.md": DOC,
    "inbox/jay/2026-07-29T1000-a.md": "# a\n\n- vLLM 吞吐 2.0×。\n",
    "inbox/jay/2026-07-30T1000-b.md": "# b\n\n- vLLM 吞吐 2.1×。\n",
    "inbox/tom/2026-07-31T0900-c.md": "# c\n\n- vLLM 吞吐 2.2×。\n",
    "inbox/tom/2026-08-01-inference-e1prep.md": "# own brief\n\n- vLLM 吞吐 2.3×。\n",  # the topic's own brief
    "inbox/li/2062-07-31T0900-typo.md": "# typo\n\n- vLLM 吞吐 2.4×。\n",  # a stamp decades away
}


@pytest.mark.parametrize("kept", [1, 2, 3, 64])
def test_newest_inbox_night_from_the_kept_newest_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       kept: int) -> None:
    import kb.night.run as nightly
    from datetime import datetime, timedelta, timezone
    from kb.store.workspace import open_kb

    monkeypatch.setattr(nightly, "_NEWEST_KEPT", kept)  # 1-3: the kept files cannot answer: queried
    root = write_files(tmp_path / "kb", INBOX_FILES)
    tz = timezone(timedelta(hours=8))  # kb.yaml's
    kb = open_kb(root)
    try:
        for now, night, future in [
            (datetime(2026, 8, 1, 12, tzinfo=tz), "2026-07-31", ["inbox/li/2062-07-31T0900-typo.md"]),
            (datetime(2026, 7, 30, 0, tzinfo=tz), "2026-07-30", ["inbox/li/2062-07-31T0900-typo.md",
                                                                          "inbox/tom/2026-07-31T0900-c.md",
                                                                          "inbox/tom/2026-08-01-inference-e1prep.md"]),
            (datetime(2026, 7, 27, 0, tzinfo=tz), None, [p for p in sorted(INBOX_FILES) if p.startswith("inbox/")]),
            (datetime(2062, 8, 1, 0, tzinfo=tz), "2062-07-31", []),
        ]:
            del kb.report.problems[:]
            got = nightly.newest_inbox_night(kb, "inference", now)
            assert (got.isoformat() if got else None) == night, now
            assert [p.path for p in kb.report.problems] == future, now
    finally:
        kb.close()


FUZZY_DOC = DOC + "- **Revisiting Lossy Verification for Speculative Decoding**：端到端 1.38×\n"


def test_kept_title_index_follows_a_renamed_card_in_a_fuzzy_citation(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    """The living doc cites the window's card by a title one word off its card's (a fuzzy match
    through the kept word postings of kb.store.titles.TitleIndex.kept): a renamed card is cited no more,
    the old title back is cited again."""
    root = write_files(tmp_path / "kb", {**FILES, "organized/knowledge/inference.md": FUZZY_DOC})
    cited = subjects(run_kb, root)
    assert cited == {"arxiv:2607.26627": ("update", [LOSSY])}  # the doc holds it (by title), a value of its own
    assert subjects(run_kb, root) == cited  # read back
    renamed = FILES[LOSSY].replace("Revisiting Lossy Verification in Speculative Decoding",
                                   "Prefix Caching for Disaggregated Serving")
    (root / LOSSY).write_text(renamed, encoding="utf-8")
    assert subjects(run_kb, root) == {"arxiv:2607.26627": ("net-new", [LOSSY])}
    (root / LOSSY).write_text(FILES[LOSSY], encoding="utf-8")
    assert subjects(run_kb, root) == cited


TITLES = [("arxiv:2607.26627", "Revisiting Lossy Verification in Speculative Decoding"),
          ("arxiv:2607.11111", "SpecBench Plus: Benchmarking Drafts"),
          ("arxiv:2607.22222", "Prefix Caching for Disaggregated Serving")]
CANDIDATES = ["Revisiting Lossy Verification for Speculative Decoding", "SpecBench Plus", "specbench plus: benchmarking drafts",
              "Prefix Caching in Disaggregated Serving Systems", "Something Else Entirely Here", "Lossy"]


def test_kept_title_index_is_the_built_one_and_follows_its_titles(tmp_path: Path) -> None:
    from kb.store.titles import TitleIndex

    store = Store(tmp_path, "fp")
    try:
        fresh = TitleIndex(TITLES, 0.85)
        want = ["arxiv:2607.26627", "arxiv:2607.11111", "arxiv:2607.11111", "arxiv:2607.22222", None, None]
        assert [fresh.match(c) for c in CANDIDATES] == want
        for _ in range(2):  # built and kept, then read back
            kept = TitleIndex.kept(store, TITLES, 0.85)
            assert [kept.match(c) for c in CANDIDATES] == want
            assert kept.postings == fresh.postings
        other = [TITLES[0], ("arxiv:2607.33333", "Prefix Sharing for Multi-Tenant Serving")]
        kept = TitleIndex.kept(store, other, 0.85)  # titles changed: built again
        assert [kept.match(c) for c in CANDIDATES] == ["arxiv:2607.26627", None, None, None, None, None]
        assert kept.match("Prefix Sharing for Multi Tenant Serving Systems") == "arxiv:2607.33333"
    finally:
        store.close()


def test_files_written_is_the_window_of_the_files_rows(tmp_path: Path) -> None:
    """Store.files_written (index files_written) gives the rows a scan of every files row gives:
    since inclusive, until exclusive, only the roles asked, by path."""
    from kb.store.ingest import ingest

    root = write_files(tmp_path / "kb", INBOX_FILES)
    ingest(root)
    from kb.store.workspace import open_kb

    kb = open_kb(root)
    try:
        rows = kb.store.db.execute("SELECT path, role, author, written_at, n_claims FROM files ORDER BY path").fetchall()
        stamps = sorted({r[3] for r in rows if r[3]})
        assert len(stamps) >= 4
        for since, until in [(stamps[0], stamps[-1]), (stamps[1], stamps[2]), (stamps[0], "9999"), ("", stamps[0])]:
            for roles in [("inbox", "card"), ("living-doc",), ("inbox",)]:
                want = [r for r in rows if r[3] is not None and since <= r[3] < until and r[1] in roles]
                assert kb.store.files_written(since, until, roles) == want
        assert [r[0] for r in kb.store.files_written(stamps[0], stamps[-1], ("inbox",))] == [
            "inbox/jay/2026-07-29T1000-a.md", "inbox/jay/2026-07-30T1000-b.md", "inbox/tom/2026-07-31T0900-c.md",
            "inbox/tom/2026-08-01-inference-e1prep.md"]
    finally:
        kb.close()
