"""A template kb cannot find is reported with every folder kb looked in and how to fix it
(blind night: kb run from a copy of its source outside the repository said
``template 'e1prep.en.md.j2' not found (searched: )``, naming nowhere)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import write_files

SRC = Path(__file__).resolve().parents[1] / "src" / "kb"
KB_YAML = """\
timezone: "+08:00"
cutoff: "22:00"
executor: night
default_topic: specdec
topics: {specdec: [specdec]}
entities: {vLLM: []}
"""
DOC = "---\ntopic: specdec\nversion: 1\nupdated: 2026-12-03T05:00:00+08:00\n---\n# specdec\n\n## §1 A\n\n- vLLM TPOT 12 ms.\n"


def _digest(tmp_path: Path, extra_yaml: str = "") -> subprocess.CompletedProcess[str]:
    """``kb digest`` of a one-line KB, run from a copy of kb's source with no templates/ beside it."""
    shutil.copytree(SRC, tmp_path / "src" / "kb", ignore=shutil.ignore_patterns("__pycache__"))
    kb = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML + extra_yaml, "organized/knowledge/specdec.md": DOC,
                                       "inbox/ana/2026-12-04T1000-specdec.md": "- vLLM TPOT 11 ms.\n"})
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "src")}
    return subprocess.run([sys.executable, "-m", "kb", "digest", "--date", "2026-12-04", "--lang", "en", "--out", "-"],
                          cwd=kb, env=env, capture_output=True, text=True, timeout=120)


def test_the_message_names_every_folder_looked_in_and_the_fix(tmp_path: Path) -> None:
    r = _digest(tmp_path)
    assert r.returncode == 2
    assert (f"error: template 'e1prep.en.md.j2' not found; looked in: {tmp_path}/src/kb/templates (shipped in the "
            f"installed kb: no such folder); {tmp_path}/templates (the kb repository's templates/: no such folder). "
            "Fix: set `templates_dir: <folder>` in kb.yaml to a folder of the KB holding e1prep.en.md.j2") in r.stderr


def test_a_missing_templates_dir_is_named_first(tmp_path: Path) -> None:
    r = _digest(tmp_path, "templates_dir: my-templates\n")
    assert r.returncode == 2
    assert (f"looked in: {tmp_path}/kb/my-templates (templates_dir of kb.yaml: no such folder); "
            f"{tmp_path}/src/kb/templates (shipped in the installed kb: no such folder); ") in r.stderr


def test_templates_dir_is_the_fix(tmp_path: Path) -> None:
    (tmp_path / "kb" / "my-templates").mkdir(parents=True)
    shutil.copy(SRC.parents[1] / "templates" / "e1prep.en.md.j2", tmp_path / "kb" / "my-templates")
    r = _digest(tmp_path, "templates_dir: my-templates\n")
    assert r.returncode == 0, r.stderr
    assert "\n# specdec · E1 pre-digest brief (2026-12-04)\n" in r.stdout
