"""kb export bibtex: the cards a living doc cites, as BibTeX a real parser (bibtexparser) reads,
fields from the card and kb's arXiv cache; nothing fetched."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from kb.core.records import SourceRecord
from kb.store.workspace import open_kb

bibtexparser = pytest.importorskip("bibtexparser")


def _parse(text: str):  # type: ignore[no-untyped-def]
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == []
    return {e.key: {k: f.value for k, f in e.fields_dict.items()} | {"@": e.entry_type} for e in library.entries}


def test_cited_cards_of_the_demo_doc(run_kb, demo_kb: Path) -> None:  # type: ignore[no-untyped-def]
    kb = open_kb(demo_kb)
    record = SourceRecord(id="2603.12831", version=2, short_id="2603.12831v2",
                          title="OmniServe: Serving Heterogeneous LLM Workloads on a Shared GPU Pool",
                          authors=["Léa Dupont", "Wei Zhang", "R&D Team_1"],
                          published=datetime(2026, 3, 14, 9, 0, tzinfo=timezone.utc),
                          updated=datetime(2026, 5, 2, 9, 0, tzinfo=timezone.utc),
                          primary_category="cs.DC", doi="10.1145/0000001.0000002", journal_ref="SIGMOD 2026 {50%}")
    kb.store.cache_put("2603.12831", "2026-08-01T00:00:00+00:00", "found", record.model_dump(mode="json"))
    kb.close()
    r = run_kb(["export", "bibtex", "inference"], cwd=demo_kb)
    assert r.exit_code == 0, r.stderr
    entries = _parse(r.stdout)
    assert len(entries) == 11
    assert entries["dupont2026omniserve"] == {
        "@": "misc",
        "title": "OmniServe: Serving Heterogeneous LLM Workloads on a Shared GPU Pool",
        "author": r"Léa Dupont and Wei Zhang and R\&D Team\_1",
        "year": "2026", "eprint": "2603.12831", "archivePrefix": "arXiv", "primaryClass": "cs.DC",
        "doi": "10.1145/0000001.0000002", "journal": r"SIGMOD 2026 {50\%}",
        "url": "https://arxiv.org/abs/2603.12831",
    }
    # a card kb has no arXiv metadata for: what the card says, the year from the id
    assert entries["arxiv2606.20295"] == {
        "@": "misc", "title": "FlashInfer: Token-Operations Oriented Inference Kernels", "year": "2026",
        "eprint": "2606.20295", "archivePrefix": "arXiv", "url": "https://arxiv.org/abs/2606.20295",
    }
    assert r.stderr.strip() == ("11 entries; 54 cited ids without a card; "
                                "10 without authors (not in kb's arXiv cache: kb verify --all)")


def test_all_cards_and_bad_topic(run_kb, demo_kb: Path) -> None:  # type: ignore[no-untyped-def]
    r = run_kb(["export", "bibtex", "--all"], cwd=demo_kb)
    assert r.exit_code == 0, r.stderr
    cards = [p for p in (demo_kb / "organized" / "paper_cards").glob("*.md")]
    assert len(_parse(r.stdout)) == len(cards)
    r = run_kb(["export", "bibtex", "nope"], cwd=demo_kb)
    assert r.exit_code == 2 and "no living document organized/knowledge/nope.md" in r.stderr
