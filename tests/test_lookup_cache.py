"""What a look-up keeps in the store between runs (issue 11): the cards as built
(kb.store.cards.load_cards), the claim count (Store.count_claims), and the ingest lock's record;
each equal to what building or counting afresh gives, and renewed when a card or file changes."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from conftest import write_files
from kb.store.cards import _CACHE, card_titles, load_cards
from kb.read.cards import card_from_row
from kb.core.paths import STORE_DIR
from kb.store.locks import writer_lock
from kb.store.workspace import open_kb

CARD = ('---\ncard: {no}\narxiv: "{id}"\ntitle: "{title}"\naliases: [{aliases}]\ncategory: inference-systems\n'
        'created: 2026-07-31T16:30:00+08:00\n---\n# {no} · {title}\n\n- 吞吐 2.1×\n')
FILES = {
    "kb.yaml": "topics: [inference]\n",
    "organized/paper_cards/603-2603-12831.md": CARD.format(no=603, id="2603.12831v2", title="OmniServe: Serving",
                                                           aliases="Omni"),
    "organized/paper_cards/7-2601-00001.md": CARD.format(no=7, id="not-an-id", title="Broken", aliases=""),
    "inbox/jay/2026-07-31-a.md": "# a\n\n- OmniServe 吞吐 2.1×（arXiv:2603.12831）\n- Omni TTFT 降低 20%\n",
}


def built(root: Path) -> list:
    """The cards as card_from_row builds them from the store's rows now."""
    db = sqlite3.connect(root / STORE_DIR / "kb.sqlite")
    try:
        return [card_from_row(p, json.loads(f), w) for p, f, w in
                db.execute("SELECT path, front, written_at FROM files WHERE role='card' ORDER BY path")]
    finally:
        db.close()


def kept(root: Path) -> list:
    """The cards a new run reads (the in-process cache emptied: as a new kb process)."""
    kb = open_kb(root)
    try:
        _CACHE.clear()
        return load_cards(kb.store)
    finally:
        kb.close()


def test_kept_cards_are_the_built_cards_and_follow_a_changed_card(tmp_path: Path) -> None:
    root = write_files(tmp_path / "kb", FILES)
    first = kept(root)
    assert [(c.path, c.key, c.version, c.aliases) for c in first] == [
        ("organized/paper_cards/603-2603-12831.md", "arxiv:2603.12831", 2, ("Omni",)),
        ("organized/paper_cards/7-2601-00001.md", None, None, ())]
    db = sqlite3.connect(root / STORE_DIR / "kb.sqlite")
    assert db.execute("SELECT 1 FROM meta WHERE key='cards'").fetchone() is not None
    db.close()
    again = kept(root)  # read back from the store
    assert again == first == built(root)
    write_files(root, {"organized/paper_cards/603-2603-12831.md": CARD.format(
        no=603, id="2603.12831", title="OmniServe: Serving", aliases="Omni, OS-1")})
    changed = kept(root)
    assert changed == built(root)
    assert (changed[0].aliases, changed[0].version) == (("Omni", "OS-1"), None)
    (root / "organized/paper_cards/7-2601-00001.md").unlink()
    assert [c.path for c in kept(root)] == ["organized/paper_cards/603-2603-12831.md"]


def test_a_kept_card_list_of_other_code_is_not_read(tmp_path: Path) -> None:
    root = write_files(tmp_path / "kb", FILES)
    kept(root)
    db = sqlite3.connect(root / STORE_DIR / "kb.sqlite")
    stamp, rows, titles = json.loads(db.execute("SELECT value FROM meta WHERE key='cards'").fetchone()[0])
    assert titles == ["omniserve serving", "broken"]
    rows[0][2], titles[0] = "Stale Title", "stale title"
    db.execute("UPDATE meta SET value=? WHERE key='cards'", (json.dumps([["older code", *stamp[1:]], rows, titles]),))
    db.commit()
    db.close()
    assert [c.title for c in kept(root)] == ["OmniServe: Serving", "Broken"]
    kb = open_kb(root)
    try:
        assert card_titles(kb.store) == ["omniserve serving", "broken"]
    finally:
        kb.close()


def test_claim_count_is_kept_until_a_file_changes(tmp_path: Path) -> None:
    root = write_files(tmp_path / "kb", FILES)

    def count() -> tuple[int, int]:
        kb = open_kb(root)
        try:
            return kb.report.claims, kb.store.db.execute("SELECT count(*) FROM claims").fetchone()[0]
        finally:
            kb.close()

    n, real = count()
    assert n == real == 4
    assert count() == (4, 4)
    write_files(root, {"inbox/jay/2026-08-01-b.md": "# b\n\n- OmniServe 再快 1.2×\n"})
    assert count() == (5, 5)
    (root / "inbox/jay/2026-07-31-a.md").unlink()
    assert count() == (3, 3)


