"""The pre-commit hook, run in a temporary git repository the way pre-commit runs it.

pre-commit itself is not a test dependency: installing the hook's environment would need
the network. The test reads .pre-commit-hooks.yaml, validates it with pre-commit's own
manifest schema when pre-commit happens to be importable, picks the staged files as
pre-commit does (``git diff --cached --name-only``, the ``files`` regex, ``types``), and runs
``entry`` + file names from the repository root with the installed ``kb`` on PATH.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

REPO = Path(__file__).resolve().parents[2]
FRONT = "---\ntopic: inference\nversion: 2\nupdated: 2026-07-31T05:00:00+08:00\ncitations: {n}\n---\n"
BODY = "# 推理\n\n## §1 引擎\n\n- MLA（来源：arXiv:2405.04434）。\n"


def _hook() -> dict:
    hooks = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    [hook] = [h for h in hooks if h["id"] == "kb-lint"]
    return hook


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True).stdout


def _run_hook(repo: Path, hook: dict) -> subprocess.CompletedProcess[str]:
    staged = _git(repo, "diff", "--cached", "--name-only", "-z").split("\0")
    files = [f for f in staged if f and re.search(hook["files"], f) and (
        "markdown" not in hook.get("types", []) or f.endswith((".md", ".markdown")))]
    if not files:
        return subprocess.CompletedProcess([], 0, "", "")
    bindir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("KB_CONFIG_DIR", None)
    return subprocess.run([*shlex.split(hook["entry"]), *hook.get("args", []), *files], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)


def test_manifest_fields() -> None:
    hook = _hook()
    assert hook["entry"] == "kb lint" and hook["language"] == "python"
    assert hook["files"] == r"^organized/knowledge/[^/]+\.md$"
    pattern = re.compile(hook["files"])
    assert pattern.search("organized/knowledge/inference.md")
    assert not pattern.search("organized/knowledge/history/inference/v44.md")
    assert not pattern.search("inbox/jay/2026-07-31-x.md")
    try:
        from pre_commit.clientlib import load_manifest  # type: ignore[import-not-found]
    except ImportError:
        return
    assert load_manifest(str(REPO / ".pre-commit-hooks.yaml"))[0]["id"] == "kb-lint"


def test_hook_runs_in_a_temporary_git_repo(tmp_path: Path) -> None:
    if shutil.which("git") is None or not (Path(sys.executable).parent / "kb").exists():
        pytest.skip("git or the kb console script is not available")
    hook = _hook()
    repo = tmp_path / "repo"
    (repo / "organized" / "knowledge" / "history" / "inference").mkdir(parents=True)
    (repo / "kb.yaml").write_text("timezone: \"+08:00\"\n", encoding="utf-8")
    (repo / ".gitignore").write_text(".kb/\n", encoding="utf-8")
    doc = repo / "organized" / "knowledge" / "inference.md"
    doc.write_text(FRONT.format(n=7) + BODY, encoding="utf-8")
    # a broken history snapshot is not linted: the files regex leaves history/ out
    (repo / "organized" / "knowledge" / "history" / "inference" / "v1.md").write_text("# no front matter\n", encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    failed = _run_hook(repo, hook)
    assert failed.returncode == 1, failed.stderr
    assert failed.stdout.splitlines() == [
        "organized/knowledge/inference.md:5:12: KB109 [error] citations is 7 but the document cites 1 distinct "
        "sources: set `citations: 1` (kb lint --fix) (citation-count-stale)",
        "organized/knowledge/inference.md:11:16: KB104 [warning] arXiv:2405.04434 has no paper card: add one under "
        "organized/paper_cards/ (arxiv-id-without-card)",
    ]
    doc.write_text(FRONT.format(n=1) + BODY, encoding="utf-8")
    _git(repo, "add", ".")
    passed = _run_hook(repo, hook)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "0 errors, 1 warning, 0 info in 1 file" in passed.stderr
    assert not (repo / ".kb").exists() or ".kb" not in _git(repo, "status", "--porcelain")
