"""Issue 24, item 6: a cache row that does not decode is dropped and asked again; a dropped cache
table is rebuilt; an empty feed for a batch is "unverified", exit 3, never cached."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest_arxiv import card, fake_arxiv, make_kb  # noqa: F401
from fake_arxiv import FakeArxiv
from kb.store.workspace import open_kb

ID = "2602.12303"


def _kb(make_kb: Callable, fake: FakeArxiv) -> Path:
    path, text = card(603, ID, "OmniServe")
    root = make_kb({path: text, "inbox/tom/2026-02-11-radar.md": f"# r\n\n- OmniServe arXiv:{ID} 吞吐 2.1×。\n",
                    "organized/knowledge/inference.md": "---\ntopic: inference\nversion: 1\nupdated: 2026-02-01\n---\n# d\n"})
    fake.add(ID + "v1", "OmniServe", published="2026-02-10T10:00:00Z")
    return root


def _set_row(root: Path, value: str | None, status: str = "found") -> None:
    db = sqlite3.connect(root / ".kb/kb.sqlite")
    with db:
        db.execute("UPDATE arxiv_cache SET json=?, status=? WHERE id=?", (value, status, ID))
    db.close()


@pytest.mark.parametrize("value,status", [("{not json", "found"), ('{"id": 3}', "found"), ("[]", "found"),
                                          (None, "found"), ('{"title": "x"}', "maybe"), ("VERSION_MINUS_5", "found")])
def test_a_row_that_does_not_decode_is_asked_again(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv,  # noqa: ANN001
                                                   value: str | None, status: str) -> None:
    root = _kb(make_kb, fake_arxiv)
    assert run_kb(["verify", ID, "--kb", str(root)]).exit_code == 0
    if value == "VERSION_MINUS_5":  # a record kb could have written, but for a version arXiv never gives
        with open_kb(root) as kb:
            value = json.dumps({**kb.store.cache_get(ID)[2], "version": -5})
    _set_row(root, value, status)
    offline = run_kb(["verify", ID, "--offline", "--format", "json", "--kb", str(root)])
    assert offline.exit_code == 3 and offline.stderr == (
        f"note: {ID}: its arXiv cache entry in .kb/kb.sqlite did not decode; dropped, unverified offline\n"
        "1 id: 1 unverified\n")
    [item] = json.loads(offline.stdout)
    assert item["status"] == "unverified"
    res = run_kb(["verify", ID, "--format", "json", "--kb", str(root)])
    assert res.exit_code == 0, res.stderr
    [item] = json.loads(res.stdout)
    assert item["status"] == "ok"
    assert len(fake_arxiv.log) == 2  # asked again
    with open_kb(root) as kb:
        assert kb.store.cache_get(ID)[1] == "found"


def test_digest_and_lint_read_past_a_row_that_does_not_decode(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:  # noqa: ANN001
    root = _kb(make_kb, fake_arxiv)
    run_kb(["verify", ID, "--kb", str(root)])
    _set_row(root, "{not json")
    for args in (["digest", "inference", "--date", "2026-02-11", "--out", "-", "--executor", "ana"], ["lint"], ["claims"]):
        res = run_kb([*args, "--kb", str(root)])
        assert res.exit_code in (0, 1), (args, res.stderr)
        assert "Traceback" not in res.stderr


def test_a_dropped_cache_table_is_rebuilt_and_said(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:  # noqa: ANN001
    root = _kb(make_kb, fake_arxiv)
    assert run_kb(["verify", ID, "--kb", str(root)]).exit_code == 0
    db = sqlite3.connect(root / ".kb/kb.sqlite")
    db.execute("DROP TABLE arxiv_cache")
    db.close()
    res = run_kb(["lint", "--kb", str(root)])
    assert res.exit_code in (0, 1) and "Traceback" not in res.stderr
    assert f"store table arxiv_cache is missing: rebuilt {root / '.kb/kb.sqlite'}" in res.stderr
    res = run_kb(["verify", ID, "--offline", "--format", "json", "--kb", str(root)])
    assert json.loads(res.stdout)[0]["status"] == "unverified"


def test_an_empty_feed_for_a_batch_is_unverified_and_never_cached(run_kb, make_kb: Callable,  # noqa: ANN001
                                                                  fake_arxiv: FakeArxiv) -> None:
    root = make_kb({"inbox/tom/2026-02-11-radar.md": "# r\n\n- arXiv:2602.12303\n- arXiv:2602.12304\n"})
    fake_arxiv.empty = True
    res = run_kb(["verify", "--all", "--format", "json", "--kb", str(root)])
    assert res.exit_code == 3
    assert {i["id"]: i["status"] for i in json.loads(res.stdout)} == {"2602.12303": "unverified",
                                                                       "2602.12304": "unverified"}
    assert "arXiv answered an empty feed for a batch of 2 ids" in res.stderr
    with open_kb(root) as kb:
        assert kb.store.cache_get("2602.12303") is None and kb.store.cache_get("2602.12304") is None
