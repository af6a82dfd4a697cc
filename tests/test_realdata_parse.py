"""Real public files (../shared/realdata, not copied here): every one parses without a crash,
into claims whose provenance points at real lines, with the ids the files are known to hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.core.config import KbConfig
from kb.read.parse import Parser

REPO = Path(__file__).resolve().parents[1]
REAL = REPO.parent / "shared" / "realdata"
FILES = sorted(p for sub in ("briefings", "paper-notes", "living-docs") for p in (REAL / sub).glob("*.md")) if REAL.is_dir() else []


@pytest.mark.skipif(not FILES, reason="optional real-data fixtures: ../shared/realdata is absent (docs/testing.md)")
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name[:50])
def test_real_file_parses_with_true_provenance(path: Path) -> None:
    data = path.read_bytes()
    parsed = Parser(KbConfig(entities={"vLLM": [], "SGLang": []})).parse_bytes(f"inbox/real/{path.name}", data)
    lines = data.decode("utf-8", errors="replace").splitlines()
    assert parsed.claims, "a real digest has anchors"
    for c in parsed.claims:
        assert 1 <= c.provenance.line <= c.provenance.end_line <= len(lines)
        assert "**" not in c.text
    for m in parsed.mentions:
        if m.column:
            assert lines[m.line - 1][m.column - 1:].startswith(m.id.split("/")[0][:4])


@pytest.mark.skipif(not REAL.is_dir(), reason="optional real-data fixtures: ../shared/realdata is absent (docs/testing.md)")
def test_known_ids_of_real_files() -> None:
    """Facts SOURCES.md states about these files."""
    p = Parser(KbConfig())
    daily = REAL / "briefings/langq1225_langq1225.github.io@57e1681-2026-02-23-daily-2026-02-23-00-daily-updates.md"
    ids = {m.id for m in p.parse_bytes("inbox/x/a.md", daily.read_bytes()).mentions}
    assert {"2602.17664", "2602.16498"} <= ids
    gear = REAL / "living-docs/October2001_Awesome-KV-Cache-Compression@1cdb974-2026-04-15.md"
    parsed = p.parse_bytes("organized/knowledge/kv.md", gear.read_bytes())
    assert "203.05527" not in {m.id for m in parsed.mentions}  # the broken GEAR link is no id
    moe = REAL / "paper-notes/shagunsodhani_papers-I-read@b774943-2020-09-06-sparsely-gated-moe.md"
    assert "1701.06538" in {m.id for m in p.parse_bytes("inbox/x/b.md", moe.read_bytes()).mentions}
