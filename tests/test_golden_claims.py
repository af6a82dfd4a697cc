"""Golden claims of three demo files: the whole claim JSON, byte for byte.

Regenerate on purpose with ``KB_UPDATE_GOLDEN=1 pytest tests/test_golden_claims.py`` and
review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kb.core.config import load_config
from kb.read.parse import Parser

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "tests/golden/claims"
FILES = [
    "inbox/jay/2026-07-31T1735-jay-briefing-inference-stack-vecdb-substack.md",  # Chinese-heavy, tables
    "inbox/spark/2026-07-31-llm-infra-e1prep.md",  # front matter, explicit tags, 类型 table
    "organized/paper_cards/681-2607-26627.md",  # paper card: paper-fact by role
]


@pytest.mark.parametrize("rel", FILES, ids=lambda r: Path(r).stem[:40])
def test_golden_claims(rel: str) -> None:
    parser = Parser(load_config(REPO))
    parsed = parser.parse_bytes(rel, (REPO / rel).read_bytes())
    got = json.dumps([c.model_dump(mode="json") for c in parsed.claims], ensure_ascii=False, indent=1) + "\n"
    golden = GOLDEN / (Path(rel).stem + ".json")
    if os.environ.get("KB_UPDATE_GOLDEN") == "1":
        golden.write_text(got, encoding="utf-8")
    assert got == golden.read_text(encoding="utf-8")
    assert parsed.problems == []
