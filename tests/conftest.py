"""Shared fixtures: the demo KB copied to a temp folder, the shared/ folder, a CLI runner."""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads the developer's config or reaches a real arXiv."""
    monkeypatch.delenv("KB_CONFIG_DIR", raising=False)
    monkeypatch.setenv("KB_ARXIV_API", "http://127.0.0.1:9/api/query")
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)  # no developer's git user.name (kb digest's executor)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


def write_files(root: Path, files: dict[str, str]) -> Path:
    """Write ``{relative path: text}`` under ``root`` (folders made as needed); returns ``root``."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


_LINK_RE = re.compile(r"\[([^\]]+)\]\([^)\s]+\)")


def unlinked(text: str) -> str:
    """A brief with its ``[path:line](…#Lline)`` links back to their text."""
    return _LINK_RE.sub(r"\1", text)


def line_starting(text: str, start: str) -> str:
    """The first line of ``text`` that starts with ``start`` (StopIteration when none does)."""
    return next(x for x in text.splitlines() if x.startswith(start))


def digest_brief(root: Path, files: dict[str, str], date: str) -> str:
    """``files`` written under ``root``, then ``kb digest --date DATE --out -`` run in this process
    (exit 0 asserted): the brief, :func:`unlinked`."""
    from typer.testing import CliRunner

    from kb.cli import app

    kb = write_files(root, files)
    res = CliRunner().invoke(app, ["digest", "--date", date, "--out", "-", "--kb", str(kb)])
    assert res.exit_code == 0, res.output
    return unlinked(res.stdout)


@pytest.fixture
def shared() -> Path:
    """``../shared`` beside the repo; the test is skipped when it is absent (fresh clone)."""
    if not SHARED.is_dir():
        pytest.skip("optional real-data fixtures: ../shared is absent (docs/testing.md)")
    return SHARED


@pytest.fixture
def demo_kb(tmp_path: Path) -> Path:
    """A private copy of the repo's demo KB (kb.yaml, organized/, inbox/)."""
    dest = tmp_path / "demo"
    dest.mkdir()
    shutil.copy2(REPO / "kb.yaml", dest / "kb.yaml")
    for folder in ("organized", "inbox"):
        shutil.copytree(REPO / folder, dest / folder, ignore=shutil.ignore_patterns(".kb"))
    return dest


@dataclass
class Result:
    """What one ``kb`` invocation did."""

    exit_code: int
    stdout: str
    stderr: str


@pytest.fixture
def run_kb(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """Run ``kb ARGS…`` in-process: ``run_kb(["claims", "--format", "json"], cwd=path)``."""
    from kb.cli import main
    from kb.cli.common import state

    def run(args: list[str], cwd: Path | None = None, stdin: str | None = None) -> Result:
        if cwd is not None:
            monkeypatch.chdir(cwd)
        if stdin is not None:
            import io

            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        state.kb = None
        state.traceback = False
        capsys.readouterr()
        try:
            main(args)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        out, err = capsys.readouterr()
        return Result(code, out, err)

    yield run
    os.environ.pop("KB_CONFIG_DIR", None)
