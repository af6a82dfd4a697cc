"""The registry walk: every rule has marked bad/good fixtures and a complete, generated docs page."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from kb.lint.gen_docs import HEADINGS, missing_headings, rule_page
from kb.lint.registry import RULES

from .helpers import FIXTURES, expected_hits, hits, kb_expected_hits, lint_fixture

REPO = Path(__file__).resolve().parents[2]
CODES = [r.code for r in RULES]


@pytest.mark.parametrize("rule", RULES, ids=CODES)
def test_bad_fixture_hits_exactly_the_marked_lines(rule, tmp_path: Path) -> None:
    bad = FIXTURES / rule.code / "bad.md"
    assert bad.is_file(), f"{rule.code} has no tests/fixtures/lint/{rule.code}/bad.md"
    findings = lint_fixture(tmp_path, rule.code, "bad")
    assert {f.code for f in findings} == {rule.code}
    if rule.scope == "kb":  # the KB's own files (cards) are marked, in its kb-bad/ tree
        expected_kb = kb_expected_hits(rule.code, "bad")
        assert expected_kb, f"tests/fixtures/lint/{rule.code}/kb-bad/ marks no expected hit"
        assert Counter((f.path, f.line) for f in findings) == expected_kb, "\n".join(
            f"{f.path}:{f.line}: {f.message}" for f in findings)
    else:
        expected = expected_hits(bad, rule.code)
        assert expected, f"{bad} marks no expected hit (<!-- {rule.code} -->)"
        assert hits(findings) == expected, "\n".join(f"{f.line}: {f.message}" for f in findings)
    assert all(f.name == rule.name and f.severity == rule.severity and f.message for f in findings)


@pytest.mark.parametrize("rule", RULES, ids=CODES)
def test_good_fixture_has_no_hit_with_only_this_rule(rule, tmp_path: Path) -> None:
    good = FIXTURES / rule.code / "good.md"
    assert good.is_file(), f"{rule.code} has no tests/fixtures/lint/{rule.code}/good.md"
    findings = lint_fixture(tmp_path, rule.code, "good")
    assert findings == [], "\n".join(f"{f.line}: {f.message}" for f in findings)


@pytest.mark.parametrize("rule", RULES, ids=CODES)
def test_docs_page_has_every_heading_and_is_generated(rule) -> None:
    assert missing_headings(rule) == []
    page = REPO / "docs" / "rules" / f"{rule.code}.md"
    assert page.is_file(), f"run python -m kb.lint.gen_docs to write {page}"
    text = page.read_text(encoding="utf-8")
    assert all(f"\n## {h}\n" in text for h in HEADINGS)
    assert text == rule_page(rule), f"{page} is stale: run python -m kb.lint.gen_docs"


def test_codes_are_unique_ordered_and_named_after_their_module() -> None:
    assert CODES == sorted(CODES) and len(set(CODES)) == len(CODES)
    names = [r.name for r in RULES]
    assert len(set(names)) == len(names)
    for r in RULES:
        module = r.__module__.rsplit(".", 1)[1]
        assert module == f"{r.code.lower()}_{r.name.replace('-', '_')}", module
        assert not r.name.startswith(("no-", "disallow")), r.name
        assert r.severity in ("error", "warning", "info")


def test_the_rule_pages_index_lists_every_rule() -> None:
    from kb.lint.gen_docs import index_page

    text = (REPO / "docs" / "rules" / "README.md").read_text(encoding="utf-8")
    assert text == index_page()
    assert all(f"[{c}]({c}.md)" in text for c in CODES)


def test_a_rule_without_fixtures_fails_the_walk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from . import helpers

    monkeypatch.setattr(helpers, "FIXTURES", tmp_path)
    assert not (tmp_path / "KB101" / "bad.md").is_file()
    with pytest.raises(FileNotFoundError):
        helpers.lint_fixture(tmp_path, "KB101", "bad")
