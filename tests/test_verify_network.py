"""``kb verify`` when arXiv misbehaves (C05), the cache, ``--offline``/``--refresh``, one client per run."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import arxiv
import pytest

from conftest_arxiv import card, fake_arxiv, make_kb  # noqa: F401
from fake_arxiv import FakeArxiv
from kb.store.workspace import open_kb

C05_CARD = card(603, "2602.12303", "OmniServe", created="2026-07-08T10:15:00+08:00")
DOC = "---\ntopic: inference\nversion: 3\nupdated: 2026-07-31T05:00:00+08:00\n---\n## §1 系统\n\n- OmniServe（arXiv:2602.12303）。\n"


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted((root / "organized").rglob("*.md"))}


def cached(root: Path, key: str):
    with open_kb(root) as kb:
        return kb.store.cache_get(key)


@pytest.fixture
def c05_kb(make_kb: Callable) -> Path:
    return make_kb({C05_CARD[0]: C05_CARD[1], "organized/knowledge/inference.md": DOC})


@pytest.mark.parametrize("status", [429, 503])
def test_c05_rate_limit_is_unverified_exit_3(run_kb, c05_kb: Path, fake_arxiv: FakeArxiv, status: int) -> None:
    fake_arxiv.always_status = status
    before = snapshot(c05_kb)
    res = run_kb(["verify", "2602.12303", "--kb", str(c05_kb)])
    assert res.exit_code == 3
    assert f"2602.12303: UNVERIFIED (arXiv HTTP {status} after retries)" in res.stdout
    assert f"error: arXiv HTTP {status} after retries (batch of 1 id: 2602.12303)" in res.stderr
    assert "Traceback" not in res.stderr
    assert len(fake_arxiv.log) == 4 and fake_arxiv.id_lists == [["2602.12303"]] * 4
    assert snapshot(c05_kb) == before
    assert cached(c05_kb, "2602.12303") is None


def test_c05_json_and_mentions_still_listed(run_kb, c05_kb: Path, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.always_status = 429
    res = run_kb(["verify", "2602.12303", "--format", "json", "--kb", str(c05_kb)])
    [item] = json.loads(res.stdout)
    assert (item["status"], item["reasons"], item["arxiv"]) == ("unverified", ["arXiv HTTP 429 after retries"], None)
    assert item["card"]["path"] == "organized/paper_cards/603-2602-12303.md"
    assert [(m["path"], m["kind"]) for m in item["mentions"]] == [
        ("organized/knowledge/inference.md", "secondhand"), ("organized/paper_cards/603-2602-12303.md", None)]
    assert res.exit_code == 3


def test_c05_one_client_and_at_most_100_ids_per_search(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[arxiv.Client] = []

    class CountingClient(arxiv.Client):
        def __init__(self, *a, **kw) -> None:  # type: ignore[no-untyped-def]
            super().__init__(*a, **kw)
            built.append(self)

    monkeypatch.setattr(arxiv, "Client", CountingClient)
    fake_arxiv.synthesize = True
    ids = [f"2601.{i:05d}" for i in range(1, 251)]
    res = run_kb(["verify", *ids, "--format", "json", "--kb", str(make_kb({}))])
    assert res.exit_code == 0
    assert len(built) == 1 and built[0].page_size == 100
    assert [len(x) for x in fake_arxiv.id_lists] == [100, 100, 50]


def test_after_a_failure_no_more_requests(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.always_status = 429
    ids = [f"2601.{i:05d}" for i in range(1, 151)]
    res = run_kb(["verify", *ids, "--format", "json", "--kb", str(make_kb({}))])
    items = json.loads(res.stdout)
    assert {i["status"] for i in items} == {"unverified"} and len(items) == 150
    assert {tuple(i["reasons"]) for i in items} == {("arXiv HTTP 429 after retries",)}
    assert len(fake_arxiv.log) == 4  # the first batch and its retries only
    assert res.exit_code == 3


def test_malformed_second_batch_keeps_the_first_cached(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    root = make_kb({})
    fake_arxiv.synthesize = True
    fake_arxiv.malformed_from = 2
    ids = [f"2601.{i:05d}" for i in range(1, 151)]
    res = run_kb(["verify", *ids, "--format", "json", "--kb", str(root)])
    assert res.exit_code == 3
    assert "Traceback" not in res.stderr
    assert ("error: malformed response from arXiv: not well-formed XML" in res.stderr
            and "(batch of 50 ids: 2601.00101 … 2601.00150)" in res.stderr)
    items = json.loads(res.stdout)
    assert [i["status"] for i in items] == ["ok"] * 100 + ["unverified"] * 50
    assert items[100]["reasons"][0].startswith("malformed response from arXiv: not well-formed XML")
    assert cached(root, "2601.00100")[1] == "found"
    assert cached(root, "2601.00101") is None


def test_timeout_is_unverified(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_ARXIV_TIMEOUT", "0.2")
    fake_arxiv.delay = 1.0
    res = run_kb(["verify", "2607.26627", "--format", "json", "--kb", str(make_kb({}))])
    [item] = json.loads(res.stdout)
    assert (item["status"], item["reasons"], res.exit_code) == ("unverified", ["arXiv did not answer within 0.2 s"], 3)


def test_unreachable_server_is_unverified(run_kb, make_kb: Callable, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_ARXIV_API", "http://127.0.0.1:9/api/query")
    monkeypatch.setenv("KB_ARXIV_DELAY", "0")
    monkeypatch.setenv("KB_ARXIV_RETRIES", "0")
    res = run_kb(["verify", "2607.26627", "--kb", str(make_kb({}))])
    assert res.exit_code == 3
    assert "2607.26627: UNVERIFIED (arXiv unreachable at http://127.0.0.1:9/api/query)" in res.stdout


def test_offline_without_cache_never_touches_the_network(run_kb, c05_kb: Path, fake_arxiv: FakeArxiv) -> None:
    res = run_kb(["verify", "2602.12303", "--offline", "--format", "json", "--kb", str(c05_kb)])
    [item] = json.loads(res.stdout)
    assert (item["status"], item["reasons"], res.exit_code) == ("unverified", ["offline and not in the cache"], 3)
    assert item["card"]["title"] == "OmniServe" and len(item["mentions"]) == 2
    assert fake_arxiv.log == []


def test_offline_with_cache_then_refresh(run_kb, c05_kb: Path, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2602.12303v1", "OmniServe", published="2026-02-10T10:00:00Z")
    assert run_kb(["verify", "2602.12303", "--kb", str(c05_kb)]).exit_code == 0
    fetched_at, status, data = cached(c05_kb, "2602.12303")
    assert (status, data["title"], data["short_id"]) == ("found", "OmniServe", "2602.12303v1")
    res = run_kb(["verify", "2602.12303", "--offline", "--format", "json", "--kb", str(c05_kb)])
    [item] = json.loads(res.stdout)
    assert (item["status"], item["arxiv"]["cached"], item["arxiv"]["fetched_at"]) == ("ok", True, fetched_at)
    assert res.exit_code == 0
    # online again: the cache answers, no request
    assert run_kb(["verify", "2602.12303", "--kb", str(c05_kb)]).exit_code == 0
    assert len(fake_arxiv.log) == 1
    # --refresh asks again and sees the new version
    fake_arxiv.add("2602.12303v2", "OmniServe", published="2026-02-10T10:00:00Z", updated="2026-03-01T00:00:00Z")
    res = run_kb(["verify", "2602.12303", "--refresh", "--format", "json", "--kb", str(c05_kb)])
    [item] = json.loads(res.stdout)
    assert (item["arxiv"]["latest_version"], item["arxiv"]["cached"]) == (2, False)
    assert len(fake_arxiv.log) == 2


def test_refresh_failure_falls_back_to_the_cache(run_kb, c05_kb: Path, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2602.12303v1", "OmniServe", published="2026-02-10T10:00:00Z")
    run_kb(["verify", "2602.12303", "--kb", str(c05_kb)])
    fake_arxiv.always_status = 503
    res = run_kb(["verify", "2602.12303", "--refresh", "--format", "json", "--kb", str(c05_kb)])
    [item] = json.loads(res.stdout)
    assert item["status"] == "ok" and item["arxiv"]["cached"] is True
    assert item["reasons"][0].startswith("arXiv HTTP 503 after retries; answered from the cache fetched ")
    assert res.exit_code == 0
    assert run_kb(["verify", "2602.12303", "--refresh", "--strict", "--kb", str(c05_kb)]).exit_code == 1


def test_503_then_success_through_the_cli(run_kb, c05_kb: Path, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2602.12303v1", "OmniServe", published="2026-02-10T10:00:00Z")
    fake_arxiv.statuses = [503]
    res = run_kb(["verify", "2602.12303", "--kb", str(c05_kb)])
    assert res.exit_code == 0
    assert [r.status for r in fake_arxiv.log] == [503, 200]


def test_versioned_and_bare_are_cached_apart(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    root = make_kb({})
    fake_arxiv.add("2607.26627v1", "T1", published="2026-07-24T10:00:00Z")
    fake_arxiv.add("2607.26627v2", "T2", published="2026-07-24T10:00:00Z")
    run_kb(["verify", "2607.26627v1", "2607.26627", "--kb", str(root)])
    assert cached(root, "2607.26627v1")[2]["title"] == "T1"
    assert cached(root, "2607.26627")[2]["title"] == "T2"
