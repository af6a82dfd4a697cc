"""``kb card new``: numbering, file name, front matter, skeleton, never overwriting, exit codes."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from conftest_arxiv import KB_YAML, card, fake_arxiv, make_kb  # noqa: F401
from fake_arxiv import FakeArxiv
from kb.store.cards import CardIndex
from kb.read.cards import card_file_name, name_id
from kb.verify.card_new import new_card
from kb.extract.titles import normalize_title, title_similarity
from kb.core.errors import UsageError
from kb.core.frontmatter import split
from kb.core.records import SourceRecord

LOSSY = "Revisiting Lossy Verification in Speculative Decoding"


@pytest.fixture
def kb_with_cards(make_kb: Callable) -> Path:
    a = card(603, "2603.12831", "OmniServe")
    b = card(681, "2607.25380", "Memory for LLMs")
    return make_kb({a[0]: a[1], b[0]: b[1], "organized/paper_cards/README.txt": "not a card\n"})


def add_lossy(fake: FakeArxiv) -> None:
    fake.add("2607.26627v1", LOSSY, authors=["Lin Zhao", "Maria \"MK\" Keller"], primary="cs.CL",
             published="2026-07-24T10:00:00Z")


def test_new_card_zh(run_kb, kb_with_cards: Path, fake_arxiv: FakeArxiv) -> None:
    add_lossy(fake_arxiv)
    res = run_kb(["card", "new", "arXiv:2607.26627", "--kb", str(kb_with_cards)])
    assert res.exit_code == 0, res.stderr
    assert res.stdout == "organized/paper_cards/682-2607-26627.md\n"
    text = (kb_with_cards / "organized/paper_cards/682-2607-26627.md").read_text(encoding="utf-8")
    created = re.search(r"^created: (.+)$", text, re.M).group(1)
    stamp = datetime.fromisoformat(created)
    assert stamp.utcoffset() == timedelta(hours=8)
    assert abs(stamp - datetime.now(timezone.utc)) < timedelta(minutes=1)
    assert text == (
        "---\ncard: 682\narxiv: \"2607.26627\"\n"
        f"title: \"{LOSSY}\"\n"
        "authors: [\"Lin Zhao\", \"Maria \\\"MK\\\" Keller\"]\n"
        "category: \"cs.CL\"\n"
        f"created: {created}\n---\n"
        f"# 682 · {LOSSY}\n\n论文：https://arxiv.org/abs/2607.26627\n\n"
        "## 问题\n\n\n## 方法\n\n\n## 结果\n\n\n## 局限\n"
    )
    fm, _ = split(text, "x.md")
    assert fm.problems == []
    assert fm.data["authors"] == ["Lin Zhao", 'Maria "MK" Keller']
    assert fm.raw["arxiv"] == "2607.26627" and fm.data["card"] == 682


def test_new_card_en_with_category_and_version(run_kb, kb_with_cards: Path, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2607.26627v2", LOSSY, published="2026-07-24T10:00:00Z")
    res = run_kb(["card", "new", "https://arxiv.org/abs/2607.26627v2", "--lang", "en",
                  "--category", "inference-systems", "--kb", str(kb_with_cards)])
    assert res.exit_code == 0, res.stderr
    assert fake_arxiv.id_lists == [["2607.26627v2"]]
    text = (kb_with_cards / "organized/paper_cards/682-2607-26627.md").read_text(encoding="utf-8")
    assert 'arxiv: "2607.26627v2"\n' in text and 'category: "inference-systems"\n' in text
    assert "Paper: https://arxiv.org/abs/2607.26627v2\n" in text
    assert re.findall(r"^## (.+)$", text, re.M) == ["Problem", "Method", "Results", "Limitations"]


def test_new_card_then_verify_finds_it(run_kb, kb_with_cards: Path, fake_arxiv: FakeArxiv) -> None:
    add_lossy(fake_arxiv)
    run_kb(["card", "new", "2607.26627", "--kb", str(kb_with_cards)])
    res = run_kb(["verify", "2607.26627", "--offline", "--format", "json", "--kb", str(kb_with_cards)])
    [item] = json.loads(res.stdout)
    assert (item["status"], item["card"]["path"], item["card"]["similarity"]) == (
        "ok", "organized/paper_cards/682-2607-26627.md", 1.0)
    assert res.exit_code == 0  # answered from the cache card new filled


def test_existing_target_file_is_never_overwritten(run_kb, kb_with_cards: Path, fake_arxiv: FakeArxiv) -> None:
    add_lossy(fake_arxiv)
    target = kb_with_cards / "organized/paper_cards/682-2607-26627.md"
    target.write_bytes(b"")  # an empty placeholder: its file name already names the paper
    res = run_kb(["card", "new", "2607.26627", "--kb", str(kb_with_cards)])
    assert res.exit_code == 2
    assert "2607.26627 already has a card: organized/paper_cards/682-2607-26627.md" in res.stderr
    assert target.read_bytes() == b""


def test_a_file_appearing_before_the_write_is_not_overwritten(tmp_path: Path) -> None:
    """The index did not know the file (written meanwhile): the cards on disk are read again
    under the writer lock, so the paper's card is found and nothing is written."""
    target = tmp_path / "organized/paper_cards/1-2607-26627.md"
    target.parent.mkdir(parents=True)
    target.write_text("mine\n", encoding="utf-8")
    rec = SourceRecord(id="2607.26627", version=1, short_id="2607.26627v1", title="T", authors=[],
                       published=datetime(2026, 7, 24, tzinfo=timezone.utc),
                       updated=datetime(2026, 7, 24, tzinfo=timezone.utc), primary_category="cs.CL")
    with pytest.raises(UsageError, match="2607.26627 already has a card: organized/paper_cards/1-2607-26627.md"):
        new_card(tmp_path, CardIndex(), "2607.26627", lambda key: rec,
                 now=datetime(2026, 8, 1, 10, 0, tzinfo=timezone(timedelta(hours=8))))
    assert target.read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["1-2607-26627.md"]


