"""Lint output formats: plain text, JSON, SARIF 2.1.0 and GitHub workflow commands.

All functions are pure (findings in, text out) and deterministic; the rich, grouped text
for a terminal is drawn by ``kb.cli.lint_cmd``.
"""

from __future__ import annotations

import inspect
import json
import re
from collections import Counter
from collections.abc import Sequence
from urllib.parse import quote, urljoin

from kb import __version__
from kb.lint.base import Finding, Rule

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def to_text(findings: Sequence[Finding]) -> str:
    """One line per finding: ``path:line:col: CODE [severity] message (name)``."""
    out = []
    for f in findings:
        where = f"{f.path}:{f.line}" + (f":{f.column}" if f.column else "")
        out.append(f"{where}: {f.code} [{f.severity}] {f.message} ({f.name})")
    return "".join(line + "\n" for line in out)


def to_json(findings: Sequence[Finding]) -> str:
    """A JSON list of :meth:`Finding.as_dict` objects (UTF-8, not ASCII-escaped)."""
    return json.dumps([f.as_dict() for f in findings], ensure_ascii=False, indent=2) + "\n"


def _first_paragraph(rule: type[Rule]) -> str:
    doc = (rule.__doc__ or "").split("## Why is this bad?")[0]
    body = doc.replace("## What it does", "").strip()
    return " ".join(body.split())


def rule_help_uri(code: str, docs_url: str | None) -> str | None:
    """``helpUri`` of a rule: ``docs_url`` (kb.yaml ``lint.docs_url``, the folder of the published
    rule pages) plus ``KB104.md``; None when no URL is configured (SARIF takes only absolute URIs
    there, so kb never writes a path relative to its own repository)."""
    if not docs_url:
        return None
    return docs_url.rstrip("/") + f"/{code}.md"


_LINK_RE = re.compile(r"\[([^\]]*)\]\((?![a-z]+:)([^)\s]+)\)")
"""A Markdown link to a relative path (``[docs/diff.md](../diff.md)``)."""


def _help_markdown(rule: type[Rule], docs_url: str | None) -> str:
    """The rule's page body (its docstring, What it does … References) for ``help.markdown``:
    relative links made absolute against ``docs_url``, or, with none, written as their text."""
    doc = inspect.cleandoc(rule.__doc__ or "")
    if docs_url:
        base = docs_url.rstrip("/") + "/"
        return _LINK_RE.sub(lambda m: f"[{m.group(1)}]({urljoin(base, m.group(2))})", doc)
    return _LINK_RE.sub(lambda m: m.group(1), doc)


def to_sarif(findings: Sequence[Finding], rules: Sequence[type[Rule]], docs_url: str | None = None) -> str:
    """A SARIF 2.1.0 log with one run, as GitHub code scanning accepts it.

    Every rule that ran is listed in ``tool.driver.rules`` (id = code, name, descriptions,
    the rule's whole page as ``help`` text and Markdown, ``helpUri`` from ``docs_url`` when
    given (:func:`rule_help_uri`), default level, tags); each finding is a result with ``ruleId``/``ruleIndex``, level
    (``info`` → ``note``) and a physical location whose URI is the path, relative to the
    repository root, percent-encoded. Columns are Unicode code points.
    """
    index = {r.code: i for i, r in enumerate(rules)}
    driver_rules = [
        {
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "fullDescription": {"text": _first_paragraph(r)},
            "help": {"text": _LINK_RE.sub(lambda m: m.group(1), _help_markdown(r, None)),
                     "markdown": _help_markdown(r, docs_url)},
            **({"helpUri": uri} if (uri := rule_help_uri(r.code, docs_url)) else {}),
            "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]},
            "properties": {"tags": list(r.tags)},
        }
        for r in rules
    ]
    results = []
    for f in findings:
        region: dict[str, int] = {"startLine": max(f.line, 1)}
        if f.column:
            region["startColumn"] = f.column
        result = {
            "ruleId": f.code,
            "level": _SARIF_LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": quote(f.path, safe="/@"), "uriBaseId": "%SRCROOT%"},
                "region": region,
            }}],
        }
        if f.code in index:
            result["ruleIndex"] = index[f.code]
        results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "kb", "version": __version__, "rules": driver_rules}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json.dumps(log, ensure_ascii=False, indent=2) + "\n"


def _escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


def to_github(findings: Sequence[Finding]) -> str:
    """GitHub Actions workflow commands, one per finding:
    ``::error file=path,line=N,col=C,title=KB105::name: message`` (info → ``notice``)."""
    out = []
    for f in findings:
        props = [f"file={_escape_property(f.path)}", f"line={f.line}"]
        if f.column:
            props.append(f"col={f.column}")
        props.append(f"title={f.code}")
        out.append(f"::{_GITHUB_LEVEL[f.severity]} {','.join(props)}::{_escape_data(f.name + ': ' + f.message)}")
    return "".join(line + "\n" for line in out)


def summary(findings: Sequence[Finding], files: int) -> str:
    """``3 errors, 1 warning, 0 info in 2 files (1 fixable with --fix): KB104 ×2, KB105 ×1 …``
    (counts per rule, most first, so one noisy rule does not hide the others)."""
    n = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        n[f.severity] += 1
    fixable = sum(1 for f in findings if f.fix)
    def plural(k: int, word: str) -> str:
        return f"{k} {word}{'' if k == 1 or word == 'info' else 's'}"
    text = f"{plural(n['error'], 'error')}, {plural(n['warning'], 'warning')}, {plural(n['info'], 'info')} " \
           f"in {plural(files, 'file')}"
    if fixable:
        text += f" ({fixable} fixable with --fix)"
    per_code = Counter(f.code for f in findings)
    if per_code:
        text += ": " + ", ".join(f"{code} ×{k}" for code, k in sorted(per_code.items(), key=lambda x: (-x[1], x[0])))
    return text
