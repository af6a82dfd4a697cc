"""kb.verify.arxiv through the real ``arxiv`` client against the fake arXiv server (no internet)."""

from __future__ import annotations

import time
from datetime import datetime, timezone
from pathlib import Path

import arxiv
import pytest

from conftest_arxiv import FIXTURES, fake_arxiv, real_atom  # noqa: F401
from fake_arxiv import FakeArxiv
from kb.core.errors import ExitCode
from kb.verify.sources import SOURCES, get_source
from kb.core.records import SourceRecord
from kb.verify.arxiv import DEFAULT_DELAY, MAX_IDS, ArxivSettings, ArxivSource, ArxivUnavailable, describe_batch
from kb.core.errors import UsageError


def test_production_defaults_are_polite(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("KB_ARXIV_API", "KB_ARXIV_DELAY", "KB_ARXIV_RETRIES", "KB_ARXIV_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    s = ArxivSettings.from_env()
    assert s.api_url == "https://export.arxiv.org/api/query"
    assert s.delay >= 3 and DEFAULT_DELAY == 3.0
    assert (s.retries, s.timeout, MAX_IDS) == (3, 30.0, 100)
    client = ArxivSource(s).client
    assert (client.page_size, client.delay_seconds, client.num_retries) == (100, 3.0, 3)
    assert client.query_url_format == "https://export.arxiv.org/api/query?{}"


def test_a_short_delay_is_only_for_a_loopback_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_ARXIV_DELAY", "0")
    monkeypatch.setenv("KB_ARXIV_API", "https://export.arxiv.org/api/query")
    assert ArxivSettings.from_env().delay == 3.0
    monkeypatch.setenv("KB_ARXIV_API", "http://127.0.0.1:8080/api/query")
    assert ArxivSettings.from_env().delay == 0.0
    monkeypatch.setenv("KB_ARXIV_DELAY", "5")
    monkeypatch.setenv("KB_ARXIV_API", "https://mirror.example/api/query")
    assert ArxivSettings.from_env().delay == 5.0


def test_env_wins_over_kb_yaml(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_ARXIV_API", "http://127.0.0.1:1/api/query")
    assert ArxivSettings.from_env("http://127.0.0.1:2/api/query").api_url == "http://127.0.0.1:1/api/query"
    monkeypatch.delenv("KB_ARXIV_API")
    assert ArxivSettings.from_env("http://127.0.0.1:2/api/query").api_url == "http://127.0.0.1:2/api/query"


def test_bad_env_number_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_ARXIV_DELAY", "soon")
    with pytest.raises(Exception) as exc:
        ArxivSettings.from_env()
    assert exc.value.exit_code == ExitCode.USAGE
    assert "KB_ARXIV_DELAY='soon'" in str(exc.value)


def test_several_ids_in_one_request(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2607.26627v1", "Revisiting Lossy Verification in Speculative Decoding")
    fake_arxiv.add("2607.26203v1", "Pass the Baton")
    got = ArxivSource().fetch_batch(["2607.26627", "2607.26203", "2607.99999"])
    assert fake_arxiv.id_lists == [["2607.26627", "2607.26203", "2607.99999"], ["2607.99999"]]  # the missing one alone
    assert fake_arxiv.log[0].params["max_results"] == "100"
    assert {k: (v.short_id if v else None) for k, v in got.items()} == {
        "2607.26627": "2607.26627v1", "2607.26203": "2607.26203v1", "2607.99999": None}


def test_versioned_id_is_sent_as_is_and_matched_exactly(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2607.26627v1", "Old title", published="2026-07-20T10:00:00Z")
    fake_arxiv.add("2607.26627v2", "New title", published="2026-07-20T10:00:00Z", updated="2026-07-28T10:00:00Z")
    got = ArxivSource().fetch_batch(["2607.26627v2", "2607.26627v1", "2607.26627", "2607.26627v7"])
    assert fake_arxiv.id_lists == [["2607.26627v2", "2607.26627v1", "2607.26627", "2607.26627v7"], ["2607.26627v7"]]
    assert got["2607.26627v2"].short_id == "2607.26627v2" and got["2607.26627v2"].title == "New title"
    assert (got["2607.26627v1"].short_id, got["2607.26627v1"].version) == ("2607.26627v1", 1)
    assert (got["2607.26627"].short_id, got["2607.26627"].id) == ("2607.26627v2", "2607.26627")
    assert got["2607.26627v7"] is None
    assert got["2607.26627"].updated == datetime(2026, 7, 28, 10, tzinfo=timezone.utc)


def test_old_style_id_is_url_encoded_and_decoded(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("hep-th/9901001v1", "An old-style paper", primary="hep-th", published="1999-01-04T00:00:00Z")
    got = ArxivSource().fetch_batch(["hep-th/9901001"])
    assert "id_list=hep-th%2F9901001&" in fake_arxiv.log[0].query
    assert fake_arxiv.id_lists == [["hep-th/9901001"]]
    rec = got["hep-th/9901001"]
    assert (rec.id, rec.version, rec.short_id, rec.primary_category) == ("hep-th/9901001", 1, "hep-th/9901001v1", "hep-th")


def test_subject_class_is_dropped_on_the_wire(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("math/0309136v2", "A knot paper", primary="math.GT", published="2003-09-08T00:00:00Z")
    got = ArxivSource().fetch_batch(["math.GT/0309136", "math.GT/0309136v2"])
    assert fake_arxiv.id_lists == [["math/0309136", "math/0309136v2"]]
    assert got["math.GT/0309136"].short_id == got["math.GT/0309136v2"].short_id == "math/0309136v2"


def test_empty_result_is_none_not_an_error(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.empty = True
    assert ArxivSource().fetch_batch(["2607.26627"]) == {"2607.26627": None}
    assert len(fake_arxiv.log) == 1


def test_withdrawn_comment(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2501.01234v3", "T", comment="This paper has been withdrawn by the authors")
    rec = ArxivSource().fetch_batch(["2501.01234"])["2501.01234"]
    assert (rec.version, rec.withdrawn) == (3, True)
    assert SourceRecord.model_validate(rec.to_cache()) == rec


def test_503_then_success_is_retried_by_the_client(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2607.26627v1", "T")
    fake_arxiv.statuses = [503, 503]
    src = ArxivSource()
    assert src.fetch_batch(["2607.26627"])["2607.26627"].short_id == "2607.26627v1"
    assert [r.status for r in fake_arxiv.log] == [503, 503, 200]
    assert src.requests_sent == 3


@pytest.mark.parametrize("status", [429, 503])
def test_http_error_after_retries(fake_arxiv: FakeArxiv, status: int) -> None:
    fake_arxiv.always_status = status
    with pytest.raises(ArxivUnavailable) as exc:
        ArxivSource().fetch_batch(["2602.12303"])
    assert exc.value.reason == f"arXiv HTTP {status} after retries"
    assert exc.value.exit_code == ExitCode.UNAVAILABLE
    assert exc.value.batch == ["2602.12303"]
    assert len(fake_arxiv.log) == 4  # first try + KB_ARXIV_RETRIES=3


def test_malformed_xml_is_an_error_naming_the_batch(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.malformed_from = 1
    ids = [f"2601.{i:05d}" for i in range(1, 8)]
    with pytest.raises(ArxivUnavailable) as exc:
        ArxivSource().fetch_batch(ids)
    assert exc.value.reason.startswith("malformed response from arXiv: not well-formed XML")
    assert exc.value.message.endswith("(batch of 7 ids: 2601.00001 … 2601.00007)")
    assert len(fake_arxiv.log) == 1  # not retried


def test_non_atom_body_is_malformed(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.verbatim["2607.26627"] = b"<html><body>maintenance</body></html>"
    with pytest.raises(ArxivUnavailable) as exc:
        ArxivSource().fetch_batch(["2607.26627"])
    assert "not an Atom feed (root element 'html')" in exc.value.reason


def test_timeout(fake_arxiv: FakeArxiv, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_ARXIV_TIMEOUT", "0.2")
    fake_arxiv.delay = 1.0
    start = time.monotonic()
    with pytest.raises(ArxivUnavailable) as exc:
        ArxivSource().fetch_batch(["2607.26627"])
    assert exc.value.reason == "arXiv did not answer within 0.2 s"
    assert time.monotonic() - start < 0.9


def test_unreachable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_ARXIV_API", "http://127.0.0.1:9/api/query")
    monkeypatch.setenv("KB_ARXIV_DELAY", "0")
    monkeypatch.setenv("KB_ARXIV_RETRIES", "0")
    with pytest.raises(ArxivUnavailable) as exc:
        ArxivSource().fetch_batch(["2607.26627"])
    assert exc.value.reason == "arXiv unreachable at http://127.0.0.1:9/api/query"


def test_more_than_100_ids_is_refused(fake_arxiv: FakeArxiv) -> None:
    with pytest.raises(ValueError, match="at most 100 ids"):
        ArxivSource().fetch_batch([f"2601.{i:05d}" for i in range(1, 102)])
    assert fake_arxiv.log == []


def test_one_client_per_source_and_delay_between_requests(fake_arxiv: FakeArxiv, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_ARXIV_DELAY", "0.3")
    built: list[arxiv.Client] = []

    class CountingClient(arxiv.Client):
        def __init__(self, *a, **kw) -> None:  # type: ignore[no-untyped-def]
            super().__init__(*a, **kw)
            built.append(self)

    monkeypatch.setattr(arxiv, "Client", CountingClient)
    src = ArxivSource()
    start = time.monotonic()
    for i in range(3):
        src.fetch_batch([f"2601.0000{i + 1}"])
    assert len(built) == 1 and built[0].delay_seconds == 0.3
    assert time.monotonic() - start >= 0.6  # the client's own throttle between the 3 requests
    assert len(fake_arxiv.log) == 3


def test_api_url_with_query_string(fake_arxiv: FakeArxiv, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_ARXIV_API", fake_arxiv.url + "?key=abc")
    fake_arxiv.add("2607.26627v1", "T")
    assert ArxivSource().fetch_batch(["2607.26627"])["2607.26627"] is not None
    assert fake_arxiv.log[0].params["key"] == "abc"


def test_sources_registry() -> None:
    assert sorted(SOURCES) == ["arxiv"]
    with pytest.raises(UsageError, match="unknown source 'crossref'; known sources: arxiv"):
        get_source("crossref")


def test_registry_fetch_goes_through_the_fake(fake_arxiv: FakeArxiv) -> None:
    fake_arxiv.add("2607.26627v1", "T")
    assert get_source("arxiv")("2607.26627").short_id == "2607.26627v1"


def test_describe_batch() -> None:
    assert describe_batch(["a"]) == "a"
    assert describe_batch(["a", "b", "c"]) == "a, b, c"
    assert describe_batch(["a", "b", "c", "d"]) == "a … d"


def test_demo_fixtures_are_2026_format_single_entries() -> None:
    files = sorted(FIXTURES.glob("*.xml"))
    assert len(files) == 89
    fake = FakeArxiv()
    ids = fake.add_dir(FIXTURES)
    assert ids == [p.stem for p in files]
    text = (FIXTURES / "2607.26627v1.xml").read_text(encoding="utf-8")
    assert text.startswith("<?xml version='1.0' encoding='UTF-8'?>\n<feed xmlns:opensearch=")
    assert text.index("<summary>") < text.index("<published>")  # 2026 element order


# -- the real arXiv responses in ../shared ---------------------------------------------------------


def test_real_title_zero_stays_the_string_0(fake_arxiv: FakeArxiv, real_atom: Path) -> None:
    fake_arxiv.add_file(real_atom / "lukasschwab_arxiv.py@72f11b7-2026-04-12-id_2104.12255v1.xml")
    rec = ArxivSource().fetch_batch(["2104.12255v1"])["2104.12255v1"]
    assert rec.title == "0" and isinstance(rec.title, str)
    assert (rec.authors, rec.primary_category, rec.comment) == (["Quan Thoi Minh Nguyen"], "cs.CR", None)
    assert rec.published == datetime(2021, 4, 20, 16, 7, 14, tzinfo=timezone.utc)


def test_real_old_style_versioned_response_served_verbatim(fake_arxiv: FakeArxiv, real_atom: Path) -> None:
    body = (real_atom / "lukasschwab_arxiv.py@72f11b7-2026-04-12-id_hep-ex_0406020v1.xml").read_bytes()
    fake_arxiv.verbatim["hep-ex/0406020v1"] = body
    rec = ArxivSource().fetch_batch(["hep-ex/0406020v1"])["hep-ex/0406020v1"]
    assert "id_list=hep-ex%2F0406020v1&" in fake_arxiv.log[0].query
    assert (rec.id, rec.version, rec.title) == ("hep-ex/0406020", 1, "Sparticle Reconstruction at LHC")
    assert rec.comment.startswith("Presented at XXXIX Rencontres de Moriond")
    assert rec.authors == ["Alessia Tricomi"]


def test_real_empty_response(fake_arxiv: FakeArxiv, real_atom: Path) -> None:
    fake_arxiv.verbatim["0704.0001"] = (real_atom / "lukasschwab_arxiv.py@72f11b7-2026-04-12-id_0000.0000.xml").read_bytes()
    assert ArxivSource().fetch_batch(["0704.0001"]) == {"0704.0001": None}


def test_real_2016_format(fake_arxiv: FakeArxiv, real_atom: Path) -> None:
    fake_arxiv.add_file(real_atom / "lukasschwab_arxiv.py@0b39136-2016-10-09-id_list_1111.2011v2.xml")
    ids = fake_arxiv.add_file(real_atom / "lukasschwab_arxiv.py@0b39136-2016-10-09-search_query_au_del_maestro.xml")
    assert "cond-mat/0412498v1" in ids and "1303.6954v2" in ids
    got = ArxivSource().fetch_batch(["1111.2011v2", "cond-mat/0702661", "1303.6954"])
    rec = got["1111.2011v2"]
    assert "  " not in rec.title and "\n" not in rec.title
    assert rec.doi and rec.journal_ref
    assert got["cond-mat/0702661"].short_id == "cond-mat/0702661v2"
    assert got["1303.6954"].version == 2