def test_a_card_written_meanwhile_takes_its_number(tmp_path: Path) -> None:
    """Two ``kb card new`` at once both numbered their card 682 (each from the index its run
    began with); the number is taken from the cards on disk under the writer lock."""
    folder = tmp_path / "organized/paper_cards"
    folder.mkdir(parents=True)
    (folder / "7-2607-11111.md").write_text("another run's card\n", encoding="utf-8")
    rec = SourceRecord(id="2607.26627", version=1, short_id="2607.26627v1", title="T", authors=[],
                       published=datetime(2026, 7, 24, tzinfo=timezone.utc),
                       updated=datetime(2026, 7, 24, tzinfo=timezone.utc), primary_category="cs.CL")
    path = new_card(tmp_path, CardIndex(), "2607.26627", lambda key: rec,
                    now=datetime(2026, 8, 1, 10, 0, tzinfo=timezone(timedelta(hours=8))))
    assert path.name == "8-2607-26627.md"
    assert sorted(p.name for p in folder.iterdir()) == ["7-2607-11111.md", "8-2607-26627.md"]


def test_paper_with_a_card_gets_no_second_one(run_kb, kb_with_cards: Path, fake_arxiv: FakeArxiv) -> None:
    before = sorted(p.name for p in (kb_with_cards / "organized/paper_cards").iterdir())
    res = run_kb(["card", "new", "2607.25380v2", "--kb", str(kb_with_cards)])
    assert res.exit_code == 2
    assert "2607.25380 already has a card: organized/paper_cards/681-2607-25380.md" in res.stderr
    assert sorted(p.name for p in (kb_with_cards / "organized/paper_cards").iterdir()) == before
    assert fake_arxiv.log == []


def test_not_found_invalid_unavailable(run_kb, kb_with_cards: Path, fake_arxiv: FakeArxiv) -> None:
    res = run_kb(["card", "new", "2607.99999", "--kb", str(kb_with_cards)])
    assert (res.exit_code, "arXiv has no paper 2607.99999" in res.stderr) == (1, True)
    res = run_kb(["card", "new", "2313.00001", "--kb", str(kb_with_cards)])
    assert (res.exit_code, "month 13 does not exist" in res.stderr) == (2, True)
    fake_arxiv.always_status = 429
    res = run_kb(["card", "new", "2607.26627", "--kb", str(kb_with_cards)])
    assert res.exit_code == 3
    assert "2607.26627: arXiv HTTP 429 after retries; the card needs arXiv's metadata" in res.stderr
    assert "Traceback" not in res.stderr
    n = len(fake_arxiv.log)
    assert run_kb(["card", "new", "2607.26627", "--offline", "--kb", str(kb_with_cards)]).exit_code == 3
    assert len(fake_arxiv.log) == n
    assert not (kb_with_cards / "organized/paper_cards/682-2607-26627.md").exists()


