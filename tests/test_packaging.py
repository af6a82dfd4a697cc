"""Every package under src/kb ships (pyproject lists packages explicitly), and so do the templates."""

from __future__ import annotations

import tomllib
from pathlib import Path

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
