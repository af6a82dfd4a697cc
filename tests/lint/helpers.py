"""Shared helpers of the lint tests: fixture KBs and inline expectation markers."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

from kb.lint.base import Finding
from kb.lint.run import lint_paths

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lint"
_MARK_RE = re.compile(r"<!--\s*(KB\d{3})\s*-->")


def expected_hits(path: Path, code: str) -> Counter[int]:
    """Line -> number of ``<!-- KBnnn -->`` markers for ``code`` on that line."""
    out: Counter[int] = Counter()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        out[n] += sum(1 for m in _MARK_RE.finditer(line) if m.group(1) == code)
    return +out


def make_kb(tmp: Path, code: str) -> Path:
    """A temporary KB for ``code``'s fixtures: its ``kb/`` tree when it has one, else empty."""
    root = tmp / "kb"
    tree = FIXTURES / code / "kb"
    if tree.is_dir():
        shutil.copytree(tree, root)
    (root / "organized" / "knowledge").mkdir(parents=True, exist_ok=True)
    return root


def lint_fixture(tmp: Path, code: str, name: str, select: list[str] | None = None) -> list[Finding]:
    """Findings of ``fixtures/lint/<code>/<name>.md`` linted as a living doc of a fixture KB."""
    root = make_kb(tmp, code)
    target = root / "organized" / "knowledge" / f"{name}.md"
    target.write_bytes((FIXTURES / code / f"{name}.md").read_bytes())
    run = lint_paths([target], select=select or [code])
    assert len(run.results) == 1
    return run.results[0].findings


def hits(findings: list[Finding]) -> Counter[int]:
    """Line -> number of findings on it."""
    return Counter(f.line for f in findings)