def test_old_style_id_and_timezone(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    root = make_kb({}, kb_yaml=KB_YAML.replace('"+08:00"', '"-05:00"'))
    fake_arxiv.add("hep-th/9901001v1", "Old paper", primary="hep-th", published="1999-01-04T00:00:00Z")
    res = run_kb(["card", "new", "hep-th/9901001", "--lang", "en", "--kb", str(root)])
    assert res.stdout == "organized/paper_cards/1-hep-th-9901001.md\n"
    text = (root / "organized/paper_cards/1-hep-th-9901001.md").read_text(encoding="utf-8")
    assert re.search(r"^created: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-05:00$", text, re.M)
    assert 'arxiv: "hep-th/9901001"' in text


def test_withdrawn_paper_warns(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2501.01234v3", "T", comment="This paper has been withdrawn")
    res = run_kb(["card", "new", "2501.01234", "--kb", str(make_kb({}))])
    assert res.exit_code == 0
    assert "warning: 2501.01234 is withdrawn on arXiv: This paper has been withdrawn" in res.stderr


@pytest.mark.parametrize(("name", "expected"), [
    ("681-2607-26627.md", (681, "2607.26627")),
    ("12-hep-th-9901001.md", (12, "hep-th/9901001")),
    ("7-math.GT-0309136.md", (7, "math.GT/0309136")),
    ("5-0704-0001.md", (5, "0704.0001")),
    ("681-lossy.md", (None, None)),  # not the card pattern: no number either
    ("2607-30009.md", (None, None)),  # an id only: never card 2607
    ("notes.md", (None, None)),
])
def test_name_id(name: str, expected: tuple) -> None:
    assert name_id(name) == expected
    if expected[1]:
        assert card_file_name(expected[0], expected[1]) == name


def test_help(run_kb) -> None:
    res = run_kb(["card", "new", "--help"])
    assert res.exit_code == 0 and "Example:" in res.stdout and "--lang" in res.stdout


@pytest.mark.parametrize("title,expected", [
    ("Attention in $\\mathcal{O}(n)$ Time", "attention in o n time"),
    ("\\textit{FlashAttention}--Fast and {Memory}-Efficient", "flashattention fast and memory efficient"),
    ("ＦｌａｓｈＡｔｔｅｎｔｉｏｎ：Ｆａｓｔ", "flashattention fast"),
    ("Schr\\\"odinger Bridges", "schrodinger bridges"),
    ("Schrödinger  bridges", "schrodinger bridges"),
    ("大模型 推理 加速：综述", "大模型推理加速综述"),
    ("リンゴ が好き", "リンゴが好き"),  # kana keep their voicing mark
    ("...", ""),
])
def test_normalize_title(title: str, expected: str) -> None:
    assert normalize_title(title) == expected


@pytest.mark.parametrize("a,b,score", [
    ("ＦｌａｓｈＡｔｔｅｎｔｉｏｎ：Ｆａｓｔ and Memory-Efficient Exact Attention",
     "FlashAttention: Fast and Memory-Efficient Exact Attention", 1.0),
    ("Attention in $\\mathcal{O}(n)$ Time", "Attention in O(n) time", 1.0),
    ("\\textit{Fast} Inference from {Transformers} via Speculative Decoding -- Revisited",
     "Fast Inference from Transformers via Speculative Decoding: Revisited", 1.0),
    ("大模型推理加速综述", "大模型 推理加速：一个综述", 0.9),
    ("Bole", "Bole: Tree Speculation for Hybrid Attention", 1.0),  # the title before the colon
    ("Bole: Tree Speculation", "Bole: Tree Speculation for Hybrid Attention", 0.667),  # both have one
    ("SnapKV: LLM Knows What You are Looking for", "Scissorhands: Exploiting the Persistence", 0.325),
])
def test_title_similarity_exact_scores(a: str, b: str, score: float) -> None:
    assert title_similarity(a, b) == score
    assert title_similarity(b, a) == score


def test_load_cards_reads_front_matter_once_and_keeps_bad_ids(make_kb: Callable) -> None:
    from kb.store.cards import load_cards
    from kb.store.workspace import open_kb

    a = card(603, "2603.12831v2", "OmniServe: Serving")
    root = make_kb({a[0]: a[1] + "", "organized/paper_cards/7-2601-00001.md":
                    '---\ncard: 7\narxiv: "not-an-id"\ntitle: Broken\naliases: [Br]\nalso: agent\n---\n# x\n'})
    kb = open_kb(root)
    try:
        cards = load_cards(kb.store)
        assert [(c.path, c.key, c.arxiv_id, c.version, c.number, c.name_id, c.title, c.aliases, c.also)
                for c in cards] == [
            ("organized/paper_cards/603-2603-12831.md", "arxiv:2603.12831", "2603.12831", 2, 603, "2603.12831",
             "OmniServe: Serving", (), ()),
            ("organized/paper_cards/7-2601-00001.md", None, None, None, 7, "2601.00001", "Broken", ("Br",), ("agent",)),
        ]
        assert cards[0].names() == ["OmniServe: Serving", "OmniServe"]
        assert cards[0].created == "2026-07-31T16:30:00+08:00"
        assert load_cards(kb.store) is cards  # cached while the store is unchanged
        index = CardIndex.from_store(kb.store)
        assert (list(index.by_front), list(index.by_name), index.max_number()) == (
            ["2603.12831"], ["2603.12831", "2601.00001"], 603)
    finally:
        kb.close()


def test_a_card_version_that_is_no_version_is_reported_with_its_line() -> None:
    """A breaker's find: ``arxiv_version: abc`` was ignored without a word."""
    from kb.read.cards import pinned_version
    from kb.core.config import KbConfig
    from kb.read.parse import Parser

    assert [pinned_version(v) for v in (2, "v3", " V4 ", None)] == [2, 3, 4, None]
    assert [pinned_version(v) for v in ("abc", 0, True, [2])] == ["abc", "0", "True", "[2]"]
    text = '---\ncard: 1\narxiv: "2608.01234"\ntitle: "T"\narxiv_version: abc\n---\n# T\n'
    parsed = Parser(KbConfig()).parse_text("organized/paper_cards/1-2608-01234.md", text)
    assert [(p.line, p.message) for p in parsed.problems] == [
        (5, "arxiv_version: 'abc' is not a version (e.g. 2 or v2); the card names no version")]
