"""Output formats: JSON list, SARIF 2.1.0 (validated against the OASIS schema), GitHub
workflow commands, plain and rich text; exit codes follow error-level findings."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from kb.lint.base import Finding
from kb.lint.output import to_github, to_json, to_sarif, to_text
from kb.lint.registry import RULES

DOC = """---
topic: t
version: 1
updated: 2026-07-31T05:00:00+08:00
citations: 9
---
# t

## §1 a

- 见 §2.13，依据见 Q105（HF 票 212）。
- **2.03×**加速
"""


@pytest.fixture
def kb_doc(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    (root / "organized" / "knowledge").mkdir(parents=True)
    (root / "organized" / "knowledge" / "t.md").write_text(DOC, encoding="utf-8")
    return root


def test_json_is_a_list_of_findings(kb_doc: Path, run_kb) -> None:
    r = run_kb(["lint", "--format", "json"], cwd=kb_doc)
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert [(d["line"], d["column"], d["code"], d["severity"]) for d in data] == [
        (5, 12, "KB109", "error"), (11, 5, "KB105", "error"), (11, 15, "KB107", "warning"), (12, 3, "KB114", "warning"),
    ]
    assert data[0] == {
        "path": "organized/knowledge/t.md", "line": 5, "column": 12, "code": "KB109",
        "name": "citation-count-stale", "severity": "error",
        "message": "citations is 9 but the document cites 0 distinct sources: set `citations: 0` (kb lint --fix)",
        "fixable": True,
    }
    assert set(data[1]) == {"path", "line", "column", "code", "name", "severity", "message", "fixable"}


def test_sarif_validates_against_the_2_1_0_schema(kb_doc: Path, run_kb, shared: Path) -> None:
    import jsonschema

    schema_path = shared / "schemas" / "sarif-schema-2.1.0.json"
    if not schema_path.is_file():
        pytest.skip("optional real-data fixtures: ../shared/schemas/sarif-schema-2.1.0.json is absent (docs/testing.md)")
    r = run_kb(["lint", "--format", "sarif"], cwd=kb_doc)
    assert r.exit_code == 1
    log = json.loads(r.stdout)
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(log)
    run = log["runs"][0]
    assert log["version"] == "2.1.0"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == [r.code for r in RULES]
    assert [(x["ruleId"], x["level"], x["locations"][0]["physicalLocation"]["region"]["startLine"]) for x in run["results"]] == [
        ("KB109", "error", 5), ("KB105", "error", 11), ("KB107", "warning", 11), ("KB114", "warning", 12),
    ]
    first = run["results"][0]
    assert run["tool"]["driver"]["rules"][first["ruleIndex"]]["id"] == "KB109"
    assert first["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "organized/knowledge/t.md", "uriBaseId": "%SRCROOT%"}


def test_sarif_of_no_findings_and_of_odd_paths_validates(shared: Path) -> None:
    import jsonschema

    schema = json.loads((shared / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    f = Finding("知识/a b@1.md", 3, None, "KB105", "dangling-section-reference", "info", "x")
    for findings in ([], [f]):
        log = json.loads(to_sarif(findings, RULES))
        jsonschema.validators.validator_for(schema)(schema).validate(log)
    assert log["runs"][0]["results"][0]["level"] == "note"
    assert log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == \
        "%E7%9F%A5%E8%AF%86/a%20b@1.md"


def test_github_annotations(kb_doc: Path, run_kb) -> None:
    r = run_kb(["lint", "--format", "github", "--select", "KB105,KB114"], cwd=kb_doc)
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [
        "::error file=organized/knowledge/t.md,line=11,col=5,title=KB105::dangling-section-reference: §2.13 is not "
        "a section of this document: fix the number or add the section",
        "::warning file=organized/knowledge/t.md,line=12,col=3,title=KB114::ineffective-emphasis: '**' in '**2.03×**加'"
        " stays literal (CommonMark flanking fails next to punctuation): put a space or punctuation outside the ** "
        "(`**2.03×** 加速`, `**2.03×**，`)",
    ]


def test_github_escapes_properties_and_data() -> None:
    f = Finding("a,b:c.md", 1, None, "KB101", "front-matter-invalid", "info", "100% sure\nnext")
    assert to_github([f]) == "::notice file=a%2Cb%3Ac.md,line=1,title=KB101::front-matter-invalid: 100%25 sure%0Anext\n"


def test_plain_text_and_json_of_nothing() -> None:
    assert to_text([]) == "" and to_json([]) == "[]\n"
    f = Finding("p.md", 2, 4, "KB105", "dangling-section-reference", "error", "m")
    assert to_text([f]) == "p.md:2:4: KB105 [error] m (dangling-section-reference)\n"


def test_rich_text_groups_by_file_on_a_terminal(kb_doc: Path, run_kb, monkeypatch: pytest.MonkeyPatch) -> None:
    import kb.cli.lint_cmd as cmd

    buf = io.StringIO()
    monkeypatch.setattr(cmd, "console", Console(file=buf, force_terminal=True, width=200, color_system=None))
    r = run_kb(["lint", "--select", "KB105,KB109"], cwd=kb_doc)
    assert r.exit_code == 1
    lines = buf.getvalue().splitlines()
    assert lines[0] == "organized/knowledge/t.md"
    assert lines[1].split()[:3] == ["5:12", "error", "KB109"]
    assert lines[2].split()[:3] == ["11:5", "error", "KB105"]


def test_warnings_only_exit_zero_and_severity_override_exits_one(kb_doc: Path, run_kb) -> None:
    assert run_kb(["lint", "--select", "KB107,KB114"], cwd=kb_doc).exit_code == 0
    (kb_doc / "kb.yaml").write_text("lint:\n  severity: {KB114: error}\n", encoding="utf-8")
    assert run_kb(["lint", "--select", "KB107,KB114"], cwd=kb_doc).exit_code == 1


def test_summary_counts_findings_per_rule_most_first() -> None:
    from kb.lint.base import Finding
    from kb.lint.output import summary

    def f(code: str, sev: str) -> Finding:
        return Finding(path="d.md", line=1, column=None, code=code, name="x", severity=sev, message="m")

    text = summary([f("KB104", "warning"), f("KB105", "error"), f("KB104", "warning")], 1)
    assert text == "1 error, 2 warnings, 0 info in 1 file: KB104 ×2, KB105 ×1"
