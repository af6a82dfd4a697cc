"""The docs render as written: every Markdown file of docs/ and README.md is parsed with
markdown-it; a fence that never closes (the rest of the page turns into code) or a relative link
to a file that does not exist fails the test, and so does a mention of a file outside the repo."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from markdown_it import MarkdownIt

REPO = Path(__file__).resolve().parents[1]
PAGES = sorted([REPO / "README.md", *(REPO / "docs").rglob("*.md")])
OUTSIDE = re.compile(r"DESIGN\.md|CASES\.md|LAYOUT\.md|STYLE\.md|shared/seeds|\b[Ii]ssues? \d+\b")
"""Names a reader of the repository does not have: the design notes and bug cases kb was built
from, and the tracker's issue numbers."""
KEPT_BY_OTHERS: set[str] = set()
"""Pages another change is rewriting at the same time (their outside mentions go with it)."""


def problems(path: Path, text: str) -> list[str]:
    """``path:line: what`` for each unclosed fence and each relative link whose file is missing."""
    md = MarkdownIt("commonmark").enable("table")
    tokens = md.parse(text)
    lines = text.split("\n")
    found = []
    for tok in tokens:
        if tok.type == "fence" and tok.map is not None:
            start, end = tok.map  # end: the line after the fence's last line
            closing = lines[end - 1].strip() if end - 1 < len(lines) else ""
            opener = re.compile(rf"^ {{0,3}}{re.escape(tok.markup[0])}{{{len(tok.markup)},}}[^{re.escape(tok.markup[0])}\s]")
            inner = [n for n in range(start + 1, end - 1) if opener.match(lines[n])]
            if end - 1 == start or not closing.startswith(tok.markup) or closing.strip(tok.markup[0]):
                found.append(f"{path.name}:{start + 1}: the {tok.markup}{tok.info} fence never closes")
            elif inner:  # the next block's opening fence sits inside: this one lost its closer
                found.append(f"{path.name}:{start + 1}: the {tok.markup}{tok.info} fence is not closed before "
                             f"the fence at line {inner[0] + 1}")
        for child in [tok, *(tok.children or [])]:
            if child.type == "link_open":
                href = child.attrGet("href") or ""
                parts = urlsplit(href)
                if parts.scheme or parts.netloc or not parts.path:
                    continue
                target = (path.parent / unquote(parts.path)).resolve()
                if not target.exists():
                    line = (tok.map[0] + 1) if tok.map else 0
                    found.append(f"{path.name}:{line}: link to {href} does not resolve")
    return found


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(REPO).as_posix() for p in PAGES])
def test_page_renders_and_its_links_resolve(page: Path) -> None:
    assert problems(page, page.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("page", [p for p in PAGES if p.relative_to(REPO).as_posix() not in KEPT_BY_OTHERS],
                         ids=lambda p: p.relative_to(REPO).as_posix())
def test_page_names_no_file_outside_the_repo(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    hits = [f"{n}: {m.group(0)}" for n, line in enumerate(text.split("\n"), 1) for m in OUTSIDE.finditer(line)]
    assert hits == []


def test_a_planted_unclosed_fence_and_a_dead_link_fail(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    text = "# T\n\n```yaml\nkey: 1\n\n## Later section\n\nSee [x](missing.md) and [ok](p.md).\n"
    assert problems(page, text) == ["p.md:3: the ```yaml fence never closes"]
    # the closer forgotten before the next block (docs/kb-format.md once): the text between is code
    text = "# T\n\n```yaml\nkey: 1\n\nProse.\n\n```yaml\nother: 2\n```\n"
    assert problems(page, text) == ["p.md:3: the ```yaml fence is not closed before the fence at line 8"]
    page.write_text("", encoding="utf-8")
    closed = "# T\n\n```yaml\nkey: 1\n```\n\nSee [x](missing.md), [ok](p.md#top), [web](https://example.org).\n"
    assert problems(page, closed) == ["p.md:7: link to missing.md does not resolve"]
