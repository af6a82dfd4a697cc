"""The CI recipes (docs/ci.md, docs/github-actions.md) and the release workflow: each workflow
parses, triggers as documented, and every `kb` command it runs exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ruamel.yaml import YAML

REPO = Path(__file__).resolve().parents[1]
RECIPES = ("docs/ci.md", "docs/github-actions.md")


def _workflows(doc: str) -> dict[str, dict]:
    text = (REPO / doc).read_text(encoding="utf-8")
    out = {}
    for block in re.findall(r"```yaml\n(.*?)```", text, re.S):
        name = re.match(r"# \.github/workflows/(\S+)", block).group(1)
        out[name] = YAML(typ="safe", pure=True).load(block)
    return out


def _runs(workflow: dict) -> list[str]:
    return [step["run"] for job in workflow["jobs"].values() for step in job["steps"] if "run" in step]


def _kb_commands(workflow: dict) -> list[str]:
    return [m.group(1) for run in _runs(workflow) for m in re.finditer(r"(?:^|[\s($])kb ([a-z][a-z-]*)", run)]


def _known_commands() -> set[str]:
    import kb.cli  # noqa: F401  (registers every command)
    from kb.cli.common import app

    return {c.name or c.callback.__name__ for c in app.registered_commands} | {g.name for g in app.registered_groups}


@pytest.mark.parametrize("doc", RECIPES)
def test_every_recipe_parses_and_names_kb_commands_that_exist(doc: str) -> None:
    flows = _workflows(doc)
    assert flows
    known = _known_commands()
    for name, flow in flows.items():
        used = _kb_commands(flow)
        assert used, name
        assert set(used) <= known, (name, used)
        installs = [r for r in _runs(flow) if "pip install" in r]
        assert installs and all("git+https://github.com/OWNER/kb@v" in r for r in installs), name


def test_lint_recipe_uploads_sarif_even_when_lint_fails() -> None:
    for doc in RECIPES:
        lint = _workflows(doc)["kb-lint.yml"]
        assert set(lint["on"]) == {"push", "pull_request"} and lint["permissions"]["security-events"] == "write"
        steps = lint["jobs"]["lint"]["steps"]
        run = next(s for s in steps if s.get("id") == "lint")
        assert run["continue-on-error"] is True and "--format sarif" in run["run"]
        assert any(s.get("uses") == "github/codeql-action/upload-sarif@v3" for s in steps)


def test_nightly_recipe_branch_per_night_executor_setting_and_late_files() -> None:
    text = (REPO / "docs/ci.md").read_text(encoding="utf-8")
    nightly = _workflows("docs/ci.md")["kb-nightly.yml"]
    on = nightly["on"]
    assert on["schedule"] == [{"cron": "5 14 * * *"}]
    assert on["push"]["branches"] == ["main"] and "inbox/**" in on["push"]["paths"]  # files pushed late
    assert "!inbox/*/*-e1prep.md" in on["push"]["paths"]  # merging a brief starts no render
    assert set(on["workflow_dispatch"]["inputs"]) == {"date", "executor"}
    steps = nightly["jobs"]["digest"]["steps"]
    pr = next(s for s in steps if s.get("uses", "").startswith("peter-evans/create-pull-request@"))
    assert pr["with"]["branch"] == "${{ steps.night.outputs.branch }}"
    night = next(s for s in steps if s.get("id") == "night")
    assert 'echo "branch=kb/e1-brief/$night"' in night["run"]  # one branch per night
    render = next(s for s in steps if s.get("id") == "brief")
    assert render["env"]["EXECUTOR"] == "${{ inputs.executor }}"  # the input, else kb.yaml executor
    assert "--executor" in render["run"] and "bot" not in render["run"]
    assert "Allow GitHub Actions to create and approve pull requests" in " ".join(text.split())  # the setting


def test_release_workflow_builds_checks_and_publishes_on_a_tag() -> None:
    flow = YAML(typ="safe", pure=True).load((REPO / ".github/workflows/release.yml").read_text(encoding="utf-8"))
    assert flow["on"]["push"]["tags"] == ["v*"]
    jobs = flow["jobs"]
    build = " ".join(_runs({"jobs": {"build": jobs["build"]}}))
    assert "python -m build" in build and "twine check --strict dist/*" in build
    publish = jobs["publish"]
    assert publish["needs"] == "build" and publish["permissions"] == {"id-token": "write"}  # trusted publishing
    assert publish["environment"]["name"] == "pypi"
    assert any(s.get("uses", "").startswith("pypa/gh-action-pypi-publish@") for s in publish["steps"])
    assert not any("password" in (s.get("with") or {}) for s in publish["steps"])  # no token
    assert re.search(r'^name = "kb-e1brief"$', (REPO / "pyproject.toml").read_text(), re.M)
