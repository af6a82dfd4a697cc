"""``kb lint``: lint living documents (rules in :mod:`kb.lint`), text/json/sarif/github output."""


import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from kb.cli.common import (
    KbOption,
    app,
    console,
    console_err,
    counted,
    escape_controls,
    progress_bar,
    state,
)

if TYPE_CHECKING:  # the linter is imported when `kb lint` runs (start-up time)
    from kb.lint.run import LintRun

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


class LintFormat(str, Enum):
    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"


def _split(values: list[str] | None) -> list[str]:
    return [t.strip() for v in values or () for t in v.split(",") if t.strip()]


@app.command("lint")
def lint_cmd(
    paths: Annotated[Optional[list[Path]], typer.Argument(
        help="Living documents or folders of them (default: organized/knowledge/*.md of the KB).")] = None,
    fmt: Annotated[LintFormat, typer.Option("--format", help="text, json, sarif (2.1.0) or github (annotations).")] = LintFormat.text,
    select: Annotated[Optional[list[str]], typer.Option(
        "--select", help="Rules to run, codes or names, comma-separated or repeated; replaces kb.yaml's selection.")] = None,
    ignore: Annotated[Optional[list[str]], typer.Option("--ignore", help="Rules not to run (codes or names).")] = None,
    fix: Annotated[bool, typer.Option("--fix", help="Write the safe fixes (KB109 count, KB116 id prefix), atomically.")] = False,
    diff: Annotated[bool, typer.Option("--diff", help="Print the fixes as a unified diff; write nothing.")] = False,
    base: Annotated[Optional[str], typer.Option("--base", help="Git revision for KB102: a changed document must have a greater version than there.")] = None,
    kb: KbOption = None,
) -> None:
    """Lint living documents: front matter, versions, arXiv ids, sections, evidence, citations.

    Rules KB101–KB120 (docs/rules/). Configure in kb.yaml `lint:` (select, ignore, severity,
    rules.KBnnn options); disable inline with `<!-- kb-lint disable KB107 -->` …
    `<!-- kb-lint enable KB107 -->` or `<!-- kb-lint disable-next-line KB104 -->`. Rules
    that need the KB (KB104, KB108, KB110) are skipped, with a note, for files outside one.

    Exit codes: 0 no error-level finding; 1 error-level findings remain (with --diff: there
    are fixes to apply); 2 usage or configuration error (unknown rule code, bad kb.yaml).

    Example:

    \b
        kb lint organized/knowledge/inference.md --format sarif > kb-lint.sarif
    """
    from kb.lint.engine import exit_code
    from kb.lint.output import summary, to_github, to_json, to_sarif, to_text
    from kb.lint.run import lint_paths

    with progress_bar("reading the KB") as progress:
        run = lint_paths(list(paths or ()), kb=kb or state.kb, select=_split(select) or None,
                         ignore=_split(ignore), base=base, fix=fix and not diff, diff=diff, progress=progress,
                         show_all=state.verbose)
    for note in run.notes:
        console_err.print(f"note: {note}", markup=False, highlight=False)
    if diff:
        _write_bytes(b"".join(run.diffs))
        console_err.print(f"{counted(len(run.diffs), 'file')} would change", highlight=False)
        raise typer.Exit(1 if run.diffs else 0)
    for path, n in run.fixed.items():
        console_err.print(f"fixed {counted(n, 'finding')} in {path}", markup=False, highlight=False)
    findings = run.findings
    if fmt is LintFormat.json:
        sys.stdout.write(to_json(findings))
    elif fmt is LintFormat.sarif:
        sys.stdout.write(to_sarif(findings, run.rules, run.settings.docs_url))
    elif fmt is LintFormat.github:
        sys.stdout.write(to_github(findings))
    elif console.is_terminal:
        _print_rich(run)
    else:
        sys.stdout.write(escape_controls(to_text(findings)))
    if fmt is LintFormat.text:
        console_err.print(summary(findings, len(run.results)), highlight=False)
    raise typer.Exit(exit_code(run.results))


def _write_bytes(data: bytes) -> None:
    """Write a patch to stdout as bytes: it holds each file's own bytes (GB18030, CR, CRLF)."""
    sys.stdout.flush()
    out = getattr(sys.stdout, "buffer", None)
    if out is None:  # a text-only stream (some embedders): the best it can take
        sys.stdout.write(data.decode("utf-8", errors="replace"))
        return
    out.write(data)
    out.flush()


def _print_rich(run: "LintRun") -> None:
    from rich.text import Text

    for result in run.results:
        if not result.findings:
            continue
        console.print(Text(result.path, style="bold underline"))
        for f in result.findings:
            line = Text("  ")
            line.append(f"{f.line}:{f.column or 1}".ljust(9), style="dim")
            line.append(f.severity.ljust(8), style=_STYLE[f.severity])
            line.append(f.code.ljust(7), style="bold")
            line.append(f.message)
            line.append(f"  {f.name}", style="dim")
            console.print(line)
        console.print()
