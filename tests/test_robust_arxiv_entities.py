"""An arXiv answer kb cannot use is a malformed response (exit 3, nothing cached), never "no such
paper": a feed declaring entities (``<!DOCTYPE … [<!ENTITY x SYSTEM "file:///…">]>``) whose
entry has the right id and a title made of one."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from conftest_arxiv import fake_arxiv, make_kb  # noqa: F401
from fake_arxiv import FakeArxiv
from kb.store.workspace import open_kb

ENTRY = (b'<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/2607.26627v2</id>'
         b"<updated>2026-07-30T00:00:00Z</updated><published>2026-07-29T00:00:00Z</published>"
         b"<title>{TITLE}</title><author><name>A</name></author></entry></feed>")
MALFORMED = ("error: malformed response from arXiv: a document type declaration (<!DOCTYPE …>, entities), which an "
             "Atom feed of arXiv never has (batch of 1 id: 2607.26627); what was fetched before is cached, the rest is "
             "unverified")


@pytest.mark.parametrize("doctype", [
    b'<!DOCTYPE f [<!ENTITY x SYSTEM "file:///etc/hostname">]>',
    b'<!DOCTYPE f [<!ENTITY x "a">]>',
    b'<!DOCTYPE f [<!ENTITY a "aaaaaaaaaa"><!ENTITY x "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>',
])
def test_an_entity_title_is_a_malformed_response_and_nothing_is_cached(
        run_kb, make_kb: Callable, fake_arxiv: FakeArxiv, doctype: bytes) -> None:  # noqa: ANN001
    root = make_kb({})
    fake_arxiv.verbatim["2607.26627"] = b'<?xml version="1.0"?>' + doctype + ENTRY.replace(b"{TITLE}", b"&x;")
    res = run_kb(["verify", "2607.26627", "--refresh", "--kb", str(root)])
    assert res.exit_code == 3
    assert res.stderr.splitlines() == [MALFORMED, "1 id: 1 unverified"]
    assert "has no paper" not in res.stdout + res.stderr and "Traceback" not in res.stderr
    with open_kb(root) as kb:
        assert kb.store.cache_get("2607.26627") is None


def test_the_same_feed_without_a_doctype_is_read(run_kb, make_kb: Callable, fake_arxiv: FakeArxiv) -> None:  # noqa: ANN001
    root = make_kb({})
    fake_arxiv.verbatim["2607.26627"] = b'<?xml version="1.0"?>' + ENTRY.replace(b"{TITLE}", b"Fast &amp; Exact")
    res = run_kb(["verify", "2607.26627", "--refresh", "--kb", str(root)])
    assert "Fast & Exact" in res.stdout, res.stdout + res.stderr
    with open_kb(root) as kb:
        assert kb.store.cache_get("2607.26627")[1] == "found"
