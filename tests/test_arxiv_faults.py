"""Issue 12: arXiv's short page, empty feed and "Error" entry never lose answers or spoil the cache."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import arxiv

from conftest_arxiv import card, fake_arxiv, make_kb  # noqa: F401
from fake_arxiv import FakeArxiv
from kb.store.db import Store
from kb.store.workspace import open_kb
from kb.verify.arxiv import ArxivSource
from kb.verify.atom import to_record
from kb.verify.lookup import ABSENT_SINCE, Lookup

KNOWN = [f"2601.{i:05d}" for i in range(1, 90)]
UNKNOWN = "2601.99999"


def _add_known(fake: FakeArxiv) -> None:
    for i in KNOWN:
        fake.add(i + "v1", f"Paper {i}", published="2026-01-05T00:00:00Z")


def test_short_page_keeps_what_arrived_and_asks_the_unknown_alone(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.count_asked = True  # totalResults 90 for 89 entries: the client's next page would be empty
    _add_known(fake_arxiv)
    got = ArxivSource().ask([*KNOWN, UNKNOWN])
    assert [k for k, v in got.records.items() if v is not None] == KNOWN
    assert got.records[UNKNOWN] is None and got.alone_empty == {UNKNOWN}
    assert fake_arxiv.id_lists == [[*KNOWN, UNKNOWN], [UNKNOWN]]  # one extra request, not the run


def test_verify_all_with_one_unknown_id_verifies_the_rest(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.count_asked = True
    _add_known(fake_arxiv)
    root = make_kb({"inbox/tom/2026-01-20-radar.md": "".join(f"- arXiv:{i}\n" for i in [*KNOWN, UNKNOWN])})
    res = run_kb(["verify", "--all", "--format", "json", "--kb", str(root)])
    items = json.loads(res.stdout)
    assert {i["id"]: i["status"] for i in items} == {**dict.fromkeys(KNOWN, "ok"), UNKNOWN: "not-found"}
    assert res.exit_code == 1 and len(fake_arxiv.log) == 2
    with open_kb(root) as kb:
        assert kb.store.cache_get(KNOWN[0])[1] == "found" and kb.store.cache_get(UNKNOWN)[1] == "not-found"


def test_a_missing_pair_is_halved_down_to_one_id_each(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2601.00001v1", "One", published="2026-01-05T00:00:00Z")
    got = ArxivSource().ask(["2601.00001", "2601.99998", "2601.99999"])
    assert fake_arxiv.id_lists == [["2601.00001", "2601.99998", "2601.99999"], ["2601.99998"], ["2601.99999"]]
    assert got.alone_empty == {"2601.99998", "2601.99999"}


def test_duplicate_ids_are_asked_once(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2601.00001v1", "One", published="2026-01-05T00:00:00Z")
    got = ArxivSource().ask(["2601.00001", "2601.00001"])
    assert fake_arxiv.id_lists == [["2601.00001"]] and got.records["2601.00001"].title == "One"


def test_error_entry_is_no_paper_and_no_confirmed_absence(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.errors = {"2601.00007"}
    got = ArxivSource().ask(["2601.00007"])
    assert got.records == {"2601.00007": None} and got.alone_empty == set()


def _result(entry_id: str, title: str) -> arxiv.Result:
    moment = datetime(2026, 1, 5, tzinfo=timezone.utc)
    return arxiv.Result(entry_id=entry_id, updated=moment, published=moment, title=title)


def test_to_record_refuses_entries_that_are_no_paper() -> None:
    assert to_record(_result("http://arxiv.org/abs/2601.00001v1", "Error")) is None
    assert to_record(_result("http://arxiv.org/abs/2601.00001v1", "  ")) is None
    assert to_record(_result("http://arxiv.org/api/errors#x", "A title")) is None
    assert to_record(_result("http://arxiv.org/abs/2601.00001v1", "A title")).short_id == "2601.00001v1"


# -- the cache only improves ---------------------------------------------------------------------


def _lookup(store: Store, at: datetime) -> Lookup:
    return Lookup(store, refresh=True, now=lambda: at)


def test_empty_feed_never_replaces_a_found_until_confirmed_alone_a_day_apart(tmp_path: Path,
                                                                              fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2601.00001v1", "One", published="2026-01-05T00:00:00Z")
    store = Store(tmp_path)
    t0 = datetime(2026, 8, 1, 12, tzinfo=timezone.utc)
    assert _lookup(store, t0).answers(["2601.00001"])["2601.00001"].state == "found"
    fake_arxiv.empty = True
    first = _lookup(store, t0 + timedelta(hours=1))
    a = first.answers(["2601.00001"])["2601.00001"]
    assert (a.state, a.cached, a.fetched_at) == ("found", True, "2026-08-01T12:00:00+00:00")
    assert first.notes == ["2601.00001: arXiv answered not-found on its own at 2026-08-01T13:00:00+00:00 "
                           "(unconfirmed); kept the cached found of 2026-08-01T12:00:00+00:00"]
    fetched_at, status, data = store.cache_get("2601.00001")
    assert (fetched_at, status, data[ABSENT_SINCE]) == ("2026-08-01T12:00:00+00:00", "found", "2026-08-01T13:00:00+00:00")
    # again the same day: still unconfirmed
    assert _lookup(store, t0 + timedelta(hours=20)).answers(["2601.00001"])["2601.00001"].state == "found"
    # a day after the first lone empty answer: confirmed
    later = _lookup(store, t0 + timedelta(hours=25)).answers(["2601.00001"])["2601.00001"]
    assert (later.state, later.cached) == ("not-found", False)
    assert store.cache_get("2601.00001")[:2] == ("2026-08-02T13:00:00+00:00", "not-found")
    store.db.close()


def test_a_found_answer_clears_the_pending_absence(tmp_path: Path, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2601.00001v1", "One", published="2026-01-05T00:00:00Z")
    store = Store(tmp_path)
    t0 = datetime(2026, 8, 1, 12, tzinfo=timezone.utc)
    _lookup(store, t0).answers(["2601.00001"])
    fake_arxiv.empty = True
    _lookup(store, t0 + timedelta(hours=1)).answers(["2601.00001"])
    fake_arxiv.empty = False
    _lookup(store, t0 + timedelta(hours=2)).answers(["2601.00001"])
    fake_arxiv.empty = True
    assert _lookup(store, t0 + timedelta(days=3)).answers(["2601.00001"])["2601.00001"].state == "found"
    store.db.close()


def test_error_entries_and_batch_answers_never_confirm(tmp_path: Path, fake_arxiv: FakeArxiv) -> None:
    for i in ("2601.00001", "2601.00002"):
        fake_arxiv.add(i + "v1", f"Paper {i}", published="2026-01-05T00:00:00Z")
    store = Store(tmp_path)
    t0 = datetime(2026, 8, 1, 12, tzinfo=timezone.utc)
    _lookup(store, t0).answers(["2601.00001", "2601.00002"])
    fake_arxiv.entries.clear()
    fake_arxiv.errors = {"2601.00001"}
    for days in (1, 3, 5):  # 00001: an "Error" entry alone; 00002: an empty answer to a pair
        got = _lookup(store, t0 + timedelta(days=days)).answers(["2601.00001", "2601.00002"])
        assert {k: a.state for k, a in got.items()} == {"2601.00001": "found", "2601.00002": "found"}
    assert store.cache_get("2601.00001")[1] == "found" and store.cache_get("2601.00002")[1] == "found"
    store.db.close()


def test_refresh_against_an_empty_feed_keeps_found_rows(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    path, text = card(603, "2602.12303", "OmniServe")
    root = make_kb({path: text})
    fake_arxiv.add("2602.12303v1", "OmniServe", published="2026-02-10T10:00:00Z")
    assert run_kb(["verify", "2602.12303", "--kb", str(root)]).exit_code == 0
    fake_arxiv.empty = True
    res = run_kb(["verify", "--all", "--refresh", "--format", "json", "--kb", str(root)])
    [item] = json.loads(res.stdout)
    assert (item["status"], item["arxiv"]["cached"]) == ("ok", True)
    assert "(unconfirmed); kept the cached found of " in res.stderr
    with open_kb(root) as kb:
        assert kb.store.cache_get("2602.12303")[1] == "found"