def test_the_lock_record_names_the_holder_without_truncating(tmp_path: Path) -> None:
    root = tmp_path / "kb"
    lock = root / STORE_DIR / "ingest.lock"
    lock.parent.mkdir(parents=True)
    lock.write_text("123456789012345678901234567890\n")  # a longer record of an earlier holder
    with writer_lock(root):
        text = lock.read_text()
    assert text.strip().split()[0] == str(os.getpid())
    assert text.startswith(f"{os.getpid():<20}\n")


def test_kb_yaml_is_parsed_once_per_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import kb.core.frontmatter
    from kb.core.config_kept import PARSED_NAME
    from kb.core.config import load_config
    from kb.core.errors import ConfigError

    root = write_files(tmp_path / "kb", {"kb.yaml": "topics: [inference]\nentities:\n  TGI: [Text Generation Inference]\n"})
    (root / ".kb").mkdir()
    first = load_config(root)
    assert json.loads((root / PARSED_NAME).read_text(encoding="utf-8"))["data"] == {
        "topics": ["inference"], "entities": {"TGI": ["Text Generation Inference"]}}

    def no_yaml(*args: object, **kwargs: object) -> None:
        raise AssertionError("kb.yaml parsed again")

    with monkeypatch.context() as m:
        m.setattr(kb.core.frontmatter, "load_yaml", no_yaml)
        assert load_config(root) == first  # the same text: its kept data, validated again
    write_files(root, {"kb.yaml": "topics: [rag]\n"})
    assert load_config(root).topic_names() == ["rag"]
    write_files(root, {"kb.yaml": "topics: [rag]\nbogus: 1\n"})
    with pytest.raises(ConfigError, match=r"line 2: unknown key 'bogus'"):
        load_config(root)
    write_files(root, {"kb.yaml": "topics: [rag\n"})
    with pytest.raises(ConfigError, match=r"kb.yaml"):
        load_config(root)


def test_heading_texts_are_the_files_headings(demo_kb: Path) -> None:
    kb = open_kb(demo_kb)
    try:
        texts = kb.store.heading_texts("living-doc")
        assert texts == [h.get("text", "") for f in kb.store.files(role="living-doc") for h in f.headings]
        assert "§2.4 FlashInfer（arXiv:2606.20295）" in texts
    finally:
        kb.close()


def test_kept_values_of_another_shape_are_built_again(tmp_path: Path) -> None:
    root = write_files(tmp_path / "kb", FILES)
    want = kept(root)
    db = sqlite3.connect(root / STORE_DIR / "kb.sqlite")
    db.execute("UPDATE meta SET value='[\"an older kb\", []]' WHERE key='cards'")
    db.execute("INSERT OR REPLACE INTO meta VALUES ('claims_count', '{\"n\": 99}')")
    db.commit()
    db.close()
    assert kept(root) == want
    kb = open_kb(root)
    try:
        assert kb.store.count_claims() == 4
    finally:
        kb.close()


