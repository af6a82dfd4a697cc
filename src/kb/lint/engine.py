"""Running the selected rules over living documents: settings, inline directives, results.

One parse per file: the :class:`~kb.read.livedoc.LivingDoc` (one markdown-it pass plus claim
extraction) and a :class:`~kb.lint.lines.LineIndex` are built once and every rule reads them.
The cyclic garbage collector is paused while one file is linted: the parse allocates millions
of acyclic objects, and collection passes over them cost a third of the time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.core.config import KbConfig, LintConfig
from kb.core.errors import ConfigError, InputError, UsageError
from kb.core.textio import decode
from kb.lint.base import SEVERITIES, Finding, LintContext, Rule, Severity
from kb.lint.lines import LineIndex
from kb.lint.registry import lookup, select_rules, valid_codes
from kb.perf.gc import no_gc_passes
from kb.read.livedoc import parse_living_doc
from kb.read.parse import Parser

_DIRECTIVE_RE = re.compile(r"<!--\s*kb-lint\s+(disable-next-line|disable-line|disable-file|disable|enable)\b([^>]*?)-->")
ALL = "*"


@dataclass(slots=True)
class LintSettings:
    """Which rules run, at which severity, with which options.

    :ivar rules: rule classes in registry order.
    :ivar severity: code -> severity overriding the rule's default.
    :ivar options: code -> the rule's options (defaults merged with ``lint.rules.<code>``).
    """

    rules: list[type[Rule]]
    severity: dict[str, Severity] = field(default_factory=dict)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    docs_url: str | None = None
    """kb.yaml ``lint.docs_url``: where the rule pages are published (SARIF ``helpUri``)."""

    def severity_of(self, rule: type[Rule]) -> Severity:
        """Effective severity of ``rule``."""
        return self.severity.get(rule.code, rule.severity)


def build_settings(lint: LintConfig, select: Sequence[str] | None = None, ignore: Sequence[str] = ()) -> LintSettings:
    """Settings from ``kb.yaml``'s ``lint:`` section and the command line.

    The command line wins: ``--select`` replaces the selection of ``kb.yaml``
    (``lint.select`` minus ``lint.ignore``); ``--ignore`` removes rules from whichever applies.

    :raises ConfigError: unknown code, severity or option in ``kb.yaml`` (exit 2).
    :raises UsageError: unknown code on the command line (exit 2).
    """
    from_config = select_rules(lint.select, lint.ignore, where_select="kb.yaml lint.select",
                               where_ignore="kb.yaml lint.ignore", error=ConfigError)
    rules = select_rules(select, (), where_select="--select") if select else from_config
    dropped = {lookup(t, where="--ignore").code for t in ignore if t.strip()}
    rules = [r for r in rules if r.code not in dropped]
    severity: dict[str, Severity] = {}
    for key, value in lint.severity.items():
        rule = lookup(key, where="kb.yaml lint.severity", error=ConfigError)
        if value not in SEVERITIES:
            raise ConfigError(f"kb.yaml lint.severity.{key}: {value!r} is not one of {', '.join(SEVERITIES)}")
        severity[rule.code] = value  # type: ignore[assignment]
    options: dict[str, dict[str, Any]] = {r.code: dict(r.options) for r in select_rules(["ALL"])}
    for key, given in lint.rules.items():
        rule = lookup(key, where="kb.yaml lint.rules", error=ConfigError)
        for name, value in (given or {}).items():
            if name not in rule.options:
                takes = ", ".join(rule.options) or "no options"
                raise ConfigError(f"kb.yaml lint.rules.{key}: unknown option {name!r} ({rule.code} takes {takes})")
            if not _same_shape(rule.options[name], value):
                raise ConfigError(f"kb.yaml lint.rules.{key}.{name}: expected {_shape(rule.options[name])}, got {value!r}")
            options[rule.code][name] = value
    return LintSettings(rules, severity, options, lint.docs_url)


def _same_shape(default: Any, value: Any) -> bool:
    if default is None or isinstance(default, list):
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if isinstance(default, bool):
        return isinstance(value, bool)
    return isinstance(value, type(default))


def _shape(default: Any) -> str:
    return "a list of text" if default is None or isinstance(default, list) else type(default).__name__


@dataclass(slots=True)
class LintResult:
    """The outcome for one file.

    :ivar findings: findings left after inline directives, in output order.
    :ivar skipped: codes of rules that need a KB and were skipped (file outside any KB).
    :ivar data: the bytes linted; :ivar encoding: how they were decoded (see kb.core.textio.decode).
    :ivar lines: the decoded lines; :ivar index: their line index (fixes reuse it).
    """

    path: str
    findings: list[Finding]
    skipped: list[str]
    data: bytes
    encoding: str
    lines: list[str]
    index: LineIndex | None = None


class Linter:
    """Lints living documents with one configuration.

    :param config: the KB's configuration (defaults outside a KB).
    :param settings: rules, severities and options (:func:`build_settings`).
    :param facts: callable returning the KB's :class:`~kb.lint.kbfacts.KbFacts`, called once
        on first need; None outside a KB.
    :param root: the KB root, or None.
    :param base: ``--base REV`` for KB102, or None.
    """

    def __init__(self, config: KbConfig, settings: LintSettings, *, facts: Callable[[], Any] | None = None,
                 root: Path | None = None, base: str | None = None) -> None:
        self.config = config
        self.settings = settings
        self.parser = Parser(config)
        self.root = root
        self.base = base
        self._facts_fn = facts
        self._facts: Any = None

    def facts(self) -> Any:
        """The KB facts, loaded on first call."""
        if self._facts is None and self._facts_fn is not None:
            self._facts = self._facts_fn()
        return self._facts

    def lint_bytes(self, path: str, data: bytes, *, file: Path | None = None, in_kb: bool = True) -> LintResult:
        """Lint one document.

        :param path: the path findings show (KB-relative inside a KB; decides the file role).
        :param data: the file's bytes (BOM, CRLF and GB18030 handled as everywhere in kb).
        :param file: the file on disk (KB102's history and ``--base``), or None.
        :param in_kb: False when the file is outside any KB: rules that need one are skipped.
        :raises InputError: an inline directive names an unknown rule (exit 2).
        """
        with no_gc_passes():  # parsing allocates millions of acyclic objects
            return self._lint(path, data, file, in_kb)

    def _lint(self, path: str, data: bytes, file: Path | None, in_kb: bool) -> LintResult:
        dec = decode(data, path, keep_nul_lines=True)
        doc = parse_living_doc(self.parser, path, dec.text)
        lines = dec.text.split("\n")
        index = LineIndex(lines, {h.line for h in doc.headings})
        use_kb = in_kb and self._facts_fn is not None
        ctx = LintContext(path, doc, lines, index, self.config, None, self.root if in_kb else None, file, self.base,
                          nul=[(p.line, p.column or 1, p.message) for p in dec.problems if p.code == "nul"])
        findings: list[Finding] = []
        skipped: list[str] = []
        off = directives(index, doc.text, path)
        for rule_cls in self.settings.rules:
            if rule_cls.needs_kb:
                if not use_kb:
                    skipped.append(rule_cls.code)
                    continue
                if ctx.kb is None:
                    ctx.kb = self.facts()
            rule = rule_cls()
            sev = self.settings.severity_of(rule_cls)
            opts = self.settings.options.get(rule_cls.code, dict(rule_cls.options))
            kept = [v for v in rule.check(ctx, opts) if not off.off(rule_cls.code, v.line)]
            for v in rule.group(kept, opts):
                findings.append(Finding(path, v.line, v.column, rule_cls.code, rule_cls.name, sev, v.message, v.fix))
        findings.sort(key=Finding.sort_key)
        return LintResult(path, findings, skipped, data, dec.encoding, lines, index)


@dataclass(slots=True)
class Directives:
    """Inline ``<!-- kb-lint … -->`` comments of one file, resolved to line ranges per code."""

    ranges: list[tuple[str, int, int]] = field(default_factory=list)
    lines: dict[int, set[str]] = field(default_factory=dict)
    whole: set[str] = field(default_factory=set)

    def off(self, code: str, line: int) -> bool:
        """True when ``code`` is disabled on ``line``."""
        if code in self.whole or ALL in self.whole:
            return True
        on_line = self.lines.get(line)
        if on_line and (code in on_line or ALL in on_line):
            return True
        return any((c == code or c == ALL) and a <= line <= b for c, a, b in self.ranges)


def directives(index: LineIndex, text: str, path: str) -> Directives:
    """Read the inline directives of a document (outside front matter and fenced code).

    ``disable CODES`` … ``enable CODES`` (no codes: every rule; an unclosed disable runs to
    the end), ``disable-next-line CODES``, ``disable-line CODES``, ``disable-file CODES``.
    Codes may be separated by spaces or commas, and may be rule names.

    :raises InputError: a directive names an unknown rule; the message lists the valid codes.
    """
    out = Directives()
    if "kb-lint" not in text:
        return out
    open_at: dict[str, int] = {}
    last = len(index.lines)
    for n, _col, m in index.search(_DIRECTIVE_RE, text):
        verb = m.group(1)
        codes = _codes(m.group(2), path, n)
        if verb == "disable-next-line":
            out.lines.setdefault(n + 1, set()).update(codes)
        elif verb == "disable-line":
            out.lines.setdefault(n, set()).update(codes)
        elif verb == "disable-file":
            out.whole.update(codes)
        elif verb == "disable":
            for c in codes:
                open_at.setdefault(c, n)
        else:  # enable
            closing = list(open_at) if ALL in codes else [c for c in codes if c in open_at]
            for c in closing:
                out.ranges.append((c, open_at.pop(c), n))
    for c, start in open_at.items():
        out.ranges.append((c, start, last))
    return out


def _codes(spec: str, path: str, line: int) -> set[str]:
    tokens = [t for t in re.split(r"[\s,]+", spec.strip()) if t]
    if not tokens:
        return {ALL}
    out: set[str] = set()
    for t in tokens:
        try:
            out.add(lookup(t, where=f"{path}:{line}: kb-lint comment").code)
        except UsageError as exc:
            raise InputError(f"kb-lint comment names unknown rule {t!r}; valid codes: {valid_codes()}",
                             path, line) from exc
    return out


def exit_code(results: Iterable[LintResult]) -> int:
    """1 when any error-level finding remains, else 0 (DESIGN.md §5)."""
    return 1 if any(f.severity == "error" for r in results for f in r.findings) else 0
