"""The terminal as a new user meets it: the progress bar's label, what --install-completion
writes, completion of topics, subjects, metric keys and --kind, an empty night kb picked
itself, plurals; and --format json of init, ingest, bump and digest."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from conftest import REPO, write_files


def test_the_progress_bar_shows_its_label_not_markup(monkeypatch: pytest.MonkeyPatch) -> None:
    from kb.cli import common

    buf = io.StringIO()
    fake = Console(file=buf, force_terminal=True, width=100, color_system=None)
    monkeypatch.setattr(common.console_err, "_console", fake)
    ticks = iter([0.0, 1.0, 1.1, 1.2, 1.3])
    with common.progress_bar("parsing", clock=lambda: next(ticks)) as progress:
        progress(10, 40)
        progress(20, 40)
    shown = buf.getvalue()
    assert "parsing" in shown and "20/40" in shown
    assert "[progress.description]" not in shown


def _kb(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PYTHONPATH": str(REPO / "src"), **env}
    return subprocess.run([sys.executable, "-m", "kb", *args], capture_output=True, text=True, cwd=cwd, env=full,
                          timeout=120, check=False)


def test_install_completion_says_what_it_wrote(tmp_path: Path) -> None:
    r = _kb(["--install-completion", "bash"], tmp_path, HOME=str(tmp_path), SHELL="/bin/bash",
            _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1")
    assert r.returncode == 0, r.stderr
    script = tmp_path / ".bash_completions" / "kb.sh"
    assert r.stdout.splitlines() == [
        f"bash completion for kb: wrote {script}",
        "and changed ~/.bashrc (a line that sources it, added once)",
        f"It works in shells started from now on. To undo: delete {script} and that line; "
        "to install it yourself instead: kb --show-completion > FILE, and source FILE",
    ]
    assert f"source '{script}'" in (tmp_path / ".bashrc").read_text(encoding="utf-8")


def _complete(words: str, cwd: Path) -> list[str]:
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    r = _kb([], cwd, _KB_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD=str(cword))
    return r.stdout.split()


def test_completion_of_values(demo_kb: Path, run_kb) -> None:  # type: ignore[no-untyped-def]
    assert run_kb(["ingest"], cwd=demo_kb).exit_code == 0
    assert _complete("kb claims --kind s", demo_kb) == ["secondhand"]
    assert _complete("kb diff ", demo_kb) == ["inference", "llm-infra"]  # kb.yaml topics
    assert _complete("kb history TG", demo_kb) == ["TGi"]  # entity tgi, in the case typed
    assert _complete("kb claims --subject arXiv:2607.266", demo_kb) == ["arXiv:2607.26627", "arXiv:2607.26672"]
    assert "ci_job_minutes" in _complete("kb trace vLLM --metric ci", demo_kb)
    assert _complete("kb history TGI --metric eol", demo_kb) == ["eol_date"]
    assert _complete("kb claims --kind s", demo_kb.parent) == ["secondhand"]  # outside a KB: kinds only
    assert _complete("kb diff ", demo_kb.parent) == []


def test_an_empty_night_kb_picked_says_which_nights_have_files(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "kb"
    assert run_kb(["init", str(root)]).exit_code == 0
    write_files(root, {"inbox/tom/2099-08-03-0900-late.md": "# 速报\n\n- vLLM 的 TTFT 降低 25%（来源：blog）。\n"})
    r = run_kb(["digest", "--executor", "tom", "--out", "-"], cwd=root)
    assert r.exit_code == 0, r.stderr
    assert "note: nights with files: 2099-08-03 (1 file); pick one with --date 2099-08-03" in r.stderr
    r = run_kb(["digest", "--executor", "tom", "--date", "2026-08-01", "--out", "-"], cwd=root)
    assert "nights with files" not in r.stderr  # a night asked for is rendered as asked


def test_plurals(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "kb"
    assert run_kb(["init", str(root)]).exit_code == 0
    write_files(root, {"inbox/tom/2026-08-01-0900-a.md": "# 速报\n\n- vLLM 的 TTFT 降低 25%（来源：blog）。\n"})
    assert run_kb(["ingest"], cwd=root).stdout.strip() == "2 parsed, 0 unchanged, 0 failed; 1 claim"
    assert run_kb(["claims"], cwd=root).stderr.strip().splitlines()[-1] == "1 claim"


def test_json_of_init_ingest_bump(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "kb"
    r = run_kb(["init", str(root), "--topic", "rag", "--format", "json"])
    assert json.loads(r.stdout) == {"created": ["inbox/", "organized/paper_cards/", "organized/knowledge/",
                                                "organized/knowledge/history/", "kb.yaml", ".gitignore",
                                                "organized/knowledge/rag.md",
                                                "organized/knowledge/history/rag/.bumped-in/v1.md"], "kept": []}
    r = run_kb(["ingest", "--format", "json"], cwd=root)
    assert json.loads(r.stdout) == {"parsed": 1, "unchanged": 0, "failed": 0, "removed": 0, "claims": 0,
                                    "problems": [], "notes": []}
    doc = root / "organized/knowledge/rag.md"
    doc.write_text(doc.read_text(encoding="utf-8") + "\n- 新条目。\n", encoding="utf-8")
    r = run_kb(["bump", "rag", "--updated", "2099-08-01T05:00", "--format", "json"], cwd=root)
    assert r.exit_code == 0, r.stderr
    got = json.loads(r.stdout)
    assert (got["doc"], got["snapshot"], got["old_version"], got["new_version"], got["snapshot_existed"]) == (
        "organized/knowledge/rag.md", "organized/knowledge/history/rag/v1.md", 1, 2, False)
    assert got["updated"].startswith("2099-08-01T05:00")


def test_digest_json_is_the_brief_context_with_the_documented_keys(run_kb, demo_kb: Path) -> None:  # type: ignore[no-untyped-def]
    before = sorted(p for p in (demo_kb / "inbox").rglob("*") if p.is_file())
    r = run_kb(["digest", "inference", "--date", "2026-07-31", "--executor", "tom", "--format", "json"], cwd=demo_kb)
    assert sorted(p for p in (demo_kb / "inbox").rglob("*") if p.is_file()) == before  # nothing written
    assert r.exit_code == 0, r.stderr
    ctx = json.loads(r.stdout)
    doc = (REPO / "docs/json.md").read_text(encoding="utf-8")
    table = doc.split("Top-level keys")[1]
    documented = [k for row in re.findall(r"^\| (`[^|]+`) \|", table, re.M) for k in re.findall(r"`([a-z_]+)`", row)]
    assert documented == list(ctx)  # every key documented, in order
    assert (ctx["topic"], ctx["executor"], ctx["night"]) == ("inference", "tom", "2026-07-31")
    assert [c["label"] for c in ctx["conflicts"]][0] == "TGI"
    r = run_kb(["digest", "--format", "json", "--out", "x.md"], cwd=demo_kb)
    assert r.exit_code == 2 and "--format json prints the brief's context to standard output" in r.stderr