def test_a_no_change_ingest_compares_one_signature(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kb.store.ingest import ingest
    from kb.store.db import Store

    root = write_files(tmp_path / "kb", FILES)
    assert ingest(root).parsed == 3
    with monkeypatch.context() as m:
        def no_rows(self: Store) -> None:
            raise AssertionError("compared file by file")

        m.setattr(Store, "file_stats", no_rows)
        report = ingest(root)
        assert (report.parsed, report.unchanged, report.removed, report.claims) == (0, 3, 0, 4)
    (root / "inbox/jay/2026-07-31-a.md").write_text("# a\n\n- OmniServe 吞吐 2.2×\n", encoding="utf-8")
    report = ingest(root)  # a changed file: compared file by file, parsed again
    assert (report.parsed, report.unchanged, report.claims) == (1, 2, 3)
    os.utime(root / "inbox/jay/2026-07-31-a.md")  # new times, same content: touched, not parsed
    report = ingest(root)
    assert (report.parsed, report.unchanged) == (0, 3)
    db = sqlite3.connect(root / STORE_DIR / "kb.sqlite")
    try:
        st = (root / "inbox/jay/2026-07-31-a.md").stat()
        assert db.execute("SELECT mtime_ns FROM files WHERE path='inbox/jay/2026-07-31-a.md'").fetchone()[0] == st.st_mtime_ns
    finally:
        db.close()


def test_the_no_change_path_without_a_config_gives_way_on_any_change(tmp_path: Path) -> None:
    from kb.store.ingest import ingest
    from kb.store.fresh import unchanged_store

    root = write_files(tmp_path / "kb", FILES)
    assert unchanged_store(root) is None  # no store yet
    ingest(root)
    ingest(root)  # kb.yaml's data and validated dump kept (.kb/ exists now)
    report = unchanged_store(root)
    assert report is not None and (report.parsed, report.unchanged, report.claims) == (0, 3, 4)
    assert report.summary() == ingest(root).summary() == "0 parsed, 3 unchanged, 0 failed; 4 claims"
    write_files(root, {"inbox/jay/2026-08-01-b.md": "# b\n\n- OmniServe 再快 1.2×\n"})
    assert unchanged_store(root) is None  # a new file: the full path parses it
    assert ingest(root).parsed == 1
    assert unchanged_store(root) is not None
    write_files(root, {"kb.yaml": "topics: [inference]\ntolerance: 0.05\n"})
    assert unchanged_store(root) is None  # another kb.yaml: read and validated, then every file parsed again
    db = sqlite3.connect(root / STORE_DIR / "kb.sqlite")
    assert db.execute("SELECT count(*) FROM claims").fetchone()[0] == 5  # nothing emptied by the look
    db.close()
    assert ingest(root).parsed == 4


def _subject_lines(run_kb, root: Path, subject: str) -> list[tuple[str, int]]:  # noqa: ANN001
    return sorted((c["provenance"]["path"], c["provenance"]["line"]) for c in map(json.loads, run_kb(
        ["claims", "--subject", subject, "--format", "jsonl"], cwd=root).stdout.splitlines()))


def test_a_state_left_never_comes_back_under_the_same_stamp(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    """breaker6 F1/F2: a stamp of row count, highest rowid and that row came back after the
    newest file was removed, another changed and the newest put back, so the name-hit memo and
    the kept cards served the state before. The write generation (a trigger per files row
    change) moves on every change."""
    weekly, note = demo_kb / "inbox/jay/2026-07-31-csdn-weekly.md", demo_kb / "inbox/jay/2026-07-31-note.md"
    run_kb(["ingest"], cwd=demo_kb)
    with weekly.open("a", encoding="utf-8") as f:
        f.write("\n")
    run_kb(["ingest"], cwd=demo_kb)
    note.write_text("- 今天没有新进展。\n", encoding="utf-8")
    run_kb(["ingest"], cwd=demo_kb)
    before = _subject_lines(run_kb, demo_kb, "arXiv:2603.12831")  # fills the memo
    kept = note.read_text(encoding="utf-8")
    note.unlink()
    with weekly.open("a", encoding="utf-8") as f:
        f.write("- OmniServe 在我们的测试中吞吐达到 999 tok/s。\n")
    run_kb(["ingest"], cwd=demo_kb)
    note.write_text(kept, encoding="utf-8")
    run_kb(["ingest"], cwd=demo_kb)
    after = _subject_lines(run_kb, demo_kb, "arXiv:2603.12831")
    added = ("inbox/jay/2026-07-31-csdn-weekly.md", len(weekly.read_text(encoding="utf-8").splitlines()))
    assert after == sorted([*before, added])  # the new OmniServe line (its card alias) is found

    # the kept cards: remove the newest card, change another, put the first back
    cards = demo_kb / "organized/paper_cards"
    newest, other = cards / "681-2607-26627.md", cards / "680-2607-26533.md"
    run_kb(["diff", "inference", "--date", "2026-07-31", "--format", "json"], cwd=demo_kb)
    text = newest.read_text(encoding="utf-8")
    newest.unlink()
    other.write_text(other.read_text(encoding="utf-8").replace("category: rag", "category: inference-systems"),
                     encoding="utf-8")
    run_kb(["ingest"], cwd=demo_kb)
    newest.write_text(text, encoding="utf-8")
    out = json.loads(run_kb(["diff", "inference", "--date", "2026-07-31", "--format", "json"], cwd=demo_kb).stdout)
    outcomes = {s["key"]: s["outcome"] for s in out["subjects"]}
    assert outcomes["arxiv:2607.26533"] == "net-new"  # now carded in the topic (breaker6 F2: missing)
    assert outcomes["arxiv:2607.26627"] == "net-new"
