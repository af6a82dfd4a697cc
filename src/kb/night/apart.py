"""Which window claims an author keeps apart from comparison: a note in their heading block says
their figures are not directly comparable (``两者不可直接比较``; the lines are
:func:`kb.extract.caveats.apart_lines`). The diff (:func:`kb.night.rules.diff`, ``apart``) never
makes their figures a conflict. Which claims sit on a table row an author demotes by its words
(``并发 32 那一行…不建议入文档``: :func:`kb.extract.caveats.demoted_rows`): the diff makes their
figures no new values, the brief no figures to check (:func:`demoted_row_claims`).
"""

from __future__ import annotations

from collections.abc import Sequence

from kb.core.claims import Claim
from kb.extract.caveats import apart_lines, demoted_rows, row_named
from kb.store.lines import file_lines
from kb.store.workspace import Kb


def apart_claims(kb: Kb, claims: Sequence[Claim], covered: dict[str, set[int]] | None = None) -> set[str]:
    """Ids of the ``claims`` whose author says, in their heading block, that their figures are not
    directly comparable (:func:`kb.extract.caveats.apart_lines`); each file read once.

    :param covered: path -> its apart lines, filled as files are read (nights of several
        topics share one: :class:`kb.night.share.NightShare`)."""
    covered = {} if covered is None else covered
    out: set[str] = set()
    for c in claims:
        path = c.provenance.path
        if path not in covered:
            covered[path] = apart_lines(file_lines(kb.root, path)[0])  # none when it cannot be read any more
        if c.provenance.line in covered[path]:
            out.add(c.id)
    return out


def demoted_row_claims(kb: Kb, claims: Sequence[Claim]) -> set[str]:
    """Ids of the ``claims`` on a table row that a demoting line of the same file names by its
    words (:func:`kb.extract.caveats.row_named`: ``并发 32 那一行是新数字，但…不建议入文档``): the
    author keeps that row's figures out of the doc. Only the files holding such a line are read."""
    named: dict[str, list[int]] = {}
    for c in claims:
        if row_named(c.text) is not None:
            named.setdefault(c.provenance.path, []).append(c.provenance.line)
    rows = {(path, n) for path, at in named.items() for n in demoted_rows(file_lines(kb.root, path)[0], at)}
    return {c.id for c in claims if (c.provenance.path, c.provenance.line) in rows}
