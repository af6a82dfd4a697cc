"""Fixtures of the arXiv tests: the fake arXiv server, small KBs, the real Atom files.

Import the fixtures into a test module (``from conftest_arxiv import fake_arxiv, make_kb``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from fake_arxiv import FakeArxiv

TESTS = Path(__file__).resolve().parent
FIXTURES = TESTS / "fixtures" / "arxiv"
SHARED = Path(__file__).resolve().parents[1].parent / "shared"
REAL_ATOM = SHARED / "realdata" / "arxiv-atom"

KB_YAML = """\
timezone: "+08:00"
topics:
  inference: [inference-systems, inference-efficient]
  agents: [agent]
arxiv: {api_url: null, title_threshold: 0.85}
"""


@pytest.fixture
def fake_arxiv(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeArxiv]:
    """A started fake arXiv; ``KB_ARXIV_API`` points at it, no politeness delay, 5 s timeout."""
    fake = FakeArxiv().start()
    monkeypatch.setenv("KB_ARXIV_API", fake.url)
    monkeypatch.setenv("KB_ARXIV_DELAY", "0")
    monkeypatch.setenv("KB_ARXIV_RETRIES", "3")
    monkeypatch.setenv("KB_ARXIV_TIMEOUT", "5")
    try:
        yield fake
    finally:
        fake.stop()


@pytest.fixture
def make_kb(tmp_path: Path) -> Callable[..., Path]:
    """``make_kb({"organized/paper_cards/1-2607-26627.md": "…"}, kb_yaml=…)`` -> the KB root."""

    def make(files: dict[str, str], kb_yaml: str = KB_YAML) -> Path:
        root = tmp_path / "kb"
        root.mkdir(exist_ok=True)
        (root / "kb.yaml").write_text(kb_yaml, encoding="utf-8")
        for folder in ("inbox", "organized/paper_cards", "organized/knowledge"):
            (root / folder).mkdir(parents=True, exist_ok=True)
        for rel, text in files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return root

    return make


@pytest.fixture
def real_atom() -> Path:
    """``../shared/realdata/arxiv-atom``; the test is skipped when it is absent."""
    if not REAL_ATOM.is_dir():
        pytest.skip("optional real-data fixtures: ../shared/realdata/arxiv-atom is absent (docs/testing.md)")
    return REAL_ATOM


def card(number: int, arxiv: str, title: str, *, category: str = "inference-systems",
         created: str = "2026-07-31T16:30:00+08:00", body: str = "", name: str | None = None) -> tuple[str, str]:
    """``(path, text)`` of a paper card; ``name`` overrides the file name."""
    base = arxiv.split("v")[0] if "/" not in arxiv else arxiv
    file_name = name or f"{number}-{base.replace('.', '-').replace('/', '-')}.md"
    text = (f'---\ncard: {number}\narxiv: "{arxiv}"\ntitle: "{title}"\ncategory: {category}\n'
            f"created: {created}\n---\n# {number} · {title}\n\n{body}\n")
    return f"organized/paper_cards/{file_name}", text
