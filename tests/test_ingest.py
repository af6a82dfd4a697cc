"""Incremental ingest, the store as a cache, `kb ingest` / `kb claims` / `kb init` on the command line."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from kb.store.ingest import ingest
from kb.store.db import Store
from kb.store.schema import SCHEMA_VERSION
from kb.store.workspace import open_kb


def write(root: Path, rel: str, text: str | bytes) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


@pytest.fixture
def small_kb(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    write(root, "kb.yaml", "entities: {TGI: [Text Generation Inference], vLLM: []}\n")
    write(root, "inbox/jay/2026-07-31T1735-tgi.md", "TGI 于 2026-03-21 进入维护模式。\n")
    write(root, "inbox/spark/2026-07-30-blog.md", "vLLM 合并 1,918 commits。\n\n上游摘要称 CI 耗用 1,300 万 job minutes。\n")
    write(root, "organized/paper_cards/681-2607-26627.md",
          '---\ncard: 681\narxiv: "2607.26627"\ntitle: Lossy Verification\ncreated: 2026-07-31T16:30:00+08:00\n---\n'
          "## 结果\n\n- 端到端加速 1.38×。\n")
    return root


def test_second_run_parses_nothing_touch_reparses_one_delete_removes(small_kb: Path) -> None:
    first = ingest(small_kb)
    assert (first.parsed, first.unchanged, first.failed, first.claims) == (3, 0, 0, 4)
    second = ingest(small_kb)
    assert (second.parsed, second.unchanged, second.claims) == (0, 3, 4)

    p = small_kb / "inbox/jay/2026-07-31T1735-tgi.md"
    p.write_text("TGI 于 2026-03-21 进入维护模式。\nvLLM 383.7 tok/s。\n", encoding="utf-8")
    third = ingest(small_kb)
    assert (third.parsed, third.unchanged, third.claims) == (1, 2, 5)

    os.utime(p, ns=(p.stat().st_atime_ns, p.stat().st_mtime_ns + 10_000_000_000))  # touched, same bytes
    fourth = ingest(small_kb)
    assert (fourth.parsed, fourth.unchanged) == (0, 3)

    (small_kb / "inbox/spark/2026-07-30-blog.md").unlink()
    fifth = ingest(small_kb)
    assert (fifth.parsed, fifth.removed, fifth.claims) == (0, 1, 3)
    with open_kb(small_kb) as kb:
        assert {c.provenance.path for c in kb.store.claims()} == {
            "inbox/jay/2026-07-31T1735-tgi.md", "organized/paper_cards/681-2607-26627.md",
        }


def test_ingest_writes_nothing_outside_dot_kb(small_kb: Path) -> None:
    before = {p: p.stat().st_mtime_ns for p in small_kb.rglob("*")}
    ingest(small_kb)
    after = {p: p.stat().st_mtime_ns for p in small_kb.rglob("*") if ".kb" not in p.relative_to(small_kb).parts}
    assert after == {p: m for p, m in before.items()}


def test_parallel_and_serial_ingest_store_the_same_claims(small_kb: Path, tmp_path: Path) -> None:
    for i in range(30):
        write(small_kb, f"inbox/tom/2026-07-31-n{i}.md", f"vLLM 吞吐 {i + 1}.5× 与 arXiv:2607.{i + 10000:05d}。\n")
    ingest(small_kb, jobs=1)
    with open_kb(small_kb) as kb:
        serial = [c.model_dump() for c in kb.store.claims()]
    import kb.store.ingest as ingest_mod

    (small_kb / ".kb/kb.sqlite").unlink()
    old = ingest_mod.PARALLEL_MIN
    ingest_mod.PARALLEL_MIN = 1
    try:
        ingest(small_kb, jobs=2)
    finally:
        ingest_mod.PARALLEL_MIN = old
    with open_kb(small_kb) as kb:
        assert [c.model_dump() for c in kb.store.claims()] == serial
    assert len(serial) == 34


def test_old_schema_store_is_rebuilt_with_a_note(small_kb: Path) -> None:
    ingest(small_kb)
    db = sqlite3.connect(small_kb / ".kb/kb.sqlite")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 7}")
    db.close()
    report = ingest(small_kb)
    assert report.notes == [f"store schema {SCHEMA_VERSION + 7} is not {SCHEMA_VERSION}: rebuilt {small_kb / '.kb/kb.sqlite'}"]
    assert (report.parsed, report.claims) == (3, 4)


def test_corrupt_store_is_rebuilt(small_kb: Path) -> None:
    (small_kb / ".kb").mkdir()
    (small_kb / ".kb/kb.sqlite").write_bytes(b"this is not a database" * 100)
    report = ingest(small_kb)
    assert len(report.notes) == 1 and report.notes[0].endswith("rebuilt")
    assert report.claims == 4


def test_bad_files_are_reported_and_the_run_goes_on(small_kb: Path) -> None:
    write(small_kb, "inbox/jay/2026-07-31-bad.md", b"---\ntitle: a\ntitle: b\n---\nvLLM 2.03\xc3\x97\n")
    write(small_kb, "inbox/jay/2026-07-31-nul.md", b"\x00\x00\x00\n")
    report = ingest(small_kb)
    assert report.parsed == 4 and report.failed == 1
    assert sorted(str(p) for p in report.problems) == [
        "inbox/jay/2026-07-31-bad.md:3: duplicate front-matter key 'title' (first at line 2); front matter ignored",
        "inbox/jay/2026-07-31-nul.md: binary file (NUL or control bytes, not text); skipped",
    ]
    assert report.claims == 5


def test_cli_ingest_summary_and_claims_json(small_kb: Path, run_kb) -> None:
    r = run_kb(["ingest"], cwd=small_kb)
    assert (r.exit_code, r.stdout) == (0, "3 parsed, 0 unchanged, 0 failed; 4 claims\n")
    r = run_kb(["claims", "--subject", "https://arxiv.org/pdf/2607.26627v3.pdf", "--format", "json"], cwd=small_kb)
    assert r.exit_code == 0
    [claim] = json.loads(r.stdout)
    assert claim["kind"] == "paper-fact" and claim["kind_reason"] == "role:paper-card"
    assert claim["subjects"] == ["arxiv:2607.26627"]
    assert claim["quantities"][0] == {
        "raw": "1.38×", "value": 1.38, "low": None, "high": None, "unit": "×", "metric": "speedup",
        "bound": None, "qualifier": None, "subject": None, "start": 6, "end": 11, "mood": None, "transition": None,
    }
    assert claim["provenance"] == {
        "path": "organized/paper_cards/681-2607-26627.md", "line": 9, "end_line": 9, "author": None,
        "written_at": "2026-07-31T16:30:00+08:00", "heading": ["结果"],
    }


@pytest.mark.parametrize(
    ("args", "expected_paths"),
    [
        (["--kind", "secondhand"], ["inbox/jay/2026-07-31T1735-tgi.md", "inbox/spark/2026-07-30-blog.md", "inbox/spark/2026-07-30-blog.md"]),
        (["--subject", "Text Generation Inference"], ["inbox/jay/2026-07-31T1735-tgi.md"]),
        # a card title, matched as kb.extract.titles.normalize_title writes it (full-width, case, spaces)
        (["--subject", "ＬＯＳＳＹ  verification"], ["organized/paper_cards/681-2607-26627.md"]),
        (["--author", "spark"], ["inbox/spark/2026-07-30-blog.md", "inbox/spark/2026-07-30-blog.md"]),
        (["--since", "2026-07-31"], ["inbox/jay/2026-07-31T1735-tgi.md", "organized/paper_cards/681-2607-26627.md"]),
        (["--since", "2026-07-31T17:35", "--until", "2026-08-01"], ["inbox/jay/2026-07-31T1735-tgi.md"]),
        (["--until", "2026-07-31T17:35"], ["inbox/spark/2026-07-30-blog.md", "inbox/spark/2026-07-30-blog.md", "organized/paper_cards/681-2607-26627.md"]),
        (["--file", "inbox/"], ["inbox/jay/2026-07-31T1735-tgi.md", "inbox/spark/2026-07-30-blog.md", "inbox/spark/2026-07-30-blog.md"]),
    ],
)
def test_claims_filters(small_kb: Path, run_kb, args: list[str], expected_paths: list[str]) -> None:
    r = run_kb(["claims", *args, "--format", "jsonl"], cwd=small_kb)
    assert r.exit_code == 0, r.stderr
    assert [json.loads(line)["provenance"]["path"] for line in r.stdout.splitlines()] == expected_paths


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kind", "rumour"], "--kind 'rumour': expected one of paper-fact, secondhand, internal-rating"),
        (["--subject", "nothing-like-this"], "--subject 'nothing-like-this': not an arXiv id"),
        (["--since", "last tuesday"], "--since 'last tuesday': expected an ISO date or date-time"),
    ],
)
def test_claims_usage_errors_exit_2(small_kb: Path, run_kb, args: list[str], message: str) -> None:
    r = run_kb(["claims", *args], cwd=small_kb)
    assert r.exit_code == 2
    assert message in " ".join(r.stderr.split())


def test_unknown_config_key_is_an_error_naming_it(small_kb: Path, run_kb) -> None:
    write(small_kb, "kb.yaml", "timezone: '+08:00'\ncolour: blue\n")
    r = run_kb(["claims"], cwd=small_kb)
    assert r.exit_code == 2
    assert "unknown key 'colour'" in r.stderr


def test_ingest_exit_2_when_nothing_could_be_read(tmp_path: Path, run_kb, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "kb"
    write(root, "kb.yaml", "")
    write(root, "inbox/jay/2026-07-31-a.md", "vLLM 2.03×\n")
    import kb.store.parsing as parsing

    real = parsing.read_file

    def deny(at: Path, rel: str) -> bytes:
        if rel.endswith(".md"):
            raise PermissionError(13, "Permission denied")
        return real(at, rel)

    monkeypatch.setattr(parsing, "read_file", deny)  # root can read anything: simulate EACCES
    r = run_kb(["ingest"], cwd=root)
    assert r.exit_code == 2
    assert r.stdout == "0 parsed, 0 unchanged, 1 failed; 0 claims\n"
    assert "inbox/jay/2026-07-31-a.md: cannot read: Permission denied" in r.stderr


def test_init_scaffolds_and_never_overwrites(tmp_path: Path, run_kb) -> None:
    root = tmp_path / "new"
    r = run_kb(["init", str(root)], cwd=tmp_path)
    assert r.exit_code == 0
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == [
        ".gitignore", "inbox", "kb.yaml", "organized", "organized/knowledge", "organized/knowledge/history",
        "organized/knowledge/history/inference", "organized/knowledge/history/inference/.bumped-in",
        "organized/knowledge/history/inference/.bumped-in/v1.md",
        "organized/knowledge/inference.md", "organized/paper_cards",
    ]
    assert (root / ".gitignore").read_text() == ".kb/\n"
    (root / "kb.yaml").write_text("timezone: '+09:00'\n")
    r = run_kb(["init", str(root)], cwd=tmp_path)
    assert r.exit_code == 0
    assert (root / "kb.yaml").read_text() == "timezone: '+09:00'\n"
    assert "kept    kb.yaml (exists)" in r.stderr


def test_init_topic_scaffolds_that_topic(tmp_path: Path, run_kb) -> None:
    root = tmp_path / "rag-kb"
    r = run_kb(["init", str(root), "--topic", "rag"], cwd=tmp_path)
    assert r.exit_code == 0, r.stderr
    assert "created organized/knowledge/rag.md" in r.stdout and not (root / "organized/knowledge/inference.md").exists()
    assert "\ntopics: [rag]               # or a map" in (root / "kb.yaml").read_text(encoding="utf-8")
    assert (root / "organized/knowledge/rag.md").read_text(encoding="utf-8").startswith("---\ntopic: rag\nversion: 1\n")
    brief = run_kb(["digest", "--date", "2026-07-31", "--out", "-", "--executor", "me"], cwd=root)
    assert brief.exit_code == 0 and "# rag · E1 预消化简报（2026-07-31）" in brief.stdout
    bad = run_kb(["init", str(tmp_path / "x"), "--topic", "../up"], cwd=tmp_path)
    assert bad.exit_code == 2 and "not a plain name" in bad.stderr and not (tmp_path / "x").exists()


def test_a_new_kb_ingests_digests_and_lints_clean(tmp_path: Path, run_kb) -> None:
    root = tmp_path / "new"
    run_kb(["init", str(root)], cwd=tmp_path)
    r = run_kb(["ingest"], cwd=root)
    assert (r.exit_code, r.stdout) == (0, "1 parsed, 0 unchanged, 0 failed; 0 claims\n")
    brief = run_kb(["digest", "--date", "2026-07-31", "--out", "-", "--executor", "me"], cwd=root)
    assert brief.exit_code == 0, brief.stderr
    assert "# inference · E1 预消化简报（2026-07-31）" in brief.stdout
    lint = run_kb(["lint", "organized/knowledge/inference.md"], cwd=root)
    assert lint.exit_code == 0, lint.stdout + lint.stderr


def test_store_path_and_wal(small_kb: Path) -> None:
    ingest(small_kb)
    st = Store(small_kb, "x")
    try:
        assert st.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        st.close()


def test_config_change_reparses_everything_without_duplicates(small_kb: Path) -> None:
    first = ingest(small_kb)
    with open_kb(small_kb) as kb:
        subjects_before = kb.store.db.execute("SELECT count(*) FROM subjects").fetchone()[0]
    write(small_kb, "kb.yaml", "entities: {TGI: [Text Generation Inference], vLLM: [], FCFS: []}\n")
    again = ingest(small_kb)
    assert again.notes == ["configuration or kb version changed: every file will be parsed again"]
    assert (again.parsed, again.claims) == (3, first.claims)
    with open_kb(small_kb) as kb:
        assert kb.store.db.execute("SELECT count(*) FROM subjects").fetchone()[0] == subjects_before
        assert kb.store.db.execute("SELECT count(*) FROM mentions").fetchone()[0] == 1


def test_two_ingests_at_once_store_each_file_once(small_kb: Path) -> None:
    """Concurrent nightly runs: WAL + BEGIN IMMEDIATE serialise writers, no duplicate rows."""
    import threading

    errors: list[BaseException] = []

    def run() -> None:
        try:
            ingest(small_kb, jobs=1)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with open_kb(small_kb) as kb:
        db = kb.store.db
        assert db.execute("SELECT count(*) FROM files").fetchone()[0] == 3
        assert db.execute("SELECT count(*) FROM claims").fetchone()[0] == 4
        assert db.execute("SELECT count(*) FROM subjects").fetchone()[0] == 3
        assert db.execute("SELECT count(*) FROM quantities").fetchone()[0] == 3


def test_a_second_kb_waits_for_the_running_one_then_finds_nothing_to_do(small_kb: Path) -> None:
    """Issue 11: two `kb ingest` at once: the second waits (saying so, with the holder's pid),
    neither fails, and the second parses nothing the first already stored."""
    import threading

    from kb.core.config import load_config
    from kb.store.locks import writer_lock
    from kb.store.workspace import ingest_store

    config = load_config(small_kb)
    waited: list[str] = []
    asked = threading.Event()
    out: dict[str, object] = {}

    def on_wait(message: str) -> None:
        waited.append(message)
        asked.set()

    def second() -> None:
        store, report = ingest_store(small_kb, config, jobs=1, on_wait=on_wait)
        store.close()
        out["report"] = report

    with writer_lock(small_kb):  # the first run: holds the lock while it ingests
        first = ingest(small_kb, jobs=1)
        t = threading.Thread(target=second)
        t.start()
        assert asked.wait(30), "the second run did not report that it waits"
        assert "report" not in out  # still waiting: the lock is held
    t.join(30)
    assert (first.parsed, first.failed) == (3, 0)
    report = out["report"]
    assert (report.parsed, report.unchanged, report.failed, report.claims) == (0, 3, 0, 4)  # type: ignore[attr-defined]
    assert len(waited) == 1 and f"pid {os.getpid()}" in waited[0] and "waiting" in waited[0]


def test_indexes_a_killed_bulk_load_dropped_are_built_by_the_next_run(small_kb: Path) -> None:
    """Issue 11: `kill -9` during a cold ingest leaves the secondary indexes dropped; the
    next run (with nothing left to parse) creates every missing one."""
    ingest(small_kb, jobs=1)
    st = Store(small_kb, fingerprint_of(small_kb))
    st.drop_indexes()  # what a bulk load killed before its end leaves
    assert len(st.missing_indexes()) == 9
    st.close()
    again = ingest(small_kb, jobs=1)
    assert (again.parsed, again.unchanged) == (0, 3)
    st = Store(small_kb, fingerprint_of(small_kb))
    try:
        assert st.missing_indexes() == []
        names = {r[0] for r in st.db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        assert {"claims_written", "subjects_subject", "mentions_id", "quantities_subject"} <= names
    finally:
        st.close()


def fingerprint_of(root: Path) -> str:
    from kb.core.config import load_config
    from kb.store.fresh import fingerprint

    return fingerprint(load_config(root))


def test_unwritable_store_is_a_clear_error(small_kb: Path, run_kb) -> None:
    (small_kb / ".kb").write_text("a file where the store folder should be")
    r = run_kb(["claims"], cwd=small_kb)
    assert r.exit_code == 2
    assert "cannot open the store" in r.stderr and "writable .kb/" in " ".join(r.stderr.split())


def test_write_atomic_keeps_permissions_and_refuses_to_clobber(tmp_path: Path) -> None:
    from kb.core.textio import write_atomic

    p = tmp_path / "doc.md"
    p.write_text("old")
    p.chmod(0o640)
    write_atomic(p, "new")
    assert (p.read_text(), p.stat().st_mode & 0o777) == ("new", 0o640)
    with pytest.raises(FileExistsError):
        write_atomic(p, b"other", overwrite=False)
    assert p.read_text() == "new"
    fresh = tmp_path / "fresh.md"
    write_atomic(fresh, b"\xef\xbb\xbfbytes")
    assert fresh.read_bytes() == b"\xef\xbb\xbfbytes"
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~_umask()
    assert [q.name for q in tmp_path.iterdir() if q.name.endswith(".tmp")] == []


def _umask() -> int:
    m = os.umask(0)
    os.umask(m)
    return m


@pytest.mark.parametrize("given", ["inbox/spark", "./inbox/spark/", "inbox/spark/2026-07-30-blog.md", "ABS"])
def test_file_filter_accepts_folders_dot_paths_and_absolute_paths(small_kb: Path, run_kb, given: str) -> None:
    if given == "ABS":
        given = str(small_kb / "inbox/spark/2026-07-30-blog.md")
    r = run_kb(["claims", "--file", given, "--format", "jsonl"], cwd=small_kb)
    assert r.exit_code == 0, r.stderr
    assert [json.loads(x)["provenance"]["path"] for x in r.stdout.splitlines()] == ["inbox/spark/2026-07-30-blog.md"] * 2


@pytest.mark.parametrize(("given", "message"), [
    ("nope.md", "--file nope.md: no such file in the knowledge base"),
    ("/etc/passwd", "--file /etc/passwd: not inside the knowledge base"),
])
def test_file_filter_that_names_nothing_is_an_error(small_kb: Path, run_kb, given: str, message: str) -> None:
    r = run_kb(["claims", "--file", given], cwd=small_kb)
    assert r.exit_code == 2 and message in r.stderr


def test_since_after_until_is_an_error(small_kb: Path, run_kb) -> None:
    r = run_kb(["claims", "--since", "2026-08-01", "--until", "2026-07-01"], cwd=small_kb)
    assert r.exit_code == 2 and "--since 2026-08-01 is not before --until 2026-07-01" in r.stderr


def test_outside_any_kb_is_an_error_and_makes_no_store(tmp_path: Path, run_kb) -> None:
    r = run_kb(["claims"], cwd=tmp_path)
    assert r.exit_code == 2 and "no knowledge base here or above" in r.stderr
    assert not (tmp_path / ".kb").exists()


def test_write_atomic_never_replaces_devices_and_follows_symlinks(tmp_path: Path) -> None:
    from kb.core.textio import NotRegularFileError, write_atomic

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFileError):
        write_atomic(fifo, "x")
    assert fifo.exists() and not fifo.is_file()
    with pytest.raises(IsADirectoryError):
        write_atomic(tmp_path, "x")
    target = tmp_path / "real.md"
    target.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_store_damaged_past_its_header_is_rebuilt(small_kb: Path) -> None:
    ingest(small_kb)
    db = small_kb / ".kb/kb.sqlite"
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(db.read_bytes())
    page = 4096
    data[page:len(data)] = b"\xa5" * (len(data) - page)  # every page but the header page
    db.write_bytes(bytes(data))
    with open_kb(small_kb) as kb:
        assert any("damaged" in n or "could not be opened" in n or "rebuilt" in n for n in kb.report.notes)
        assert kb.store.count_claims() == 4


def test_workers_die_with_the_parent(small_kb: Path, tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    big = tmp_path / "big"
    subprocess.run([sys.executable, str(Path(__file__).resolve().parents[1] / "benchmarks/gen_kb.py"), str(big),
                    "--inbox", "1500", "--cards", "10", "--docs", "1"], check=True, capture_output=True)
    proc = subprocess.Popen([sys.executable, "-m", "kb", "--kb", str(big), "ingest", "-j", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.5)
    children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    time.sleep(0.5)
    alive = [pid for pid in children if Path(f"/proc/{pid}").exists()
             and "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()]
    assert alive == []


@pytest.mark.parametrize(
    ("yaml", "message"),
    [
        ("entities:\n\t- x\n", "kb.yaml:2:1: tab used for indentation in kb.yaml; use spaces"),
        ("timezone: '+08:00'\ntimezone: '+09:00'\n", "kb.yaml:2: duplicate kb.yaml key 'timezone' (first at line 1)"),
        ("timezone: '+25:00'\n", "timezone must be a UTC offset from -14:00 to +14:00"),
        ("cutoff: '25:00'\n", "cutoff must be a local time from 00:00 to 23:59"),
        ("tolerance: -5\n", "'tolerance': Input should be greater than or equal to 0"),
        ("metrics: {m: ['']}\n", "'m': names and phrases must not be empty"),
        ("arxiv: {title_threshold: 5}\n", "'arxiv.title_threshold': Input should be less than or equal to 1"),
    ],
)
def test_bad_kb_yaml_is_a_config_error_naming_the_line(small_kb: Path, run_kb, yaml: str, message: str) -> None:
    write(small_kb, "kb.yaml", yaml)
    r = run_kb(["claims"], cwd=small_kb)
    assert r.exit_code == 2
    assert message in r.stderr


@pytest.mark.parametrize("option", ["--subject", "--kind", "--author", "--since", "--file"])
def test_empty_filter_values_are_errors(small_kb: Path, run_kb, option: str) -> None:
    r = run_kb(["claims", option, ""], cwd=small_kb)
    assert r.exit_code == 2 and f"{option} is empty" in r.stderr


def test_subject_alias_with_other_separators(small_kb: Path, run_kb) -> None:
    r = run_kb(["claims", "--subject", "Text-Generation_Inference", "--format", "jsonl"], cwd=small_kb)
    assert r.exit_code == 0, r.stderr
    assert [json.loads(x)["subjects"] for x in r.stdout.splitlines()] == [["entity:tgi"]]


def test_same_size_rewrite_with_its_old_mtime_is_seen(small_kb: Path) -> None:
    """touch -r cannot set ctime back: the change is found."""
    ingest(small_kb)
    p = small_kb / "inbox/jay/2026-07-31T1735-tgi.md"
    st = p.stat()
    p.write_text(p.read_text(encoding="utf-8").replace("2026-03-21", "2026-03-22"), encoding="utf-8")
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert p.stat().st_size == st.st_size and p.stat().st_mtime_ns == st.st_mtime_ns
    again = ingest(small_kb)
    assert again.parsed == 1
    with open_kb(small_kb) as kb:
        [claim] = kb.store.claims(path="inbox/jay/2026-07-31T1735-tgi.md")
        assert claim.dates[0].value == "2026-03-22"


def test_since_out_of_the_calendar_is_a_usage_error(small_kb: Path, run_kb) -> None:
    r = run_kb(["claims", "--since", "0001-01-01"], cwd=small_kb)
    assert r.exit_code == 2 and "--since" in r.stderr and "Traceback" not in r.stderr


def test_a_binary_file_fails_every_run_and_is_never_a_source(small_kb: Path) -> None:
    write(small_kb, "inbox/jay/2026-07-31-scan.md", bytes(range(256)) * 8)
    for _ in range(2):
        report = ingest(small_kb)
        assert report.failed == 1
        assert [str(p) for p in report.problems] == [
            "inbox/jay/2026-07-31-scan.md: binary file (NUL or control bytes, not text); skipped"]
    with open_kb(small_kb) as kb:
        assert kb.store.file("inbox/jay/2026-07-31-scan.md") is None


def test_upper_case_md_extension_is_read(small_kb: Path) -> None:
    write(small_kb, "inbox/jay/2026-07-31-UPPER.MD", "vLLM 2.03×\n")
    assert ingest(small_kb).parsed == 4


def test_a_killed_worker_does_not_stop_the_ingest(small_kb: Path, tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import threading
    import time

    big = tmp_path / "big"
    subprocess.run([sys.executable, str(Path(__file__).resolve().parents[1] / "benchmarks/gen_kb.py"), str(big),
                    "--inbox", "1500", "--cards", "10", "--docs", "1"], check=True, capture_output=True)
    proc = subprocess.Popen([sys.executable, "-m", "kb", "--kb", str(big), "ingest", "-j", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def kill_one_worker() -> None:
        for _ in range(100):
            kids = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
            if kids:
                time.sleep(0.3)
                os.kill(int(kids[0]), signal.SIGKILL)
                return
            time.sleep(0.05)

    t = threading.Thread(target=kill_one_worker)
    t.start()
    out, err = proc.communicate(timeout=300)
    t.join()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert out.startswith("1511 parsed, 0 unchanged, 0 failed")


@pytest.mark.parametrize("where", ["", "/proc/kb-here"])
def test_init_where_it_cannot_is_a_clear_error(tmp_path: Path, run_kb, where: str) -> None:
    r = run_kb(["init", where], cwd=tmp_path)
    assert r.exit_code == 2 and "Traceback" not in r.stderr


def test_kb_yaml_value_error_names_its_line_in_plain_words(small_kb: Path, run_kb) -> None:
    write(small_kb, "kb.yaml", "timezone: '+08:00'\ntopics: 5\n")
    r = run_kb(["claims"], cwd=small_kb)
    assert r.exit_code == 2
    assert "kb.yaml: line 2: 'topics': Input should be a valid list" in r.stderr
    assert "list[str]" not in r.stderr


def test_the_parser_fingerprint_covers_every_module_the_parser_imports() -> None:
    """breaker6 F3: a change to any module the parser imports must re-parse, or a checkout of the
    same version reads another's parses as current; issue 19: a change to any other module (the
    store, the diff, the brief) must not."""
    import subprocess
    import sys
    from pathlib import Path

    import kb
    from kb.perf.digest import closure

    out = subprocess.run([sys.executable, "-c", "import sys; before = set(sys.modules); import kb.read.parse; "
                          "print('\\n'.join(m.__file__ for n, m in sys.modules.items() "
                          "if n.startswith('kb') and n not in before and getattr(m, '__file__', None)))"],
                         capture_output=True, text=True, check=True).stdout.split()
    here = Path(kb.__file__).resolve().parent
    hashed = {Path(p).resolve() for p in closure("kb.read.parse")}
    loaded = {Path(f).resolve() for f in out}
    assert loaded and loaded <= hashed, sorted(str(p.relative_to(here)) for p in loaded - hashed)
    packages = {p.relative_to(here).parts[0] for p in hashed if len(p.relative_to(here).parts) > 1}
    assert packages == {"perf", "core", "extract", "read"}


def test_a_file_name_that_is_not_utf8_is_reported_and_skipped(tmp_path) -> None:  # noqa: ANN001
    """breaker6: ``inbox/jay/2026-07-31-bad\\xff.md`` made every ``kb ingest`` end in a traceback."""
    import os

    from kb.core.config import KbConfig
    from kb.store.ingest import ingest

    (tmp_path / "inbox" / "jay").mkdir(parents=True)
    (tmp_path / "inbox" / "jay" / "2026-07-31-good.md").write_text("- vLLM 吞吐 1,000 tok/s。\n", encoding="utf-8")
    bad = os.path.join(os.fsencode(tmp_path / "inbox" / "jay"), b"2026-07-31-bad\xff.md")
    with open(bad, "wb") as f:
        f.write("- SGLang 吞吐 2,000 tok/s。\n".encode())
    report = ingest(tmp_path, KbConfig())
    assert report.parsed == 1
    assert [(p.path, p.message) for p in report.problems] == [
        ("inbox/jay/2026-07-31-bad\\xff.md", "file name is not valid UTF-8; skipped (rename it)")]


def test_a_store_is_not_emptied_while_another_kb_reads_it(demo_kb, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """breaker6 F4: a kb with another kb.yaml emptied the store while a first kb still read it
    (``kb diff`` printed no subjects, exit 0). A reader holds ``.kb/readers.lock`` shared until
    it ends; emptying waits for it, then fails with a clear error rather than empty it."""
    import subprocess
    import sys
    import time

    import kb.store.locks
    from kb.core.errors import InputError

    open_kb(demo_kb).store.close()
    reader = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from pathlib import Path; from kb.store.workspace import open_kb; "
        f"kb = open_kb(Path({str(demo_kb)!r})); print('reading', flush=True); time.sleep(3); "
        "print(len(list(kb.store.claims())))")], stdout=subprocess.PIPE, text=True)
    assert reader.stdout.readline().strip() == "reading"
    monkeypatch.setattr(kb.store.locks, "EMPTY_WAIT_S", 0.5)
    started = time.monotonic()
    with pytest.raises(InputError, match="another kb still reads the store"):
        Store(demo_kb, "another fingerprint")
    assert time.monotonic() - started >= 0.5
    monkeypatch.setattr(kb.store.locks, "EMPTY_WAIT_S", 30.0)
    store = Store(demo_kb, "another fingerprint")  # waits for the reader to end, then empties
    count = int(reader.stdout.readline())
    assert reader.wait() == 0 and count > 200  # the reader saw every claim
    assert store.count_claims() == 0
    store.close()


def test_first_mention_is_the_earliest_claim_about_the_subject(tmp_path) -> None:  # noqa: ANN001
    """``Store.first_mention`` reads the subjects index (subject, written_at): one seek, not a
    join over every claim of the subject (20k rows for vLLM in the 12k benchmark KB)."""
    from kb.core.config import KbConfig

    for day, text in (("2026-07-29", "- vLLM 吞吐 1,000 tok/s。\n"), ("2026-07-30", "- vLLM 吞吐 1,100 tok/s。\n"),
                      ("2026-07-31", "- SGLang 吞吐 2,000 tok/s。\n")):
        (tmp_path / "inbox" / "jay").mkdir(parents=True, exist_ok=True)
        (tmp_path / "inbox" / "jay" / f"{day}-note.md").write_text(text, encoding="utf-8")
    config = KbConfig(entities={"vLLM": [], "SGLang": []})
    ingest(tmp_path, config)
    store = Store(tmp_path, __import__("kb.store.fresh").store.fresh.fingerprint(config))
    assert store.first_mention("entity:vllm") == "2026-07-29T00:00:00+08:00"
    assert store.first_mention("entity:sglang") == "2026-07-31T00:00:00+08:00"
    assert store.first_mention("entity:tgi") is None
    store.close()


def test_a_bulk_load_checkpoints_the_wal_every_10000_pages_then_as_sqlite_does(tmp_path: Path) -> None:
    """A cold ingest of at least BULK_MIN files raises SQLite's automatic checkpoint interval
    while it loads (Store.bulk_checkpoints) and puts SQLite's default back after; an ingest
    of a few changed files never raises it."""
    from kb.store.ingest import BULK_MIN
    from kb.store.base import BULK_CHECKPOINT_PAGES

    root = tmp_path / "kb"
    write(root, "kb.yaml", "entities: {TGI: []}\n")
    for k in range(BULK_MIN):
        write(root, f"inbox/tom/2026-07-31-{k:03d}.md", f"TGI 吞吐 {k + 1} tok/s。\n")
    st = Store(root, fingerprint_of(root))

    def interval() -> int:
        return st.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0]

    try:
        during: list[int] = []
        report = ingest(root, store=st, jobs=1, progress=lambda done, total: during.append(interval()))
        assert (report.parsed, report.claims) == (BULK_MIN, BULK_MIN)
        assert during == [BULK_CHECKPOINT_PAGES] * BULK_MIN
        assert interval() == 1000 and st.missing_indexes() == []
        write(root, "inbox/tom/2026-07-31-000.md", "TGI 吞吐 7 tok/s。\n")
        during.clear()
        assert ingest(root, store=st, jobs=1, progress=lambda done, total: during.append(interval())).parsed == 1
        assert during == [1000]
    finally:
        st.close()


def test_a_file_that_vanishes_during_the_walk_fails_the_run(tmp_path: Path, run_kb, monkeypatch) -> None:
    import kb.store.walk as walk

    write(tmp_path, "kb.yaml", "entities: {Quokka: []}\n")
    write(tmp_path, "inbox/mira/2026-05-10-keep.md", "- Quokka 吞吐 2.0×\n")
    write(tmp_path, "inbox/mira/2026-05-10-gone.md", "- Quokka 吞吐 3.0×\n")
    real = os.scandir

    class Gone:  # the entry of a file renamed away between listing its folder and its stat
        def __init__(self, entry: os.DirEntry[str]) -> None:
            self.entry, self.name, self.path = entry, entry.name, entry.path

        def is_symlink(self) -> bool:
            return False

        def is_dir(self, follow_symlinks: bool = True) -> bool:
            return False

        def is_file(self, follow_symlinks: bool = True) -> bool:
            return True

        def stat(self, follow_symlinks: bool = True) -> os.stat_result:
            raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setattr(walk.os, "scandir", lambda folder: [Gone(e) if e.name.endswith("gone.md") else e
                                                            for e in real(folder)])
    res = run_kb(["ingest"], cwd=tmp_path)
    assert (res.exit_code, res.stdout) == (2, "1 parsed, 0 unchanged, 1 failed; 1 claim\n")
    assert res.stderr.splitlines()[-1] == ("error: inbox/mira/2026-05-10-gone.md: cannot be read "
                                           "(No such file or directory); skipped")
