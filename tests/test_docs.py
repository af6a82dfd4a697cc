"""Docs can't drift: the CLI reference equals --help, every command has help and an example,
README's commands are the ones CI runs, and the claim JSON example is a real claim."""

from __future__ import annotations

import json
import re
from pathlib import Path

import typer.main

import kb.cli  # noqa: F401  (registers every command)
from kb.core.claims import Claim
from kb.cli.common import app
from kb.cli.reference import _walk, cli_reference

REPO = Path(__file__).resolve().parents[1]


def test_cli_reference_is_up_to_date() -> None:
    expected = cli_reference()
    assert (REPO / "docs/cli.md").read_text(encoding="utf-8") == expected, (
        "docs/cli.md is stale: run `python -m kb.cli.reference > docs/cli.md`"
    )


def test_every_command_has_help_with_an_example() -> None:
    root = typer.main.get_command(app)
    for path, cmd in _walk(root, ["kb"]):
        if hasattr(cmd, "list_commands"):
            assert cmd.help, path
            continue
        assert cmd.help and len(cmd.help.strip()) > 20, f"{' '.join(path)} has no help"
        assert "Example:" in cmd.help, f"{' '.join(path)} help has no Example: block"


def test_readme_starts_with_the_two_commands_and_ci_runs_the_second() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    assert "kb digest" in blocks[0] and "pip install" in blocks[0]
    assert "python -m pytest" in blocks[1] and "pip install" in blocks[1]
    ci = (REPO / ".ci/run").read_text(encoding="utf-8")
    assert blocks[1] in ci


def test_claim_json_example_validates() -> None:
    text = (REPO / "docs/claims.md").read_text(encoding="utf-8")
    example = re.search(r"```json\n(.*?)\n```", text, re.S).group(1)
    claim = Claim.model_validate(json.loads(example))
    assert claim.quantities[0].raw == claim.text[claim.quantities[0].start:claim.quantities[0].end]


def test_brief_doc_counts_are_the_demo_briefs() -> None:
    """docs/brief.md's figures of the demo night (lines, increments, author demotions, conflicts)
    are those of the golden demo brief it names."""
    import re

    doc = (REPO / "docs" / "brief.md").read_text(encoding="utf-8")
    m = re.search(r"\(`tests/golden/demo-2026-07-31`\) is (\d+) lines .*? for (\d+) increments,\s+(\d+) demoted "
                  r"by their authors and (\d+) conflicts", doc, re.S)
    assert m is not None
    brief = (REPO / "tests" / "golden" / "demo-2026-07-31" / "expected.zh.md").read_text(encoding="utf-8")
    increments = re.search(r"^- 增量 (\d+) 项", brief, re.M)
    demoted = re.search(r"作者降级 (\d+)$", brief, re.M)
    conflicts = re.search(r"矛盾 (\d+) 组", brief)
    assert increments and demoted and conflicts
    figures = (len(brief.splitlines()), int(increments.group(1)), int(demoted.group(1)), int(conflicts.group(1)))
    assert tuple(map(int, m.groups())) == figures == (162, 4, 3, 2)
    assert f"counted in §0 (`作者降级 {figures[2]}`)" in doc
