"""docs/ci.md: its GitHub Actions workflows parse, and every `kb` command they run exists."""

from __future__ import annotations

import re
from pathlib import Path

from ruamel.yaml import YAML

REPO = Path(__file__).resolve().parents[1]


def _workflows() -> dict[str, dict]:
    text = (REPO / "docs/ci.md").read_text(encoding="utf-8")
    out = {}
    for block in re.findall(r"```yaml\n(.*?)```", text, re.S):
        name = re.match(r"# \.github/workflows/(\S+)", block).group(1)
        out[name] = YAML(typ="safe", pure=True).load(block)
    return out


def _kb_commands(workflow: dict) -> list[list[str]]:
    runs = [step["run"] for job in workflow["jobs"].values() for step in job["steps"] if "run" in step]
    return [[m.group(1)] for run in runs for m in re.finditer(r"(?:^|[\s(])kb ([a-z][a-z-]*)", run)]


def test_workflows_parse_and_trigger_as_documented() -> None:
    flows = _workflows()
    assert sorted(flows) == ["kb-lint.yml", "kb-nightly.yml"]
    lint, nightly = flows["kb-lint.yml"], flows["kb-nightly.yml"]
    assert set(lint["on"]) == {"push", "pull_request"} and lint["permissions"]["security-events"] == "write"
    uses = [s.get("uses", "") for s in lint["jobs"]["lint"]["steps"]]
    assert "github/codeql-action/upload-sarif@v3" in uses
    assert nightly["on"]["schedule"] == [{"cron": "5 14 * * *"}]
    assert any(s.get("uses", "").startswith("peter-evans/create-pull-request@") for s in nightly["jobs"]["digest"]["steps"])


def test_workflows_name_kb_commands_that_exist() -> None:
    from kb.cli.common import app

    commands = {c.name or c.callback.__name__ for c in app.registered_commands}
    commands |= {g.name for g in app.registered_groups}
    used = [cmd for flow in _workflows().values() for cmd in _kb_commands(flow)]
    assert sorted({c[0] for c in used}) == ["digest", "lint"]
    assert all(c[0] in commands for c in used), (used, commands)
    text = (REPO / "docs/ci.md").read_text(encoding="utf-8")
    assert "pip install kb-e1brief" in text
    assert re.search(r'^name = "kb-e1brief"$', (REPO / "pyproject.toml").read_text(), re.M)
