"""Issue 12: the template ChoiceLoader falls back to the shipped templates and reads nothing outside."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import write_files
from kb.core.errors import TemplateError
from kb.brief.render import render


def _brief(demo_kb: Path, run_kb, *args: str) -> str:  # noqa: ANN001
    res = run_kb(["digest", "--out", "-", *args], cwd=demo_kb)
    assert res.exit_code == 0, res.stderr
    return res.stdout


def _set_templates_dir(demo_kb: Path, folder: str) -> None:
    cfg = demo_kb / "kb.yaml"
    cfg.write_text(cfg.read_text(encoding="utf-8") + f"templates_dir: {folder}\n", encoding="utf-8")


def test_templates_dir_without_the_file_falls_back_to_the_shipped_one(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    shipped = _brief(demo_kb, run_kb, "--lang", "en")
    write_files(demo_kb, {"tpl/other.md.j2": "other\n"})
    _set_templates_dir(demo_kb, "tpl")
    assert _brief(demo_kb, run_kb, "--lang", "en") == shipped


def test_override_one_file_that_extends_the_shipped_one(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    en = _brief(demo_kb, run_kb, "--lang", "en")
    write_files(demo_kb, {"tpl/e1prep.zh.md.j2": '{% extends "e1prep.en.md.j2" %}',
                          "tpl/e1prep.en.md.j2": 'MINE\n{% include "kb/e1prep.en.md.j2" %}'})
    _set_templates_dir(demo_kb, "tpl")
    assert _brief(demo_kb, run_kb, "--lang", "en") == "MINE\n" + en
    zh = _brief(demo_kb, run_kb, "--lang", "zh")  # the en template, with the zh run's list separator
    assert zh.startswith("MINE\n<!-- kb:brief") and "## 1. Increments" in zh and "## 1. 增量" not in zh


def test_a_template_linked_out_of_its_folder_is_refused(tmp_path: Path) -> None:
    secret = write_files(tmp_path, {"secret.txt": "TOP SECRET\n"}) / "secret.txt"
    folder = write_files(tmp_path / "kb", {"tpl/brief.j2": 'x{% include "leak.j2" %}'}) / "tpl"
    (folder / "leak.j2").symlink_to(secret)
    with pytest.raises(TemplateError, match=r"leak.j2: a symbolic link to .*secret.txt, outside the template folder"):
        render("brief.j2", {}, templates_dir=folder)


def test_include_of_an_absolute_path_reads_nothing(tmp_path: Path) -> None:
    secret = write_files(tmp_path, {"secret.txt": "TOP SECRET\n"}) / "secret.txt"
    folder = write_files(tmp_path / "kb", {"tpl/brief.j2": f'x{{% include "{secret}" %}}'}) / "tpl"
    with pytest.raises(TemplateError, match="not found"):
        render("brief.j2", {}, templates_dir=folder)


def test_templates_dir_outside_the_kb_is_refused(demo_kb: Path, run_kb, tmp_path: Path) -> None:  # noqa: ANN001
    outside = write_files(tmp_path / "elsewhere", {"e1prep.zh.md.j2": "stolen\n"})
    _set_templates_dir(demo_kb, str(outside))
    res = run_kb(["digest", "--out", "-"], cwd=demo_kb)
    assert res.exit_code == 2 and "the templates_dir would be outside the KB" in res.stderr
    assert "stolen" not in res.stdout
