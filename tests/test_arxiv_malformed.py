"""An arXiv answer kb cannot use ends as "malformed response" (exit 3, nothing cached), never a
traceback: bad entry fields (kb.verify.atom), a dripping server (the timeout bounds the whole
answer), bytes that are no HTTP response, an answer past MAX_UNPACKED_MIB unpacked (kb.verify.arxiv); an empty id argument is a usage error."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from datetime import datetime, timezone

import arxiv
import pytest

from conftest_arxiv import card, fake_arxiv, make_kb  # noqa: F401
from fake_arxiv import FakeArxiv, entry_xml, feed_xml
import kb.verify.arxiv as kb_arxiv
from kb.store.workspace import open_kb
from kb.verify.arxiv import ArxivSource, ArxivUnavailable
from kb.verify.atom import MalformedFeed, check_feed, to_record

ABS = "http://arxiv.org/abs/"
LEAVE = "; what was fetched before is cached, the rest is unverified"


def _cached(root, key: str):
    with open_kb(root) as kb:
        return kb.store.cache_get(key)


@pytest.mark.parametrize(("stamp", "why"), [
    ("9999-99-99T00:00:00Z", "is no date (month must be in 1..12)"),
    ("2026-02-30T00:00:00Z", "is no date (day is out of range for month)"),
    ("0001-01-01T00:00:00+01:00", "is no date (date value out of range)"),
    ("yesterday", "is not an RFC 3339 date-time (e.g. 2026-07-30T17:59:59Z)"),
])
def test_a_bad_updated_date_is_a_malformed_response(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv,
                                                     stamp: str, why: str) -> None:
    fake_arxiv.add("2607.26627v1", "Fast Decoding", updated=stamp)
    root = make_kb({})
    res = run_kb(["verify", "2607.26627", "--refresh", "--kb", str(root)])
    reason = f"malformed response from arXiv: entry 1 of 1 ('{ABS}2607.26627v1'): <updated> {stamp!r} {why}"
    assert res.exit_code == 3 and "Traceback" not in res.stderr
    assert f"error: {reason} (batch of 1 id: 2607.26627){LEAVE}" in res.stderr
    assert f"2607.26627: UNVERIFIED ({reason})" in res.stdout
    assert _cached(root, "2607.26627") is None


def test_verify_all_names_the_batch_and_caches_nothing(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2607.26627v1", "Fast Decoding")
    fake_arxiv.add("2607.26203v2", "Slow Decoding", published="9999-99-99T00:00:00Z", updated="2026-07-30T00:00:00Z")
    path, text = card(1, "2607.26627", "Fast Decoding")
    root = make_kb({path: text, "organized/knowledge/inference.md":
                    "---\ntopic: inference\nversion: 1\n---\n## §1\n\n- Slow（arXiv:2607.26203）。\n"})
    res = run_kb(["verify", "--all", "--topic", "inference", "--kb", str(root)])
    assert res.exit_code == 3
    assert (f"error: malformed response from arXiv: entry 1 of 2 ('{ABS}2607.26203v2'): <published> "
            f"'9999-99-99T00:00:00Z' is no date (month must be in 1..12) (batch of 2 ids: 2607.26203, 2607.26627)"
            f"{LEAVE}") in res.stderr
    assert res.stderr.splitlines()[-1] == "2 ids: 2 unverified"
    assert _cached(root, "2607.26627") is None and _cached(root, "2607.26203") is None


def test_card_new_on_a_bad_date_writes_no_card(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2607.99999v1", "Fast Decoding", published="9999-99-99T00:00:00Z")
    root = make_kb({})
    res = run_kb(["card", "new", "2607.99999", "--kb", str(root)])
    assert res.exit_code == 3 and "Traceback" not in res.stderr
    assert res.stderr.strip().splitlines()[-1] == (
        f"error: 2607.99999: malformed response from arXiv: entry 1 of 1 ('{ABS}2607.99999v1'): <updated> "
        "'9999-99-99T00:00:00Z' is no date (month must be in 1..12); the card needs arXiv's metadata: try again later, when arXiv answers")
    assert list((root / "organized/paper_cards").iterdir()) == []


@pytest.mark.parametrize(("version", "why"), [
    ("0", "version v0 does not exist (versions start at v1)"),
    ("1000", "version v1000 is past v999, the highest kb takes"),
    ("99999999999999999999", "version v999999999999… is past v999, the highest kb takes"),
])
def test_an_entry_version_out_of_range_is_a_malformed_response(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv,
                                                               version: str, why: str) -> None:
    fake_arxiv.add(f"2607.26627v{version}", "Fast Decoding")
    root = make_kb({})
    res = run_kb(["verify", "2607.26627", "--refresh", "--kb", str(root)])
    assert res.exit_code == 3 and "Traceback" not in res.stderr
    assert (f"error: malformed response from arXiv: entry 1 of 1 ('{ABS}2607.26627v{version}'): {why} "
            f"(batch of 1 id: 2607.26627){LEAVE}") in res.stderr
    assert _cached(root, "2607.26627") is None


def test_one_bad_entry_spoils_the_whole_batch(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2607.26627v1", "Fast Decoding")
    fake_arxiv.add("2607.26203v0", "Slow Decoding")
    with pytest.raises(ArxivUnavailable) as exc:
        ArxivSource().ask(["2607.26627", "2607.26203"])
    assert exc.value.reason == (f"malformed response from arXiv: entry 2 of 2 ('{ABS}2607.26203v0'): "
                                "version v0 does not exist (versions start at v1)")
    assert exc.value.batch == ["2607.26627", "2607.26203"] and len(fake_arxiv.log) == 1


GOOD = dict(short_id="2607.26627v1", title="T", authors=("A. Author",), published="2026-07-30T17:59:59Z",
            updated=None, primary="cs.CL")
GARBAGE = ["", " ", "x", "0", "-1", "9" * 5000, "\u202e", "&#x1b;", "2607.26627v1 ", "v", "99999-01-01T00:00:00Z",
           "2026-07-30T24:00:00Z", "2026-07-30T00:00:60Z", "9999-12-31T23:59:59-01:00", "2026-07-30"]


WANTED = {"short_id": {"malformed"}, "title": {"answer", "none"}, "authors": {"answer", "malformed"},
          "published": {"malformed"}, "updated": {"answer", "malformed"}, "primary": {"answer", "malformed"}}
"""What garbage in each field gives: a title may be anything ("0"; blank: no paper); a blank ``updated``
is left out by :func:`entry_xml` (``published`` stands in), a blank author or category is refused."""


@pytest.mark.parametrize("field", ["short_id", "title", "authors", "published", "updated", "primary"])
def test_no_field_value_ends_in_anything_but_an_answer_or_malformed(fake_arxiv: FakeArxiv, field: str) -> None:
    fake_arxiv.add("2607.26627v1", "Fast Decoding")
    outcomes = set()
    for value in GARBAGE:
        kw = {**GOOD, field: (value,) if field == "authors" else value}
        body = feed_xml([entry_xml(kw.pop("short_id"), kw.pop("title"), **kw)])  # type: ignore[arg-type]
        fake_arxiv.verbatim["2607.26627"] = body.encode()
        try:
            got = ArxivSource().ask(["2607.26627"])
            outcomes.add("answer" if got.records["2607.26627"] else "none")
        except ArxivUnavailable as exc:  # "&#x1b;" is no XML at all
            assert exc.reason.startswith("malformed response from arXiv: "), exc.reason
            outcomes.add("malformed")
    assert outcomes == WANTED[field]


def test_to_record_turns_a_record_that_does_not_validate_into_malformed_feed() -> None:
    moment = datetime(2026, 1, 5, tzinfo=timezone.utc)
    with pytest.raises(MalformedFeed) as exc:
        to_record(arxiv.Result(entry_id=f"{ABS}2601.00001v0", updated=moment, published=moment, title="T"))
    assert exc.value.detail.startswith("entry '2601.00001v0': 1 validation error for SourceRecord; version; "
                                       "Input should be greater than or equal to 1")


def test_check_feed_refuses_an_author_without_a_name_and_counts_good_entries() -> None:
    good = entry_xml("2607.26627v1", "T")
    assert check_feed(feed_xml([good, entry_xml("hep-ex/0406020v1", "U")]).encode()) == 2
    with pytest.raises(MalformedFeed) as exc:
        check_feed(feed_xml([good, entry_xml("2607.26203v1", "U", authors=[" "])]).encode())
    assert exc.value.detail == f"entry 2 of 2 ('{ABS}2607.26203v1'): an <author> without a <name>"


# -- the timeout bounds the whole answer; bytes that are no HTTP are a malformed response ------------


def test_a_dripping_server_is_stopped_after_the_timeout(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_ARXIV_TIMEOUT", "0.5")
    monkeypatch.setenv("KB_ARXIV_RETRIES", "0")
    fake_arxiv.add("2607.26627v1", "Fast Decoding")
    fake_arxiv.drip = 0.05  # about 1,100 bytes: 55 s at this pace, each byte well within 0.5 s
    root = make_kb({})
    start = time.monotonic()
    res = run_kb(["verify", "2607.26627", "--kb", str(root)])
    elapsed = time.monotonic() - start
    assert res.exit_code == 3
    assert f"error: arXiv did not answer within 0.5 s (batch of 1 id: 2607.26627){LEAVE}" in res.stderr
    assert 0.5 <= elapsed < 3.0
    assert _cached(root, "2607.26627") is None


def test_a_slow_but_whole_answer_within_the_timeout_is_read(make_kb: Callable, fake_arxiv: FakeArxiv,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    fake_arxiv.add("2607.26627v1", "Fast Decoding")
    fake_arxiv.drip = 0.0005
    assert ArxivSource().ask(["2607.26627"]).records["2607.26627"].title == "Fast Decoding"


def test_bytes_that_are_no_http_response_are_malformed(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_ARXIV_RETRIES", "0")
    fake_arxiv.raw = "<feed>Caf\xe9</feed>\n".encode("latin-1")
    root = make_kb({})
    res = run_kb(["verify", "2607.26627", "--kb", str(root)])
    assert res.exit_code == 3
    assert ("error: malformed response from arXiv: not an HTTP response (BadStatusLine: "
            "'<feed>Caf\xe9</feed>\\n') (batch of 1 id: 2607.26627)" + LEAVE) in res.stderr


def test_a_server_closing_without_a_byte_is_named_so(fake_arxiv: FakeArxiv, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_ARXIV_RETRIES", "0")
    fake_arxiv.raw = b""
    with pytest.raises(ArxivUnavailable) as exc:
        ArxivSource().ask(["2607.26627"])
    assert exc.value.reason == f"arXiv closed the connection at {fake_arxiv.url} without an answer"


# -- a gzip answer is unpacked a chunk at a time, up to MAX_UNPACKED_MIB -----------------------------


def test_a_gzip_bomb_is_a_malformed_response_and_nothing_is_cached(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kb_arxiv, "MAX_UNPACKED_MIB", 2)
    monkeypatch.setenv("KB_ARXIV_RETRIES", "0")
    fake_arxiv.gzip = True
    fake_arxiv.verbatim["2607.26627"] = b"<" * (6 << 20)  # 6 MiB unpacked, about 6 KiB on the wire
    root = make_kb({})
    res = run_kb(["verify", "2607.26627", "--refresh", "--kb", str(root)])
    reason = "malformed response from arXiv: answer larger than 2 MiB unpacked"
    assert res.exit_code == 3 and "Traceback" not in res.stderr
    assert f"error: {reason} (batch of 1 id: 2607.26627){LEAVE}" in res.stderr
    assert f"2607.26627: UNVERIFIED ({reason})" in res.stdout
    assert _cached(root, "2607.26627") is None


def test_a_gzip_bomb_is_stopped_before_it_is_all_unpacked(fake_arxiv: FakeArxiv,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kb_arxiv, "MAX_UNPACKED_MIB", 1)
    monkeypatch.setenv("KB_ARXIV_RETRIES", "0")
    fake_arxiv.gzip = True
    fake_arxiv.verbatim["2607.26627"] = b"<" * (48 << 20)
    tracemalloc.start()
    try:
        with pytest.raises(ArxivUnavailable) as exc:
            ArxivSource().ask(["2607.26627"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert exc.value.reason == "malformed response from arXiv: answer larger than 1 MiB unpacked"
    assert peak < 8 << 20  # 48 MiB whole; about twice the bound here


def test_a_gzip_answer_under_the_bound_is_read(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2607.26627v2", "Fast Decoding")
    fake_arxiv.gzip = True
    assert ArxivSource().ask(["2607.26627"]).records["2607.26627"].short_id == "2607.26627v2"


# -- an empty id is a usage error ------------------------------------------------------------------


@pytest.mark.parametrize(("arg", "shown"), [("", "''"), (" ", "' '"), ("\t", "'\\t'")])
def test_an_empty_id_argument_is_a_usage_error(run_kb, make_kb: Callable, arg: str, shown: str) -> None:
    res = run_kb(["verify", "2607.26627", arg, "--offline", "--kb", str(make_kb({}))])
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr.strip() == (f"error: argument 2 is {shown}: an empty id; give an arXiv id (e.g. 2607.26627) "
                                  "or '-' to read ids from stdin")
