"""Lint building blocks: :class:`Rule`, :class:`Violation`, :class:`Finding`, :class:`LintContext`."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

from kb.core.config import KbConfig
from kb.facts.attributor import View
from kb.facts.query import attributor
from kb.lint.lines import LineIndex
from kb.read.livedoc import LivingDoc, Section

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace characters ``[start, end)`` of one line (1-based ``line``, 0-based columns in the
    decoded line, no line end) with ``text``. Fixes are lists of edits; see :mod:`kb.lint.fix`."""

    line: int
    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Violation:
    """What a rule reports: a 1-based line, an optional 1-based column, a message, a fix.

    :ivar fix: edits that repair the violation safely, or None when only a human can.
    """

    line: int
    message: str
    column: int | None = None
    fix: tuple[Edit, ...] | None = None


@dataclass(frozen=True, slots=True)
class Finding:
    """A violation placed in a file with its rule's code, name and effective severity.

    This is the JSON contract of ``kb lint --format json`` (``fix`` excluded).
    """

    path: str
    line: int
    column: int | None
    code: str
    name: str
    severity: Severity
    message: str
    fix: tuple[Edit, ...] | None = None

    def sort_key(self) -> tuple[str, int, int, str, str]:
        """Stable output order: path, line, column, code, message."""
        return (self.path, self.line, self.column or 0, self.code, self.message)

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of one finding (``column`` is null when unknown)."""
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "name": self.name,
            "severity": self.severity,
            "message": self.message,
            "fixable": self.fix is not None,
        }


class Rule:
    """One lint rule: subclass it in ``kb/lint/rules/kbNNN_<name>.py``.

    The class docstring is the rule's documentation, with the headings What it does /
    Why is this bad? / Example / Use instead / Options / References (STYLE.md habit 6);
    ``docs/rules/KBNNN.md`` is generated from it by :mod:`kb.lint.gen_docs`.

    :cvar code: ``KBnnn``, never reused. :cvar name: the bad pattern, kebab-case.
    :cvar summary: one line for listings. :cvar severity: default severity.
    :cvar needs_kb: the rule reads the KB (cards, claims, files); skipped outside one.
    :cvar fixable: the rule attaches safe fixes.
    :cvar scope: ``doc`` (checks each linted document: :meth:`check`) or ``kb`` (checks the
        KB's other files once per run inside a KB: :meth:`check_kb`; KB119, the cards).
    :cvar options: option name -> default; set in ``kb.yaml`` ``lint.rules.KBnnn``.
    """

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    severity: ClassVar[Severity] = "warning"
    tags: ClassVar[tuple[str, ...]] = ()
    needs_kb: ClassVar[bool] = False
    fixable: ClassVar[bool] = False
    options: ClassVar[Mapping[str, Any]] = {}
    scope: ClassVar[str] = "doc"

    def check_kb(self, kb: Any, opts: Mapping[str, Any]) -> Iterator[tuple[str, Violation]]:
        """Yield ``(KB-relative path, violation)`` of the KB's own files (a ``kb`` scope rule);
        ``kb`` is the run's :class:`kb.lint.kbfacts.KbFacts`."""
        return iter(())

    def check(self, ctx: LintContext, opts: Mapping[str, Any]) -> Iterator[Violation]:
        """Yield the violations of one document.

        :param ctx: the parsed document and what the KB knows.
        :param opts: this rule's options, defaults merged with ``lint.rules.<code>``.
        """
        raise NotImplementedError

    def group(self, violations: list[Violation], opts: Mapping[str, Any]) -> list[Violation]:
        """The findings to report from this document's ``violations`` that inline comments left
        on (``<!-- kb-lint disable-next-line … -->`` is applied per violation first); by default
        all of them. A rule that reports one finding per document (KB104) merges them here."""
        return violations


@dataclass(slots=True)
class LintContext:
    """Everything rules read about one document; built once per file and shared by all rules.

    :ivar path: the path shown in findings (KB-relative inside a KB).
    :ivar doc: the parsed living document (one markdown-it parse for all rules).
    :ivar lines: decoded lines (LF, no BOM), ``lines[0]`` is line 1.
    :ivar index: raw-line helpers (front matter, fences, headings, code spans).
    :ivar kb: facts from the KB's store, or None outside a KB.
    :ivar root: the KB root, or None.
    :ivar file: the file on disk, or None for text linted from memory.
    :ivar base: ``--base REV`` (KB102), or None.
    :ivar nul: lines that held NUL bytes (KB117); in ``lines`` each NUL is a space.
    """

    path: str
    doc: LivingDoc
    lines: list[str]
    index: LineIndex
    config: KbConfig
    kb: Any = None
    root: Path | None = None
    file: Path | None = None
    base: str | None = None
    nul: list[tuple[int, int, str]] = field(default_factory=list)
    """``(line, column of the first NUL, message)`` of every line that held NUL bytes (now spaces)."""
    _starts: list[int] = field(default_factory=list)
    _claims: list[Any] | None = None
    _views: list[View] | None = None

    def claims(self) -> list[Any]:
        """The doc's claims with the subjects and number owners ``kb diff`` gives them
        (:meth:`kb.facts.attributor.Attributor.attributed`, built by :func:`kb.facts.query.attributor`: kb.yaml entities, card names, baselines,
        name–id pairs), so a lint rule and the diff say the same of a line. Built once per file."""
        if self._claims is None:
            self._attribute()
        return self._claims or []

    def views(self) -> list[View]:
        """The doc's claims as the diff sees them (:class:`kb.facts.attributor.View`: subjects,
        owners and :attr:`~kb.facts.attributor.View.facts`, the facts the diff compares, built by
        :func:`kb.facts.fact.facts_of`), one per claim in :meth:`claims` order. Built once per file."""
        if self._views is None:
            self._attribute()
        return self._views or []

    def _attribute(self) -> None:
        headings = [s.title for s in self.doc.sections]
        at = self.kb.attributor_for(self.config, headings) if self.kb is not None else \
            attributor(None, config=self.config, cards=[], headings=headings)
        at.learn(self.doc.claims)
        self._views = [at.view(c) for c in self.doc.claims]
        self._claims = [at.attributed(c) for c in self.doc.claims]

    def section_at(self, line: int) -> Section | None:
        """The section whose heading is the last one at or before ``line`` (bisect; O(log n))."""
        if not self._starts:
            self._starts = [s.line for s in self.doc.sections]
        i = bisect_right(self._starts, line)
        return self.doc.sections[i - 1] if i else None
