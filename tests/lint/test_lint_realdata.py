"""Real awesome-list documents (../shared/realdata/living-docs, read in place, never copied):
no traceback, a KB101 finding instead of a crash, the other rules still run; exact counts."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from kb.lint.run import lint_paths

# file -> (findings outside any KB, per code), then (with an empty KB given by --kb, per code)
EXPECTED = {
    "October2001_Awesome-KV-Cache-Compression@194ba2c-2026-02-25.md": ({"KB101": 1, "KB103": 1}, 154),
    "October2001_Awesome-KV-Cache-Compression@1cdb974-2026-04-15.md": ({"KB101": 1, "KB103": 1}, 157),
    "October2001_Awesome-KV-Cache-Compression@e0f00e4-2025-04-11.md": ({"KB101": 1, "KB103": 1}, 128),
    "October2001_Awesome-KV-Cache-Compression@ef5fdd4-2025-09-30.md": ({"KB101": 1, "KB103": 1}, 152),
    "xlite-dev_Awesome-LLM-Inference@05d0e40-2025-07-23.md": ({"KB101": 1, "KB112": 22}, 277),
    "xlite-dev_Awesome-LLM-Inference@0f20ae1-2026-01-18.md": ({"KB101": 1, "KB112": 22}, 279),
    "xlite-dev_Awesome-LLM-Inference@6fc14cb-2026-06-22.md": ({"KB101": 1, "KB112": 22}, 283),
    "xlite-dev_Awesome-LLM-Inference@acd86b8-2026-07-26.md": ({"KB101": 1, "KB112": 22}, 283),
}


@pytest.fixture
def living_docs(shared: Path) -> Path:
    folder = shared / "realdata" / "living-docs"
    if not folder.is_dir():
        pytest.skip("optional real-data fixtures: ../shared/realdata/living-docs is absent (docs/testing.md)")
    return folder


def test_every_real_document_is_listed(living_docs: Path) -> None:
    assert sorted(p.name for p in living_docs.glob("*.md")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_document_outside_a_kb(living_docs: Path, name: str) -> None:
    run = lint_paths([living_docs / name])
    by_code = Counter(f.code for f in run.findings)
    assert dict(by_code) == EXPECTED[name][0]
    first = run.findings[0]
    assert (first.line, first.code) == (1, "KB101") and first.message.startswith("front matter missing")
    assert run.notes and "KB104, KB108, KB110, KB118, KB119, KB120 skipped" in run.notes[0]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_document_with_a_kb_runs_the_kb_rules_too(living_docs: Path, name: str, tmp_path: Path) -> None:
    (tmp_path / "organized").mkdir()
    run = lint_paths([living_docs / name], kb=tmp_path)
    by_code = Counter(f.code for f in run.findings)
    assert by_code.pop("KB104") == 1  # one finding per document, with the count (docs/rules/KB104.md)
    [card_less] = [f for f in run.findings if f.code == "KB104"]
    assert card_less.message.startswith(f"{EXPECTED[name][1]} arXiv ids have no paper card: arXiv:")
    assert card_less.message.endswith(f"… and {EXPECTED[name][1] - 10} more (kb lint --verbose lists them); "
                                      "add cards under organized/paper_cards/ (kb card new ID)")
    assert dict(by_code) == EXPECTED[name][0]
    assert run.notes == []
    per_id = lint_paths([living_docs / name], kb=tmp_path, select=["KB104"], show_all=True)
    assert per_id.findings[0].message.count("arXiv:") == EXPECTED[name][1]  # --verbose: every id named


def test_the_broken_gear_link_and_the_duplicated_deepseek_row(living_docs: Path) -> None:
    kv = lint_paths([living_docs / "October2001_Awesome-KV-Cache-Compression@1cdb974-2026-04-15.md"], select=["KB103"])
    [gear] = kv.findings
    assert gear.message.startswith("arxiv.org link to '203.05527', which is not a valid arXiv id")
    xl = lint_paths([living_docs / "xlite-dev_Awesome-LLM-Inference@acd86b8-2026-07-26.md"], select=["KB112"])
    deepseek = [(f.line, f.message.split(" is a node")[0]) for f in xl.findings if "2405.04434" in f.message]
    assert deepseek == [(99, "arXiv:2405.04434"), (486, "arXiv:2405.04434")]
