"""Issue 24, item 3: nothing kb keeps (.kb/config.json, the store's memos) is trusted unless it
verifies against what it was made from; what does not verify is rebuilt from kb.yaml."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import write_files
from kb.core.config import load_config
from kb.core.config_kept import PARSED_NAME
from kb.store.db import Store

KB_YAML = 'timezone: "+08:00"\nexecutor: stephen\ntopics: {inference: [inference-systems]}\nmax_file_mb: 5\n'


@pytest.fixture
def kb_root(tmp_path: Path) -> Path:
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "inbox/jay/2026-07-31-x.md": "# x\n\n- vLLM 吞吐 1.5×。\n"})
    (root / ".kb").mkdir()
    return root


def _tamper(root: Path, **data: object) -> None:
    kept = root / PARSED_NAME
    got = json.loads(kept.read_text(encoding="utf-8"))
    got["data"].update(data)
    kept.write_text(json.dumps(got, ensure_ascii=False), encoding="utf-8")


def test_an_edited_config_json_is_not_trusted(kb_root: Path) -> None:
    assert load_config(kb_root).executor == "stephen"
    assert "seal" in json.loads((kb_root / PARSED_NAME).read_text(encoding="utf-8"))
    _tamper(kb_root, executor="mallory", max_file_mb=0.000001, arxiv={"api_url": "http://evil.example/api"})
    config = load_config(kb_root)
    assert (config.executor, config.max_file_mb, config.arxiv.api_url) == ("stephen", 5, None)
    # rebuilt: the kept file holds kb.yaml's data again
    assert json.loads((kb_root / PARSED_NAME).read_text(encoding="utf-8"))["data"]["executor"] == "stephen"


def test_an_injected_key_is_no_error_of_kb_yaml(kb_root: Path, run_kb) -> None:  # noqa: ANN001
    load_config(kb_root)
    _tamper(kb_root, bogus_key=1)
    res = run_kb(["ingest", "--kb", str(kb_root)])
    assert res.exit_code == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1] == "1 parsed, 0 unchanged, 0 failed; 1 claim"
    assert "bogus_key" not in res.stderr


def test_an_edited_seal_alone_is_not_trusted(kb_root: Path) -> None:
    load_config(kb_root)
    kept = kb_root / PARSED_NAME
    got = json.loads(kept.read_text(encoding="utf-8"))
    got["seal"] = "0" * 64
    got["data"]["executor"] = "mallory"
    kept.write_text(json.dumps(got), encoding="utf-8")
    assert load_config(kb_root).executor == "stephen"


def test_a_memo_edited_in_the_store_is_built_again(tmp_path: Path) -> None:
    store = Store(tmp_path)
    calls: list[int] = []

    def build() -> dict[str, int]:
        calls.append(1)
        return {"answer": 42}

    assert store.kept("title_names", ["x"], build) == {"answer": 42}
    assert store.kept("title_names", ["x"], build) == {"answer": 42}
    assert len(calls) == 1
    text = store.meta("title_names")
    assert text is not None
    store.db.execute("UPDATE meta SET value=? WHERE key='title_names'", (text.replace("42", "43"),))
    assert store.kept("title_names", ["x"], build) == {"answer": 42}
    assert len(calls) == 2
    store.db.execute("UPDATE meta SET value=? WHERE key='title_names'", ("not json at all",))
    assert store.kept("title_names", ["x"], build) == {"answer": 42}
    assert len(calls) == 3
    store.close()


def test_memos_kept_by_their_own_code_that_do_not_decode_are_built_again(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    import sqlite3

    assert run_kb(["ingest", "--kb", str(demo_kb)]).exit_code == 0
    want = run_kb(["claims", "--subject", "vLLM", "--kb", str(demo_kb)]).stdout
    for garbage in ("garbage", "[1,2,3]", '["x"]'):
        db = sqlite3.connect(demo_kb / ".kb/kb.sqlite")
        with db:
            db.execute("UPDATE meta SET value=? WHERE key IN ('cards', 'claims_count', 'files_digest', 'name_hits_stamp', "
                       "'newest_inbox', 'title_index', 'attributor_names')", (garbage,))
        db.close()
        res = run_kb(["claims", "--subject", "vLLM", "--kb", str(demo_kb)])
        assert res.exit_code == 0 and "Traceback" not in res.stderr, (garbage, res.stderr)
        assert res.stdout == want
