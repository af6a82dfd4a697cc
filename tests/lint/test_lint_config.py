"""Inline kb-lint comments, kb.yaml lint settings, --select/--ignore and unknown codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.core.config import LintConfig
from kb.core.errors import ConfigError, InputError, UsageError
from kb.lint import registry
from kb.lint.engine import build_settings
from kb.lint.run import lint_paths

HEAD = "---\ntopic: t\nversion: 1\nupdated: 2026-07-31T05:00:00+08:00\n---\n# t\n\n## §1 a\n\n"


def _doc(tmp_path: Path, body: str, yaml: str | None = None) -> Path:
    root = tmp_path / "kb"
    (root / "organized" / "knowledge").mkdir(parents=True)
    if yaml is not None:
        (root / "kb.yaml").write_text(yaml, encoding="utf-8")
    doc = root / "organized" / "knowledge" / "t.md"
    doc.write_text(HEAD + body, encoding="utf-8")
    return doc


def _lines(doc: Path, **kw) -> list[tuple[int, str]]:
    run = lint_paths([doc], **kw)
    return [(f.line, f.code) for f in run.findings]


def test_disable_enable_next_line_line_and_file(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "\n".join([
        "- 见 §7。",                                          # 10: hit
        "<!-- kb-lint disable KB105 -->",                   # 11
        "- 见 §8。",                                          # 12: off
        "<!-- kb-lint enable KB105 -->",                    # 13
        "- 见 §9。",                                          # 14: hit
        "<!-- kb-lint disable-next-line dangling-section-reference -->",  # 15 (a name works too)
        "- 见 §10。",                                         # 16: off
        "- 见 §11。 <!-- kb-lint disable-line KB105 -->",     # 17: off
        "<!-- kb-lint disable -->",                         # 18: every rule
        "- 见 §12。",                                         # 19: off
    ]) + "\n")
    assert _lines(doc, select=["KB105"]) == [(10, "KB105"), (14, "KB105")]
    text = doc.read_text(encoding="utf-8")
    doc.write_text(text + "<!-- kb-lint disable-file KB105 -->\n", encoding="utf-8")
    assert _lines(doc, select=["KB105"]) == []


def test_directive_in_fenced_code_is_ignored(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "```\n<!-- kb-lint disable KB105 -->\n```\n- 见 §7。\n")
    assert _lines(doc, select=["KB105"]) == [(13, "KB105")]


def test_unknown_code_in_a_directive_is_an_input_error(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "<!-- kb-lint disable KB999 -->\n")
    with pytest.raises(InputError) as err:
        lint_paths([doc])
    assert "organized/knowledge/t.md:10" in err.value.message
    assert "unknown rule 'KB999'" in err.value.message and "KB101 front-matter-invalid" in err.value.message


def test_kb_yaml_select_ignore_and_command_line(tmp_path: Path) -> None:
    body = "- 见 §7。\n- 依据见 Q105。\n"
    doc = _doc(tmp_path, body, "lint:\n  select: [KB105, KB107]\n  ignore: [KB107]\n")
    assert _lines(doc) == [(10, "KB105")]
    assert _lines(doc, select=["KB107"]) == [(11, "KB107")]  # --select replaces kb.yaml's selection
    assert _lines(doc, select=["ALL"], ignore=["KB105", "KB104"]) == [(11, "KB107")]
    assert _lines(doc, ignore=["KB105"]) == []


def test_severity_and_options_from_kb_yaml(tmp_path: Path) -> None:
    body = "- 见 §7。\n\n## §2 版本记录\n\n- 原 §9 改号。\n"
    doc = _doc(tmp_path, body, "lint:\n  severity: {KB105: info}\n")
    run = lint_paths([doc], select=["KB105"])
    assert [(f.line, f.severity) for f in run.findings] == [(10, "info")]
    doc2 = _doc(tmp_path / "b", body, "lint:\n  rules:\n    KB105: {exclude_headings: []}\n")
    assert _lines(doc2, select=["KB105"]) == [(10, "KB105"), (14, "KB105")]


@pytest.mark.parametrize(("yaml", "message"), [
    ("lint:\n  select: [KB999]\n", "kb.yaml lint.select: unknown rule 'KB999'; valid codes: KB101 front-matter-invalid"),
    ("lint:\n  ignore: [no-such-rule]\n", "kb.yaml lint.ignore: unknown rule 'no-such-rule'"),
    ("lint:\n  severity: {KB105: fatal}\n", "kb.yaml lint.severity.KB105: 'fatal' is not one of error, warning, info"),
    ("lint:\n  rules:\n    KB105: {nope: 1}\n", "kb.yaml lint.rules.KB105: unknown option 'nope' (KB105 takes exclude_headings)"),
    ("lint:\n  rules:\n    KB111: {ignore_metrics: speedup}\n", "kb.yaml lint.rules.KB111.ignore_metrics: expected a list of text"),
])
def test_bad_lint_config_is_a_config_error(tmp_path: Path, yaml: str, message: str) -> None:
    doc = _doc(tmp_path, "", yaml)
    with pytest.raises(ConfigError) as err:
        lint_paths([doc])
    assert message in err.value.message
    assert err.value.exit_code == 2


def test_unknown_code_on_the_command_line_lists_the_valid_codes() -> None:
    with pytest.raises(UsageError) as err:
        build_settings(LintConfig(), select=["KB105", "KB1O5"])
    assert err.value.message.startswith("--select: unknown rule 'KB1O5'; valid codes: KB101 front-matter-invalid, ")
    assert all(r.code in err.value.message for r in registry.RULES)
    with pytest.raises(UsageError, match="--ignore: unknown rule 'x'"):
        build_settings(LintConfig(), ignore=["x"])


def test_codes_and_names_select_the_same_rule_and_deprecated_names_still_work(monkeypatch: pytest.MonkeyPatch) -> None:
    assert [r.code for r in build_settings(LintConfig(), select=["kb105", "paper-node-duplicated"]).rules] == ["KB105", "KB112"]
    monkeypatch.setitem(registry.DEPRECATED, "old-section-ref", "KB105")
    assert [r.code for r in build_settings(LintConfig(), select=["old-section-ref"]).rules] == ["KB105"]


def test_cli_exit_codes(tmp_path: Path, run_kb) -> None:
    doc = _doc(tmp_path, "- 见 §7。\n- 依据见 Q105。\n")
    root = doc.parents[2]
    assert run_kb(["lint", "--select", "KB107"], cwd=root).exit_code == 0  # warnings only
    r = run_kb(["lint", "--select", "KB105,KB107"], cwd=root)
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [
        "organized/knowledge/t.md:10:5: KB105 [error] §7 is not a section of this document (the last at that "
        "level is §1): fix the number or add the section (dangling-section-reference)",
        "organized/knowledge/t.md:11:7: KB107 [warning] 'Q105' is the only evidence here: cite the paper "
        "(arXiv id), a source URL or an inbox path (internal-id-as-evidence)",
    ]
    assert "1 error, 1 warning, 0 info in 1 file" in r.stderr
    bad = run_kb(["lint", "--select", "KB000"], cwd=root)
    assert bad.exit_code == 2 and "unknown rule 'KB000'" in bad.stderr
    (root / "kb.yaml").write_text("lint:\n  ignore: [KB000]\n", encoding="utf-8")
    assert run_kb(["lint"], cwd=root).exit_code == 2


def test_file_outside_a_kb_skips_kb_rules_with_a_note(tmp_path: Path, run_kb) -> None:
    doc = tmp_path / "loose.md"
    doc.write_text(HEAD + "- Medusa（arXiv:2401.10774）见 inbox/x/2026-01-01-a.md。\n", encoding="utf-8")
    r = run_kb(["lint", "loose.md", "--format", "json"], cwd=tmp_path)
    assert r.exit_code == 0 and r.stdout.strip() == "[]"
    assert "note: KB104, KB108, KB110, KB118, KB119, KB120 skipped for loose.md: not inside a KB" in r.stderr
    r2 = run_kb(["lint", "loose.md", "--select", "KB104"], cwd=tmp_path)
    assert "KB104 skipped for loose.md" in r2.stderr
