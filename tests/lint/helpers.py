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


def make_kb(tmp: Path, code: str, name: str = "") -> Path:
    """A temporary KB for ``code``'s fixtures: its ``kb-<name>/`` tree (a rule of the KB's own
    files: one KB each for bad and good), else its ``kb/`` tree when it has one, else empty."""
    root = tmp / "kb"
    tree = FIXTURES / code / f"kb-{name}"
    if not tree.is_dir():
        tree = FIXTURES / code / "kb"
    if tree.is_dir():
        shutil.copytree(tree, root)
    (root / "organized" / "knowledge").mkdir(parents=True, exist_ok=True)
    return root


def lint_fixture(tmp: Path, code: str, name: str, select: list[str] | None = None) -> list[Finding]:
    """Findings of ``fixtures/lint/<code>/<name>.md`` linted as a living doc of a fixture KB."""
    root = make_kb(tmp, code, name)
    target = root / "organized" / "knowledge" / f"{name}.md"
    target.write_bytes((FIXTURES / code / f"{name}.md").read_bytes())
    run = lint_paths([target], select=select or [code])
    assert run.results[0].path == f"organized/knowledge/{name}.md"
    # (a rule of the KB's own files, KB119: its findings are in results of those files)
    return [f for r in run.results for f in r.findings]


def kb_expected_hits(code: str, name: str) -> Counter[tuple[str, int]]:
    """``(KB-relative path, line)`` -> markers for ``code`` in the files of the fixture KB ``kb-<name>/``."""
    tree = FIXTURES / code / f"kb-{name}"
    out: Counter[tuple[str, int]] = Counter()
    for path in sorted(tree.rglob("*.md")):
        rel = path.relative_to(tree).as_posix()
        out.update({(rel, line): n for line, n in expected_hits(path, code).items()})
    return out


def hits(findings: list[Finding]) -> Counter[int]:
    """Line -> number of findings on it."""
    return Counter(f.line for f in findings)
