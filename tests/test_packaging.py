"""Every package under src/kb ships (pyproject lists packages explicitly), and so do the templates;
the wheel builds, installs into a fresh venv and runs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_every_package_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(p.parent.relative_to(REPO / "src").parts)
        for p in (REPO / "src/kb").rglob("__init__.py")
    }
    assert on_disk | {"kb.templates"} == listed


def test_templates_folder_is_the_kb_templates_package() -> None:
    conf = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert conf["package-dir"]["kb.templates"] == "templates"
    assert conf["package-data"]["kb.templates"] == ["*.j2"]


@pytest.mark.packaging
def test_the_wheel_installs_in_a_fresh_venv_and_runs(tmp_path: Path) -> None:
    """Build kb's wheel as a user or the release workflow would (``pip wheel``, the build backend
    from the package index in an isolated environment), ``pip install`` it into a fresh venv
    without reaching the index again (kb's dependencies come from the running interpreter's
    site-packages, put on the venv's path), then run the venv's ``kb`` script: the entry point,
    the templates and every package ship.
    ~15 s on 2 cores; skipped, with the reason, when the build backend cannot be fetched."""
    source = tmp_path / "source"  # a copy: the build writes build/ and *.egg-info beside the sources
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    for folder in ("src", "templates"):
        shutil.copytree(REPO / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    dist = tmp_path / "dist"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(source)],
                           capture_output=True, text=True, timeout=300, check=False, env=env)
    if built.returncode != 0:
        if re.search(r"(?i)no matching distribution|could not find a version|connection|network|resolve", built.stderr):
            pytest.skip(f"the build backend could not be fetched from the package index: {built.stderr.strip()[-200:]}")
        raise AssertionError(built.stderr)
    [wheel] = dist.glob("kb_e1brief-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    assert {"kb/templates/e1prep.zh.md.j2", "kb/templates/e1prep.en.md.j2", "kb/cli/__init__.py",
            "kb/verify/bibtex.py", "kb/store/words.py"} <= names
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    # this interpreter's pip installs into the venv (pip >= 22.3: --python); no ensurepip, seconds saved
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
                                "--no-index", str(wheel)],
                               capture_output=True, text=True, timeout=120, check=False, env=env)
    assert installed.returncode == 0, installed.stderr
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    deps = [p for p in sys.path if p.endswith("site-packages")]
    (Path(site) / "kb_deps.pth").write_text("\n".join(deps) + "\n", encoding="utf-8")
    found = subprocess.run([str(py), "-c", "import kb; print(kb.__file__)"], capture_output=True, text=True,
                           env=env, check=False, cwd=tmp_path)
    assert found.returncode == 0, found.stderr
    where = found.stdout.strip()
    assert where.startswith(site), where  # the installed copy, not the checkout
    version = subprocess.run([str(venv / "bin" / "kb"), "--version"], capture_output=True, text=True, env=env,
                             cwd=tmp_path, timeout=60, check=False)
    assert version.returncode == 0 and version.stdout.strip().startswith("kb "), version.stderr
    demo = tmp_path / "demo"
    demo.mkdir()
    shutil.copy2(REPO / "kb.yaml", demo / "kb.yaml")
    for folder in ("organized", "inbox"):
        shutil.copytree(REPO / folder, demo / folder, ignore=shutil.ignore_patterns(".kb"))
    brief = subprocess.run([str(venv / "bin" / "kb"), "digest", "inference", "--date", "2026-07-31", "--out", "-"],
                           capture_output=True, text=True, env=env, cwd=demo, timeout=120, check=False)
    assert brief.returncode == 0, brief.stderr
    assert brief.stdout.startswith("<!-- kb:brief kb ") and "# inference · E1 预消化简报（2026-07-31）" in brief.stdout
