"""Every command's ``--help`` examples run as written (pasted into a shell) on a copy of the demo
KB, and none is a usage or input error (exit 2): an example parsed from the help text a user
reads at 80 columns, a line ending in ``\\`` joined to the next. Commands that ask arXiv run
with ``--offline`` (exit 3 when not cached is no usage error)."""

from __future__ import annotations

import os
import shlex
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import typer
import typer.main

from kb.cli.reference import _walk

REPO = Path(__file__).resolve().parents[1]
NETWORK = (("verify",), ("card", "new"))


def help_examples(width: int = 80) -> list[tuple[str, str]]:
    """``(command, example)`` of every example under ``Example:`` in every command's help, as
    the help prints it at ``width`` columns (continued lines joined)."""
    import kb.cli  # noqa: F401  (registers every command)
    from kb.cli.common import app

    out: list[tuple[str, str]] = []
    for path, cmd in _walk(typer.main.get_command(app), ["kb"]):
        name = " ".join(path)
        with typer.Context(cmd, info_name=name, terminal_width=width, max_content_width=width) as ctx:
            lines = cmd.get_help(ctx).split("\n")
        inside, pending = False, ""
        for line in lines:
            if line.strip() in ("Example:", "Examples:"):
                inside = True
            elif inside and line.strip() and not line.startswith(" "):
                inside = False
            elif inside and line.strip():
                text = pending + line.strip()
                if text.endswith("\\"):
                    pending = text[:-1]
                    continue
                pending = ""
                out.append((name, text))
    return out


def test_the_examples_are_parsed_whole() -> None:
    got = dict(((c, e.split()[1] if c == "kb" else e[:40]), e) for c, e in help_examples())
    examples = [e for _, e in help_examples()]
    assert ("kb verify 2607.26627 arXiv:2607.26203v1 https://arxiv.org/pdf/2607.24410v2") in examples
    assert "kb export bibtex --all > refs.bib && papis bibtex read refs.bib import --all" in examples
    assert all(e.startswith(("kb ", "grep ")) for e in examples), examples
    assert len(examples) == 27 and got


@pytest.fixture
def kb_bin(tmp_path: Path) -> Path:
    """A ``kb`` on PATH that runs this tree's kb, appends ``--offline`` to commands that ask
    arXiv, and records each exit code with its arguments."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    script = bindir / "kb"
    script.write_text(
        "#!/bin/sh\n"
        'set -- "$@"\n'
        'case "$1 $2" in verify*|"card new") set -- "$@" --offline;; esac\n'
        f'PYTHONPATH="{REPO / "src"}" "{sys.executable}" -m kb "$@"\n'
        "rc=$?\n"
        'echo "$rc kb $*" >> "$KB_EXAMPLE_CODES"\n'
        "exit $rc\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return bindir


def test_every_help_example_runs_on_the_demo_without_a_usage_error(demo_kb: Path, kb_bin: Path,
                                                                   tmp_path: Path) -> None:
    (demo_kb / "notes").mkdir()
    (demo_kb / "notes" / "reading.md").write_text("今天读了 2607.26627 和 2607.26203。\n", encoding="utf-8")
    codes = tmp_path / "codes.txt"
    env = {**os.environ, "PATH": f"{kb_bin}{os.pathsep}{os.environ['PATH']}", "HOME": str(tmp_path / "home"),
           "KB_EXAMPLE_CODES": str(codes), "KB_ARXIV_API": "http://127.0.0.1:9/api/query"}
    (tmp_path / "home").mkdir()
    ran: list[str] = []
    for _, example in help_examples():
        subprocess.run(["bash", "-c", example], cwd=demo_kb, env=env, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=300)
        ran.append(example)
    recorded = [line.split(" ", 1) for line in codes.read_text(encoding="utf-8").splitlines()]
    failed = [(rc, args) for rc, args in recorded if rc == "2"]
    assert failed == [], failed
    assert len(recorded) == 28, recorded  # every kb of every example ran (init's example runs two)
    assert {shlex.split(args)[1] for _, args in recorded} == {
        "init", "ingest", "claims", "diff", "digest", "verify", "history", "sources", "trace", "lint", "bump",
        "card", "export"}
