"""Build the :class:`~kb.livedoc.LivingDoc` for lint: :func:`kb.livedoc.parse_living_doc`'s
result, with claims placed in sections by bisection.

Temporary: ``kb.livedoc._innermost`` scans the sections from the start for every claim
(O(claims × sections): 0.5 s of a 2 MB document's 2 s). Once livedoc places claims with
``bisect_right`` over the heading lines, replace :func:`build_living_doc` with
``parse_living_doc(parser, path, text)``; ``tests/lint/test_lint_doc.py`` checks that the two
agree field by field until then.
"""

from __future__ import annotations

from bisect import bisect_right

from kb import frontmatter
from kb.livedoc import LivingDoc, Section, _dt, _str
from kb.parse import Parser


def build_living_doc(parser: Parser, path: str, text: str) -> LivingDoc:
    """Parse a living document's text (LF, no BOM) once, as ``parse_living_doc`` does.

    :param path: KB-relative path (decides the file role and provenance).
    :returns: the :class:`LivingDoc` (no card aliases); problems are collected, not raised.
    """
    parsed = parser.parse_text(path, text, [])
    fm, _ = frontmatter.split(text, path)
    total_lines = text.count("\n") + 1
    sections: list[Section] = []
    unnumbered = 0
    for pos, h in enumerate(parsed.headings, 1):
        if h.section:
            number, numbered = h.section, True
        else:
            number, numbered = f"#{pos}", False
            if h.level > 1:
                unnumbered += 1
        sections.append(Section(number, h.text, h.level, h.line, total_lines, numbered, list(h.subjects)))
    for a, b in zip(sections, sections[1:]):
        a.end_line = b.line - 1
    notes = [f"{path}: {unnumbered} heading(s) without a § number, numbered by position (#n)"] if unnumbered else []
    starts = [s.line for s in sections]
    for c in parsed.claims:
        i = bisect_right(starts, c.provenance.line)
        if i:
            sections[i - 1].claims.append(c)
    for s in sections:
        subj = list(s.heading_subjects)
        for c in s.claims:
            subj.extend(c.subjects)
        s.subjects = list(dict.fromkeys(subj))
    front = parsed.front
    version = front.get("version")
    citations = front.get("citations")
    return LivingDoc(
        path=path,
        topic=_str(front.get("topic")),
        version=version if isinstance(version, int) and not isinstance(version, bool) else None,
        updated=_dt(front.get("updated"), parser),
        citations=citations if isinstance(citations, int) else None,
        front=front,
        front_lines=dict(fm.key_lines),
        front_present=fm.present,
        sections=sections,
        claims=parsed.claims,
        headings=parsed.headings,
        parsed=parsed,
        problems=parsed.problems,
        notes=notes,
        text=text,
    )
