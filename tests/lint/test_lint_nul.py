"""Issue 12: a line with a NUL byte is a finding (line and column) and the rest of it is still linted."""

from __future__ import annotations

import json
from pathlib import Path

HEAD = "---\ntopic: inference\nversion: 1\nupdated: 2026-07-31T05:00:00+08:00\n---\n# 活文档\n\n## §1 引擎\n\n"


def test_nul_line_is_reported_and_the_rest_linted(run_kb, tmp_path: Path) -> None:  # noqa: ANN001
    doc = tmp_path / "doc.md"
    doc.write_bytes((HEAD + "- 见 §9.9\x00\n").encode())
    res = run_kb(["lint", str(doc), "--select", "KB105,KB117", "--format", "json"])
    got = [(f["code"], f["line"], f["column"]) for f in json.loads(res.stdout)]
    assert got == [("KB105", 10, 5), ("KB117", 10, 9)]
    assert res.exit_code == 1
    assert doc.read_bytes() == (HEAD + "- 见 §9.9\x00\n").encode()
