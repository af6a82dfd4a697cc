"""What a living document holds, as the outcome rules read it (:mod:`kb.night.rules`): the
subjects it mentions and those it has a node for, per section, and its facts per subject group,
change-log sections citing the body line that states a value.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace

from kb.facts.attributor import Attributor, Fact, View
from kb.facts.values import same_value

#: Titles of a living doc's change-log sections (any case, contained in the title): a section
#: so titled and its subsections record changes (``## §9 版本记录``), they do not state values of
#: their own. The one list: lint KB105's default ``exclude_headings`` is this list.
CHANGELOG_HEADINGS = ("版本记录", "版本历史", "变更记录", "变更日志", "更新记录", "更新日志", "修订记录",
                      "changelog", "change log", "version history", "revision history")


def changelog_ranges(sections: Sequence[tuple[int, str, str]]) -> list[tuple[int, int]]:
    """``(first line, last line)`` of the change-log sections of a doc (:data:`CHANGELOG_HEADINGS`)
    and their subsections (labels under theirs: ``§9.1`` under ``§9``); the last section runs
    to the end (``10**9``).

    :param sections: ``(line, label, heading text)`` of each section, in line order."""
    out: list[tuple[int, int]] = []
    logs: list[str] = []
    for i, (line, label, title) in enumerate(sections):
        low = title.lower()
        if any(h in low for h in CHANGELOG_HEADINGS) or any(label.startswith(x + ".") for x in logs if x):
            logs.append(label)
            out.append((line, sections[i + 1][0] - 1 if i + 1 < len(sections) else 10**9))
    return out


class DocIndex:
    """What the living doc says: subjects, node subjects, sections and facts per subject group.

    The doc's value of a fact is cited where a section states it: a change-log section
    (:func:`changelog_ranges`) restating a value that a body section states (same group, metric,
    unit and value) cites that body line (``§3.2`` ``kvcache.md:59``, not ``§9 版本记录`` ``:92``),
    its qualifier kept, so it compares as before (tester5's KB, issue 8). A change log is never
    a subject's location (no mention, no node, no section hint) and a value only it states is no
    value of the doc (issue 20: ``## 变更记录`` read as a section to correct raised false conflicts)."""

    def __init__(self, at: Attributor, views: Sequence[View], sections: Sequence[tuple[int, str, str]],
                 titled: Mapping[str, Sequence[tuple[int, bool]]], tol: float = 0.02) -> None:
        self.at = at
        self.mentioned: dict[str, list[str]] = defaultdict(list)
        self.hosted: dict[str, list[str]] = defaultdict(list)  # named only as a host or baseline
        self.nodes: dict[str, list[str]] = defaultdict(list)
        self.facts: dict[str, list[Fact]] = defaultdict(list)
        lines = [line for line, _, _ in sections]
        logs = changelog_ranges(sections)
        log_starts = {a for a, _ in logs}
        for line, label, title in sections:
            if line in log_starts:
                continue  # a change log is never where a subject is (issue 20)
            for key in at.names_in(title):
                _add(self.nodes[key], label)
                _add(self.mentioned[key], label)
        for v in views:
            i = bisect_right(lines, v.claim.provenance.line) - 1
            label = sections[i][1] if i >= 0 else ""
            if i >= 0 and sections[i][0] in log_starts:  # its values only where a body section restates them (_cite_body)
                for f in v.facts:
                    self.facts[f.group].append(f)
                continue
            for key in v.subjects:
                _add(self.mentioned[key], label)
            for key in v.hosts:
                _add(self.hosted[key], label)
            for key in v.leads:  # "- vLLM：…" is a node; "- 其他如 llama.cpp …" names it in passing
                _add(self.nodes[key], label)
            for f in v.facts:
                self.facts[f.group].append(f)
        if logs:
            for group, facts in self.facts.items():
                self.facts[group] = _cite_body(facts, logs, tol)
        for key, at_lines in titled.items():  # cited by title only
            for line, item in at_lines:
                i = bisect_right(lines, line) - 1
                label = sections[i][1] if i >= 0 else ""
                _add(self.mentioned[key], label)
                if item:
                    _add(self.nodes[key], label)
        for index in (self.mentioned, self.nodes, self.hosted):
            for key in list(index):
                if at.group(key) != key:
                    for label in index[key]:
                        _add(index[at.group(key)], label)

    def has(self, key: str) -> bool:
        """True when the doc mentions ``key`` or a key of its group (as a baseline or host too)."""
        g = self.at.group(key)
        return key in self.mentioned or g in self.mentioned or key in self.hosted or g in self.hosted

    def is_node(self, key: str) -> bool:
        """True when ``key`` (or its group) heads a section, list item or table row."""
        return bool(self.nodes.get(key) or self.nodes.get(self.at.group(key)))

    def sections(self, key: str) -> list[str]:
        """Section labels mentioning ``key``: node sections first, then the others; sections that
        name it only as a host or baseline (``相对 vLLM 共置部署``) only when no section holds it
        otherwise: they are no place to correct or add its values."""
        keys = (key, self.at.group(key))
        own = list(dict.fromkeys(s for k in keys for s in (*self.nodes.get(k, ()), *self.mentioned.get(k, ())) if s))
        return own or list(dict.fromkeys(s for k in keys for s in self.hosted.get(k, ()) if s))


#: A name a line leads with: Latin letters and digits (``DeepEP``, ``Dynamo``, ``H200``), after a
#: list marker, a ``[label]`` or emphasis.
_LEAD_RE = re.compile(r"^\s*(?:[-*+>]|\d+[.)])?\s*(?:\[[^\]]{1,12}\]\s*)?(?:\*\*|__)?(?P<name>[A-Za-z][A-Za-z0-9.+-]*[A-Za-z0-9])")
#: Lead words that name nothing of the field (a line starting ``The``, ``README``, ``GPU``).
_COMMON_LEADS = frozenset({"api", "cpu", "gpu", "kv", "llm", "llms", "moe", "readme", "the", "this", "tpu", "url"})


def lead_term(text: str) -> str | None:
    """The name ``text`` (one line) leads with, else None: a Latin-script word of 3+ characters
    with a capital or a digit (``DeepEP 新增…`` -> ``DeepEP``; ``H200 按需价格…`` -> ``H200``), not an
    all-capital common word (``GPU``, ``README``) nor a lower-case word (``reportedly``).

    >>> lead_term("- DeepEP 新增 NVLink 域内的低延迟 all-to-all"), lead_term("- H200 按需租赁约 $3.2/GPU·h")
    ('DeepEP', 'H200')
    >>> lead_term("- reportedly 这是社区算力池的价格") is None, lead_term("GPU 价格") is None
    (True, True)
    """
    m = _LEAD_RE.match(text)
    if m is None:
        return None
    name = m.group("name")
    if len(name) < 3 or name.lower() in _COMMON_LEADS or not re.search(r"[A-Z0-9]", name):
        return None
    return name


def doc_terms(lines: Sequence[str], sections: Sequence[tuple[int, str, str]]) -> dict[str, tuple[str, int]]:
    """Names the living doc holds, for lines no subject claims: each Latin-script name
    (:func:`lead_term`'s shape) written in a heading, a table row or a body line of a section
    that is no change log, with the label of the first section and the 1-based line naming it:
    ``{"DeepEP": ("§2.9", 109)}``. Whole words, case as written.

    :param lines: the doc's lines; :param sections: ``(line, label, heading text)`` in line order."""
    starts = [line for line, _, _ in sections]
    logs = changelog_ranges(sections)
    out: dict[str, tuple[str, int]] = {}
    for n, text in enumerate(lines, 1):
        i = bisect_right(starts, n) - 1
        if i < 0 or any(a <= n <= b for a, b in logs):
            continue
        for m in re.finditer(r"(?<![A-Za-z0-9.+-])[A-Za-z][A-Za-z0-9.+-]*[A-Za-z0-9](?![A-Za-z0-9])", text):
            name = m.group(0)
            if lead_term(name) == name:
                out.setdefault(name, (sections[i][1], n))
    return out


def _cite_body(facts: list[Fact], logs: Sequence[tuple[int, int]], tol: float) -> list[Fact]:
    """``facts`` (one group's, of the doc) with each change-log fact that a body fact restates
    (same metric, unit and value; the first by line) replaced by that body fact under the
    change-log fact's qualifier, and every other change-log fact dropped: a change log records
    values, it is no statement to correct (issue 20) (:class:`DocIndex`)."""
    def in_log(f: Fact) -> bool:
        return any(a <= f.line <= b for a, b in logs)

    body = sorted((f for f in facts if not in_log(f)), key=lambda f: f.line)
    out = []
    for f in facts:
        twin = next((b for b in body if b.metric == f.metric and b.unit == f.unit and b.is_date == f.is_date
                     and same_value(b, f, tol)), None) if in_log(f) else None
        if twin is not None:
            out.append(replace(twin, qualifier=f.qualifier))
        elif not in_log(f):
            out.append(f)
    return out


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)
